"""The ability engine (aggregates.kernel.abilities): records read against a
game's vocabulary, the one condition grammar (and/or/not, comparisons, the
filter words your/allied/opposing/other), composed costs, limits per card and
per scope, durations the engine expires, the interpreter, and the book of
named abilities (triggers, static modifiers and keywords)."""

from __future__ import annotations

from typing import Any

import pytest

from aggregates.kernel import abilities as ka

VOCAB = ka.Vocabulary(verbs=frozenset({"modify", "draw"}), costs=frozenset({"bow", "gold"}),
                      facts=frozenset({"type", "side", "keywords", "here", "S"}),
                      events=frozenset({"Engaged"}),
                      timings=frozenset({"battle", "react"}), used=frozenset({"battle"}),
                      answering=frozenset({"react"}), default_limit="once_per_turn",
                      needs_text=True)
RASHA = {"timing": "battle", "text": "Battle: Bow: target opposing hero in this battle "
         "without Brutal gets -2S until the end of the battle.",
         "cost": [{"bow": "@self"}],
         "targets": [{"name": "t", "filter": {"type": "hero", "side": "opposing",
                                               "here": True,
                                               "keywords": {"lacks": "Brutal"}}}],
         "effects": [{"do": "modify", "params": {"stat": "S", "amount": -2}, "target": "t",
                      "duration": "end_of_battle"}]}


def test_a_filter_reads_like_the_card_text() -> None:
    ability = ka.read_ability(RASHA, "rasha", VOCAB)
    flt = ability.targets[0].filter
    base = {"type": "hero", "side": "opposing", "here": True, "keywords": ["Ord"]}
    assert ka.holds(flt, base)
    assert not ka.holds(flt, {**base, "keywords": ["Brutal"]})
    assert not ka.holds(flt, {**base, "side": "your"})
    assert not ka.holds(flt, {**base, "side": "allied"})
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
    {**RASHA, "targets": [{"name": "t", "filter": {"side": "enemy"}}]},
    {**RASHA, "condition": {"opposing": {"S": 1}}},
    {**RASHA, "limit": "twice_a_day"},
    {**RASHA, "colour": "red"},
    {**RASHA, "optional": "yes"},
])
def test_a_record_outside_the_vocabulary_is_refused_at_load(bad: dict[str, Any]) -> None:
    with pytest.raises(ka.AbilityError):
        ka.read_ability(bad, "bad", VOCAB)


def test_costs_compose_all_must_be_payable() -> None:
    kinds = {"bow": ka.CostKind("bow", lambda s, seat, src, a: [src] if not s["bowed"] else []),
             "gold": ka.CostKind("gold", lambda s, seat, src, a:
                                 [("m",)] if s["gold"] >= a else [])}
    costs = [("bow", "@self"), ("gold", 2)]
    assert ka.payable(kinds, costs, {"bowed": False, "gold": 2}, 0, "x")
    assert not ka.payable(kinds, costs, {"bowed": True, "gold": 2}, 0, "x")
    assert not ka.payable(kinds, costs, {"bowed": False, "gold": 1}, 0, "x")
    ability = ka.read_ability({**RASHA, "cost": [{"gold": 1}, {"bow": "@self"}, {"gold": 2}]},
                              "two gold costs", VOCAB)
    assert ka.cost_total(ability, "gold") == 3


def test_limits_count_per_card_instance_per_turn() -> None:
    ability = ka.read_ability(RASHA, "rasha", VOCAB)
    uses: dict[str, int] = {}
    assert not ka.spent(ability, uses, "i1/0", 3)
    ka.record_use(uses, "i1/0", 3)
    assert ka.spent(ability, uses, "i1/0", 3) and uses == {"i1/0@3": 1}
    assert not ka.spent(ability, uses, "i2/0", 3)   # another copy is another card
    assert not ka.spent(ability, uses, "i1/0", 4)   # a new turn
    twice = ka.read_ability({**RASHA, "limit": "twice_per_turn"}, "twice", VOCAB)
    assert not ka.spent(twice, uses, "i1/0", 3)
    unlimited = ka.read_ability({**RASHA, "limit": "unlimited"}, "any", VOCAB)
    assert not ka.spent(unlimited, {"i1/0@3": 9}, "i1/0", 3)


def test_durations_expire_at_their_boundary_markers_do_not() -> None:
    def lasting(eid: str, target: str, amount: int, duration: str) -> dict[str, Any]:
        return {"id": eid, "target": target, "verb": "modify",
                "params": {"stat": "S", "amount": amount}, "duration": duration}

    effects = [lasting("a", "i1", 2, "end_of_battle"), lasting("b", "i1", -1, "end_of_turn"),
               lasting("c", "i2", 1, "while_in_play")]
    assert ka.modifier(effects, "i1", "S") == 1
    after_battle = ka.expire(effects, "battle")
    assert [e["id"] for e in after_battle] == ["b", "c"]
    assert [e["id"] for e in ka.expire(effects, "turn")] == ["c"]
    assert [e["id"] for e in ka.forget(effects, "i2")] == ["a", "b"]


def test_zero_combines_before_the_floor() -> None:
    # Zero: a 1S hero with -2S then +3S has 2S, not 3.
    assert ka.net(1, -2, 3) == 2
    assert ka.net(1, -3) == 0


