"""Rules versions of Romance of the Nine Empires that record fewer events, the
rules unchanged: each later version records the rulebook's facts alone where
the one before also recorded the engine's progress, and derives who is asked
from the facts.

- 1.4.0 (``v1.NineEmpiresV1_4``) against 1.3.0 (``v1.NineEmpiresV1_3``): no
  ``ImmunityStep``, ``AbsorbStep`` (Engaging and Damage: who declares immunity
  and who absorbs).
- 1.5.0 (``v1.NineEmpiresV1_5``) against 1.4.0: no ``PhaseBegan``,
  ``WinterBegan``, ``RedistributionBegan``, ``HandSizeChecked`` (Turn Order and
  the Winter Phase: the phases' beginnings, who redistributes food, who
  discards down).
- 1.6.0 (``v1.NineEmpiresV1_6``) against 1.5.0: no ``AbilityResolved``,
  ``EngagementResolved`` (More on Using Abilities: an ability resolves once
  every React to it is answered; Engaging and Damage: "until all damage is
  absorbed"); the damage left unabsorbed is the last ``DamageAbsorbed``'s
  ``remaining``, or the engagement's damage when nothing absorbed it.

One seed and the same choices played by both of a pair: the same seats asked,
the same legal lists (and, from 1.4.0 against 1.5.0 on, the same public views)
after every command, the same facts less those events, the same outcome; each
record re-executes by its own version, and the earlier record would not
re-execute by the later version's rules."""

from __future__ import annotations

import functools
import random
from typing import Any

import pytest

from aggregates import catalog
from aggregates.kernel.record.audit import record_of
from aggregates.kernel.record.verify import verify_records
from aggregates.nine_empires import NineEmpires
from aggregates.nine_empires.state import EARLIER_BY_VERSION
from aggregates.nine_empires.v1 import (
    NineEmpiresV1_3,
    NineEmpiresV1_4,
    NineEmpiresV1_5,
    NineEmpiresV1_6,
)

ALL = catalog.registry((NineEmpiresV1_3, NineEmpiresV1_4, NineEmpiresV1_5, NineEmpiresV1_6))
#: Each pair of versions, and the events the later no longer records.
DROPPED: dict[tuple[type[NineEmpires], type[NineEmpires]], frozenset[str]] = {
    (NineEmpiresV1_3, NineEmpiresV1_4): frozenset({"ImmunityStep", "AbsorbStep"}),
    (NineEmpiresV1_4, NineEmpiresV1_5): frozenset({"PhaseBegan", "WinterBegan",
                                                   "RedistributionBegan", "HandSizeChecked"}),
    (NineEmpiresV1_5, NineEmpiresV1_6): frozenset({"AbilityResolved", "EngagementResolved"}),
}
#: The pairs whose public views are alike after every command (1.3.0's views
#: showed its recorded steps in the engagement's frame).
VIEWS_ALIKE = frozenset({(NineEmpiresV1_4, NineEmpiresV1_5), (NineEmpiresV1_5, NineEmpiresV1_6)})
PAIRS = [pytest.param(pair, id=f"{pair[0].RULES_VERSION}-{pair[1].RULES_VERSION}")
         for pair in DROPPED]
DECKS = ["malchior", "ord", "holden"]
#: Enough commands for the game to end (it does, after some 340).
COMMANDS = 700
#: A seed whose game has immunity declared six times, damage absorbed often,
#: players redistributing food and discarding down in several Winters.
SEED = 2
#: A seed whose game, abilities preferred too (``REACTS``), has Reacts reducing
#: an engagement's damage, a Battle ability cancelled by Tactical Acumen and
#: damage left unabsorbed after cards declared immune (the game the stored
#: 1.5.0 fixture of test_nine_empires_versions.py begins).
REACTS_SEED = 36
#: The moves ``_pick`` prefers; with ``REACTS``, abilities too.
FIGHTING = ("declare_attack", "engage")
REACTS = (*FIGHTING, "use_ability")


def _pick(rng: random.Random, options: list[Any], preferred: tuple[str, ...] = FIGHTING) -> Any:
    """Attack and engage when offered (so engagements come), else any move."""
    fighting = [o for o in options if o.NAME in preferred]
    if fighting and rng.random() < 0.8:
        return rng.choice(fighting)
    return rng.choice(options)


def _facts(events: list[Any]) -> list[tuple[str, dict[str, Any]]]:
    records = [record_of(e) for e in events]
    return [(r.type, r.payload) for r in records if r.type not in ("Created",)]


@functools.cache
def _play_both(pair: tuple[type[NineEmpires], type[NineEmpires]], seed: int,
               preferred: tuple[str, ...] = FIGHTING) -> tuple[list[Any], list[Any], int]:
    """Both versions, step by step; the records of each and the commands played."""
    games = [cls.start([f"p{i}" for i in range(len(DECKS))], {"decks": DECKS},
                       seed=f"{seed:02x}" * 32) for cls in pair]
    events: list[list[Any]] = [list(g.collect_events()) for g in games]
    rng = random.Random(seed)
    played = 0
    for n in range(COMMANDS):
        old, new = games
        if old.ended or new.ended:
            break
        asked = [(d.seat, d.kind) for d in old.pending()]
        assert asked == [(d.seat, d.kind) for d in new.pending()], f"command {n}"
        assert pair not in VIEWS_ALIKE or old.view(None) == new.view(None), f"command {n}"
        seat = rng.choice(sorted({s for s, _ in asked}))
        legal = old.legal_actions(seat)
        assert legal == new.legal_actions(seat), f"command {n}"
        move = _pick(rng, legal, preferred)
        for g, record in zip(games, events, strict=True):
            g.act(seat, move, f"c{n}")
            record.extend(g.collect_events())
        played += 1
    assert games[0].ended == games[1].ended
    assert games[0].finished() == games[1].finished()
    return events[0], events[1], played


