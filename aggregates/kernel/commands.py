"""Commands: one small frozen dataclass per move a player can make.

A command is both what a client sends and what ``legal_actions`` lists, so a
bot that picks from the list sends exactly what the rules accept. Arguments
arrive from the wire as plain JSON values; ``from_args`` checks their types
and sizes strictly before any rule sees them.

A game declares a command by its class line, its docstring (the rulebook's
sentence) and its typed fields: every subclass of ``Command`` is made a
frozen dataclass, and its wire name ``NAME`` is its class name in snake_case
(``GroupMove``: ``group_move``) unless it names another.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import typing
from collections.abc import Mapping
from typing import Any, ClassVar, NoReturn, Self

from aggregates.kernel.errors import Reason, RuleError

MAX_STRING = 64
MAX_LIST = 64


def snake_case(name: str) -> str:
    """``GroupMove`` as the wire spells it: ``group_move``."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


@typing.dataclass_transform(frozen_default=True)
class Command:
    """Base of every game's commands. ``NAME`` is the wire name (snake_case)."""

    NAME: ClassVar[str] = ""
    #: Set on each subclass when it is made a dataclass (typed for ``dataclasses.fields``).
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Make the command a frozen dataclass of its fields, named on the wire
        by its class name unless it gives a ``NAME``. Being frozen is the
        base's (its ``__setattr__``), so a class that is also decorated by hand
        as a frozen dataclass is made the same once more, not refused."""
        super().__init_subclass__(**kwargs)
        if "NAME" not in cls.__dict__:
            cls.NAME = snake_case(cls.__name__)
        dataclasses.dataclass(frozen=True)(cls)
        del cls.__setattr__, cls.__delattr__  # type: ignore[misc]

    def __setattr__(self, name: str, value: Any) -> NoReturn:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")

    def args(self) -> dict[str, Any]:
        """The arguments as JSON-ready values (tuples become lists)."""
        return {name: _jsonable(getattr(self, name)) for name in _field_names(type(self))}

    def to_json(self) -> dict[str, Any]:
        return {"name": self.NAME, "args": self.args()}

    def label(self) -> str:
        """A short human description, used by clients to show choices."""
        args = ", ".join(f"{k}={v}" for k, v in self.args().items())
        return f"{self.NAME}({args})" if args else self.NAME

    @classmethod
    def from_args(cls, args: Mapping[str, Any]) -> Self:
        """Build the command from wire arguments, refusing anything ill-typed."""
        if not isinstance(args, Mapping):
            raise RuleError(Reason.BAD_ARGUMENT, f"{cls.NAME}: arguments must be an object")
        hints, fields = _signature(cls)  # type: ignore[arg-type]
        unknown = set(args) - set(fields)
        if unknown:
            raise RuleError(
                Reason.BAD_ARGUMENT, f"{cls.NAME}: unknown argument(s) {sorted(unknown)}"
            )
        values: dict[str, Any] = {}
        for name, field in fields.items():
            if name not in args:
                if field.default is not dataclasses.MISSING:
                    continue
                raise RuleError(Reason.BAD_ARGUMENT, f"{cls.NAME}: missing argument {name!r}")
            values[name] = _check(cls.NAME, name, hints[name], args[name])
        return cls(**values)


@functools.cache
def _signature(cls: type[Command]) -> tuple[dict[str, Any], dict[str, dataclasses.Field[Any]]]:
    """A command class's argument types and fields, read once (parsing is hot)."""
    return typing.get_type_hints(cls), {f.name: f for f in dataclasses.fields(cls)}


#: Each command class's argument names (``_field_names``).
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _field_names(cls: type[Command]) -> tuple[str, ...]:
    """A command class's argument names, looked up once: ``dataclasses.fields``
    per command was most of the cost of listing a seat's legal moves."""
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    return value


def _check(command: str, name: str, hint: Any, value: Any) -> Any:
    """Check one argument against its annotation (int, str, bool, tuple[int, ...])."""
    where = f"{command}.{name}"
    if hint is bool:
        if not isinstance(value, bool):
            raise RuleError(Reason.BAD_ARGUMENT, f"{where} must be a boolean")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise RuleError(Reason.BAD_ARGUMENT, f"{where} must be an integer")
        if abs(value) > 1_000_000:
            raise RuleError(Reason.BAD_ARGUMENT, f"{where} is out of range")
        return value
    if hint is str:
        if not isinstance(value, str):
            raise RuleError(Reason.BAD_ARGUMENT, f"{where} must be a string")
        if len(value) > MAX_STRING:
            raise RuleError(Reason.BAD_ARGUMENT, f"{where} is longer than {MAX_STRING}")
        return value
    if typing.get_origin(hint) is tuple:
        (inner, _ellipsis) = typing.get_args(hint)
        if not isinstance(value, list | tuple):
            raise RuleError(Reason.BAD_ARGUMENT, f"{where} must be a list")
        if len(value) > MAX_LIST:
            raise RuleError(Reason.BAD_ARGUMENT, f"{where} has more than {MAX_LIST} items")
        return tuple(_check(command, name, inner, v) for v in value)
    raise TypeError(f"unsupported command argument type {hint!r} for {where}")


class CommandSet:
    """A game's commands by wire name, for parsing what clients send."""

    def __init__(self, *commands: type[Command]) -> None:
        self.by_name = {c.NAME: c for c in commands}
        if len(self.by_name) != len(commands):
            raise ValueError("two commands share a name")

    def names(self) -> list[str]:
        return list(self.by_name)

    def parse(self, name: str, args: Mapping[str, Any]) -> Command:
        cls = self.by_name.get(name)
        if cls is None:
            raise RuleError(Reason.UNKNOWN_COMMAND, f"no command named {name!r}")
        return cls.from_args(args)
