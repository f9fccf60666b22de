"""Component data (rulings "Components"): a DESIGNED card set, validated on load."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections import Counter

import pytest

from aggregates.ethnos.data import DATA_FILE, TABLES, TRIBES, DataError, load


def raw() -> dict:
    return json.loads(DATA_FILE.read_text())


def test_card_composition__ruling_Components() -> None:
    tribes = Counter(c.tribe for c in TABLES.cards)
    assert tribes["halflings"] == 24 and tribes["dragon"] == 3
    assert all(tribes[t] == 12 for t in TRIBES if t != "halflings")
    for tribe in TRIBES:
        colours = Counter(c.colour for c in TABLES.cards if c.tribe == tribe)
        if tribe == "skeletons":
            assert colours == {None: 12}
        else:
            assert len(colours) == 6 and set(colours.values()) == {4 if tribe == "halflings" else 2}
    assert [c.id for c in TABLES.cards] == list(range(len(TABLES.cards)))


def test_data_is_marked_designed__ruling_Components() -> None:
    assert "DESIGNED" in TABLES.designed
    bad = raw()
    bad["designed"] = "printed"
    with pytest.raises(DataError):
        load(bad)


def test_kingdoms_and_colours__ruling_Components() -> None:
    assert [(k.name, k.colour) for k in TABLES.kingdoms] == [
        ("Ithys", "orange"), ("Straton", "blue"), ("Rhea", "red"), ("Duris", "purple"),
        ("Althea", "green"), ("Pelagon", "gray")]
    assert TABLES.kingdom_of("purple") == "duris"


def test_glory_and_troll_tokens__ruling_Components() -> None:
    values = sorted(v for v, _ in TABLES.glory_tokens)
    assert values == [0, 0, 2, 2, 4, 4, 4, 4, 6, 6, 6, 6, 6, 8, 8, 8, 10, 10]
    assert sorted(v for v, plus in TABLES.glory_tokens if plus) == [0, 4, 4, 6, 6, 10]
    assert TABLES.troll_tokens == (1, 2, 3, 4, 5, 6)


def test_tables__rulebook_Glory_For_The_Band_Of_Allies() -> None:
    assert [TABLES.band_points(n) for n in range(1, 9)] == [0, 1, 3, 6, 10, 15, 15, 15]
    assert TABLES.orc_glory == (0, 1, 3, 6, 10, 15, 20)
    assert TABLES.giant_age_glory == {"2-3": (2, 5), "4-6": (2, 4, 6)}
    assert TABLES.merfolk_age_glory == {"2-3": (1, 3), "4-6": (1, 2, 4)}
    assert TABLES.merfolk_spaces == (3, 7, 12, 18) and TABLES.merfolk_max == 18


@pytest.mark.parametrize("breakage", [
    lambda d: d["cards"].pop(),
    lambda d: d["cards"][0].update(colour="pink"),
    lambda d: d["cards"][0].update(id=5),
    lambda d: d["cards"][-1].update(tribe="dwarves", colour="red"),
    lambda d: d["kingdoms"].pop(),
    lambda d: d["glory_tokens"].pop(),
    lambda d: d["orc_horde_glory"].pop(),
    lambda d: d["merfolk"].update(marker_spaces=[7, 3]),
    lambda d: d["giant"]["age_glory"].update({"4-6": [2, 4]}),
    lambda d: d["troll_tokens"].append(1),
    lambda d: d.pop("band_glory"),
    lambda d: d["tribes"].reverse(),
])
def test_malformed_data_is_refused(breakage) -> None:  # type: ignore[no-untyped-def]
    data = copy.deepcopy(raw())
    breakage(data)
    with pytest.raises(DataError):
        load(data)


def test_replacement_file_by_env_var(tmp_path) -> None:  # type: ignore[no-untyped-def]
    data = raw()
    data["hand_limit"] = 7
    path = tmp_path / "ethnos.json"
    path.write_text(json.dumps(data))
    out = subprocess.run(
        [sys.executable, "-c",
         "from aggregates.ethnos.data import TABLES; print(TABLES.hand_limit)"],
        env={"ETHNOS_DATA": str(path), "PATH": ""}, capture_output=True, text=True, check=True,
    )
    assert out.stdout.strip() == "7"
