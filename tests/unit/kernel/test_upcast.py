"""Issue 9, item 7: old events read in the new shape, the chain still over the
bytes as stored (``aggregates.kernel.record.upcast``).

The games of ``tests/fixtures/store_v1`` were recorded before the events
stated their whole fact: loaded through the library they come upcast, their
stored payload kept in their meta; the chain is recomputed over that stored
form, re-execution compares the new shape. The same holds for a plain record
that still has the old shape (an export of an older release), and each way
of tampering with an upcast event is named by its version.
"""

from __future__ import annotations

import dataclasses
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from aggregates.catalog import GAMES, RULES
from aggregates.enin import Enin
from aggregates.kernel.record import chain, upcast
from aggregates.kernel.record.audit import Record, audit, record_of
from aggregates.kernel.record.verify import fold, verify_records
from service.application import ArbiterApp
from service.auth import Credentials
from service.config import Settings

STORE = Path(__file__).resolve().parents[2] / "fixtures" / "store_v1"


@pytest.fixture(scope="module")
def old_games(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, list[Any]]]:
    """Every game of the old store, its events as the library loads them."""
    data_dir = tmp_path_factory.mktemp("upcast") / "data"
    shutil.copytree(STORE, data_dir)
    env = {**Settings(data_dir=data_dir).store_env(), "IS_SNAPSHOTTING_ENABLED": "n"}
    app = ArbiterApp(env, snapshot_interval=0, credentials=Credentials.configure(data_dir))
    try:
        yield {f"{e.rules}-{e.game_id}": app.game_events(str(e.game_id))
               for e in app.list_games(limit=100)}
    finally:
        app.close()


def enin_records(old_games: dict[str, list[Any]]) -> list[Record]:
    """The longest old Enin game, as plain records."""
    events = max((evs for name, evs in old_games.items() if name.startswith("enin")), key=len)
    return [record_of(ev) for ev in events]


def upcast_at(records: list[Record], kind: str) -> int:
    return next(i for i, r in enumerate(records)
                if r.type == kind and upcast.STORED in (r.meta or {}))


def test_old_events_load_in_the_new_shape_and_audit(old_games: dict[str, list[Any]]) -> None:
    """Every old Enin exchange and XP gain is read with the facts v2 states;
    the stored payload rides in the meta, and each game audits clean."""
    seen: set[str] = set()
    for events in old_games.values():
        rules = events[0].rules
        for ev in events:
            meta = ev.meta
            if upcast.STORED not in meta:
                continue
            seen.add(type(ev).__name__)
            stored = meta[upcast.STORED]
            assert stored["class_version"] == 1
            if type(ev).__name__ in ("ExchangeWon", "ExchangeLost"):
                assert ev.strength_bonus == 0 and ev.rolled is None
                assert "strength_bonus" not in stored["payload"]
                assert stored["unrecorded"] == ["rolled"]
            if type(ev).__name__ == "XpGained":
                assert ev.rolled == stored["payload"]["dice"]
        report = audit(events, GAMES[rules])
        assert report.ok, report.problems
    assert {"ExchangeWon", "ExchangeLost", "XpGained"} <= seen


def test_the_chain_is_over_the_stored_form(old_games: dict[str, list[Any]]) -> None:
    """The digest of an upcast event matches its stored payload, not the new one."""
    records = enin_records(old_games)
    seed = records[0].payload["seed"]
    i = upcast_at(records, "XpGained")
    rec = records[i]
    stored, meta = upcast.stored_form(rec.payload, rec.meta)
    assert stored != rec.payload

    def digest(payload: dict[str, Any], meta: dict[str, Any]) -> str:
        return chain.digest(rec.prev, rec.game_id, rec.version, rec.type, rec.time,
                            payload, meta, chain.salt(seed, rec.version))

    assert digest(stored, meta) == rec.digest
    assert digest(rec.payload, meta) != rec.digest


def test_a_record_of_the_old_shape_verifies_offline(old_games: dict[str, list[Any]]) -> None:
    """An export of an older release holds the stored payloads and no kept
    form: it is upcast on reading, verifies and folds to the same game."""
    records = enin_records(old_games)
    old = [dataclasses.replace(r, payload=upcast.stored_form(r.payload, r.meta)[0],
                               meta=upcast.stored_form(r.payload, r.meta)[1]) for r in records]
    assert any(o.payload != r.payload for o, r in zip(old, records, strict=True))
    for recs in (records, old):
        verdict = verify_records({}, recs, RULES)
        assert verdict.ok and verdict.complete, verdict.report.problems
    assert fold(old, Enin).view(0) == fold(records, Enin).view(0)


