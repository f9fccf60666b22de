"""Each ability of the Abilities Summary, and each defended-location ability,
in its own test, on a 2-player table (positions 0 and 1 are Enemies) arranged
card by card."""

from __future__ import annotations

from typing import Any

import pytest

from aggregates.ettin import Ettin, aftermath, apply, war
from aggregates.ettin import cards as cd
from aggregates.ettin import zones as zn
from aggregates.ettin.commands import Deploy, Produce, Target
from aggregates.ettin.data import COMPONENTS as C
from aggregates.ettin.testing import card
from aggregates.kernel import RuleError, event_type, payload_of, recorded_audience


def with_ability(keyword: str, troop: bool | None = True, exclude: tuple[str, ...] = ()
                 ) -> list[int]:
    """Unit cards with ``keyword`` (and of the kind asked), with no other ability."""
    return [u.id for u in C.units.values()
            if cd.has_keyword([u.id], keyword) and len(u.abilities) == 1
            and (troop is None or u.troop == troop) and not u.dragon
            and not any(cd.has_keyword([u.id], x) for x in exclude)]


def plain(troop: bool = True, strength: int | None = None) -> list[int]:
    return [u.id for u in C.units.values() if not u.abilities and u.troop == troop
            and not u.dragon and (strength is None or u.strength == strength)]


def table(nations: tuple[str, str] = ("giants", "dwarves")) -> Ettin:
    g = Ettin.start(["a", "b"], seed="a" * 64, options={"nations": list(nations)})
    g.age = 1
    return g


def place(g: Ettin, layout: dict[tuple[int, int], list[int]]) -> None:
    for zone in list(g.zones):
        if zone.startswith(("field:", "loc:")):
            g.zones[zone] = []
    for (p, slot), cards in layout.items():
        for c in cards:
            for zone_cards in g.zones.values():
                if c in zone_cards:
                    zone_cards.remove(c)
        zone = zn.field(p, slot) if slot >= 0 else zn.loc(p, -slot - 1)
        g.zones[zone].extend(cards)


def fight(g: Ettin, slot: int) -> None:
    """Start the battle at ``slot`` (the later ones are empty) through the flow."""
    g.phase = "battle"
    g.flipped = True
    g.results = [[]]
    g.work = {"pairs": [{"b": zn.BATTLE_ORDER.index(slot), "queue": None, "chosen": [],
                         "lose": -1}]}
    war.step_battles(g)


def result(g: Ettin, slot: int) -> dict[str, Any]:
    return next(x for x in g.results[0] if x["slot"] == slot)


# ------------------------------------------------------------------ deploy


def test_scouting_reveals_the_unit_and_an_enemy_location() -> None:
    g = table()
    scout = with_ability("scouting")[0]
    hidden = plain()[0]
    place(g, {(1, 2): [hidden]})
    g.zones[zn.camp(0)] = [scout]
    g.phase, g.work = "deploy", {"pairs": [{"turn": 0, "left": 1}]}
    g.act(0, Deploy(scout, 0, 3))
    assert set(g.shown) == {scout, hidden}
    g2 = table()
    g2.zones[zn.camp(0)] = [plain()[1]]
    g2.phase, g2.work = "deploy", {"pairs": [{"turn": 0, "left": 1}]}
    with pytest.raises(RuleError, match="NO_SCOUTING"):
        g2.act(0, Deploy(plain()[1], 0, 3))


# ------------------------------------------------------------------ battle


def test_terrify_sends_an_enemy_unit_to_the_enemys_retired_pile() -> None:
    g = table()
    terrify = with_ability("terrify")[0]
    victim = plain(troop=False)[0]
    place(g, {(0, 2): [terrify], (1, 2): [victim]})
    fight(g, 2)
    assert g.due(0) == "target"
    with pytest.raises(RuleError, match="BAD_TARGET"):
        g.act(0, Target(terrify, terrify))
    g.act(0, Target(terrify, victim))
    assert victim in g.zones[zn.retired(1)]


