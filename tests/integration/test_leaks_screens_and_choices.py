"""Screens, views, choices and decisions leak no hidden card, over a real server process.

Random Ethnos games (3-4 seats) and Tidewatch games (the template game: 2-4
seats, secret bids, team vaults, a seat playing two positions) are played to
the end by bots through gRPC. At every step, for every seat and a spectator,
the test checks what that reader gets against what the reader is *allowed to
know*, computed by the test itself from the admin's full record and the
zones' visibility (not from the audiences the server recorded):

- ``screen_json`` (structurally: a zone the reader may not see has no faces;
  every face shown is a card the reader may know), ``view_json``;
- the pending decisions' ``choices_json`` (GetState's and LegalActions'),
  and the legal actions;
- every event it receives (Act replies, History, Subscribe): the payload,
  and ``Event.text``, which must be the game's sentence for exactly that
  payload (so the words carry nothing the payload does not);
- GetState at past versions (time travel), and the export it can make
  (``arbiter export``, the CLI);
- a direct Redis subscriber (public forms only);
- refusals for wrong, foreign or stale decision ids (they name only the
  caller's own pending decisions), for another seat's command id (no replay
  of its result), and for commands naming another seat's hidden card (read
  exactly as for a card out of sight anywhere else: no oracle);
- the Tidewatch bids, before their reveal, and the snatch windows (who is
  asked follows from public facts, never from the suits in hidden hands);
- the seed, on every surface, until the end.

Card ids are small integers, so "the id is not in the text" would prove
little: the checks look at ids where the wire puts them (card objects, faces,
card fields of payloads and commands, choice options) and compare them with
the exact set of cards the reader may know at that version.
"""

from __future__ import annotations

import json
import random
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
import redis
from arbiter.v1 import game_pb2
from arbiter.wire import json_to_command

from aggregates.ethnos.data import CARDS as ETHNOS_CARDS
from aggregates.ethnos.game import Ethnos
from tests.integration.cli_here import run_cli
from tests.integration.conftest import ServerProcess
from tests.integration.helpers import FeedCollector
from tests.soak import cases
from tests.template_game import Template
from tests.template_game.components import COMPONENTS as TIDE
from tests.template_game.table import seating_for

pytestmark = pytest.mark.integration

EXTRA = {"ARBITER_EXTRA_GAMES": "tests.template_game:Template"}
ROOT = Path(__file__).resolve().parents[2]

#: Payload, command and choice fields that hold card ids.
CARD_KEYS = {"card", "cards", "leader", "scattered", "hand", "discard", "options"}


def card_ids(value: Any, key: str = "") -> Iterator[int]:
    """Every card id in a JSON value: card objects and faces ({"id", "name"|"tribe"}),
    integers under card keys, and a deck given as a list (a count is not a card)."""
    if isinstance(value, dict):
        if isinstance(value.get("id"), int) and ("name" in value or "tribe" in value):
            yield value["id"]
        for inner_key, inner in value.items():
            yield from card_ids(inner, inner_key)
    elif isinstance(value, list):
        for inner in value:
            yield from card_ids(inner, "deck_list" if key == "deck" else key)
    elif (key in CARD_KEYS or key == "deck_list") and isinstance(value, int) \
            and not isinstance(value, bool):
        yield value


Reader = int | None


class Knowledge:
    """Which cards each reader may know, version by version, from the full record."""

    def __init__(self, players: int) -> None:
        self.readers: list[Reader] = [*range(players), None]
        self.known: dict[Reader, set[int]] = {r: set() for r in self.readers}
        self.at: dict[int, dict[Reader, frozenset[int]]] = {}
        self.version = 0
        self.seed = ""  # secret until the end

    def tell(self, readers: Any, cards: Any) -> None:
        cards = set(cards)
        for r in readers:
            self.known[r] |= cards

    def tell_all(self, payload: Any) -> None:
        self.tell(self.readers, card_ids(payload))

    def follow(self, events: list[game_pb2.Event]) -> None:
        for ev in events:
            assert ev.meta_json, "the admin reads the full record"
            if ev.type == "Created":
                # Not even the admin reads the seed before the end (issue 9
                # item 6): the model takes it from the store (Table.__init__).
                assert "seed" not in json.loads(ev.payload_json), "the admin read the seed"
            self.learn(ev.type, json.loads(ev.payload_json))
            self.at[ev.version] = {r: frozenset(k) for r, k in self.known.items()}
            self.noted(ev.version)
            self.version = ev.version

    def noted(self, version: int) -> None:
        """Keep whatever else the model needs by version."""

    def learn(self, kind: str, payload: dict[str, Any]) -> None:
        raise NotImplementedError

    def may_see_zone(self, zone: str, reader: Reader) -> bool:
        raise NotImplementedError

    def allowed(self, reader: Reader, version: int) -> frozenset[int]:
        return self.at[version][reader]


