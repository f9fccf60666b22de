"""Card abilities as data, and the one engine that interprets them.

After Forge's card scripts: a card's ability is a record of its *timing* (the
descriptor that says when it may be used: ``summer``, ``autumn``, ``battle``,
``raid``, ``react``; ``static`` text is always on; ``trigger`` text fires by
itself on an event), its *costs* (bow, gold, food, discard: a list that
composes), its *targets* (named, each with a filter over the card's facts:
"an opposing hero in this battle without Brutal"), a *condition* over the
state, a *limit* per card instance (once per turn unless noted), and its
*effects* (verbs with parameters, each with a *duration* the engine expires).

This module keeps what every card game repeats; a game supplies only

- ``facts``: what a filter or condition can ask of a card or of the state
  (its type, its side, where it is, its keywords...), as a dict;
- its cost kinds (how to tell that ``{"food": 1}`` can be paid, and pay it);
- its verbs (what ``modify`` or ``reduce_damage`` does to its state).

The expression language of filters and conditions (``holds``)::

    {"all": [e, ...]}  {"any": [e, ...]}  {"not": e}      -- and / or / not
    {"fact": value}                      -- the fact equals value
    {"fact": {"in": [...]}}  {"fact": {"min": n}}  {"fact": {"max": n}}
    {"fact": {"has": x}}     {"fact": {"lacks": x}}       -- list membership
    {"fact": {"not": value}}

A leaf with several keys is their *and*.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, MutableMapping, Sequence
from typing import Any

TIMINGS = ("summer", "autumn", "battle", "raid", "react", "spring", "winter",
           "static", "trigger")
#: Timings a player *uses* (descriptor abilities): once per turn, unbowed only.
USED = frozenset({"summer", "autumn", "battle", "raid", "react"})
#: How long an effect lasts; the engine ends each at its boundary.
DURATIONS = ("instant", "end_of_battle", "end_of_raid", "end_of_phase", "end_of_turn",
             "marker", "while_in_play")
#: Scopes whose end expires an effect of that duration (turn end ends all but markers).
BOUNDARIES: dict[str, frozenset[str]] = {
    "battle": frozenset({"end_of_battle"}),
    "raid": frozenset({"end_of_raid"}),
    "phase": frozenset({"end_of_phase"}),
    "turn": frozenset({"end_of_battle", "end_of_raid", "end_of_phase", "end_of_turn"}),
}
LIMITS = ("once_per_turn", "twice_per_turn", "unlimited")
_LIMIT_TIMES = {"once_per_turn": 1, "twice_per_turn": 2}


class AbilityError(ValueError):
    """An ability record that the engine cannot interpret."""


Expr = Mapping[str, Any]
Facts = Callable[[str], Mapping[str, Any]]


# ------------------------------------------------------------- the language

def holds(expr: Expr | None, facts: Mapping[str, Any]) -> bool:
    """Whether ``expr`` is true of ``facts`` (an empty or missing expr is true)."""
    if not expr:
        return True
    if "all" in expr:
        return all(holds(e, facts) for e in expr["all"])
    if "any" in expr:
        return any(holds(e, facts) for e in expr["any"])
    if "not" in expr and len(expr) == 1:
        return not holds(expr["not"], facts)
    return all(_leaf(facts.get(k), want) for k, want in expr.items())


def _leaf(value: Any, want: Any) -> bool:
    if not isinstance(want, Mapping):
        return bool(value == want)
    if "in" in want and value not in want["in"]:
        return False
    if "min" in want and (value is None or value < want["min"]):
        return False
    if "max" in want and (value is None or value > want["max"]):
        return False
    if "has" in want and (value is None or want["has"] not in value):
        return False
    if "lacks" in want and value is not None and want["lacks"] in value:
        return False
    return not ("not" in want and value == want["not"])


def check_expr(expr: Any, where: str, known: frozenset[str]) -> None:
    """Refuse an expression naming a fact the game does not provide."""
    if expr is None:
        return
    if not isinstance(expr, Mapping):
        raise AbilityError(f"{where}: an expression is an object, not {expr!r}")
    for key, value in expr.items():
        if key in ("all", "any"):
            if not isinstance(value, list):
                raise AbilityError(f"{where}: {key} takes a list")
            for e in value:
                check_expr(e, where, known)
        elif key == "not" and len(expr) == 1:
            check_expr(value, where, known)
        elif key not in known:
            raise AbilityError(f"{where}: unknown fact {key!r}")


# ----------------------------------------------------------------- records

@dataclasses.dataclass(frozen=True)
class Target:
    """A named target: ``count`` cards chosen among those the filter admits."""

    name: str
    filter: Mapping[str, Any]
    count: int = 1


@dataclasses.dataclass(frozen=True)
class Step:
    """One effect of an ability: a verb, its parameters, its target, its duration."""

    verb: str
    params: Mapping[str, Any]
    target: str = ""          # a target's name, or a game word: "self", "host", "you"
    duration: str = "instant"


@dataclasses.dataclass(frozen=True)
class Ability:
    """One ability of a card as data."""

    timing: str
    text: str
    costs: tuple[tuple[str, Any], ...] = ()
    targets: tuple[Target, ...] = ()
    condition: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    when: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    steps: tuple[Step, ...] = ()
    limit: str = "once_per_turn"

    @property
    def used(self) -> bool:
        """A descriptor ability, used by a player (rather than always on)."""
        return self.timing in USED


_ABILITY_KEYS = frozenset({"timing", "text", "cost", "targets", "condition", "when",
                           "effects", "limit"})
_STEP_KEYS = frozenset({"do", "target", "duration"})


def read_ability(raw: Mapping[str, Any], where: str, *, verbs: frozenset[str],
                 costs: frozenset[str], facts: frozenset[str],
                 events: frozenset[str] = frozenset()) -> Ability:
    """Read and validate one ability record against the game's vocabulary.

    ``verbs``, ``costs`` and ``facts`` are the words the game interprets; a
    record using any other is refused here, at load, never mid-game.
    """
    unknown = set(raw) - _ABILITY_KEYS
    if unknown:
        raise AbilityError(f"{where}: unknown field(s) {sorted(unknown)}")
    timing = raw.get("timing")
    if timing not in TIMINGS:
        raise AbilityError(f"{where}: unknown timing {timing!r}")
    text = raw.get("text")
    if not isinstance(text, str) or not text:
        raise AbilityError(f"{where}: every ability has its designed text")
    cost_list: list[tuple[str, Any]] = []
    for item in raw.get("cost", []):
        if not isinstance(item, Mapping) or len(item) != 1:
            raise AbilityError(f"{where}: a cost is one {{kind: amount}} pair, not {item!r}")
        ((kind, amount),) = item.items()
        if kind not in costs:
            raise AbilityError(f"{where}: unknown cost kind {kind!r}")
        cost_list.append((kind, amount))
    targets = []
    for t in raw.get("targets", []):
        name, flt = t.get("name"), t.get("filter", {})
        if not isinstance(name, str) or not name:
            raise AbilityError(f"{where}: a target has a name")
        check_expr(flt, f"{where} target {name}", facts)
        targets.append(Target(name, flt, int(t.get("count", 1))))
    check_expr(raw.get("condition"), f"{where} condition", facts)
    when = dict(raw.get("when", {}))
    if timing in ("react", "trigger"):
        if when.get("event") not in events:
            raise AbilityError(f"{where}: a {timing} names the event it answers, "
                               f"one of {sorted(events)}")
        check_expr(when.get("if"), f"{where} when", facts)
    elif when:
        raise AbilityError(f"{where}: only a react or a trigger has 'when'")
    names = {t.name for t in targets}
    steps = []
    for s in raw.get("effects", []):
        extra = set(s) - _STEP_KEYS - {"params"}
        if extra:
            raise AbilityError(f"{where}: unknown effect field(s) {sorted(extra)}")
        verb = s.get("do")
        if verb not in verbs:
            raise AbilityError(f"{where}: unknown verb {verb!r}")
        duration = s.get("duration", "instant")
        if duration not in DURATIONS:
            raise AbilityError(f"{where}: unknown duration {duration!r}")
        target = s.get("target", "")
        if target and target not in names and not target.startswith("@"):
            raise AbilityError(f"{where}: effect target {target!r} is not declared")
        steps.append(Step(verb, dict(s.get("params", {})), target, duration))
    if not steps and timing != "static":
        raise AbilityError(f"{where}: an ability does something")
    limit = raw.get("limit", "once_per_turn")
    if limit not in LIMITS:
        raise AbilityError(f"{where}: unknown limit {limit!r}")
    return Ability(timing, text, tuple(cost_list), tuple(targets),
                   dict(raw.get("condition", {})), when, tuple(steps), limit)


# ------------------------------------------------------------------ limits

def usage_key(instance: str, index: int, turn: int) -> str:
    """Uses are counted per card instance, per ability, per turn."""
    return f"{instance}/{index}@{turn}"


def spent(ability: Ability, uses: Mapping[str, int], instance: str, index: int,
          turn: int) -> bool:
    """Whether this instance has used this ability as often as its limit allows."""
    times = _LIMIT_TIMES.get(ability.limit)
    return times is not None and uses.get(usage_key(instance, index, turn), 0) >= times


def record_use(uses: MutableMapping[str, int], instance: str, index: int, turn: int) -> None:
    key = usage_key(instance, index, turn)
    uses[key] = uses.get(key, 0) + 1


# ------------------------------------------------------------------- costs

@dataclasses.dataclass(frozen=True)
class CostKind:
    """How a game tells a cost can be paid and what paying it takes.

    ``options(state, seat, source, amount)`` lists the ways to pay it (each a
    JSON-ready choice: which producers bow, which castle's food, which card is
    discarded); an empty list means it cannot be paid.
    """

    name: str
    options: Callable[[Any, int, str, Any], list[Any]]


def payable(kinds: Mapping[str, CostKind], costs: Sequence[tuple[str, Any]], state: Any,
            seat: int, source: str) -> bool:
    """Costs compose: all of them must be payable for the ability to be used."""
    return all(kinds[k].options(state, seat, source, amount) for k, amount in costs)


def choose_payment(kinds: Mapping[str, CostKind], costs: Sequence[tuple[str, Any]],
                   state: Any, seat: int, source: str,
                   chosen: Sequence[Any] | None = None) -> list[Any] | None:
    """A payment for each cost in order: the chosen one when it is among the
    options, else the first option; None when any cost cannot be paid."""
    out = []
    for i, (kind, amount) in enumerate(costs):
        options = kinds[kind].options(state, seat, source, amount)
        if not options:
            return None
        pick = chosen[i] if chosen is not None and i < len(chosen) else None
        if pick is not None and pick not in options:
            return None
        out.append(pick if pick is not None else options[0])
    return out


# --------------------------------------------------------------- durations

def lasting(effect_id: str, target: str, verb: str, params: Mapping[str, Any],
            duration: str) -> dict[str, Any]:
    """A change in force until its duration ends (derived on read, never baked in)."""
    if duration not in DURATIONS or duration in ("instant", "marker"):
        raise AbilityError(f"{duration!r} is not a lasting duration")
    return {"id": effect_id, "target": target, "verb": verb, "params": dict(params),
            "duration": duration}


def expire(effects: Iterable[Mapping[str, Any]], boundary: str) -> list[dict[str, Any]]:
    """The lasting effects that survive the end of ``boundary`` (battle, raid,
    phase, turn). Markers are not lasting effects: they stay on their card."""
    ends = BOUNDARIES[boundary]
    return [dict(e) for e in effects if e["duration"] not in ends]


def forget(effects: Iterable[Mapping[str, Any]], instance: str) -> list[dict[str, Any]]:
    """Card memory: a card that leaves play loses every effect on it."""
    return [dict(e) for e in effects if e["target"] != instance]


def modifier(effects: Iterable[Mapping[str, Any]], instance: str, stat: str,
             verb: str = "modify") -> int:
    """The net of the lasting ``modify`` effects on one stat of one instance."""
    return sum(int(e["params"].get("amount", 0)) for e in effects
               if e["target"] == instance and e["verb"] == verb
               and e["params"].get("stat") == stat)


def net(printed: int, *changes: int) -> int:
    """The rulebook's Zero: combine every raise and lower, then floor at zero."""
    return max(0, printed + sum(changes))


