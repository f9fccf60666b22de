"""Rules versions of Romance of the Nine Empires (docs/rules-versions.md): a game
recorded by rules 1.0.0 (``v1.NineEmpiresV1``) re-executes by 1.0.0 with both
versions registered, and would fail by 1.1.0, which calls for allies first; a
finished 1.1.0 game (``v1.NineEmpiresV1_1``) re-executes by 1.1.0 and would fail
by 1.2.0 at its end, whose result 1.2.0 words as its readers are told it; a game
stored by the released 1.2.0 code (a fixture), whose ``ReturnedHome`` did not
name the cards bowed, reads upcast, re-executes by 1.2.0
(``v1.NineEmpiresV1_2``) and would fail by 1.3.0, which bows the whole unit; a
game stored by the released 1.4.0 code (a fixture), which recorded the phases'
beginnings and Winter's steps, re-executes by 1.4.0 (``v1.NineEmpiresV1_4``)
with the whole catalogue, and goes on by 1.4.0 when the served class loads it;
so does a game stored by the released 1.5.0 code (a fixture), which recorded
its abilities and engagements resolved (``v1.NineEmpiresV1_5``), and one
stored by the released 1.6.0 code (a fixture), whose React windows asked each
seat once (``v1.NineEmpiresV1_6``)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from aggregates import catalog
from aggregates.kernel.game import _event_class
from aggregates.kernel.record import upcast
from aggregates.kernel.record.audit import Record, record_of, upcast_record
from aggregates.kernel.record.verify import fold, verify_records
from aggregates.nine_empires import NineEmpires
from aggregates.nine_empires import cards as t
from aggregates.nine_empires.state import EARLIER_BY_VERSION
from aggregates.nine_empires.v1 import (
    NineEmpiresV1,
    NineEmpiresV1_1,
    NineEmpiresV1_2,
    NineEmpiresV1_4,
    NineEmpiresV1_5,
    NineEmpiresV1_6,
)
from aggregates.nine_empires.victory import VICTORY, standings

BOTH = catalog.registry((NineEmpiresV1, NineEmpires))
ALL = catalog.registry((NineEmpiresV1, NineEmpiresV1_1, NineEmpiresV1_2, NineEmpires))


def bound(version: str, earlier: frozenset[str]) -> type[NineEmpires]:
    """A class loading ``version``'s records but playing by ``earlier``'s rules
    whatever a game records: what re-executing by a later version's rules
    would do (a game is otherwise played by the rules its creation records)."""

    def rules(self: NineEmpires) -> frozenset[str]:
        return earlier

    # A name of its own per version: the event classes' topics are the class's.
    name = f"BoundTo{version.replace('.', '_')}"
    return type(name, (NineEmpires,), {"RULES_VERSION": version,
                                       "EARLIER": property(rules)})


#: A game stored by the released rules 1.2.0 (commit de15407's code), up to a
#: unit returned home with a straight attached card.
STORED_1_2_0 = Path(__file__).parent / "data" / "rules_1_2_0_return_home.json"
#: A game stored by the released rules 1.4.0 (commit bc19336's code), through
#: two Winters (players redistributing food and discarding down) into turn 3.
STORED_1_4_0 = Path(__file__).parent / "data" / "rules_1_4_0_phases.json"
#: A game stored by the released rules 1.5.0 (commit b9f152b's code), through
#: battles with Reacts, immunity and damage left unabsorbed, into turn 3.
STORED_1_5_0 = Path(__file__).parent / "data" / "rules_1_5_0_resolved.json"
#: A game stored by the released rules 1.6.0 (commit 75a02d8's code), with
#: three Reacts (Tactical Acumen on Soul of a Dragon, two Blights), into turn 5.
STORED_1_6_0 = Path(__file__).parent / "data" / "rules_1_6_0_reacts.json"
#: What 1.5.0 recorded and 1.6.0 reads from the facts before it.
RESOLVED = frozenset({"AbilityResolved", "EngagementResolved"})
#: What 1.4.0 recorded and 1.5.0 reads from the facts before it.
PROGRESS = frozenset({"PhaseBegan", "WinterBegan", "RedistributionBegan", "HandSizeChecked"})


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
    later = EARLIER_BY_VERSION["1.1.0"]
    wrong = verify_records({}, records, {("nine_empires", "1.0.0"): bound("1.0.0", later)})
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
    later = EARLIER_BY_VERSION["1.2.0"]
    wrong = verify_records({}, records, {("nine_empires", "1.1.0"): bound("1.1.0", later)})
    assert not wrong.ok and wrong.first_failure == ended.version


def test_rules_1_2_0_on_record_the_result_as_the_players_read_it() -> None:
    """Object (Romance of the Nine Empires rulebook): the winner and how they won
    (a Conquest, Dominance or Popular Victory, or the last player left), named as
    the players are, in the recorded result as in the outcome's summary."""
    game, records = _finished(NineEmpires)
    assert records[0].payload["rules_version"] == NineEmpires.RULES_VERSION == "1.7.0"
    ended = next(r for r in records if r.type == "Ended")
    said = ended.payload["outcome"]["result"]
    assert said == f"Player {game.result['winner'] + 1} wins by {victory_words(game)}."
    assert said == standings(game).summary  # the outcome's summary, told alike


