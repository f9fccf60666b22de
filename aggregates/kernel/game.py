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
import functools
import uuid
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Self

from eventsourcing.domain import Aggregate, decorated_funcs, event

from aggregates.kernel import chain, rng
from aggregates.kernel.commands import Command, CommandSet
from aggregates.kernel.decisions import Choice, Decision, PickOne
from aggregates.kernel.errors import Reason, RuleError
from aggregates.kernel.flow import Flow  # noqa: F401 - named in a type comment
from aggregates.kernel.present import Screen, generic_screen
from aggregates.kernel.seating import EVERYONE, NOBODY, Audience, Seating

#: Event attributes owned by the library or the kernel, not the game's payload.
KERNEL_FIELDS = frozenset(
    {"originator_id", "originator_version", "timestamp", "originator_topic", "meta"}
)
MAX_SEAT_NAME = 64
#: The client command ids a game keeps (``command_ids``), newest; older ones
#: leave, oldest first, so a long game's state and snapshots stay small. The
#: server keeps every id in an index in the store (``service.application``).
COMMAND_WINDOW = 256
#: The recorded command name of a default applied when a clock ran out.
DEFAULT_COMMAND = "__default__"
#: The kernel's event recording a seat's entropy contribution (see ``contribute``).
ENTROPY_EVENT = "EntropyAdded"
#: Contributions a creation request may carry (one per seat of the largest table).
MAX_CREATION_ENTROPY = 16
#: The creation option that asks the server to run the games' clocks.
CLOCK_OPTION = "clock"
#: Its entry in the ``OPTIONS_SCHEMA`` of a game that offers clocks.
CLOCK_OPTION_SCHEMA = {
    "type": "boolean",
    "description": "give decisions deadlines; the server applies their defaults when one passes",
}

