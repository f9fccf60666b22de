"""Beginning a New Age and the End of an Age.

New Age: one card to each player, a face-up row of twice the players, the rest
split in two halves with the three Dragons shuffled into the bottom half. The
first player is random in Age I; later, the least Glory, ties going to the tied
player closest clockwise starting from the player who drew the third Dragon.

End of an Age: Allies Scatter (hands discarded), then, when the Orcs are in
play and this is not the last Age, every player with a marker on an Orc Horde
board decides whether to score it (any order); then ``scoring.score_age``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aggregates.ethnos.commands import ScoreOrcHorde
from aggregates.ethnos.data import TABLES
from aggregates.ethnos.state import State
from aggregates.kernel import Command
from aggregates.kernel import flow as kflow

Shuffle = Callable[[list[Any]], list[Any]]


def deal_order(shuffle: Shuffle, tribes: list[str], players: int) -> list[int]:
    """The Allies Deck of a new Age, top first.

    The first ``players`` cards go one to each player, the next ``2 * players``
    form the face-up row; the rest is split into two halves and the Dragons are
    shuffled into the bottom one.
    """
    cards = shuffle(TABLES.allies(tribes))
    dealt = 3 * players
    rest = cards[dealt:]
    half = len(rest) // 2
    bottom = shuffle(rest[half:] + TABLES.dragons())
    return cards[:dealt] + rest[:half] + bottom


def deal_seats(first: int, players: int) -> list[int]:
    """Dealing order: from the first player clockwise."""
    return kflow.order_from(first, players)


def first_player(glory: list[int], third_dragon_seat: int) -> int:
    """Least Glory; ties to the tied player closest clockwise from the third Dragon's drawer."""
    least = min(glory)
    return next(seat for seat in kflow.order_from(third_dragon_seat, len(glory))
                if glory[seat] == least)


def begin_age(game: State) -> None:
    """Beginning a New Age: the deck (Dragons in the bottom half), one card each, the row.

    The First Age's first player was chosen at random in the setup; later
    Ages start with the least Glory (``first_player``).
    """
    age = game.age + 1
    first = game.first_player if age == 1 else None
    players = len(game.seats)
    if first is None:
        assert game.third_dragon_seat is not None
        first = first_player(game.glory, game.third_dragon_seat)
    deck = deal_order(game.shuffled, game.tribes, players)
    game.emit("AgeBegan", age=age, first_player=first, deck=deck)
    for seat in deal_seats(first, players):
        game.emit("CardDealt", seat=seat, card=game.deck[0])
    game.emit("RowTurned", cards=game.deck[: 2 * players])


def end_age(game: State, seat: int) -> None:
    """The third Dragon was drawn by ``seat``: the Age ends at once (its
    scoring follows once every Orc Horde choice is made: ``age_over``)."""
    last = game.age == game.ages
    orc_seats = [] if last else [s for s, board in enumerate(game.orc_boards) if board]
    game.emit("AgeEnded", age=game.age, seat=seat, scattered=[list(h) for h in game.hands],
              orc_seats=orc_seats)


def age_over(game: State) -> bool:
    """An Age is over when its third Dragon is revealed and, before the last
    Age, each player with an Orc Horde has chosen to score it or keep it."""
    return len(game.dragons) >= 3 and not game.orc_pending


def after_age(game: State) -> str | None:
    """A New Age after the first two; after the third the game is over."""
    return "age" if game.age < game.ages else None


def orc_horde(game: State, seat: int, command: ScoreOrcHorde) -> None:
    game.emit("OrcHordeChosen", seat=seat, score=command.score)


def legal_orc_horde(game: State, seat: int) -> list[Command]:
    """Score the Orc Horde board or keep it (each seat with a marker on it, any order)."""
    if seat not in game.orc_pending:
        return []
    return [ScoreOrcHorde(score=True), ScoreOrcHorde(score=False)]
