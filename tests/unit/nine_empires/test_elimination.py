"""Player elimination (aggregates.nine_empires.elimination): a seat leaves; the rest go on."""

from __future__ import annotations

from aggregates.nine_empires import elimination as el


def test_the_rest_go_on_clockwise() -> None:
    out: list[int] = []
    el.eliminate(out, 1)
    el.eliminate(out, 1)
    assert out == [1]
    assert el.in_play(4, out) == [0, 2, 3]
    assert el.clockwise(4, 0, out) == [0, 2, 3]
    assert el.clockwise(4, 1, out) == [2, 3, 0]
    assert el.next_seat(4, 0, out) == 2
    assert el.next_seat(4, 3, out) == 0


def test_the_last_seat_standing() -> None:
    out = [0, 2]
    assert el.last_standing(3, out) == 1
    assert el.last_standing(3, [0]) is None
    assert el.next_seat(2, 0, [0, 1]) is None