# -------------------------------------------------------------- targeting

def candidates(target: Target, pool: Iterable[str], facts: Facts) -> list[str]:
    """The instances ``target``'s filter admits, from a pool, in pool order."""
    return [iid for iid in pool if holds(target.filter, facts(iid))]


def targets_defined(ability: Ability, pool: Iterable[str], facts: Facts) -> bool:
    """Targeting and legality: each target must be definable before use."""
    pool = list(pool)
    return all(len(candidates(t, pool, facts)) >= t.count for t in ability.targets)


Verb = Callable[[Any, Mapping[str, Any], Step, list[str]], None]


def interpret(ability: Ability, verbs: Mapping[str, Verb], state: Any,
              context: Mapping[str, Any], chosen: Mapping[str, Sequence[str]],
              resolve_word: Callable[[str], list[str]]) -> None:
    """Carry out an ability's effects in order: each verb gets its step and the
    instances its target names (a declared target's chosen cards, or the game's
    meaning of a word such as ``@self``). Targets fixed before use are used even
    if they have left play since; a verb skips what no longer applies."""
    for step in ability.steps:
        if not step.target:
            who: list[str] = []
        elif step.target.startswith("@"):
            who = resolve_word(step.target)
        else:
            who = list(chosen.get(step.target, ()))
        verbs[step.verb](state, context, step, who)
