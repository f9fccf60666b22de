"""Dice nobody chose: entropy contributions from the seats are mixed into the
dice seed, recorded before any die that depends on them, and checked by the
audit and offline verification; a game without them keeps the old derivation."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from aggregates.catalog import GAMES
from aggregates.enin import Enin
from aggregates.ethnos import Ethnos
from aggregates.kernel import Reason, RuleError
from aggregates.kernel.game import ENTROPY_EVENT
from aggregates.kernel.record import rng
from aggregates.kernel.record.audit import Record, audit_records, contribution_used, record_of
from aggregates.kernel.record.verify import fold, verify_records

SEED = "5e" * 32
MINE = "c0ffee" * 4


def play(game: Any, seed: int, contribute_at: dict[int, tuple[int, str]] | None = None,
         ) -> list[Record]:
    """A random playout to the end; ``contribute_at`` {command number: (seat,
    entropy)} sends a seat's contribution before that command."""
    rnd = random.Random(seed)
    events: list[Any] = list(game.collect_events())
    n = 0
    while not game.ended:
        if contribute_at and n in contribute_at:
            game.contribute(*contribute_at[n])
            events.extend(game.collect_events())
        seat = game.waiting_on()[0]
        game.act(seat, rnd.choice(game.legal_actions(seat)))
        events.extend(game.collect_events())
        n += 1
    return [record_of(ev) for ev in events]


def dice(records: list[Record]) -> list[list[int]]:
    return [d for r in records for d in (r.meta or {}).get("draws", [])]


def test_no_contribution_keeps_the_server_seed_as_the_dice_seed() -> None:
    assert rng.dice_seed(SEED, []) == SEED
    game = Enin.start(["solo"], seed=SEED)
    assert game.dice_seed == SEED
    assert not hasattr(game, "contributions")  # the state is what it always was


def test_creation_contributions_change_the_setup_dice() -> None:
    plain = Ethnos.start(["a", "b", "c"], seed=SEED)
    mixed = Ethnos.start(["a", "b", "c"], seed=SEED, entropy=[MINE])
    assert mixed.dice_seed == rng.dice_seed(SEED, [MINE]) != SEED
    created = [record_of(ev) for ev in mixed.collect_events()][0]
    assert created.payload["entropy"] == [MINE]
    assert dice([record_of(ev) for ev in plain.collect_events()][:1]) != dice([created])


def test_the_order_and_split_of_contributions_matter() -> None:
    assert rng.dice_seed(SEED, ["ab", "cd"]) != rng.dice_seed(SEED, ["cd", "ab"])
    assert rng.dice_seed(SEED, ["abcd"]) != rng.dice_seed(SEED, ["ab", "cd"])


def test_a_seat_contribution_changes_the_dice_after_it_only() -> None:
    plain = Enin.start(["solo"], seed=SEED)
    mixed = Enin.start(["solo"], seed=SEED)
    records_plain = play(plain, 4)
    records_mixed = play(mixed, 4, {3: (0, MINE)})
    entropy_rec = next(r for r in records_mixed if r.type == ENTROPY_EVENT)
    assert entropy_rec.payload == {"seat": 0, "entropy": MINE}
    assert not (entropy_rec.meta or {}).get("draws")
    before = [r for r in records_mixed if r.version < entropy_rec.version]
    assert dice(before) == dice(records_plain[:len(before)])
    assert records_mixed != records_plain


def test_a_seat_contributes_once_and_a_retry_records_nothing() -> None:
    game = Enin.start(["solo"], seed=SEED)
    game.collect_events()
    assert game.contribute(0, MINE.upper()) is True
    assert game.contribute(0, MINE) is False  # the same one again: a retry
    assert [type(e).__name__ for e in game.collect_events()] == [ENTROPY_EVENT]
    with pytest.raises(RuleError) as refused:
        game.contribute(0, "ab")
    assert refused.value.reason == Reason.ILLEGAL_MOVE


