"""The kernel's guarantees, checked on a toy game: dice, chain, audit, seats, commands."""

from __future__ import annotations

import collections
import dataclasses
import hashlib
import random
from typing import Any

import pytest

from aggregates.kernel import Reason, RuleError
from aggregates.kernel.record import rng
from aggregates.kernel.record.audit import audit
from aggregates.kernel.record.recording import payload_of
from aggregates.kernel.seating import Audience
from tests.unit.kernel.toy import Pass, Race, Roll


def played(seed: str | None = None, moves: int = 1000) -> tuple[Race, list[Any]]:
    game = Race.start(["a", "b"], seed=seed)
    chooser = random.Random(1)
    while not game.ended and moves:
        seat = game.waiting_on()[0]
        game.act(seat, chooser.choice(game.legal_actions(seat)), command_id=f"c{game.version}")
        moves -= 1
    return game, list(game.collect_events())


# --------------------------------------------------------------------- dice


def test_draws_are_a_pure_function_of_seed_and_counter() -> None:
    seed = "ab" * 32
    assert [rng.draw(seed, n, 10) for n in range(50)] == [rng.draw(seed, n, 10) for n in range(50)]
    assert [rng.draw(seed, n, 10) for n in range(50)] != [
        rng.draw("cd" * 32, n, 10) for n in range(50)
    ]


