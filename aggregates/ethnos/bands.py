"""Playing a Band of Allies: which bands are legal, the Leader, the Control marker.

A band is 1..10 cards of one tribe or one colour; Skeletons are wild (they join
any tribe or colour band) and cannot lead. The Control marker goes to the
Kingdom of the Leader's colour when the player's markers there are fewer than
the band's size (2 players: fewer than the band's size in total, all players'
markers counted). Minotaurs count X+1 for this test; Halflings place none;
Wingfolk may choose any Kingdom (``tribes.py``).
"""

from __future__ import annotations

from itertools import combinations

from aggregates.ethnos import abilities, tribes
from aggregates.ethnos.abilities import WILD
from aggregates.ethnos.commands import EndBand, PlayBand
from aggregates.ethnos.data import CARDS, TABLES
from aggregates.ethnos.kingdoms import marker_kingdom
from aggregates.ethnos.reasons import EthnosReason
from aggregates.ethnos.state import State
from aggregates.kernel import Command, Reason, RuleError


def is_band(cards: list[int] | tuple[int, ...]) -> bool:
    """Same tribe or same colour, Skeletons wild; at least one non-Skeleton."""
    core = [CARDS[c] for c in cards if CARDS[c].tribe not in WILD]
    if not core or any(c.dragon for c in core):
        return False
    return len({c.tribe for c in core}) == 1 or len({c.colour for c in core}) == 1


def check_play_band(game: State, seat: int, command: PlayBand) -> None:
    cards = command.cards
    if not cards:
        raise RuleError(Reason.BAD_ARGUMENT, "a band has at least one card")
    if len(set(cards)) != len(cards):
        raise RuleError(Reason.BAD_ARGUMENT, "a card appears twice in the band")
    if len(cards) > TABLES.band_max:
        raise RuleError(Reason.ILLEGAL_MOVE, f"a band has at most {TABLES.band_max} cards")
    hand = game.hands[seat]
    missing = [c for c in cards if c not in hand]
    if missing:
        raise RuleError(EthnosReason.NOT_HELD, "not in your hand: card "
                        + ", ".join(str(c) for c in missing))
    if command.leader not in cards:
        raise RuleError(Reason.BAD_ARGUMENT, "the Leader must be one of the band's cards")
    if abilities.card_has(command.leader, "cannot_lead"):
        raise RuleError(Reason.ILLEGAL_MOVE, "a Skeleton cannot be the Leader of a band")
    if not is_band(cards):
        raise RuleError(Reason.ILLEGAL_MOVE, "a band's cards must share a tribe or a "
                        "colour (Skeletons are wild)")


def play_band(game: State, seat: int, command: PlayBand) -> None:
    """Lay down the band, place the marker, use the Leader's ability (then discard)."""
    cards = sorted(command.cards)
    leader = command.leader
    size = len(cards)
    kingdom = marker_kingdom(game, seat, leader, size)
    rest = [c for c in game.hands[seat] if c not in cards]
    steps = tribes.plan_steps(game, seat, leader, size, kingdom is not None, rest)
    game.emit("BandPlayed", seat=seat, cards=cards, leader=leader, size=size, steps=steps)
    if kingdom is not None:
        game.emit("MarkerPlaced", seat=seat, kingdom=kingdom, source="band")
    tribes.immediate_ability(game, seat, leader, size, kingdom is not None)
    tribes.continue_band(game)


def can_play_band(hand: list[int]) -> bool:
    """Whether the hand holds any band: a card that can lead is a band of one."""
    return any(not abilities.card_has(c, "cannot_lead") and not CARDS[c].dragon for c in hand)


def legal_bands(hand: list[int]) -> list[PlayBand]:
    """Every legal band of a hand: each card set once, each non-Skeleton Leader in it.

    Groups the hand by tribe and by colour, adds any subset of the Skeletons, and
    removes the sets reached twice (a same-tribe set that is also same-colour).
    """
    skeletons = sorted(c for c in hand if CARDS[c].tribe in WILD)
    groups: dict[str, list[int]] = {}
    for c in sorted(hand):
        card = CARDS[c]
        if card.tribe in WILD or card.dragon:
            continue
        groups.setdefault("t:" + card.tribe, []).append(c)
        groups.setdefault("c:" + str(card.colour), []).append(c)
    extras = [combo for k in range(len(skeletons) + 1) for combo in combinations(skeletons, k)]
    found: set[tuple[tuple[int, ...], int]] = set()
    for group in groups.values():
        for k in range(1, len(group) + 1):
            for core in combinations(group, k):
                for extra in extras:
                    if k + len(extra) > TABLES.band_max:
                        continue
                    cards = tuple(sorted(core + extra))
                    for leader in core:
                        found.add((cards, leader))
    return [PlayBand(cards=cards, leader=leader) for cards, leader in sorted(found)]


def legal_play_band(game: State, seat: int) -> list[Command]:
    """Every band of the seat's hand (its turn, or a Centaurs' further band)."""
    return list(legal_bands(game.hands[seat]))


def legal_end_band(game: State, seat: int) -> list[Command]:
    """Centaurs: stop, playing no further band."""
    return [EndBand()]
