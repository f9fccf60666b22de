"""A world guessed from one seat's record: the belief of a bot that has only
its seat's stream.

In process a bot's belief starts from the real game (``Determiniser``). Over
the per-seat stream a bot has only the events as its seat read them: the
creation without its seed (and, in a game that deals a secret setup, without
the hidden part of it), its own private events whole, and every other private
event in its public form (the cards left out, or counted). Folding that record
by the rules' event bodies needs a whole event at every step, so each game
says how to fill in what its seat could not read (``UNSEEN``'s ``setup`` and
``complete``, ``aggregates.kernel.unseen``):

- the creation: the hidden part of the setup drawn at random, as the rules
  roll one, with everything public kept (checked: the guess's public form is
  the one the seat read);
- an event read in public form: completed in the guessed world (the cards an
  opponent drew are the guess's top cards, a new deck is one the rules could
  build);
- an event read whole that names cards the guess put elsewhere: those cards
  are first brought where the event takes them from, by swapping them with
  cards the seat cannot see (``kernel.unseen.bring``).

So the guessed world shows the seat what the real game shows it (its view,
its legal moves, every public zone), and its hidden cards are the real
game's hidden cards in another order. ``Determiniser`` then deals those
hidden cards again for every sample, as it does with the real game: the
guess only has to be right about which cards are hidden where they could be.

Nothing here reads beyond the record it is given: ``records`` is the seat's
own, as its stream delivered them (``redacted`` says which reached it in
public form).
"""

from __future__ import annotations

import dataclasses
import datetime
import random
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from aggregates.kernel import Game, event_type
from aggregates.kernel.record import upcast
from aggregates.kernel.record.audit import Record, rebuild, upcast_record
from aggregates.kernel.record.recording import payload_of, recorded_audience
from aggregates.kernel.unseen import Guessing, Inconsistent, Unseen, public_setup_is_whole
from clients.bots.determinisation import Determiniser, NoBelief, table_of


@dataclasses.dataclass(frozen=True)
class Read:
    """One event of a seat's record: the record and whether the seat read it
    in its public form."""

    record: Record
    redacted: bool = False


class Guess:
    """A seat's guessed world, folded one event at a time (``add``) so a bot
    folds each event of its stream once. ``belief`` gives the sampler a
    searching level needs; ``NoBelief`` when the game does not say how to
    complete its events."""

    def __init__(self, cls: type[Game], seat: int, rng: random.Random) -> None:
        self.cls = cls
        self.seat = seat
        self.rng = rng
        self.table: Unseen | None = table_of_class(cls)
        self.game: Game | None = None
        self.folded = 0
        self.memo: dict[str, Any] = {}

    def add(self, reads: Sequence[Read]) -> None:
        """Fold ``reads`` (the record's events after those folded so far)."""
        for read in reads:
            if self.game is None:
                self.game = self.created(read.record)
            else:
                self.apply(read)
            self.folded += 1

    def created(self, rec: Record) -> Game:
        """The guessed game at its creation: the setup made whole."""
        payload = dict(rec.payload)
        public = payload.get("setup") or {}
        guess_setup = (self.table.setup if self.table is not None and self.table.setup
                       else public_setup_is_whole)
        setup = guess_setup(self.cls, payload, self.rng)
        if self.cls.public_setup(setup) != public:
            raise Inconsistent(f"GUESS_INCONSISTENT: {self.cls.RULES_ID}'s guessed setup "
                               "does not show the seat the setup it read")
        seed = self.rng.getrandbits(256).to_bytes(32, "big").hex()
        whole = dataclasses.replace(rec, payload={**payload, "setup": setup, "seed": seed})
        return rebuild(whole, self.cls)

    def apply(self, read: Read) -> None:
        """One event, completed in the guess and applied by the rules' body."""
        assert self.game is not None
        rec = upcast_record(read.record, self.cls)
        payload = dict(rec.payload)
        guessing = Guessing(self.seat, self.rng, read.redacted, self.memo)
        if read.redacted and rec.type == "DefaultApplied":
            payload.setdefault("command", {})  # the kernel's: applies nothing
        elif self.table is not None and self.table.complete is not None:
            payload = self.table.complete(self.game, guessing, rec.type, payload)
        elif read.redacted:
            raise NoBelief(f"NO_BELIEF: {self.cls.RULES_ID} does not say how to complete "
                           f"{rec.type} read in its public form (UNSEEN's complete)")
        upcast.event_of(
            self.cls, rec.type, rec.meta or {}, originator_id=self.game.id,
            originator_version=rec.version,
            timestamp=datetime.datetime.fromisoformat(rec.time), **payload,
        ).mutate(self.game)

    def align(self, view: Mapping[str, Any]) -> None:
        """Align the guess to the seat's view of the turn, where the game says
        how (``UNSEEN``'s ``align``: Nine Empires' faces behind the ids drawn)."""
        if self.game is not None and self.table is not None and self.table.align is not None:
            self.table.align(self.game, Guessing(self.seat, self.rng, False, self.memo), view)

    def belief(self) -> Determiniser:
        """The sampler of worlds for the seat, from the guess as it stands."""
        if self.game is None:
            raise NoBelief("NO_BELIEF: no record folded yet")
        return Determiniser(self.game, self.seat)


def table_of_class(cls: type[Game]) -> Unseen | None:
    """The game's ``UNSEEN`` (None: a game of perfect information)."""
    return table_of(cls)


def completes(cls: type[Game]) -> bool:
    """Whether a world can be guessed from a seat's record of this game: it
    hides nothing, or it says how to complete what it hides."""
    try:
        table = table_of_class(cls)
    except NoBelief:
        return False
    return table is None or table.complete is not None


def belief_from_record(cls: type[Game], seat: int, reads: Sequence[Read],
                       rng: random.Random) -> Determiniser:
    """The belief of ``seat`` from its own record alone (see the module)."""
    guess = Guess(cls, seat, rng)
    guess.add(reads)
    return guess.belief()


def seat_reads(game_cls: type[Game], events: Sequence[Any], seat: int) -> list[Read]:
    """The events of an in-process game as the stream delivers them to ``seat``:
    the creation in its public form, the seat's private events whole, every
    other one in its public form. (Tests and the in-process harness use it to
    give a bot what the server would.)"""
    out = []
    game_id = str(events[0].originator_id) if events else str(uuid.uuid4())
    for ev in events:
        kind = event_type(ev)
        payload = payload_of(ev)
        audience, public = recorded_audience(game_cls, kind, payload, ev.meta)
        if kind == "Created":
            form, redacted = game_cls.public_form(kind, payload), True
        elif audience.includes(seat):
            form, redacted = payload, False
        else:
            form, redacted = public, True
        rec = Record(game_id, ev.originator_version, kind, ev.timestamp.isoformat(),
                     dict(form), {"digest": "", "prev": "", "rng": 0}, "", "")
        out.append(Read(rec, redacted))
    return out
