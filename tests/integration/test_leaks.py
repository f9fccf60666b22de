"""No seat ever reads another seat's secret cards, through any RPC or feed.

Issue 3's leak test and issue 4's, over a real server process with real seat
tokens: random Ethnos games are played through the legal-action lists while
every seat and a spectator follow their own Subscribe streams. The test works
out from the admin's full record which cards each seat holds secretly at every
version (dealt or drawn blind since the Age began, not yet shown by a public
event) and checks every response each seat gets (GetState, LegalActions,
History, Act replies, feed messages) against the secrets of that version.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from arbiter.answers import build_pick_cards, structured_choices
from arbiter.v1 import game_pb2
from arbiter.wire import json_to_command

from tests.integration.conftest import ServerProcess
from tests.integration.helpers import FeedCollector
from tests.soak import cases

# One worker runs this module's tests, so its module-scoped server starts once.
pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("leaks"), pytest.mark.heavy(40)]

#: Payload keys that hold card ids (Ethnos' events and commands).
CARD_KEYS = {"card", "cards", "leader", "deck", "scattered", "hand"}
RESHUFFLES = {"Created", "AgeBegan"}
#: By the rulebook, a card dealt or drawn from the Allies Deck is seen by its
#: receiver only; the test takes this from the rules, not from the server.
BLIND_DRAWS = {"CardDealt", "DrewFromDeck"}


def card_ids(value: Any, under_card_key: bool = False) -> Iterator[int]:
    """Every card id in a JSON value: card objects, and integers under card keys."""
    if isinstance(value, dict):
        if "tribe" in value and isinstance(value.get("id"), int):
            yield value["id"]
        for key, inner in value.items():
            yield from card_ids(inner, key in CARD_KEYS)
    elif isinstance(value, list):
        for inner in value:
            yield from card_ids(inner, under_card_key)
    elif under_card_key and isinstance(value, int) and not isinstance(value, bool):
        yield value


class Secrets:
    """Which cards each seat holds secretly, version by version, from the full record."""

    def __init__(self, players: int) -> None:
        self.players = players
        self.held: list[set[int]] = [set() for _ in range(players)]
        self.at: dict[int, list[frozenset[int]]] = {}
        self.version = 0

    def follow(self, events: list[game_pb2.Event]) -> None:
        for ev in events:
            payload = json.loads(ev.payload_json)
            if ev.type in RESHUFFLES:
                self.held = [set() for _ in range(self.players)]
            elif ev.type in BLIND_DRAWS:
                self.held[payload["seat"]].add(payload["card"])
            elif ev.audience.everyone:
                shown = set(card_ids(payload))
                for held in self.held:
                    held -= shown
            self.at[ev.version] = [frozenset(h) for h in self.held]
            self.version = ev.version

    def hidden_from(self, seat: int | None, version: int) -> set[int]:
        """The cards other seats hold secretly at ``version`` (all of them for spectators)."""
        snapshot = self.at[version]
        return set().union(*(h for s, h in enumerate(snapshot) if s != seat))


def check(seen: Any, secrets: Secrets, seat: int | None, version: int, where: str) -> None:
    leaked = set(card_ids(seen)) & secrets.hidden_from(seat, version)
    assert not leaked, f"{where}: seat {seat} read secret cards {sorted(leaked)} at v{version}"


def event_json(ev: game_pb2.Event) -> Any:
    return json.loads(ev.payload_json)


def _act(legal: game_pb2.LegalActionsResponse, chooser: random.Random, stub: Any,
         game_id: str, seat: int) -> game_pb2.ActResponse:
    """Play a random legal command: from the list, or, when the list left every
    band out (a full hand has too many to list, and a hand of 10 cannot
    recruit), a band of one card led by itself, built from the ``pick_cards``
    choice (a Skeleton cannot lead: a refused card is tried no further; a
    refusal records nothing)."""
    if legal.actions:
        names = sorted({a.command.ethnos.WhichOneof("command") for a in legal.actions})
        name = chooser.choice(names)
        action = chooser.choice(
            [a for a in legal.actions if a.command.ethnos.WhichOneof("command") == name])
        return stub.Act(game_pb2.ActRequest(game_id=game_id, seat=seat, command=action.command))
    assert not legal.complete, "an empty complete list while the seat is waited on"
    for _, choice in structured_choices(legal):
        if choice.get("kind") != "pick_cards":
            continue
        for card in chooser.sample(list(choice["options"]), len(choice["options"])):
            command = json_to_command("ethnos", build_pick_cards(choice, [card], card))
            try:
                return stub.Act(game_pb2.ActRequest(game_id=game_id, seat=seat,
                                                    command=command))
            except grpc.RpcError as exc:
                if exc.code() not in (grpc.StatusCode.FAILED_PRECONDITION,
                                      grpc.StatusCode.INVALID_ARGUMENT):
                    raise
    raise AssertionError("no move could be built from the choice structures")


def check_histories(seats: list[Any], watcher: Any, game_id: str, secrets: Secrets) -> None:
    """Each seat's History (and the spectator's) against the secrets of each version."""
    readers: list[tuple[int | None, Any]] = [*enumerate(seats), (None, watcher)]
    for who, stub in readers:
        request = game_pb2.HistoryRequest(game_id=game_id, seat=who or 0, spectator=who is None)
        for ev in stub.History(request):
            check(event_json(ev), secrets, who, ev.version, "History")


@pytest.mark.parametrize(("players", "moves"), cases([(2, 400)], [(4, 300), (6, 200)]))
def test_no_rpc_or_feed_leaks_another_seats_cards(
    shared_server: ServerProcess, players: int, moves: int
) -> None:
    admin = shared_server.stub()
    created = admin.CreateGame(game_pb2.CreateGameRequest(
        rules="ethnos", seats=[f"p{n}" for n in range(players)]))
    game_id = created.game_id
    seats = [shared_server.stub(t.token) for t in created.seat_tokens]
    watcher = shared_server.stub(created.spectator_token)
    feeds: dict[int | None, FeedCollector] = {
        n: FeedCollector(seats[n], game_pb2.SubscribeRequest(game_id=game_id, seat=n))
        for n in range(players)
    }
    feeds[None] = FeedCollector(
        watcher, game_pb2.SubscribeRequest(game_id=game_id, spectator=True))
    secrets = Secrets(players)
    chooser = random.Random(players)
    checked = dict.fromkeys(feeds, 0)
    last_reply_from = 0
    try:
        for move in range(moves):
            secrets.follow(list(admin.History(game_pb2.HistoryRequest(
                game_id=game_id, after_version=secrets.version))))
            state = admin.GetState(game_pb2.GetStateRequest(game_id=game_id, spectator=True))
            for n in range(players):
                view = seats[n].GetState(game_pb2.GetStateRequest(game_id=game_id, seat=n))
                check(json.loads(view.view_json), secrets, n, view.version, "GetState")
            public = watcher.GetState(game_pb2.GetStateRequest(game_id=game_id, spectator=True))
            check(json.loads(public.view_json), secrets, None, public.version, "spectator view")
            if state.over:
                break
            seat = chooser.choice([d.seat for d in state.pending])
            legal = seats[seat].LegalActions(
                game_pb2.LegalActionsRequest(game_id=game_id, seat=seat))
            check([json.loads(a.json) for a in legal.actions], secrets, seat, legal.version,
                  "LegalActions")
            reply = _act(legal, chooser, seats[seat], game_id, seat)
            last_reply_from = reply.events[0].version
            secrets.follow(list(admin.History(game_pb2.HistoryRequest(
                game_id=game_id, after_version=secrets.version))))
            if move % 50 == 0 and not reply.state.over:
                check_histories(seats, watcher, game_id, secrets)
            for ev in reply.events:
                check(event_json(ev), secrets, seat, ev.version, "Act reply")
        final = secrets.version
        # Once the game is over the whole record is everyone's (the seed too), so
        # what was read after the end, the last move's events included, is exempt.
        secret_until = last_reply_from if state.over else final + 1
        for who, feed in feeds.items():
            assert feed.wait_for(lambda f: len(f.events) >= final), f"feed of {who} stalled"
            for ev in feed.events[checked[who]:]:
                if ev.version < secret_until:
                    check(event_json(ev), secrets, who, ev.version, "Subscribe")
        if not state.over:
            check_histories(seats, watcher, game_id, secrets)
        assert any(secrets.at[v][s] for v in secrets.at for s in range(players)), (
            "the game dealt secret cards, so the test had something to catch")
    finally:
        for feed in feeds.values():
            feed.close()
