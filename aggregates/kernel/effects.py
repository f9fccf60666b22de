"""Effects as data: abilities are records one engine reads, not code per card.

After Forge's card scripts: an ability is a record of *when* it applies (a
``trigger``: a domain event such as ``BandPlayed``, or a timing window such as
``start_of_battle``), *whether* (a ``condition``: field tests on the trigger's
facts), what it *costs*, whom it *targets*, how often it may be used (a
``limit``: once per turn, battle, round or age), how long it lasts
(``duration``), and the ``change`` it makes (a verb the game defines, such as
``place_marker`` or ``gain_gold``, with its ``params``). Keywords with no
trigger (Swift, Stealth, Protected) are ``static`` effects that *modify*:
they are read while in force and never written into state.

The game keeps the verbs (what ``place_marker`` does is its rule); the kernel
keeps the bookkeeping every game repeats: matching triggers and conditions,
usage limits, and summing modifiers from the effects in force.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from typing import Any

#: Usage limits and the scope whose change resets them.
LIMITS = ("", "once_per_turn", "once_per_battle", "once_per_round", "once_per_age",
          "once_per_game")
#: How long a change lasts once made.
DURATIONS = ("instant", "until_end_of_turn", "until_end_of_battle", "until_end_of_round",
             "until_end_of_age", "while_in_play", "static")


@dataclasses.dataclass(frozen=True)
class Effect:
    """One ability as data.

    ``condition`` maps a fact name to a required value, or to a test
    ``{"min": a}``, ``{"max": b}``, ``{"in": [...]}``, ``{"not": v}``.
    ``cost`` and ``targets`` are the game's words (``"retire_self"``,
    ``"enemy_troop_in_battle"``), resolved by the game's verbs.
    """

    name: str
    change: str
    trigger: str = ""
    condition: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    cost: str = ""
    targets: str = ""
    limit: str = ""
    duration: str = "instant"
    optional: bool = False
    params: Mapping[str, Any] = dataclasses.field(default_factory=dict)
    text: str = ""

    def __post_init__(self) -> None:
        if self.limit not in LIMITS:
            raise ValueError(f"{self.name}: unknown limit {self.limit!r}")
        if self.duration not in DURATIONS:
            raise ValueError(f"{self.name}: unknown duration {self.duration!r}")
        if not self.trigger and self.duration != "static":
            raise ValueError(f"{self.name}: an effect with no trigger must be static")

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Effect:
        """Read one effect from a data file, refusing unknown fields."""
        fields = {f.name for f in dataclasses.fields(cls)}
        unknown = set(data) - fields
        if unknown:
            raise ValueError(f"effect {data.get('name')!r}: unknown field(s) {sorted(unknown)}")
        return cls(**dict(data))

    def applies(self, facts: Mapping[str, Any]) -> bool:
        """Whether the condition holds for these facts."""
        return all(_test(facts.get(k), want) for k, want in self.condition.items())

    def usage_key(self, scope: str) -> str:
        """The key under which a use is counted in ``scope`` (turn 3, battle 2...)."""
        return f"{self.name}@{scope}"


def _test(value: Any, want: Any) -> bool:
    if isinstance(want, Mapping):
        if "min" in want and (value is None or value < want["min"]):
            return False
        if "max" in want and (value is None or value > want["max"]):
            return False
        if "in" in want and value not in want["in"]:
            return False
        return not ("not" in want and value == want["not"])
    return bool(value == want)


class EffectBook:
    """Every effect a game's content declares, looked up by trigger."""

    def __init__(self, effects: Iterable[Effect]) -> None:
        self.effects = list(effects)
        names = [e.name for e in self.effects]
        if len(set(names)) != len(names):
            raise ValueError("two effects share a name")
        self.by_name = {e.name: e for e in self.effects}

    def triggered(self, trigger: str, facts: Mapping[str, Any],
                  in_force: Iterable[str] | None = None,
                  used: Mapping[str, int] | None = None, scope: str = "") -> list[Effect]:
        """The effects that fire on ``trigger`` with these facts, in declaration
        order: in force (when a list of names is given), condition true, and not
        spent under their usage limit in ``scope``."""
        allowed = None if in_force is None else set(in_force)
        out = []
        for e in self.effects:
            if e.trigger != trigger or (allowed is not None and e.name not in allowed):
                continue
            if not e.applies(facts):
                continue
            if e.limit and used is not None and used.get(e.usage_key(scope), 0) >= 1:
                continue
            out.append(e)
        return out

    def modifier(self, stat: str, facts: Mapping[str, Any], in_force: Iterable[str]) -> int:
        """The sum of ``modify`` changes to ``stat`` from the effects in force
        whose condition holds: derived each time, never stored."""
        total = 0
        for name in in_force:
            e = self.by_name.get(name)
            if e is None or e.change != "modify" or e.params.get("stat") != stat:
                continue
            if e.applies(facts):
                total += int(e.params.get("amount", 0))
        return total

    def has_keyword(self, keyword: str, in_force: Iterable[str],
                    facts: Mapping[str, Any] | None = None) -> bool:
        """Whether a static keyword (Swift, Stealth...) is among the effects in
        force (and, given facts, whose condition holds for them)."""
        return any(
            (e := self.by_name.get(n)) is not None and e.change == "keyword"
            and e.params.get("keyword") == keyword
            and (facts is None or e.applies(facts))
            for n in in_force
        )


Verb = Callable[[Any, int, Effect, Mapping[str, Any]], None]


def resolve(verbs: Mapping[str, Verb], state: Any, seat: int, effect: Effect,
            facts: Mapping[str, Any]) -> None:
    """Carry out one triggered effect with the game's verb for its change."""
    verb = verbs.get(effect.change)
    if verb is None:
        raise KeyError(f"no verb for change {effect.change!r} (effect {effect.name})")
    verb(state, seat, effect, facts)
