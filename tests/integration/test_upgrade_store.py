"""Games recorded by older releases still load, read, replay, audit and go on.

Each fixture is a data dir written by an old release (how:
``tests/fixtures/make_store.py``), with the snapshots that server took, and a
manifest (``<name>.json``) of what that release read back from its games:

- ``store_v1`` (Kernel 2 item 8): the release before Kernel 2 (commit
  b0ded44): a finished and an unfinished Land of Enin game, a finished 3-seat
  and an unfinished 2-seat Ethnos game.
- ``store_v2`` (Rules kernel 3 item 3): the release before Ettin's record was
  rewritten as the rulebook's events (commit d55351e): Ettin games of 2, 4
  and 10 players, finished and unfinished (recorded as ``Moved``,
  ``GoldChanged`` and ``Updated``), an Enin and an Ethnos game.

A new server is started on a copy of each data dir, as an operator upgrading
in place would, and every game must read back exactly as the old code read
it, audit clean (hash chain, dice, re-execution of every recorded command)
and, when unfinished, go on: one more legal move, and it still audits.
A second check rebuilds every game from its events alone (snapshots off),
so the old events themselves, not only the old snapshots, still make the
same games.

Never regenerate a fixture to make this test pass: it proves that stored
games survive the upgrade only because it was written by the old code. If a
later change alters the shape of a ``view`` (or of the legal-action JSON) on
purpose, compare against the manifest translated (upcast) to the new shape,
in this file, rather than dropping the comparison.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from arbiter.client import ArbiterClient

from aggregates.kernel.outcome import breakdown_of, outcome_json
from service.application import ArbiterApp
from service.auth import Credentials
from service.config import Settings
from service.envelope import dumps
from tests.integration.conftest import ServerProcess

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
#: Each fixture: the (rules, seats, finished) of the games it must hold, and its size bound.
HOLDS: dict[str, tuple[set[tuple[str, int, bool]], int]] = {
    "store_v1": ({("enin", 1, True), ("enin", 1, False), ("ethnos", 3, True),
                  ("ethnos", 2, False)}, 2_000_000),
    "store_v2": ({("ettin", 2, True), ("ettin", 2, False), ("ettin", 4, False),
                  ("ettin", 10, True), ("ettin", 10, False), ("enin", 1, True),
                  ("ethnos", 3, False)}, 4_000_000),
}
MANIFESTS: dict[str, dict[str, Any]] = {
    name: json.loads((FIXTURES / f"{name}.json").read_text()) for name in HOLDS
}
#: Every recorded game, with the fixture it is in.
CASES = [(name, game) for name, manifest in MANIFESTS.items() for game in manifest["games"]]
IDS = [f"{name}-{game['name']}" for name, game in CASES]
#: The games of ``store_v1`` (the name other tests know them by).
GAMES: list[dict[str, Any]] = MANIFESTS["store_v1"]["games"]


def copy_store(target: Path, fixture: str = "store_v1") -> Path:
    """The fixture's data dir copied, so no test ever writes to the checked-in store."""
    shutil.copytree(FIXTURES / fixture, target)
    return target


@pytest.mark.parametrize("fixture", list(HOLDS))
def test_fixture_holds_what_it_is_for(fixture: str) -> None:
    """The games each fixture was made for, finished and unfinished, in a small store."""
    games, size = MANIFESTS[fixture]["games"], HOLDS[fixture][1]
    store = FIXTURES / fixture
    assert {(g["rules"], len(g["seats"]), g["over"]) for g in games} == HOLDS[fixture][0]
    assert sum(p.stat().st_size for p in store.iterdir()) < size
    assert (store / "arbiter.sqlite").is_file() and (store / "secret").is_file()
    assert all(g["version"] > 1 for g in games)
    assert any(g["version"] > 100 for g in games), "some game must load from a snapshot"


class Upgraded:
    """Servers of the current code, one per fixture, each on a copy of its old
    data dir, started on first use and kept for the module."""

    def __init__(self, tmp: pytest.TempPathFactory, redis_url: str) -> None:
        self.tmp, self.redis_url = tmp, redis_url
        self.started: dict[str, ServerProcess] = {}

    def __call__(self, fixture: str) -> ServerProcess:
        if fixture not in self.started:
            data_dir = copy_store(self.tmp.mktemp(f"upgrade-{fixture}") / "data", fixture)
            server = ServerProcess(data_dir, self.redis_url)
            server.start()
            self.started[fixture] = server
        return self.started[fixture]


@pytest.fixture(scope="module")
def upgraded(tmp_path_factory: pytest.TempPathFactory, redis_url: str) -> Iterator[Upgraded]:
    servers = Upgraded(tmp_path_factory, redis_url)
    try:
        yield servers
    finally:
        for server in servers.started.values():
            server.stop()


def legal_json(client: ArbiterClient, game_id: str, seat: int, token: str) -> list[Any]:
    return [json.loads(a.json) for a in client.legal(game_id, seat, token=token).actions]


