"""The schemas and the docs' event tables of games whose events are declared
classes are written from those classes, never by hand (``make schemas``,
``aggregates.kernel.record.schemagen``): the committed files must be what it makes."""

from __future__ import annotations

import json
import subprocess
import sys
import typing
from typing import Annotated, Any, Literal, NotRequired, TypedDict

import pytest

from aggregates.enin import Enin
from aggregates.kernel import declared
from aggregates.kernel.game import Game
from aggregates.kernel.record import schemagen


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


# ------------------------------------------------------------------- the view


class _Piece(TypedDict):
    """A piece on the board."""

    kind: Literal["pawn", "king"]
    at: int | None


class _Seen(TypedDict):
    """What a reader sees."""

    pieces: list[_Piece]
    taken: list[_Piece]
    counts: dict[Annotated[str, schemagen.Keywords(enum=["red", "blue"])],
                 Annotated[int, schemagen.Keywords(minimum=0)]]
    hand: NotRequired[Annotated[list[int], schemagen.Keywords(description="the owner's only")]]


def test_a_view_declaration_is_a_closed_object_of_its_keys() -> None:
    """Each ``TypedDict`` a closed object with its docstring; a ``NotRequired``
    key not required (Python 3.11 does not see it under postponed annotations:
    read off the hint); ``Keywords`` added; a type met twice written once, in
    ``$defs``; a ``Literal``-keyed mapping names its keys."""
    schema = schemagen.ViewSchema(_Seen).schema()
    assert schema["description"] == "What a reader sees."
    assert schema["additionalProperties"] is False
    assert schema["required"] == ["pieces", "taken", "counts"]
    assert schema["properties"]["hand"] == {"type": "array", "items": {"type": "integer"},
                                            "description": "the owner's only"}
    assert schema["properties"]["pieces"] == {"type": "array",
                                              "items": {"$ref": "#/$defs/_Piece"}}
    assert schema["$defs"]["_Piece"]["properties"] == {
        "kind": {"enum": ["pawn", "king"]}, "at": {"anyOf": [{"type": "integer"},
                                                             {"type": "null"}]}}
    assert schema["properties"]["counts"] == {
        "type": "object", "propertyNames": {"type": "string", "enum": ["red", "blue"]},
        "additionalProperties": {"type": "integer", "minimum": 0}}


@pytest.mark.parametrize("cls", schemagen.generated_games(), ids=lambda c: c.RULES_ID)
def test_every_games_view_is_written_from_its_declaration(cls: type[Game]) -> None:
    """The ``view`` part is the game's ``View`` (its views.py), and a new game's
    view carries every key its declaration requires and none it does not declare."""
    written = json.loads((schemagen.package_dir(cls) / "schemas.json").read_text())
    assert written["view"] == schemagen.view_part(cls)
    view = schemagen.view_declaration(cls)
    game = cls.start([f"p{i}" for i in range(cls.MIN_SEATS)], seed="0" * 64)
    for reader in (None, 0):
        keys = set(game.view(reader))
        assert set(written["view"]["required"]) <= keys <= set(typing.get_type_hints(view))


