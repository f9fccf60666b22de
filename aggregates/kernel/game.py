"""The Game base aggregate every game shares: creation, the hooks a game
fills in, and the routing of every command by the decision it answers.

A game is an ``eventsourcing`` aggregate. Its public command method ``act``
finds the seat's pending decision the command answers, runs that decision's
move (its check, the legal list as a last guard, its run, which rolls dice
and records events, each applied by a function that only changes state),
then lets the flow settle (``aggregates.kernel.flow``). The other concerns
live beside it, one module each: recording and the chain (``recording``),
dice (``entropy``), clocks (``clocks``), the declarations read from a game's
package (``layout``), declared events (``facts``), what it shows
(``presenting``).
"""

from __future__ import annotations

import dataclasses
import uuid
import zlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Self

from arbiter.decisions import Choice, Decision, PickOne
from eventsourcing.domain import Aggregate, event

from aggregates.kernel.clocks import (  # noqa: F401 - the kernel's names, re-exported
    CLOCK_OPTION,
    CLOCK_OPTION_SCHEMA,
    DEFAULT_COMMAND,
    Clocks,
    checked_clock,
)
from aggregates.kernel.commands import Command, CommandSet
from aggregates.kernel.errors import Reason, RuleError
from aggregates.kernel.facts import DeclaredEvents
from aggregates.kernel.flow import Flow
from aggregates.kernel.layout import LaidOut
from aggregates.kernel.nature import game_type_of
from aggregates.kernel.outcome import Outcome, default_standings
from aggregates.kernel.presenting import Presenting
from aggregates.kernel.record import chain, rng
from aggregates.kernel.record.entropy import (  # noqa: F401 - re-exported
    ENTROPY_EVENT,
    MAX_CREATION_ENTROPY,
    DiceTray,
    Entropy,
    check_contributions,
    fisher_yates,
)
from aggregates.kernel.record.recording import (  # noqa: F401 - re-exported
    COMMAND_WINDOW,
    KERNEL_FIELDS,
    Recording,
    command_key,
    creation_meta,
    event_class_of,
    genesis_meta,
    recorded_audience,
)
from aggregates.kernel.seating import EVERYONE, NOBODY, Audience, Seating

MAX_SEAT_NAME = 64
#: The name rules modules and upcasts have long used for ``event_class_of``.
_event_class = event_class_of


def options_schema(**properties: Any) -> dict[str, Any]:
    """The JSON schema of a game's creation options: an object of these
    properties and of no other (as ``refuse_unknown_options`` enforces)."""
    return {"type": "object", "properties": properties, "additionalProperties": False}