def test_tampering_with_an_upcast_event_names_its_version(
    old_games: dict[str, list[Any]],
) -> None:
    """The stored form is the chain's (a change breaks the digest); the new
    shape is re-derived from it (a change to a derived or unrecorded fact is
    refused by the replay check)."""
    records = enin_records(old_games)
    i = upcast_at(records, "ExchangeWon")
    rec = records[i]

    def with_(payload: dict[str, Any] | None = None, meta: dict[str, Any] | None = None
              ) -> list[Record]:
        out = list(records)
        out[i] = dataclasses.replace(rec, payload=payload or rec.payload,
                                     meta=meta or rec.meta)
        return out

    kept = dict(rec.meta[upcast.STORED])  # type: ignore[index]
    forged = {**kept, "payload": {**kept["payload"], "total": 99}}
    verdict = verify_records({}, with_(meta={**(rec.meta or {}), upcast.STORED: forged}), RULES)
    assert not verdict.report.chain_ok and verdict.first_failure == rec.version
    for key, value in (("strength_bonus", 1), ("rolled", [1, 1])):
        verdict = verify_records({}, with_(payload={**rec.payload, key: value}), RULES)
        assert not verdict.report.replay_ok and verdict.first_failure == rec.version, key


def test_an_old_game_read_from_history_verifies_offline(
    old_games: dict[str, list[Any]],
) -> None:
    """``arbiter export`` of an old game (the full record, as ``History``
    sends it): the upcast payload on the wire, the stored form in the meta;
    ``arbiter verify`` on it passes."""
    from aggregates.records import event_line, records_of
    from service.envelope import Reader, to_proto

    for events in old_games.values():
        game_class = GAMES[events[0].rules]
        # As History reads it: a finished game's seed revealed, a running one's not.
        reader = Reader(full=True).for_game(events[-1].__class__.__name__ == "Ended")
        lines = [event_line(to_proto(game_class, ev, reader)) for ev in events]
        header = {"game_id": str(events[0].originator_id)}
        verdict = verify_records(header, records_of(header, lines), GAMES)
        assert verdict.ok, verdict.report.problems


# ------------------------------------------- every game's upcasts, from v1 records


def v1_of(rec: Record, game_class: type) -> Record:
    """A v2 record as the release before v2 recorded it: the added keys gone
    (and an XP gain's ``dice`` as rolled, as v1 had them)."""
    from aggregates.kernel.game import _event_class

    try:
        event_class = _event_class(game_class, rec.type)
    except TypeError:
        return rec
    steps = getattr(event_class, "upcast_steps", ())
    if not steps:
        return rec
    payload = dict(rec.payload)
    if rec.type == "XpGained":
        payload["dice"] = payload["rolled"]
    for step in steps:
        for key in step.added:
            payload.pop(key, None)
    return dataclasses.replace(rec, payload=payload)


def rechained(records: list[Record], seed: str) -> list[Record]:
    """Records with their digests recomputed over their payloads: what the old
    release, which stored those payloads, had chained."""
    out: list[Record] = []
    prev = chain.GENESIS
    for rec in records:
        meta = {k: v for k, v in (rec.meta or {}).items() if k not in ("digest", "prev")}
        digest = chain.digest(prev, rec.game_id, rec.version, rec.type, rec.time, rec.payload,
                              meta, chain.salt(seed, rec.version))
        out.append(dataclasses.replace(rec, prev=prev, digest=digest,
                                       meta={**meta, "prev": prev, "digest": digest}))
        prev = digest
    return out


def played_records(rules: str, seed: int) -> tuple[type, list[Record]]:
    """A finished random game of ``rules`` as plain records."""
    import random

    from tests.template_game import Template

    game_class: Any = Template if rules == "template" else GAMES[rules]
    seats = {"enin": 1, "ethnos": 3, "ettin": 2, "template": 3}[rules]
    rnd = random.Random(seed)
    game = game_class.start([f"s{i}" for i in range(seats)], seed=f"{seed:064x}")
    events: list[Any] = list(game.collect_events())
    while not game.ended:
        seat = rnd.choice(game.waiting_on())
        game.act(seat, rnd.choice(game.legal_actions(seat)))
        events.extend(game.collect_events())
    return game_class, [record_of(ev) for ev in events]


