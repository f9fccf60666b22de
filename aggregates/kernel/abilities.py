"""The ability engine: every game's abilities are records this one module reads.

After Forge's card scripts: an ability is data, never code per card. One
record shape serves every game::

    {"name": "gull", "text": "...",      -- what the game calls it; its words
     "keyword": "scouting",              -- the keyword ability it is, if one
     "timing": "summer",                 -- a game's timing, "trigger" (fires by
                                         --   itself on an event) or "static"
     "when": {"event": "Claimed", "if": e},  -- what a trigger (or an answer) awaits
     "condition": e,                     -- must hold of the state to use it
     "cost": [{"gold": 2}, {"bow": "@self"}],  -- composes: every one is paid
     "targets": [{"name": "foe", "filter": e, "count": 1}],
     "effects": [{"do": "modify", "params": {...}, "target": "foe",
                  "duration": "end_of_battle"}],
     "limit": "once_per_turn", "optional": true}  -- uses per scope; may decline

A game supplies its ``Vocabulary`` (timings, verbs, cost kinds, facts,
events: a record naming any other word is refused at load), the facts each
test reads, its cost kinds' payment options and its verbs (what ``modify``
does to its state). The rest is here, once: the grammar, the filter words,
usage limits, composed costs, lasting effects and their expiry, targeting,
the interpreter, and the ``Book`` of a game's named abilities.

The one condition grammar (``holds``), for conditions, ``when.if`` and
target filters alike; a leaf with several keys is their *and*::

    {"all": [e, ...]}  {"any": [e, ...]}  {"not": e}      -- and / or / not
    {"fact": value}                      -- the fact equals value
    {"fact": {"in": [...]}}  {"fact": {"min": n}}  {"fact": {"max": n}}
    {"fact": {"has": x}}     {"fact": {"lacks": x}}  {"fact": {"not": v}}
    {"your": e}  {"opposing": e}  {"allied": e}  {"other": e}
                                         -- e holds of that side's facts

The filter words (``RELATIONS``) say how a card or a side stands to the seat
using the ability: ``your`` its own, ``allied`` another player's on its side,
``opposing`` the other side's, ``other`` anyone's but its own. A card's is
its ``side`` fact (``{"side": "opposing"}``); a game whose facts come per
side (a battle's two armies) scopes a test with the word.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, MutableMapping, Sequence
from typing import Any

# ------------------------------------------------------------ the words

#: How a card or a side stands to the seat using an ability.
RELATIONS = ("your", "allied", "opposing", "other")
#: The relations each filter word admits ("other": anyone's but yours).
_ADMITS = {"your": frozenset({"your"}), "allied": frozenset({"allied"}),
           "opposing": frozenset({"opposing"}), "other": frozenset({"allied", "opposing"})}
#: The fact naming a card's relation to the seat (its value is a filter word).
SIDE = "side"
#: Timings every game has: text that fires by itself, and text always on.
TRIGGER, STATIC = "trigger", "static"
#: Usage limits: how many uses per card (or per name) in one scope; None: any.
LIMITS: dict[str, int | None] = {
    "once_per_turn": 1, "twice_per_turn": 2, "once_per_battle": 1, "once_per_round": 1,
    "once_per_age": 1, "once_per_game": 1, "unlimited": None,
}
#: How long a change lasts; the engine ends each at its boundary.
DURATIONS = ("instant", "end_of_battle", "end_of_raid", "end_of_phase", "end_of_turn",
             "marker", "while_in_play")
#: Scopes whose end expires a lasting change (a turn's end ends all but markers).
BOUNDARIES: dict[str, frozenset[str]] = {
    "battle": frozenset({"end_of_battle"}), "raid": frozenset({"end_of_raid"}),
    "phase": frozenset({"end_of_phase"}),
    "turn": frozenset({"end_of_battle", "end_of_raid", "end_of_phase", "end_of_turn"})}


class AbilityError(ValueError):
    """An ability record that the engine cannot interpret."""


Expr = Mapping[str, Any]
Facts = Callable[[str], Mapping[str, Any]]


def relation(yours: bool, opposed: bool) -> str:
    """The filter word for a card or side: opposing wins over yours (a seat is
    never opposed to itself), an unopposed other player's is allied."""
    return "opposing" if opposed else "your" if yours else "allied"


# ------------------------------------------------------------- the grammar

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
    return all(_scoped(facts, k, want) if k in _ADMITS else _leaf(k, facts.get(k), want)
               for k, want in expr.items())


