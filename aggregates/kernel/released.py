"""A game's earlier released rules versions, declared once as a list.

Each released version keeps a class of its own, so that the catalogue finds
it by the version a record names and records keep naming its events by topic
(docs/rules-versions.md); the class is the served one with that version, and
``released_versions`` makes them all from the list a game's ``v1`` module gives.
"""

from __future__ import annotations

import operator
import types
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from aggregates.kernel.game import Game

GameT = TypeVar("GameT", bound=Game)
#: A released version: its ``RULES_VERSION``, or it and the class settings it
#: has of its own (a rule its ``EARLIER_RULES`` cannot say).
Released = str | tuple[str, Mapping[str, Any]]


def released_versions(served: type[GameT], module: str, *versions: Released,
                      chained: bool = False) -> tuple[type[GameT], ...]:
    """The classes of a game's earlier released rules versions, in the order
    given (docs/rules-versions.md).

    Each plays by the earlier rules ``served.EARLIER_RULES`` declares for its
    version (``Game.earlier``), so its class is ``served`` with the version's
    ``RULES_VERSION`` and nothing else, unless its entry, ``(version,
    {setting: value})``, gives it settings of its own. The catalogue loads it
    by the version a record names, and it makes new games of that version.
    It is named by ``served``'s name and its version, trailing zero parts
    dropped ("1.6.0": ``<Served>V1_6``, "1.0.0": ``<Served>V1``, "3":
    ``<Served>V3``), in ``module`` (the caller's ``__name__``), where the
    caller binds it to that name: records name its events by topic,
    ``module:Name.Event``, and ``catalog.RELEASED`` names it ``module:Name``.
    ``chained``: each class is a subclass of the one before it (the first of
    ``served``)."""
    made: list[type[GameT]] = []
    for entry in versions:
        version, own = (entry, {}) if isinstance(entry, str) else entry
        if version == served.RULES_VERSION or version not in served.EARLIER_RULES:
            raise ValueError(f"{served.__name__} {version!r} is not an earlier version "
                             "its EARLIER_RULES declares")
        base = made[-1] if chained and made else served
        name = f"{served.__name__}V{version_suffix(version)}"
        namespace = {"__module__": module, "__qualname__": name, "RULES_VERSION": version, **own}
        made.append(cast("type[GameT]", types.new_class(
            name, (base,), exec_body=operator.methodcaller("update", namespace))))
    return tuple(made)


def version_suffix(version: str) -> str:
    """A version in a class name: "1.6.0" is ``1_6``, "1.0.0" ``1``, "3" ``3``."""
    parts = version.split(".")
    while len(parts) > 1 and parts[-1] == "0":
        parts.pop()
    return "_".join(parts)
