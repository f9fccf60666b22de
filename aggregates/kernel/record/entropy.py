"""Dice and entropy: every random outcome drawn from the game's committed seed
(mixed with the seats' contributions), recorded with the event it decides.

Why a module of its own: "dice nobody chose" is one of the kernel's promises.
Rules call ``roll``/``roll_dice``/``shuffled`` in their decide step only; the
draws land in the next event's meta, so an auditor re-derives every one
(``aggregates.kernel.record.audit``); ``contribute`` lets a seat mix entropy into
every die drawn after its contribution is on record.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from aggregates.kernel.errors import Reason, RuleError
from aggregates.kernel.record import rng
from aggregates.kernel.seating import EVERYONE

#: The kernel's event recording a seat's entropy contribution (see ``contribute``).
ENTROPY_EVENT = "EntropyAdded"
#: Contributions a creation request may carry (one per seat of the largest table).
MAX_CREATION_ENTROPY = 16


class DiceTray:
    """Draws for the creation event, before the aggregate exists."""

    def __init__(self, seed: str, counter: int) -> None:
        self.seed = seed
        self.counter = counter
        self._draws: list[list[int]] = []

    def roll(self, sides: int) -> int:
        value = rng.draw(self.seed, self.counter, sides)
        self._draws.append([self.counter, sides, value])
        self.counter += 1
        return value

    def shuffled(self, items: list[Any]) -> list[Any]:
        return fisher_yates(items, self.roll)

    def take(self) -> list[list[int]]:
        draws, self._draws = self._draws, []
        return draws


def fisher_yates(items: list[Any], roll: Callable[[int], int]) -> list[Any]:
    """Shuffle with one recorded die per swap, so an auditor can re-derive the order."""
    result = list(items)
    for i in range(len(result) - 1, 0, -1):
        j = roll(i + 1) - 1
        result[i], result[j] = result[j], result[i]
    return result


def check_contributions(entropy: Sequence[str]) -> list[str]:
    """Creation contributions as recorded (lower-case hex), or BAD_ARGUMENT."""
    if len(entropy) > MAX_CREATION_ENTROPY:
        raise RuleError(Reason.BAD_ARGUMENT,
                        f"at most {MAX_CREATION_ENTROPY} entropy contributions")
    try:
        return [rng.check_entropy(e) for e in entropy]
    except ValueError as exc:
        raise RuleError(Reason.BAD_ARGUMENT, str(exc)) from None


class Entropy:
    """The aggregate's dice: drawn in the decide step, recorded by the next event."""

    seed: str
    ended: bool
    rng_counter: int
    version: int
    modified_on: Any
    _draws: list[list[int]]
    _command: dict[str, Any] | None
    _audience: Any

    def _check_seat(self, seat: int) -> None:
        raise NotImplementedError  # the Game's

    if TYPE_CHECKING:
        def trigger_event(self, event_class: Any, **kwargs: Any) -> None: ...

    @property
    def dice_seed(self) -> str:
        """The seed the next die is drawn from: the server's seed mixed with
        every contribution recorded so far (the server's seed alone if none)."""
        return rng.dice_seed(self.seed, getattr(self, "contributions", ()))

    def roll(self, sides: int) -> int:
        """Draw one die for the event about to be triggered (decide phase only)."""
        counter = self.rng_counter + len(self._draws)
        value = rng.draw(self.dice_seed, counter, sides)
        self._draws.append([counter, sides, value])
        return value

    def roll_dice(self, count: int, sides: int) -> list[int]:
        return [self.roll(sides) for _ in range(count)]

    def shuffled(self, items: list[Any]) -> list[Any]:
        """A new list in a uniformly random order (decide phase only)."""
        return fisher_yates(items, self.roll)

    def contributed(self, seat: int) -> str | None:
        """The entropy ``seat`` contributed after creation, if it did."""
        return getattr(self, "contributed_by", {}).get(str(seat))

    def contribute(self, seat: int, entropy: str) -> bool:
        """Decide: record ``seat``'s entropy contribution (once per seat).

        Why after creation: a contribution sent once the seed commitment is
        public is one the server could not know when it chose its seed, so
        the dice drawn after it are chosen by nobody alone. It is recorded in
        its own public event before any die that depends on it is drawn, and
        affects every die drawn after that event (a deck shuffled before it
        keeps its order). Returns False, recording nothing, when the seat
        sends again the contribution already on record (a retried request).
        """
        from aggregates.kernel.record.recording import event_class_of

        self._draws = []
        self._command = None
        if self.ended:
            raise RuleError(Reason.GAME_OVER, "the game is over")
        self._check_seat(seat)
        try:
            checked = rng.check_entropy(entropy)
        except ValueError as exc:
            raise RuleError(Reason.BAD_ARGUMENT, str(exc)) from None
        earlier = self.contributed(seat)
        if earlier == checked:
            return False
        if earlier is not None:
            raise RuleError(Reason.ILLEGAL_MOVE,
                            f"seat {seat} has already contributed its entropy")
        self._audience = (EVERYONE, None)
        self.trigger_event(event_class_of(type(self), ENTROPY_EVENT),  # type: ignore[arg-type]
                           seat=seat, entropy=checked)
        return True

    def _add_entropy(self, seat: int, entropy: str) -> None:
        """Evolve ``EntropyAdded``: the contribution joins the dice seed."""
        self.contributions = [*getattr(self, "contributions", []), entropy]
        self.contributed_by = {**getattr(self, "contributed_by", {}), str(seat): entropy}
        # A contribution is not a move: the clocks keep running from the last
        # move (``overdue``), so contributing never buys a seat more time.
        # (Here ``version`` and ``modified_on`` are still the previous event's.)
        if getattr(self, "clock_from_version", None) != self.version:
            self.clock_from = self.modified_on.timestamp()
        self.clock_from_version = self.version + 1
