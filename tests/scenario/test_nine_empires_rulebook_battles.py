"""Romance of the Nine Empires rulebook, Battles, Raids and Quests, section by
section: each test names the section whose words it holds (``__rulebook_<Section>``)
and quotes them. "Your" in card text in battles with allies is read as the
card's controller (docs/rulings.md, "Romance of the Nine Empires").

Played on the rules' own table (``testing.Table``), each arranged with the
rulebook's cards; hands hold no React unless a test needs one.
"""

from __future__ import annotations

import pytest

from aggregates.kernel import RuleError
from aggregates.nine_empires import cards as t
from aggregates.nine_empires import frequency
from aggregates.nine_empires.commands import (
    Absorb,
    AssignRaid,
    AssignUnits,
    CallAllies,
    ChooseAlly,
    ChooseBattle,
    ChooseRaid,
    DeclareAttack,
    DeclareImmune,
    DeclareRaid,
    Engage,
    Pass,
    PlayCard,
    ReturnHome,
    UseAbility,
)
from aggregates.nine_empires.state import EARLIER_RETURN_HERO, EARLIER_YOUR_SIDE
from aggregates.nine_empires.testing import (
    Table,
    allied_battle,
    in_play,
    make_tokens,
    new_table,
    put_in_play,
    quiet_hands,
    set_hand,
    start_battle,
)


def _until(table: Table, want: tuple[int, str]) -> None:
    """Pass (Reacts, battle actions) until the game waits on ``want``."""
    while table.pending()[0] != want:
        seat, _ = table.pending()[0]
        table.act(seat, Pass())


# ------------------------------------------- Battle Action & Resolution


def _ord_unit(table: Table) -> tuple[str, list[str]]:
    """Ecehatl (a Wizard) with a spell, an item and a cohort attached."""
    ecehatl = put_in_play(table, 0, "ecehatl")
    attached = [put_in_play(table, 0, k, attach_to=ecehatl)
                for k in ("divination", "excel_r8", "peasant_archers")]
    return ecehatl, attached


def _ord_unit_against_jack() -> tuple[Table, str, list[str], str, str]:
    """Ord's Ecehatl unit attacks Holden's first castle, Jack Newcomer defending,
    and the defender (who acts first) has passed: the table, Ecehatl, its
    attached cards, Jack and the castle."""
    table = new_table(["ord", "holden"])
    quiet_hands(table, ["ord", "holden"])
    ecehatl, attached = _ord_unit(table)
    jack = put_in_play(table, 1, "jack_newcomer")
    castle = t.castles(table, 1)[0]
    start_battle(table, 0, 1, {ecehatl: castle}, {jack: castle}, castle)
    table.act(1, Pass())
    return table, ecehatl, attached, jack, castle


def test_returning_home_bows_the_whole_unit__ruling_unit__rulebook_Battle_Action_and_Resolution(
) -> None:
    """"Bow your target unit to return it home. It leaves this battle safely",
    a unit being "a single hero along with all attached cohorts, items, and
    spells" (Key Terms, Unit): the hero, its spell, item and cohort all bow and
    go home with it, and the event names each card it bowed."""
    table, ecehatl, attached, jack, castle = _ord_unit_against_jack()
    assert ReturnHome(hero=ecehatl) in table.legal(0)
    table.act(0, ReturnHome(hero=ecehatl))
    assert table.last("ReturnedHome") == {"seat": 0, "hero": ecehatl,
                                          "bowed": [ecehatl, *attached]}
    assert all(t.bowed(table, c) for c in (ecehatl, *attached))
    assert t.location(table, ecehatl) == "home" and not t.here(table, attached[2])


