"""Recruiting Allies and drawing from the Allies Deck (with its Dragons).

Recruit: take a face-up card (not replaced) or the top card of the deck; not
allowed with 10 cards in hand. A Dragon drawn from the deck is revealed and
another card is drawn; the third Dragon ends the Age at once (``ages.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aggregates.ethnos import ages
from aggregates.ethnos import rules as r
from aggregates.ethnos.commands import RecruitFaceUp, RecruitFromDeck
from aggregates.ethnos.data import CARDS, TABLES
from aggregates.kernel import Command, Reason

if TYPE_CHECKING:
    from aggregates.ethnos.game import Ethnos


def can_recruit(hand: list[int]) -> bool:
    """Below the hand limit; or (ruling) a hand of only Skeletons, which can play no band."""
    return len(hand) < TABLES.hand_limit or all(CARDS[c].skeleton for c in hand)


def _check_recruit(game: Ethnos, seat: int) -> None:
    r.require_stage(game.stage, (r.TURN,), "Recruiting")
    if not can_recruit(game.hands[seat]):
        r.refuse(Reason.ILLEGAL_MOVE, f"with {TABLES.hand_limit} cards in hand you must "
                 "Play a Band instead")


def check_face_up(game: Ethnos, seat: int, command: RecruitFaceUp) -> None:
    _check_recruit(game, seat)
    if command.card not in game.row:
        r.refuse(Reason.ILLEGAL_MOVE, f"card {command.card} is not face up")


def face_up(game: Ethnos, seat: int, command: RecruitFaceUp) -> None:
    game._recruited_face_up(seat=seat, card=command.card)
    end_turn(game)


def check_from_deck(game: Ethnos, seat: int, command: RecruitFromDeck) -> None:
    _check_recruit(game, seat)


def from_deck(game: Ethnos, seat: int, command: RecruitFromDeck) -> None:
    if draw_card(game, seat):
        end_turn(game)


def draw_card(game: Ethnos, seat: int) -> bool:
    """Draw one Ally for ``seat``: Dragons are revealed and replaced.

    Returns False when the third Dragon ended the Age (nothing more happens).
    """
    while True:
        top = game.deck[0]
        if CARDS[top].dragon:
            game._dragon_revealed(seat=seat, card=top)
            if len(game.dragons) >= 3:
                ages.end_age(game, seat)
                return False
            continue
        game._drew_from_deck(seat=seat, card=top)
        return True


def end_turn(game: Ethnos) -> None:
    game._turn_ended(seat=game.current, next_seat=(game.current + 1) % len(game.seats))


def legal_recruits(game: Ethnos) -> list[Command]:
    if not can_recruit(game.hands[game.current]):
        return []
    out: list[Command] = [RecruitFaceUp(card=c) for c in game.row]
    out.append(RecruitFromDeck())
    return out
