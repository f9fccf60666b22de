"""What every game puts on the wire matches the JSON Schemas it publishes
(``aggregates.kernel.record.schemas``: the kernel's screen vocabulary and feed
envelope, and each game's ``schemas.json``, served by ``ListRules``).

For the games the suite plays: every event's payload, in its private form and
in the public form others get; every reader's view and screen at moves picked
along the game and at its end; the outcome; the options the game was made
with. Each game also publishes a schema for every event type it records, so a
client never meets a payload it has no description of.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from aggregates.kernel import Game, event_type, payload_of, recorded_audience
from aggregates.kernel.outcome import outcome_json
from aggregates.kernel.record.schemas import payload_schema, schemas_of
from tests.conformance import tables as t

TABLES = t.tables()
#: Moves at which readers' views and screens are validated, per game, and
#: seats read at each beside the spectator (every move and seat when soaking:
#: validating a screen takes some 80 ms at a 16-seat Ettin table).
READ_AT = 6
SEATS_READ = 3
#: Events validated per event type and game (every one when soaking).
PER_TYPE = 30


def check(validator: Draft202012Validator, value: Any, where: str) -> None:
    errors = sorted(validator.iter_errors(value), key=str)
    assert not errors, (f"{where} breaks its schema at {list(errors[0].absolute_path)}: "
                        f"{errors[0].message}")


@pytest.mark.parametrize("table", TABLES, ids=t.table_id)
def test_every_read_and_event_matches_the_published_schemas(
        table: tuple[type[Game], int]) -> None:
    cls, players = table
    served = schemas_of(cls)
    validators: dict[str, Draft202012Validator] = {}

    def validator(name: str, schema: dict[str, Any]) -> Draft202012Validator:
        if name not in validators:
            Draft202012Validator.check_schema(schema)
            validators[name] = Draft202012Validator(schema)
        return validators[name]

    for record in t.games_of(table, "legal"):
        rnd = random.Random(record.seed)
        for ev in some_of_each_type(record.events, rnd):
            kind, payload = event_type(ev), payload_of(ev)
            audience, public = recorded_audience(cls, kind, payload, ev.meta)
            schema = validator(kind, payload_schema(served, kind))
            check(schema, payload, f"{record.name}: {kind}'s payload")
            if not audience.everyone:
                check(schema, public, f"{record.name}: {kind}'s public form")
        for index, game in t.states(record, t.sample(len(record.moves), READ_AT, rnd)):
            for reader in (None, *t.sample(players, SEATS_READ, rnd)):
                where = f"{record.name} at move {index}, reader {reader}"
                check(validator("view", served["view_json"]), game.view(reader), where)
                check(validator("screen", served["screen_json"]),
                      game.present(reader).to_json(), where)
        check(validator("outcome", served["outcome_json"]), outcome_json(record.game),
              f"{record.name}: outcome")
        check(validator("options", served["options_json"]), record.game.options,
              f"{record.name}: options")


def some_of_each_type(events: list[Any], rnd: random.Random) -> list[Any]:
    """``PER_TYPE`` events of each type, picked at random (all when soaking)."""
    by_type: dict[str, list[Any]] = {}
    for ev in events:
        by_type.setdefault(event_type(ev), []).append(ev)
    return [kept[i] for kept in by_type.values()
            for i in t.sample(len(kept), PER_TYPE, rnd)]


@pytest.mark.parametrize("table", TABLES, ids=t.table_id)
def test_every_recorded_event_type_has_a_published_schema(
        table: tuple[type[Game], int]) -> None:
    described = set(schemas_of(table[0])["payload_json"])
    recorded = {event_type(ev) for r in t.games_of(table) for ev in r.events}
    assert recorded <= described, (
        f"{table[0].RULES_ID} publishes no schema for {sorted(recorded - described)} "
        "(its schemas.json)")
