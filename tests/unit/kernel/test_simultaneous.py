"""The kernel fits simultaneous hidden choices and reaction windows (issue 2).

Ettin's face-down deploys and Nine Empires' React abilities are not built yet;
this toy proves the kernel already carries what they need: several seats
pending at once, each choice read only by its chooser until the reveal, and a
window in which another seat than the active one must answer.
"""

from __future__ import annotations

import random

import pytest

from aggregates.kernel import Reason, RuleError, event_type, payload_of
from aggregates.kernel.record.audit import audit
from tests.unit.kernel.rps import Choose, React, Rps


def test_both_seats_choose_at_once_and_the_choice_is_hidden() -> None:
    game = Rps.start(["a", "b"])
    assert [(d.seat, d.kind, d.hidden) for d in game.pending()] == [
        (0, "choose", True), (1, "choose", True)]
    game.act(1, Choose("rock"))
    assert game.waiting_on() == [0]
    chose = [e for e in game.collect_events() if event_type(e) == "Chose"][0]
    payload = payload_of(chose)
    assert Rps.audience("Chose", payload).includes(1)
    assert not Rps.audience("Chose", payload).includes(0)
    assert Rps.public_form("Chose", payload) == {"seat": 1}
    assert game.view(0)["mine"] is None and game.view(1)["mine"] == "rock"
    with pytest.raises(RuleError) as info:
        game.act(1, Choose("paper"))
    assert info.value.reason == Reason.NOT_YOUR_TURN


def test_the_reveal_opens_a_reaction_window_for_the_loser() -> None:
    game = Rps.start(["a", "b"])
    game.act(0, Choose("rock"))
    game.act(1, Choose("paper"))
    revealed = [e for e in game.collect_events() if event_type(e) == "Revealed"]
    assert payload_of(revealed[0]) == {"signs": ["rock", "paper"], "loser": 0}
    assert game.waiting_on() == [0] and game.legal_actions(1) == []
    game.act(0, React(rematch=False))
    assert game.wins == [0, 1]


def test_random_simultaneous_games_end_and_audit() -> None:
    for n in range(20):
        chooser = random.Random(n)
        game = Rps.start(["a", "b"])
        for _ in range(500):
            if game.ended:
                break
            seat = chooser.choice(game.waiting_on())
            game.act(seat, chooser.choice(game.legal_actions(seat)))
        assert game.ended
        assert audit(game.collect_events(), Rps).ok