@pytest.mark.parametrize("bad", ["", "zz", "abc", "00" * 65])
def test_a_contribution_must_be_1_to_64_bytes_of_hex(bad: str) -> None:
    game = Enin.start(["solo"], seed=SEED)
    with pytest.raises(RuleError) as refused:
        game.contribute(0, bad)
    assert refused.value.reason == Reason.BAD_ARGUMENT
    with pytest.raises(RuleError):
        Enin.start(["solo"], entropy=[bad])


def test_a_game_with_contributions_audits_and_verifies_offline() -> None:
    game = Enin.start(["solo"], seed=SEED, entropy=["01", "02"])
    records = play(game, 5, {2: (0, MINE)})
    report = audit_records(records, Enin)
    assert report.ok, report.problems
    verdict = verify_records({}, records, GAMES)
    assert verdict.ok and verdict.complete, verdict.report.problems
    assert any("3 entropy contributions" in line for line in verdict.checked)
    assert fold(records, Enin).view(0) == game.view(0)


def test_a_seat_finds_its_own_contribution_on_the_record() -> None:
    game = Enin.start(["solo"], seed=SEED, entropy=["01"])
    records = play(game, 6, {1: (0, MINE)})
    version = next(r.version for r in records if r.type == ENTROPY_EVENT)
    assert contribution_used(records, MINE.upper()) == version
    assert contribution_used(records, "01") == 1
    assert contribution_used(records, "02") == 0
    assert contribution_used(records, "not hex") == 0


def test_tampering_with_a_recorded_contribution_names_its_version() -> None:
    game = Enin.start(["solo"], seed=SEED, entropy=["01"])
    records = play(game, 7, {2: (0, MINE)})
    at = next(i for i, r in enumerate(records) if r.type == ENTROPY_EVENT)
    changed = list(records)
    changed[at] = dataclasses.replace(records[at], payload={"seat": 0, "entropy": "ff"})
    verdict = verify_records({}, changed, GAMES)
    assert not verdict.ok
    assert verdict.first_failure == records[at].version
    assert not verdict.report.dice_ok  # the dice after it no longer derive
    created = dataclasses.replace(records[0], payload={**records[0].payload, "entropy": ["02"]})
    verdict = verify_records({}, [created, *records[1:]], GAMES)
    assert verdict.first_failure == 1 and not verdict.report.dice_ok


def test_dropping_a_contribution_fails_verification() -> None:
    game = Enin.start(["solo"], seed=SEED)
    records = play(game, 8, {0: (0, MINE)})
    at = next(i for i, r in enumerate(records) if r.type == ENTROPY_EVENT)
    verdict = verify_records({}, records[:at] + records[at + 1:], GAMES)
    assert not verdict.ok and verdict.first_failure == records[at].version


def test_an_old_creation_record_without_the_field_still_verifies() -> None:
    """A game recorded before contributions has no ``entropy`` in its creation
    event: it rebuilds and verifies with the server's seed alone."""
    game = Enin.start(["solo"], seed=SEED)
    records = play(game, 9)
    assert records[0].payload["entropy"] == []
    old = {k: v for k, v in records[0].payload.items() if k != "entropy"}
    report = audit_records([dataclasses.replace(records[0], payload=old), *records[1:]], Enin)
    # The digest covered the field, so only the chain notices; dice and replay agree.
    assert report.dice_ok and report.replay_ok, report.problems


def test_my_seed_says_used_recorded_or_missing() -> None:
    """``arbiter verify --my-seed``: used (dice re-derived with it), recorded
    (before the end: the dice wait for the seed), or not on the record."""
    from clients.verify import my_contribution

    game = Enin.start(["solo"], seed=SEED)
    records = play(game, 10, {1: (0, MINE)})
    used, sentence = my_contribution(records, verify_records({}, records, GAMES), MINE)
    assert used and "used, recorded in version" in sentence
    running = [dataclasses.replace(r, meta=None) for r in records[:-1]]
    running[0] = dataclasses.replace(
        running[0], payload={k: v for k, v in running[0].payload.items() if k != "seed"})
    used, sentence = my_contribution(running, verify_records({}, running, GAMES), MINE)
    assert used and "checkable once the seed is revealed" in sentence
    used, sentence = my_contribution(records, verify_records({}, records, GAMES), "abcd")
    assert not used and "NOT on the record" in sentence
