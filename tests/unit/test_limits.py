"""Issue 8, item 4: the pieces of every caller's share, in isolation."""

from __future__ import annotations

import threading
import time

import pytest

from service.auditing import AuditSlots
from service.errors import ServiceError
from service.limits import Buckets, Counts, caller_of


def test_a_caller_is_an_ipv4_address_or_an_ipv6_64() -> None:
    assert caller_of("ipv4:10.0.0.5:40412") == "ipv4:10.0.0.5"
    assert caller_of("ipv4:10.0.0.5:1") == caller_of("ipv4:10.0.0.5:2")
    assert caller_of("ipv6:[::ffff:10.0.0.5]:5000") == "ipv4:10.0.0.5"
    # A host given a /64 cannot be 2^64 callers.
    assert caller_of("ipv6:[2001:db8:1:2::1]:5000") == caller_of("ipv6:[2001:db8:1:2:ffff::9]:1")
    assert caller_of("ipv6:[2001:db8:1:2::1]:5000") != caller_of("ipv6:[2001:db8:1:3::1]:5000")
    # gRPC's own spelling of an IPv6 peer is percent-encoded: one /64 all the same.
    assert caller_of("ipv6:%5B2001:db8:1:2::1%5D:5000") == "ipv6:2001:db8:1:2::/64"
    assert caller_of("ipv6:%5B::1%5D:5000") == caller_of("ipv6:[::1]:6000")
    assert caller_of("unix:/tmp/arbiter.sock") == "unix:/tmp/arbiter.sock"


def test_buckets_refill_at_their_rate_and_keep_callers_apart() -> None:
    buckets = Buckets(rate=10, burst=5)
    assert all(buckets.take("a") for _ in range(5))
    assert not buckets.take("a")
    assert buckets.take("b")
    assert not buckets.take("b", cost=5)
    time.sleep(0.25)
    assert buckets.take("a", cost=2)


def test_counts_give_back() -> None:
    counts = Counts(2)
    counts.take("a")
    counts.take("a")
    with pytest.raises(ServiceError) as refused:
        counts.take("a")
    assert refused.value.reason == "TOO_MANY_STREAMS"
    counts.take("b")
    counts.give_back("a")
    counts.take("a")


def test_uncached_audits_run_so_many_at_once() -> None:
    slots = AuditSlots(1, wait=0.2)
    started, release = threading.Event(), threading.Event()

    def slow() -> object:
        started.set()
        release.wait(5)
        return "done"

    first = threading.Thread(target=slots.run, args=(slow,))
    first.start()
    assert started.wait(5)
    with pytest.raises(ServiceError) as refused:
        slots.run(lambda: "second")  # type: ignore[arg-type, return-value]
    assert (refused.value.status, refused.value.reason) == ("RESOURCE_EXHAUSTED", "AUDITS_BUSY")
    release.set()
    first.join(5)
    assert slots.run(lambda: "third") == "third"  # type: ignore[arg-type, comparison-overlap]


def test_the_callers_of_at_most_so_many_peers_are_kept_and_each_as_worked_out() -> None:
    from service import limits

    peers = [f"ipv4:10.0.{n // 250}.{n % 250}:{40000 + n}" for n in range(limits.PEERS_KEPT + 50)]
    peers += ["ipv6:%5B2001:db8:1:2::1%5D:5000", "ipv6:[::ffff:10.0.0.5]:5000"]
    for peer in peers:
        assert caller_of(peer) == limits._caller_of(peer)
        assert caller_of(peer) == limits._caller_of(peer)  # kept, the same answer
        assert len(limits._callers) <= limits.PEERS_KEPT
