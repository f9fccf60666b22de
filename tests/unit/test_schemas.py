"""The published JSON Schemas hold for real games of every game (issue 12).

Every game's ``schemas.json`` (``aggregates/<game>/schemas.json``) describes its
view, its outcome and each event type's payload for one rules version; the
kernel (``aggregates.kernel.record.schemas``) adds the screen vocabulary and the event
envelope. Here random bots play games of every game, at several player counts
and with seeds the schemas were not made from, and everything those games put
on the wire is validated: every reader's view and screen along the way, each
event's payload in its private and its public form, the outcome, the options.

The per-game files are written from the games' declarations, never by hand
(``make schemas``: the events' classes, the outcome's and the view's
``TypedDict`` s; tests/unit/kernel/test_schemagen.py fails while a committed
file differs): here they are held to what the games really put on the wire.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from aggregates.catalog import GAMES
from aggregates.kernel import Game, event_type, payload_of, recorded_audience
from aggregates.kernel.outcome import outcome_json
from aggregates.kernel.record.schemas import DRAFT, EVENT, FIELDS, SCREEN, game_file, schemas_of
from tests.soak import SOAK, games

ROOT = Path(__file__).resolve().parents[2]
SERVED = {rules: cls for rules, cls in GAMES.items() if cls.__module__.startswith("aggregates.")}
#: Player counts played per game (its whole range when small).
COUNTS = {"enin": [1], "ethnos": [2, 3, 4, 5, 6], "ettin": [2, 3, 4, 5, 6],
          "titans": [2, 3, 4], "nine_empires": [2, 3, 4]}
MAX_COMMANDS = 20000
VIEW_EVERY = 5
#: Screens are drawn less often: Ettin's are slow to draw at large tables.
SCREEN_EVERY = 60


def playout(cls: type[Game], players: int, seed: int,
            every_reader: bool = SOAK) -> Iterator[tuple[str, Any]]:
    """One random game's wire JSON, as ``(what, value)``: ``view``, ``screen``,
    ``outcome``, ``options`` and ``payload:<EventType>`` (private and public forms).

    Every reader's view and screen at the start and the end; in between, every
    ``VIEW_EVERY`` commands, every reader's under ``make soak``
    (``every_reader``), else one reader's in turn (the spectator, then each
    seat): validating views was most of the test's time (a 4-player Nine
    Empires' view is the largest document), and each reader's is still read at
    one in (players + 1) of the sampled points, through every phase of a game."""
    rng = random.Random(seed)
    game = cls.start([f"p{i}" for i in range(players)], seed=f"{seed:064x}")
    readers: list[int | None] = [None, *range(players)]
    sampled = 0

    def views(screens: bool = True, everyone: bool = True) -> Iterator[tuple[str, Any]]:
        nonlocal sampled
        sampled += 1
        for reader in readers if everyone else [readers[sampled % len(readers)]]:
            yield "view", game.view(reader)
        for reader in readers if screens else []:
            yield "screen", game.present(reader).to_json()

    def events() -> Iterator[tuple[str, Any]]:
        for ev in game.collect_events():
            kind, payload = event_type(ev), payload_of(ev)
            _, public = recorded_audience(cls, kind, payload, ev.meta)
            yield f"payload:{kind}", payload
            yield f"payload:{kind}", public

    yield "options", {}
    yield from events()
    yield from views()
    for step in range(MAX_COMMANDS):
        if game.ended:
            break
        seat = rng.choice(game.waiting_on())
        game.act(seat, rng.choice(game.legal_actions(seat)))
        yield from events()
        if step % VIEW_EVERY == 0:
            yield from views(screens=step % SCREEN_EVERY == 0, everyone=every_reader)
    assert game.ended, f"{cls.RULES_ID} did not end in {MAX_COMMANDS} commands"
    yield from views()
    yield "outcome", outcome_json(game)


def validators(cls: type[Game]) -> dict[str, Draft202012Validator]:
    served = schemas_of(cls)
    out = {name: Draft202012Validator(served[name]) for name in FIELDS if name != "payload_json"}
    for kind, schema in served["payload_json"].items():
        out[f"payload:{kind}"] = Draft202012Validator(schema)
    return out


WHAT_FIELD = {"view": "view_json", "screen": "screen_json", "outcome": "outcome_json",
              "options": "options_json"}


@pytest.mark.parametrize("rules", sorted(SERVED))
def test_every_game_has_schemas_for_its_rules_version(rules: str) -> None:
    cls = SERVED[rules]
    own = game_file(cls)
    assert own is not None, f"aggregates/{rules}/schemas.json is missing"
    assert own["rules"] == rules and own["rules_version"] == cls.RULES_VERSION, (
        "a new rules version needs its schemas written: run make schemas")
    served = schemas_of(cls)
    for name in FIELDS:
        schemas = served[name].values() if name == "payload_json" else [served[name]]
        for schema in schemas:
            Draft202012Validator.check_schema(schema)
            assert schema["$schema"] == DRAFT and schema["$id"].startswith(
                f"urn:arbiter:{rules}:{cls.RULES_VERSION}:")
    assert served["payload_json"], "every event type's payload is described"


@pytest.mark.heavy(20)
@pytest.mark.parametrize("rules", sorted(SERVED))
def test_random_games_match_the_published_schemas(rules: str) -> None:
    cls = SERVED[rules]
    checks = validators(cls)
    seen: set[str] = set()
    validated: set[tuple[str, str]] = set()
    # Both ends of the range and every other count between in CI; every count
    # twice under make soak (a payload's shape does not change with the seats).
    for players in COUNTS[rules] if SOAK else COUNTS[rules][::2]:
        for n in range(games(1, 2)):
            for what, value in playout(cls, players, 900_000 + 100 * players + n):
                name = WHAT_FIELD.get(what, what)
                assert name in checks, f"{rules}: no schema for {what} (a new event type?)"
                # A value met before (a view or screen unchanged since the last
                # move) passed or failed already: validation is most of the time.
                text = json.dumps(value, sort_keys=True)
                if (name, text) in validated:
                    continue
                validated.add((name, text))
                errors = sorted(checks[name].iter_errors(value), key=str)
                assert not errors, (f"{rules} {players}p: {what} breaks its schema at "
                                    f"{list(errors[0].absolute_path)}: {errors[0].message}")
                seen.add(what)
    assert {"view", "screen", "outcome", "options"} <= seen


def test_kernel_schemas_are_valid_and_match_the_vocabulary() -> None:
    from aggregates.kernel.present import ITEM_KINDS, Card, Cards, Note, Track, screen, section

    Draft202012Validator.check_schema(SCREEN)
    Draft202012Validator.check_schema(EVENT)
    assert set(SCREEN["$defs"]) >= set(ITEM_KINDS)
    drawn = screen(section("You", Track("HP", 7, 12), Note("hello"),
                           Cards("Hand", (Card(1, "Elf", tag="red"),), numbered=True))).to_json()
    Draft202012Validator(SCREEN).validate(drawn)
    with pytest.raises(Exception):  # noqa: B017 - any validation error
        Draft202012Validator(SCREEN).validate({"sections": [{"title": "x", "items": [
            {"kind": "dial"}]}]})


def unrecorded_fields(cls: type[Game]) -> list[tuple[str, str]]:
    """``(event type, key)`` of every fact an upcast sets to null in older records."""
    from aggregates.kernel import declared

    return [(kind, field.name) for kind, ev in declared.events(cls).items()
            for field in ev.fields if field.upcast_null]


@pytest.mark.parametrize("rules", sorted(SERVED))
def test_upcast_events_match_too(rules: str) -> None:
    """An old game's events read upcast, with the facts they never recorded as null."""
    cls = SERVED[rules]
    served = schemas_of(cls)["payload_json"]
    for kind, key in unrecorded_fields(cls):
        assert Draft202012Validator(served[kind]["properties"][key]).is_valid(None), (kind, key)


