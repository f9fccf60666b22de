"""What a game shows, a mixin of ``Game``: the screen a reader sees, a move's
menu label and an event's sentence.

Every served game keeps them in its ``present.py`` and names that module once
as ``PRESENT``; the hooks here read it, so no game writes the same three
forwarders. A game without one (a test game) gets the kernel's defaults: its
view as a key list, the command's own label, the event's name and facts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from aggregates.kernel.commands import Command
from aggregates.kernel.present import Screen, generic_screen
from aggregates.kernel.record.entropy import ENTROPY_EVENT


class Presenter(Protocol):
    """A game's ``present`` module: the three functions the hooks call."""

    def present(self, game: Any, seat: int | None) -> Screen: ...

    def action_label(self, game: Any, command: Command) -> str: ...

    def describe(self, event_type: str, payload: Mapping[str, Any],
                 seats: list[str]) -> str | None: ...


class Presenting:
    """The presentation hooks of ``Game``, answered by the game's ``PRESENT``."""

    #: The game's present module (None: the kernel's defaults).
    PRESENT: Presenter | None = None

    if TYPE_CHECKING:
        def view(self, seat: int | None) -> Any: ...

    def present(self, seat: int | None) -> Screen:
        """What ``seat`` (None: a spectator) sees, in the kernel's presentation
        vocabulary; without a ``PRESENT``, the view's keys."""
        if self.PRESENT is not None:
            return self.PRESENT.present(self, seat)
        return generic_screen(self.view(seat))

    def action_label(self, command: Command) -> str:
        """A command in the game's own words, for menus (OpenSpiel's
        ``action_to_string``)."""
        if self.PRESENT is not None:
            return self.PRESENT.action_label(self, command)
        return command.label()

    @classmethod
    def describe(cls, event_type: str, payload: Mapping[str, Any],
                 seats: list[str]) -> str:
        """One event in the game's own words, from the payload its reader got
        (the private or the public form); an event the game does not word (the
        kernel's own) is named with its facts."""
        said = cls.PRESENT.describe(event_type, payload, seats) if cls.PRESENT else None
        if said is not None:
            return said
        if event_type == ENTROPY_EVENT:
            seat = payload.get("seat")
            who = seats[seat] if isinstance(seat, int) and 0 <= seat < len(seats) else seat
            return f"{who} adds entropy to the dice: {str(payload.get('entropy', ''))[:16]}"
        words = [event_type]
        for key, value in payload.items():
            if key in ("setup", "seed", "commitment"):
                continue
            words.append(f"{key}={value}")
        return " ".join(words) if len(words) < 8 else event_type
