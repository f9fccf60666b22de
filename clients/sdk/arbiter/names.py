"""A seat's name and a counted noun, the same words wherever a person reads them.

The games' sentences and screens (the server's rules, through
``aggregates.kernel.present``), the terminal and the web pages (``arbiter.render``)
all name seats through ``seat_name`` (``possessive``, ``capitalized``), so a seat has one name
everywhere, and count through ``plural``. Only the standard library: the rules import it too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def default_seat_name(seat: Any) -> str:
    """The name of a seat given none: ``Player 3`` for seat 2 (counted from 1,
    like every number a player reads)."""
    if isinstance(seat, int) and not isinstance(seat, bool):
        return f"Player {seat + 1}"
    return "nobody" if seat is None else f"Player {seat}"


def seat_name(seat: Any, seats: Sequence[str] = ()) -> str:
    """A seat's name: the one it was given, else ``Player N`` (N = seat + 1).
    The games' sentences, the terminal and the pages all name seats through
    this one function, so a seat has one name everywhere."""
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(seats):
        return seats[seat] or default_seat_name(seat)
    return default_seat_name(seat)


def plural(count: Any, noun: str, nouns: str | None = None) -> str:
    """``1 card``, ``3 cards`` (``nouns``: an irregular plural, ``Army``/``Armies``),
    never "card(s)"; a count a reader's form lacks (``?``) takes the plural."""
    return f"{count} {noun if count == 1 else (nouns or noun + 's')}"


def possessive(name: str) -> str:
    """``Ada's``, ``Leafblades'``."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def capitalized(text: str) -> str:
    """The first letter upper-cased, the rest as it is (``the far ...`` -> ``The far ...``)."""
    return text[:1].upper() + text[1:]