@pytest.mark.integration
@pytest.mark.parametrize(("fixture", "game"), CASES, ids=IDS)
def test_recorded_game_survives_the_upgrade(
    upgraded: Upgraded, fixture: str, game: dict[str, Any]
) -> None:
    gid, tokens, spectator_token = game["game_id"], game["seat_tokens"], game["spectator_token"]
    server = upgraded(fixture)
    with ArbiterClient(server.address, token="") as client:
        # It loads, and the old seat and spectator tokens (hashes in the old
        # store, derived from the old secret file) still open it.
        seat0 = client.state(gid, 0, token=tokens[0])
        public = client.state(gid, spectator=True, token=spectator_token)
        for state in (seat0, public):
            assert state.game_id == gid
            assert state.rules == game["rules"]
            assert state.rules_version == game["rules_version"]
            assert list(state.seats) == game["seats"]
            assert state.version == game["version"]
            assert state.head_digest == game["head_digest"]
            assert state.over == game["over"]
            assert state.seed_commitment == game["seed_commitment"]
            assert state.seed == game["seed"]
            # The outcome is derived: what the old release served is its breakdown.
            assert breakdown_of(json.loads(state.outcome_json)) == game["outcome"]
            assert [
                {"seat": d.seat, "kind": d.kind, "prompt": d.prompt, "hidden": d.hidden}
                for d in state.pending
            ] == game["pending"]
        # It reads as the old code read it. (A deliberate change of the view's
        # shape: compare with the manifest upcast to it, never drop this.)
        assert json.loads(seat0.view_json) == game["view_seat0"]
        assert json.loads(public.view_json) == game["view_spectator"]
        assert {
            seat: legal_json(client, gid, int(seat), tokens[int(seat)])
            for seat in game["legal_actions"]
        } == game["legal_actions"]
        if game["over"]:
            assert client.legal(gid, 0, token=tokens[0]).actions == []

        # Its whole History reads, the full record and the public one alike.
        check_history(client, game, server.admin_token, game["version"])
        public_events = list(client.history(gid, spectator=True, token=spectator_token))
        assert [e.version for e in public_events] == list(range(1, game["version"] + 1))

        # It replays and audits clean.
        check_audit(client, game, spectator_token, game["version"], game["head_digest"])
        if game["over"]:
            check_audit(client, game, "", game["version"], game["head_digest"])  # no token needed
            return

        # An unfinished game goes on: one more legal move (the first the old
        # code listed), on top of the old events and snapshot; it still audits.
        seat = game["pending"][0]["seat"]
        move = game["legal_actions"][str(seat)][0]
        reply = client.act(
            gid, seat, move, expected_version=game["version"], token=tokens[seat]
        )
        assert not reply.replayed
        assert reply.version > game["version"]
        assert reply.events[0].prev_digest == game["head_digest"]
        after = client.state(gid, spectator=True, token=spectator_token)
        assert after.version == reply.version
        check_history(client, game, server.admin_token, reply.version)
        check_audit(client, game, spectator_token, reply.version, after.head_digest)


def check_history(client: ArbiterClient, game: dict[str, Any], admin: str, version: int) -> None:
    """Every event from 1 to ``version``, each linked to the one before, the last the head."""
    events = list(client.history(game["game_id"], token=admin))
    assert [e.version for e in events] == list(range(1, version + 1))
    assert events[0].type == "Created"
    for before, event in zip(events, events[1:], strict=False):
        assert event.prev_digest == before.digest
    assert all(e.meta_json for e in events), "the admin reads the full record"
    if version == game["version"]:
        assert len(events) == game["history_events"]
        assert events[-1].digest == game["head_digest"]
        if game["over"]:
            assert events[-1].type == "Ended"


def check_audit(
    client: ArbiterClient, game: dict[str, Any], token: str, version: int, head: str
) -> None:
    report = client.audit(game["game_id"], token=token)
    assert (report.chain_ok, report.dice_ok, report.replay_ok) == (True, True, True), (
        list(report.problems)
    )
    assert list(report.problems) == []
    assert report.events == version
    assert report.head_digest == head
    assert report.seed_commitment == game["seed_commitment"]
    if version == game["version"]:
        assert (report.events, report.dice, report.commands) == (
            game["audit"]["events"], game["audit"]["dice"], game["audit"]["commands"]
        )


@pytest.mark.parametrize("fixture", list(HOLDS))
def test_events_alone_rebuild_the_same_games(tmp_path: Path, fixture: str) -> None:
    """Snapshots off: each game folded from its old events by the current code."""
    games = MANIFESTS[fixture]["games"]
    data_dir = copy_store(tmp_path / "data", fixture)
    # "n" said outright: ArbiterApp's own default for snapshot_interval=0 is "",
    # which the eventsourcing library refuses as a truth value.
    env = {**Settings(data_dir=data_dir).store_env(), "IS_SNAPSHOTTING_ENABLED": "n"}
    app = ArbiterApp(env, snapshot_interval=0, credentials=Credentials.configure(data_dir))
    try:
        assert app.snapshots is None
        listed = {str(entry.game_id): entry.rules for entry in app.list_games(limit=100)}
        assert listed == {g["game_id"]: g["rules"] for g in games}
        for game in games:
            loaded = app.game(game["game_id"])
            assert (loaded.version, loaded.head, loaded.ended) == (
                game["version"], game["head_digest"], game["over"]
            ), game["name"]
            assert (loaded.outcome or {}) == game["outcome"]
            # The shared outcome is derived from the old record, as the server serves it.
            shared = outcome_json(loaded)
            assert breakdown_of(shared) == game["outcome"] and (not shared) != game["over"]
            # Through JSON, as the wire carries them (upcast the manifest, see above).
            assert json.loads(dumps(loaded.view(0))) == game["view_seat0"], game["name"]
            assert json.loads(dumps(loaded.view(None))) == game["view_spectator"]
            assert {
                str(seat): [json.loads(dumps(a.to_json())) for a in loaded.legal_actions(seat)]
                for seat in loaded.waiting_on()
            } == game["legal_actions"]
            access = app.access(loaded.id)
            assert access is not None
            assert app.credentials.identify(game["seat_tokens"][0], access).seat == 0
    finally:
        app.close()
