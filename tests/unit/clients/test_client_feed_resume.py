"""Issue 23: a feed reopens across a server restart after the last event it got,
and only when that is safe; the same for the blocking and the asyncio client
(``perform``: the one pipeline both share).

Against an in-process fake whose feed ends with ``UNAVAILABLE`` (a server
stopping) after chosen events: the reopened feed asks for the events after
the last one delivered, so none is missed or repeated; ``on_reconnect`` hears
of each reopening; a feed that never delivered anything, or may not reopen
(``reconnect=0``), or fails another way, raises at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import grpc
import pytest
from arbiter import client as client_module
from arbiter.client import ArbiterError, FeedResume
from arbiter.v1 import game_pb2

from tests.unit.clients.conftest import FakeGameService
from tests.unit.clients.support import Perform, client_call, serving

UNAVAILABLE = grpc.StatusCode.UNAVAILABLE
LAST = 4  # the fake game's last version


@dataclass
class RestartingFeed(FakeGameService):
    """Each feed opened sends the versions after ``after`` up to ``LAST``, but the
    ``n``-th feed opened stops after ``cut[n]`` of them with ``status``."""

    cut: dict[int, int] = field(default_factory=dict)
    status: tuple[grpc.StatusCode, str] = (UNAVAILABLE, "SHUTTING_DOWN")
    asked: list[int] = field(default_factory=list)

    def Subscribe(self, request: Any, context: Any) -> Iterator[game_pb2.FeedMessage]:
        self._note("Subscribe", request, context)
        opened = len(self.asked)
        self.asked.append(request.after)
        for count, version in enumerate(range(request.after + 1, LAST + 1)):
            if count == self.cut.get(opened):
                break
            yield game_pb2.FeedMessage(event=game_pb2.Event(game_id="g", version=version))
        else:
            return
        code, reason = self.status
        context.set_trailing_metadata((("arbiter-reason", reason),))
        context.abort(code, f"{reason}: the fake stops")


@pytest.fixture
def feed(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[RestartingFeed, str]]:
    monkeypatch.setattr(client_module, "RETRY_BACKOFF", (0.001, 0.002))  # no waiting here
    service = RestartingFeed()
    with serving(service) as address:
        yield service, address


def versions(messages: list[game_pb2.FeedMessage]) -> list[int]:
    return [m.event.version for m in messages]


def test_a_feed_reopens_after_the_last_event_it_delivered(
    feed: tuple[RestartingFeed, str], perform: Perform,
) -> None:
    service, address = feed
    service.cut = {0: 2, 1: 1}  # two restarts: after version 2, then after version 3
    heard: list[str] = []
    (messages,) = perform(address, [client_call(
        "subscribe", "g", token="t", on_reconnect=lambda error: heard.append(error.reason))])
    assert versions(messages) == [1, 2, 3, 4]  # nothing missed, nothing repeated
    assert service.asked == [0, 2, 3] and heard == ["SHUTTING_DOWN", "SHUTTING_DOWN"]


@pytest.mark.parametrize(("cut", "reconnect", "status"), [
    (0, 60.0, (UNAVAILABLE, "SHUTTING_DOWN")),  # never opened: a wrong address, say
    (2, 0.0, (UNAVAILABLE, "SHUTTING_DOWN")),  # the caller wants no reopening
    (2, 60.0, (grpc.StatusCode.PERMISSION_DENIED, "WRONG_SEAT")),  # would fail again
], ids=["never-opened", "reconnect-0", "not-unavailable"])
def test_a_feed_that_may_not_reopen_raises_its_error(
    feed: tuple[RestartingFeed, str], perform: Perform,
    cut: int, reconnect: float, status: tuple[grpc.StatusCode, str],
) -> None:
    service, address = feed
    service.cut, service.status = {0: cut}, status
    heard: list[ArbiterError] = []
    (ended,) = perform(address, [client_call(
        "subscribe", "g", token="t", reconnect=reconnect, on_reconnect=heard.append)])
    assert isinstance(ended, ArbiterError) and (ended.code, ended.reason) == status
    assert service.asked == [0] and heard == []


# --- where FeedResume reopens (issue 22: a store sharded by game) -------------


def event(**fields: object) -> game_pb2.FeedMessage:
    return game_pb2.FeedMessage(event=game_pb2.Event(**fields))  # type: ignore[arg-type]


def test_one_game_resumes_after_its_version() -> None:
    resume = FeedResume("g", 0, 10.0)
    resume.saw(event(game_id="g", version=7, position=93))
    assert resume.after == 7 and resume.after_shards() == []


def test_every_game_of_one_store_resumes_after_its_position() -> None:
    resume = FeedResume("", 0, 10.0)
    resume.saw(event(game_id="a", version=1, position=40))
    resume.saw(event(game_id="b", version=3, position=41))
    assert resume.after == 41 and resume.after_shards() == []


def test_every_game_of_a_sharded_store_resumes_after_each_shards_position() -> None:
    """Each shard's log has positions of its own: one number cannot resume them."""
    resume = FeedResume("", 0, 10.0)
    resume.saw(event(game_id="a", position=40, shard=0))
    resume.saw(event(game_id="b", position=12, shard=2))
    resume.saw(event(game_id="c", position=41, shard=0))
    resume.saw(event(game_id="d", position=13, shard=2))
    assert resume.after_shards() == [41, 0, 13]
