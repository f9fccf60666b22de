"""Hidden simultaneous choices: collect, then reveal (Tidewatch's Tide Bid).

Several seats choose at once and in secret (sealed bids, face-down plays):
each choice is recorded for its chooser alone, and when the last is in they
are revealed together in one event. The open choice is a frame on the
kernel's stack (``aggregates.kernel.flow``), so a game can open one inside a
phase, a window or another frame and the stack rebuilds on every replay.

Only the template game (and the kernel's test games) collect hidden choices,
so this lives here, not in the kernel: a game that needs it mixes in
``HiddenChoices`` and lists ``EVENTS`` and ``apply`` on its class (events
declared as classes, applied by one function each: ``aggregates.kernel.facts``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from aggregates.kernel import Game
from aggregates.kernel import flow as kflow
from aggregates.kernel.facts import applier
from aggregates.kernel.seating import Audience

FRAME = "collect"


class ChoicesOpened(Game.Event):
    """The `seats` each make a hidden choice of this `kind`."""

    kind: str
    seats: list[int]


class ChoiceMade(Game.Event):
    """A `seat` makes its hidden `choice` of this `kind` (read by that seat alone)."""

    seat: int
    kind: str
    choice: Any


class ChoicesRevealed(Game.Event):
    """Every seat's hidden `choices` of this `kind`, revealed together."""

    kind: str
    choices: dict[str, Any]


EVENTS: tuple[type[Game.Event], ...] = (ChoicesOpened, ChoiceMade, ChoicesRevealed)

apply = applier()


@apply.register
def _choices_opened(event: ChoicesOpened, game: Any) -> None:
    kflow.push(game, {"kind": FRAME, "step": event.kind, "seats": list(event.seats),
                      "chosen": {}})


@apply.register
def _choice_made(event: ChoiceMade, game: Any) -> None:
    frame = kflow.top(game, FRAME)
    assert frame is not None
    frame["chosen"][str(event.seat)] = event.choice


@apply.register
def _choices_revealed(event: ChoicesRevealed, game: Any) -> None:
    kflow.pop(game, FRAME)


class HiddenChoices:
    """Decide: ``open_choices`` and ``collect``; the open frame, read."""

    if TYPE_CHECKING:
        def emit(self, event_name: str, *, audience: Audience | None = None,
                 public: Any = None, **payload: Any) -> None: ...

    @property
    def collecting(self) -> dict[str, Any] | None:
        """The open hidden choice (its step, seats and the choices made), if any."""
        return kflow.top(self, FRAME)

    def open_choices(self, kind: str, seats: list[int]) -> None:
        """Decide: every seat of ``seats`` now makes a hidden ``kind`` choice."""
        self.emit("ChoicesOpened", kind=kind, seats=list(seats))

    def collect(self, seat: int, choice: Any) -> dict[int, Any] | None:
        """Decide: record ``seat``'s hidden choice (only it may read it); when
        it is the last, reveal them all in one event and return them."""
        frame = self.collecting
        assert frame is not None, "no simultaneous choice is open"
        self.emit("ChoiceMade", audience=Audience(frozenset({seat})),
                  public={"seat": seat, "kind": frame["step"]},
                  seat=seat, kind=frame["step"], choice=choice)
        if self.waiting_to_choose():
            return None
        chosen = {int(s): c for s, c in frame["chosen"].items()}
        self.emit("ChoicesRevealed", kind=frame["step"],
                  choices={str(s): c for s, c in sorted(chosen.items())})
        return chosen

    def waiting_to_choose(self) -> list[int]:
        """The seats of the open hidden choice that have not chosen yet."""
        frame = self.collecting
        if not frame:
            return []
        return [s for s in frame["seats"] if str(s) not in frame["chosen"]]
