"""Romance of the Nine Empires leaks no hidden card, over a real server process (issue 19).

A 3-player game is played by seeded random bots through gRPC (the plumbing of
``leak_table``) while every seat and a spectator read everything the service
offers them: ``GetState`` (its ``view_json``, ``screen_json`` and pending
choices, now and at a past version), ``LegalActions``, the events of ``Act``
replies, ``History`` and ``Subscribe``, a direct Redis subscriber, and the
web side's seat page and game page. Each read is checked against what that
reader may see at that version, worked out by the test itself, by the
rulebook and its rulings ("hands, decks and stealth cards are private until
revealed; discard and buried piles are public"), from the game the admin's
full record folds into (not from the audiences the server recorded):

- everyone sees every card in play (strongholds, castles, properties, heroes
  and their attachments, quests, tokens, and a token once removed from the
  game) and every discard and buried pile (where a mulligan's hand, a tactic
  used, a revealed stealth card and a Winter discard go);
- a seat also sees its own hand and its own stealth cards; a deck's cards,
  and a new deck's order, nobody.

A card instance keeps its id from the deck to the hand, to play and to the
piles, and back into a new deck when a discard pile is shuffled: so an id
shown where its card lies face down tells a reader who saw the card before
(in a discard pile, say) or will see it later which card it is. The checks
are therefore two, on every reply:

- every id named (``i<n>``, anywhere: values, keys, ``food:`` tokens) is of a
  card the reader may see *now*: its location is no secret, its identity is;
- every face (a card's key, title or designed text) is tied to an id (a card
  object, an event's card field with its ``key``, a choice's slot with its
  label), that id is one the reader may know (has seen, at this version or
  before: it may remember), and the face is that card's. The one face with
  no id is a payment's or a gain's reason (``why``: the card brought into
  play, the ability used), which the reader must know a card of by the end
  of that command's events (written and read together). A face string
  anywhere else fails the test.

The seed stays secret until the end, and each event's text is the game's
sentence for exactly the payload its reader got. The game is capped
(``MOVES``): past the opening hands and mulligans, through a Summer's plays
and an Autumn's raid (the bots seek one: stealth cards face down, then
revealed); a game that ends sooner is checked up to its last move.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from arbiter.v1 import game_pb2
from arbiter.wire import json_to_command

from aggregates.nine_empires.cards import PLAY, zone_name
from aggregates.nine_empires.data import ALL, TOKENS
from aggregates.nine_empires.game import NineEmpires
from tests.integration.conftest import ServerProcess
from tests.integration.leak_table import (
    FoldedKnowledge,
    LeakTable,
    Pages,
    Pick,
    check_state,
    pick_acting,
    play_and_check,
    web_server,
)
from tests.integration.test_leaks_screens_and_choices import Reader

pytestmark = [pytest.mark.integration, pytest.mark.heavy(10)]

PLAYERS = 3
MOVES = 120
#: The game's dice are the server's (a new seed each run): a game that has not
#: reached every secret the test is for (``REACHED``) goes on, up to this.
MAX_MOVES = 170
#: Blind draws, stealth cards face down in a raid and their reveal.
REACHED = frozenset({"CardsDrawn", "RaidUnitsAssigned", "RaidResolved"})
#: Passing ends a phase when all pass in a row: the bots prefer acting.
ENDING = {"pass"}

#: An instance id, as a value or a key, bare or as a castle's food token.
INSTANCE = re.compile(r"(?:food:)?(i\d+)")
NAMED = re.compile(r'"(?:food:)?(i\d+)"')
#: A face: every card's key, title and designed text (a token's, made in play,
#: is public and named by its key alone: ``TokenMade``'s ``card``).
FACES = {s for key, card in ALL.items() if key not in TOKENS
         for s in (key, card.title, card.text()) if s}
#: The field of an event's payload that a ``key`` (or ``keys``) names the face of.
FACE_OF = ("card", "source", "hero", "castle", "quest")
KEYS_OF = ("cards", "discarded")
#: The public setup names the strongholds and starting castles (revealed, in play).
SETUP_FACES = ("stronghold", "castles")


def named(value: Any) -> set[str]:
    """Every instance id a JSON value names, as a value or a key (a whole string)."""
    return set(NAMED.findall(json.dumps(value)))


def faces(value: Any, where: str, key: str = "") -> Iterator[tuple[str | None, str]]:
    """Every (id, face) a JSON value shows: a card object (``id`` with ``key``,
    or a screen's ``id`` with ``name``), an event's card field with its
    ``key`` (or its cards with their ``keys``). A face with no id is the
    reason given for a payment or a gain (``why``: the card brought into play,
    the ability used), as (None, face); a face string anywhere else fails."""
    if isinstance(value, dict):
        tied: set[str] = set()
        if isinstance(value.get("id"), str) and ("key" in value or "name" in value):
            yield value["id"], str(value.get("key", value.get("name")))
            tied |= {"key", "name", "title", "text"}
        elif isinstance(value.get("key"), str):
            fields = [f for f in FACE_OF if isinstance(value.get(f), str)
                      and INSTANCE.fullmatch(value[f])]
            assert len(fields) == 1 or value["key"] not in FACES, \
                f"{where}: the face {value['key']!r} of no one card"
            if fields:
                yield value[fields[0]], value["key"]
            tied |= {"key", "text"}
        if isinstance(value.get("keys"), list):
            [field] = [f for f in KEYS_OF if isinstance(value.get(f), list)]
            yield from zip(value[field], value["keys"], strict=True)
            tied.add("keys")
        if value.get("slot_labels"):  # a choice's slots in words: a castle's by its title
            for slot, label in zip(value["slots"], value["slot_labels"], strict=True):
                if isinstance(slot, str) and INSTANCE.fullmatch(slot):
                    yield slot, label
                else:
                    yield from faces(label, where, "slot_labels")
            tied.add("slot_labels")
        for inner_key, inner in value.items():
            if inner_key not in tied:
                yield from faces(inner, where, inner_key)
    elif isinstance(value, list):
        for inner in value:
            yield from faces(inner, where, key)
    elif isinstance(value, str) and value in FACES:
        assert key == "why", f"{where}: the face {value!r} of no card"
        yield None, value


class NineKnowledge(FoldedKnowledge):
    """What each reader may see (``now``) and may know (``known``: seen, now or
    before), version by version, by the rulebook (see above)."""

    GAME = NineEmpires

    def __init__(self, players: int) -> None:
        super().__init__(players)
        self.remembered: dict[Reader, set[str]] = {r: set() for r in self.readers}
        self.now_at: dict[int, dict[Reader, frozenset[str]]] = {}
        self.known_at: dict[int, dict[Reader, frozenset[str]]] = {}
        self.faces: dict[str, str] = {}
        self.stealth: list[int] = []  # the versions with a stealth card face down
        self.stealth_checked = 0  # how many of them every reader's state was checked at
        self.commands: list[int] = []  # the versions that begin a command's events

    def learned(self, game: Any, version: int) -> bool:
        self.faces = {iid: inst["card"] for iid, inst in game.instances.items()}
        now = {r: seen(game, r) for r in self.readers}
        for r in self.readers:
            self.remembered[r] |= now[r]
        self.now_at[version] = {r: frozenset(k) for r, k in now.items()}
        self.known_at[version] = {r: frozenset(k) for r, k in self.remembered.items()}
        if game.zones.get("stealth"):
            self.stealth.append(version)
        return any(now[s] - now[None] for s in range(len(game.seats)))

    def fold(self, rec: Any) -> None:
        super().fold(rec)
        if (rec.meta or {}).get("cmd") is not None:
            self.commands.append(rec.version)

    def written_with(self, version: int) -> int:
        """The last version of the command whose events ``version`` is of: they
        are written (and read) together."""
        return next((v - 1 for v in self.commands if v > version), self.version)

    def check(self, value: Any, reader: Reader, version: int, where: str) -> None:
        hidden = named(value) - self.now_at[version][reader]
        assert not hidden, f"{where}: reader {reader} read the ids of cards it cannot " \
                           f"see {sorted(hidden)} at v{version}"
        for iid, face in faces(value, where):
            if iid is None:  # the reason for a payment: the card its command reveals
                end = self.written_with(version)
                assert any(face in (ALL[self.faces[c]].key, ALL[self.faces[c]].title)
                           for c in self.known_at[end][reader]), \
                    f"{where}: reader {reader} read the face {face} at v{version}"
                continue
            assert iid in self.known_at[version][reader], \
                f"{where}: reader {reader} read the face of {iid} ({face}) at v{version}"
            card = ALL[self.faces[iid]]
            assert face in (card.key, card.title), f"{where}: {iid} is not {face}"

    def check_view(self, view: Any, reader: Reader, version: int, where: str) -> None:
        self.check(view, reader, version, where)

    def check_screen(self, screen: Any, reader: Reader, version: int, where: str) -> set[str]:
        self.check(screen, reader, version, where)
        return {iid for iid, _ in faces(screen, where) if iid is not None}

    def check_commands(self, commands: list[Any], reader: Reader, version: int,
                       where: str) -> None:
        self.check(commands, reader, version, where)

    def check_payload(self, kind: str, payload: Any, reader: Reader, version: int,
                      where: str) -> None:
        if kind == "Created":
            players = payload["setup"]["players"]
            assert all(isinstance(p["cards"], int) for p in players), f"{where}: a deck's order"
            payload = {**payload, "setup": {**payload["setup"], "players": [
                {k: v for k, v in p.items() if k not in SETUP_FACES} for p in players]}}
        self.check(payload, reader, version, where)


def seen(game: Any, reader: Reader) -> set[str]:
    """The cards ``reader`` may see in ``game`` now, by the rulebook."""
    zones = game.zones
    # tokens: made in play, and removed from the game in plain sight
    out = set(zones.get(PLAY, [])) | {i for i, inst in game.instances.items() if inst["token"]}
    for s in range(len(game.seats)):
        out |= {*zones.get(zone_name("discard", s), []), *zones.get(zone_name("buried", s), [])}
    if reader is None:
        return out
    out |= set(zones.get(zone_name("hand", reader), []))
    out |= {c for c in zones.get("stealth", []) if game.instances[c]["owner"] == reader}
    return out


def bot(know: NineKnowledge) -> Pick:
    """A random bot that seeks a raid (units with stealth cards in it) and,
    until one was made, attacks nobody (a battle's many steps would use up
    the moves); where the legal list names no command (an assignment whose
    every combination is not listed), a random answer to the choice."""

    def rank(action: game_pb2.LegalAction) -> int:
        command = action.command.nine_empires
        if command.HasField("declare_raid") or (
                command.HasField("assign_raid") and command.assign_raid.stealth):
            return 1
        return -1 if command.HasField("declare_attack") and not know.stealth else 0

    acting = pick_acting(lambda a: str(a.command.nine_empires.WhichOneof("command")), ENDING,
                         rank)

    def pick(legal: game_pb2.LegalActionsResponse, rnd: random.Random) -> game_pb2.LegalAction:
        if legal.actions:
            return acting(legal, rnd)
        [choice] = [c for c in json.loads(legal.decisions[0].choices_json)
                    if c["kind"] == "assign"]
        command = {"name": choice["command"], "args": {
            **choice["fixed"],
            choice["arg"]: [rnd.choice(choice["slots"]) for _ in choice["items"]]}}
        return game_pb2.LegalAction(command=json_to_command("nine_empires", command))

    return pick


def stealth_states(table: LeakTable, know: NineKnowledge) -> None:
    """Every reader's state at every version a stealth card lay face down
    since the last move (a raid is short: the full reads every 4 moves may
    miss it)."""
    while know.stealth_checked < len(know.stealth):
        version = know.stealth[know.stealth_checked]
        for r in know.readers:
            check_state(table.state(r, version), know, r, f"GetState(version={version})")
        know.stealth_checked += 1


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, redis_url: str) -> Iterator[ServerProcess]:
    yield from web_server(tmp_path_factory, redis_url, "leaks_nine_empires")


def test_nine_empires_hides_hands_decks_and_stealth_cards(server: ServerProcess) -> None:
    know = NineKnowledge(PLAYERS)
    table = LeakTable(server, "nine_empires", PLAYERS, know, NineEmpires)
    pages = Pages(server, table)
    try:
        kinds = play_and_check(table, pages, bot(know), MOVES, random.Random(19),
                               pages_every=40, after_move=lambda: stealth_states(table, know),
                               reached=REACHED, max_moves=MAX_MOVES)
        # The game reached its secrets, so the test had something to catch:
        # blind draws, stealth cards face down in a raid and their reveal.
        assert kinds >= REACHED, sorted(kinds)
        assert know.private > 0 and know.stealth and pages.checked >= 3
    finally:
        table.close()
