"""The audit's shortcuts give the answers of the long ways they stand for.

- a stored row's JSON read by the scanner at once (``_decoded_object``) is
  ``json.loads``' value, and what ``json.loads`` refuses is still refused;
- states compared by their memo-less pickle bytes first (``_tree_bytes``)
  are the same exactly when their canonical JSON is, however their objects
  are shared;
- a recorded command parsed once per audit (``ParsedCommands``) is the
  command a fresh parse makes, its arguments' types told apart, and one
  that does not parse is refused every time.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from aggregates.enin import Enin
from aggregates.enin.commands import SpendLuck
from aggregates.kernel import RuleError
from aggregates.kernel.record.audit import ParsedCommands
from service import auditing

TEXTS = [
    b'{"a":1,"b":[1,2.5,true,null],"c":{"d":"\\u00e9"}}',
    '{"x": "caf\u00e9", "y": [ ]}'.encode(),
    b'{"a":1} ',
    b' {"a":1}',
    b"[1,2]",
]


@pytest.mark.parametrize("text", TEXTS)
def test_a_row_read_by_the_scanner_is_json_loads_value(text: bytes) -> None:
    assert auditing._decoded_object(text) == json.loads(text)


@pytest.mark.parametrize("text", [b'{"a":1}x', b'{"a":', b"", b'\xef\xbb\xbf{"a":1}', b"\xff"])
def test_what_json_refuses_is_refused(text: bytes) -> None:
    with pytest.raises(ValueError):
        auditing._decoded_object(text)


class _Transcoded:
    def __init__(self) -> None:
        from eventsourcing.persistence import JSONTranscoder

        self.mapper = type("Mapper", (), {"transcoder": JSONTranscoder()})()


def test_shared_objects_compare_the_same_and_types_apart() -> None:
    app: Any = _Transcoded()
    shared = ["x" * 40, {"k": 1}]
    one = {"a": shared, "b": shared}
    other = {"a": ["x" * 40, {"k": 1}], "b": ["x" * 40, {"k": 1}]}
    assert auditing._tree_bytes(one) == auditing._tree_bytes(other)
    assert auditing._same_state(app, one, other)
    assert not auditing._same_state(app, {"a": [1]}, {"a": [True]})
    assert not auditing._same_state(app, {"a": [1]}, {"a": [1.0]})
    assert auditing._same_state(app, {"a": (1, 2)}, {"a": [1, 2]})  # as JSON: the same


def test_a_command_parsed_once_is_a_fresh_parse() -> None:
    parsed = ParsedCommands(Enin)
    first = parsed.parse("spend_luck", {"die": 0, "amount": 1})
    assert first == Enin.COMMANDS.parse("spend_luck", {"die": 0, "amount": 1})
    assert parsed.parse("spend_luck", {"die": 0, "amount": 1}) is first
    assert parsed.parse("spend_luck", {"die": 1, "amount": 1}) == SpendLuck(die=1, amount=1)
    for _ in range(2):  # refused each time, never kept
        with pytest.raises(RuleError):
            parsed.parse("spend_luck", {"die": True, "amount": 1})
        with pytest.raises((RuleError, TypeError)):  # a name that is no string
            parsed.parse(["spend_luck"], {"die": 0, "amount": 1})
    assert len(parsed.parsed) == 2


def test_the_dice_the_replay_proved_are_not_drawn_again_and_the_verdict_is_the_same() -> None:
    """``check_draws`` leaves the dice of the records the re-execution made as
    recorded to it; the dice verdict and count are the full derivation's, on
    an honest game and on one with a die changed late (the chain resealed)."""
    from aggregates.kernel.record import rng
    from aggregates.kernel.record.audit import AuditReport, audit_records, check_dice
    from tests.unit.kernel.test_audit_fast_paths import changed, played, resealed

    records = played(7)
    late = [r for r in records if (r.meta or {}).get("draws")][-3].version

    def wrong_die(rec: Any) -> Any:
        (counter, sides, value), *rest = rec.meta["draws"]
        wrong = value % sides + 1 if sides > 1 else value + 1
        draws = [[counter, sides, wrong], *rest]
        return dataclasses.replace(rec, meta={**rec.meta, "draws": draws})

    derived: list[tuple[int, int]] = []
    real_draw = rng.draw

    def counted(seed: str, counter: int, sides: int) -> int:
        derived.append((counter, sides))
        return real_draw(seed, counter, sides)

    for game in (records, resealed(changed(records, late, wrong_die))):
        full = AuditReport()
        check_dice(game, game[0].payload["seed"], full)
        derived.clear()
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(rng, "draw", counted)
            report = audit_records(game, Enin)
        assert (report.dice_ok, report.dice) == (full.dice_ok, full.dice)
        assert [p for p in report.problems if p.startswith("dice")] == full.problems
        # Drawn once by the re-execution, again only from the creation and
        # from the first record it did not make as recorded.
        assert len(derived) < 1.2 * full.dice, (len(derived), full.dice)
    assert not full.dice_ok and report.first_failure == late


def test_a_games_rows_read_lean_from_sqlite_are_the_recorders(tmp_path: Any) -> None:
    """``_select_rows`` on the library's SQLite recorder returns the fields its
    ``select_events`` returns, which the library's mapper reads alike; a
    recorder of another kind is asked itself."""
    import random
    import uuid

    from bench.store import SNAPSHOT_INTERVAL, sqlite_env
    from service.application import ArbiterApp

    app = ArbiterApp(sqlite_env(tmp_path), SNAPSHOT_INTERVAL)
    game = app.create_game("enin", ["solo"])
    rnd = random.Random(3)
    for _ in range(12):
        if game.ended:
            break
        game.act(0, rnd.choice(game.legal_actions(0)), uuid.uuid4().hex)
    app.save(game)
    gid = game.id
    fields = ("originator_id", "originator_version", "topic", "state")
    lean = [tuple(getattr(row, f) for f in fields)
            for row in auditing._select_rows(app.recorder, gid)]
    assert lean == [tuple(getattr(row, f) for f in fields)
                    for row in app.recorder.select_events(gid)]
    # The library's mapper reads a lean row as it reads its own.
    assert [app.mapper.to_domain_event(row) for row in auditing._select_rows(app.recorder, gid)] \
        == [app.mapper.to_domain_event(row) for row in app.recorder.select_events(gid)]
    assert len(auditing._select_rows(app.recorder, gid)) == game.version

    class Other:
        def select_events(self, originator_id: uuid.UUID) -> list[str]:
            return [f"asked for {originator_id}"]

    assert auditing._select_rows(Other(), gid) == [f"asked for {gid}"]
    app.close()


@pytest.mark.parametrize("number", [b"1e-05", b"2.5", b"NaN", b"-Infinity", b"1E3"])
def test_a_row_holding_a_float_is_not_read_as_float_free(tmp_path: Any, number: bytes) -> None:
    """``read_rows`` calls a row float-free (``ReadGame.float_free``: the chain
    check may then write its canonical text by orjson) only when its decoder
    met no number with a fraction or an exponent, nor NaN or an infinity."""
    import random
    import uuid

    from bench.store import SNAPSHOT_INTERVAL, sqlite_env
    from service.application import ArbiterApp

    app = ArbiterApp(sqlite_env(tmp_path), SNAPSHOT_INTERVAL)
    game = app.create_game("enin", ["solo"])
    rnd = random.Random(4)
    for _ in range(6):
        game.act(0, rnd.choice(game.legal_actions(0)), uuid.uuid4().hex)
    app.save(game)
    rows = auditing.stored_rows(app, str(game.id))
    plain = auditing.read_rows(app, rows, [])
    assert plain.float_free == {row.originator_version for row in rows}
    tampered = rows[2]
    assert tampered.state.startswith(b"{")
    changed = tampered._replace(state=b'{"extra":' + number + b"," + tampered.state[1:])
    read = auditing.read_rows(app, [*rows[:2], changed, *rows[3:]], [])
    assert not read.damaged
    assert read.float_free == plain.float_free - {tampered.originator_version}
    app.close()