def _scoped(facts: Mapping[str, Any], word: str, expr: Expr) -> bool:
    """``{"opposing": e}``: e holds of some side the word admits."""
    return any(holds(expr, facts[side]) for side in sorted(_ADMITS[word])
               if isinstance(facts.get(side), Mapping))


def _leaf(key: str, value: Any, want: Any) -> bool:
    if not isinstance(want, Mapping):
        if key == SIDE and want in _ADMITS:
            return value in _ADMITS[want]
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


def check_expr(expr: Any, where: str, known: frozenset[str],
               sided: frozenset[str] = frozenset()) -> None:
    """Refuse an expression naming a fact the game does not provide (``sided``:
    the facts a game gives per side, asked under a filter word)."""
    if expr is None:
        return
    if not isinstance(expr, Mapping):
        raise AbilityError(f"{where}: an expression is an object, not {expr!r}")
    for key, value in expr.items():
        if key in ("all", "any"):
            if not isinstance(value, list):
                raise AbilityError(f"{where}: {key} takes a list")
            for e in value:
                check_expr(e, where, known, sided)
        elif key == "not" and len(expr) == 1:
            check_expr(value, where, known, sided)
        elif key in _ADMITS:
            if not sided:
                raise AbilityError(f"{where}: these facts do not come per side ({key!r})")
            check_expr(value, f"{where} ({key})", sided)
        elif key not in known:
            raise AbilityError(f"{where}: unknown fact {key!r}")
        elif key == SIDE and not isinstance(value, Mapping) and value not in _ADMITS:
            raise AbilityError(f"{where}: a side is one of {RELATIONS}, not {value!r}")


def leaves(expr: Expr | None, scope: str = "") -> Iterable[tuple[str, str, Any]]:
    """Every test of an expression as (side word or "", fact, wanted): what a
    game checks of the values its words cannot (a unit type is one it knows)."""
    for key, value in (expr or {}).items():
        if key in ("all", "any"):
            for e in value:
                yield from leaves(e, scope)
        elif key == "not" and len(expr or {}) == 1:
            yield from leaves(value, scope)
        elif key in _ADMITS:
            yield from leaves(value, key)
        else:
            yield scope, key, value


# ----------------------------------------------------------------- records

@dataclasses.dataclass(frozen=True)
class Target:
    """A named target: ``count`` cards chosen among those the filter admits
    (a negative count: every card it admits)."""

    name: str
    filter: Mapping[str, Any]
    count: int = 1


@dataclasses.dataclass(frozen=True)
class Step:
    """One effect of an ability: a verb, its parameters, its target, its duration."""

    verb: str
    params: Mapping[str, Any]
    target: str = ""          # a target's name, or a game word: "@self", "@host"...
    duration: str = "instant"


@dataclasses.dataclass(frozen=True)
class Ability:
    """One ability as data."""

    timing: str
    text: str = ""
    name: str = ""
    costs: tuple[tuple[str, Any], ...] = ()
    targets: tuple[Target, ...] = ()
    condition: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    when: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    steps: tuple[Step, ...] = ()
    limit: str = "unlimited"
    optional: bool = False
    used: bool = False        # a player uses it (rather than it firing or being on)
    #: The keyword ability it is, of any timing (Forge's keywords: Flying is
    #: always on, Prowess fires by itself); "" for an ability of its own words.
    keyword: str = ""

    @property
    def event(self) -> str:
        """The event a trigger (or an answering timing) waits for ("" for none)."""
        return str(self.when.get("event", ""))

    @property
    def verb(self) -> str:
        """The first effect's verb: what a one-effect ability does."""
        return self.steps[0].verb if self.steps else ""

    @property
    def params(self) -> Mapping[str, Any]:
        """The first effect's parameters."""
        return self.steps[0].params if self.steps else {}

    def applies(self, facts: Mapping[str, Any]) -> bool:
        """Whether what it waits for and its condition hold of these facts."""
        return holds(self.when.get("if"), facts) and holds(self.condition, facts)


@dataclasses.dataclass(frozen=True)
class Vocabulary:
    """The words a game's ability records may use: any other is refused at load.

    ``used``: the timings a player uses (once per turn unless noted, by
    default); ``answering``: timings that wait for an event, as a trigger does
    (a React); ``sided``: the facts a game gives per side (under a filter word).
    """

    verbs: frozenset[str]
    facts: frozenset[str] = frozenset()
    timings: frozenset[str] = frozenset()
    used: frozenset[str] = frozenset()
    answering: frozenset[str] = frozenset()
    costs: frozenset[str] = frozenset()
    events: frozenset[str] = frozenset()
    sided: frozenset[str] = frozenset()
    default_limit: str = "unlimited"
    needs_text: bool = False


