"""The verbs of the Leaders' abilities while a band is played (X = the band's size).

Which ability fires, and when, is data (``abilities.py``, ``data/abilities.json``);
this module keeps what each ``change`` does. Automatic changes happen with the
band (Giants, Merfolk advance, Orcs); the choices abilities give are follow-up
decisions of the same seat, queued as ``game.steps`` when the band is played
(Wingfolk kingdom, Merfolk free markers, Troll token, Centaurs' further band,
Elves' cards to keep). When the queue is empty the band ends: the rest of the
hand is discarded face up (except what Elves keep), Wizards may draw X cards,
and the turn passes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import combinations
from typing import Any

from aggregates.ethnos import abilities, recruit, scoring
from aggregates.ethnos import state as r
from aggregates.ethnos.commands import (
    ChooseKingdom,
    EndBand,
    KeepCards,
    TakeTrollToken,
    WizardsDraw,
)
from aggregates.ethnos.data import CARDS, TABLES
from aggregates.ethnos.kingdoms import can_place
from aggregates.ethnos.reasons import EthnosReason
from aggregates.ethnos.state import State
from aggregates.kernel import Command, Reason, RuleError
from aggregates.kernel.abilities import Ability, Step, Verb, interpret

# ------------------------------------------------------------------ the verbs
#
# Each triggered ability's verb (``data/abilities.json``) is one here.
# ``PLANS`` say which follow-up decisions a verb will ask of the seat (queued
# in ``BandPlayed.steps`` before the band is recorded); ``VERBS`` make the
# automatic changes once the band's marker is placed (the kernel's
# ``interpret``, with the band's facts and the seat as the context).

Facts = Mapping[str, Any]
Plan = Callable[[State, int, Facts], list[str]]


def _plan_anywhere(game: State, seat: int, facts: Facts) -> list[str]:
    """Wingfolk: the Kingdom of the marker is chosen (if the band fits one)."""
    return [r.WINGFOLK] if wingfolk_kingdoms(game, seat, facts["size"]) else []


def _plan_merfolk(game: State, seat: int, facts: Facts) -> list[str]:
    """Merfolk: one free marker per marker space reached or passed."""
    return [r.MERFOLK] * len(merfolk_spaces(game.merfolk[seat], facts["size"]))


def _plan_troll(game: State, seat: int, facts: Facts) -> list[str]:
    return [r.TROLL] if any(v <= facts["size"] for v in game.trolls_free) else []


def _plan_centaur(game: State, seat: int, facts: Facts) -> list[str]:
    """Centaurs: another band, if the rest of the hand has a card that can lead one."""
    rest = facts["rest"]
    return [r.CENTAUR] if any(not abilities.card_has(c, "cannot_lead") for c in rest) else []


def _plan_elves(game: State, seat: int, facts: Facts) -> list[str]:
    return [r.ELVES] if facts["rest"] else []


PLANS: dict[str, Plan] = {
    "place_marker_anywhere": _plan_anywhere,
    "advance_merfolk": _plan_merfolk,
    "take_troll_token": _plan_troll,
    "play_another_band": _plan_centaur,
    "keep_cards": _plan_elves,
}


def _take_giant_token(game: State, facts: Facts, step: Step, who: list[str]) -> None:
    seat = facts["seat"]
    if larger_than_others(game, seat, facts["size"], facts["leader_tribe"]):
        game.emit("GiantTokenTaken", seat=seat, glory=TABLES.giant_immediate,
                  totals=scoring.one(game, seat, TABLES.giant_immediate))


def _advance_merfolk(game: State, facts: Facts, step: Step, who: list[str]) -> None:
    seat = facts["seat"]
    position = min(game.merfolk[seat] + facts["size"], TABLES.merfolk_max)
    if position != game.merfolk[seat]:
        game.emit("MerfolkAdvanced", seat=seat, position=position)


def _place_orc_marker(game: State, facts: Facts, step: Step, who: list[str]) -> None:
    seat = facts["seat"]
    colour = facts["leader_colour"]
    if colour and colour not in game.orc_boards[seat]:
        game.emit("OrcMarkerPlaced", seat=seat, colour=colour)


def _offer_draw(game: State, facts: Facts, step: Step, who: list[str]) -> None:
    """Wizards: "you may use the ability": the seat answers ``wizards_draw`` (the
    discard left the answer waiting; rules 1.0.0 also recorded the offer)."""
    if r.PROGRESS_RECORDED in game.earlier:
        game.emit("WizardsOffered", seat=facts["seat"], x=facts["size"])


def _asked(game: State, facts: Facts, step: Step, who: list[str]) -> None:
    """A choice planned as a follow-up decision: nothing happens by itself."""


VERBS: dict[str, Verb] = {
    "take_giant_token": _take_giant_token,
    "advance_merfolk": _advance_merfolk,
    "place_orc_marker": _place_orc_marker,
    "draw_cards": _offer_draw,
    "place_marker_anywhere": _asked,
    "take_troll_token": _asked,
    "play_another_band": _asked,
    "keep_cards": _asked,
}

_unverbed = set(abilities.CHANGES) - set(VERBS)
assert not _unverbed, f"abilities without a verb: {_unverbed}"


def plan_steps(
    game: State, seat: int, leader: int, size: int, placed: bool, rest: list[int]
) -> list[str]:
    """The decisions the Leader's ability will ask for, in order."""
    facts = {**abilities.band_facts(leader, size, placed), "rest": rest}
    steps: list[str] = []
    for ability in abilities.triggered("BandPlayed", facts):
        for step in ability.steps:
            plan = PLANS.get(step.verb)
            if plan is not None:
                steps.extend(plan(game, seat, facts))
    return steps