def test_a_zombie_returning_home_is_bowed_and_straightened_in_spring(
) -> None:
    """The Zombie token attached to Nomhopet is part of his unit: bowed on the
    way home, it is among the cards the next Spring Phase straightens ("Each
    player straightens all of his or her cards"); an attached card already
    bowed stays bowed and is not named again. Rulebook: Battle Action &
    Resolution; Spring Phase."""
    table = new_table(["ixhasa", "holden"])
    quiet_hands(table, ["ixhasa", "holden"])
    nomhopet = put_in_play(table, 0, "nomhopet")
    straight, bowed = make_tokens(table, 0, "zombie", nomhopet, 2)
    t.table(table).bow(bowed)
    castle = t.castles(table, 1)[0]
    start_battle(table, 0, 1, {nomhopet: castle}, {}, castle)
    table.act(0, ReturnHome(hero=nomhopet))
    assert table.last("ReturnedHome")["bowed"] == [nomhopet, straight]
    assert t.bowed(table, straight) and t.bowed(table, bowed)
    while table.turn == 1:
        seat, _ = table.pending()[0]
        legal = table.legal(seat)
        table.act(seat, Pass() if Pass() in legal else legal[0])
    assert {nomhopet, straight, bowed} <= set(table.named("SpringBegan")[-1]["straightened"])
    assert not any(t.bowed(table, c) for c in (nomhopet, straight, bowed))


def test_rules_1_2_0_bowed_the_hero_alone() -> None:
    """Kept for the games 1.2.0 recorded (``v1.NineEmpiresV1_2``): the hero
    bowed, its attached cards left straight."""
    table = new_table(["ord", "holden"])
    quiet_hands(table, ["ord", "holden"])
    table.EARLIER = frozenset({EARLIER_RETURN_HERO})
    ecehatl, attached = _ord_unit(table)
    castle = t.castles(table, 1)[0]
    start_battle(table, 0, 1, {ecehatl: castle}, {}, castle)
    table.act(0, ReturnHome(hero=ecehatl))
    assert table.last("ReturnedHome")["bowed"] == [ecehatl]
    assert not any(t.bowed(table, c) for c in attached)


def test_when_all_pass_the_attackers_bow_and_go_home__rulebook_Battle_Action_and_Resolution(
) -> None:
    """"Once all players pass consecutively, the battle at that castle ends. Bow
    all attacking units at that battle and send them home. The defending units
    remain at the castle ... Once all battles are resolved, all defending units
    go home and the Attack Phase ends."""
    table, ecehatl, attached, jack, castle = _ord_unit_against_jack()
    table.act(0, Pass())
    ended = table.last("BattleEnded")
    assert ended["attackers"] == [ecehatl] and ended["castle_stands"]
    assert all(t.bowed(table, c) for c in (ecehatl, *attached))
    assert not t.bowed(table, jack)
    while table.conflict is not None:
        seat, _ = table.pending()[0]
        table.act(seat, table.legal(seat)[0])
    assert t.location(table, jack) == "home" and table.phase == "summer"


# --------------------------------------------------- "your": the controller


def test_your_defending_heroes_are_the_bunkers_controllers__ruling_your__rulebook_Battles(
) -> None:
    """Displaced Bunker, "Your defending heroes have +1S", held by a defending
    ally: the ally's own defending hero has +1S, the defender's do not. The
    defender's Strength 2 Nomhopet with +3 (Soul of a Dragon) and his Strength 1
    Zombie engage for 6, not 7. (Multiplayer note: "Note that an ally gets no
    benefits ... for allying".)"""
    decks = ["malchior", "ixhasa", "displaced"]
    table, castle, units = allied_battle(decks, [["beknine"], ["nomhopet"], ["jerrin_strongblade"]],
                                   "defend")
    (beknine,), (nomhopet,), (jerrin,) = units
    put_in_play(table, 2, "displaced_bunker")
    zombie, = make_tokens(table, 1, "zombie", nomhopet, 1)
    soul, = set_hand(table, 1, ["soul_of_a_dragon"])
    assert (frequency.stat(table, jerrin, "S"), frequency.stat(table, nomhopet, "S")) == (3 + 1, 2)
    assert frequency.stat(table, zombie, "S") == 1
    assert table.pending() == [(1, "battle")]
    table.act(1, UseAbility(source=soul, targets=(nomhopet,), food_from=(castle,)))
    _until(table, (1, "battle"))
    assert frequency.stat(table, nomhopet, "S") == 2 + 3
    table.act(1, Engage(cards=(nomhopet, zombie)))
    assert table.last("Engaged")["damage"] == 2 + 3 + 1
    assert frequency.stat(table, beknine, "S") == 3


