"""Player elimination: a seat that leaves play while the rest go on.

The game keeps the eliminated seats as a plain list (in the order they left, so
the record tells who went out first). "Who is still in" and "who is left" are
asked here; "who is next" is the kernel's turn order with the eliminated seats
skipped (``kflow.next_seat``, ``order_from``, ``priority`` and ``all_passed``
given ``skip=state.out``), so an eliminated seat is never asked to act, never
counted in a round of passes and never wins by default.
"""

from __future__ import annotations

from collections.abc import Sequence


def in_play(seats: int, out: Sequence[int]) -> list[int]:
    """The seats still in the game, in seat order."""
    return [s for s in range(seats) if s not in out]


def eliminate(out: list[int], seat: int) -> None:
    """Record ``seat`` as out of the game (an apply; idempotent)."""
    if seat not in out:
        out.append(seat)


def last_standing(seats: int, out: Sequence[int]) -> int | None:
    """The one seat still in, when only one is (else None)."""
    left = in_play(seats, out)
    return left[0] if len(left) == 1 else None