class EthnosKnowledge(Knowledge):
    """Ethnos by its rulebook: a card dealt or drawn from the deck is seen by its
    receiver alone; a new Age's deck order by nobody; every other event moves
    cards in plain sight. A new Age reshuffles every card back into hiding."""

    def learn(self, kind: str, payload: dict[str, Any]) -> None:
        if kind == "AgeBegan":
            self.known = {r: set() for r in self.readers}
        elif kind in ("CardDealt", "DrewFromDeck"):
            self.tell([payload["seat"]], [payload["card"]])
        elif kind != "Created":
            self.tell_all(payload)

    def may_see_zone(self, zone: str, reader: Reader) -> bool:
        if zone in ("row", "dragons"):
            return True
        if zone == "hand":  # the screen's own hand: drawn for its owner only
            return reader is not None
        return False  # the deck


class TideKnowledge(Knowledge):
    """Tidewatch by its rules (``table.py``): a hand is its controller's, a vault
    its team's, the deck nobody's; the shore and the discards are public."""

    def __init__(self, players: int) -> None:
        super().__init__(players)
        self.controller = seating_for(players).controller
        # Bids: who bid what this round, for the checks of the reveal.
        self.bids: dict[int, list[int]] = {}
        self.revealed = False
        self.bids_at: dict[int, tuple[bool, dict[int, list[int]]]] = {}
        # What everyone knows of the hands: how many cards each holds.
        self.held = [0, 0, 0, 0]
        self.window: list[int] | None = None  # the window a claim must open
        self.windows = 0

    def noted(self, version: int) -> None:
        self.bids_at[version] = (self.revealed, dict(self.bids))

    def team(self, team: int) -> set[int]:
        return {self.controller[p] for p in range(4) if p % 2 == team}

    def learn(self, kind: str, payload: dict[str, Any]) -> None:
        self.follow_window(kind, payload)
        self.count(kind, payload)
        if kind == "CardsDealt":
            target = payload["target"]
            readers = self.readers if target == "shore" else \
                [self.controller[int(target.split(":")[1])]]
            self.tell(readers, payload["cards"])
        elif kind == "Dived":
            self.tell([self.controller[payload["position"]]], payload["cards"])
        elif kind == "Banked":
            self.tell(self.team(payload["position"] % 2), payload["cards"])
        elif kind in ("Claimed", "WindowOpened", "Snatched"):
            self.tell_all(payload)
        elif kind == "ChoicesOpened":
            self.bids, self.revealed = {}, False
        elif kind == "ChoiceMade":
            self.bids[payload["seat"]] = payload["choice"]
        elif kind == "ChoicesRevealed":
            self.revealed = True
        else:
            assert not list(card_ids(payload)) or kind in ("Created", "Ended"), kind

    def count(self, kind: str, payload: dict[str, Any]) -> None:
        """The hands' sizes, which every reader may count."""
        p = payload.get("position")
        if kind == "CardsDealt" and payload["target"].startswith("hand:"):
            self.held[int(payload["target"].split(":")[1])] += len(payload["cards"])
        elif kind == "Dived":
            self.held[p] += len(payload["cards"])
        elif kind == "Claimed":
            self.held[p] += 1
        elif kind == "Banked":
            self.held[p] -= len(payload["cards"])
        elif kind == "Snatched":
            self.held[payload["victim"]] -= 1

    def follow_window(self, kind: str, payload: dict[str, Any]) -> None:
        """Who is asked to snatch a claimed card must follow from what the table
        knows (the card, the claimer, the hands' sizes), never from which suits
        the hidden hands hold: else the window tells the table what they hold."""
        if self.window is not None and kind != "EffectUsed":
            expected, self.window = self.window, None
            if expected:
                assert kind == "WindowOpened" and payload["order"] == expected, (
                    f"a claim asked {payload.get('order')} (by {kind}) where the public "
                    f"record says {expected}: the window reveals the hidden hands")
                self.windows += 1
            else:
                assert kind != "WindowOpened", payload
        if kind == "Claimed":
            claimer = payload["position"]
            card = TIDE.card(payload["card"])
            expected = [] if TIDE.book.has_keyword("anchored", card.effects) else [
                p for p in ((claimer + n) % 4 for n in range(1, 4))
                if p % 2 != claimer % 2 and self.held[p] > 0]
            self.window = expected

    def may_see_zone(self, zone: str, reader: Reader) -> bool:
        kind, _, number = zone.partition(":")
        if kind in ("shore", "discard"):
            return True
        if kind == "hand":
            return reader == self.controller[int(number)]
        if kind == "vault":
            return reader in self.team(int(number))
        return False  # the deck