def test_draws_are_uniform_enough() -> None:
    seed = rng.new_seed()
    counts = collections.Counter(rng.draw(seed, n, 6) for n in range(12_000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(1700 < c < 2300 for c in counts.values()), counts


def test_commitment_is_sha256_of_the_seed() -> None:
    seed = rng.new_seed()
    assert rng.commitment(seed) == hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    game = Race.start(["a", "b"], seed=seed)
    assert game.commitment == rng.commitment(seed)


def test_every_die_is_recorded_with_its_counter() -> None:
    game, events = played()
    draws = [d for ev in events for d in ev.meta["draws"]]
    assert [d[0] for d in draws] == list(range(len(draws)))
    assert all(rng.draw(game.seed, n, sides) == value for n, sides, value in draws)


# -------------------------------------------------------------------- chain


def test_each_digest_covers_the_previous_one() -> None:
    _, events = played()
    assert events[0].meta["prev"] == "0" * 64
    for prev, ev in zip(events, events[1:], strict=False):
        assert ev.meta["prev"] == prev.meta["digest"]


def test_audit_of_an_honest_game_passes() -> None:
    game, events = played()
    assert game.ended
    report = audit(events, Race)
    assert report.ok, report.problems
    assert report.commands == game.commands_applied and report.dice == game.rng_counter


def _tampered(events: list[Any], index: int, **changes: Any) -> list[Any]:
    copy = list(events)
    copy[index] = dataclasses.replace(copy[index], **changes)
    return copy


def test_audit_detects_an_edited_payload() -> None:
    _, events = played()
    index = next(i for i, e in enumerate(events) if type(e).__name__ == "Rolled")
    forged = _tampered(events, index, value=payload_of(events[index])["value"] % 6 + 1)
    report = audit(forged, Race)
    assert not report.chain_ok and not report.replay_ok


def test_audit_detects_a_forged_die_even_with_a_recomputed_chain() -> None:
    _, events = played()
    index = next(i for i, e in enumerate(events) if e.meta["draws"])
    meta = dict(events[index].meta)
    counter, sides, value = meta["draws"][0]
    meta["draws"] = [[counter, sides, value % sides + 1]]
    report = audit(_tampered(events, index, meta=meta), Race)
    assert not report.dice_ok


def test_audit_detects_a_dropped_event() -> None:
    _, events = played()
    report = audit(events[:3] + events[4:], Race)
    assert not report.chain_ok


def test_audit_detects_a_wrong_seed() -> None:
    _, events = played()
    created = dict(payload_of(events[0]))
    forged = _tampered(events, 0, seed=rng.new_seed())
    assert created["seed"] != payload_of(forged[0])["seed"]
    assert not audit(forged, Race).dice_ok


# ---------------------------------------------------------- seats and turns


def test_the_game_waits_only_on_its_pending_seat() -> None:
    game = Race.start(["a", "b"])
    other = 1 - game.waiting_on()[0]
    with pytest.raises(RuleError) as info:
        game.act(other, Roll())
    assert info.value.reason == Reason.NOT_YOUR_TURN
    assert game.version == 1


def test_unknown_seat_and_seat_count() -> None:
    game = Race.start(["a", "b"])
    with pytest.raises(RuleError) as info:
        game.act(5, Roll())
    assert info.value.reason == Reason.UNKNOWN_SEAT
    with pytest.raises(RuleError) as info:
        Race.start(["a"])
    assert info.value.reason == Reason.BAD_SEATS
    with pytest.raises(RuleError):
        Race.start(["a", "x" * 65])


def test_no_move_after_the_end() -> None:
    game, _ = played()
    with pytest.raises(RuleError) as info:
        game.act(0, Roll())
    assert info.value.reason == Reason.GAME_OVER
    assert game.legal_actions(0) == [] and game.pending() == []


def test_ended_event_reveals_the_seed() -> None:
    game, events = played()
    assert type(events[-1]).__name__ == "Ended"
    assert payload_of(events[-1])["seed"] == game.seed


def test_options_are_refused_when_the_game_takes_none() -> None:
    with pytest.raises(RuleError) as info:
        Race.start(["a", "b"], {"fast": True})
    assert info.value.reason == Reason.BAD_OPTIONS


# ------------------------------------------------------------- visibility


def test_creation_event_hides_the_seed_from_everyone() -> None:
    _, events = played()
    created = payload_of(events[0])
    assert Race.audience("Created", created).seats == frozenset()
    assert "seed" not in Race.public_form("Created", created)


def test_private_events_have_public_forms() -> None:
    payload = {"seat": 1, "value": 4}
    audience = Race.audience("Rolled", payload)
    assert audience == Audience(frozenset({1})) and audience.includes(1)
    assert not audience.includes(0) and not audience.includes(None)
    assert Race.public_form("Rolled", payload) == {"seat": 1}


# ---------------------------------------------------------------- commands


def test_commands_parse_strictly() -> None:
    assert Race.COMMANDS.parse("roll", {}) == Roll()
    assert Race.COMMANDS.parse("pass_turn", {"note": "hi"}) == Pass("hi")
    for name, args, reason in [
        ("fly", {}, Reason.UNKNOWN_COMMAND),
        ("roll", {"extra": 1}, Reason.BAD_ARGUMENT),
        ("pass_turn", {"note": 3}, Reason.BAD_ARGUMENT),
        ("pass_turn", {"note": "x" * 65}, Reason.BAD_ARGUMENT),
        ("roll", [1], Reason.BAD_ARGUMENT),
    ]:
        with pytest.raises(RuleError) as info:
            Race.COMMANDS.parse(name, args)  # type: ignore[arg-type]
        assert info.value.reason == reason


def test_command_ids_map_to_their_first_event() -> None:
    game = Race.start(["a", "b"])
    seat = game.waiting_on()[0]
    game.act(seat, Roll(), command_id="first")
    assert game.command_version(seat, "first") == 2
    assert game.command_version(1 - seat, "first") is None, "command ids are per seat"


def test_shuffles_are_permutations_recorded_as_dice() -> None:
    game = Race.start(["a", "b"])
    before = game.rng_counter
    deck = list(range(20))
    shuffled = game.shuffled(deck)
    assert sorted(shuffled) == deck and shuffled != deck
    assert len(game._draws) == 19 and game.rng_counter == before
    again = Race.start(["a", "b"], seed=game.seed)
    assert again.shuffled(deck) == shuffled