@pytest.mark.parametrize("pair", PAIRS)
def test_a_later_version_records_the_facts_of_the_one_before_without_its_progress(
        pair: tuple[type[NineEmpires], type[NineEmpires]]) -> None:
    """Engaging and Damage (the attacker and attacking allies declare immunity,
    then the opposing side absorbs); Turn Order ("When all players pass
    consecutively, the current phase immediately ends and the next phase
    begins") and the Winter Phase (food redistributed, then drawing and
    discarding down to hand size): the later version asks the same seats as the
    earlier did and records the same facts, but not the engine's progress."""
    dropped = DROPPED[pair]
    old, new, played = _play_both(pair, seed=SEED)
    old_facts, new_facts = _facts(old), _facts(new)
    kinds = {kind for kind, _ in old_facts}
    assert kinds >= dropped | {"ImmunityDeclared", "DamageAbsorbed", "FoodRedistributed"}
    assert any(p["why"] == "hand size" for k, p in old_facts if k == "CardsDiscarded")
    assert not dropped & {kind for kind, _ in new_facts}
    assert [f for f in old_facts if f[0] not in dropped] == new_facts
    for records, cls in zip((old, new), pair, strict=True):
        verdict = verify_records({}, [record_of(e) for e in records], ALL)
        assert verdict.ok, verdict.report.problems
        assert verdict.report.commands == played
        assert catalog.rules_class("nine_empires", cls.RULES_VERSION, ALL) is cls


@pytest.mark.parametrize("pair", PAIRS)
def test_an_earlier_record_would_not_re_execute_by_the_later_rules(
        pair: tuple[type[NineEmpires], type[NineEmpires]]) -> None:
    """The progress an earlier record holds is not what the later version
    records: re-executed by the later rules it differs first at the first such
    event."""
    earlier, later = pair
    old, _, _ = _play_both(pair, seed=SEED)
    records = [record_of(e) for e in old]
    rules = EARLIER_BY_VERSION.get(later.RULES_VERSION, frozenset())
    # Loads the earlier version's records but plays by the later rules.
    bound = type(f"BoundTo{earlier.__name__}", (NineEmpires,),
                 {"RULES_VERSION": earlier.RULES_VERSION,
                  "EARLIER": property(lambda self: rules)})
    wrong = verify_records({}, records, {("nine_empires", earlier.RULES_VERSION): bound})
    first = next(r.version for r in records if r.type in DROPPED[pair])
    assert not wrong.ok and wrong.first_failure == first


def test_the_damage_left_unabsorbed_is_read_from_the_facts_1_6_0_keeps() -> None:
    """Engaging and Damage: an engagement is over once all its damage is
    absorbed ("until all damage is absorbed"), or once nothing that must absorb
    it is left ("any non-immune cards at the battle must be used to absorb
    damage so long as there is damage left to absorb": only immune cards are
    left, or none). What 1.5.0 recorded as ``EngagementResolved``'s ``wasted``
    is what the facts before it leave, which 1.6.0 keeps: the last
    ``DamageAbsorbed``'s ``remaining``, or, with none, the damage engaged less
    any ``DamageReduced``."""
    old, _, _ = _play_both((NineEmpiresV1_5, NineEmpiresV1_6), seed=SEED)
    left = 0
    wasted, read = [], []
    for kind, p in _facts(old):
        if kind == "Engaged" or kind == "DamageReduced":
            left = p["damage"]
        elif kind == "DamageAbsorbed":
            left = p["remaining"]
        elif kind == "EngagementResolved":
            wasted.append(p["wasted"])
            read.append(max(0, left))
    assert wasted == read
    assert any(w > 0 for w in wasted) and any(w == 0 for w in wasted)


def test_reacts_and_cancels_record_the_facts_of_1_5_0_without_the_resolutions() -> None:
    """More on Using Abilities (Timing: "using a React ability interrupts the
    normal flow of play"; "Players must completely resolve an action before
    another can be taken (except in the case of React abilities)"): with
    abilities preferred, 1.6.0 asks the same seats, lists the same moves and
    shows the same public views as 1.5.0 after every command, and records the
    same facts less ``AbilityResolved`` and ``EngagementResolved``: Reacts
    answering engagements (the damage reduced), an ability cancelled, each
    effect in the order 1.5.0 recorded it."""
    pair = (NineEmpiresV1_5, NineEmpiresV1_6)
    old, new, played = _play_both(pair, REACTS_SEED, REACTS)
    dropped = DROPPED[pair]
    old_facts, new_facts = _facts(old), _facts(new)
    kinds = [kind for kind, _ in old_facts]
    assert kinds.count("ReactPlayed") >= 3 and "AbilityCancelled" in kinds
    assert "DamageReduced" in kinds and "ImmunityDeclared" in kinds
    assert any(p["cancelled"] for k, p in old_facts if k == "AbilityResolved")
    assert [f for f in old_facts if f[0] not in dropped] == new_facts
    for records in (old, new):
        verdict = verify_records({}, [record_of(e) for e in records], ALL)
        assert verdict.ok, verdict.report.problems
        assert verdict.report.commands == played
