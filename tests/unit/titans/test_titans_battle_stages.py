"""Titans rulebook, "B) Resolving Battles", 2) Defender's Stage and 3) Attacker's
Stage: Support Cards singly and in sets, discarding to re-roll chosen dice, Nation
Cards once per Battle or per Round, the Titan Special Ability, the Nation Starting
Ability, and a unit moving into the Battle."""

from __future__ import annotations

import pytest

from aggregates.kernel import PickCards, RuleError
from aggregates.titans import testing
from aggregates.titans.battles import strength
from aggregates.titans.commands import (
    Decline,
    DiscardToReroll,
    EndStage,
    PlayMoveUnit,
    PlaySupport,
    RerollDice,
    UseNationAbility,
    UseNationCard,
    UseTitanAbility,
)
from aggregates.titans.game import Titans
from tests.unit.titans.test_titans_battles import ATTACK, arranged, attack, named


def own_cards(game: Titans, seat: int, cards: list[int]) -> None:
    for c in cards:
        game.nation_decks[seat].remove(c)
        game.nation_cards[seat].append(c)


def in_battle(layout: dict | None = None, hands: tuple[list[int], list[int]] = ([], []),
              units: tuple[str, ...] = ("infantry", "infantry", "cavalry"), **kw: object
              ) -> Titans:
    game = arranged(layout or ATTACK, **kw)  # type: ignore[arg-type]
    testing.set_hand(game, 0, hands[0])
    testing.set_hand(game, 1, hands[1])
    attack(game, "warsaw", "vilnius", units)
    testing.dice_pool(game, "attacker", [(u, 1) for u in units])
    testing.dice_pool(game, "defender", [("infantry", 1), ("infantry", 1)])
    return game


def side(game: Titans, role: str) -> dict:
    assert game.battle is not None
    return game.battle["sides"][role]  # type: ignore[no-any-return]


def test_add_strength_singly_and_in_sets_of_two_and_three() -> None:
    """Add Strength: a single card 1, a set of 2 gives 3, a set of 3 gives 5; the
    requirements may differ (own Infantry, own Cavalry, opponent's Infantry)."""
    game = in_battle(hands=([22, 23, 30, 24, 31], []))
    testing.play(game, 1, EndStage())
    testing.play(game, 0, PlaySupport(cards=(22, 23, 30)))
    assert side(game, "attacker")["bonus"] == 5
    testing.play(game, 0, PlaySupport(cards=(24,)))
    assert side(game, "attacker")["bonus"] == 6
    assert strength(side(game, "attacker")) == 3 + 6
    assert sorted(side(game, "attacker")["played"]) == [22, 23, 24, 30]
    testing.play(game, 0, EndStage())
    assert sorted(c for c in game.support_discard if c in (22, 23, 24, 30)) == [22, 23, 24, 30]


def test_add_a_die_single_gives_infantry_a_set_gives_titan() -> None:
    """Add a Die: 1 card, an Infantry die; a set of 2, a Titan die (from the reserve)."""
    game = in_battle(hands=([13, 14, 15], []))
    testing.play(game, 1, EndStage())
    testing.play(game, 0, PlaySupport(cards=(13, 14)))
    assert side(game, "attacker")["pool"][-1]["die"] == "titan"
    testing.play(game, 0, PlaySupport(cards=(15,)))
    assert side(game, "attacker")["pool"][-1]["die"] == "infantry"
    played = named(game, "SupportPlayed")
    assert [p["dice"][0]["die"] for p in played] == ["titan", "infantry"]


def test_a_die_not_in_the_reserve_cannot_be_taken() -> None:
    """"If a player were to take a Battle Die that is not available in his Reserve, he
    may not replace that Die": three Infantry attacking leave no Infantry die."""
    layout = dict(ATTACK, warsaw=(0, {"infantry": 3}))
    game = in_battle(layout, hands=([13], []), units=("infantry",) * 3)
    testing.play(game, 1, EndStage())
    with pytest.raises(RuleError, match="NO_DIE"):
        testing.play(game, 0, PlaySupport(cards=(13,)))


def test_requirements_and_sets_are_checked() -> None:
    """A card's requirement must be met; a set shares one effect."""
    game = in_battle(hands=([10, 22, 13], []))
    testing.play(game, 1, EndStage())
    with pytest.raises(RuleError, match="REQUIREMENT"):
        testing.play(game, 0, PlaySupport(cards=(10,)))  # needs his own Titan
    with pytest.raises(RuleError, match="BAD_SET"):
        testing.play(game, 0, PlaySupport(cards=(22, 13)))
    with pytest.raises(RuleError, match="NOT_YOUR_TURN"):
        testing.play(game, 1, PlaySupport(cards=(22,)))


def test_discarding_a_card_rerolls_the_dice_chosen() -> None:
    """B. Discarding one Support Card (no requirement) re-rolls chosen dice once."""
    game = in_battle(hands=([], [5]))
    testing.play(game, 1, DiscardToReroll(card=5))
    assert game.pending()[0].kind == "reroll" and game.pending()[0].seat == 1
    assert [c.dice for c in testing.legal(game, 1)] == [  # type: ignore[attr-defined]
        (0,), (1,), (0, 1)]
    # the structured decision "re-roll these dice": a pick over the pool's indices
    pick = game.pending_decisions()[0].choices[1]
    assert isinstance(pick, PickCards) and pick.options == (0, 1)
    built = pick.build([1])
    assert Titans.COMMANDS.parse(built["name"], built["args"]) == RerollDice(dice=(1,))
    testing.play(game, 1, RerollDice(dice=(1,)))
    rerolled = named(game, "DiceRerolled")[0]
    assert rerolled["dice"] == [1] and rerolled["before"][0] == rerolled["pool"][0]
    assert 5 in game.support_discard and game.pending()[0].kind == "battle_stage"