# Ettin's only same-type step (GoldChanged's totals) now reads through its
# legacy reader: see test_old_ettin_records_read_as_the_rulebooks_facts.
@pytest.mark.parametrize("rules", ["enin", "ethnos", "template"])
def test_every_games_v1_records_upcast_verify_and_fold(rules: str) -> None:
    """Each game's upcast steps, on records of the shape before v2 (chained as
    the old release chained them): they verify, and fold to the same game."""
    for seed in (1, 2):
        game_class, records = played_records(rules, seed)
        old = rechained([v1_of(r, game_class) for r in records], records[0].payload["seed"])
        changed = sum(o.payload != r.payload for o, r in zip(old, records, strict=True))
        assert changed > 0, "no event of this game was versioned in the play"
        games = {**GAMES, game_class.RULES_ID: game_class}
        verdict = verify_records({}, old, games)
        assert verdict.ok and verdict.complete, verdict.report.problems
        assert fold(old, game_class).view(None) == fold(records, game_class).view(None)
        # A v1 record with a v2 key forged in: the stored form the chain
        # vouches for has no such key, and the new shape is re-derived from it.
        i = next(i for i, (o, r) in enumerate(zip(old, records, strict=True))
                 if o.payload != r.payload)
        forged = list(old)
        forged[i] = dataclasses.replace(old[i], payload=records[i].payload)
        assert verify_records({}, forged, games).first_failure == old[i].version


# ------------------------------------------------- an event type that changed


def acted_of(rec: Record) -> Record:
    """A template ``Passed``/``LetGo`` record as the (imagined) release that
    recorded both as ``Acted(what, position)`` stored it."""
    from tests.template_game.upcasts import ACTED

    what = {kind: what for what, kind in ACTED.items()}.get(rec.type)
    if what is None:
        return rec
    return dataclasses.replace(rec, type="Acted",
                               payload={"what": what, "position": rec.payload["position"]})


def test_a_changed_event_type_reads_as_the_current_one() -> None:
    """``upcast.Retype`` on the template game: old ``Acted`` records (chained
    over the old type) verify offline as ``Passed``/``LetGo``, fold to the same
    game, and a forged stored type or derived fact names its version."""
    from tests.template_game import Template

    game_class, records = played_records("template", 3)
    old = rechained([acted_of(r) for r in records], records[0].payload["seed"])
    acted = [i for i, r in enumerate(old) if r.type == "Acted"]
    assert acted, "the play passed or let go at least once"
    games: dict[str, Any] = {**GAMES, "template": Template}
    verdict = verify_records({}, old, games)
    assert verdict.ok and verdict.complete, verdict.report.problems
    assert fold(old, Template).view(None) == fold(records, Template).view(None)
    # Read as the rules name it now, the stored type and payload kept for the chain.
    from aggregates.kernel.record.audit import upcast_record

    read = upcast_record(old[acted[0]], Template)
    assert (read.type, read.payload) == (records[acted[0]].type, records[acted[0]].payload)
    assert read.meta is not None and read.meta[upcast.STORED]["type"] == "Acted"
    assert upcast.stored_type(read.type, read.meta) == "Acted"
    assert upcast.stored_form(read.payload, read.meta)[0] == old[acted[0]].payload
    # Re-read, it is derived from the stored form again (never taken on trust).
    forged = dataclasses.replace(read, payload={"position": 1 - read.payload["position"]})
    assert upcast_record(forged, Template).payload == read.payload
    # The rules cannot emit the legacy reader's type.
    with pytest.raises(TypeError):
        from aggregates.kernel.game import _event_class

        _event_class(Template, "Acted")
    # A forged stored type breaks the chain at its version.
    i = acted[0]
    tampered = list(old)
    tampered[i] = dataclasses.replace(old[i], type=records[i].type, payload=records[i].payload)
    assert verify_records({}, tampered, games).first_failure == old[i].version


