"""The Leaders' abilities while a band is played (X = the band's size).

Automatic abilities happen with the band (Giants, Merfolk advance, Orcs);
the choices the abilities give are follow-up decisions of the same seat, queued
as ``game.steps`` when the band is played (Wingfolk kingdom, Merfolk free
markers, Troll token, Centaurs' further band, Elves' cards to keep). When the
queue is empty the band ends: the rest of the hand is discarded face up
(except what Elves keep), Wizards draw X cards, and the turn passes.
"""

from __future__ import annotations

from itertools import combinations

from aggregates.ethnos import recruit
from aggregates.ethnos import rules as r
from aggregates.ethnos.commands import (
    ChooseKingdom,
    EndBand,
    KeepCards,
    TakeTrollToken,
    WizardsDraw,
)
from aggregates.ethnos.data import CARDS, TABLES
from aggregates.ethnos.kingdoms import can_place
from aggregates.ethnos.rules import EthnosReason
from aggregates.ethnos.state import State
from aggregates.kernel import Command, Reason, RuleError


def plan_steps(
    game: State, seat: int, leader: int, size: int, placed: bool, rest: list[int]
) -> list[str]:
    """The decisions the Leader's ability will ask for, in order."""
    tribe = CARDS[leader].tribe
    if tribe == "wingfolk":
        return [r.WINGFOLK] if wingfolk_kingdoms(game, seat, size) else []
    if tribe == "merfolk":
        return [r.MERFOLK] * len(merfolk_spaces(game.merfolk[seat], size))
    if tribe == "trolls":
        return [r.TROLL] if any(v <= size for v in game.trolls_free) else []
    if tribe == "centaurs":
        return [r.CENTAUR] if placed and any(not CARDS[c].skeleton for c in rest) else []
    if tribe == "elves":
        return [r.ELVES] if rest else []
    return []


def wingfolk_kingdoms(game: State, seat: int, size: int) -> list[str]:
    return [k for k in TABLES.kingdom_keys if can_place(game, seat, k, size)]


def merfolk_spaces(position: int, size: int) -> list[int]:
    """The marker spaces reached or passed when advancing ``size`` from ``position``."""
    new = min(position + size, TABLES.merfolk_max)
    return [s for s in TABLES.merfolk_spaces if position < s <= new]


def giant_takes_token(game: State, seat: int, size: int) -> bool:
    """Larger than every other Giant-led band in play this Age (the new one excluded)."""
    this = game.bands[seat][-1]
    others = [
        b["size"] for bands in game.bands for b in bands
        if b is not this and CARDS[b["leader"]].tribe == "giants"
    ]
    return all(size > o for o in others)


def immediate_ability(game: State, seat: int, leader: int, size: int) -> None:
    card = CARDS[leader]
    if card.tribe == "giants" and giant_takes_token(game, seat, size):
        game.emit("GiantTokenTaken", seat=seat, glory=TABLES.giant_immediate)
    elif card.tribe == "merfolk":
        position = min(game.merfolk[seat] + size, TABLES.merfolk_max)
        if position != game.merfolk[seat]:
            game.emit("MerfolkAdvanced", seat=seat, position=position)
    elif card.tribe == "orcs" and card.colour and card.colour not in game.orc_boards[seat]:
        game.emit("OrcMarkerPlaced", seat=seat, colour=card.colour)


def continue_band(game: State) -> None:
    """Finish the band once no follow-up decision is left."""
    if not game.steps:
        finish_band(game, kept=[])


def finish_band(game: State, kept: list[int]) -> None:
    """Discard the rest of the hand face up; Wizards then draw X; the turn passes."""
    assert game.band is not None
    seat, leader, size = game.band["seat"], game.band["leader"], game.band["size"]
    discard = [c for c in game.hands[seat] if c not in kept]
    game.emit("HandDiscarded", seat=seat, cards=discard)
    if CARDS[leader].tribe == "wizards":
        game.emit("WizardsOffered", seat=seat, x=size)  # "you may use the ability"
        return
    recruit.end_turn(game)


def wizards_draw(game: State, seat: int, command: WizardsDraw) -> None:
    """Draw X cards (Dragons revealed and replaced; the third ends the Age), or none."""
    x = game.wizards_x
    game.emit("WizardsAnswered", seat=seat, draw=command.draw)
    if command.draw:
        for _ in range(x):
            if not recruit.draw_card(game, seat):
                return  # the third Dragon ended the Age
    recruit.end_turn(game)


def legal_wizards(game: State, seat: int) -> list[Command]:
    return [WizardsDraw(draw=True), WizardsDraw(draw=False)]


# --------------------------------------------------------- follow-up decisions


def check_choose_kingdom(game: State, seat: int, command: ChooseKingdom) -> None:
    if command.kingdom not in TABLES.kingdom_keys:
        raise RuleError(Reason.BAD_ARGUMENT, f"no Kingdom {command.kingdom!r}")
    assert game.band is not None
    if game.stage == r.WINGFOLK and not can_place(game, seat, command.kingdom,
                                                  game.band["size"]):
        raise RuleError(Reason.ILLEGAL_MOVE, "the band is not large enough for a marker "
                        f"in {command.kingdom}")


def choose_kingdom(game: State, seat: int, command: ChooseKingdom) -> None:
    game.emit("MarkerPlaced", seat=seat, kingdom=command.kingdom, source=game.stage)
    continue_band(game)


def legal_choose_kingdom(game: State, seat: int) -> list[Command]:
    assert game.band is not None
    if game.stage == r.WINGFOLK:
        keys = wingfolk_kingdoms(game, seat, game.band["size"])
    else:
        keys = list(TABLES.kingdom_keys)
    return [ChooseKingdom(kingdom=k) for k in keys]


def check_take_troll_token(game: State, seat: int, command: TakeTrollToken) -> None:
    assert game.band is not None
    if command.value not in game.trolls_free:
        raise RuleError(Reason.ILLEGAL_MOVE,
                        f"no unclaimed Troll token of value {command.value}")
    if command.value > game.band["size"]:
        raise RuleError(Reason.ILLEGAL_MOVE,
                        f"the token's value must be at most X={game.band['size']}")


def take_troll_token(game: State, seat: int, command: TakeTrollToken) -> None:
    game.emit("TrollTokenTaken", seat=seat, value=command.value)
    continue_band(game)


def legal_troll(game: State, seat: int) -> list[Command]:
    assert game.band is not None
    return [TakeTrollToken(value=v) for v in sorted(game.trolls_free) if v <= game.band["size"]]


def check_keep_cards(game: State, seat: int, command: KeepCards) -> None:
    assert game.band is not None
    if len(set(command.cards)) != len(command.cards):
        raise RuleError(Reason.BAD_ARGUMENT, "a card is named twice")
    missing = [c for c in command.cards if c not in game.hands[seat]]
    if missing:
        raise RuleError(EthnosReason.NOT_HELD, f"card(s) {missing} are not in your hand")
    if len(command.cards) > game.band["size"]:
        raise RuleError(Reason.ILLEGAL_MOVE,
                        f"Elves keep at most X={game.band['size']} cards")


def keep_cards(game: State, seat: int, command: KeepCards) -> None:
    finish_band(game, kept=list(command.cards))


def legal_elves(game: State, seat: int) -> list[Command]:
    assert game.band is not None
    hand = sorted(game.hands[seat])
    most = min(game.band["size"], len(hand))
    return [KeepCards(cards=combo) for k in range(most + 1) for combo in combinations(hand, k)]


def end_band(game: State, seat: int, command: EndBand) -> None:
    finish_band(game, kept=[])
