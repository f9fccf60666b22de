"""Player elimination (aggregates.nine_empires.elimination): a seat leaves; the
rest go on, in the kernel's turn order with the eliminated seats skipped."""

from __future__ import annotations

import pytest

from aggregates.kernel import flow as kflow
from aggregates.nine_empires import elimination as el


def test_the_rest_go_on_clockwise() -> None:
    out: list[int] = []
    el.eliminate(out, 1)
    el.eliminate(out, 1)
    assert out == [1]
    assert el.in_play(4, out) == [0, 2, 3]
    assert kflow.order_from(0, 4, skip=out) == [0, 2, 3]
    assert kflow.order_from(1, 4, skip=out) == [2, 3, 0]
    assert kflow.next_seat(0, 4, skip=out) == 2
    assert kflow.next_seat(3, 4, skip=out) == 0


def test_a_passing_skips_the_eliminated() -> None:
    """Turn Order: the action goes to the next seat still in, and a run of
    passes counts only the seats still in."""
    frame = kflow.passing([0, 1, 2, 3], first=1)
    assert kflow.priority(frame, skip=[1]) == 2
    assert kflow.priority(frame, skip=[1, 2]) == 3
    frame["passes"] = 2
    assert kflow.all_passed(frame, skip=[1, 2])
    assert not kflow.all_passed(frame, skip=[1])
    with pytest.raises(ValueError):
        kflow.priority(frame, skip=[0, 1, 2, 3])


def test_the_last_seat_standing() -> None:
    out = [0, 2]
    assert el.last_standing(3, out) == 1
    assert el.last_standing(3, [0]) is None
    with pytest.raises(ValueError):
        kflow.next_seat(0, 2, skip=[0, 1])