def test_absorbing_counts_only_the_controllers_bonus__ruling_your__rulebook_Engaging_and_Damage(
) -> None:
    """"Each hero and cohort buried absorbs its Strength in damage. Any
    modifications to Strength apply": the defender, burying its own Nomhopet
    beside a defending ally's Displaced Bunker, absorbs his Strength 2, and the
    ally's Jerrin (Bunker: +1S) would absorb 4."""
    decks = ["malchior", "ixhasa", "displaced"]
    table, castle, units = allied_battle(decks, [["beknine", "zahir"], ["nomhopet"],
                                           ["jerrin_strongblade"]], "defend")
    (beknine, _zahir), (nomhopet,), (jerrin,) = units
    put_in_play(table, 2, "displaced_bunker")
    _until(table, (0, "battle"))
    table.act(0, Engage(cards=(beknine,)))                # 3 damage on the defenders
    _until(table, (2, "immunity"))                        # the defending ally's Jerrin, 4S > 3
    table.act(2, DeclareImmune())
    assert Absorb(card=jerrin) in table.legal(1)           # an ally's card may be chosen
    table.act(1, Absorb(card=nomhopet))
    absorbed = table.last("DamageAbsorbed")
    assert (absorbed["card"], absorbed["absorbed"], absorbed["remaining"]) == (nomhopet, 2, 1)


def test_immunity_counts_only_the_controllers_bonus__ruling_your__rulebook_Engaging_and_Damage(
) -> None:
    """General Hain, "Your other attacking heroes have +1S": the attacker's
    Beknine has 4 and may be declared immune to 2 damage; the attacking ally's
    Keshie keeps her Strength 2, not greater than 2, and may not ("A card can be
    declared immune if that card has a Strength greater than the total damage")."""
    decks = ["malchior", "holden", "ord"]
    table, castle, units = allied_battle(decks, [["general_hain", "beknine"],
                                           ["coeli_quando"], ["keshie"]], "attack")
    (hain, beknine), (coeli,), (keshie,) = units
    assert (frequency.stat(table, beknine, "S"), frequency.stat(table, keshie, "S")) == (4, 2)
    assert frequency.stat(table, hain, "S") == 3                   # "other": not Hain himself
    table.act(1, Engage(cards=(coeli,)))                   # 2 damage
    _until(table, (0, "immunity"))
    assert DeclareImmune(cards=(beknine,)) in table.legal(0)
    table.act(0, DeclareImmune(cards=(hain, beknine)))
    assert table.pending() == [(0, "absorb")]              # Keshie (2S) is no candidate
    with pytest.raises(RuleError):
        table.act(2, DeclareImmune(cards=(keshie,)))
    assert Absorb(card=keshie) in table.legal(0)


def test_rules_1_2_0_gave_an_ally_the_your_bonus() -> None:
    """Kept for the games 1.2.0 recorded: the Bunker raised the defender's heroes too."""
    decks = ["malchior", "ixhasa", "displaced"]
    table, castle, units = allied_battle(decks, [["beknine"], ["nomhopet"], ["jerrin_strongblade"]],
                                   "defend")
    put_in_play(table, 2, "displaced_bunker")
    table.EARLIER = frozenset({EARLIER_YOUR_SIDE})
    assert frequency.stat(table, units[1][0], "S") == 2 + 1