# ---------------------------------------------------------------------- checks


def check_ids(seen: Any, know: Knowledge, reader: Reader, version: int, where: str) -> None:
    leaked = set(card_ids(seen)) - know.allowed(reader, version)
    assert not leaked, f"{where}: reader {reader} read hidden cards {sorted(leaked)} at v{version}"


def unsealed(know: Knowledge, where: str, *texts: str) -> None:
    """The seed is secret until the end."""
    assert know.seed and not any(know.seed in t for t in texts), f"{where}: the seed"


def check_screen(screen: dict[str, Any], know: Knowledge, reader: Reader, version: int,
                 where: str) -> None:
    """No faces for a zone the reader may not see; every face one it may know."""
    for section in screen["sections"]:
        for item in section["items"]:
            if item.get("kind") == "cards" and "cards" in item:
                zone = item.get("zone", "")
                assert know.may_see_zone(zone, reader), \
                    f"{where}: reader {reader} sees the faces of {zone!r} at v{version}"
    check_ids(screen, know, reader, version, where + " screen")


def check_state(state: game_pb2.GameState, game_cls: Any, know: Knowledge, reader: Reader,
                where: str) -> None:
    v = state.version
    unsealed(know, where, state.view_json, state.screen_json, state.seed,
             *(d.choices_json for d in state.pending))
    check_ids(json.loads(state.view_json), know, reader, v, where + " view")
    check_screen(json.loads(state.screen_json), know, reader, v, where)
    for d in state.pending:
        choices = json.loads(d.choices_json or "[]")
        if d.seat != reader:
            assert choices == [], f"{where}: reader {reader} got seat {d.seat}'s choices"
        check_ids(choices, know, reader, v, where + " pending choices")
    if isinstance(know, TideKnowledge):
        check_bids_in_state(state, know, reader, where)


def check_event(ev: game_pb2.Event, game_cls: Any, seats: list[str], know: Knowledge,
                reader: Reader, where: str) -> None:
    payload = json.loads(ev.payload_json)
    assert not ev.meta_json, f"{where}: reader {reader} got the kernel's meta before the end"
    check_ids(payload, know, reader, ev.version, where)
    unsealed(know, where, ev.payload_json, ev.text)
    # The text is the game's sentence for the payload this reader got, nothing more.
    assert ev.text == game_cls.describe(ev.type, payload, seats), (where, ev.type, ev.text)
    if ev.type == "ChoiceMade" and payload["seat"] != reader:
        assert payload == {"seat": payload["seat"], "kind": "bid"} and ev.redacted, \
            f"{where}: reader {reader} read seat {payload['seat']}'s bid {payload}"