def test_dragonslayer_takes_an_enemy_dragon_to_your_retired_pile() -> None:
    g = table()
    slayer = with_ability("dragonslayer")[0]
    dragon = next(u.id for u in C.units.values()
                  if u.dragon and not cd.has_keyword([u.id], "terrify"))
    place(g, {(0, 2): [slayer], (1, 2): [dragon]})
    fight(g, 2)
    g.act(0, Target(slayer, dragon))
    assert dragon in g.zones[zn.retired(0)]
    g2 = table()
    place(g2, {(0, 2): [slayer], (1, 2): [plain()[0]]})
    fight(g2, 2)
    assert g2.due(0) is None  # no dragon: nothing to target


def test_ranged_trades_itself_for_a_weaker_or_equal_troop() -> None:
    g = table()
    archer = with_ability("ranged")[0]
    strength = C.units[archer].strength
    weaker = plain(strength=strength)[0]
    stronger = next(c for c in plain() if C.units[c].strength > strength)
    place(g, {(0, 2): [archer], (1, 2): [weaker, stronger]})
    fight(g, 2)
    options = g.legal_actions(0)
    assert Target(archer, weaker) in options and Target(archer, stronger) not in options
    assert Target(archer, 0) in options  # Ranged is optional
    g.act(0, Target(archer, weaker))
    assert archer in g.zones[zn.retired(0)] and weaker in g.zones[zn.retired(0)]


def test_two_ranged_units_targeting_each_other_go_to_their_enemys_piles() -> None:
    g = table()
    a, b = with_ability("ranged")[:2]
    low = min(C.units[a].strength, C.units[b].strength)
    a, b = sorted((a, b), key=lambda c: C.units[c].strength)
    if C.units[b].strength > low:
        pytest.skip("needs two Ranged units of one strength")
    place(g, {(0, 2): [a], (1, 2): [b]})
    fight(g, 2)
    g.act(0, Target(a, b))
    g.act(1, Target(b, a))
    assert a in g.zones[zn.retired(1)] and b in g.zones[zn.retired(0)]


def test_swift_wins_ties_and_equal_icons_still_tie() -> None:
    g = table(("orcs", "risen"))
    swift = with_ability("swift")[0]
    s = C.units[swift].strength
    equal = plain(strength=s)[0]
    # Orcs' and Risen's farthest Location is Ruins (0) both: equal scores
    place(g, {(0, 2): [swift], (1, 2): [equal]})
    fight(g, 2)
    assert result(g, 2)["result"] == "win" and result(g, 2)["winner"] == 0
    g2 = table(("orcs", "risen"))
    other = next(c for c in with_ability("swift") if C.units[c].strength == s and c != swift)
    place(g2, {(0, 2): [swift], (1, 2): [other]})
    fight(g2, 2)
    assert result(g2, 2)["result"] == "tie"


def test_protected_location_cannot_be_attacked_without_its_weakness() -> None:
    arc, ogre = card("Arc Tower"), card("Ogre Bashers")
    g = table()  # Giants' City (3) + Arc Tower 3 = 6 against Dwarves' Town (2) + 5 = 7
    place(g, {(0, 0): [arc], (1, 0): [ogre]})
    fight(g, 0)
    assert result(g, 0)["result"] == "none" and result(g, 0)["why"] == "protected"
    mage = next(c for c in with_ability("magic") if C.units[c].strength >= 2)
    g2 = table()
    place(g2, {(0, 0): [arc], (1, 0): [ogre, mage]})
    fight(g2, 0)
    assert result(g2, 0)["result"] == "win" and result(g2, 0)["winner"] == 1


def test_no_troops_is_no_battle() -> None:
    g = table()
    place(g, {(0, 2): [plain(troop=False)[0]]})
    fight(g, 2)
    assert result(g, 2)["result"] == "none"


# ------------------------------------------------------------------ spoils


def won_at(g: Ettin, slot: int, winner: int, mine: list[int], theirs: list[int]) -> None:
    place(g, {(winner, slot): mine, (1 - winner, slot): theirs})


def test_troops_before_defenses() -> None:
    g = table()
    troop, wall = plain()[0], plain(troop=False)[0]
    won_at(g, 2, 0, [plain()[1]], [troop, wall])
    assert aftermath.spoil_options(g, 0, 2) == [troop]
    won_at(g, 2, 0, [plain()[1]], [wall])
    assert aftermath.spoil_options(g, 0, 2) == [wall]