def test_each_filter_means_its_words_with_allies__ruling_filters__rulebook_Battles() -> None:
    """"Target hero of yours" (At Your Command, Leadership's "every hero of
    yours") names only the user's heroes, never an ally's; "target opposing
    hero" (Aura of Fear's kind: Torin Quickhand) names only the other side's,
    never an ally's; "Defending heroes at the Sanctuary" names every defending
    hero there, an ally's too; "every attacking hero in this battle"
    (Torrential Rain) every attacking hero, whoever controls it."""
    decks = ["malchior", "ord", "malchior"]
    table = new_table(decks, castles=[["border_keep"], ["sanctuary"], ["border_keep"]])
    quiet_hands(table, decks)
    beknine, torin, nicoletta = (put_in_play(table, 0, "beknine"),
                                 put_in_play(table, 1, "torin_quickhand"),
                                 put_in_play(table, 2, "nicoletta"))
    keshie = put_in_play(table, 1, "keshie")
    command, = set_hand(table, 0, ["at_your_command"])
    sanctuary = t.castles(table, 1)[0]
    table.act(0, DeclareAttack(defender=1))
    table.act(0, CallAllies(call=True))
    table.act(1, CallAllies(call=False))
    table.act(2, ChooseAlly(side="attack"))
    table.act(0, AssignUnits(heroes=(beknine,), castles=(sanctuary,)))
    table.act(2, AssignUnits(heroes=(nicoletta,), castles=(sanctuary,)))
    table.act(1, AssignUnits(heroes=(torin, keshie), castles=(sanctuary, sanctuary)))
    assert table.pending() == [(1, "battle")]        # one castle: its battle at once
    # The Sanctuary: every defending hero there, +1S.
    assert (frequency.stat(table, torin, "S"), frequency.stat(table, keshie, "S")) == (2 + 1, 2 + 1)
    # Torin: "target opposing hero" is an attacker, the attacking ally's included.
    torin_targets = {c.targets for c in table.legal(1)
                     if isinstance(c, UseAbility) and c.source == torin}
    assert torin_targets == {(beknine,), (nicoletta,)}
    _until(table, (0, "battle"))
    yours = {c.targets for c in table.legal(0)
             if isinstance(c, UseAbility) and c.source == command}
    assert yours == {(beknine,)}                          # not the ally's Nicoletta
    with pytest.raises(RuleError):
        table.act(0, UseAbility(source=command, targets=(nicoletta,)))


def test_a_most_peculiar_lamp_wants_an_opposing_hero__ruling_opposing__rulebook_Key_Terms(
) -> None:
    """"Opposing: a card, unit, or army on the opposite side of the battle": A
    Most Peculiar Lamp? ("Complete when an opposing hero is buried in a battle
    you fight") is not completed by the attacking ally's Keshie buried to absorb
    (the attacker "may select cards belonging to allies"), and is by the
    defender's Beknine."""
    table, castle, units = allied_battle(["holden", "malchior", "ord"],
                                   [["vanguard_of_guild_10_42"], ["nicoletta"], ["keshie"]],
                                   "attack")
    (vanguard,), (nicoletta,), (keshie,) = units
    lamp = put_in_play(table, 0, "a_most_peculiar_lamp")
    table.act(1, Engage(cards=(nicoletta,)))              # 2 damage on the attackers
    _until(table, (0, "immunity"))                        # Vanguard 3S > 2
    table.act(0, DeclareImmune())
    table.act(0, Absorb(card=keshie))                     # the ally's hero absorbs 2
    assert keshie in table.zones["buried:2"]
    assert not table.named("QuestCompleted")
    _until(table, (0, "battle"))
    table.act(0, Engage(cards=(vanguard,)))               # 3 damage on the defenders
    _until(table, (1, "absorb"))
    table.act(1, Absorb(card=nicoletta))
    assert table.last("QuestCompleted")["quest"] == lamp
    assert table.renown[0] == 5 + 4