def test_make_schemas_sees_the_declarations_keywords() -> None:
    """``python -m`` runs a second copy of the module: its check must still read
    the games' ``Keywords`` (a bound, a key's enumeration) and find nothing stale."""
    done = subprocess.run([sys.executable, "-m", "aggregates.kernel.record.schemagen", "--check"],
                          cwd=schemagen.ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


# ------------------------------------------------- the kernel's wire shapes


class _Mark(TypedDict):
    kind: Literal["mark"]
    at: int | str


class _Line(TypedDict):
    """A line of text."""

    kind: Literal["line"]
    text: str


class _Page(TypedDict):
    """A page."""

    parts: list[_Mark | _Line]
    rows: list[list[Any]]
    owner: None | list[Annotated[int, schemagen.Keywords(minimum=0)]]


def test_a_wire_shape_is_written_in_the_served_layout() -> None:
    """The kernel's shapes (screen, outcome, feed event) are served as they were
    written by hand before they were declared: a title, the named shapes once
    under ``$defs``, a union of objects as ``oneOf``, of scalars as a ``type``
    list, of anything else as ``anyOf``; a one-value ``Literal`` a ``const``."""
    schema = schemagen.WireSchema(_Page, "page", {_Mark: "mark", _Mark | _Line: "part"}).schema()
    assert schema["title"] == "page" and schema["description"] == "A page."
    assert schema["properties"]["parts"] == {"type": "array", "items": {"$ref": "#/$defs/part"}}
    assert schema["$defs"]["part"] == {"oneOf": [
        {"$ref": "#/$defs/mark"},
        {"type": "object", "additionalProperties": False, "description": "A line of text.",
         "properties": {"kind": {"const": "line"}, "text": {"type": "string"}},
         "required": ["kind", "text"]}]}
    assert schema["$defs"]["mark"]["properties"] == {
        "kind": {"const": "mark"}, "at": {"type": ["integer", "string"]}}
    assert "description" not in schema["$defs"]["mark"]
    assert schema["properties"]["rows"] == {"type": "array", "items": {"type": "array"}}
    assert schema["properties"]["owner"] == {"anyOf": [
        {"type": "null"}, {"type": "array", "items": {"type": "integer", "minimum": 0}}]}


def full_items() -> list[Any]:
    """One item of each kind with every optional field set."""
    from aggregates.kernel import present as p

    card = p.Card(1, "Elf", detail="d", tag="t", colour="red", colour_label="Red",
                  stats=(("S", 3),), text="x")
    space = p.Space(1, "A", links=(2,), occupants=("x",), marked=True, x=1.0, y=2.0,
                    owner="o", marks=("m",), colour="blue", summary="s")
    return [p.Track("HP", 7, 12), p.Track("VP", per_seat=(1, 2)),
            p.Cards("Hand", (card,), zone="hand", numbered=True), p.Cards("Deck", count=3),
            p.Table("T", ("a",), ((1,),)), p.Board("B", (space,)), p.Note("n")]


def test_the_screen_schema_is_its_declaration_and_the_drawn_screens_keys() -> None:
    """``schemas.SCREEN`` is written from ``present.ScreenJson``; each item kind's
    declaration names every key its class draws, no more (a key drawn but not
    declared, or declared but never drawn, fails here and in mypy)."""
    from aggregates.kernel import present as p
    from aggregates.kernel.record import schemas

    assert schemagen.WireSchema(
        p.ScreenJson, "screen", schemas.SCREEN_DEFS).schema() == schemas.SCREEN
    assert [ref["$ref"].rsplit("/", 1)[1] for ref in schemas.SCREEN["$defs"]["item"]["oneOf"]
            ] == list(p.ITEM_KINDS)
    drawn: dict[str, set[str]] = {}
    for item in full_items():
        out = dict(item.to_json())
        drawn.setdefault(out["kind"], set()).update(out)
        for inner in out.get("cards", []) + out.get("spaces", []):
            drawn.setdefault("card" if "stats" in inner else "space", set()).update(inner)
    for kind, keys in drawn.items():
        assert keys == set(schemas.SCREEN["$defs"][kind]["properties"]), kind


def test_the_outcome_and_feed_schemas_are_their_declarations() -> None:
    from aggregates.kernel.outcome import Outcome, OutcomeJson
    from aggregates.kernel.record import schemas

    assert schemagen.WireSchema(OutcomeJson, "outcome").schema() == schemas.OUTCOME
    assert schemagen.WireSchema(schemas.FeedEvent, "event").schema() == schemas.EVENT
    out = Outcome(winners=(0,), ranking=((0,), (1,)), scores=(3, None), breakdown={},
                  summary="Player 1 wins.").to_json()
    assert list(out) == list(schemagen.hints(OutcomeJson)) == schemas.OUTCOME["required"]
