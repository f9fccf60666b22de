"""``/metrics`` of a real server process: the counters move with the calls made.

The server runs with ``ARBITER_METRICS_ADDRESS`` on port 0 and says in its
ready line where its metrics are; the test makes calls (created games, moves,
a refusal, an open feed), scrapes, and reads the text format with
prometheus-client's own parser.
"""

from __future__ import annotations

import random
import re
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from arbiter.v1 import game_pb2
from prometheus_client.parser import text_string_to_metric_families

from tests.integration.conftest import ServerProcess
from tests.integration.helpers import FeedCollector, new_game, play

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("metrics")]

METRICS_AT = re.compile(r"metrics at (http://\S+/metrics)")


@pytest.fixture(scope="module")
def metered(tmp_path_factory: pytest.TempPathFactory, redis_url: str) -> Iterator[ServerProcess]:
    server = ServerProcess(tmp_path_factory.mktemp("metrics") / "data", redis_url,
                           {"ARBITER_METRICS_ADDRESS": "127.0.0.1:0",
                            "ARBITER_WEB_ADDRESS": "127.0.0.1:0"})
    server.start()
    try:
        yield server
    finally:
        server.stop()


def metrics_url(server: ServerProcess) -> str:
    found = METRICS_AT.search(server.log_path.read_text())
    assert found, server.log_path.read_text()[-2000:]
    return found.group(1)


def scrape(server: ServerProcess) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of ``/metrics`` by (name, sorted labels)."""
    with urllib.request.urlopen(metrics_url(server), timeout=10) as reply:
        assert reply.status == 200
        text = reply.read().decode()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str,
          **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


GS = "arbiter.v1.GameService"


def test_counters_move_with_calls(metered: ServerProcess) -> None:
    before = scrape(metered)
    stub = metered.stub()
    game_id = new_game(stub)
    state = play(stub, game_id, 6, random.Random(5))
    with pytest.raises(grpc.RpcError):
        stub.GetState(game_pb2.GetStateRequest(game_id="0" * 32))
    after = scrape(metered)

    def moved(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert moved("arbiter_grpc_calls_total", service=GS, method="CreateGame", code="OK") == 1
    acts = moved("arbiter_grpc_calls_total", service=GS, method="Act", code="OK")
    assert acts == 6 and not state.over  # six moves made, each one Act
    assert moved("arbiter_grpc_errors_total", service=GS, method="GetState",
                 reason="UNKNOWN_GAME") == 1
    assert moved("arbiter_grpc_calls_total", service=GS, method="GetState",
                 code="NOT_FOUND") == 1
    assert moved("arbiter_grpc_call_seconds_count", service=GS, method="Act") == acts
    assert value(after, "arbiter_grpc_call_seconds_sum", service=GS, method="Act") > 0
    assert moved("arbiter_games_created_total", rules="enin") == 1
    assert value(after, "arbiter_games_active", rules="enin") >= 1
    assert moved("arbiter_events_appended_total") >= state.version
    assert value(after, "arbiter_store_up") == 1
    assert value(after, "arbiter_redis_up", role="relay") == 1
    assert value(after, "arbiter_redis_up", role="feed_hub") == 1
    assert value(after, "arbiter_relay_leader") == 1
    assert value(after, "arbiter_feed_live") == 1
    # Group commit: six moves saved, one at a time here (no other mover at once).
    assert moved("arbiter_group_commit_moves_total") == 6
    assert moved("arbiter_group_commit_transactions_total") == 6
    assert 0 < moved("arbiter_group_commit_seconds_total") < 6 * 5, "each commit timed"
    assert ("arbiter_feed_degradations_total", ()) in after


def test_open_streams_and_relay_lag(metered: ServerProcess) -> None:
    stub = metered.stub()
    game_id = new_game(stub)
    feed = FeedCollector(stub, game_pb2.SubscribeRequest(game_id=game_id))
    try:
        assert feed.wait_for(lambda f: len(f.events) >= 1)
        samples = scrape(metered)
        assert value(samples, "arbiter_grpc_open_streams", service=GS,
                     method="Subscribe") >= 1
    finally:
        feed.close()
    deadline = time.monotonic() + 10
    while True:  # the relay catches up: no lag once it has published everything
        samples = scrape(metered)
        lag = value(samples, "arbiter_relay_lag_events")
        if lag == 0 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert lag == 0
    assert value(samples, "arbiter_relay_position") >= 1
    while value(samples, "arbiter_grpc_open_streams", service=GS, method="Subscribe") > 0:
        assert time.monotonic() < deadline + 10, "a closed feed still counted as open"
        time.sleep(0.2)
        samples = scrape(metered)
    assert value(samples, "arbiter_grpc_calls_total", service=GS, method="Subscribe",
                 code="CANCELLED") >= 1  # the client left: not counted as OK
    # ... nor as an error: a client leaving is not something going wrong.
    assert value(samples, "arbiter_grpc_errors_total", service=GS, method="Subscribe",
                 reason="CANCELLED") == 0


def test_web_requests_are_counted_by_route_and_status(metered: ServerProcess) -> None:
    game_id = new_game(metered.stub())
    before = scrape(metered)
    with urllib.request.urlopen(f"{metered.web_url}/", timeout=10) as reply:
        assert reply.status == 200
    for path in (f"/games/{game_id}", "/no/such/page"):
        with pytest.raises(urllib.error.HTTPError):
            urllib.request.urlopen(f"{metered.web_url}{path}", timeout=10)
    after = scrape(metered)

    def moved(route: str, status: str) -> float:
        labels = {"route": route, "method": "GET", "status": status}
        return (value(after, "arbiter_web_requests_total", **labels)
                - value(before, "arbiter_web_requests_total", **labels))

    assert moved("/", "200") == 1
    assert moved("unmatched", "404") == 1
    # A game's page is counted under its pattern, never its id.
    assert sum(v for (name, labels), v in after.items()
               if name == "arbiter_web_requests_total" and game_id in str(labels)) == 0
    assert value(after, "arbiter_web_request_seconds_count", route="/") >= 1


def test_finished_games_are_counted(metered: ServerProcess) -> None:
    stub = metered.stub()
    before = scrape(metered)
    game_id = new_game(stub)
    state = play(stub, game_id, 2000, random.Random(11))
    assert state.over
    after = scrape(metered)
    assert (value(after, "arbiter_games_finished_total", rules="enin")
            - value(before, "arbiter_games_finished_total", rules="enin")) == 1
    assert (value(after, "arbiter_games_active", rules="enin")
            == value(before, "arbiter_games_active", rules="enin"))


def test_no_metrics_port_unless_asked(tmp_path: Path, redis_url: str) -> None:
    server = ServerProcess(tmp_path / "data", redis_url)
    server.start()
    try:
        assert "metrics at" not in server.log_path.read_text()
    finally:
        server.stop()


def test_a_busy_metrics_port_refuses_to_start(
    metered: ServerProcess, tmp_path: Path, redis_url: str
) -> None:
    taken = metrics_url(metered).split("//", 1)[1].split("/", 1)[0]
    second = ServerProcess(tmp_path / "data", redis_url, {"ARBITER_METRICS_ADDRESS": taken})
    with pytest.raises(RuntimeError) as refused:
        second.start()
    assert f"cannot serve metrics on {taken}" in str(refused.value)
    assert "Traceback" not in str(refused.value)
    assert second.process is not None and second.process.wait(timeout=20) != 0