def test_nation_cards_once_per_battle_and_once_per_round() -> None:
    """C. A [1 / Battle] card once in a Battle; a [1 / Round] card is turned (rotated)."""
    game = in_battle()
    own_cards(game, 0, [32, 38])
    testing.play(game, 1, EndStage())
    testing.play(game, 0, UseNationCard(card=32))
    assert side(game, "attacker")["bonus"] == 1
    with pytest.raises(RuleError, match="REQUIREMENT"):
        testing.play(game, 0, UseNationCard(card=32))
    testing.play(game, 0, UseNationCard(card=38))
    assert game.rotated[0] == [38] and side(game, "attacker")["bonus"] == 4


def test_titan_and_starting_abilities_once_per_battle() -> None:
    """D. the Titan Special Ability needs the Titan in the army; E. the Nation Starting
    Ability its requirement (Winged Hussars: Cavalry, attacking)."""
    layout = dict(ATTACK, warsaw=(0, {"infantry": 1, "cavalry": 1, "titan": 1}))
    game = in_battle(layout, units=("infantry", "cavalry", "titan"))
    testing.play(game, 1, EndStage())
    with pytest.raises(RuleError):
        testing.play(game, 1, UseNationAbility())  # not his stage any more
    hand = len(game.hands[0])
    testing.play(game, 0, UseTitanAbility())  # Sarmatian Pride: draw 1
    assert len(game.hands[0]) == hand + 1
    with pytest.raises(RuleError, match="REQUIREMENT"):
        testing.play(game, 0, UseTitanAbility())
    testing.play(game, 0, UseNationAbility())
    assert side(game, "attacker")["bonus"] == 2 and side(game, "attacker")["ability_used"]
    assert UseNationAbility() not in testing.legal(game, 0)


def test_a_defenders_starting_ability_needs_its_role() -> None:
    """Russia's Vast Lands (defending): usable in its stage, not by an attacker."""
    game = in_battle()
    testing.play(game, 1, UseNationAbility())
    assert side(game, "defender")["bonus"] == 1


def test_always_on_cards_add_their_bonus_as_the_battle_begins() -> None:
    """Always-on Nation Cards: Russia's Kremlin Walls (+2 defending a Stronghold)."""
    game = arranged(ATTACK, strongholds=("vilnius",))
    own_cards(game, 1, [14])
    attack(game, "warsaw", "vilnius", ("infantry", "infantry", "cavalry"))
    begun = named(game, "BattleBegun")[0]
    assert begun["sides"]["defender"]["bonus"] == 2
    assert begun["sides"]["defender"]["passive"] == [14]


def test_move_one_unit_joins_the_battle_and_rolls_its_die() -> None:
    """Move 1 Unit: a unit from a neighbouring region joins and rolls its die at once;
    one such card per player in a Battle."""
    layout = dict(ATTACK, belarus=(1, {"cavalry": 2}))
    game = in_battle(layout, hands=([], [2, 4]))
    testing.play(game, 1, PlayMoveUnit(card=2, unit="cavalry", origin="belarus"))
    assert len(side(game, "defender")["troops"]) == 3
    assert side(game, "defender")["pool"][-1]["die"] == "cavalry"
    assert game.armies["belarus"]["units"] == {"cavalry": 1}
    with pytest.raises(RuleError, match="ALREADY_USED"):
        testing.play(game, 1, PlayMoveUnit(card=4, unit="cavalry", origin="belarus"))


def test_a_unit_joining_lets_the_other_player_use_a_newly_met_battle_card() -> None:
    """"After a Unit moves into the Battle, both players ... check if any of their
    [1 / Battle] Nation Cards requirements have been met ... even if he has ended his
    Battle Stage": Poland, outnumbered now, may use Pospolite Ruszenie."""
    layout = dict(ATTACK, warsaw=(0, {"infantry": 1, "cavalry": 1}),
                  belarus=(1, {"cavalry": 1}))
    game = arranged(layout, strongholds=("vilnius",))
    own_cards(game, 0, [30])
    testing.set_hand(game, 1, [2])
    attack(game, "warsaw", "vilnius", ("infantry", "cavalry"))
    testing.play(game, 0, EndStage())  # the Attacker first (a Stronghold)
    testing.play(game, 1, PlayMoveUnit(card=2, unit="cavalry", origin="belarus"))
    assert game.pending()[0].kind == "battle_reaction" and game.pending()[0].seat == 0
    assert set(testing.legal(game, 0)) == {UseNationCard(card=30), Decline()}
    testing.play(game, 0, UseNationCard(card=30))
    assert side(game, "attacker")["pool"][-1]["die"] == "infantry"
    assert game.pending()[0].kind == "battle_stage" and game.pending()[0].seat == 1


def test_the_reaction_may_be_declined() -> None:
    layout = dict(ATTACK, warsaw=(0, {"infantry": 1, "cavalry": 1}),
                  belarus=(1, {"cavalry": 1}))
    game = arranged(layout, strongholds=("vilnius",))
    own_cards(game, 0, [30])
    testing.set_hand(game, 1, [2])
    attack(game, "warsaw", "vilnius", ("infantry", "cavalry"))
    testing.play(game, 0, EndStage())
    testing.play(game, 1, PlayMoveUnit(card=2, unit="cavalry", origin="belarus"))
    testing.play(game, 0, Decline())
    assert game.battle is not None and game.battle["reaction"] is None
    assert 30 not in side(game, "attacker")["used"]