def victory_words(game: Any) -> str:
    """The rulebook's name of how ``game`` was won ("a Dominance Victory")."""
    return VICTORY[game.result["how"]]


def _stored(path: Path = STORED_1_2_0) -> list[Record]:
    raw = json.loads(path.read_text("utf-8"))["records"]
    return [Record(**r) for r in raw]


def test_a_stored_1_2_0_game_reads_upcast_and_re_executes_by_1_2_0() -> None:
    """Its ``ReturnedHome`` was stored as ``{hero, seat}``: read now, it bowed
    its hero alone (what 1.2.0 did), the chain still over the bytes as stored;
    the game verifies by 1.2.0 with every version registered."""
    records = _stored()
    assert records[0].payload["rules_version"] == "1.2.0"
    stored = next(r for r in records if r.type == "ReturnedHome")
    assert "bowed" not in stored.payload
    read = upcast_record(stored, NineEmpiresV1_2)
    assert read.payload["bowed"] == [stored.payload["hero"]]
    assert upcast.stored_form(read.payload, read.meta)[0] == stored.payload
    verdict = verify_records({}, records, ALL)
    assert verdict.ok, verdict.report.problems
    assert catalog.rules_class("nine_empires", "1.2.0", ALL) is NineEmpiresV1_2


def test_the_stored_1_2_0_game_would_fail_by_1_3_0_where_a_unit_returns_home() -> None:
    """Battle Action & Resolution ("Bow your target unit to return it home"):
    1.3.0 bows the returning unit's straight attached card too, so re-executing
    1.2.0's game by it differs first at that ``ReturnedHome``."""
    records = _stored()
    later = EARLIER_BY_VERSION["1.3.0"]
    wrong = verify_records({}, records, {("nine_empires", "1.2.0"): bound("1.2.0", later)})
    returned = next(r.version for r in records if r.type == "ReturnedHome")
    assert not wrong.ok and wrong.first_failure == returned


def test_the_library_reads_a_stored_returned_home_as_bowing_its_hero() -> None:
    """The event class is at version 2; the library's step from a stored
    version 1 (``{hero, seat}``) names the hero as the one card bowed."""
    cls: Any = _event_class(NineEmpires, "ReturnedHome")
    assert cls.class_version == 2
    state: dict[str, Any] = {"hero": "i7", "seat": 1, "meta": {}}
    cls.upcast_v1_v2(state)
    assert state["bowed"] == ["i7"]
    assert state["meta"][upcast.STORED]["payload"] == {"hero": "i7", "seat": 1}