def test_the_interpreter_runs_each_step_with_its_targets() -> None:
    ability = ka.read_ability(RASHA, "rasha", VOCAB)
    calls: list[tuple[str, list[str]]] = []
    verbs = {"modify": lambda s, ctx, step, who: calls.append((step.verb, who))}
    ka.interpret(ability, verbs, None, {}, {"t": ["i9"]}, lambda w: [])
    assert calls == [("modify", ["i9"])]
    target = ability.targets[0]
    assert ka.candidates(target, ["i1", "i2"],
                         lambda c: {"type": "hero", "side": "opposing", "here": c == "i2",
                                    "keywords": []}) == ["i2"]
    assert ka.candidates(target, ["i1"], lambda c: {"type": "cohort"}) == []


def test_the_filter_words_are_defined_once() -> None:
    """A card's ``side`` is a filter word; "other" admits anyone's but yours;
    a game whose facts come per side asks under the word."""
    assert [ka.relation(True, False), ka.relation(False, False),
            ka.relation(False, True)] == ["your", "allied", "opposing"]
    assert ka.holds({"side": "other"}, {"side": "allied"})
    assert ka.holds({"side": "other"}, {"side": "opposing"})
    assert not ka.holds({"side": "other"}, {"side": "your"})
    armies = {"your": {"army": ["infantry"], "units": 3},
              "opposing": {"army": ["artillery"], "units": 1}}
    assert ka.holds({"your": {"army": {"has": "infantry"}}}, armies)
    assert ka.holds({"opposing": {"army": {"has": "artillery"}}}, armies)
    assert not ka.holds({"opposing": {"army": {"has": "infantry"}}}, armies)
    assert ka.holds({"other": {"units": {"max": 1}}}, armies)
    assert not ka.holds({"allied": {"units": {"min": 0}}}, armies)  # no ally in this battle
    ka.check_expr({"your": {"army": {"has": "x"}}}, "ok", frozenset(), frozenset({"army"}))
    with pytest.raises(ka.AbilityError):
        ka.check_expr({"your": {"colour": "red"}}, "bad", frozenset(), frozenset({"army"}))


WORDS = ka.Vocabulary(verbs=frozenset({"gain", "modify", "keyword"}),
                      facts=frozenset({"suit", "value"}), events=frozenset({"Claimed"}))


def book() -> ka.Book:
    records: list[dict[str, Any]] = [
        {"name": "gull", "timing": "trigger", "limit": "once_per_round",
         "when": {"event": "Claimed", "if": {"suit": "pearl"}},
         "effects": [{"do": "gain", "params": {"amount": 1}}]},
        {"name": "big", "timing": "trigger",
         "when": {"event": "Claimed", "if": {"value": {"min": 3, "max": 5}}},
         "effects": [{"do": "gain"}]},
        {"name": "odd", "timing": "trigger",
         "when": {"event": "Claimed", "if": {"value": {"in": [1, 3]}, "suit": {"not": "kelp"}}},
         "effects": [{"do": "gain"}]},
        {"name": "light", "timing": "static", "condition": {"suit": "pearl"},
         "effects": [{"do": "modify", "params": {"stat": "score", "amount": 1}}]},
        {"name": "anchor", "timing": "static",
         "effects": [{"do": "keyword", "params": {"keyword": "anchored"}}]},
    ]
    return ka.Book(ka.read_ability(r, r["name"], WORDS) for r in records)


def test_triggers_match_their_event_tests_and_force() -> None:
    abilities = book()
    names = [a.name for a in abilities.triggered("Claimed", {"suit": "pearl", "value": 3})]
    assert names == ["gull", "big", "odd"]
    assert [a.name for a in abilities.triggered("Claimed", {"suit": "kelp", "value": 1})] == []
    assert [a.name for a in abilities.triggered("Claimed", {"suit": "pearl", "value": 3},
                                                in_force=["big"])] == ["big"]
    assert abilities.triggered("Banked", {"suit": "pearl"}) == []


def test_usage_limits_are_counted_per_scope() -> None:
    abilities = book()
    gull = abilities.by_name["gull"]
    used = {ka.usage_key("gull", "round1"): 1}
    assert abilities.triggered("Claimed", {"suit": "pearl"}, in_force=["gull"], used=used,
                               scope="round1") == []
    again = abilities.triggered("Claimed", {"suit": "pearl"}, in_force=["gull"], used=used,
                                scope="round2")
    assert again == [gull] and ka.usage_key(gull.name, "round2") == "gull@round2"


def test_modifiers_and_keywords_are_derived_from_abilities_in_force() -> None:
    abilities = book()
    assert abilities.modifier("score", {"suit": "pearl"}, ["light", "light"]) == 2
    assert abilities.modifier("score", {"suit": "kelp"}, ["light"]) == 0
    assert abilities.modifier("score", {"suit": "pearl"}, []) == 0
    assert abilities.has_keyword("anchored", ["anchor"])
    assert not abilities.has_keyword("anchored", ["light"])


def test_a_book_names_each_ability_once() -> None:
    gull = book().by_name["gull"]
    with pytest.raises(ka.AbilityError):
        ka.Book([gull, gull])
    with pytest.raises(ka.AbilityError):
        ka.Book([ka.Ability("static")])
    with pytest.raises(ka.AbilityError):  # a trigger with nothing to do
        ka.read_ability({"timing": "trigger", "when": {"event": "Claimed"}}, "x", WORDS)
    with pytest.raises(ka.AbilityError):  # only a trigger waits for an event
        ka.read_ability({"timing": "static", "when": {"event": "Claimed"}}, "x", WORDS)


def test_interpret_calls_the_games_verb_and_refuses_an_unknown_one() -> None:
    gull = book().by_name["gull"]
    calls: list[Any] = []
    ka.interpret(gull, {"gain": lambda *a: calls.append(a)}, "state", {"seat": 2})
    assert calls == [("state", {"seat": 2}, gull.steps[0], [])]
    with pytest.raises(KeyError):
        ka.interpret(gull, {}, "state", {})