_ABILITY_KEYS = frozenset({"name", "timing", "text", "cost", "targets", "condition", "when",
                           "effects", "limit", "optional", "keyword"})
_STEP_KEYS = frozenset({"do", "target", "duration", "params"})


def read_ability(raw: Mapping[str, Any], where: str, words: Vocabulary) -> Ability:
    """Read and validate one ability record against the game's vocabulary, at
    load: a record the engine could not interpret never reaches a game."""
    if not isinstance(raw, Mapping):
        raise AbilityError(f"{where}: an ability is an object, not {raw!r}")
    unknown = set(raw) - _ABILITY_KEYS
    if unknown:
        raise AbilityError(f"{where}: unknown field(s) {sorted(unknown)}")
    timing = raw.get("timing")
    if timing not in words.timings | {TRIGGER, STATIC}:
        raise AbilityError(f"{where}: unknown timing {timing!r}")
    text = raw.get("text", "")
    if not isinstance(text, str) or (words.needs_text and not text):
        raise AbilityError(f"{where}: every ability has its designed text")
    costs = _costs(raw.get("cost", []), where, words)
    targets = []
    for t in raw.get("targets", []):
        name, flt = t.get("name"), t.get("filter", {})
        if not isinstance(name, str) or not name:
            raise AbilityError(f"{where}: a target has a name")
        check_expr(flt, f"{where} target {name}", words.facts, words.sided)
        targets.append(Target(name, flt, int(t.get("count", 1))))
    check_expr(raw.get("condition"), f"{where} condition", words.facts, words.sided)
    when = dict(raw.get("when", {}))
    if timing == TRIGGER or timing in words.answering:
        if when.get("event") not in words.events:
            raise AbilityError(f"{where}: a {timing} names the event it answers, "
                               f"one of {sorted(words.events)}")
        check_expr(when.get("if"), f"{where} when", words.facts, words.sided)
    elif when:
        raise AbilityError(f"{where}: only a trigger or an answer has 'when'")
    steps = _steps(raw.get("effects", []), where, words, {t.name for t in targets})
    if not steps and timing != STATIC:
        raise AbilityError(f"{where}: an ability does something")
    limit = raw.get("limit", words.default_limit)
    if limit not in LIMITS:
        raise AbilityError(f"{where}: unknown limit {limit!r}")
    optional = raw.get("optional", False)
    if not isinstance(optional, bool):
        raise AbilityError(f"{where}: optional is true or false")
    keyword = raw.get("keyword", "")
    if not isinstance(keyword, str):
        raise AbilityError(f"{where}: a keyword is a word, not {keyword!r}")
    return Ability(timing, text, str(raw.get("name", "")), costs, tuple(targets),
                   dict(raw.get("condition", {})), when, steps, limit, optional,
                   timing in words.used, keyword)


def _costs(raw: Any, where: str, words: Vocabulary) -> tuple[tuple[str, Any], ...]:
    out: list[tuple[str, Any]] = []
    for item in raw:
        if not isinstance(item, Mapping) or len(item) != 1:
            raise AbilityError(f"{where}: a cost is one {{kind: amount}} pair, not {item!r}")
        ((kind, amount),) = item.items()
        if kind not in words.costs:
            raise AbilityError(f"{where}: unknown cost kind {kind!r}")
        out.append((kind, amount))
    return tuple(out)


def _steps(raw: Any, where: str, words: Vocabulary, names: set[str]) -> tuple[Step, ...]:
    steps = []
    for s in raw:
        extra = set(s) - _STEP_KEYS
        if extra:
            raise AbilityError(f"{where}: unknown effect field(s) {sorted(extra)}")
        verb = s.get("do")
        if verb not in words.verbs:
            raise AbilityError(f"{where}: unknown verb {verb!r}")
        duration = s.get("duration", "instant")
        if duration not in DURATIONS:
            raise AbilityError(f"{where}: unknown duration {duration!r}")
        target = s.get("target", "")
        if target and target not in names and not target.startswith("@"):
            raise AbilityError(f"{where}: effect target {target!r} is not declared")
        steps.append(Step(verb, dict(s.get("params", {})), target, duration))
    return tuple(steps)


# ------------------------------------------------------------------ limits

def usage_key(who: str, scope: Any) -> str:
    """Uses are counted per user (a card instance's ability, or a name) per scope."""
    return f"{who}@{scope}"


def spent(ability: Ability, uses: Mapping[str, int], who: str, scope: Any) -> bool:
    """Whether ``who`` has used this ability as often as its limit allows in ``scope``."""
    times = LIMITS[ability.limit]
    return times is not None and uses.get(usage_key(who, scope), 0) >= times


