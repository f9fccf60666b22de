"""The template game at random, and its secrets.

Property: many random games to the end, driven only by the pending decisions,
their choice structures and the legal list, each audited clean. Leaks: no
seat reads another seat's hidden bid or hand through any event before the
reveal (``service.envelope.visible_payload``, as every RPC and feed reads).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from aggregates.kernel import event_type, payload_of
from aggregates.kernel.record.audit import audit
from service.envelope import Reader, visible_payload
from tests.template_game import Template
from tests.template_game.commands import Bid
from tests.template_game.table import hand
from tests.unit.kernel.template_bot import play_out, step

GAMES = 60


@pytest.mark.heavy(3)
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_games_end_and_audit_clean(seats: int) -> None:
    refused = 0
    kinds: set[str] = set()
    for n in range(GAMES // 3):
        rnd = random.Random(f"{seats}/{n}")
        game = Template.start([f"s{i}" for i in range(seats)], {"clock": n % 2 == 0},
                              seed=f"{seats}{n:063x}")
        events = list(game.collect_events())
        while not game.ended:
            if n % 5 == 0 and rnd.random() < 0.1 and game.pending_decisions():
                game.act_default(rnd.choice(game.pending_decisions()).seat)
            else:
                refused += step(game, rnd)[1]
            events += game.collect_events()
        kinds |= {event_type(e) for e in events}
        report = audit(events, Template)
        assert report.ok, report.problems
        assert game.outcome is not None and len(game.outcome["teams"]) == 2
        assert sum(t["score"] for t in game.outcome["teams"]) == sum(game.outcome["scores"])
    # Every kernel feature came up in play.
    assert {"ChoicesRevealed", "WindowOpened", "Snatched", "LetGo", "EffectUsed", "Banked",
            "Dived", "DefaultApplied"} <= kinds
    assert refused > 0  # built commands the server refused were checked too


# ---------------------------------------------------------------------- leaks


def readers_of(game: Template) -> list[int | None]:
    return [*range(len(game.seats)), None]


def secret_values(ev: Any) -> list[Any]:
    """What an event holds that only its audience may read."""
    payload = payload_of(ev)
    kind = event_type(ev)
    if kind == "ChoiceMade":
        return [payload["choice"]]
    if kind in ("CardsDealt", "Dived", "Banked") and ev.meta["aud"] is not None:
        return [payload["cards"]]
    if kind == "DefaultApplied":
        return [payload["command"]]
    return []


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_no_seat_reads_another_seats_bid_or_hand(seats: int) -> None:
    for n in range(5):
        game = Template.start([f"s{i}" for i in range(seats)], seed=f"{n:064x}")
        events = play_out(game, random.Random(n))
        seating = game.seating()
        for ev in events[1:]:
            audience = ev.meta["aud"]
            for reader in readers_of(game):
                payload, redacted, _ = visible_payload(Template, ev, Reader(reader))
                entitled = audience is None or reader in audience
                assert redacted != entitled
                if not entitled:
                    for secret in secret_values(ev):
                        assert secret not in payload.values(), (event_type(ev), reader)
                    assert set(payload) <= {"seat", "kind", "position", "count", "target",
                                            "depth", "decision", "default"}
            kind = event_type(ev)
            if kind == "ChoiceMade":
                assert audience == [payload_of(ev)["seat"]]
            if kind in ("CardsDealt", "Dived") and payload_of(ev).get("target", "") != "shore":
                position = payload_of(ev).get("position")
                if position is None:
                    position = int(payload_of(ev)["target"].split(":")[1])
                assert audience == [seating.controller[position]]
            if kind == "Banked":
                assert audience == sorted(seating.team_of(
                    seating.controller[payload_of(ev)["position"]]))


def test_views_never_show_another_seats_hand_or_bid() -> None:
    game = Template.start(["a", "b", "c"], seed="1" * 64)
    game.act(1, Bid((2, 1)))
    assert game.view(1)["my_bid"] == [2, 1]
    assert game.view(0)["my_bid"] is None and game.view(None)["my_bid"] is None
    for reader in (0, 2, None):
        zones = game.view(reader)["zones"]
        assert "cards" not in zones[hand(1)] and "cards" not in zones[hand(3)]
        assert "cards" not in zones["deck"]
    screen = str(game.present(0).to_json())
    for card in game.zones[hand(1)] + game.zones[hand(3)]:
        assert f"'id': {card}," not in screen


def test_a_hidden_bid_changes_nothing_another_seat_reads_before_the_reveal() -> None:
    """Two games alike but for seat 0's bid: until the reveal, seat 1 reads
    exactly the same events (differential: no field can carry the secret)."""

    def readings(bid: int) -> list[Any]:
        game = Template.start(["a", "b", "c"], seed="2" * 64)
        game.act(0, Bid((bid,)))
        game.act(2, Bid((1,)))
        events = list(game.collect_events())
        out = []
        for ev in events:
            payload, redacted, audience = visible_payload(Template, ev, Reader(1))
            out.append((event_type(ev), payload, redacted, audience))
        return out

    assert readings(0) == readings(3)
