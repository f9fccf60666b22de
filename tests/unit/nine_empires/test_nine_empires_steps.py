"""Rules 1.4.0 of Romance of the Nine Empires record an engagement's facts
alone (Engaging and Damage): who declares immunity and who absorbs is derived
from them, where rules 1.3.0 (``v1.NineEmpiresV1_3``) also recorded the
engine's steps, ``ImmunityStep`` and ``AbsorbStep``. One seed and the same
choices played by both: the same seats asked, the same legal lists, the same
facts less those two steps, the same outcome; each record re-executes by its
own version, and a 1.3.0 record would not re-execute by 1.4.0's rules."""

from __future__ import annotations

import functools
import random
from typing import Any

from aggregates import catalog
from aggregates.kernel.record.audit import record_of
from aggregates.kernel.record.verify import verify_records
from aggregates.nine_empires import NineEmpires
from aggregates.nine_empires.v1 import NineEmpiresV1_3

ALL = catalog.registry((NineEmpiresV1_3, NineEmpires))
STEPS = frozenset({"ImmunityStep", "AbsorbStep"})
DECKS = ["malchior", "ord", "holden"]
#: Enough commands for the game to end (it does, after some 340).
COMMANDS = 700
#: A seed whose game has immunity declared six times and damage absorbed often.
SEED = 2


def _pick(rng: random.Random, options: list[Any]) -> Any:
    """Attack and engage when offered (so engagements come), else any move."""
    fighting = [o for o in options if o.NAME in ("declare_attack", "engage")]
    if fighting and rng.random() < 0.8:
        return rng.choice(fighting)
    return rng.choice(options)


def _facts(events: list[Any]) -> list[tuple[str, dict[str, Any]]]:
    records = [record_of(e) for e in events]
    return [(r.type, r.payload) for r in records if r.type not in ("Created",)]


@functools.cache
def _play_both(seed: int) -> tuple[list[Any], list[Any], int]:
    """Both versions, step by step; the records of each and the commands played."""
    games = [cls.start([f"p{i}" for i in range(len(DECKS))], {"decks": DECKS},
                       seed=f"{seed:02x}" * 32) for cls in (NineEmpiresV1_3, NineEmpires)]
    events: list[list[Any]] = [list(g.collect_events()) for g in games]
    rng = random.Random(seed)
    played = 0
    for n in range(COMMANDS):
        old, new = games
        if old.ended or new.ended:
            break
        asked = [(d.seat, d.kind) for d in old.pending()]
        assert asked == [(d.seat, d.kind) for d in new.pending()], f"command {n}"
        seat = rng.choice(sorted({s for s, _ in asked}))
        legal = old.legal_actions(seat)
        assert legal == new.legal_actions(seat), f"command {n}"
        move = _pick(rng, legal)
        for g, record in zip(games, events, strict=True):
            g.act(seat, move, f"c{n}")
            record.extend(g.collect_events())
        played += 1
    assert games[0].ended == games[1].ended
    assert games[0].finished() == games[1].finished()
    return events[0], events[1], played


def test_rules_1_4_0_record_the_facts_of_1_3_0_without_the_engagement_steps() -> None:
    """Engaging and Damage (Romance of the Nine Empires rulebook): the attacker
    and attacking allies declare immunity against the defending side's damage,
    then the opposing side absorbs; 1.4.0 asks the same seats as 1.3.0 did and
    records the same facts, but not the steps."""
    old, new, played = _play_both(seed=SEED)
    old_facts, new_facts = _facts(old), _facts(new)
    kinds = {kind for kind, _ in old_facts}
    assert kinds >= STEPS and "ImmunityDeclared" in kinds and "DamageAbsorbed" in kinds
    assert not STEPS & {kind for kind, _ in new_facts}
    assert [f for f in old_facts if f[0] not in STEPS] == new_facts
    for records, cls in ((old, NineEmpiresV1_3), (new, NineEmpires)):
        verdict = verify_records({}, [record_of(e) for e in records], ALL)
        assert verdict.ok, verdict.report.problems
        assert verdict.report.commands == played
        assert catalog.rules_class("nine_empires", cls.RULES_VERSION, ALL) is cls


def test_a_1_3_0_record_would_not_re_execute_by_1_4_0() -> None:
    """The steps a 1.3.0 record holds are not what 1.4.0 records: re-executed
    by 1.4.0's rules it differs first at its first step."""
    old, _, _ = _play_both(seed=SEED)
    records = [record_of(e) for e in old]
    # Loads 1.3.0's records but plays by 1.4.0's rules (none kept).
    bound = type("BoundTo1_3_0", (NineEmpires,), {"RULES_VERSION": "1.3.0",
                                                   "EARLIER": property(lambda self: frozenset())})
    wrong = verify_records({}, records, {("nine_empires", "1.3.0"): bound})
    first = next(r.version for r in records if r.type in STEPS)
    assert not wrong.ok and wrong.first_failure == first