def test_the_library_loads_a_changed_type_through_its_legacy_reader(tmp_path: Path) -> None:
    """A stored ``Acted`` event (topic ``...:Template.Acted``) comes out of the
    library's mapper as the legacy reader, named ``Passed``/``LetGo`` by
    ``current_type``, its stored type and payload in the meta; applying it
    evolves the game as the current event does."""
    import uuid

    from eventsourcing.persistence import StoredEvent

    from tests.template_game import Template

    game_class, records = played_records("template", 3)
    i = next(i for i, r in enumerate(records) if r.type == "Passed")
    old = rechained([acted_of(r) for r in records], records[0].payload["seed"])
    env = {**Settings(data_dir=tmp_path).store_env(), "IS_SNAPSHOTTING_ENABLED": "n"}
    app = ArbiterApp(env, snapshot_interval=0, credentials=Credentials.configure(tmp_path))
    try:
        state = {"timestamp": datetime_of(old[i].time), "meta": dict(old[i].meta or {}),
                 **old[i].payload}
        stored = StoredEvent(
            originator_id=uuid.UUID(old[i].game_id), originator_version=old[i].version,
            topic="tests.template_game.game:Template.Acted",
            state=app.mapper.transcoder.encode(state))
        ev: Any = app.mapper.to_domain_event(stored)
    finally:
        app.close()
    assert type(ev).__name__ == "StoredActReader"
    assert upcast.current_type(ev) == "Passed" and record_of(ev).type == "Passed"
    assert record_of(ev).payload == records[i].payload
    assert ev.meta[upcast.STORED]["type"] == "Acted"
    before = fold(old, Template, upto=old[i].version - 1)
    ev.mutate(before)
    assert before.view(None) == fold(records, Template, upto=records[i].version).view(None)


def datetime_of(text: str) -> Any:
    import datetime

    return datetime.datetime.fromisoformat(text)


STORE_V2 = Path(__file__).resolve().parents[2] / "fixtures" / "store_v2"


@pytest.mark.heavy(6)
def test_old_ettin_records_read_as_the_rulebooks_facts(tmp_path: Path) -> None:
    """The Ettin games of ``store_v2`` (recorded as ``Moved``/``GoldChanged``/
    ``Updated``): through the library each reads as the current events, no
    patch left; exported as the old release stored them (old types and
    payloads, and GoldChanged without ``totals`` as before issue 9) they
    verify offline and fold to the game the library loads."""
    from aggregates.ettin.v1 import EttinV1 as Ettin

    data_dir = tmp_path / "data"
    shutil.copytree(STORE_V2, data_dir)
    env = {**Settings(data_dir=data_dir).store_env(), "IS_SNAPSHOTTING_ENABLED": "n"}
    app = ArbiterApp(env, snapshot_interval=0, credentials=Credentials.configure(data_dir))
    try:
        games = [app.game_events(str(e.game_id)) for e in app.list_games(limit=100)
                 if e.rules == "ettin"]
        loaded = {str(evs[0].originator_id): app.game(str(evs[0].originator_id))
                  for evs in games}
    finally:
        app.close()
    assert len(games) == 5
    for events in games:
        records = [record_of(ev) for ev in events]
        assert not {"Moved", "GoldChanged", "Updated"} & {r.type for r in records}
        stored = [dataclasses.replace(r, type=upcast.stored_type(r.type, r.meta),
                                      payload=upcast.stored_form(r.payload, r.meta)[0],
                                      meta=upcast.stored_form(r.payload, r.meta)[1])
                  for r in records]
        assert {"Moved", "GoldChanged", "Updated"} <= {r.type for r in stored}
        from aggregates.catalog import RULES as registry  # Ettin 1 recorded them
        for recs in (records, stored):
            verdict = verify_records({}, recs, registry)
            assert verdict.ok, verdict.report.problems
        game = loaded[records[0].game_id]
        assert fold(stored, Ettin).view(None) == game.view(None)
        # GoldChanged as recorded before it stated its totals (issue 9): still read.
        seed = records[0].payload["seed"]
        v1 = rechained([dataclasses.replace(r, payload={k: v for k, v in r.payload.items()
                                                        if k != "totals"})
                        if r.type == "GoldChanged" else r for r in stored], seed)
        assert verify_records({}, v1, registry).ok
        assert fold(v1, Ettin).view(None) == game.view(None)
