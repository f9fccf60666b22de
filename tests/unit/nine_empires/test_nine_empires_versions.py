"""Rules versions of Romance of the Nine Empires (docs/rules-versions.md): a game
recorded by rules 1.0.0 (``v1.NineEmpiresV1``) re-executes by 1.0.0 with both
versions registered, and would fail by 1.1.0, which calls for allies first; a
finished 1.1.0 game (``v1.NineEmpiresV1_1``) re-executes by 1.1.0 and would fail
by 1.2.0 at its end, whose result 1.2.0 words as its readers are told it."""

from __future__ import annotations

import random
from typing import Any

from aggregates import catalog
from aggregates.kernel.audit import record_of
from aggregates.kernel.verify import verify_records
from aggregates.nine_empires import NineEmpires
from aggregates.nine_empires.v1 import NineEmpiresV1, NineEmpiresV1_1
from aggregates.nine_empires.victory import VICTORY, standings

BOTH = catalog.registry((NineEmpiresV1, NineEmpires))
ALL = catalog.registry((NineEmpiresV1, NineEmpiresV1_1, NineEmpires))


def _v1_game_with_allies(seed: int = 3) -> tuple[Any, list[Any]]:
    """Random legal moves by rules 1.0.0 (3 seats) until an ally has chosen a side."""
    rnd = random.Random(seed)
    game = NineEmpiresV1.start(["p0", "p1", "p2"], {"decks": ["malchior", "ord", "holden"]},
                               seed=f"{seed:02x}" * 32)
    events = list(game.collect_events())
    for n in range(3000):
        if any(type(e).__name__ == "AllyChosen" for e in events) or game.ended:
            break
        seat = rnd.choice(sorted({d.seat for d in game.pending()}))
        options = game.legal_actions(seat)
        attack = [o for o in options if o.NAME == "declare_attack"]
        game.act(seat, attack[0] if attack else rnd.choice(options), f"c{n}")
        events.extend(game.collect_events())
    assert any(type(e).__name__ == "AllyChosen" for e in events)
    return game, [record_of(e) for e in events]


def test_a_rules_1_0_0_game_re_executes_by_1_0_0_and_would_fail_by_1_1_0() -> None:
    game, records = _v1_game_with_allies()
    assert records[0].payload["rules_version"] == "1.0.0"
    verdict = verify_records({}, records, BOTH)
    assert verdict.ok, verdict.report.problems          # (not over: "complete" is False)
    assert verdict.report.commands == game.commands_applied > 0
    assert not verdict.not_loadable
    assert catalog.rules_class("nine_empires", "1.0.0", BOTH) is NineEmpiresV1
    wrong = verify_records({}, records, {("nine_empires", "1.0.0"): NineEmpires})
    first_ally = next(r.version for r in records if r.type == "AllyChosen")
    assert not wrong.ok and wrong.first_failure == first_ally


def _finished(cls: type[NineEmpires], seed: int = 4) -> tuple[Any, list[Any]]:
    """A 2-seat game by ``cls`` played to its end with random legal moves."""
    rnd = random.Random(seed)
    game = cls.start(["p0", "p1"], {"decks": ["malchior", "ord"]}, seed=f"{seed:02x}" * 32)
    events = list(game.collect_events())
    for n in range(5000):
        if game.ended:
            break
        seat = rnd.choice(sorted({d.seat for d in game.pending()}))
        game.act(seat, rnd.choice(game.legal_actions(seat)), f"c{n}")
        events.extend(game.collect_events())
    assert game.ended
    return game, [record_of(e) for e in events]


def test_a_finished_1_1_0_game_re_executes_by_1_1_0_and_its_result_names_a_seat() -> None:
    game, records = _finished(NineEmpiresV1_1)
    assert records[0].payload["rules_version"] == "1.1.0"
    verdict = verify_records({}, records, ALL)
    assert verdict.ok, verdict.report.problems
    assert catalog.rules_class("nine_empires", "1.1.0", ALL) is NineEmpiresV1_1
    ended = next(r for r in records if r.type == "Ended")
    winner = game.result["winner"]
    assert ended.payload["outcome"]["result"].startswith(f"seat {winner} wins by")
    wrong = verify_records({}, records, {("nine_empires", "1.1.0"): NineEmpires})
    assert not wrong.ok and wrong.first_failure == ended.version


def test_rules_1_2_0_record_the_result_as_the_players_read_it() -> None:
    """Object (Romance of the Nine Empires rulebook): the winner and how they won
    (a Conquest, Dominance or Popular Victory, or the last player left), named as
    the players are, in the recorded result as in the outcome's summary."""
    game, records = _finished(NineEmpires)
    assert records[0].payload["rules_version"] == "1.2.0"
    ended = next(r for r in records if r.type == "Ended")
    said = ended.payload["outcome"]["result"]
    assert said == f"Player {game.result['winner'] + 1} wins by {victory_words(game)}."
    assert said == standings(game).summary  # the outcome's summary, told alike


def victory_words(game: Any) -> str:
    """The rulebook's name of how ``game`` was won ("a Dominance Victory")."""
    return VICTORY[game.result["how"]]
