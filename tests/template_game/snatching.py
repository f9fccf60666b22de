"""3. Snatching: when a card is claimed, the opposing team may snatch it, in
precedence order round the table from the claimer: the first who discards a
card of its suit takes it; the others are not asked. Every opposing position
holding cards is asked, so the table never learns who holds the suit.
Anchored cards cannot be snatched.

Kernel features shown: a reaction window with precedence
(``flow.reaction_window``/``responder``/``after_response``/``closed``, with a
serial so an answer meant for one window never answers the next, and a
game-given decision id); a static keyword read with ``Book.has_keyword``.
"""

from __future__ import annotations

from typing import Any

from aggregates.kernel import Command, RuleError
from aggregates.kernel import flow as kflow
from tests.template_game.commands import LetGo, Snatch
from tests.template_game.components import COMPONENTS as C
from tests.template_game.reasons import TideReason
from tests.template_game.table import hand, team_of_position


def open_window(state: Any, claimer: int, card_id: int) -> None:
    """Decide who is asked about the claim, in precedence order; none: no window.

    Every opposing position holding cards is asked, whether or not it holds the
    suit (one that does not can only let go): asking only those who can snatch
    would tell the whole table, by the window's order, by who is asked and even
    by whether a window opens, which suits the hidden hands hold.
    """
    card = C.card(card_id)
    if C.book.has_keyword("anchored", card.effects):
        return
    eligible = [
        p for p in kflow.order_from((claimer + 1) % 4, 4)
        if team_of_position(p) != team_of_position(claimer) and state.zones[hand(p)]
    ]
    if eligible:
        state.emit("WindowOpened", card=card_id, claimer=claimer, order=eligible)


def check_snatch(state: Any, position: int, command: Snatch) -> None:
    suit = C.card(state.window["card"]).suit
    if command.card not in state.zones[hand(position)]:
        raise RuleError(TideReason.NOT_IN_HAND, f"card {command.card} is not in your hand")
    if C.card(command.card).suit != suit:
        raise RuleError(TideReason.WRONG_SUIT, f"discard a {suit} card to snatch")


def run_snatch(state: Any, position: int, command: Snatch) -> None:
    state.emit("Snatched", position=position, card=state.window["card"],
               discard=command.card, victim=state.window["claimer"])


def legal_snatches(state: Any, position: int) -> list[Command]:
    suit = C.card(state.window["card"]).suit
    held = sorted(state.zones[hand(position)])
    return [Snatch(c) for c in held if C.card(c).suit == suit]


def check_let_go(state: Any, position: int, command: LetGo) -> None:
    """Declining is always allowed when asked."""


def run_let_go(state: Any, position: int, command: LetGo) -> None:
    state.emit("LetGo", position=position)


def legal_let_go(state: Any, position: int) -> list[Command]:
    return [LetGo()]
