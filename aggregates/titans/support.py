"""C) Draw 1 Support Card (rulebook): one of the 4 face up, or the top of the Deck
(not shown to the others); the face-up row is replenished to 4 at once."""

from __future__ import annotations

from aggregates.kernel import Command, RuleError
from aggregates.titans import cards
from aggregates.titans.commands import NONE, DrawSupport
from aggregates.titans.reasons import TitansReason
from aggregates.titans.state import State


def can_draw(game: State) -> bool:
    return bool(game.support_row) or cards.available(game) > 0


def check_draw_support(game: State, seat: int, command: DrawSupport) -> None:
    if command.card == NONE:
        if cards.available(game) == 0:
            raise RuleError(TitansReason.SUPPLY_EXHAUSTED, "the Support Deck is empty")
        return
    if command.card not in game.support_row:
        raise RuleError(TitansReason.NOT_HELD,
                        f"Support Card {command.card} is not face up {game.support_row}")


def run_draw_support(game: State, seat: int, command: DrawSupport) -> None:
    if command.card == NONE:
        cards.draw(game, seat, 1, why="turn")
    else:
        cards.take_from_row(game, seat, command.card, why="turn")


def legal_draw_support(game: State, seat: int) -> list[Command]:
    out: list[Command] = [DrawSupport(card=c) for c in sorted(game.support_row)]
    if cards.available(game):
        out.append(DrawSupport(card=NONE))
    return out
