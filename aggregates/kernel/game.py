"""The Game base aggregate every game shares.

A game is an ``eventsourcing`` aggregate. Its public command method ``act``
checks the seat and the pending decision, lets the game ``decide`` (validate,
roll dice), and the game then triggers ``@event`` methods that only change
state. The kernel adds to every event a ``meta`` record: the dice drawn for
it, the command that caused it, and its hash-chain digest, so that any stored
game can be re-verified end to end (``aggregates.kernel.audit``).
"""

from __future__ import annotations

import contextvars
import dataclasses
import uuid
from collections.abc import Callable, Mapping
from typing import Any, Self

from eventsourcing.domain import Aggregate, event

from aggregates.kernel import chain, rng
from aggregates.kernel.commands import Command, CommandSet
from aggregates.kernel.errors import Reason, RuleError

#: Event attributes owned by the library or the kernel, not the game's payload.
KERNEL_FIELDS = frozenset(
    {"originator_id", "originator_version", "timestamp", "originator_topic", "meta"}
)
MAX_SEAT_NAME = 64

_creation_meta: contextvars.ContextVar[dict[str, Any]] = contextvars.ContextVar(
    "_creation_meta"
)


@dataclasses.dataclass(frozen=True)
class Decision:
    """One seat the game is waiting on, and what for.

    ``hidden`` marks a simultaneous secret choice (e.g. a face-down deploy):
    the others learn only that the seat has chosen.
    """

    seat: int
    kind: str
    prompt: str
    hidden: bool = False


@dataclasses.dataclass(frozen=True)
class Audience:
    """Who may read an event's private form: everyone, or a set of seats."""

    seats: frozenset[int] | None = None

    @property
    def everyone(self) -> bool:
        return self.seats is None

    def includes(self, seat: int | None) -> bool:
        return self.seats is None or (seat is not None and seat in self.seats)


EVERYONE = Audience()
NOBODY = Audience(frozenset())


def payload_of(domain_event: Any) -> dict[str, Any]:
    """The game's own attributes of a stored event (the kernel's removed)."""
    return {k: v for k, v in vars(domain_event).items() if k not in KERNEL_FIELDS}


def event_type(domain_event: Any) -> str:
    return type(domain_event).__name__


