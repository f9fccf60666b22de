"""Loading a game's content (tables, cards, maps) from data files, loudly.

Every game keeps its printed or designed content in JSON beside its rules and
validates it on import, so a bad replacement file fails at start-up with the
place it is wrong, never in the middle of a game.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar, TypeVar

T = TypeVar("T")


class DataError(ValueError):
    """A data file that does not describe a valid game."""


@typing.dataclass_transform(frozen_default=True)
class Record:
    """A record of a game's content (a card, a table, a region): every subclass
    is made a frozen dataclass of its typed fields, so a record is declared by
    its class line and its fields, and nothing changes it once loaded."""

    #: Set on each subclass when it is made a dataclass (typed for ``dataclasses``).
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        dataclasses.dataclass(frozen=True)(cls)


def integer(value: Any, where: str, low: int = 0) -> int:
    """An integer ≥ ``low`` (booleans refused), or a DataError naming ``where``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise DataError(f"{where} must be an integer >= {low}, not {value!r}")
    return value


def validator(game: str) -> Callable[[Callable[[Any], T]], Callable[[Any], T]]:
    """Turn a loader's missing keys and wrong shapes into a DataError about ``game``."""

    def decorate(load: Callable[[Any], T]) -> Callable[[Any], T]:
        @functools.wraps(load)
        def checked(raw: Any) -> T:
            try:
                return load(raw)
            except (KeyError, TypeError, AttributeError, IndexError) as exc:
                raise DataError(f"malformed {game} data: {exc!r}") from exc

        return checked

    return decorate


def read_json(path: Path | str) -> Any:
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)