def test_your_army_is_the_army_you_are_in__ruling_your_army__rulebook_Timing() -> None:
    """Training Grounds, "React: when an opposing unit engages for damage against
    your army in a battle where you have a hero": a defending ally's army is the
    defending army ("An army is the collection of all units on the same side"),
    so its unbowed Training Grounds may answer the attacker's engagement; the
    attacking ally's may not (the damage is not against its army)."""
    decks = ["malchior", "holden", "ixhasa", "ord"]
    table = new_table(decks)
    quiet_hands(table, decks)
    heroes = [put_in_play(table, s, k) for s, k in enumerate(
        ("beknine", "coeli_quando", "nomhopet", "keshie"))]
    grounds = {s: put_in_play(table, s, "training_grounds") for s in (2, 3)}
    castle = t.castles(table, 1)[0]
    table.act(0, DeclareAttack(defender=1))
    table.act(0, CallAllies(call=True))
    table.act(1, CallAllies(call=True))
    table.act(2, ChooseAlly(side="defend"))
    table.act(3, ChooseAlly(side="attack"))
    while table.pending()[0][1] == "assign":
        seat = table.pending()[0][0]
        table.act(seat, AssignUnits(heroes=(heroes[seat],), castles=(castle,)))
    if table.pending()[0][1] == "choose":
        table.act(0, ChooseBattle(castle=castle))
    _until(table, (0, "battle"))
    table.act(0, Engage(cards=(heroes[0],)))
    assert table.last("Engaged")["order"] == [2]          # not seat 3, the attacking ally
    _until(table, (2, "react"))
    table.act(2, UseAbility(source=grounds[2]))
    assert table.last("DamageReduced")["damage"] == 3 - 1


# -------------------------------------------------- Engaging and Damage


def test_a_weapon_counts_toward_immunity__rulebook_Engaging_and_Damage() -> None:
    """"If the defender engages for 5 damage, and the attacker has a 4-Strength
    hero equipped with a weapon that grants a bonus of +2 Strength, that hero has
    6 Strength total and can be declared immune": Colonel Baker is 4S (+1S while
    attacking: not here, he defends), so the printed example is played with
    Actuacte Ixit (3S) and Excel R-8 (+2S) against 4 damage."""
    table = new_table(["ord", "displaced"])
    quiet_hands(table, ["ord", "displaced"])
    ixit = put_in_play(table, 0, "actuacte_ixit")
    excel = put_in_play(table, 0, "excel_r8", attach_to=ixit)
    baker = put_in_play(table, 1, "colonel_baker")
    castle = t.castles(table, 1)[0]
    start_battle(table, 0, 1, {ixit: castle}, {baker: castle}, castle)
    assert frequency.stat(table, ixit, "S") == 5 and frequency.stat(table, baker, "S") == 4
    table.act(1, Engage(cards=(baker,)))
    _until(table, (0, "immunity"))
    assert DeclareImmune(cards=(ixit,)) in table.legal(0)
    table.act(0, DeclareImmune(cards=(ixit,)))
    # Nothing else to absorb it: the engagement is over, its 4 damage unabsorbed.
    assert not table.named("DamageAbsorbed") and not table.stack
    assert table.pending() == [(0, "battle")]
    assert t.in_play(table, ixit) and t.in_play(table, excel)


def test_the_defender_declares_no_immunity__rulebook_Engaging_and_Damage() -> None:
    """"After you engage the cards as the defender, the attacking player may
    ... declare specific cards in his or her army immune" (the defender never:
    "The defender is not allowed to declare his or her cards immune"); "any
    non-immune cards at the battle must be used to absorb damage so long as
    there is damage left to absorb"."""
    table = new_table(["ord", "displaced"])
    quiet_hands(table, ["ord", "displaced"])
    ixit = put_in_play(table, 0, "actuacte_ixit")
    baker = put_in_play(table, 1, "colonel_baker")
    castle = t.castles(table, 1)[0]
    start_battle(table, 0, 1, {ixit: castle}, {baker: castle}, castle)
    table.act(1, Pass())
    table.act(0, Engage(cards=(ixit,)))                   # 3 < Baker's 4
    _until(table, (1, "absorb"))
    assert not table.named("ImmunityStep")
    assert {c.card for c in table.legal(1) if isinstance(c, Absorb)} >= {baker,
                                                                         f"food:{castle}"}