def check_bids_in_state(state: game_pb2.GameState, know: TideKnowledge, reader: Reader,
                        where: str) -> None:
    """Before the reveal a reader sees its own bid at most; the bids column stays blank."""
    view = json.loads(state.view_json)
    revealed, bids = know.bids_at[state.version]
    if revealed or state.over:
        return
    assert view["bids"] is None, f"{where}: bids shown before the reveal"
    mine = bids.get(reader) if reader is not None else None
    assert view["my_bid"] in (None, mine), f"{where}: reader {reader} read a bid {view}"
    screen = json.loads(state.screen_json)
    for section in screen["sections"]:
        for item in section["items"]:
            if item.get("kind") == "table" and "bid" in item["columns"]:
                column = item["columns"].index("bid")
                assert all(row[column] == "-" for row in item["rows"]), \
                    f"{where}: reader {reader} saw bids before the reveal: {item['rows']}"


def check_legal(legal: game_pb2.LegalActionsResponse, know: Knowledge, seat: int) -> None:
    v = legal.version
    check_ids([json.loads(a.json) for a in legal.actions], know, seat, v, "LegalActions")
    for d in legal.decisions:
        assert d.seat == seat
        check_ids(json.loads(d.choices_json), know, seat, v, "LegalActions choices")


#: Commands naming one card, to probe refusals with.
ETHNOS_CARD_COMMANDS = [
    lambda c: {"name": "recruit_face_up", "args": {"card": c}},
    lambda c: {"name": "play_band", "args": {"cards": [c], "leader": c}},
    lambda c: {"name": "keep_cards", "args": {"cards": [c]}},
]
TIDE_CARD_COMMANDS = [
    lambda c: {"name": "claim", "args": {"card": c}},
    lambda c: {"name": "bank", "args": {"cards": [c]}},
    lambda c: {"name": "snatch", "args": {"card": c}},
]


class RedisTap:
    """A direct Redis subscriber to one game's channel, in a thread."""

    def __init__(self, server: ServerProcess, game_id: str) -> None:
        self.pubsub = redis.Redis.from_url(server.redis_url).pubsub(
            ignore_subscribe_messages=True)
        self.pubsub.subscribe(f"{server.redis_prefix}game:{game_id}")
        self.messages: list[dict[str, Any]] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        while not self.stop.is_set():
            message = self.pubsub.get_message(timeout=0.1)
            if message and message["type"] == "message":
                self.messages.extend(json.loads(message["data"]))  # a move's events

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=5)
        self.pubsub.close()


# ---------------------------------------------------------------------- the table


def stored_seed(server: ServerProcess, game_id: str) -> str:
    """A game's secret seed, read from the store itself: no RPC serves it
    before the end, the admin's included."""
    import sqlite3

    with sqlite3.connect(server.data_dir / "arbiter.sqlite") as con:
        row = con.execute(
            "SELECT state FROM stored_events WHERE originator_id=? AND originator_version=1",
            (game_id.replace("-", ""),)).fetchone()
    return str(json.loads(row[0])["seed"])