def record_use(uses: MutableMapping[str, int], who: str, scope: Any) -> None:
    key = usage_key(who, scope)
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


def cost_total(ability: Ability, kind: str) -> int:
    """The sum of an ability's costs of one kind (two gold costs are one payment)."""
    return sum(int(a) for k, a in ability.costs if k == kind)


# --------------------------------------------------------------- durations

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
    """Zero: combine every raise and lower, then floor at zero."""
    return max(0, printed + sum(changes))


# -------------------------------------------------------------- targeting

def candidates(target: Target, pool: Iterable[str], facts: Facts) -> list[str]:
    """The instances ``target``'s filter admits, from a pool, in pool order."""
    return [iid for iid in pool if holds(target.filter, facts(iid))]


#: A game's verb: (state, the use's context, the effect, the instances it
#: targets) -> its result: None for a verb that records its own events, or
#: what it decided (dice rolled, strength added) for the use's event to state.
Verb = Callable[[Any, Mapping[str, Any], Step, list[str]], Any]


def interpret(ability: Ability, verbs: Mapping[str, Verb], state: Any,
              context: Mapping[str, Any], chosen: Mapping[str, Sequence[str]] | None = None,
              resolve_word: Callable[[str], list[str]] | None = None) -> list[Any]:
    """Carry out an ability's effects in order: each verb gets its step and the
    instances its target names (a declared target's chosen cards, or the game's
    meaning of a word such as ``@self``). Targets fixed before use are used even
    if they have left play since; a verb skips what no longer applies. Returns
    the verbs' results, one an effect, for a game that records an ability's
    use and what it decided as one event."""
    results: list[Any] = []
    for step in ability.steps:
        if not step.target:
            who: list[str] = []
        elif step.target.startswith("@"):
            who = resolve_word(step.target) if resolve_word is not None else []
        else:
            who = list((chosen or {}).get(step.target, ()))
        verb = verbs.get(step.verb)
        if verb is None:
            raise KeyError(f"no verb for {step.verb!r} ({ability.name or ability.text})")
        results.append(verb(state, context, step, who))
    return results


# -------------------------------------------------------------- the book

class Book:
    """A game's named abilities, looked up by the event they wait for; static
    modifiers and keywords summed from those in force, derived on each read."""

    def __init__(self, abilities: Iterable[Ability]) -> None:
        self.abilities = list(abilities)
        names = [a.name for a in self.abilities]
        if not all(names) or len(set(names)) != len(names):
            raise AbilityError("every ability in a book has a name of its own")
        self.by_name = {a.name: a for a in self.abilities}

    def triggered(self, event: str, facts: Mapping[str, Any],
                  in_force: Iterable[str] | None = None,
                  used: Mapping[str, int] | None = None, scope: Any = "") -> list[Ability]:
        """The triggers that fire on ``event`` with these facts, in declaration
        order: in force (when a list of names is given), their tests true, and
        not spent under their usage limit in ``scope``."""
        allowed = None if in_force is None else set(in_force)
        return [a for a in self.abilities
                if a.timing == TRIGGER and a.event == event
                and (allowed is None or a.name in allowed) and a.applies(facts)
                and not (used is not None and spent(a, used, a.name, scope))]

    def modifier(self, stat: str, facts: Mapping[str, Any], in_force: Iterable[str]) -> int:
        """The sum of static ``modify`` changes to ``stat`` from the abilities in
        force whose condition holds."""
        return sum(int(s.params.get("amount", 0))
                   for a in self._static(in_force, facts) for s in a.steps
                   if s.verb == "modify" and s.params.get("stat") == stat)

    def has_keyword(self, keyword: str, in_force: Iterable[str],
                    facts: Mapping[str, Any] | None = None) -> bool:
        """Whether a keyword is among the abilities in force: one that is that
        keyword ability (its record's ``keyword``, of any timing), or a static
        one granting it (a ``keyword`` effect); given facts, only those whose
        condition holds for them."""
        names = list(in_force)
        return any(a.keyword == keyword and (facts is None or holds(a.condition, facts))
                   for n in names if (a := self.by_name.get(n)) is not None) or any(
            s.verb == "keyword" and s.params.get("keyword") == keyword
            for a in self._static(names, facts) for s in a.steps)

    def _static(self, in_force: Iterable[str], facts: Mapping[str, Any] | None
                ) -> list[Ability]:
        return [a for n in in_force
                if (a := self.by_name.get(n)) is not None and a.timing == STATIC
                and (facts is None or holds(a.condition, facts))]
