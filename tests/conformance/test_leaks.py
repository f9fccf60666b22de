"""No read shows a reader a card it cannot know (the design's principle 4), by
a known-cards model over every game's record.

The model, the same for every game: a reader (each seat, and a spectator)
knows a card once an event it received named it, in the form the reader gets
(``service.envelope.visible_payload``: the private payload for its audience,
the public form for everyone else), card ids found where the wire puts them
(``tests.integration.test_leaks_screens_and_choices.card_ids``: card objects and faces,
and the card fields of payloads, commands and choices). It never forgets
(a card reshuffled out of sight stays known: the model is a bound, looser
than each game's own leak tests, and the same for all). At moves picked along
each game, rebuilt from its events, everything a reader can read of the game
must name only cards it knows:

- its view (``view``) and its screen (``present``);
- for a seat asked, its legal list (the commands' JSON; each command also
  has a label in the game's words) and the choice structures of its decisions;
- and each event's sentence (``describe``), made from the form the reader
  got, never shows the seed before the end, nor does any view or screen.

Games whose views are drawn from the same zones their events' audiences come
from are held to agree with themselves: a view showing a card its reader was
never told of is a leak, whatever the audiences said.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from aggregates.kernel import Game, event_type, payload_of
from service.envelope import SPECTATOR, Reader, visible_payload
from tests.conformance import tables as t
from tests.integration.test_leaks_screens_and_choices import CARD_KEYS, card_ids

TABLES = t.tables()
#: Reads checked per game (a reader at a move), spread over the moves: every
#: reader at each of the moves picked (at most 20 of them).
READS = 120


def reader_of(seat: int | None) -> Reader:
    return SPECTATOR if seat is None else Reader(seat)


def told(payload: Any) -> set[int]:
    """The cards an event's payload tells its reader of: ``card_ids``, and
    every integer at any depth below a card field (Ettin's flip names its
    cards by location and slot: ``{"cards": {"0": {"1": [12]}}}``)."""
    return set(card_ids(payload)) | set(below_card_fields(payload, False))


def below_card_fields(value: Any, below: bool) -> Iterator[int]:
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from below_card_fields(inner, below or key in CARD_KEYS)
    elif isinstance(value, list):
        for inner in value:
            yield from below_card_fields(inner, below)
    elif below and isinstance(value, int) and not isinstance(value, bool):
        yield value


def faces(screen: dict[str, Any]) -> Iterator[Any]:
    """The card faces of a screen: the cards of its ``cards`` items (a board's
    spaces and a table's rows are not cards, in the kernel's vocabulary)."""
    for section in screen["sections"]:
        for item in section["items"]:
            if item.get("kind") == "cards":
                yield from (card["id"] for card in item.get("cards", []))


def the_cards(record: t.Played) -> set[int]:
    """Every card of the game: those its full record names, and those its
    zones hold (a zone is a list of card ids, the kernel's convention). An
    integer no event and no zone holds as a card is no card (Ettin's
    ``spoil(card=0)`` is the top of a deck)."""
    cards = {c for ev in record.events for c in told(payload_of(ev))}
    zones = getattr(record.game, "zones", {})
    if isinstance(zones, dict):
        cards |= {c for held in zones.values() if isinstance(held, list) for c in held
                  if isinstance(c, int)}
    return cards


@pytest.mark.heavy(6)
@pytest.mark.parametrize("table", TABLES, ids=t.table_id)
def test_no_read_shows_a_card_its_reader_cannot_know(table: tuple[type[Game], int]) -> None:
    cls, players = table
    readers: list[int | None] = [None, *range(players)]
    for record in t.games_of(table, "legal"):
        known: dict[int | None, set[int]] = {r: set() for r in readers}
        cards = the_cards(record)
        told_up_to = 0
        ends = [*record.marks, len(record.events)]
        at = min(20, max(4, READS // len(readers)))
        picked = t.sample(len(record.moves), at, random.Random(record.seed))
        for index, game in t.states(record, picked):
            for ev in record.events[told_up_to:ends[index]]:
                learn(cls, ev, known)
            told_up_to = ends[index]
            for r in readers:
                Reads(game, r, known[r], cards, f"{record.name}, move {index}, reader {r}"
                      ).check(record.seed)


def learn(cls: type[Game], ev: Any, known: dict[int | None, set[int]]) -> None:
    """Each reader learns the cards of the form of ``ev`` it gets: the
    spectator's form, which every seat outside the event's audience gets too,
    or, for a seat of the audience, its own (both as the server serves them;
    each form's cards are found once)."""
    public, _, audience = visible_payload(cls, ev, SPECTATOR)
    found: dict[int, set[int]] = {id(public): told(public)}
    for r in known:
        form = public
        if r is not None and audience.includes(r):
            form = visible_payload(cls, ev, Reader(r))[0]
        if id(form) not in found:
            found[id(form)] = told(form)
        known[r] |= found[id(form)]


class Reads:
    """Everything one reader can read of the game now, against what it knows."""

    def __init__(self, game: Game, reader: int | None, known: set[int], cards: set[int],
                 where: str) -> None:
        self.game, self.reader, self.known, self.cards = game, reader, known, cards
        self.where = where

    def hidden(self, ids: Iterator[Any]) -> list[int]:
        """The cards among ``ids`` the reader was never told of."""
        return sorted((set(ids) & self.cards) - self.known)

    def check(self, seed: str) -> None:
        game, reader, where = self.game, self.reader, self.where
        view, screen = game.view(reader), game.present(reader).to_json()
        assert not (leak := self.hidden(card_ids(view))), f"{where}: the view shows {leak}"
        assert not (leak := self.hidden(faces(screen))), f"{where}: the screen shows {leak}"
        if not game.ended:
            assert seed not in json.dumps([view, screen]), f"{where}: the seed, before the end"
        if reader is None:
            return
        for decision in game.pending_decisions():
            if decision.seat == reader:
                choices = [c.to_json() for c in decision.choices]
                assert not (leak := self.hidden(card_ids(choices))), f"{where}: choices {leak}"
        commands = game.legal_actions(reader)
        legal = [c.to_json() for c in commands]
        assert not (leak := self.hidden(card_ids(legal))), f"{where}: the legal list {leak}"
        labels = [game.action_label(c) for c in commands]
        assert all(isinstance(label, str) and label for label in labels), f"{where}: labels"


@pytest.mark.parametrize("table", TABLES, ids=t.table_id)
def test_each_events_sentence_is_made_from_the_form_its_reader_got(
        table: tuple[type[Game], int]) -> None:
    """``describe`` words the payload a reader got, and only it: the sentence
    of each form readers get (read back from its JSON, as a client has it) is
    the same each time it is asked for, and none shows the seed before the
    game is over (the ``Ended`` event reveals it)."""
    cls, players = table
    for record in t.games_of(table, "legal"):
        seats = list(record.game.seats)
        for ev in record.events:
            kind = event_type(ev)
            forms = {json.dumps(visible_payload(cls, ev, reader_of(r))[0], sort_keys=True)
                     for r in (None, *range(players))}
            for form in forms:
                seen = json.loads(form)
                text = cls.describe(kind, seen, seats)
                assert isinstance(text, str) and text, (record.name, kind)
                assert text == cls.describe(kind, json.loads(form), seats)
                if kind != "Ended":
                    assert record.seed not in text, f"{record.name}: {kind} tells the seed"