class Game(Aggregate):
    """Base of every game aggregate: seats, pending decisions, dice, hash chain."""

    # Class settings carry no annotations on purpose: an annotated aggregate
    # class is turned into a dataclass by the library, which would replace the
    # kernel's creation method in every game. Games must not annotate theirs.
    RULES_ID = ""
    TITLE = ""
    RULES_VERSION = ""
    MIN_SEATS = 1
    MAX_SEATS = 1
    COMMANDS = CommandSet()
    #: Check every command against ``legal_actions`` as a last guard. A game
    #: whose action space is too large to list turns this off and validates itself.
    CHECK_AGAINST_LEGAL_LIST = True

    class Event(Aggregate.Event):
        """Every game event carries the kernel's ``meta`` record."""

        meta: dict[str, Any]

        def apply(self, aggregate: Any) -> None:
            aggregate._follow_chain(self.meta, self.originator_version)
            super().apply(aggregate)

    # ----------------------------------------------------------------- creation

    @classmethod
    def start(
        cls,
        seats: list[str],
        options: Mapping[str, Any] | None = None,
        seed: str | None = None,
        game_id: uuid.UUID | None = None,
    ) -> Self:
        """Create a game: check seats and options, roll the setup, record it."""
        cls._check_seats(seats)
        checked = cls.check_options(dict(options or {}))
        seed = seed or rng.new_seed()
        tray = DiceTray(seed, 0)
        setup = cls.decide_setup(tray, list(seats), checked)
        token = _creation_meta.set({"draws": tray.take(), "rng": tray.counter})
        try:
            # The library's metaclass call would look for the __init__ of the
            # subclass; every game shares the kernel's creation event instead.
            game = cls._create(
                cls.Created,  # type: ignore[attr-defined]
                rules=cls.RULES_ID,
                rules_version=cls.RULES_VERSION,
                seats=list(seats),
                options=checked,
                seed=seed,
                commitment=rng.commitment(seed),
                setup=setup,
                id=game_id or uuid.uuid4(),
            )
        finally:
            _creation_meta.reset(token)
        game.begin()
        return game

    @classmethod
    def _create(cls, event_class: Any, *, id: Any = None, **kwargs: Any) -> Self:  # noqa: A002
        """Stamp the creation event with its time, dice and genesis digest."""
        meta = dict(_creation_meta.get({"draws": [], "rng": 0}))
        timestamp = event_class.create_timestamp()
        payload = {k: v for k, v in kwargs.items() if k not in KERNEL_FIELDS}
        meta["prev"] = chain.GENESIS
        meta["digest"] = chain.digest(
            chain.GENESIS, str(id), 1, event_class.__name__, timestamp.isoformat(),
            payload, meta, chain.salt(kwargs["seed"], 1),
        )
        return super()._create(event_class, id=id, timestamp=timestamp, meta=meta, **kwargs)

    @event("Created")
    def __init__(
        self,
        rules: str,
        rules_version: str,
        seats: list[str],
        options: dict[str, Any],
        seed: str,
        commitment: str,
        setup: dict[str, Any],
        meta: dict[str, Any],
    ) -> None:
        self.rules = rules
        self.rules_version = rules_version
        self.seats = list(seats)
        self.options = dict(options)
        self.seed = seed
        self.commitment = commitment
        self.ended = False
        self.outcome: dict[str, Any] | None = None
        self.rng_counter = 0
        self.head = chain.GENESIS
        self.commands_applied = 0
        self.command_ids: dict[str, int] = {}
        self._draws: list[list[int]] = []
        self._command: dict[str, Any] | None = None
        self._follow_chain(meta, 1)
        self.setup(setup)

    # ------------------------------------------------------------ game hooks

    @classmethod
    def check_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        """Validate creation options; the default game takes none."""
        if options:
            raise RuleError(Reason.BAD_OPTIONS, f"{cls.RULES_ID} takes no options")
        return options

    @classmethod
    def decide_setup(
        cls, dice: DiceTray, seats: list[str], options: dict[str, Any]
    ) -> dict[str, Any]:
        """Roll and choose everything random about the starting position."""
        return {}

    def setup(self, setup: dict[str, Any]) -> None:
        """Evolve: set the starting state from the recorded setup."""

    def begin(self) -> None:
        """Decide: the events that open play, right after creation.

        Dealing belongs here rather than in the setup, so each card dealt is
        its own event with its own audience (its receiver), like later deals.
        These events carry no command; an audit replays them from here too.
        """

    def decide(self, seat: int, command: Command) -> None:
        """Validate ``command`` for ``seat`` and trigger the events it causes."""
        raise NotImplementedError

    def pending(self) -> list[Decision]:
        """The seats the game waits on now (empty when the game is over)."""
        raise NotImplementedError

    def legal_actions(self, seat: int) -> list[Command]:
        """Every command ``seat`` may send now."""
        raise NotImplementedError

    def finished(self) -> dict[str, Any] | None:
        """The outcome once the rules say the game is over, else None."""
        raise NotImplementedError

    def view(self, seat: int | None) -> dict[str, Any]:
        """The state as ``seat`` may see it (``None``: a spectator)."""
        raise NotImplementedError

    @classmethod
    def audience(cls, event_type: str, payload: Mapping[str, Any]) -> Audience:
        """Who may read an event's private form. Games with secrets override."""
        if event_type == "Created":
            return NOBODY
        return EVERYONE

    @classmethod
    def public_form(cls, event_type: str, payload: Mapping[str, Any]) -> dict[str, Any]:
        """What everyone else sees of an event they may not read."""
        if event_type == "Created":
            public = {k: v for k, v in payload.items() if k != "seed"}
            public["setup"] = cls.public_setup(payload.get("setup", {}))
            return public
        return {}

    @classmethod
    def public_setup(cls, setup: Mapping[str, Any]) -> dict[str, Any]:
        """The part of the rolled setup everyone may see (games with secrets trim it)."""
        return dict(setup)

    # ------------------------------------------------------------- commands

    def act(self, seat: int, command: Command, command_id: str = "") -> None:
        """A seat's move: checked by the kernel, decided by the game, recorded."""
        self._draws = []
        self._command = None
        if self.ended:
            raise RuleError(Reason.GAME_OVER, "the game is over")
        self._check_seat(seat)
        if type(command) not in self.COMMANDS.by_name.values():
            raise RuleError(Reason.UNKNOWN_COMMAND, f"{self.RULES_ID} has no {command.NAME!r}")
        if not any(d.seat == seat for d in self.pending()):
            raise RuleError(Reason.NOT_YOUR_TURN, f"the game is not waiting on seat {seat}")
        self._command = {"seat": seat, "name": command.NAME, "args": command.args()}
        if command_id:
            self._command["id"] = command_id
        before = self.version
        self.decide(seat, command)
        if self.version == before:
            raise RuleError(Reason.ILLEGAL_MOVE, f"{command.label()} changes nothing")
        outcome = self.finished()
        if outcome is not None:
            self._end(outcome=outcome, seed=self.seed)

    def require_legal(self, seat: int, command: Command) -> None:
        """The last guard: the command must be on the legal list."""
        if self.CHECK_AGAINST_LEGAL_LIST and command not in self.legal_actions(seat):
            raise RuleError(Reason.ILLEGAL_MOVE, f"{command.label()} is not legal now")

    def roll(self, sides: int) -> int:
        """Draw one die for the event about to be triggered (decide phase only)."""
        counter = self.rng_counter + len(self._draws)
        value = rng.draw(self.seed, counter, sides)
        self._draws.append([counter, sides, value])
        return value

    def roll_dice(self, count: int, sides: int) -> list[int]:
        return [self.roll(sides) for _ in range(count)]

    def shuffled(self, items: list[Any]) -> list[Any]:
        """A new list in a uniformly random order (decide phase only)."""
        return fisher_yates(items, self.roll)

    @event("Ended")
    def _end(self, outcome: dict[str, Any], seed: str) -> None:
        self.ended = True
        self.outcome = outcome

    # ---------------------------------------------------------- kernel plumbing

    def trigger_event(self, event_class: Any, **kwargs: Any) -> None:
        """Stamp each event with its dice, its command and its chain digest."""
        meta: dict[str, Any] = {
            "draws": self._draws,
            "rng": self.rng_counter + len(self._draws),
        }
        if self._command is not None:
            meta["cmd"] = self._command
            self._command = None
        self._draws = []
        timestamp = event_class.create_timestamp()
        payload = {k: v for k, v in kwargs.items() if k not in KERNEL_FIELDS}
        meta["prev"] = self.head
        meta["digest"] = chain.digest(
            self.head, str(self.id), self.version + 1, event_class.__name__,
            timestamp.isoformat(), payload, meta, chain.salt(self.seed, self.version + 1),
        )
        super().trigger_event(event_class, timestamp=timestamp, meta=meta, **kwargs)

    def _follow_chain(self, meta: Mapping[str, Any], version: int) -> None:
        """Evolve the kernel's bookkeeping from an event's meta record.

        ``command_ids`` maps a seat's client command id (``"seat:id"``, so one
        seat can never replay or block another's) to the version of the first
        event it caused; its events run up to the next event that carries a
        command. That is all exactly-once needs to return the original result.
        """
        self.head = meta["digest"]
        self.rng_counter = meta["rng"]
        command = meta.get("cmd")
        if command is not None:
            self.commands_applied += 1
            if "id" in command:
                self.command_ids[command_key(command["seat"], command["id"])] = version

    @classmethod
    def _check_seats(cls, seats: list[str]) -> None:
        if not cls.MIN_SEATS <= len(seats) <= cls.MAX_SEATS:
            raise RuleError(
                Reason.BAD_SEATS,
                f"{cls.TITLE} takes {cls.MIN_SEATS}..{cls.MAX_SEATS} seats, not {len(seats)}",
            )
        for name in seats:
            if not isinstance(name, str) or not 0 < len(name) <= MAX_SEAT_NAME:
                raise RuleError(Reason.BAD_SEATS, "seat names are 1..64 characters")
            if not name.isprintable():
                # Names reach every client's screen: no escapes, newlines or overrides.
                raise RuleError(Reason.BAD_SEATS, "seat names must be printable characters")

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < len(self.seats):
            raise RuleError(Reason.UNKNOWN_SEAT, f"no seat {seat} in a {len(self.seats)}-seat game")

    def command_version(self, seat: int, command_id: str) -> int | None:
        """The first version recorded for a seat's command id, if it was applied."""
        return self.command_ids.get(command_key(seat, command_id))

    def waiting_on(self) -> list[int]:
        return sorted({d.seat for d in self.pending()})


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


def command_key(seat: int, command_id: str) -> str:
    return f"{seat}:{command_id}"
