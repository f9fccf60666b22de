"""The work bucket of every caller's share (DESIGN principle 11, "every
reader's share"): work done is charged after the fact, a caller in debt is
refused until its bucket refills, and no one call buys an endless refusal."""

from __future__ import annotations

import time

from service.limits import MAX_DEBT_BURSTS, Buckets


def test_work_charged_after_the_call_refuses_until_it_is_paid_back() -> None:
    work = Buckets(rate=1.0, burst=0.2)
    assert work.take("a", 0.0)
    work.charge("a", 0.3)  # 0.1 s of work beyond the burst
    assert not work.take("a", 0.0)
    assert work.take("b", 0.0), "another caller is not charged"
    time.sleep(0.15)
    assert work.take("a", 0.0)


def test_the_debt_of_one_call_is_bounded() -> None:
    work = Buckets(rate=100.0, burst=0.1)
    work.charge("a", 1000.0)
    time.sleep((MAX_DEBT_BURSTS * 0.1) / 100.0 + 0.02)
    assert work.take("a", 0.0)
