"""The audit's fast paths catch every tampering the full comparisons caught.

The re-execution compares each re-executed event with its record by marshal
bytes before canonical JSON, the chain check hashes a record's payload
without copying it, and the server compares a snapshot with the state the
events make by encoded bytes before canonical JSON (``kernel.audit``,
``service.auditing``). These tests tamper with a stored game in each way the
fast paths could miss and check each is still named by its version: most
with the chain resealed, as anyone holding the revealed seed can reseal it,
so that only the re-execution stands between the record and the forgery.
"""

from __future__ import annotations

import dataclasses
import hmac
import json
import random
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aggregates.enin import Enin
from aggregates.kernel.record import chain, upcast
from aggregates.kernel.record.audit import (
    AuditReport,
    Record,
    audit_records,
    check_chain,
    check_links,
    records_of,
)
from service import auditing


def played(seed: int) -> list[Record]:
    """A whole Enin game of random legal moves, its records read back as the
    store gives them (through JSON: tuples become lists)."""
    rnd = random.Random(seed)
    game = Enin.start(["solo"], seed=f"{seed:02x}" * 32)
    events: list[Any] = list(game.collect_events())
    while not game.ended:
        seat = game.waiting_on()[0]
        game.act(seat, rnd.choice(game.legal_actions(seat)), f"c{game.version}")
        events.extend(game.collect_events())
    return [dataclasses.replace(r, payload=json.loads(json.dumps(r.payload)),
                                meta=json.loads(json.dumps(r.meta)))
            for r in records_of(events)]


@pytest.fixture(scope="module")
def records() -> list[Record]:
    found = played(5)
    assert len(found) > 40
    return found


def resealed(records: list[Record]) -> list[Record]:
    """The records with every digest recomputed from the revealed seed: a
    forger's chain, which the chain check cannot tell from the server's."""
    seed = records[0].payload["seed"]
    out: list[Record] = []
    prev = chain.GENESIS
    for rec in records:
        meta = {**(rec.meta or {}), "prev": prev}
        digest = chain.digest(prev, rec.game_id, rec.version, rec.type, rec.time, rec.payload,
                              meta, chain.salt(seed, rec.version))
        meta["digest"] = digest
        out.append(dataclasses.replace(rec, meta=meta, digest=digest, prev=prev))
        prev = digest
    return out


def changed(records: list[Record], version: int,
            change: Callable[[Record], Record]) -> list[Record]:
    out = list(records)
    out[version - 1] = change(records[version - 1])
    return out


def first_with(records: list[Record], test: Callable[[Record], bool]) -> int:
    """The version of the first record after the creation that passes ``test``."""
    return next(r.version for r in records[1:] if test(r))


def an_int_key(rec: Record) -> str | None:
    return next((k for k, v in rec.payload.items() if type(v) is int), None)


def test_the_resealed_record_itself_passes(records: list[Record]) -> None:
    # The baseline of every forgery below: resealing alone changes nothing.
    report = audit_records(resealed(records), Enin)
    assert report.ok, report.problems


@pytest.mark.parametrize("retyped", [lambda v: float(v), lambda v: bool(v) if v in (0, 1) else
                                     float(v)], ids=["int as float", "int as bool or float"])
def test_a_payload_number_of_another_type_differs_on_re_execution(
        records: list[Record], retyped: Callable[[int], Any]) -> None:
    # Equal in Python (1 == 1.0 == True), apart in JSON: a reader sees another record.
    version = first_with(records, lambda r: an_int_key(r) is not None)

    def change(rec: Record) -> Record:
        key = an_int_key(rec)
        assert key is not None
        return dataclasses.replace(rec, payload={**rec.payload, key: retyped(rec.payload[key])})

    report = audit_records(resealed(changed(records, version, change)), Enin)
    assert report.chain_ok and report.dice_ok
    assert not report.replay_ok
    assert report.first_failure == version
    assert f"replay: version {version} differs on re-execution" in report.problems


def test_a_meta_number_of_another_type_differs_on_re_execution(records: list[Record]) -> None:
    # The dice check reads the counter as a number (5.0 == 5); re-execution does not.
    version = len(records) // 2

    def change(rec: Record) -> Record:
        assert rec.meta is not None
        return dataclasses.replace(rec, meta={**rec.meta, "rng": float(rec.meta["rng"])})

    report = audit_records(resealed(changed(records, version, change)), Enin)
    assert report.chain_ok and report.dice_ok
    assert report.first_failure == version
    assert f"replay: version {version} differs on re-execution" in report.problems


def test_a_changed_payload_value_differs_on_re_execution(records: list[Record]) -> None:
    version = first_with(records, lambda r: an_int_key(r) is not None)

    def change(rec: Record) -> Record:
        key = an_int_key(rec)
        assert key is not None
        return dataclasses.replace(rec, payload={**rec.payload, key: rec.payload[key] + 1})

    report = audit_records(resealed(changed(records, version, change)), Enin)
    assert report.chain_ok and not report.replay_ok and report.first_failure == version


