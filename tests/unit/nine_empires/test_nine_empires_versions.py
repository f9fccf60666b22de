"""Rules versions of Romance of the Nine Empires (docs/rules-versions.md): a game
recorded by rules 1.0.0 (``v1.NineEmpiresV1``) re-executes by 1.0.0 with both
versions registered, and would fail by 1.1.0, which calls for allies first."""

from __future__ import annotations

import random
from typing import Any

from aggregates import catalog
from aggregates.kernel.audit import record_of
from aggregates.kernel.verify import verify_records
from aggregates.nine_empires import NineEmpires
from aggregates.nine_empires.v1 import NineEmpiresV1

BOTH = catalog.registry((NineEmpiresV1, NineEmpires))


def _v1_game_with_allies(seed: int = 3) -> tuple[Any, list[Any]]:
    """Random legal moves by rules 1.0.0 (3 seats) until an ally has chosen a side."""
    rnd = random.Random(seed)
    game = NineEmpiresV1.start(["p0", "p1", "p2"], {"decks": ["malchior", "ord", "holden"]},
                               seed=f"{seed:02x}" * 32)
    events = list(game.collect_events())
    for n in range(3000):
        if any(type(e).__name__ == "AllyChosen" for e in events) or game.ended:
            break
        seat = rnd.choice(sorted({d.seat for d in game.pending()}))
        options = game.legal_actions(seat)
        attack = [o for o in options if o.NAME == "declare_attack"]
        game.act(seat, attack[0] if attack else rnd.choice(options), f"c{n}")
        events.extend(game.collect_events())
    assert any(type(e).__name__ == "AllyChosen" for e in events)
    return game, [record_of(e) for e in events]


def test_a_rules_1_0_0_game_re_executes_by_1_0_0_and_would_fail_by_1_1_0() -> None:
    game, records = _v1_game_with_allies()
    assert records[0].payload["rules_version"] == "1.0.0"
    verdict = verify_records({}, records, BOTH)
    assert verdict.ok, verdict.report.problems          # (not over: "complete" is False)
    assert verdict.report.commands == game.commands_applied > 0
    assert not verdict.not_loadable
    assert catalog.rules_class("nine_empires", "1.0.0", BOTH) is NineEmpiresV1
    wrong = verify_records({}, records, {("nine_empires", "1.0.0"): NineEmpires})
    first_ally = next(r.version for r in records if r.type == "AllyChosen")
    assert not wrong.ok and wrong.first_failure == first_ally