class Table:
    """One game on the server: its seats' stubs, a spectator, feeds, the model."""

    def __init__(self, server: ServerProcess, rules: str, players: int,
                 know: Knowledge, game_cls: Any) -> None:
        self.server = server
        self.admin = server.stub()
        self.rules = rules
        created = self.admin.CreateGame(game_pb2.CreateGameRequest(
            rules=rules, seats=[f"p{n}" for n in range(players)]))
        self.game_id = created.game_id
        self.tokens = {t.seat: t.token for t in created.seat_tokens}
        self.spectator_token = created.spectator_token
        self.seats = list(created.state.seats)
        self.stubs: dict[Reader, Any] = {n: server.stub(t) for n, t in self.tokens.items()}
        self.stubs[None] = server.stub(created.spectator_token)
        self.know = know
        know.seed = stored_seed(server, self.game_id)
        self.game_cls = game_cls
        self.tap = RedisTap(server, self.game_id)
        self.feeds = {r: FeedCollector(self.stubs[r], game_pb2.SubscribeRequest(
            game_id=self.game_id, seat=r or 0, spectator=r is None)) for r in know.readers}
        self.secret_until = 0  # events from this version on were read after the end
        self.cards = len(ETHNOS_CARDS) if rules == "ethnos" else len(TIDE.cards)
        self.card_commands = ETHNOS_CARD_COMMANDS if rules == "ethnos" else TIDE_CARD_COMMANDS
        self.refusals = 0
        self.oracles = 0  # refusal probes made with a hidden card

    def close(self) -> None:
        for feed in self.feeds.values():
            feed.close()
        self.tap.close()

    def catch_up(self) -> None:
        self.know.follow(list(self.admin.History(game_pb2.HistoryRequest(
            game_id=self.game_id, after_version=self.know.version))))

    def state(self, reader: Reader, version: int | None = None) -> game_pb2.GameState:
        request = game_pb2.GetStateRequest(game_id=self.game_id, seat=reader or 0,
                                           spectator=reader is None)
        if version is not None:
            request.version = version
        return self.stubs[reader].GetState(request)

    def history(self, reader: Reader) -> list[game_pb2.Event]:
        return list(self.stubs[reader].History(game_pb2.HistoryRequest(
            game_id=self.game_id, seat=reader or 0, spectator=reader is None)))

    def check_everyone_now(self) -> None:
        for r in self.know.readers:
            check_state(self.state(r), self.game_cls, self.know, r, "GetState")

    def check_past(self, rnd: random.Random) -> None:
        """Time travel: a random reader at a random past version."""
        reader = rnd.choice(self.know.readers)
        version = rnd.randint(1, self.know.version)
        past = self.state(reader, version)
        assert past.version == version and not past.seed
        check_state(past, self.game_cls, self.know, reader, f"GetState(version={version})")
        if reader is not None:  # another seat's past is refused, not served
            other = (reader + 1) % len(self.seats)
            with pytest.raises(grpc.RpcError) as info:
                self.stubs[reader].GetState(game_pb2.GetStateRequest(
                    game_id=self.game_id, seat=other, version=version))
            assert info.value.code() == grpc.StatusCode.PERMISSION_DENIED
            with pytest.raises(grpc.RpcError) as info:
                self.stubs[reader].History(game_pb2.HistoryRequest(
                    game_id=self.game_id, seat=other)).next()
            assert info.value.code() == grpc.StatusCode.PERMISSION_DENIED

    def check_histories(self) -> None:
        for r in self.know.readers:
            for ev in self.history(r):
                check_event(ev, self.game_cls, self.seats, self.know, r, "History")

    def check_exports(self) -> None:
        """``arbiter export`` as a seat and as the spectator, mid-game."""
        for r in (len(self.seats) - 1, None):
            args = ["export", self.game_id, "--address", self.server.address]
            args += ["--token", self.tokens[r] if r is not None else self.spectator_token]
            if r is not None:
                args += ["--seat", str(r)]
            out = run_cli(args, cwd=ROOT, env={"ARBITER_HOME": str(self.server.data_dir / "home"),
                                               "PATH": "/usr/bin:/bin"})
            assert out.returncode == 0, out.stderr
            unsealed(self.know, "export", out.stdout)
            header, *lines = [json.loads(line) for line in out.stdout.splitlines()]
            assert header["seed"] == "" and header["reader"] != "full record"
            for line in lines:
                assert line["meta"] is None, f"export of {r} carries the kernel's meta"
                check_ids(line["payload"], self.know, r, line["version"], "export")

    def probe_decision_ids(self, rnd: random.Random, state: game_pb2.GameState) -> None:
        """Wrong, foreign and stale decision ids: the refusal names only the
        caller's own pending decisions, never another seat's prompt or choices."""
        ids = {d.id for d in state.pending}
        for reader in rnd.sample(range(len(self.seats)), k=min(2, len(self.seats))):
            legal = self.stubs[reader].LegalActions(game_pb2.LegalActionsRequest(
                game_id=self.game_id, seat=reader))
            own = {d.id: d.prompt for d in legal.decisions}
            foreign = sorted(ids - set(own))
            probes = ["0.bid.0.00000000", *foreign[:1]]
            command = legal.actions[0].command if legal.actions else None
            if command is None:
                continue
            for probe in probes:
                with pytest.raises(grpc.RpcError) as info:
                    self.stubs[reader].Act(game_pb2.ActRequest(
                        game_id=self.game_id, seat=reader, command=command, decision_id=probe))
                self.refusals += 1
                details = info.value.details() or ""
                assert info.value.code() == grpc.StatusCode.ABORTED, details
                # The refusal names the caller's own pending decisions, exactly
                # as LegalActions shows them to it, and nothing else.
                assert details.endswith("is asked: " + "; ".join(
                    f"{ident}: {prompt}" for ident, prompt in own.items())), \
                    f"seat {reader}'s refusal says more than its own decisions: {details}"
                asked = details.split("is asked: ", 1)[1]
                for other in foreign:
                    assert other not in asked, details
                assert "options" not in details and "[" not in details, details

    def probe_card_refusals(self, rnd: random.Random, seat: int) -> None:
        """Naming another seat's hidden card in a command is refused exactly as
        naming a card the seat cannot see elsewhere (the deck, or out of the
        game): a refusal is no oracle for where a hidden card lies."""
        allowed = self.know.allowed(seat, self.know.version)
        held: set[int] = set()
        for other in range(len(self.seats)):
            if other != seat:
                view = self.admin.GetState(game_pb2.GetStateRequest(
                    game_id=self.game_id, seat=other)).view_json
                held |= set(card_ids(json.loads(view))) - allowed
        public = set(card_ids(json.loads(self.state(seat).view_json)))
        elsewhere = sorted(set(range(self.cards)) - held - allowed - public)
        if not held or not elsewhere:
            return
        self.oracles += 1
        pair = [rnd.choice(sorted(held)), rnd.choice(elsewhere)]
        for build in self.card_commands:
            said, masked = [], []
            for card in pair:
                with pytest.raises(grpc.RpcError) as info:
                    self.stubs[seat].Act(game_pb2.ActRequest(
                        game_id=self.game_id, seat=seat,
                        command=json_to_command(self.rules, build(card))))
                self.refusals += 1
                details = info.value.details() or ""
                said.append((info.value.code(), details))
                # The card's own id, as a whole number, named back ("card 6 is not
                # in your hand"); in "10 cards" or "coral 2", card 1 or 2 is not named.
                masked.append((info.value.code(), re.sub(rf"\b{card}\b", "#", details)))
            assert said[0] == said[1] or masked[0] == masked[1], (
                f"seat {seat}: a refusal tells {pair}: {said}")

    def probe_command_id(self, seat: int, command_id: str, command: Any,
                         state: game_pb2.GameState) -> None:
        """Another seat sending the mover's command id gets no replay of the
        mover's events (command ids are the sending seat's own)."""
        waiting = {d.seat for d in state.pending}
        others = [s for s in range(len(self.seats)) if s != seat and s not in waiting]
        if not others or state.over:
            return
        with pytest.raises(grpc.RpcError) as info:
            self.stubs[others[0]].Act(game_pb2.ActRequest(
                game_id=self.game_id, seat=others[0], command=command, command_id=command_id))
        assert info.value.code() == grpc.StatusCode.FAILED_PRECONDITION, info.value.details()
        self.refusals += 1

    def finish_feeds(self) -> None:
        final = self.know.version
        for r, feed in self.feeds.items():
            assert feed.wait_for(lambda f: len(f.events) >= final), f"feed of {r} stalled"
            assert feed.error is None, feed.error
            # The full record (meta) comes only in the last read, the one that
            # holds the Ended event: the game was over when it was read.
            full = next((n for n, ev in enumerate(feed.events) if ev.meta_json),
                        len(feed.events))
            assert all(ev.meta_json for ev in feed.events[full:])
            assert full == len(feed.events) or feed.events[-1].type == "Ended"
            for ev in feed.events[:full]:
                if ev.version < self.secret_until:
                    check_event(ev, self.game_cls, self.seats, self.know, r, "Subscribe")
        assert self.tap.messages, "the Redis subscriber heard the game"
        for message in self.tap.messages:
            version = message["version"]
            if version >= self.secret_until:
                continue  # the end reveals the seed, and the last move is everyone's
            check_ids(message["payload"], self.know, None, version, "Redis")
            unsealed(self.know, "Redis", json.dumps(message))
            if message["type"] == "ChoiceMade":
                assert set(message["payload"]) == {"seat", "kind"}, message
            if message["audience"] != "everyone":
                assert message["redacted"], message