def test_a_payload_key_added_or_dropped_differs_on_re_execution(records: list[Record]) -> None:
    version = first_with(records, lambda r: bool(r.payload))
    added = changed(records, version,
                    lambda r: dataclasses.replace(r, payload={**r.payload, "extra": 0}))
    dropped = changed(records, version, lambda r: dataclasses.replace(
        r, payload=dict(list(r.payload.items())[1:])))
    for forged in (added, dropped):
        report = audit_records(resealed(forged), Enin)
        assert report.chain_ok and report.first_failure == version, report.problems


def test_a_recorded_command_no_decision_takes_is_refused_on_replay(
        records: list[Record]) -> None:
    version = first_with(records, lambda r: "cmd" in (r.meta or {}))

    def illegal(rec: Record) -> Record:
        assert rec.meta is not None
        return dataclasses.replace(rec, meta={**rec.meta, "cmd": {
            **rec.meta["cmd"], "name": "travel", "args": {"to": 99}}})

    report = audit_records(resealed(changed(records, version, illegal)), Enin)
    assert report.chain_ok and not report.replay_ok and report.first_failure == version
    assert any(p.startswith(f"replay: version {version}: ") for p in report.problems)


def test_an_event_recorded_under_another_type_differs(records: list[Record]) -> None:
    version = len(records) // 2
    other = next(r.type for r in records[1:] if r.type != records[version - 1].type)
    forged = changed(records, version, lambda r: dataclasses.replace(r, type=other))
    report = audit_records(resealed(forged), Enin)
    assert report.chain_ok and report.first_failure == version


def test_keys_in_another_order_are_the_same_event(records: list[Record]) -> None:
    # Canonical JSON sorts keys (the digest too): not a tampering, on either path.
    version = first_with(records, lambda r: len(r.payload) > 1)
    reordered = changed(records, version, lambda r: dataclasses.replace(
        r, payload=dict(reversed(list(r.payload.items())))))
    report = audit_records(reordered, Enin)
    assert report.ok, report.problems


def test_an_unsealed_change_fails_the_chain_at_its_version(records: list[Record]) -> None:
    version = first_with(records, lambda r: an_int_key(r) is not None)

    def change(rec: Record) -> Record:
        key = an_int_key(rec)
        assert key is not None
        return dataclasses.replace(rec, payload={**rec.payload, key: float(rec.payload[key])})

    report = audit_records(changed(records, version, change), Enin)
    assert not report.chain_ok
    assert f"chain: version {version} digest does not match" in report.problems


def test_a_wrong_die_fails_the_dice_even_resealed(records: list[Record]) -> None:
    version = first_with(records, lambda r: bool((r.meta or {}).get("draws")))

    def change(rec: Record) -> Record:
        assert rec.meta is not None
        (counter, sides, value), *rest = rec.meta["draws"]
        wrong = value % sides + 1 if sides > 1 else value + 1
        return dataclasses.replace(rec, meta={**rec.meta,
                                              "draws": [[counter, sides, wrong], *rest]})

    report = audit_records(resealed(changed(records, version, change)), Enin)
    assert not report.dice_ok and report.first_failure == version


def test_an_upcast_record_still_takes_the_full_comparison(records: list[Record]) -> None:
    # A record with its stored form in its meta is re-derived from that form:
    # a current payload that is not the upcast of it is named.
    version = first_with(records, lambda r: an_int_key(r) is not None)

    def change(rec: Record) -> Record:
        assert rec.meta is not None
        key = an_int_key(rec)
        assert key is not None
        stored = {"payload": dict(rec.payload), "class_version": 2, "unrecorded": []}
        return dataclasses.replace(rec, payload={**rec.payload, key: rec.payload[key] + 1},
                                   meta={**rec.meta, upcast.STORED: stored})

    report = audit_records(changed(records, version, change), Enin)
    assert not report.replay_ok and report.first_failure == version


# ------------------------------------------------------------ the encoders


def test_canonical_json_is_the_encoders_own_text_and_errors() -> None:
    reference = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=True)

    def outcome(encode: Callable[[Any], str], value: Any) -> str:
        try:
            return encode(value)
        except Exception as exc:  # noqa: BLE001 - the kind of failure is compared
            return type(exc).__name__

    values: list[Any] = [
        "x", "é\u2028\n\"\\", 0, -1, 10**30, 1.0, -0.0, 0.1, 1e16, float("nan"), float("inf"),
        True, False, None, (1, [2, (3,)]), [], {}, {"b": 1, "a": {"d": [None], "c": "ü"}},
        {1: "int key"}, {True: 1}, {None: 2}, {1.5: 3}, {1: "a", "2": "b"}, object(),
        {(1, 2): 3}, {"a": {1, 2}},
    ]
    for value in values:
        assert outcome(chain.canonical, value) == outcome(reference.encode, value), value


