"""The schemas and the docs' event tables of games whose events are declared
classes are written from those classes, never by hand (``make schemas``,
``aggregates.kernel.schemagen``): the committed files must be what it makes."""

from __future__ import annotations

import json

import pytest

from aggregates.enin import Enin
from aggregates.kernel import declared, schemagen
from aggregates.kernel.game import Game


@pytest.mark.parametrize("cls", schemagen.generated_games(), ids=lambda c: c.RULES_ID)
def test_committed_schemas_and_event_tables_are_the_generated_ones(cls: type[Game]) -> None:
    """A changed event class without ``make schemas`` fails here, naming the file."""
    assert [str(p.relative_to(schemagen.ROOT)) for p in schemagen.stale([cls])] == []


def test_the_games_written_with_declared_events_are_generated() -> None:
    assert Enin in schemagen.generated_games()


def test_every_event_schema_is_its_class_fields_and_docstring() -> None:
    written = json.loads((schemagen.package_dir(Enin) / "schemas.json").read_text())
    for name, ev in declared.own_events(Enin).items():
        entry = written["events"][name]
        assert sorted(entry["properties"]) == sorted(ev.field_names()), name
        assert entry["description"] == ev.doc and ev.doc, name
        assert entry["additionalProperties"] is False


def test_the_creation_and_end_events_are_written_from_the_games_declarations() -> None:
    events = schemagen.events_part(Enin)
    assert events["Created"]["properties"]["setup"] == declared.json_schema(Enin.SETUP)
    assert events["Created"]["properties"]["options"] == Enin.OPTIONS_SCHEMA
    assert "seed" not in events["Created"]["required"], "the public form leaves it out"
    assert events["Ended"]["properties"]["outcome"] == declared.json_schema(Enin.OUTCOME)


def test_a_fact_an_upcast_added_is_dated_in_the_docs_table() -> None:
    """docs/games/enin.md: ItemBought's ``gains_map`` came with its version 2."""
    table = schemagen.event_table(Enin)
    assert "`gains_map` (bool, since v2)" in table
    assert "`item` (str)" in table


def test_the_table_is_put_between_its_markers_only() -> None:
    page = f"intro\n{schemagen.TABLE_START}\nold\n{schemagen.TABLE_END}\noutro\n"
    assert schemagen.with_table(page, "new\n") == (
        f"intro\n{schemagen.TABLE_START}\nnew\n{schemagen.TABLE_END}\noutro\n")
    with pytest.raises(ValueError, match="event table"):
        schemagen.with_table("no markers\n", "new\n")