def recorded(data_dir: Path) -> Iterator[tuple[type[Game], str, Any]]:
    """The wire JSON of every game in a copy of the pre-Kernel-2 store
    (``tests/fixtures/store_v1``), as ``(game class, what, value)``: each event read
    back upcast, in its private and its public form, every reader's view, the outcome."""
    import shutil

    from service.application import ArbiterApp
    from service.auth import Credentials
    from service.config import Settings
    from service.envelope import dumps

    shutil.copytree(ROOT / "tests" / "fixtures" / "store_v1", data_dir)
    env = {**Settings(data_dir=data_dir).store_env(), "IS_SNAPSHOTTING_ENABLED": "n"}
    app = ArbiterApp(env, snapshot_interval=0, credentials=Credentials.configure(data_dir))
    try:
        for entry in app.list_games(limit=100):
            game = app.game(str(entry.game_id))
            cls = type(game)
            for ev in app.game_events(str(entry.game_id)):
                kind, payload = event_type(ev), payload_of(ev)
                _, public = recorded_audience(cls, kind, payload, ev.meta)
                for form in (payload, public):
                    yield cls, f"payload:{kind}", json.loads(dumps(form))
            for reader in (None, *range(len(game.seats))):
                yield cls, "view", json.loads(dumps(game.view(reader)))
            yield cls, "outcome", outcome_json(game)
    finally:
        app.close()


@pytest.mark.heavy(7)
def test_games_recorded_by_an_older_release_match_too(tmp_path: Path) -> None:
    checked: set[str] = set()
    for cls, what, value in recorded(tmp_path / "data"):
        checks = validators(cls)
        errors = list(checks[WHAT_FIELD.get(what, what)].iter_errors(value))
        assert not errors, (cls.RULES_ID, what, errors[0].message)
        checked.add(cls.RULES_ID)
    assert checked


def test_a_game_without_a_file_gets_open_schemas_and_its_declared_payloads() -> None:
    """Its view is "an object"; each event it declares (here only the kernel's)
    is served the schema its ``@event`` signature derives (``kernel.declared``)."""
    from aggregates.kernel import declared

    class Unlisted(Game):
        RULES_ID = "unlisted"
        RULES_VERSION = "0"

    served = schemas_of(Unlisted)
    assert served["view_json"]["type"] == "object"
    assert set(served["payload_json"]) == set(declared.events(Unlisted)) == {
        "Created", "Ended", "EntropyAdded", "DefaultApplied"}
    assert served["payload_json"]["EntropyAdded"]["properties"] == {
        "seat": {"type": "integer"}, "entropy": {"type": "string"}}


def test_the_template_games_events_match_the_schemas_derived_from_their_declarations() -> None:
    """The template game has no schemas file: every payload it records, private
    and public (its hidden bids, ``ChoiceMade``'s public form), is checked
    against the schema derived from its declaration."""
    from tests.template_game import Template

    checks = validators(Template)
    seen = set()
    for seats in (2, 4):
        for what, value in playout(Template, seats, 31 + seats):
            if what.startswith("payload:"):
                errors = list(checks[what].iter_errors(value))
                assert not errors, (what, value, errors[0].message)
                seen.add(what)
    assert {"payload:ChoiceMade", "payload:ChoicesRevealed", "payload:Ended"} <= seen
