"""Arrangement helpers for tests and demos (the rules never import this).

Cards are moved between zones (deck, row, hands), never created or lost, so an
arranged game still conserves its cards. An arranged game is no longer
replayable from its events (use plain play for audit tests).
"""

from __future__ import annotations

from typing import Any

from aggregates.ethnos.data import CARDS
from aggregates.ethnos.game import Ethnos
from aggregates.kernel import Command
from aggregates.kernel.testing import arrange as arrange

SEED = "e" * 64
TRIBES6 = ["dwarves", "elves", "halflings", "skeletons", "trolls", "wingfolk"]


def new_game(players: int = 4, tribes: list[str] | None = None, seed: str = SEED,
             **state: Any) -> Ethnos:
    """A started game with chosen tribes, arranged: ``new_game(3, current=1)``."""
    if tribes is None:
        tribes = TRIBES6[:5] if players <= 3 else TRIBES6
    game = Ethnos.start([f"P{i}" for i in range(players)], {"tribes": tribes}, seed=seed)
    game.collect_events()
    return arrange(game, **state)


def pick(tribe: str, colour: str | None = None, count: int = 1,
         skip: tuple[int, ...] = ()) -> list[int]:
    """``count`` card ids of a tribe (and colour) from the card data."""
    ids = [c.id for c in CARDS if c.tribe == tribe and (colour is None or c.colour == colour)
           and c.id not in skip]
    if len(ids) < count:
        raise LookupError(f"only {len(ids)} {tribe} {colour} cards")
    return ids[:count]


def _take(game: Ethnos, card: int) -> None:
    for zone in (game.deck, game.row, *game.hands):
        if card in zone:
            zone.remove(card)
            return
    raise LookupError(f"card {card} is not in the deck, the row or a hand")


def set_hand(game: Ethnos, seat: int, ids: list[int]) -> None:
    """Make ``ids`` the seat's whole hand; its old cards go under the deck."""
    old = [c for c in game.hands[seat] if c not in ids]
    game.hands[seat] = [c for c in game.hands[seat] if c in ids]
    for c in ids:
        if c not in game.hands[seat]:
            _take(game, c)
            game.hands[seat].append(c)
    game.deck.extend(old)


def set_row(game: Ethnos, ids: list[int]) -> None:
    """Make ``ids`` the face-up row; its old cards go under the deck."""
    old = [c for c in game.row if c not in ids]
    game.row = [c for c in game.row if c in ids]
    for c in ids:
        if c not in game.row:
            _take(game, c)
            game.row.append(c)
    game.deck.extend(old)


def stack(game: Ethnos, ids: list[int]) -> None:
    """Put ``ids`` on top of the Allies Deck, first id on top."""
    for c in ids:
        _take(game, c)
    game.deck[:0] = ids


def dragons_in_deck(game: Ethnos) -> list[int]:
    return [c for c in game.deck if CARDS[c].dragon]


def act(game: Ethnos, seat: int, command: Command) -> list[str]:
    """Play one command; return the names of the events it caused."""
    game.act(seat, command)
    return [type(e).__name__ for e in game.collect_events()]


def events(game: Ethnos, seat: int, command: Command) -> list[Any]:
    game.act(seat, command)
    return list(game.collect_events())


def all_cards(game: Ethnos) -> list[int]:
    """Every card of the game wherever it is (for conservation checks)."""
    out = [*game.deck, *game.row, *game.dragons]
    for hand in game.hands:
        out.extend(hand)
    for bands in game.bands:
        for band in bands:
            out.extend(band["cards"])
    return sorted(out)


def end_age(game: Ethnos) -> list[str]:
    """The current player draws the remaining Dragons: the Age ends at once."""
    from aggregates.ethnos.commands import RecruitFromDeck

    stack(game, dragons_in_deck(game))
    return act(game, game.current, RecruitFromDeck())