def test_a_buried_castle_ends_the_battle__rulebook_Engaging_and_Damage() -> None:
    """"When you bury a castle card to absorb damage, it absorbs all remaining
    damage ... The battle ends immediately and all units go home. Attacking
    units return home bowed; defending units return home unbowed.\""""
    table = new_table(["malchior", "holden"], castles=[["border_keep"],
                                                       ["border_keep", "outpost"]])
    quiet_hands(table, ["malchior", "holden"])
    beknine = put_in_play(table, 0, "beknine")
    guard = put_in_play(table, 0, "malchian_guard", attach_to=beknine)
    coeli = put_in_play(table, 1, "coeli_quando")
    castle = t.castles(table, 1)[0]
    table.instances[castle]["food"] = 0
    start_battle(table, 0, 1, {beknine: castle}, {coeli: castle}, castle)
    table.act(1, Pass())
    table.act(0, Engage(cards=(guard,)))                  # 1 damage
    _until(table, (1, "absorb"))
    table.act(1, Absorb(card=castle))
    assert castle in table.zones["buried:1"] and table.last("DamageAbsorbed")["absorbed"] == 1
    assert t.bowed(table, beknine) and t.bowed(table, guard)
    assert not t.bowed(table, coeli) and t.location(table, coeli) == "home"


# ---------------------------------------------------------------- Raids


def _raid(defender_hero: str | None) -> tuple[Table, str, str | None, str]:
    table = new_table(["displaced", "malchior"])
    set_hand(table, 0, ["blight", "young_mike"])
    set_hand(table, 1, ["caught"])
    jones = put_in_play(table, 0, "siterath_jones")       # Raid +2, Carry 1
    guard = put_in_play(table, 1, defender_hero) if defender_hero else None
    castle = t.castles(table, 1)[0]
    return table, jones, guard, castle


def test_the_flow_of_a_raid__rulebook_Raids() -> None:
    """"The raider assigns a maximum of one unbowed unit ... to each castle";
    "the raider must place one card from his or her hand face down on top of
    each unit"; "If there is no defender ... [the raid value] must exceed the
    castle's Might"; "place one food token from the raided castle onto the
    raiding hero. Cards with Carry +X take an additional X food tokens";
    "Discard the stealth cards used at that castle, bow the raiding unit, and
    send it home"."""
    table, jones, _, castle = _raid(None)
    blight = t.hand(table, 0)[0]
    for _ in range(2):                                    # Summer passes
        table.act(table.pending()[0][0], Pass())
    table.act(0, DeclareRaid(defender=1))
    table.act(0, AssignRaid(heroes=(jones,), castles=(castle,), stealth=(blight,)))
    while table.pending() and table.pending()[0][1] != "autumn":
        seat, kind = table.pending()[0]
        table.act(seat, ChooseRaid(castle=castle) if kind == "choose_raid" else Pass())
    resolved = table.last("RaidResolved")
    # One food, + Carry 1 (Siter'Ath Jones), + Carry 1 (Camp Defiance: "Your
    # raiding heroes have Carry 1").
    assert in_play(table, 0, "camp_defiance")
    assert resolved["success"] and resolved["stolen"] == 3
    assert resolved["raider_total"] == 1 + 2 > 1                # Blight's Fate + Raid +2
    assert t.food(table, jones) == 3 and t.bowed(table, jones)
    assert blight in table.zones["discard:0"] and t.location(table, jones) == "home"


def test_a_raid_tie_goes_to_the_defender__rulebook_Raids() -> None:
    """"If the raider has the higher value, the raid is successful. If the
    defender's total is equal or greater, the raid fails"; "Send the defending
    unit home without bowing"."""
    table, jones, guard, castle = _raid("nicoletta")
    assert guard is not None
    young, = [c for c in t.hand(table, 0) if t.printed(table, c).key == "young_mike"]
    for _ in range(2):
        table.act(table.pending()[0][0], Pass())
    table.act(0, DeclareRaid(defender=1))
    table.act(0, AssignRaid(heroes=(jones,), castles=(castle,), stealth=(young,)))  # 0 + 2
    caught = t.hand(table, 1)[0]                                                   # Fate 2
    table.act(1, AssignRaid(heroes=(guard,), castles=(castle,), stealth=(caught,)))
    while table.pending() and table.pending()[0][1] != "autumn":
        seat, kind = table.pending()[0]
        table.act(seat, ChooseRaid(castle=castle) if kind == "choose_raid" else Pass())
    resolved = table.last("RaidResolved")
    assert not resolved["success"] and t.food(table, jones) == 0
    assert not t.bowed(table, guard) and t.bowed(table, jones)


