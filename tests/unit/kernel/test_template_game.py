"""The template game (tests/template_game), one kernel feature at a time, in play."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from aggregates.kernel import (
    Assign,
    Number,
    PickCards,
    PickOne,
    Reason,
    RuleError,
    event_type,
    payload_of,
)
from aggregates.kernel.data import DataError
from aggregates.kernel.present import validate_screen
from aggregates.kernel.record.audit import audit
from service.envelope import Reader, visible_payload
from tests.template_game import Template
from tests.template_game import components as comp
from tests.template_game.commands import Bank, Bid, Claim, Dive, LetGo, PassPriority, Snatch
from tests.template_game.components import COMPONENTS as C
from tests.template_game.reasons import REASONS, TideReason
from tests.template_game.table import DECK, SHORE, hand, vault

SEED = "7" * 64


def asked(game: Any, seat: int) -> list[str]:
    """The kinds of decision (steps) the game waits on ``seat`` for."""
    return [d.kind for d in game.pending() if d.seat == seat]


def new(seats: int = 3, **options: Any) -> Template:
    return Template.start([f"p{n}" for n in range(seats)], options, seed=SEED)


def card_named(name: str, skip: tuple[int, ...] = ()) -> int:
    return next(c.id for c in C.cards if c.name == name and c.id not in skip)


def arrange(game: Template, **zones: list[int]) -> None:
    """Make the named zones (``hand_0=[...]``) hold exactly these cards, taken
    from wherever they are; what they held goes under the deck. A test's
    stacked table, not a move of the game."""
    for key, cards in zones.items():
        name = key.replace("_", ":")
        for z in game.zones.values():
            for c in cards:
                if c in z:
                    z.remove(c)
        game.zones[DECK].extend(game.zones[name])
        game.zones[name] = list(cards)


def bid_all(game: Template, bids: dict[int, tuple[int, ...]] | None = None) -> None:
    for seat in list(game.waiting_to_choose()):
        count = len(game.seating().positions_of(seat))
        game.act(seat, Bid((bids or {}).get(seat, (0,) * count)))


def holder_seat(game: Template) -> int:
    return game.pending()[0].seat


# ------------------------------------------------------ metadata and data


def test_metadata_options_and_reasons() -> None:
    meta = Template.metadata()
    assert meta["id"] == "template" and meta["dynamics"] == "mixed"
    assert meta["commands"] == ["bid", "claim", "bank", "dive", "pass_priority", "snatch",
                                "let_go"]
    assert meta["reasons"] == list(REASONS) and "BID_TOO_HIGH" in REASONS
    assert meta["options_schema"]["properties"]["rounds"]["maximum"] == 5
    assert Template.check_options({}) == {"rounds": C.rounds, "clock": False}
    for bad in ({"rounds": 0}, {"rounds": True}, {"clock": "yes"}, {"speed": 1}):
        with pytest.raises(RuleError) as info:
            Template.check_options(bad)
        assert info.value.reason == Reason.BAD_OPTIONS
    assert new(rounds=1).rounds == 1


def test_the_data_file_is_validated_on_load() -> None:
    raw = json.loads(comp.DATA_FILE.read_text())
    assert comp.load(raw).cards == C.cards
    broken = json.loads(comp.DATA_FILE.read_text())
    broken["cards"][0]["suit"] = "gold"
    with pytest.raises(DataError, match="unknown suit"):
        comp.load(broken)
    broken = json.loads(comp.DATA_FILE.read_text())
    broken["cards"][-1]["effects"][0]["colour"] = "red"
    with pytest.raises(DataError, match="unknown field"):
        comp.load(broken)
    broken = json.loads(comp.DATA_FILE.read_text())
    del broken["rounds"]
    with pytest.raises(DataError):
        comp.load(broken)
    broken = json.loads(comp.DATA_FILE.read_text())
    broken["cards"] = broken["cards"][:1]
    with pytest.raises(DataError, match="too few"):
        comp.load(broken)


# --------------------------------------------------- seating, teams, zones


@pytest.mark.parametrize(("seats", "controller", "teams"), [
    (2, (0, 1, 0, 1), ((0,), (1,))),
    (3, (0, 1, 2, 1), ((0, 2), (1,))),
    (4, (0, 1, 2, 3), ((0, 2), (1, 3))),
])
def test_seating(seats: int, controller: tuple[int, ...], teams: tuple[Any, ...]) -> None:
    seating = new(seats).seating()
    assert seating.controller == controller and seating.teams == teams


def test_hands_are_dealt_to_their_controller_alone() -> None:
    game = new(3)
    events = list(game.collect_events())
    created = events[0]
    public, redacted, _ = visible_payload(Template, created, Reader(0))
    assert redacted and "seed" not in public
    assert public["setup"] == {"deck": len(C.cards)}  # the deck's order is secret
    dealt = [e for e in events if event_type(e) == "CardsDealt"]
    assert [payload_of(e)["target"] for e in dealt] == [hand(p) for p in range(4)] + [SHORE]
    assert [e.meta["aud"] for e in dealt] == [[0], [1], [2], [1], None]
    assert dealt[3].meta["pub"] == {"target": hand(3), "count": C.hand_size}


def test_views_derive_from_zones() -> None:
    game = new(4)
    view = game.view(0)["zones"]
    assert view[hand(0)]["cards"] == game.zones[hand(0)]
    assert view[hand(1)] == {"count": C.hand_size}
    assert view[DECK] == {"count": len(game.zones[DECK])}
    assert view[SHORE]["cards"] == game.zones[SHORE]
    arrange(game, vault_0=[card_named("Pearl")])
    assert game.view(2)["zones"][vault(0)]["cards"] == game.zones[vault(0)]  # the partner
    assert game.view(1)["zones"][vault(0)] == {"count": 1}  # an opponent
    assert game.view(None)["zones"][vault(0)] == {"count": 1}  # a spectator


# ------------------------------------------------------------ the tide bid


def test_the_bid_is_a_hidden_simultaneous_assign_with_a_random_default() -> None:
    game = new(3)
    decisions = game.pending_decisions()
    assert [(d.seat, d.kind, d.hidden, d.default) for d in decisions] == [
        (0, "bid", True, "random"), (1, "bid", True, "random"), (2, "bid", True, "random")]
    assert all(d.deadline is None for d in decisions)  # no clocks asked for
    assert new(3, clock=True).pending()[0].deadline == C.clock_seconds["bid"]
    [assign] = game.choices(1)
    assert isinstance(assign, Assign)
    assert assign.items == ("East", "West") and assign.slots == (0, 1, 2, 3)
    assert len(game.legal_actions(1)) == 16 and len(game.legal_actions(0)) == 4


def test_bids_are_revealed_together_and_set_the_order() -> None:
    game = new(3)
    game.collect_events()
    ids = {d.seat: d.id for d in game.pending_decisions()}
    game.act(1, Bid((1, 3)), decision_id=ids[1])
    game.act(0, Bid((2,)), decision_id=ids[0])  # seat 1's bid made nothing stale
    assert game.bids is None and game.waiting_to_choose() == [2]
    with pytest.raises(RuleError) as info:
        game.act(2, Bid((4,)))
    assert info.value.reason == TideReason.BID_TOO_HIGH
    game.act(2, Bid((1,)), decision_id=ids[2])
    events = list(game.collect_events())
    revealed = [e for e in events if event_type(e) == "ChoicesRevealed"]
    assert len(revealed) == 1
    assert payload_of(revealed[0])["choices"] == {"0": [2], "1": [1, 3], "2": [1]}
    settled = next(e for e in events if event_type(e) == "BidsSettled")
    # West bid 3, North 2, then East and South (1 each) round the table from North.
    assert payload_of(settled) == {"bids": [2, 1, 1, 3], "order": [3, 0, 1, 2],
                                   "totals": [C.start_coins - b for b in (2, 1, 1, 3)]}
    assert game.coins == [C.start_coins - b for b in (2, 1, 1, 3)]
    assert game.pending()[0].position == 3 and game.pending()[0].seat == 1


def test_a_stale_decision_id_is_refused() -> None:
    game = new(2)
    old = {d.seat: d.id for d in game.pending_decisions()}
    bid_all(game)
    with pytest.raises(RuleError) as info:  # the bid is over; this answers nothing now
        game.act(holder_seat(game), PassPriority(), decision_id=old[holder_seat(game)])
    assert info.value.reason == Reason.STALE_DECISION


def test_a_clock_default_bids_at_random_and_audits_clean() -> None:
    game = new(3, clock=True)
    game.act_default(0)
    game.act(1, Bid((0, 0)))
    game.act_default(2)
    assert game.bids is not None
    seat = holder_seat(game)
    game.act_default(seat)  # "pass" on the shore: the claim step's declared pass
    events = list(game.collect_events())
    applied = [e for e in events if event_type(e) == "DefaultApplied"]
    assert [payload_of(e)["default"] for e in applied] == ["random", "random", "pass"]
    assert payload_of(applied[2])["command"] == PassPriority().to_json()
    assert audit(events, Template).ok


# ------------------------------------------------------- working the shore


def opened(seats: int = 3) -> Template:
    """A game past its first bid (everyone bid 0: North first)."""
    game = new(seats)
    bid_all(game)
    return game


def test_the_round_ends_when_everyone_passes_in_a_row() -> None:
    game = opened()
    assert asked(game, holder_seat(game)) == ["claim"]
    for _ in range(3):
        game.act(holder_seat(game), PassPriority())
    game.act(holder_seat(game), Dive(1))  # an action restarts the run of passes
    for _ in range(3):
        game.act(holder_seat(game), PassPriority())
    assert game.round == 1 and game.passing is not None
    game.act(holder_seat(game), PassPriority())
    assert game.round == 2 and game.collecting is not None  # the next tide
    assert len(game.zones[SHORE]) == C.shore_size


def test_moves_are_routed_by_stage_and_turn() -> None:
    game = opened()
    seat = holder_seat(game)
    with pytest.raises(RuleError) as info:
        game.act(seat, LetGo())
    assert info.value.reason == Reason.WRONG_PHASE
    with pytest.raises(RuleError) as info:
        game.act((seat + 1) % 3, PassPriority())
    assert info.value.reason == Reason.NOT_YOUR_TURN
    with pytest.raises(RuleError) as info:
        game.act(seat, Claim(game.zones[DECK][0]))
    assert info.value.reason == TideReason.NOT_ON_SHORE
    with pytest.raises(RuleError) as info:
        game.act(seat, Dive(5))
    assert info.value.reason == TideReason.TOO_DEEP
    held = game.zones[hand(0)]
    for bad, reason in ((Bank(()), TideReason.BANK_SIZE), (Bank((held[0], held[0])),
                        TideReason.BANK_SIZE), (Bank((game.zones[DECK][0],)),
                                                TideReason.NOT_IN_HAND)):
        with pytest.raises(RuleError) as info:
            game.act(seat, bad)
        assert info.value.reason == reason


def test_shore_choices_are_pick_one_pick_cards_and_number() -> None:
    game = opened()
    seat = holder_seat(game)
    pick, cards, number = game.choices(seat)
    assert isinstance(pick, PickOne) and isinstance(cards, PickCards)
    assert isinstance(number, Number)
    assert cards.zone == hand(0) and set(cards.options) == set(game.zones[hand(0)])
    assert (number.low, number.high) == (1, min(C.max_dive, game.coins[0]))
    assert game.choices((seat + 1) % 3) == []  # not asked


def test_banking_is_read_by_the_team_only() -> None:
    game = opened(4)
    card = game.zones[hand(0)][0]
    game.act(0, Bank((card,)))
    banked = next(e for e in game.collect_events() if event_type(e) == "Banked")
    assert banked.meta["aud"] == [0, 2] and banked.meta["pub"] == {"position": 0, "count": 1}
    assert game.zones[vault(0)] == [card] and game.banked_by == {str(card): 0}


def test_a_dive_is_read_by_the_diver_alone() -> None:
    game = opened(3)
    top = game.zones[DECK][:2]
    game.act(0, Dive(2))
    dived = next(e for e in game.collect_events() if event_type(e) == "Dived")
    assert payload_of(dived)["cards"] == top and dived.meta["aud"] == [0]
    assert dived.meta["pub"] == {"position": 0, "depth": 2}
    assert game.coins[0] == C.start_coins - 2


# -------------------------------------------------------------- snatching


def test_the_snatch_window_asks_opponents_in_precedence_order() -> None:
    game = opened(4)
    pearl, oyster, oyster2 = (card_named("Pearl"), card_named("Oyster"),
                              card_named("Oyster", skip=(card_named("Oyster"),)))
    kelp = card_named("Kelp Bundle")
    arrange(game, shore=[pearl], hand_1=[oyster], hand_3=[oyster2, kelp], hand_2=[])
    game.act(0, Claim(pearl))
    assert game.window is not None and game.window["order"] == [1, 3]
    [decision] = game.pending_decisions()
    assert (decision.seat, decision.kind, decision.position) == (1, "react", 1)
    assert decision.id.endswith(f".w{game.window['serial']}")  # the game's own id part
    assert game.legal_actions(1) == [Snatch(oyster), LetGo()]
    game.act(1, LetGo())
    assert game.pending()[0].seat == 3  # next in precedence
    with pytest.raises(RuleError) as info:
        game.act(3, Snatch(kelp))
    assert info.value.reason == TideReason.WRONG_SUIT
    with pytest.raises(RuleError) as info:
        game.act(3, Snatch(oyster))
    assert info.value.reason == TideReason.NOT_IN_HAND
    game.act(3, Snatch(oyster2))
    assert pearl in game.zones[hand(3)] and oyster2 in game.zones["discard"]
    assert game.window is None and asked(game, 1) == ["claim"]


def test_the_first_snatch_closes_the_window() -> None:
    game = opened(3)  # seat 1 plays East and West
    pearl = card_named("Pearl")
    o1 = card_named("Oyster")
    o2 = card_named("Oyster", skip=(o1,))
    arrange(game, shore=[pearl], hand_1=[o1], hand_3=[o2])
    game.act(0, Claim(pearl))
    assert game.pending()[0].position == 1
    game.act(1, Snatch(o1))
    assert game.window is None and o2 in game.zones[hand(3)]


def test_an_anchored_card_cannot_be_snatched() -> None:
    game = opened(4)
    anchor, kelp = card_named("Sunken Anchor"), card_named("Kelp Bundle")
    arrange(game, shore=[anchor], hand_1=[kelp])
    assert C.book.has_keyword("anchored", C.card(anchor).effects)
    game.act(0, Claim(anchor))
    assert game.window is None


# ----------------------------------------------------------------- effects


def test_the_gull_pays_once_per_round() -> None:
    game = opened(4)
    gull, p1 = card_named("Gull"), card_named("Pearl")
    p2 = card_named("Pearl", skip=(p1,))
    arrange(game, vault_0=[gull], shore=[p1, p2], hand_1=[], hand_3=[])
    coins = game.coins[0]
    game.act(0, Claim(p1))
    used = [e for e in game.collect_events() if event_type(e) == "EffectUsed"]
    assert [payload_of(e)["usage"] for e in used] == ["gull@round1.team0"]
    assert game.coins[0] == coins + 1
    game.act(1, PassPriority())
    game.act(2, Claim(p2))  # the same team, the same round: spent
    assert not [e for e in game.collect_events() if event_type(e) == "EffectUsed"]
    assert game.coins[2] == C.start_coins


def test_the_lighthouse_modifies_the_score_without_writing_state() -> None:
    from tests.template_game.scoring import card_points

    pearl = card_named("Pearl")
    assert card_points(pearl, []) == 3
    assert card_points(pearl, ["lighthouse"]) == 4
    assert card_points(card_named("Coral Fan"), ["lighthouse"]) == 2


def test_teams_score_together() -> None:
    game = new(3, rounds=1)
    bid_all(game)
    p, light = card_named("Pearl"), card_named("Lighthouse")
    arrange(game, hand_0=[p], hand_2=[light])
    game.act(0, Bank((p,)))
    for _ in range(1):
        game.act(holder_seat(game), PassPriority())
    game.act(2, Bank((light,)))
    while not game.ended:
        game.act(holder_seat(game), PassPriority())
    outcome = game.outcome
    assert outcome is not None
    assert outcome["scores"] == [4, 0, 1]  # North's pearl scores 3 + 1 with the Lighthouse
    assert outcome["teams"][0] == {"team": "North–South", "seats": [0, 2], "score": 5,
                                   "positions": ["North", "South"]}
    assert outcome["winner_team"] == 0 and outcome["winners"] == [0, 2]
    assert outcome["result"] == "North–South win, 5 to 0"


# ------------------------------------------------------------ presentation


def test_present_label_and_describe() -> None:
    game = opened(3)
    data = game.present(1).to_json()
    assert validate_screen(data) == []
    titles = [s["title"] for s in data["sections"]]
    assert titles[:3] == ["The table", "Your hands", "Other hands"]
    yours = data["sections"][1]["items"]
    assert [i["label"] for i in yours] == ["East's hand", "West's hand"]
    assert all("cards" in i for i in yours)
    assert all("cards" not in i for i in data["sections"][2]["items"])
    assert validate_screen(game.present(None).to_json()) == []
    pearl = card_named("Pearl")
    assert game.action_label(Claim(pearl)) == "Claim Pearl (pearl 3) from the shore"
    assert game.action_label(Dive(2)) == "Dive 2 cards deep (2 coins)"
    assert game.action_label(Bid((1, 2))) == "Bid 1, 2"
    seats = ["Ada", "Bo", "Cy"]
    assert Template.describe("Banked", {"position": 3, "count": 2}, seats) == \
        "West (Bo) banks 2 cards"
    assert Template.describe("Banked", {"position": 3, "cards": [pearl]}, seats) == \
        "West (Bo) banks Pearl (pearl 3)"
    assert Template.describe("ChoiceMade", {"seat": 0, "kind": "bid"}, seats) == "Ada has bid"


def test_every_event_is_described_in_the_games_words() -> None:
    from tests.unit.kernel.template_bot import play_out

    game = new(3)
    events = play_out(game, random.Random(3))
    for ev in events:
        for reader in (Reader(0), Reader(1), Reader(None)):
            payload, _, _ = visible_payload(Template, ev, reader)
            text = Template.describe(event_type(ev), payload, game.seats)
            assert text and (text != event_type(ev)), event_type(ev)