def test_conquest_takes_defenses_while_troops_remain() -> None:
    g = table()
    troop, wall = plain()[0], plain(troop=False)[0]
    won_at(g, 2, 0, [with_ability("conquest")[0]], [troop, wall])
    assert aftermath.spoil_options(g, 0, 2) == sorted([troop, wall])


def test_stealth_cannot_be_taken_without_magic() -> None:
    g = table()
    sneak = with_ability("stealth")[0]
    won_at(g, 2, 0, [plain()[0]], [sneak])
    assert aftermath.spoil_options(g, 0, 2) == []


def test_magic_takes_stealth_units() -> None:
    g = table()
    sneak = with_ability("stealth")[0]
    won_at(g, 2, 0, [with_ability("magic")[0]], [sneak])
    assert aftermath.spoil_options(g, 0, 2) == [sneak]


def test_flying_needs_ranged_or_flying() -> None:
    g = table()
    flier = with_ability("flying")[0]
    won_at(g, 2, 0, [plain()[0]], [flier])
    assert aftermath.spoil_options(g, 0, 2) == []
    won_at(g, 2, 0, [with_ability("ranged")[0]], [flier])
    assert aftermath.spoil_options(g, 0, 2) == [flier]
    won_at(g, 2, 0, [with_ability("flying")[1]], [flier])
    assert aftermath.spoil_options(g, 0, 2) == [flier]


def test_vicious_takes_an_additional_spoil() -> None:
    g = table()
    g.age = 2
    won_at(g, 2, 0, [with_ability("vicious")[0]], [])
    assert aftermath.spoil_count(g, 0, 2, "win") == 3 and aftermath.spoil_count(g, 0, 2, "tie") == 2
    won_at(g, 2, 0, [plain()[0]], [])
    assert aftermath.spoil_count(g, 0, 2, "win") == 2


def spoils_for(g: Ettin, layout: dict[tuple[int, int], list[int]], winner: int,
               slot: int) -> None:
    place(g, layout)
    g.results = [[{"slot": slot, "result": "win", "winner": winner, "scores": [0, 0]}]]
    apply.enter(g, "spoils")  # as the last battle's fact enters them
    apply.enter_steps(g)
    g.FLOW.settle(g)


def test_bounty_pays_the_taker() -> None:
    g = table()
    hunted = with_ability("bounty")[0]
    amount = C.units[hunted].ability("bounty").amount  # type: ignore[union-attr]
    spoils_for(g, {(0, 2): [plain()[0]], (1, 2): [hunted]}, 0, 2)
    before = g.gold[0]
    from aggregates.ettin.commands import Spoil
    g.act(0, Spoil(hunted))
    assert g.gold[0] == before + amount and hunted in g.zones[zn.retired(0)]


def test_siege_blocks_a_defenses_produce() -> None:
    g = table()
    siege = with_ability("siege")[0]
    taxes = with_ability("taxes", troop=False)[0]
    spoils_for(g, {(0, 2): [siege], (1, 2): [], (1, -2): [taxes]}, 0, 2)
    from aggregates.ettin.commands import EndSpoils, Siege
    if g.due(0) == "spoil" and EndSpoils() in g.legal_actions(0):
        g.act(0, EndSpoils())
    assert Siege(taxes) in g.legal_actions(0)
    g.act(0, Siege(taxes))
    assert taxes in g.sieges
    gold = g.gold[1]
    aftermath.pay_produce(g)
    # only the defended Location's own ability pays; the sieged Taxes do not
    loc_ability = C.nation(g.nations[1]).locations[1].ability
    expected = loc_ability.amount if loc_ability.keyword == "taxes" else 0
    assert g.gold[1] - gold == expected


def test_top_of_the_nation_deck_when_the_enemy_has_no_units() -> None:
    g = table()
    place(g, {(0, 2): [plain()[0]]})
    assert aftermath.spoil_options(g, 0, 2) == [0]


# ------------------------------------------------------------------ retire


