"""Kernel 2, structured decisions: a clocked game's overdue decision gets its
declared default, recorded as events, so the audit re-verifies it."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.domain import event

from aggregates.catalog import GAMES
from aggregates.kernel import (
    Command,
    CommandSet,
    Decision,
    DiceTray,
    Flow,
    Game,
    Move,
    Reason,
    RuleError,
    Step,
)
from aggregates.kernel.game import CLOCK_OPTION
from aggregates.kernel.nature import GameType
from service import auditing
from service.application import ArbiterApp
from service.clock import ClockKeeper
from tests.template_game import hidden
from tests.template_game.hidden import HiddenChoices


@dataclasses.dataclass(frozen=True)
class Bid(Command):
    NAME = "bid"
    amount: int


def _bid(state: Any, seat: int, command: Bid) -> None:
    revealed = state.collect(seat, command.amount)
    if revealed is not None:
        state.emit("Bids", bids={str(s): b for s, b in revealed.items()})


def _legal_bids(state: Any, seat: int) -> list[Command]:
    return [Bid(n) for n in (1, 2, 3)]


class SealedBid(HiddenChoices, Game):
    """Two seats bid 1-3 at once, face down; the higher bid wins."""

    RULES_ID = "sealed_bid_test"
    TITLE = "Sealed bid"
    RULES_VERSION = "0"
    MIN_SEATS = 2
    MAX_SEATS = 2
    COMMANDS = CommandSet(Bid)
    EVENTS, APPLY = hidden.EVENTS, hidden.apply
    FLOW = Flow([Step("bid", "bid 1-3 face down", (Move(Bid, None, _bid, _legal_bids),))])
    GAME_TYPE = GameType.of("simultaneous", "explicit", "imperfect", "general_sum",
                            players=(2, 2))

    @classmethod
    def check_options(cls, options: dict[str, Any]) -> dict[str, Any]:
        if set(options) - {CLOCK_OPTION}:
            raise RuleError(Reason.BAD_OPTIONS, "only the clock option")
        return options

    @classmethod
    def decide_setup(cls, dice: DiceTray, seats: list[str], options: dict[str, Any]
                     ) -> dict[str, Any]:
        return {}

    def setup(self, setup: dict[str, Any]) -> None:
        self.bids: dict[str, int] | None = None

    def begin(self) -> None:
        self.open_choices("bid", [0, 1])

    @event("Bids")
    def _bids(self, bids: dict[str, int]) -> None:
        self.bids = bids

    def pending(self) -> list[Decision]:
        return [Decision(s, "bid", "bid 1-3 face down", hidden=True, deadline=5,
                         default="random") for s in self.waiting_to_choose()]

    def finished(self) -> dict[str, Any] | None:
        return {"bids": self.bids} if self.bids is not None else None

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"bids": self.bids}


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ArbiterApp:
    monkeypatch.setitem(GAMES, SealedBid.RULES_ID, SealedBid)
    return ArbiterApp({
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": str(tmp_path / "clock.sqlite"),
        "CREATE_TABLE": "y",
    })


def test_an_overdue_hidden_choice_gets_its_random_default_and_audits(app: ArbiterApp) -> None:
    """Deadline passed on a clocked game: the server applies the recorded
    default (a random legal bid), reveals both bids, and the audit agrees."""
    keeper = ClockKeeper(app)
    app.on_clocked = keeper.watch
    game = app.create_game(SealedBid.RULES_ID, ["a", "b"], '{"clock": true}')
    gid = str(game.id)
    app.act(gid, 0, {"name": "bid", "args": {"amount": 2}})
    assert keeper.tick(now=time.time()) == 0, "seat 1 still has time"
    assert keeper.tick(now=time.time() + 6) > 0
    after = app.game(gid)
    assert after.ended and after.outcome is not None
    assert after.outcome["bids"]["0"] == 2 and after.outcome["bids"]["1"] in (1, 2, 3)
    types = [type(e).__name__ for e in app.game_events(gid)]
    assert "DefaultApplied" in types and types.count("ChoicesRevealed") == 1
    report = auditing.Audits(app).audit(gid).report
    assert report.ok, report.problems


def test_no_default_without_the_clock_option(app: ArbiterApp) -> None:
    """Only games created with clocks are ever moved by the server."""
    game = app.create_game(SealedBid.RULES_ID, ["a", "b"])
    keeper = ClockKeeper(app)
    keeper.watch(str(game.id))
    assert keeper.tick(now=time.time() + 3600) == 0
    assert not app.game(str(game.id)).ended


def test_hidden_choices_are_not_stale_for_each_other(app: ArbiterApp) -> None:
    """Per-decision staleness: seat 1 answers the decision it read before seat
    0 chose; it is still pending, so it is accepted. A decision id that is no
    longer pending is refused with STALE_DECISION."""
    game = app.create_game(SealedBid.RULES_ID, ["a", "b"])
    gid = str(game.id)
    ids = {d.seat: d.id for d in app.game(gid).pending_decisions()}
    app.act(gid, 0, {"name": "bid", "args": {"amount": 1}}, decision_id=ids[0])
    with pytest.raises(RuleError) as info:
        app.act(gid, 1, {"name": "bid", "args": {"amount": 3}}, decision_id="1.bid.0.stale")
    assert info.value.reason == Reason.STALE_DECISION
    app.act(gid, 1, {"name": "bid", "args": {"amount": 3}}, decision_id=ids[1])
    assert app.game(gid).outcome == {"bids": {"0": 1, "1": 3}}


def test_a_hidden_choice_is_read_only_by_its_chooser_until_the_reveal(app: ArbiterApp) -> None:
    """The audience of each choice is recorded in its meta when triggered."""
    from service.envelope import Reader, visible_payload

    game = app.create_game(SealedBid.RULES_ID, ["a", "b"])
    gid = str(game.id)
    app.act(gid, 0, {"name": "bid", "args": {"amount": 3}})
    made = [e for e in app.game_events(gid) if type(e).__name__ == "ChoiceMade"][0]
    assert made.meta["aud"] == [0]
    assert visible_payload(SealedBid, made, Reader(1))[0] == {"seat": 0, "kind": "bid"}
    assert visible_payload(SealedBid, made, Reader(0))[0]["choice"] == 3


def test_an_entropy_contribution_does_not_restart_the_clocks(app: ArbiterApp) -> None:
    """A contribution (issue 9, item 6) is not a move: the seat waited on keeps
    its deadline from the last move, so contributing buys it no more time; two
    contributions in a row keep the same start; the next move restarts it."""
    game = app.create_game(SealedBid.RULES_ID, ["a", "b"], '{"clock": true}')
    gid = str(game.id)
    app.act(gid, 0, {"name": "bid", "args": {"amount": 2}})
    moved = app.game(gid).modified_on.timestamp()
    for seat, entropy in ((1, "ab" * 8), (0, "cd" * 8)):
        time.sleep(0.05)
        contributing = app.game(gid)
        assert contributing.contribute(seat, entropy)
        app.save(contributing)
    after = app.game(gid)
    assert after.modified_on.timestamp() > moved + 0.09, "the contributions came later"
    assert after.overdue(now=moved + 5.01) == [1], "the deadline runs from the move"
    assert after.overdue(now=moved + 4.9) == []
    report = auditing.Audits(app).audit(gid).report
    assert report.ok, report.problems