class Game(Recording, Entropy, Clocks, LaidOut, DeclaredEvents, Presenting, Aggregate):
    """Base of every game aggregate: seats, decisions routed by the flow, dice, chain."""

    # Class settings carry no annotations on purpose: an annotated aggregate
    # class is turned into a dataclass by the library, which would replace the
    # kernel's creation method in every game. Games must not annotate theirs.
    RULES_ID = ""
    TITLE = ""
    RULES_VERSION = ""
    MIN_SEATS = 1
    MAX_SEATS = 1
    COMMANDS = CommandSet()
    #: Check every command against the legal list of the decision it answers,
    #: after the move's own check. A game whose action space is too large to
    #: list (Ethnos' bands) turns this off and its checks are the whole rule.
    CHECK_AGAINST_LEGAL_LIST = True
    #: The game's steps, moves and phases (``aggregates.kernel.flow``).
    FLOW = Flow(())
    #: The game's own reason codes (a ``GameReason`` enum's members).
    REASONS = ()  # type: tuple[str, ...]
    #: JSON schema of the creation options, served by ``ListRules``.
    OPTIONS_SCHEMA = options_schema()
    #: State attributes that only word what happened for readers (no rule
    #: reads them); an older release's snapshot may word them differently.
    WORDING_STATE = ()  # type: tuple[str, ...]
    #: The earlier rules each earlier version of the game plays by, by version
    #: (names of the rules a later version changed, which the game's code reads
    #: from ``earlier``); the current version keeps none, so it has no entry
    #: (docs/rules-versions.md). A game declares only this data.
    EARLIER_RULES = {}  # type: Mapping[str, frozenset[str]]  # noqa: RUF012

    class Event(Aggregate.Event):
        """Every game event carries the kernel's ``meta`` record."""

        meta: dict[str, Any]

        def apply(self, aggregate: Any) -> None:
            aggregate._follow_chain(self.meta, self.originator_version)
            super().apply(aggregate)
            if (evolve := type(aggregate).APPLY) is not None:
                evolve(self, aggregate)

    # ----------------------------------------------------------------- creation

    @classmethod
    def start(
        cls,
        seats: list[str],
        options: Mapping[str, Any] | None = None,
        seed: str | None = None,
        game_id: uuid.UUID | None = None,
        entropy: Sequence[str] = (),
    ) -> Self:
        """Create a game: check seats and options, roll the setup, record it.

        ``entropy``: contributions sent with the creation request (hex). They
        are recorded in the creation event and mixed into the seed of every
        die from the setup on (``rng.dice_seed``); with none, the dice come
        from the server's seed alone, as in every game recorded before them.
        """
        cls._check_seats(seats)
        checked = cls.check_options(dict(options or {}))
        contributions = check_contributions(entropy)
        seed = seed or rng.new_seed()
        tray = DiceTray(rng.dice_seed(seed, contributions), 0)
        setup = cls.decide_setup(tray, list(seats), checked)
        token = creation_meta.set({"draws": tray.take(), "rng": tray.counter})
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
                entropy=contributions,
            )
        finally:
            creation_meta.reset(token)
        game.begin()
        return game

    @classmethod
    def _create(cls, event_class: Any, *, id: Any = None, **kwargs: Any) -> Self:  # noqa: A002
        """Stamp the creation event with its time, dice and genesis digest."""
        timestamp = event_class.create_timestamp()
        meta = genesis_meta(event_class.__name__, id, timestamp, kwargs, kwargs["seed"])
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
        entropy: list[str] | None = None,
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
        self.last_acted: dict[str, int] = {}
        if entropy:
            # Set only when there are contributions, so the state (and every
            # snapshot) of a game without them is what it always was.
            self.contributions = list(entropy)
        self._follow_chain(meta, 1)
        self.setup(setup)

    @property
    def earlier(self) -> frozenset[str]:
        """The earlier rules this game is played by: those of the version its
        creation event records (``EARLIER_RULES``), not of the class that loaded
        it, so a stored game of an earlier version goes on by its own rules after
        an upgrade and still re-executes by them."""
        return self.EARLIER_RULES.get(self.rules_version, frozenset())

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
        """Decide: the events that open play, right after creation: by default
        the flow's start phase (``Flow.open``).

        Dealing belongs here rather than in the setup, so each card dealt is
        its own event with its own audience (its receiver), like later deals.
        These events carry no command; an audit replays them from here too.
        """
        self.FLOW.open(self)

    def pending(self) -> list[Decision]:
        """The decisions the game waits on now (empty when the game is over):
        the one source of who acts, and how (each decision's ``kind`` is a
        step of the ``FLOW``)."""
        raise NotImplementedError

    def choices(self, seat: int) -> list[Choice]:
        """How ``seat``'s answers are built: by default, one of the legal list.

        A game whose legal list is too long to send in full returns structures
        (``PickCards``, ``Assign``, ``Number``) and ``legal_list_complete``
        False for this seat.
        """
        return [PickOne()]

    def legal_list_complete(self, seat: int) -> bool:
        """Whether the list ``LegalActions`` sends is every legal command.

        False means the list was left short because it is too long to send
        (thousands of bands): the choice structures describe every answer,
        and the server checks each combination sent.
        """
        return True

    def seating(self) -> Seating:
        """Who controls which position, and the teams (default: one each, no teams)."""
        return Seating.one_each(len(self.seats))

    def finished(self) -> dict[str, Any] | None:
        """The outcome once the rules say the game is over, else None."""
        raise NotImplementedError

    def standings(self) -> Outcome:
        """The finished game's result in the shape every game shares
        (``kernel.outcome``), derived from the final state and the recorded
        outcome (its ``breakdown``), so recorded games keep their records.
        The default reads the recorded ``winners``; games with scores say more."""
        return default_standings(self.outcome or {}, len(self.seats))

    def progress(self) -> float | None:
        """How far a solo game's goal has got, 0 to 1, where its rulebook keeps
        no score (a quest won or lost): the bots value a world that was not won
        by it (``clients.bots.playout.rewards``), so a search prefers the moves
        that get further. None: the game says nothing beyond its result."""
        return None

    def view(self, seat: int | None) -> dict[str, Any]:
        """The state as ``seat`` may see it (``None``: a spectator): a laid-out
        game's ``views.view``."""
        if self.VIEWS is None:
            raise NotImplementedError
        return self.VIEWS.view(self, seat)  # type: ignore[no-any-return]

    @classmethod
    def metadata(cls) -> dict[str, Any]:
        """The game's metadata, declared once: served by ``ListRules``."""
        return {
            "id": cls.RULES_ID, "title": cls.TITLE, "version": cls.RULES_VERSION,
            "min_seats": cls.MIN_SEATS, "max_seats": cls.MAX_SEATS,
            **game_type_of(cls).metadata(), "summary": cls.SUMMARY,
            "commands": cls.COMMANDS.names(), "reasons": list(cls.REASONS),
            "options_schema": cls.OPTIONS_SCHEMA,
        }

    # ------------------------------------------------------------- audience

    def audience_of(self, event_type: str, payload: Mapping[str, Any]) -> Audience:
        """Who may read an event about to be triggered, decided now, with the
        state at hand (zones, teams); recorded in the event's meta. Defaults to
        the class-level rule ``audience``."""
        return type(self).audience(event_type, payload)

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

    # ------------------------------------------------------------- routing

    def act(
        self, seat: int, command: Command, command_id: str = "", decision_id: str = "",
        pending: Sequence[Decision] | None = None,
    ) -> None:
        """A seat's move, as the answer to a decision pending for it.

        ``decision_id``, when given, must name a decision pending for the seat
        now: staleness is judged per decision, so seats choosing at once never
        make each other's answers stale. ``pending``: the game's
        ``pending_decisions()`` now, when the caller has them already (a
        server read them for the seat's turn at this very version); else
        they are asked again.
        """
        self._draws = []
        self._command = None
        self._audience = None
        if self.ended:
            raise RuleError(Reason.GAME_OVER, "the game is over")
        self._check_seat(seat)
        if type(command) not in self.COMMANDS.by_name.values():
            raise RuleError(Reason.UNKNOWN_COMMAND, f"{self.RULES_ID} has no {command.NAME!r}")
        # Ids (and the choices filled in beside them) are only needed to judge a
        # named decision: routing reads a decision's kind and position alone.
        mine = (self.decisions_of(seat, with_ids=bool(decision_id)) if pending is None
                else [d for d in pending if d.seat == seat])
        if not mine:
            raise RuleError(Reason.NOT_YOUR_TURN, f"the game is not waiting on seat {seat}")
        if decision_id:
            named = [d for d in mine if d.id == decision_id]
            if not named:
                raise RuleError(
                    Reason.STALE_DECISION,
                    f"decision {decision_id!r} is no longer pending; seat {seat} is asked: "
                    + "; ".join(f"{d.id}: {d.prompt}" for d in mine),
                )
            mine = named
        decision = self.FLOW.answering(mine, command)
        self._command = {"seat": seat, "name": command.NAME, "args": command.args()}
        if command_id:
            self._command["id"] = command_id
        self._carry_out(decision, command)

    def _carry_out(self, decision: Decision, command: Command) -> None:
        """Answer the decision, settle the flow, refuse a command that changes
        nothing, and end the game once its rules say it is over."""
        before = self.version
        self.FLOW.route(self, decision, command, self.CHECK_AGAINST_LEGAL_LIST)
        if self.version == before:
            raise RuleError(Reason.ILLEGAL_MOVE, f"{command.label()} changes nothing")
        self.FLOW.settle(self)
        outcome = self.finished()
        if outcome is not None:
            self._end(outcome=outcome, seed=self.seed)

    def decisions_of(self, seat: int, with_ids: bool = True) -> list[Decision]:
        """The decisions pending for ``seat`` now (any of its positions); with
        their ids and choices filled in (``pending_decisions``) unless not needed."""
        pending = self.pending_decisions() if with_ids else self.pending()
        return [d for d in pending if d.seat == seat]

    def legal_actions(self, seat: int,
                      pending: Sequence[Decision] | None = None) -> list[Command]:
        """Every command ``seat`` may send now: the legal answers to each of
        its pending decisions. ``pending``: the game's pending decisions now
        (``pending()`` or ``pending_decisions()``), when the caller has them
        already (a server reads them once per version); else asked again."""
        if self.ended:
            return []
        out: list[Command] = []
        mine = (self.decisions_of(seat, with_ids=False) if pending is None
                else [d for d in pending if d.seat == seat])
        for decision in mine:
            out.extend(c for c in self.FLOW.legal(self, decision) if c not in out)
        return out

    def pending_decisions(self) -> list[Decision]:
        """``pending()`` with every decision's id filled in.

        A game may give its decisions ids; otherwise the id is the seat, the
        kind, the version of the seat's own last command and a checksum of the
        prompt: it changes when the seat acts or is asked something new, and
        not when other seats act, so simultaneous answers never go stale.
        """
        out = []
        acted = getattr(self, "last_acted", {})
        # As the flow's settle read them at this version, when it did
        # (``Readings``): the next turn's decisions are not asked again.
        pending = self.FLOW.readings.pending(self)
        for d in self.pending() if pending is None else pending:
            since = acted.get(str(d.seat), 0)
            own = f".{d.id}" if d.id else ""
            ident = f"{d.seat}.{d.kind}.{since}.{zlib.crc32(d.prompt.encode()):08x}{own}"
            out.append(dataclasses.replace(
                d, id=ident, choices=d.choices or tuple(self.choices(d.seat))))
        return out

    def waiting_on(self) -> list[int]:
        return sorted({d.seat for d in self.pending()})

    # ------------------------------------------------------------ defaults

    def act_default(self, seat: int) -> None:
        """A clock ran out on ``seat``: apply its decision's declared default.

        ``pass``: the command its step passes with; ``random``: one of the
        decision's legal answers, picked with a recorded die, so a replay and
        an audit agree. Recorded as a ``DefaultApplied`` event before the
        command's own events.
        """
        self._draws = []
        self._audience = None
        if self.ended:
            raise RuleError(Reason.GAME_OVER, "the game is over")
        self._check_seat(seat)
        mine = [d for d in self.decisions_of(seat) if d.default]
        if not mine:
            raise RuleError(Reason.NO_DEFAULT, f"seat {seat} has no decision with a default")
        decision = mine[0]
        if decision.default == "pass":
            passes = self.FLOW.step(decision.kind).passes
            if passes is None:
                raise RuleError(Reason.NO_DEFAULT, f"{decision.kind} has no pass")
            command: Command = passes()
        else:
            options = self.FLOW.legal(self, decision)
            if not options:
                raise RuleError(Reason.NO_DEFAULT, f"seat {seat} has no legal command")
            command = options[self.roll(len(options)) - 1]
        self._command = {"seat": seat, "name": DEFAULT_COMMAND, "args": {}}
        # The command chosen for the seat is the seat's own business until its
        # events tell the table what they may know (a random bid for a hidden
        # choice must not be read by the others before the reveal).
        self._audience = (Audience(frozenset({seat})),
                          {"seat": seat, "decision": decision.id,
                           "default": str(decision.default)})
        self._default_applied(seat=seat, decision=decision.id, default=str(decision.default),
                              command=command.to_json())
        self._carry_out(decision, command)

    # ------------------------------------------------------------- the kernel's events

    @event("DefaultApplied")
    def _default_applied(self, seat: int, decision: str, default: str,
                         command: dict[str, Any]) -> None:
        pass

    @event(ENTROPY_EVENT)
    def _entropy_added(self, seat: int, entropy: str) -> None:
        self._add_entropy(seat, entropy)

    @event("Ended")
    def _end(self, outcome: dict[str, Any], seed: str) -> None:
        self.ended = True
        self.outcome = outcome

    # ---------------------------------------------------------------- seats

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


def refuse_unknown_options(options: Mapping[str, Any], known: Iterable[str]) -> None:
    """Refuse creation options the game does not take (``known``: their names,
    or the ``properties`` of its ``options_schema``), naming them."""
    unknown = set(options) - set(known)
    if unknown:
        raise RuleError(Reason.BAD_OPTIONS, f"unknown option(s) {sorted(unknown)}")