def retire_one(g: Ettin, card: int, slot: int = 2) -> None:
    place(g, {(0, slot): [card]})
    aftermath.retire(g)


def test_return_to_self() -> None:
    g = table()
    card = with_ability("return_to_self")[0]
    retire_one(g, card)
    assert card in g.zones[zn.camp(0)]


def test_return_to_ally() -> None:
    g = Ettin.start(["a", "b", "c", "d"], seed="a" * 64)
    g.age = 1
    card = with_ability("return_to_ally")[0]
    place(g, {(0, 2): [card]})
    aftermath.retire(g)
    assert card in g.zones[zn.camp(1)]
    g2 = table()  # 2 players: no Ally, you receive it
    retire_one(g2, card)
    assert card in g2.zones[zn.camp(0)]


def test_wealthy() -> None:
    g = table()
    card = with_ability("wealthy")[0]
    before = g.gold[0]
    retire_one(g, card)
    assert g.gold[0] == before + C.units[card].ability("wealthy").amount  # type: ignore
    assert card in g.zones[zn.retired(0)]


def test_war_cry() -> None:
    g = table()
    card = with_ability("war_cry")[0]
    top = g.zones[zn.deck(0)][0]
    retire_one(g, card)
    assert top in g.zones[zn.camp(0)]


def test_defenses_stay_and_at_the_adventure_retire() -> None:
    g = table()
    wall, other = plain(troop=False)[:2]
    place(g, {(0, 1): [wall], (0, 3): [other]})
    aftermath.retire(g)
    assert wall in g.zones[zn.loc(0, 1)] and other in g.zones[zn.retired(0)]


# ------------------------------------------------------------------ produce


def produce(g: Ettin, defenses: dict[int, list[int]]) -> None:
    place(g, {(0, -s - 1): cards for s, cards in defenses.items()})
    enter_produce(g)


def enter_produce(g: Ettin) -> None:
    """The Produce as the Retire's last fact enters it; its automatic steps
    (the paying abilities pay, those that cannot be used are passed over)."""
    apply.enter(g, "produce")
    while aftermath.step_produce(g):
        pass


def test_gate_to_self() -> None:
    g = table(("orcs", "dwarves"))  # Orcs: Village, Ruins, Ruins
    gate = with_ability("gate_to_self", troop=False)[0]
    troop = plain()[0]
    g.zones[zn.retired(0)] = [troop]
    produce(g, {2: [gate]})
    assert g.due(0) == "produce"
    g.act(0, Produce(True, troop))
    assert troop in g.zones[zn.camp(0)]


def test_gate_to_ally() -> None:
    g = Ettin.start(["a", "b", "c", "d"], seed="a" * 64, options={
        "nations": ["orcs", "risen", "dwarves", "giants"]})
    g.age = 1
    gate = with_ability("gate_to_ally", troop=False)[0]
    troop = plain()[0]
    g.zones[zn.retired(0)] = [troop]
    produce(g, {2: [gate]})
    while g.due(0) == "produce" and g.work["queues"]["0"][0][0] != "gate_to_ally":
        g.act(0, Produce(False, 0))
    g.act(0, Produce(True, troop))
    assert troop in g.zones[zn.camp(1)]


def four_orcs() -> Ettin:
    g = Ettin.start(["a", "b", "c", "d"], seed="a" * 64, options={
        "nations": ["orcs", "risen", "dwarves", "giants"]})
    g.age = 1
    return g


def test_taxes_on_a_defense() -> None:
    g = four_orcs()
    taxes = with_ability("taxes", troop=False)[0]
    amount = C.units[taxes].ability("taxes").amount  # type: ignore[union-attr]
    before = list(g.gold)
    place(g, {(0, -3): [taxes]})  # Orcs' far Ruins: its Lost Souls is asked, not paid
    enter_produce(g)
    assert g.gold[0] - before[0] == amount and g.gold[1] == before[1]


def test_prosperous_on_a_defense_pays_you_and_your_ally() -> None:
    g = four_orcs()
    prosperous = with_ability("prosperous", troop=False)[0]
    amount = C.units[prosperous].ability("prosperous").amount  # type: ignore[union-attr]
    before = list(g.gold)
    place(g, {(0, -3): [prosperous]})
    enter_produce(g)
    assert g.gold[0] - before[0] == amount and g.gold[1] - before[1] == amount
    assert g.gold[3] == before[3]  # not the Enemy