def test_a_stored_1_2_0_game_goes_on_by_1_2_0_after_an_upgrade() -> None:
    """A game is played by the rules its creation records, whichever class
    loads it: the stored 1.2.0 game, folded by the served class (as the
    server loads a stored game by its events' topics), is at 1.2.0's rules (its
    returned unit's attached card still straight), plays on by them, and the
    whole record still re-executes by 1.2.0."""
    records = _stored()
    game: Any = fold(records, NineEmpires)
    assert type(game) is NineEmpires and game.rules_version == "1.2.0"
    assert EARLIER_BY_VERSION["1.2.0"] == game.EARLIER
    hero = next(r for r in records if r.type == "ReturnedHome").payload["hero"]
    assert any(not t.bowed(game, c) for c in t.unit(game, hero)[1:])
    rnd = random.Random(5)
    for n in range(60):
        seat = rnd.choice(sorted({d.seat for d in game.pending()}))
        game.act(seat, rnd.choice(game.legal_actions(seat)), f"after-{n}")
    more = [record_of(e) for e in game.collect_events()]
    verdict = verify_records({}, [*records, *more], ALL)
    assert verdict.ok, verdict.report.problems
    assert verdict.report.commands == game.commands_applied


def test_a_stored_1_4_0_game_re_executes_by_1_4_0_in_the_catalogue() -> None:
    """The stored 1.4.0 game holds the progress 1.5.0 no longer records; the
    catalogue finds its released class, and it re-executes by it (and, bound
    to 1.5.0's rules, fails at its first such event)."""
    records = _stored(STORED_1_4_0)
    assert records[0].payload["rules_version"] == "1.4.0"
    assert {r.type for r in records} >= PROGRESS
    assert catalog.rules_class("nine_empires", "1.4.0") is NineEmpiresV1_4
    verdict = verify_records({}, records, catalog.RULES)
    assert verdict.ok, verdict.report.problems
    assert verdict.report.commands > 0
    wrong = verify_records({}, records, {("nine_empires", "1.4.0"): bound("1.4.0", frozenset())})
    first = next(r.version for r in records if r.type in PROGRESS)
    assert not wrong.ok and wrong.first_failure == first


def test_a_stored_1_4_0_game_goes_on_by_1_4_0_after_an_upgrade() -> None:
    """Folded by the served class, the stored 1.4.0 game plays on by its own
    rules (recording the phases' beginnings and Winter's steps still), and the
    whole record re-executes by 1.4.0."""
    records = _stored(STORED_1_4_0)
    game: Any = fold(records, NineEmpires)
    assert type(game) is NineEmpires and game.rules_version == "1.4.0"
    rnd = random.Random(6)
    for n in range(400):
        if game.ended:
            break
        seat = rnd.choice(sorted({d.seat for d in game.pending()}))
        game.act(seat, rnd.choice(game.legal_actions(seat)), f"after-{n}")
    more = [record_of(e) for e in game.collect_events()]
    assert {"PhaseBegan", "WinterBegan"} <= {r.type for r in more}
    verdict = verify_records({}, [*records, *more], catalog.RULES)
    assert verdict.ok, verdict.report.problems
    assert verdict.report.commands == game.commands_applied


def test_a_stored_1_5_0_game_re_executes_by_1_5_0_in_the_catalogue() -> None:
    """The stored 1.5.0 game holds the abilities and engagements resolved that
    1.6.0 no longer records; the catalogue finds its released class, and it
    re-executes by it (and, bound to 1.6.0's rules, fails at its first such
    event)."""
    records = _stored(STORED_1_5_0)
    assert records[0].payload["rules_version"] == "1.5.0"
    kinds = {r.type for r in records}
    assert kinds >= RESOLVED | {"ReactPlayed", "ImmunityDeclared", "DamageAbsorbed"}
    assert any(r.payload["wasted"] > 0 for r in records if r.type == "EngagementResolved")
    assert catalog.rules_class("nine_empires", "1.5.0") is NineEmpiresV1_5
    verdict = verify_records({}, records, catalog.RULES)
    assert verdict.ok, verdict.report.problems
    assert verdict.report.commands > 0
    later = EARLIER_BY_VERSION["1.6.0"]
    wrong = verify_records({}, records, {("nine_empires", "1.5.0"): bound("1.5.0", later)})
    first = next(r.version for r in records if r.type in RESOLVED)
    assert not wrong.ok and wrong.first_failure == first


