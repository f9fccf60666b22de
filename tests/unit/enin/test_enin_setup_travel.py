"""Setup and the Travel Phase."""

from __future__ import annotations

import pytest

from aggregates.enin import Enin
from aggregates.enin import state as r
from aggregates.enin.commands import Quest, RollStart, Travel
from aggregates.enin.reasons import EninReason
from aggregates.enin.testing import act, d10, new_game, rig
from aggregates.kernel import Reason, RuleError


def test_setup_rolls_1d6_plus_4_hp_and_1d6_luck__rulebook_Setup() -> None:
    seen_hp, seen_luck = set(), set()
    for i in range(80):
        g = Enin.start(["solo"], seed=f"{i:064x}")
        created = g.collect_events()[0]
        draws = created.meta["draws"]
        assert [d[1] for d in draws] == [6, 6]
        assert g.hp == draws[0][2] + 4 and g.luck == draws[1][2]
        assert (g.xp, g.gold, g.level, g.poisoned) == (0, 0, 1, False)
        seen_hp.add(g.hp)
        seen_luck.add(g.luck)
    assert seen_hp == set(range(5, 11)) and seen_luck == set(range(1, 7))


def test_setup_state_is_plain_json() -> None:
    import json
    g = new_game()
    json.dumps({k: v for k, v in vars(g).items() if not k.startswith("_")})
    json.dumps(g.view(0))


def test_first_turn_is_the_start_roll__rulebook_Travel_Phase() -> None:
    g = new_game()
    assert g.pending()[0].kind == r.START
    assert g.legal_actions(0) == [RollStart()]
    with pytest.raises(RuleError) as e:
        g.act(0, Travel(to=2))
    assert e.value.reason == Reason.WRONG_PHASE


@pytest.mark.parametrize("roll,location,stage", [
    (1, 1, r.QUESTING), (4, 1, r.QUESTING), (5, 2, r.QUESTING), (6, 2, r.QUESTING),
    (7, 3, r.TOWN), (8, 3, r.TOWN), (9, 4, r.QUESTING), (10, 4, r.QUESTING),
])
def test_start_table_rows__rulebook_Character_Card_start_table(
    roll: int, location: int, stage: str
) -> None:
    g = new_game()
    rig(g, *d10(roll))
    assert act(g, RollStart()) == ["StartRolled"]
    assert g.location == location and g.stage == stage
    assert g.view(0)["location"]["number"] == location


@pytest.mark.parametrize("here,legal", [(1, [2]), (2, [1, 3]), (3, [2, 4]), (4, [3, 5]), (5, [4])])
def test_travel_to_adjacent_location_only__rulebook_Travel_Phase(here: int, legal: list) -> None:
    g = new_game(location=here, stage=r.TRAVEL)
    assert g.legal_actions(0) == [Travel(to=n) for n in legal]
    for to in range(1, 6):
        if to == here:
            continue
        if to not in legal:
            with pytest.raises(RuleError) as e:
                g.act(0, Travel(to=to))
            assert e.value.reason == EninReason.NOT_ADJACENT
    assert act(g, Travel(to=legal[0])) == ["Travelled"]
    assert g.location == legal[0]


def test_travel_must_move__ruling_map_still_moves() -> None:
    g = new_game(location=2, stage=r.TRAVEL, map_held=True)
    with pytest.raises(RuleError) as e:
        g.act(0, Travel(to=2))
    assert e.value.reason == Reason.ILLEGAL_MOVE


def test_map_of_enin_allows_any_location__rulebook_Travel_Phase_note() -> None:
    g = new_game(location=1, stage=r.TRAVEL, map_held=True)
    assert g.legal_actions(0) == [Travel(to=n) for n in (2, 3, 4, 5)]
    act(g, Travel(to=5))
    assert g.location == 5 and g.stage == r.QUESTING


@pytest.mark.parametrize("to", [0, 6, -1, 99])
def test_travel_to_unknown_location_is_bad_argument(to: int) -> None:
    g = new_game(location=1, stage=r.TRAVEL)
    with pytest.raises(RuleError) as e:
        g.act(0, Travel(to=to))
    assert e.value.reason == Reason.BAD_ARGUMENT


def test_travel_outside_travel_phase_is_wrong_phase() -> None:
    g = new_game(location=1, stage=r.QUESTING)
    with pytest.raises(RuleError) as e:
        g.act(0, Travel(to=2))
    assert e.value.reason == Reason.WRONG_PHASE
    with pytest.raises(RuleError) as e:
        new_game(location=1, stage=r.TRAVEL).act(0, RollStart())
    assert e.value.reason == Reason.WRONG_PHASE
    with pytest.raises(RuleError) as e:
        new_game(location=1, stage=r.TRAVEL).act(0, Quest())
    assert e.value.reason == Reason.WRONG_PHASE


def test_travel_into_nigh_towns_opens_the_market__rulebook_The_Nigh_Towns() -> None:
    g = new_game(location=2, stage=r.TRAVEL)
    act(g, Travel(to=3))
    assert g.stage == r.TOWN and g.pending()[0].kind == "town"