@pytest.mark.parametrize("kind", ["lost_souls", "call_to_arms", "taxes", "prosperous"])
def test_defended_location_abilities(kind: str) -> None:
    nation = next(n for n in C.nations
                  if any(loc.ability.keyword == kind for loc in n.locations))
    slot = next(i for i, loc in enumerate(nation.locations) if loc.ability.keyword == kind)
    other = next(n.id for n in C.nations if n.id != nation.id)
    g = table((nation.id, other))
    top = g.zones[zn.deck(0)][0]
    wall = plain(troop=False)[0]
    before = list(g.gold)
    produce(g, {})  # undefended: nothing
    assert g.gold == before and g.due(0) is None
    g = table((nation.id, other))
    produce(g, {slot: [wall]})
    amount = nation.locations[slot].ability.amount
    if kind in ("lost_souls", "call_to_arms"):
        assert g.due(0) == "produce"
        g.act(0, Produce(True, 0))
        assert top in g.zones[zn.LOST if kind == "lost_souls" else zn.camp(0)]
    elif kind == "taxes":
        assert g.gold[0] - before[0] == amount
    else:
        assert g.gold[0] - before[0] == 2 * amount  # 2 players: your Ally's share too


# ------------------------------------------------------------------ scoring


def test_scoring_counts_every_source_and_retired_bonuses() -> None:
    from aggregates.ettin import scoring

    g = table()
    for zone in g.zones:
        if not zone.startswith(("deck:", "merc:", "adv:")):
            g.zones[zone] = []
    bonus_card = next(u for u in C.units.values()
                      if u.bonus is not None and u.bonus[0] == "war_token")
    camp_card = next(u for u in C.units.values() if u.vp and u.bonus is None)
    wall = next(u for u in C.units.values() if u.vp and not u.troop)
    g.zones[zn.retired(0)] = [bonus_card.id]
    g.zones[zn.camp(0)] = [camp_card.id]
    g.zones[zn.loc(0, 1)] = [wall.id]
    g.tokens = [[1, 3], []]
    g.gold = [9, 0]
    score = scoring.position_score(g, 0)
    assert score == {"tokens": 5 + 15, "camp": camp_card.vp, "defenses": wall.vp,
                     "retired": bonus_card.vp, "bonuses": 2 * bonus_card.bonus[1],  # type: ignore
                     "gold": 4}
    out = scoring.outcome(g)
    assert out["winners"] == [0] and out["teams"][0]["score"] == sum(score.values())


def test_a_tie_goes_to_the_alliance_with_more_gold_then_is_shared() -> None:
    from aggregates.ettin import scoring

    g = table()
    for zone in g.zones:
        if not zone.startswith(("deck:", "merc:", "adv:")):
            g.zones[zone] = []
    g.tokens = [[], []]
    g.gold = [4, 5]  # both 2 VP; seat 1 has more gold
    assert scoring.outcome(g)["winners"] == [1]
    g.gold = [5, 5]
    out = scoring.outcome(g)
    assert out["winners"] == [0, 1] and "share" in out["result"]


def test_no_deck_spoil_after_taking_the_enemys_last_unit() -> None:
    """Spoil (rulebook "Spoil"; Round Summary 3 Spoil A): the single Spoil from
    the top of the Enemy's Nation Deck is for a Location where the Enemy has no
    units; taking the Enemy's only unit with one of an Age's Spoils does not
    open the deck for the rest."""
    from aggregates.ettin.commands import Spoil
    g = table()
    g.age = 3
    victim = plain()[0]
    spoils_for(g, {(0, 2): [plain()[1]], (1, 2): [victim]}, 0, 2)
    g.act(0, Spoil(victim))
    assert g.due(0) != "spoil"  # no Spoil(0): the Enemy's deck stays shut


