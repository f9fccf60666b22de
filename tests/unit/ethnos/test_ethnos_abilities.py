"""The tribes' abilities as data (records of the kernel's ability engine in
data/abilities.json)."""

from __future__ import annotations

import copy

import pytest

from aggregates.ethnos import abilities, tribes
from aggregates.ethnos.abilities import ABILITIES_FILE, BOOK, load
from aggregates.ethnos.data import TRIBES, DataError
from aggregates.kernel.data import read_json


def test_every_tribe_has_its_ability_as_data() -> None:
    named = {abilities.test_of(a).get("leader_tribe", abilities.test_of(a).get("tribe"))
             for a in BOOK.abilities}
    assert named == set(TRIBES)
    for ability in BOOK.abilities:
        assert ability.text
        if ability.timing == "trigger":
            assert ability.verb in tribes.VERBS


def test_static_abilities_modify_without_state() -> None:
    assert abilities.modifier("marker_size", "minotaurs") == 1
    assert abilities.modifier("marker_size", "dwarves") == 0
    assert abilities.modifier("band_scoring_size", "dwarves") == 1
    assert {"skeletons"} == abilities.WILD


def test_triggers_match_the_leaders_tribe_and_the_marker() -> None:
    facts = {"leader_tribe": "centaurs", "size": 3, "marker_placed": False}
    assert abilities.triggered("BandPlayed", facts) == []
    facts["marker_placed"] = True
    assert [e.name for e in abilities.triggered("BandPlayed", facts)] == ["centaurs"]
    assert [e.name for e in abilities.triggered("HandDiscarded",
                                                {"leader_tribe": "wizards"})] == ["wizards"]


@pytest.mark.parametrize("breakage", [
    lambda d: d["effects"][0]["when"].update(event="TurnStarted"),
    lambda d: d["effects"][0]["effects"][0].update(do="fly"),
    lambda d: d["effects"][0]["when"].update({"if": {"leader_tribe": "goblins"}}),
    lambda d: d["effects"][0]["when"].update({"if": {"mood": "bad"}}),
    lambda d: d["effects"][1].update(condition={"tribe": "goblins"}),
    lambda d: d["effects"][1]["effects"][0].update(do="take_giant_token"),
    lambda d: d["effects"][0]["effects"][0].update(do="modify"),
    lambda d: d["effects"][0].update(limit="twice_a_day"),
    lambda d: d["effects"][0].update(colour="red"),
    lambda d: d["effects"][1]["effects"][0]["params"].update(stat="speed"),
    lambda d: d["effects"][4]["effects"][0]["params"].update(keyword="flying"),
    lambda d: d["effects"].append(dict(d["effects"][0])),
    lambda d: d.update(effects=[e for e in d["effects"] if e["name"] != "orcs"]),
    lambda d: d.pop("effects"),
])
def test_malformed_ability_files_are_refused(breakage) -> None:  # type: ignore[no-untyped-def]
    raw = copy.deepcopy(read_json(ABILITIES_FILE))
    breakage(raw)
    with pytest.raises(DataError):
        load(raw)