def wingfolk_kingdoms(game: State, seat: int, size: int) -> list[str]:
    return [k for k in TABLES.kingdom_keys if can_place(game, seat, k, size)]


def merfolk_spaces(position: int, size: int) -> list[int]:
    """The marker spaces reached or passed when advancing ``size`` from ``position``."""
    new = min(position + size, TABLES.merfolk_max)
    return [s for s in TABLES.merfolk_spaces if position < s <= new]


def larger_than_others(game: State, seat: int, size: int, tribe: str) -> bool:
    """Larger than every other band led by ``tribe`` in play this Age (the new one
    excluded): the Giants' test."""
    this = game.bands[seat][-1]
    others = [
        b["size"] for bands in game.bands for b in bands
        if b is not this and CARDS[b["leader"]].tribe == tribe
    ]
    return all(size > o for o in others)


def giant_takes_token(game: State, seat: int, size: int) -> bool:
    return larger_than_others(game, seat, size, "giants")


def immediate_ability(game: State, seat: int, leader: int, size: int, placed: bool) -> None:
    """The automatic changes of the Leader's ability, once its marker is placed."""
    facts = abilities.band_facts(leader, size, placed)
    for ability in abilities.triggered("BandPlayed", facts):
        _resolve(game, seat, ability, facts)


def _resolve(game: State, seat: int, ability: Ability, facts: Facts) -> None:
    """Carry out an ability with the band's facts and the seat as its context."""
    interpret(ability, VERBS, game, {**facts, "seat": seat})


def continue_band(game: State) -> None:
    """Finish the band once no follow-up decision is left."""
    if not game.steps:
        finish_band(game, kept=[])


def finish_band(game: State, kept: list[int]) -> None:
    """Discard the rest of the hand face up; Wizards may then draw X; the turn passes."""
    assert game.band is not None
    seat, leader, size = game.band["seat"], game.band["leader"], game.band["size"]
    discard = [c for c in game.hands[seat] if c not in kept]
    game.emit("HandDiscarded", seat=seat, cards=discard)
    facts = abilities.band_facts(leader, size)
    for ability in abilities.triggered("HandDiscarded", facts):
        _resolve(game, seat, ability, facts)
    if not game.steps:
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
        raise RuleError(EthnosReason.NOT_HELD, "not in your hand: card "
                        + ", ".join(str(c) for c in missing))
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