def play(table: Table, rnd: random.Random, kind_of: Any, max_moves: int,
         probe: bool = False, export_at: int = -1, every: int = 1) -> game_pb2.GameState:
    """Bots play to the end. The mover's surfaces are checked at every step,
    every reader's every ``every`` steps, a random past every ``2 * every``."""
    state = table.state(None)
    table.catch_up()
    for move in range(max_moves):
        if move % every == 0:
            table.check_everyone_now()
        if move % (2 * every) == 0:
            table.check_past(rnd)
        if move == export_at:
            table.check_exports()
            table.check_histories()
        if state.over:
            break
        if probe and move % 7 == 0:
            table.probe_decision_ids(rnd, state)
        seat = rnd.choice([d.seat for d in state.pending])
        if probe and move % 7 == 3:
            table.probe_card_refusals(rnd, seat)
        legal = table.stubs[seat].LegalActions(game_pb2.LegalActionsRequest(
            game_id=table.game_id, seat=seat))
        check_legal(legal, table.know, seat)
        names = sorted({kind_of(a) for a in legal.actions})
        if names:
            name = rnd.choice(names)
            command = rnd.choice([a for a in legal.actions if kind_of(a) == name]).command
        else:  # only bands, too many to list: a band of one, built from the choice
            [pick] = [c for c in json.loads(legal.decisions[0].choices_json)
                      if c["kind"] == "pick_cards"]
            lead = pick["options"][0]  # the hand's first card can always lead
            command = json_to_command(table.rules, {"name": pick["command"], "args": {
                **pick["fixed"], pick["arg"]: [lead], pick["mark"]: lead}})
        reply = table.stubs[seat].Act(game_pb2.ActRequest(
            game_id=table.game_id, seat=seat, command=command,
            decision_id=legal.decisions[0].id, command_id=f"m{move}"))
        if probe and move % 5 == 0:
            table.probe_command_id(seat, f"m{move}", command, reply.state)
        table.catch_up()
        if reply.state.over:
            table.secret_until = reply.events[0].version
            break
        for ev in reply.events:
            check_event(ev, table.game_cls, table.seats, table.know, seat, "Act reply")
        check_state(reply.state, table.game_cls, table.know, seat, "Act reply state")
        state = reply.state
    else:
        raise AssertionError(f"the game did not end in {max_moves} moves")
    table.catch_up()
    return state


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, redis_url: str) -> Iterator[ServerProcess]:
    process = ServerProcess(tmp_path_factory.mktemp("leaks2") / "data", redis_url, EXTRA)
    process.start()
    try:
        yield process
    finally:
        process.stop_soon()


