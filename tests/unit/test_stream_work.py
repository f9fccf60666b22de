"""A response stream's CPU is its caller's work (``service.limits.StreamWork``,
DESIGN principle 11), whatever the stream: measured here on a stream of many
cheap messages, as a feed's catch-up or a ``History`` is, run through
``CallerShares.wrap`` as the server runs it."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import grpc
import pytest

from service import limits
from service.auth import Credentials
from tests.unit.test_move_path import _busy, refill_on_sleep

METHOD = "/arbiter.v1.GameService/History"
PEER = "ipv4:10.0.0.5:4242"


class _Context:
    def __init__(self, token: str = "") -> None:
        self.token = token

    def peer(self) -> str:
        return PEER

    def invocation_metadata(self) -> list[tuple[str, str]]:
        return [("authorization", f"Bearer {self.token}")] if self.token else []

    def is_active(self) -> bool:
        return True


def cheap_messages(count: int, cost: float) -> Any:
    """A server stream of ``count`` messages costing ``cost`` CPU seconds each."""

    def stream(request: Any, context: Any) -> Iterator[int]:
        for n in range(count):
            _busy(cost)
            yield n

    return grpc.unary_stream_rpc_method_handler(stream)


def shares_of(admin: str = "") -> limits.CallerShares:
    credentials = Credentials(b"s" * 32, admin)
    return limits.CallerShares(credentials, lambda *_: None, streams_per_peer=4,
                               calls_per_second=1000, creates_per_minute=1)


def tokens(shares: limits.CallerShares) -> float:
    """The caller's work bucket now (its tokens, as ``Buckets.take`` sees them)."""
    shares.work.take(limits.caller_of(PEER), 0.0)
    return shares.work._state[limits.caller_of(PEER)][0]


def test_a_streams_messages_are_charged_beyond_one_free_part_for_the_whole_stream() -> None:
    """200 messages of 0.5 ms each: about 100 ms of CPU, charged but for the
    opening call's 1 ms. A free part per message (as a ``Play`` move has,
    each a call) would have left the whole stream free."""
    shares = shares_of()
    shares.work = limits.Buckets(0.0, 2.0)  # no refill: what is charged stays taken
    handler = shares.wrap(METHOD, cheap_messages(200, 0.0005))
    full = shares.work.burst
    assert list(handler.unary_stream(None, _Context())) == list(range(200))
    charged = full - tokens(shares)
    assert 0.09 <= charged <= 0.2, f"charged {charged * 1000:.1f} ms for ~100 ms of work"
    shares.idle.stopping.set()


def test_a_stream_past_its_share_waits_and_ends_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """In debt, the stream's next message waits for the bucket (slowed, never
    ended) and the caller's other calls are refused; the admin's streams are free."""
    shares = shares_of(admin="admin-token")
    waits = refill_on_sleep(monkeypatch, shares)
    handler = shares.wrap(METHOD, cheap_messages(4, 0.03))
    assert list(handler.unary_stream(None, _Context())) == [0, 1, 2, 3]
    assert len(waits) >= 2, "past its share, the stream's next messages waited"
    waits.clear()
    shares.work = limits.Buckets(1.0, 0.02)
    assert list(handler.unary_stream(None, _Context("admin-token"))) == [0, 1, 2, 3]
    assert waits == [] and tokens(shares) == pytest.approx(0.02, abs=0.005), (
        "the admin's stream was charged")
    shares.idle.stopping.set()


def test_work_between_messages_is_charged_when_the_handler_says_so() -> None:
    """``settle_stream``: a handler that works without replying (a lobby
    watch's looks at a table that did not change) has that work charged at
    once, not at its next reply; on a thread running no stream it is nothing."""
    shares = shares_of()
    seen: list[float] = []

    def stream(request: Any, context: Any) -> Iterator[int]:
        yield 0
        _busy(0.05)  # a look that sends nothing
        shares.settle_stream()
        seen.append(tokens(shares))
        yield 1

    shares.work = limits.Buckets(0.0, 2.0)
    handler = shares.wrap(METHOD, grpc.unary_stream_rpc_method_handler(stream))
    full = shares.work.burst
    assert list(handler.unary_stream(None, _Context())) == [0, 1]
    assert full - seen[0] >= 0.045, "the look's work waited for a reply to be charged"
    other = threading.Thread(target=shares.settle_stream)  # no stream there: nothing
    other.start()
    other.join()
    shares.idle.stopping.set()


def test_a_handlers_work_before_its_first_reply_is_the_streams() -> None:
    """A handler that works before it hands back its replies (``Subscribe``
    loads the game, then returns its generator) has that work charged with
    the stream's: it began before the handler was called. Before, 200 ms of
    it was charged 0 ms, however often the call was made."""
    shares = shares_of()

    def loads_first(request: Any, context: Any) -> Iterator[int]:
        _busy(0.1)  # the game loaded, before the replies exist
        return iter([0, 1])

    shares.work = limits.Buckets(0.0, 2.0)
    handler = shares.wrap(METHOD, grpc.unary_stream_rpc_method_handler(loads_first))
    full = shares.work.burst
    assert list(handler.unary_stream(None, _Context())) == [0, 1]
    charged = full - tokens(shares)
    assert 0.09 <= charged <= 0.2, f"charged {charged * 1000:.1f} ms for ~100 ms of work"
    shares.idle.stopping.set()


def test_work_done_on_a_callers_behalf_is_set_aside_first_and_settled() -> None:
    """A bot's thinking for its player (``reserve``, ``settle``): as much as it
    may take is set aside from the player's share before it starts, only while
    a quarter of its burst would be left besides; after, what it took is
    charged and the rest given back, so the player is never put in debt by it."""
    shares = shares_of()
    key = limits.caller_of(PEER)
    shares.work = limits.Buckets(0.0, 2.0)  # no refill: what is charged stays taken
    assert shares.reserve(key, 0.2) == pytest.approx(0.2)
    assert tokens(shares) == pytest.approx(1.8, abs=0.01)
    shares.settle(key, 0.05, 0.2)  # took 50 ms of the 200 set aside
    assert tokens(shares) == pytest.approx(2.0 - 0.049, abs=0.01)
    shares.work = limits.Buckets(0.0, 2.0)
    shares.work.charge(key, 1.4)  # 0.6 s left: not 0.2 and a quarter of the burst
    assert shares.reserve(key, 0.2) is None
    assert tokens(shares) == pytest.approx(0.6, abs=0.01), "a refused reserve took nothing"
    assert shares.work.take(key, 0.0), "the player's own calls still pass"
    shares.work = limits.Buckets(0.0, 0.004)  # a share smaller than a decision
    kept = shares.reserve(key, 0.2)
    assert kept is not None and kept == pytest.approx(0.004), "its whole burst set aside"
    shares.settle(key, 0.05, kept)  # 50 ms taken: 46 ms past it, owed (debt at most 4 bursts)
    assert tokens(shares) == pytest.approx(-limits.MAX_DEBT_BURSTS * 0.004, abs=0.001)
    shares.idle.stopping.set()