_creation_meta: contextvars.ContextVar[dict[str, Any]] = contextvars.ContextVar(
    "_creation_meta"
)


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
    #: The game's stages and moves (``aggregates.kernel.flow``); with it, the
    #: kernel dispatches commands and lists legal ones, given ``stage_of``.
    FLOW = None  # type: Flow | None
    #: The game's own reason codes (a ``GameReason`` enum's members).
    REASONS = ()  # type: tuple[str, ...]
    #: "sequential", "simultaneous" or "mixed" (OpenSpiel's dynamics).
    DYNAMICS = "sequential"
    #: JSON schema of the creation options, served by ``ListRules``.
    OPTIONS_SCHEMA = {  # noqa: RUF012
        "type": "object", "properties": {}, "additionalProperties": False,
    }
    #: A short summary for lobbies and ``arbiter rules``.
    SUMMARY = ""
    #: State attributes that only word what happened for readers (no rule
    #: reads them); an older release's snapshot may word them differently.
    WORDING_STATE = ()  # type: tuple[str, ...]

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
                entropy=contributions,
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
        self.collecting: dict[str, Any] | None = None
        if entropy:
            # Set only when there are contributions, so the state (and every
            # snapshot) of a game without them is what it always was.
            self.contributions = list(entropy)
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

    def stage_of(self, seat: int) -> str:
        """The stage ``seat`` is in now (a ``FLOW`` prompt key); games with a FLOW."""
        raise NotImplementedError

    def decide(self, seat: int, command: Command) -> None:
        """Validate ``command`` for ``seat`` and trigger the events it causes.

        With a ``FLOW``, the kernel routes it: the stage, the move's check, its run.
        """
        if self.FLOW is None:
            raise NotImplementedError
        self.FLOW.decide(self, self.stage_of(seat), seat, command)

    def pending(self) -> list[Decision]:
        """The seats the game waits on now (empty when the game is over)."""
        raise NotImplementedError

    def legal_actions(self, seat: int) -> list[Command]:
        """Every command ``seat`` may send now (with a ``FLOW``: its stage's moves)."""
        if self.FLOW is None:
            raise NotImplementedError
        if self.ended or not any(d.seat == seat for d in self.pending()):
            return []
        return self.FLOW.legal(self, self.stage_of(seat), seat)

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

    # ---------------------------------------------------------- presentation

    def present(self, seat: int | None) -> Screen:
        """What ``seat`` (None: a spectator) sees, in the kernel's presentation
        vocabulary. Games override it; the default lists the view's keys."""
        return generic_screen(self.view(seat))

    def action_label(self, command: Command) -> str:
        """A command in the game's own words, for menus (OpenSpiel's
        ``action_to_string``)."""
        return command.label()

    @classmethod
    def describe(cls, event_type: str, payload: Mapping[str, Any],
                 seats: list[str]) -> str:
        """One event in the game's own words, from the payload its reader got
        (the private or the public form). The default names the event."""
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

    @classmethod
    def metadata(cls) -> dict[str, Any]:
        """The game's metadata, declared once: served by ``ListRules``."""
        return {
            "id": cls.RULES_ID, "title": cls.TITLE, "version": cls.RULES_VERSION,
            "min_seats": cls.MIN_SEATS, "max_seats": cls.MAX_SEATS,
            "dynamics": cls.DYNAMICS, "summary": cls.SUMMARY,
            "commands": cls.COMMANDS.names(), "reasons": list(cls.REASONS),
            "options_schema": cls.OPTIONS_SCHEMA,
        }

    def finished(self) -> dict[str, Any] | None:
        """The outcome once the rules say the game is over, else None."""
        raise NotImplementedError

    def view(self, seat: int | None) -> dict[str, Any]:
        """The state as ``seat`` may see it (``None``: a spectator)."""
        raise NotImplementedError

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

    # ------------------------------------------------------------- commands

    def act(
        self, seat: int, command: Command, command_id: str = "", decision_id: str = ""
    ) -> None:
        """A seat's move: checked by the kernel, decided by the game, recorded.

        ``decision_id``, when given, must name a decision pending for the seat
        now: staleness is judged per decision, so seats choosing at once never
        make each other's answers stale.
        """
        self._draws = []
        self._command = None
        self._audience: tuple[Audience | None, dict[str, Any] | None] | None = None
        if self.ended:
            raise RuleError(Reason.GAME_OVER, "the game is over")
        self._check_seat(seat)
        if type(command) not in self.COMMANDS.by_name.values():
            raise RuleError(Reason.UNKNOWN_COMMAND, f"{self.RULES_ID} has no {command.NAME!r}")
        mine = [d for d in self.pending_decisions() if d.seat == seat]
        if not mine:
            raise RuleError(Reason.NOT_YOUR_TURN, f"the game is not waiting on seat {seat}")
        if decision_id and decision_id not in {d.id for d in mine}:
            raise RuleError(
                Reason.STALE_DECISION,
                f"decision {decision_id!r} is no longer pending; seat {seat} is asked: "
                + "; ".join(f"{d.id}: {d.prompt}" for d in mine),
            )
        self._command = {"seat": seat, "name": command.NAME, "args": command.args()}
        if command_id:
            self._command["id"] = command_id
        self._carry_out(seat, command)

    def _carry_out(self, seat: int, command: Command) -> None:
        """Decide the command, refuse it if it changes nothing, end the game if over."""
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

    def pending_decisions(self) -> list[Decision]:
        """``pending()`` with every decision's id filled in.

        A game may give its decisions ids; otherwise the id is the seat, the
        kind, the version of the seat's own last command and a checksum of the
        prompt: it changes when the seat acts or is asked something new, and
        not when other seats act, so simultaneous answers never go stale.
        """
        out = []
        acted = getattr(self, "last_acted", {})
        for d in self.pending():
            since = acted.get(str(d.seat), 0)
            own = f".{d.id}" if d.id else ""
            ident = f"{d.seat}.{d.kind}.{since}.{zlib.crc32(d.prompt.encode()):08x}{own}"
            out.append(dataclasses.replace(
                d, id=ident, choices=d.choices or tuple(self.choices(d.seat))))
        return out

    def act_default(self, seat: int) -> None:
        """A clock ran out on ``seat``: apply its decision's declared default.

        ``pass``: the game's ``pass_command``; ``random``: a legal command
        picked with a recorded die, so a replay and an audit agree. Recorded
        as a ``DefaultApplied`` event before the command's own events.
        """
        self._draws = []
        self._audience = None
        if self.ended:
            raise RuleError(Reason.GAME_OVER, "the game is over")
        self._check_seat(seat)
        mine = [d for d in self.pending_decisions() if d.seat == seat and d.default]
        if not mine:
            raise RuleError(Reason.NO_DEFAULT, f"seat {seat} has no decision with a default")
        decision = mine[0]
        if decision.default == "pass":
            command = self.pass_command(seat)
        else:
            options = self.legal_actions(seat)
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
        self._carry_out(seat, command)

    def clocked(self) -> bool:
        """Whether this game was created with clocks (option ``clock``): only
        then does the server apply a decision's default when its deadline passes."""
        return bool(self.options.get(CLOCK_OPTION))

    def overdue(self, now: float) -> list[int]:
        """Seats whose decision's deadline has passed at ``now`` (epoch seconds).

        A decision's clock runs from the game's last recorded move: any move
        by anyone restarts every pending clock, so a seat is defaulted only
        when the whole table has been waiting on it for its deadline. An
        entropy contribution is not a move and restarts nothing.
        """
        if self.ended or not self.clocked():
            return []
        since = self.modified_on.timestamp()
        if getattr(self, "clock_from_version", None) == self.version:
            since = self.clock_from  # the newest events are contributions
        waited = now - since
        return sorted({
            d.seat for d in self.pending()
            if d.default and d.deadline is not None and waited >= d.deadline
        })

    def pass_command(self, seat: int) -> Command:
        """The command that passes for ``seat`` (games whose defaults pass)."""
        raise RuleError(Reason.NO_DEFAULT, f"{self.RULES_ID} has no pass for seat {seat}")

    @event("DefaultApplied")
    def _default_applied(self, seat: int, decision: str, default: str,
                         command: dict[str, Any]) -> None:
        pass

    # ------------------------------------------------ simultaneous hidden choices

    def open_choices(self, kind: str, seats: list[int]) -> None:
        """Decide: every seat of ``seats`` now makes a hidden ``kind`` choice."""
        self._choices_opened(kind=kind, seats=list(seats))

    def collect(self, seat: int, choice: Any) -> dict[int, Any] | None:
        """Decide: record ``seat``'s hidden choice (only it may read it); when
        it is the last, reveal them all in one event and return them."""
        assert self.collecting is not None, "no simultaneous choice is open"
        self.emit("ChoiceMade", audience=Audience(frozenset({seat})),
                  public={"seat": seat, "kind": self.collecting["kind"]},
                  seat=seat, kind=self.collecting["kind"], choice=choice)
        if any(str(s) not in self.collecting["chosen"] for s in self.collecting["seats"]):
            return None
        chosen = {int(s): c for s, c in self.collecting["chosen"].items()}
        self._choices_revealed(kind=self.collecting["kind"],
                               choices={str(s): c for s, c in sorted(chosen.items())})
        return chosen

    def waiting_to_choose(self) -> list[int]:
        """The seats of the open simultaneous choice that have not chosen yet."""
        if not self.collecting:
            return []
        return [s for s in self.collecting["seats"] if str(s) not in self.collecting["chosen"]]

    @event("ChoicesOpened")
    def _choices_opened(self, kind: str, seats: list[int]) -> None:
        self.collecting = {"kind": kind, "seats": list(seats), "chosen": {}}

    @event("ChoiceMade")
    def _choice_made(self, seat: int, kind: str, choice: Any) -> None:
        assert self.collecting is not None
        self.collecting["chosen"][str(seat)] = choice

    @event("ChoicesRevealed")
    def _choices_revealed(self, kind: str, choices: dict[str, Any]) -> None:
        self.collecting = None

    # ----------------------------------------------------------- recording

    def emit(self, event_name: str, *, audience: Audience | None = None,
             public: Mapping[str, Any] | None = None, **payload: Any) -> None:
        """Decide: record the game's event ``event_name`` with this payload.

        Rules modules call this rather than the aggregate's private event
        methods, so they never import the aggregate class. ``audience`` (and
        the ``public`` form others get) may be given here, decided with the
        state at hand; otherwise ``audience_of``/``public_form`` decide.
        """
        event_class = _event_class(type(self), event_name)
        self._audience = (audience, None if public is None else dict(public))
        self.trigger_event(event_class, **payload)

    @property
    def dice_seed(self) -> str:
        """The seed the next die is drawn from: the server's seed mixed with
        every contribution recorded so far (the server's seed alone if none)."""
        return rng.dice_seed(self.seed, getattr(self, "contributions", ()))

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
        self.trigger_event(_event_class(type(self), ENTROPY_EVENT), seat=seat, entropy=checked)
        return True

    @event(ENTROPY_EVENT)
    def _entropy_added(self, seat: int, entropy: str) -> None:
        self.contributions = [*getattr(self, "contributions", []), entropy]
        self.contributed_by = {**getattr(self, "contributed_by", {}), str(seat): entropy}
        # A contribution is not a move: the clocks keep running from the last
        # move (``overdue``), so contributing never buys a seat more time.
        # (Here ``version`` and ``modified_on`` are still the previous event's.)
        if getattr(self, "clock_from_version", None) != self.version:
            self.clock_from = self.modified_on.timestamp()
        self.clock_from_version = self.version + 1

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
        chosen, self._audience = getattr(self, "_audience", None), None
        audience, public = chosen if chosen is not None else (None, None)
        if audience is None:
            audience = self.audience_of(event_class.__name__, payload)
        meta["aud"] = audience.to_meta()
        if not audience.everyone:
            meta["pub"] = (public if public is not None
                           else type(self).public_form(event_class.__name__, payload))
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
        It holds the newest ``COMMAND_WINDOW`` ids only (in the order applied,
        so a replay keeps the same ones).
        """
        self.head = meta["digest"]
        self.rng_counter = meta["rng"]
        command = meta.get("cmd")
        if command is not None:
            self.commands_applied += 1
            if not hasattr(self, "last_acted"):
                self.last_acted = {}  # a game recorded before Kernel 2
            self.last_acted[str(command["seat"])] = version
            if "id" in command:
                self.command_ids[command_key(command["seat"], command["id"])] = version
                while len(self.command_ids) > COMMAND_WINDOW:  # a game loaded unbounded
                    del self.command_ids[next(iter(self.command_ids))]

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
        """The first version recorded for a seat's command id, if it was applied
        among the last ``COMMAND_WINDOW`` ids (``command_window_full``)."""
        return self.command_ids.get(command_key(seat, command_id))

    def command_window_full(self) -> bool:
        """Whether ids may have left ``command_ids``: a miss then proves nothing,
        and the id must be looked up where every id is kept."""
        return len(self.command_ids) >= COMMAND_WINDOW

    def kernel_audience(self, event_type: str, payload: Mapping[str, Any],
                        meta: Mapping[str, Any]) -> tuple[Audience, dict[str, Any]]:
        """A stored event's audience and public form: as recorded in its meta
        when the event was triggered, else (a game recorded before Kernel 2)
        as the class-level rules say."""
        return recorded_audience(type(self), event_type, payload, meta)

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


@functools.cache
def _event_class(game_cls: type[Game], event_name: str) -> type[Game.Event]:
    """The event class an ``@event`` method named ``event_name`` triggers.

    The library re-declares inherited event classes on each subclass, but only
    the class declared with the decorated method applies it, so the lookup
    walks to that one (``decorated_funcs``: eventsourcing 9.5's registry).
    """
    found = getattr(game_cls, event_name, None)
    if not isinstance(found, type) or not issubclass(found, Game.Event):
        raise TypeError(f"{game_cls.__name__} has no event {event_name!r}")
    for klass in found.__mro__:
        if klass in decorated_funcs:
            return klass
    raise TypeError(f"{game_cls.__name__}.{event_name} is not an @event method's event")


def refuse_unknown_options(options: Mapping[str, Any], known: Iterable[str]) -> None:
    """Refuse creation options the game does not take, naming them."""
    unknown = set(options) - set(known)
    if unknown:
        raise RuleError(Reason.BAD_OPTIONS, f"unknown option(s) {sorted(unknown)}")


def checked_clock(options: Mapping[str, Any]) -> bool:
    """The ``clock`` option's value (default off), refused unless a boolean."""
    value = options.get(CLOCK_OPTION, False)
    if not isinstance(value, bool):
        raise RuleError(Reason.BAD_OPTIONS, f"{CLOCK_OPTION} is true or false")
    return value


def recorded_audience(
    game_cls: type[Game], event_type: str, payload: Mapping[str, Any], meta: Mapping[str, Any]
) -> tuple[Audience, dict[str, Any]]:
    """An event's audience and public form, read from its meta when recorded
    there (Kernel 2), else upcast from the game's class-level rules."""
    if "aud" in meta and event_type != "Created":
        audience = Audience.from_meta(meta["aud"])
        return audience, dict(meta.get("pub") or {})
    audience = game_cls.audience(event_type, payload)
    return audience, (game_cls.public_form(event_type, payload) if not audience.everyone else {})


def check_contributions(entropy: Sequence[str]) -> list[str]:
    """Creation contributions as recorded (lower-case hex), or BAD_ARGUMENT."""
    if len(entropy) > MAX_CREATION_ENTROPY:
        raise RuleError(Reason.BAD_ARGUMENT,
                        f"at most {MAX_CREATION_ENTROPY} entropy contributions")
    try:
        return [rng.check_entropy(e) for e in entropy]
    except ValueError as exc:
        raise RuleError(Reason.BAD_ARGUMENT, str(exc)) from None


def command_key(seat: int, command_id: str) -> str:
    return f"{seat}:{command_id}"