def test_scouting_chooses_a_location_not_the_adventure() -> None:
    """Deploy Abilities, Scouting: "Your Enemy must reveal all units at a
    Location of your choice" -- the three Locations on the Nation Mat (Deploy
    sets them apart from "beside the Adventure card")."""
    g = table()
    scout = with_ability("scouting")[0]
    g.zones[zn.camp(0)] = [scout]
    g.phase, g.work = "deploy", {"pairs": [{"turn": 0, "left": 1}]}
    assert all(c.scout <= zn.ADVENTURE for c in g.legal_actions(0)
               if isinstance(c, Deploy))
    with pytest.raises(RuleError, match="NO_SCOUTING"):
        g.act(0, Deploy(scout, 0, zn.ADVENTURE + 1))


def test_bounty_pays_when_taken_from_the_top_of_the_nation_deck() -> None:
    """Spoils Abilities, Bounty: "When your Enemy takes this unit as a Spoil,
    they also gain its Bounty in Gold" -- a unit taken as the Spoil from the top
    of the Enemy's Nation Deck (no Enemy units there) is taken as a Spoil too."""
    from aggregates.ettin.commands import Spoil
    g = table()
    hunted = with_ability("bounty")[0]
    amount = C.units[hunted].ability("bounty").amount  # type: ignore[union-attr]
    for cards in g.zones.values():
        if hunted in cards:
            cards.remove(hunted)
    g.zones[zn.deck(1)].insert(0, hunted)
    spoils_for(g, {(0, 2): [plain()[0]]}, 0, 2)
    before = g.gold[0]
    g.collect_events()
    g.act(0, Spoil(0))
    assert hunted in g.zones[zn.retired(0)] and g.gold[0] == before + amount
    # The Spoil says its battle; the Bounty's gold is public, the card is not
    # (a deck-top card goes face down to the taker's Retired Pile).
    events: dict[str, Any] = {event_type(e): e for e in g.collect_events()}
    taken, paid = events["SpoilTaken"], events["BountyPaid"]
    assert payload_of(taken)["slot"] == 2 and payload_of(taken)["from_deck"] is True
    assert payload_of(paid) == {"position": 0, "amount": amount, "gold": before + amount,
                                "card": None}
    assert recorded_audience(Ettin, "SpoilTaken", payload_of(taken), taken.meta)[0].seats == {0}


# ------------------------------------------------------------------ rulings
# docs/rulings.md "Ettin": where the rulebook is silent or ambiguous.


def test_peacetime_lower_position_of_an_alliance_drafts_first__ruling_peacetime_order(
) -> None:
    from aggregates.ettin import ages
    g = Ettin.start(["a", "b", "c", "d"], seed="a" * 64)
    g.age = 1
    ages.open_draft(g, 1)  # Age I: Skirmish, Peacetime, Skirmish
    assert g.work["kind"] == "peacetime"
    assert [gr["order"] for gr in g.work["groups"]] == [[0, 0, 1, 1], [2, 2, 3, 3]]


def test_a_short_skirmish_lineup_pays_the_missing_pick__ruling_empty_mercenary_deck(
) -> None:
    from aggregates.ettin import ages
    g = table()
    deck = zn.merc(0, 1)
    g.zones[zn.LOST] += g.zones[deck][3:]
    g.zones[deck] = g.zones[deck][:3]
    first = g.initiative[0]
    before = list(g.gold)
    ages.open_draft(g, 0)
    assert g.gold[first] - before[first] == C.age_gold[0]  # the fourth pick was the holder's
    assert g.gold[1 - first] == before[1 - first]


def test_empty_decks_pay_the_ages_gold_per_missing_card__ruling_empty_decks() -> None:
    g = table()
    g.zones[zn.LOST] += g.zones[zn.deck(0)] + g.zones[zn.merc(0, 1)]
    g.zones[zn.deck(0)], g.zones[zn.merc(0, 1)] = [], []
    before = g.gold[0]
    g.collect_events()
    zn.draw_nation(g, 0, 2, zn.camp(0), "WarCry", "war cry")
    assert g.gold[0] - before == 2 * C.age_gold[0]
    # The gold says which draw it replaced, and the gold after it.
    (paid,) = [payload_of(e) for e in g.collect_events()]
    assert paid == {"position": 0, "amount": 2 * C.age_gold[0], "gold": g.gold[0],
                    "instead_of": "war cry"}


