"""The ability engine (aggregates.nine_empires.card_text): records read against a
vocabulary, the and/or/not language of filters and conditions, composed costs,
limits per instance, durations the engine expires, and the interpreter."""

from __future__ import annotations

from typing import Any

import pytest

from aggregates.nine_empires import card_text as ka

VOCAB: dict[str, Any] = {"verbs": frozenset({"modify", "draw"}),
                         "costs": frozenset({"bow", "gold"}),
                         "facts": frozenset({"type", "side", "keywords", "here", "S"}),
                         "events": frozenset({"Engaged"})}
RASHA = {"timing": "battle", "text": "Battle: Bow: target opposing hero in this battle "
         "without Brutal gets -2S until the end of the battle.",
         "cost": [{"bow": "@self"}],
         "targets": [{"name": "t", "filter": {"type": "hero", "side": "opposing",
                                               "here": True,
                                               "keywords": {"lacks": "Brutal"}}}],
         "effects": [{"do": "modify", "params": {"stat": "S", "amount": -2}, "target": "t",
                      "duration": "end_of_battle"}]}


def test_a_filter_reads_like_the_card_text() -> None:
    ability = ka.read_ability(RASHA, "rasha", **VOCAB)
    flt = ability.targets[0].filter
    base = {"type": "hero", "side": "opposing", "here": True, "keywords": ["Ord"]}
    assert ka.holds(flt, base)
    assert not ka.holds(flt, {**base, "keywords": ["Brutal"]})
    assert not ka.holds(flt, {**base, "side": "own"})
    assert not ka.holds(flt, {**base, "here": False})


def test_and_or_not_and_comparisons() -> None:
    expr = {"any": [{"S": {"min": 3}}, {"not": {"type": "hero"}}]}
    assert ka.holds(expr, {"S": 3, "type": "hero"})
    assert ka.holds(expr, {"S": 0, "type": "cohort"})
    assert not ka.holds(expr, {"S": 2, "type": "hero"})
    assert ka.holds({"all": [{"S": {"max": 2}}, {"type": {"in": ["hero", "cohort"]}}]},
                    {"S": 2, "type": "cohort"})
    assert ka.holds({}, {}) and ka.holds(None, {})


@pytest.mark.parametrize("bad", [
    {**RASHA, "timing": "dawn"},
    {**RASHA, "cost": [{"mana": 1}]},
    {**RASHA, "effects": [{"do": "explode", "target": "t"}]},
    {**RASHA, "targets": [{"name": "t", "filter": {"colour": "red"}}]},
    {**RASHA, "effects": [{"do": "modify", "target": "u"}]},
    {**RASHA, "effects": [{"do": "modify", "target": "t", "duration": "forever"}]},
    {**RASHA, "text": ""},
    {**RASHA, "timing": "react"},
])
def test_a_record_outside_the_vocabulary_is_refused_at_load(bad: dict[str, Any]) -> None:
    with pytest.raises(ka.AbilityError):
        ka.read_ability(bad, "bad", **VOCAB)


def test_costs_compose_all_must_be_payable() -> None:
    kinds = {"bow": ka.CostKind("bow", lambda s, seat, src, a: [src] if not s["bowed"] else []),
             "gold": ka.CostKind("gold", lambda s, seat, src, a:
                                 [("m",)] if s["gold"] >= a else [])}
    costs = [("bow", "@self"), ("gold", 2)]
    assert ka.payable(kinds, costs, {"bowed": False, "gold": 2}, 0, "x")
    assert not ka.payable(kinds, costs, {"bowed": True, "gold": 2}, 0, "x")
    assert not ka.payable(kinds, costs, {"bowed": False, "gold": 1}, 0, "x")
    assert ka.choose_payment(kinds, costs, {"bowed": False, "gold": 5}, 0, "x") == ["x", ("m",)]


def test_limits_count_per_card_instance_per_turn() -> None:
    ability = ka.read_ability(RASHA, "rasha", **VOCAB)
    uses: dict[str, int] = {}
    assert not ka.spent(ability, uses, "i1", 0, 3)
    ka.record_use(uses, "i1", 0, 3)
    assert ka.spent(ability, uses, "i1", 0, 3)
    assert not ka.spent(ability, uses, "i2", 0, 3)   # another copy is another card
    assert not ka.spent(ability, uses, "i1", 0, 4)   # a new turn


def test_durations_expire_at_their_boundary_markers_do_not() -> None:
    effects = [ka.lasting("a", "i1", "modify", {"stat": "S", "amount": 2}, "end_of_battle"),
               ka.lasting("b", "i1", "modify", {"stat": "S", "amount": -1}, "end_of_turn"),
               ka.lasting("c", "i2", "modify", {"stat": "S", "amount": 1}, "while_in_play")]
    assert ka.modifier(effects, "i1", "S") == 1
    after_battle = ka.expire(effects, "battle")
    assert [e["id"] for e in after_battle] == ["b", "c"]
    assert [e["id"] for e in ka.expire(effects, "turn")] == ["c"]
    assert [e["id"] for e in ka.forget(effects, "i2")] == ["a", "b"]
    with pytest.raises(ka.AbilityError):
        ka.lasting("d", "i1", "marker", {}, "marker")


def test_zero_combines_before_the_floor() -> None:
    # Zero: a 1S hero with -2S then +3S has 2S, not 3.
    assert ka.net(1, -2, 3) == 2
    assert ka.net(1, -3) == 0


def test_the_interpreter_runs_each_step_with_its_targets() -> None:
    ability = ka.read_ability(RASHA, "rasha", **VOCAB)
    calls: list[tuple[str, list[str]]] = []
    verbs = {"modify": lambda s, ctx, step, who: calls.append((step.verb, who))}
    ka.interpret(ability, verbs, None, {}, {"t": ["i9"]}, lambda w: [])
    assert calls == [("modify", ["i9"])]
    assert ka.targets_defined(ability, ["i1", "i2"],
                              lambda c: {"type": "hero", "side": "opposing", "here": c == "i2",
                                         "keywords": []})
    assert not ka.targets_defined(ability, ["i1"], lambda c: {"type": "cohort"})