def test_allies_are_never_involved_in_a_raid__rulebook_Raids() -> None:
    """"You cannot raid multiple players simultaneously, and allies are never
    involved in a raid": nobody is asked to ally."""
    table = new_table(["displaced", "malchior", "ord"])
    quiet_hands(table, ["displaced", "malchior", "ord"])
    put_in_play(table, 0, "siterath_jones")
    for _ in range(3):
        table.act(table.pending()[0][0], Pass())
    table.act(0, DeclareRaid(defender=1))
    assert table.pending()[0] == (0, "assign_raid")
    assert not table.named("AlliesCalled") and table.conflict is not None
    assert table.conflict["allies"] == {}


# --------------------------------------------------------------- Quests


def test_a_quest_gives_renown_on_play_and_on_completion__rulebook_Quests() -> None:
    """"Once a quest is played, the player immediately gains Renown equal to the
    Renown reward"; "As soon as the player meets the completion condition ...
    adds the Renown reward on the completed quest card"; "Unbowed heroes with
    the Questor trait contribute their Glory toward this cost without bowing"."""
    table = new_table(["holden", "malchior"])
    quiet_hands(table, ["holden", "malchior"])
    coeli = put_in_play(table, 0, "coeli_quando")          # 2G, Questor
    for key in ("library", "valiant_squire"):
        put_in_play(table, 0, key)
    journey, grounds = set_hand(table, 0, ["journey", "training_grounds"])
    table.act(0, PlayCard(card=journey, glory_from=(coeli,)))
    assert not t.bowed(table, coeli) and table.renown[0] == 5 + 1
    assert not table.named("QuestCompleted")               # 3 properties of 4
    table.act(1, Pass())
    table.act(0, PlayCard(card=grounds))
    assert table.last("QuestCompleted")["quest"] == journey
    assert table.renown[0] == 5 + 1 + 3



def test_one_thing_at_a_time_no_second_copy_bowed_questors__rulebook_Quests() -> None:
    """"A quest cannot be brought into play if you have a copy of that quest ...
    already in play or in your buried pile ... you cannot bring a quest into play
    if you already have an incomplete quest in play ... However, you can play a
    quest if another player has a copy in play or buried"; "bowed Questors
    cannot pay for a quest"."""
    table = new_table(["holden", "holden"])
    quiet_hands(table, ["holden", "holden"])
    jack = put_in_play(table, 0, "jack_newcomer", bowed=True)        # 1G, a Questor
    turnip, = set_hand(table, 0, ["the_biggest_turnip"])           # Glory 1
    with pytest.raises(RuleError, match="Glory"):
        table.act(0, PlayCard(card=turnip, glory_from=(jack,)))
    t.table(table).straighten(jack)
    table.act(0, PlayCard(card=turnip, glory_from=(jack,)))
    assert not t.bowed(table, jack)                                # a Questor does not bow
    other, = set_hand(table, 1, ["the_biggest_turnip"])            # seat 0 has a copy in play
    genevieve = put_in_play(table, 1, "genevieve")
    table.act(1, PlayCard(card=other, glory_from=(genevieve,)))
    assert t.in_play(table, other)
    offer, again = set_hand(table, 0, ["a_desperate_offer", "the_biggest_turnip"])
    coeli = put_in_play(table, 0, "coeli_quando")
    with pytest.raises(RuleError, match="incomplete"):
        table.act(0, PlayCard(card=offer, glory_from=(coeli,)))
    table.instances[turnip]["memory"]["completed"] = True
    with pytest.raises(RuleError, match="copy"):
        table.act(0, PlayCard(card=again, glory_from=(coeli,)))


