"""Recruiting Allies and drawing from the Allies Deck (with its Dragons).

Recruit: take a face-up card (not replaced) or the top card of the deck; not
allowed with 10 cards in hand. A Dragon drawn from the deck is revealed and
another card is drawn; the third Dragon ends the Age at once (``ages.py``).
"""

from __future__ import annotations

from aggregates.ethnos import abilities, ages
from aggregates.ethnos.commands import RecruitFaceUp, RecruitFromDeck
from aggregates.ethnos.data import CARDS, TABLES
from aggregates.ethnos.state import State
from aggregates.kernel import Command, Reason, RuleError
from aggregates.kernel import flow as kflow


def can_recruit(hand: list[int]) -> bool:
    """Below the hand limit; or (ruling) a hand of only Skeletons, which can play no band
    (no card of it can lead)."""
    return len(hand) < TABLES.hand_limit or all(
        abilities.card_has(c, "cannot_lead") for c in hand)


def _check_recruit(game: State, seat: int) -> None:
    if not can_recruit(game.hands[seat]):
        raise RuleError(Reason.ILLEGAL_MOVE, f"with {TABLES.hand_limit} cards in hand you "
                        "must Play a Band instead")


def check_face_up(game: State, seat: int, command: RecruitFaceUp) -> None:
    _check_recruit(game, seat)
    if command.card not in game.row:
        raise RuleError(Reason.ILLEGAL_MOVE, f"card {command.card} is not face up")


def face_up(game: State, seat: int, command: RecruitFaceUp) -> None:
    game.emit("RecruitedFaceUp", seat=seat, card=command.card)
    end_turn(game)


def check_from_deck(game: State, seat: int, command: RecruitFromDeck) -> None:
    _check_recruit(game, seat)


def from_deck(game: State, seat: int, command: RecruitFromDeck) -> None:
    if draw_card(game, seat):
        end_turn(game)


def draw_card(game: State, seat: int) -> bool:
    """Draw one Ally for ``seat``: Dragons are revealed and replaced.

    Returns False when the third Dragon ended the Age (nothing more happens).
    """
    while True:
        top = game.deck[0]
        if CARDS[top].dragon:
            game.emit("DragonRevealed", seat=seat, card=top)
            if len(game.dragons) >= 3:
                ages.end_age(game, seat)
                return False
            continue
        game.emit("DrewFromDeck", seat=seat, card=top)
        return True


def end_turn(game: State) -> None:
    """The turn passes clockwise."""
    game.emit("TurnEnded", seat=game.current,
              next_seat=kflow.next_seat(game.current, len(game.seats)))


def legal_recruits(game: State, seat: int) -> list[Command]:
    if not can_recruit(game.hands[seat]):
        return []
    out: list[Command] = [RecruitFaceUp(card=c) for c in game.row]
    out.append(RecruitFromDeck())
    return out
