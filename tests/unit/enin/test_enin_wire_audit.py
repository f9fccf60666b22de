"""The wire contract (enin.proto), the aggregate protocol, and audit of played games."""

from __future__ import annotations

import random

import pytest

from aggregates.enin import Enin
from aggregates.enin.commands import COMMANDS
from aggregates.kernel import Reason, RuleError


def test_class_settings() -> None:
    assert (Enin.RULES_ID, Enin.TITLE, Enin.RULES_VERSION) == ("enin", "The Land of Enin", "1.2.0")
    assert Enin.MIN_SEATS == Enin.MAX_SEATS == 1
    with pytest.raises(RuleError) as e:
        Enin.start(["a", "b"])
    assert e.value.reason == Reason.BAD_SEATS
    with pytest.raises(RuleError) as e:
        Enin.start(["a"], options={"hard": True})
    assert e.value.reason == Reason.BAD_OPTIONS


def test_wire_args_are_type_checked() -> None:
    for name, args in (("travel", {"to": "2"}), ("buy", {"item": 3}), ("spend_luck", {"die": 0}),
                       ("reroll", {"die": True}), ("quest", {"x": 1})):
        with pytest.raises(RuleError) as e:
            COMMANDS.parse(name, args)
        assert e.value.reason == Reason.BAD_ARGUMENT


def play(seed: int, limit: int = 400) -> tuple[Enin, list]:  # type: ignore[type-arg]
    bot = random.Random(seed)
    g = Enin.start(["solo"], seed=f"{seed + 1000:064x}")
    evs = list(g.collect_events())
    for i in range(limit):
        if g.ended:
            break
        actions = g.legal_actions(0)
        name = bot.choice(sorted({a.NAME for a in actions}))
        g.act(0, bot.choice([a for a in actions if name == a.NAME]), f"c{i}")
        evs += g.collect_events()
    return g, evs


def test_not_your_seat_and_views() -> None:
    g, _ = play(1, limit=3)
    assert g.legal_actions(1) == []
    view = g.view(0)
    for key in ("hp", "luck", "xp", "gold", "level", "poisoned", "location", "quest_items",
                "magic_items", "map_of_enin", "strength_bonus", "stage", "encounter", "dice",
                "shield_used", "last_purchase", "turn", "last_outcome"):
        assert key in view