def test_untakeable_troops_still_shield_defenses__ruling_troops_before_defenses() -> None:
    g = table()
    sneak, wall = with_ability("stealth")[0], plain(troop=False)[0]
    won_at(g, 2, 0, [plain()[0]], [sneak, wall])
    assert aftermath.spoil_options(g, 0, 2) == []
    won_at(g, 2, 0, [with_ability("conquest")[0]], [sneak, wall])
    assert aftermath.spoil_options(g, 0, 2) == [wall]


def test_a_siege_is_placed_and_the_location_stays_defended__ruling_siege() -> None:
    g = table(("orcs", "dwarves"))
    siege = with_ability("siege")[0]
    wall = plain(troop=False)[0]
    spoils_for(g, {(0, 2): [siege], (1, 2): [], (1, -2): [wall]}, 0, 2)
    from aggregates.ettin.commands import EndSpoils, Siege
    if g.due(0) == "spoil" and EndSpoils() in g.legal_actions(0):
        g.act(0, EndSpoils())
    assert g.legal_actions(0) == [Siege(wall)]  # mandatory: no EndSpoils
    g.act(0, Siege(wall))
    enter_produce(g)
    # the Dwarves' middle Location (Ruins) is still defended: its Lost Souls is asked
    assert C.nation("dwarves").locations[1].ability.keyword == "lost_souls"
    assert ["lost_souls", 1] in g.work["queues"]["1"]


def test_a_protected_side_may_win_but_not_lose_or_tie__ruling_protected() -> None:
    arc = card("Arc Tower")
    g = table()  # Giants' City (3) + Arc Tower 3 = 6 against Dwarves' Town (2) + 1
    weak = next(c for c in plain() if C.units[c].strength == 1)
    place(g, {(0, 0): [arc], (1, 0): [weak]})
    fight(g, 0)
    assert result(g, 0)["result"] == "win" and result(g, 0)["winner"] == 0
    g2 = table()  # 6 against 2 + 4: a tie is No Battle too
    four = next(c for c in plain() if C.units[c].strength == 4)
    place(g2, {(0, 0): [arc], (1, 0): [four]})
    fight(g2, 0)
    assert result(g2, 0)["result"] == "none" and result(g2, 0)["why"] == "protected"


def test_taxes_and_prosperous_are_always_taken__ruling_produce_gold() -> None:
    g = four_orcs()
    taxes = with_ability("taxes", troop=False)[0]
    place(g, {(0, -1): [taxes]})  # Orcs' Village: its Taxes and the Defense's, no question
    before = g.gold[0]
    enter_produce(g)
    assert g.gold[0] > before and "0" not in g.work["queues"]


def test_a_won_adventure_defense_is_always_placed__ruling_adventure_defense() -> None:
    from aggregates.ettin.commands import PlaceDefense
    g = table()
    post = card("Goblin Trading Post")
    g.zones[zn.won(0)] = [post]
    g.phase = "adventure_defense"
    assert g.due(0) == "place"
    assert g.legal_actions(0) == [PlaceDefense(post, s) for s in range(zn.ADVENTURE)]


def test_an_unattempted_adventure_goes_to_the_lost_pile__ruling_adventure_card() -> None:
    g = table()
    adv = g.zones[zn.adv_deck(0, 1)][0]
    g.zones[zn.adv_deck(0, 1)].remove(adv)
    g.zones[zn.adventure(0)] = [adv]
    aftermath.retire(g)
    assert adv in g.zones[zn.LOST]


def test_units_gone_before_retire_do_not_retire__ruling_retire_abilities() -> None:
    g = table()
    terrify = with_ability("terrify")[0]
    rich = with_ability("wealthy")[0]
    place(g, {(0, 2): [terrify], (1, 2): [rich]})
    fight(g, 2)
    g.act(0, Target(terrify, rich))
    assert rich in g.zones[zn.retired(1)]
    before = g.gold[1]
    aftermath.retire(g)
    assert g.gold[1] == before  # Wealthy: "When this retires" -- it was Terrified
