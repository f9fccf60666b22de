"""A person's typed answer at the terminal: a menu number, or cards by number or id.

The terminal's own reading of what was typed (``clients.play``): the web page
posts the chosen ids themselves, so nothing below the CLI needs this.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from arbiter.answers import CardId


class SelectionError(ValueError):
    """A typed answer that cannot be read; the message says why, for the person."""


def parse_menu_number(text: str, count: int) -> int | None:
    """A 1-based menu number as a 0-based index; ``None`` when not a valid choice."""
    text = text.strip()
    if not text.isdigit():
        return None
    number = int(text)
    return number - 1 if 1 <= number <= count else None


def _match_id(token: str, options: Sequence[CardId]) -> CardId | None:
    for option in options:
        if str(option) == token:
            return option
    return None


def parse_cards(
    text: str, numbering: Sequence[CardId], options: Sequence[CardId]
) -> tuple[list[CardId], CardId | None]:
    """Typed cards: numbers of ``numbering`` (``3 5 7``, ``3,5``, ``3-5``), or ids
    (``#58``, or a name-like id as it is); a ``*`` after one marks it.

    Returns the picked ids, in the order typed, and the marked one (or ``None``).
    Raises ``SelectionError`` when a number or id names no card, a card is
    typed twice, or a card is not one of ``options``.
    """
    picked: list[CardId] = []
    marked: CardId | None = None
    tokens = [t for t in re.split(r"[\s,;]+", text.strip()) if t]
    for raw in tokens:
        star = raw.endswith("*") or raw.startswith("*")
        token = raw.strip("*")
        ids: list[CardId]
        span = re.fullmatch(r"(\d+)-(\d+)", token)
        if span:
            low, high = int(span.group(1)), int(span.group(2))
            if low > high or low < 1 or high > len(numbering):
                raise SelectionError(f"{token} is not a range of card numbers "
                                     f"(1 to {len(numbering)})")
            ids = [numbering[n - 1] for n in range(low, high + 1)]
        elif token.isdigit():
            number = int(token)
            if not 1 <= number <= len(numbering):
                raise SelectionError(f"there is no card number {number} "
                                     f"(the numbers go from 1 to {len(numbering)})")
            ids = [numbering[number - 1]]
        elif token:
            found = _match_id(token.removeprefix("#"), options)
            if found is None:
                raise SelectionError(f"{token!r} is neither a card number nor a card's id")
            ids = [found]
        else:
            continue
        if star:
            if len(ids) != 1:
                raise SelectionError("mark one card with *, not a range")
            marked = ids[0]
        for card in ids:
            if card in picked:
                raise SelectionError(f"card {card} is picked twice")
            picked.append(card)
    allowed = {str(o) for o in options}
    for card in picked:
        if str(card) not in allowed:
            raise SelectionError(f"card {card} cannot be picked for this")
    return picked, marked