#: JSON values without a float: what a record holds when its decoder met none.
FLOAT_FREE = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
    | st.text(alphabet=st.characters(codec="utf-8"), max_size=8)
    | st.sampled_from(["x", "a\x7fb", 'q"uote', "back\\slash", "\n", "é", "\u2028", "~ "]),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=4) | st.sampled_from(["a", "é", "\x7f"]), inner,
                      max_size=4),
    max_leaves=20,
)


@settings(max_examples=400, deadline=None)
@given(payload=FLOAT_FREE, meta=FLOAT_FREE, text=st.text(max_size=6),
       version=st.integers(min_value=-(2**70), max_value=2**70))
def test_a_float_free_record_has_the_canonical_digest(payload: Any, meta: Any, text: str,
                                                      version: int) -> None:
    # ``float_free`` may write the canonical text by orjson: the digest must be
    # the standard encoder's for every value without a float (non-ASCII text,
    # escapes, DEL, integers beyond 64 bits fall back to it).
    meta = meta if isinstance(meta, dict) else {"m": meta}
    args = ("ab" * 32, text, version, "Moved", text, payload, meta, "cd" * 32)
    assert chain.digest(*args, float_free=True) == chain.digest(*args)


@pytest.mark.parametrize(("number", "parted"), [
    (1e-05, True), (float("nan"), True), (float("inf"), True), (0.1, False), (1e16, False)])
def test_a_record_with_a_float_is_checked_by_the_standard_encoder(number: float,
                                                                  parted: bool) -> None:
    # orjson writes some floats apart from the standard encoder (1e-05 as
    # 0.00001, NaN as null) and its text alone cannot tell, so a record is
    # float-free on its reader's word only. A record with a float is checked
    # by the standard encoder: its digest holds; called float-free wrongly,
    # the check would fail it exactly where the two encoders part.
    records = resealed(played(6)[:3])
    forged = resealed([records[0], dataclasses.replace(
        records[1], payload={**records[1].payload, "extra": number}), records[2]])
    seed = forged[0].payload["seed"]
    report, misread = AuditReport(), AuditReport()
    check_chain(forged, seed, report)
    check_chain(forged, seed, misread, float_free={2})
    assert report.chain_ok, report.problems
    assert misread.chain_ok is not parted


def test_the_chain_check_reports_the_links_first_as_two_passes_did(records: list[Record]) -> None:
    # One pass over the records checks the links and the digests; its report
    # is the two passes' own: every link failure (``check_links``), then every
    # digest that does not match.
    seed = records[0].payload["seed"]
    broken = [*records[:5], *records[6:9],
              dataclasses.replace(records[9], payload={**records[9].payload, "x": 1}),
              *records[10:]]
    report, links = AuditReport(), AuditReport()
    check_chain(broken, seed, report)
    check_links(broken, links)
    assert links.problems and report.problems[:len(links.problems)] == links.problems
    assert report.problems[len(links.problems):] == [
        f"chain: version {v} digest does not match" for v in (7, 10)]
    assert report.first_failure == 6


def test_the_salt_is_hmac_sha256_of_the_version() -> None:
    seed = "5a" * 32
    for version in (1, 2, 10_000):
        assert chain.salt(seed, version) == chain.salter(seed)(version) == hmac.new(
            bytes.fromhex(seed), f"arbiter/chain/v1/{version}".encode("ascii"),
            "sha256").hexdigest()
    with pytest.raises(ValueError):
        chain.salter("not hex")


# ------------------------------------------------------------ the server's state comparison


class _Transcoded:
    """The store's transcoder, as ``service.auditing`` reaches it (``app.mapper``)."""

    def __init__(self) -> None:
        from eventsourcing.persistence import JSONTranscoder

        self.mapper = type("Mapper", (), {"transcoder": JSONTranscoder()})()


def test_states_compare_as_canonical_json_whatever_the_bytes() -> None:
    app: Any = _Transcoded()
    same = auditing._same_state
    assert same(app, {"a": 1, "b": [1, 2]}, {"a": 1, "b": [1, 2]})
    assert same(app, {"a": 1, "b": [1, 2]}, {"b": (1, 2), "a": 1})  # order, tuple: the same
    assert not same(app, {"a": 1}, {"a": 1.0})
    assert not same(app, {"a": 1}, {"a": True})
    assert not same(app, {"a": {"x": 1, "y": 2}}, {"a": {"y": 2, "x": 3}})
    # What is not compared is left out on both sides.
    assert same(app, {"a": 1, "_draws": [1]}, {"a": 1, "_draws": [2], "frames": []})