def test_stealth_cards_are_required_one_unit_per_castle__rulebook_Raids() -> None:
    """"Stealth cards are required; if the raiding player has zero cards in hand,
    no raiders can be assigned"; "The raider cannot assign more than one unit to
    raid a single castle"."""
    table = new_table(["displaced", "malchior"])
    jones = put_in_play(table, 0, "siterath_jones")
    mike = put_in_play(table, 0, "young_mike")
    set_hand(table, 1, ["zahir"])
    blight, lost = set_hand(table, 0, ["blight", "lost_to_the_nexus"])
    castle = t.castles(table, 1)[0]
    for _ in range(2):
        table.act(table.pending()[0][0], Pass())
    table.act(0, DeclareRaid(defender=1))
    with pytest.raises(RuleError, match="one unit per castle"):
        table.act(0, AssignRaid(heroes=(jones, mike), castles=(castle, castle),
                                stealth=(blight, lost)))
    for iid in list(t.hand(table, 0)):
        t.table(table).move(iid, "deck:0")
    assert table.legal(0) == [AssignRaid()]                        # no card: no raider


def test_the_battle_reference_in_its_order__rulebook_Battle_Reference() -> None:
    """"Declare an attack ... Both sides may call for allies. Each player chooses
    whether or not to ally. Attacker assigns units. Defender assigns units. The
    attacker chooses one battle to resolve"; "The attacker (followed by any
    attacking allies) assigns ... the defender (followed by any defending
    allies)"; a battle at each of the defender's castles; actions "beginning
    with the defender (not the Ordained) and proceeding clockwise"."""
    decks = ["malchior", "holden", "ord", "ixhasa"]
    table = new_table(decks, ordained=2)
    quiet_hands(table, decks)
    heroes = [put_in_play(table, s, k) for s, k in enumerate(
        ("beknine", "coeli_quando", "keshie", "nomhopet"))]
    table.act(2, Pass())
    table.act(3, Pass())
    table.act(0, DeclareAttack(defender=1))
    table.act(0, CallAllies(call=True))
    table.act(1, CallAllies(call=True))
    table.act(2, ChooseAlly(side="defend"))
    table.act(3, ChooseAlly(side="attack"))
    castles = t.castles(table, 1)
    assigned = []
    while table.pending()[0][1] == "assign":
        seat = table.pending()[0][0]
        assigned.append(seat)
        table.act(seat, AssignUnits(heroes=(heroes[seat],), castles=(castles[-1],)))
    assert assigned == [0, 3, 1, 2]
    assert table.pending() == [(0, "choose")]
    assert {c.castle for c in table.legal(0) if isinstance(c, ChooseBattle)} == set(castles)
    table.act(0, ChooseBattle(castle=castles[-1]))
    assert table.last("BattleChosen")["order"] == [1, 2, 3, 0]    # from the defender
    names = [n for n, _ in table.events]
    steps = ["BattleDeclared", "AlliesCalled", "AllyChosen", "UnitsAssigned", "BattleChosen"]
    assert [names.index(n) for n in steps] == sorted(names.index(n) for n in steps)


def test_no_castles_at_the_end_of_the_attack_phase_eliminates__rulebook_Engaging_and_Damage(
) -> None:
    """"At the end of an Attack Phase, if a player has no castles remaining,
    that player is eliminated"; with a third player's castles still standing,
    burying the defender's last castle is no conquest ("the last castle (other
    than your own) in the game", Object)."""
    decks = ["malchior", "holden", "ord"]
    table = new_table(decks, castles=[["border_keep"], ["outpost"], ["border_keep"]])
    quiet_hands(table, decks)
    beknine = put_in_play(table, 0, "beknine")
    outpost = t.castles(table, 1)[0]
    table.instances[outpost]["food"] = 0
    table.act(0, DeclareAttack(defender=1))
    table.act(0, CallAllies(call=False))
    table.act(1, CallAllies(call=False))
    table.act(0, AssignUnits(heroes=(beknine,), castles=(outpost,)))
    table.act(0, Engage(cards=(beknine,)))
    table.act(1, Absorb(card=outpost))
    assert not table.over and table.out == [1]
    assert table.last("PlayerEliminated") == {"seat": 1, "why": "no castles"}
    assert table.named("AttackEnded")
