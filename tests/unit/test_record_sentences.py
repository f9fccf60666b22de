"""A record's sentences are re-told from its payloads (``aggregates.kernel.record.verify``):
the game's own words for each event, as the server tells them, must be the
recorded ones (they are outside the hash chain); the header's rules, version
and seats must be the creation event's. In memory, over an Enin game."""

from __future__ import annotations

import random
from typing import Any

from aggregates.catalog import GAMES
from aggregates.enin import Enin
from aggregates.kernel.record.audit import Record, record_of
from aggregates.kernel.record.verify import event_sentence, verify_records


def played(seed: int) -> list[Record]:
    rnd = random.Random(seed)
    game = Enin.start(["Ada"])
    events: list[Any] = list(game.collect_events())
    while not game.ended:
        seat = game.waiting_on()[0]
        game.act(seat, rnd.choice(game.legal_actions(seat)))
        events.extend(game.collect_events())
    return [record_of(ev) for ev in events]


def told(records: list[Record]) -> list[str]:
    return [event_sentence(Enin, r.type, r.payload, ["Ada"]) for r in records]


def test_the_recorded_sentences_are_the_ones_the_payloads_tell() -> None:
    records = played(1)
    verdict = verify_records({}, records, GAMES, texts=told(records))
    assert verdict.ok, verdict.report.problems
    assert f"{len(records)} event sentences, each re-told from its payload by enin " \
        f"{Enin.RULES_VERSION}" in verdict.checked


def test_a_sentence_its_payload_does_not_tell_fails_at_its_version() -> None:
    records = played(2)
    texts: list[Any] = told(records)
    texts[9] = "Ada wins."
    texts[3] = None  # a line without a sentence: nothing to check
    verdict = verify_records({}, records, GAMES, texts=texts)
    assert not verdict.ok and verdict.first_failure == records[9].version
    assert verdict.report.problems == [
        f"replay: version {records[9].version}: its sentence 'Ada wins.' is not what its "
        f"payload tells ({told(records)[9]!r})"]


def test_rules_this_release_cannot_load_leave_the_sentences_unchecked() -> None:
    records = played(3)
    verdict = verify_records({}, records, {}, texts=told(records))
    assert verdict.ok and verdict.not_loadable
    assert any(line.startswith("the events' sentences") for line in verdict.not_checked)


def test_a_header_naming_other_rules_version_or_seats_fails_at_the_creation() -> None:
    records = played(4)
    for field, value in (("rules", "ethnos"), ("rules_version", "9.9"), ("seats", ["Bo"])):
        verdict = verify_records({field: value}, records, GAMES)
        assert not verdict.ok and verdict.first_failure == 1
        assert verdict.rules == "enin" and verdict.rules_version == Enin.RULES_VERSION