def fight_on(game: Any, rnd: random.Random, moves: int, bias: float) -> None:
    """Play on up to ``moves`` random legal moves, a fight (an attack, an
    engagement, an ability) taken with probability ``bias`` where one is
    offered, so that Reacts and engagements come up."""
    for n in range(moves):
        if game.ended:
            break
        seat = rnd.choice(sorted({d.seat for d in game.pending()}))
        legal = game.legal_actions(seat)
        fighting = [c for c in legal if c.NAME in ("declare_attack", "engage", "use_ability")]
        move = rnd.choice(fighting) if fighting and rnd.random() < bias else rnd.choice(legal)
        game.act(seat, move, f"after-{n}")


def test_a_stored_1_5_0_game_goes_on_by_1_5_0_after_an_upgrade() -> None:
    """Folded by the served class, the stored 1.5.0 game plays on by its own
    rules (recording its abilities and engagements resolved still), and the
    whole record re-executes by 1.5.0."""
    records = _stored(STORED_1_5_0)
    game: Any = fold(records, NineEmpires)
    assert type(game) is NineEmpires and game.rules_version == "1.5.0"
    assert EARLIER_BY_VERSION["1.5.0"] == game.EARLIER
    fight_on(game, random.Random(8), moves=400, bias=0.8)
    more = [record_of(e) for e in game.collect_events()]
    assert {r.type for r in more} >= RESOLVED
    verdict = verify_records({}, [*records, *more], catalog.RULES)
    assert verdict.ok, verdict.report.problems
    assert verdict.report.commands == game.commands_applied


def test_a_stored_1_6_0_game_re_executes_by_1_6_0_in_the_catalogue() -> None:
    """The stored 1.6.0 game's React windows asked each seat once; the
    catalogue finds its released class, and it re-executes by it. Bound to
    1.7.0's rules, which ask a window again after a React on it, it fails after
    its first React (a seat's next answer is refused: 1.7.0 still waits on the
    window)."""
    records = _stored(STORED_1_6_0)
    assert records[0].payload["rules_version"] == "1.6.0"
    assert [r.payload["key"] for r in records if r.type == "ReactPlayed"] == \
        ["tactical_acumen", "blight", "blight"]
    assert catalog.rules_class("nine_empires", "1.6.0") is NineEmpiresV1_6
    verdict = verify_records({}, records, catalog.RULES)
    assert verdict.ok, verdict.report.problems
    assert verdict.report.commands > 0
    wrong = verify_records({}, records, {("nine_empires", "1.6.0"): bound("1.6.0", frozenset())})
    first = next(r.version for r in records if r.type == "ReactPlayed")
    assert not wrong.ok and first < wrong.first_failure <= first + 10


def test_a_stored_1_6_0_game_goes_on_by_1_6_0_after_an_upgrade() -> None:
    """Folded by the served class, the stored 1.6.0 game plays on by its own
    rules (each window asking its seats once), and the whole record
    re-executes by 1.6.0."""
    records = _stored(STORED_1_6_0)
    game: Any = fold(records, NineEmpires)
    assert type(game) is NineEmpires and game.rules_version == "1.6.0"
    assert EARLIER_BY_VERSION["1.6.0"] == game.EARLIER
    fight_on(game, random.Random(5), moves=300, bias=0.85)  # 4 more Reacts in 540 events
    more = [record_of(e) for e in game.collect_events()]
    assert "ReactPlayed" in {r.type for r in more}
    verdict = verify_records({}, [*records, *more], catalog.RULES)
    assert verdict.ok, verdict.report.problems
    assert verdict.report.commands == game.commands_applied
