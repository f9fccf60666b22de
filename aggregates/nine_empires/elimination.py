"""Player elimination: a seat that leaves play while the rest go on.

A game keeps the eliminated seats as a plain list (in the order they left, so
the record tells who went out first). Every question of "who is next", "who is
still in" and "who is left" goes through here, so an eliminated seat is never
asked to act, never counted in a round of passes and never wins by default.
"""

from __future__ import annotations

from collections.abc import Sequence


def in_play(seats: int, out: Sequence[int]) -> list[int]:
    """The seats still in the game, in seat order."""
    return [s for s in range(seats) if s not in out]


def clockwise(seats: int, start: int, out: Sequence[int]) -> list[int]:
    """The seats still in, clockwise (rising seat numbers) from ``start``.

    ``start`` itself comes first when it is still in; when it has left, the
    order begins with the next seat still in after it.
    """
    return [s for s in ((start + k) % seats for k in range(seats)) if s not in out]


def next_seat(seats: int, after: int, out: Sequence[int]) -> int | None:
    """The first seat still in after ``after``, clockwise (None: nobody)."""
    order = [s for s in ((after + k) % seats for k in range(1, seats + 1)) if s not in out]
    return order[0] if order else None


def eliminate(out: list[int], seat: int) -> None:
    """Record ``seat`` as out of the game (an apply; idempotent)."""
    if seat not in out:
        out.append(seat)


def last_standing(seats: int, out: Sequence[int]) -> int | None:
    """The one seat still in, when only one is (else None)."""
    left = in_play(seats, out)
    return left[0] if len(left) == 1 else None