def ethnos_kind(action: game_pb2.LegalAction) -> str:
    return str(action.command.ethnos.WhichOneof("command"))


def tide_kind(action: game_pb2.LegalAction) -> str:
    return str(action.command.template.WhichOneof("command"))


@pytest.mark.parametrize("players", cases([3], [4]))
def test_ethnos_new_surfaces_hide_other_hands(server: ServerProcess, players: int) -> None:
    know = EthnosKnowledge(players)
    table = Table(server, "ethnos", players, know, Ethnos)
    try:
        play(table, random.Random(players), ethnos_kind, 1500, probe=players == 3,
             export_at=60, every=3)
        table.finish_feeds()
        assert any(know.at[v][s] - know.at[v][None] for v in know.at for s in range(players)), \
            "the game dealt secret cards, so the test had something to catch"
        assert players != 3 or (table.refusals > 0 and table.oracles > 0)
        assert len(ETHNOS_CARDS) > max(c for v in know.at.values() for c in v[None] or {0})
    finally:
        table.close()


@pytest.mark.parametrize("players", cases([2, 4], [3]))
def test_template_new_surfaces_hide_bids_hands_and_vaults(
        server: ServerProcess, players: int) -> None:
    know = TideKnowledge(players)
    table = Table(server, "template", players, know, Template)
    try:
        play(table, random.Random(10 + players), tide_kind, 1500, probe=True, export_at=25)
        table.finish_feeds()
        assert table.refusals > 0 and table.oracles > 0 and know.windows > 0
        private = [v for v in know.at for s in range(players) if know.at[v][s] - know.at[v][None]]
        assert private, "hands and vaults held secret cards, so the test had something to catch"
        assert len(TIDE.cards) >= max(max(k[None], default=0) for k in know.at.values())
    finally:
        table.close()
