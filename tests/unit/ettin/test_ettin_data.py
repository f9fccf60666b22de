"""The designed data loads, is marked designed, follows the rulings' composition,
and a bad replacement file is refused with the place it is wrong."""

from __future__ import annotations

import copy
import json
from collections import Counter

import pytest

from aggregates.ettin import cards as cd
from aggregates.ettin.data import COMPONENTS as C
from aggregates.ettin.data import DATA_FILE, KEYWORDS, load
from aggregates.kernel.data import DataError

RAW = json.loads(DATA_FILE.read_text())


def test_the_shipped_set_says_it_is_designed() -> None:
    assert C.designed is True and "DESIGNED" in C.note


def test_composition_matches_the_rulings() -> None:
    assert len(C.nations) == 8
    for nation in C.nations:
        for age in (1, 2, 3):
            assert len(C.deck(nation.id, age)) == 5, nation.id
    assert [len(C.deck("mercenary", a)) for a in (1, 2, 3)] == [36, 20, 44]
    assert [len(C.adventure_deck(a)) for a in (1, 2, 3)] == [12, 12, 12]
    assert 0.4 <= sum(a.defense is not None for a in C.adventures.values()) / 36 <= 0.6
    assert sum(C.die) / len(C.die) == pytest.approx(2.5) and 3 in C.die


def test_every_card_ability_is_on_at_least_two_cards() -> None:
    seen: Counter[str] = Counter()
    for unit in C.units.values():
        seen.update(a.keyword for a in unit.abilities)
    for adv in C.adventures.values():
        seen.update([adv.effect.keyword] if adv.effect else [])
    for keyword in KEYWORDS:
        if keyword != "lost_souls":  # a Ruins' ability, on no card
            assert seen[keyword] >= 2, keyword


def test_the_rulebooks_example_cards() -> None:
    by_name = {u.name: u for u in C.units.values()}
    assert (by_name["Guard Tower"].kind, by_name["Guard Tower"].strength,
            by_name["Guard Tower"].cost) == ("defense", 2, 1)
    assert by_name["Swordsmiths"].cost == 0
    assert by_name["Swordsmiths"].ability("wealthy").amount == 5  # type: ignore[union-attr]
    assert by_name["Militia"].cost == 0 and by_name["Militia"].adventure == 0
    assert by_name["Ogre Bashers"].cost == 4
    assert by_name["Dwarf Warriors"].strength == 2
    assert by_name["Paladin Kendrick"].adventure == 6
    assert C.book.has_keyword("return_to_ally", cd.in_force([by_name["Paladin Kendrick"].id]))
    assert by_name["Old Vets"].sell == 2
    arc = by_name["Arc Tower"]
    assert arc.cost == 5 and arc.ability("protected").weak_to == ("magic",)  # type: ignore[union-attr]
    assert "Dommorian Mages" in by_name
    post = next(a for a in C.adventures.values() if a.name == "Goblin Trading Post")
    assert post.difficulty == 2 and post.defense is not None


def test_abilities_are_kernel_ability_records_keyed_by_keyword() -> None:
    """Abilities Summary: each keyword is one record of the kernel's ability
    engine (Wealthy fires when the unit retires; Vicious adds a Spoil on a win
    or a tie), named by its ability string with the string's amounts."""
    wealthy = C.book.by_name["wealthy 5"]
    assert (wealthy.timing, wealthy.event, wealthy.verb, wealthy.params["amount"]) == (
        "trigger", "retire", "gain_gold", 5)
    assert C.book.by_name["protected magic"].params["weak_to"] == ["magic"]
    assert C.keywords["vicious"].verb == "modify"
    assert C.book.modifier("spoils", {"result": "tie"}, ["vicious"]) == 1
    assert C.book.modifier("spoils", {"result": "loss"}, ["vicious"]) == 0
    assert C.keywords["ranged"].costs == (("retire", "@self"),)
    # Each is its keyword, whatever its timing: the book answers which a card has.
    assert (wealthy.keyword, C.book.by_name["protected magic"].keyword) == ("wealthy",
                                                                          "protected")
    assert C.book.has_keyword("wealthy", ["wealthy 5"])  # a trigger
    assert C.book.has_keyword("protected", ["vicious", "protected magic"])  # always on
    assert not C.book.has_keyword("magic", ["protected magic"])  # a weakness, not the keyword


@pytest.mark.parametrize("breakage", [
    lambda d: d.pop("designed"),
    lambda d: d["units"][0].update(abilities=["fireball"]),
    lambda d: d["units"][0].update(abilities=["wealthy"]),
    lambda d: d["units"][0].update(kind="hero"),
    lambda d: d["units"][1].update(id=d["units"][0]["id"]),
    lambda d: d["nations"][1].update(initiative=d["nations"][0]["initiative"]),
    lambda d: d["nations"][0]["locations"].pop(),
    lambda d: d["keywords"].pop("swift"),
    lambda d: d["keywords"]["wealthy"]["effects"][0].update(do="fly"),
    lambda d: d["keywords"]["wealthy"]["when"].update(event="dawn"),
    lambda d: d["keywords"]["terrify"]["effects"][0].update(target="@everyone"),
    lambda d: d["keywords"]["vicious"].update(condition={"mood": "bad"}),
    lambda d: d["adventures"][0].update(effect="terrify"),
])
def test_a_bad_file_is_refused(breakage) -> None:  # type: ignore[no-untyped-def]
    raw = copy.deepcopy(RAW)
    breakage(raw)
    with pytest.raises(DataError):
        load(raw)


def test_no_troop_carries_a_produce_ability() -> None:
    """Produce (rulebook "Produce"): "Check each of your Defenses and Locations
    for Produce abilities" -- Troops have retired by then, so a Troop's Gate,
    Taxes or Prosperous would never resolve; the data may not print one, and
    each Produce ability is still on at least two Defenses."""
    produce = ("gate_to_self", "gate_to_ally", "taxes", "prosperous")
    dead = [u.name for u in C.units.values()
            if u.troop and any(cd.has_keyword([u.id], k) for k in produce)]
    assert dead == []
    for k in produce:
        assert sum(1 for u in C.units.values() if not u.troop and cd.has_keyword([u.id], k)) >= 2, k
    raw = copy.deepcopy(RAW)
    troop = next(u for u in raw["units"] if u["kind"] == "troop")
    troop["abilities"] = ["taxes 1"]
    with pytest.raises(DataError, match="Produce"):
        load(raw)
