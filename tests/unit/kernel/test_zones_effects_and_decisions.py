"""The kernel's building blocks, feature by feature, directly (the template game
shows them in play: test_template_game.py; the ability engine has its own:
test_abilities.py): flow helpers, zones and their audiences,
seating and teams, decisions and choices, presentation, per-decision
staleness, recorded audiences, clock defaults and their audit."""

from __future__ import annotations

import dataclasses

import pytest
from arbiter.decisions import CHOICE_KINDS

from aggregates.kernel import (
    EVERYONE,
    NOBODY,
    Assign,
    Audience,
    Branch,
    Decision,
    Number,
    PickCards,
    PickOne,
    PickPath,
    Reason,
    RuleError,
    Seating,
    Visibility,
    Zones,
    ZoneSpec,
    event_type,
    payload_of,
    recorded_audience,
)
from aggregates.kernel import flow as kflow
from aggregates.kernel import present as kpresent
from aggregates.kernel import zones as kzones
from aggregates.kernel.game import DEFAULT_COMMAND
from aggregates.kernel.record.audit import audit
from aggregates.kernel.record.entropy import fisher_yates
from service.envelope import Reader, visible_payload
from tests.unit.kernel.vote import SecretVote, Vote

# ----------------------------------------------------------------------- flow


def test_turn_order_helpers() -> None:
    assert kflow.next_seat(3, 4) == 0
    assert kflow.next_seat(0, 4, skip=[1, 2]) == 3
    assert kflow.next_seat(0, 4, step=-1) == 3
    assert kflow.order_from(2, 4) == [2, 3, 0, 1]
    assert kflow.order_from(2, 4, step=-1) == [2, 1, 0, 3]
    with pytest.raises(ValueError):
        kflow.next_seat(0, 2, skip=[0, 1])


def test_passing_ends_only_when_everyone_passes_in_a_row() -> None:
    state = kflow.passing([2, 0, 1], first=0)
    assert kflow.priority(state) == 0
    kflow.after_pass(state)
    kflow.after_pass(state)
    assert kflow.priority(state) == 2 and not kflow.all_passed(state)
    kflow.after_action(state)  # an action restarts the run of passes
    assert state["passes"] == 0 and kflow.priority(state) == 0
    for _ in range(2):
        kflow.after_pass(state)
        assert not kflow.all_passed(state)
    kflow.after_pass(state)
    assert kflow.all_passed(state)


def test_reaction_window_asks_in_precedence_order() -> None:
    window = kflow.reaction_window("attack", [3, 1], serial=7)
    assert kflow.responder(window) == 3 and window["serial"] == 7
    kflow.after_response(window, 3, None)
    assert kflow.responder(window) == 1 and not kflow.closed(window)
    kflow.after_response(window, 1, "parry")
    assert kflow.closed(window) and kflow.responder(window) is None
    assert window["reactions"] == [[1, "parry"]]


# ------------------------------------------------------------ seating, teams


def test_seating_positions_and_teams() -> None:
    seating = Seating((0, 1, 2, 1), ((0, 2), (1,)))
    assert seating.positions_of(1) == [1, 3] and seating.positions_of(0) == [0]
    assert seating.team_of(2) == (0, 2) and seating.team_of(1) == (1,)
    assert seating.team_index(2) == 0 and seating.team_index(5) is None
    assert seating.team(0) == Audience(frozenset({0, 2}))
    assert seating.team_totals([3, 10, 4]) == [7, 10]
    plain = Seating.one_each(3)
    assert plain.team_of(1) == (1,) and plain.positions_of(2) == [2]


def test_audiences() -> None:
    assert EVERYONE.everyone and EVERYONE.includes(None) and EVERYONE.includes(3)
    assert not NOBODY.includes(0) and not NOBODY.includes(None)
    a, b = Audience(frozenset({1})), Audience(frozenset({2}))
    assert (a | b).seats == {1, 2} and (a | EVERYONE).everyone
    assert Audience.from_meta(a.to_meta()) == a and Audience.from_meta(None) == EVERYONE


# ---------------------------------------------------------------------- zones


def table_zones() -> Zones:
    seating = Seating((0, 1, 2, 1), ((0, 2), (1,)))
    specs = [ZoneSpec("deck", Visibility.COUNT_ONLY), ZoneSpec("row", Visibility.PUBLIC),
             ZoneSpec("hand:0", Visibility.OWNER, owner=0),
             ZoneSpec("hand:1", Visibility.OWNER, owner=1),
             ZoneSpec("vault:0", Visibility.TEAM, owner=0)]
    contents = {"deck": [1, 2, 3], "row": [4], "hand:0": [5], "hand:1": [6, 7],
                "vault:0": [8]}
    return Zones(specs, contents, seating)


def test_zone_views_follow_visibility() -> None:
    zones = table_zones()
    assert zones.view(0) == {
        "deck": {"count": 3}, "row": {"cards": [4], "count": 1},
        "hand:0": {"cards": [5], "count": 1}, "hand:1": {"count": 2},
        "vault:0": {"cards": [8], "count": 1},
    }
    assert zones.seen_by("vault:0", 2) == [8]  # the owner's teammate
    assert zones.seen_by("vault:0", 1) is None and zones.count_seen_by("vault:0", 1) == 1
    assert zones.seen_by("hand:1", None) is None  # a spectator
    assert zones.seen_by("deck", 0) is None


def test_move_audiences() -> None:
    zones = table_zones()
    assert zones.move_audience("deck", "hand:1").seats == {1}  # a draw: its receiver
    assert zones.move_audience("deck", "row").everyone  # turned face up
    assert zones.move_audience("hand:0", "row").everyone  # played face up
    assert zones.move_audience("row", "hand:1").everyone  # taken from plain sight: all saw it
    assert zones.move_audience("hand:0", "vault:0").seats == {0, 2}  # banked: the team
    assert zones.move_audience("hand:1", "hand:0").seats == {0, 1}  # given: both ends


def test_draw_and_recorded_shuffle() -> None:
    assert kzones.draw([5, 6, 7], 2) == [5, 6]
    rolls = iter([1, 1, 1])
    assert fisher_yates([1, 2, 3, 4], lambda n: next(rolls, 1)) != [1, 2, 3, 4]


# ------------------------------------------------------------------ decisions


def test_choices_to_json_and_build() -> None:
    pick = PickCards("play_band", "cards", (3, 5, 8), 1, 3, zone="hand:0", mark="leader",
                     fixed={"x": 1})
    assert pick.to_json()["kind"] == "pick_cards" and pick.to_json()["options"] == [3, 5, 8]
    assert pick.build([3, 8], 8) == {"name": "play_band",
                                     "args": {"x": 1, "cards": [3, 8], "leader": 8}}
    assign = Assign("bid", "bids", ("North", "South"), (0, 1, 2))
    assert assign.to_json()["items"] == ["North", "South"]
    assert assign.build([2, 0]) == {"name": "bid", "args": {"bids": [2, 0]}}
    number = Number("dive", "depth", 1, 2, prompt="how deep")
    assert number.to_json() == {"kind": "number", "command": "dive", "arg": "depth", "low": 1,
                                "high": 2, "fixed": {}, "prompt": "how deep"}
    assert number.build(2) == {"name": "dive", "args": {"depth": 2}}
    assert PickOne("x").to_json() == {"kind": "pick_one", "prompt": "x"}
    # Deploy in Ettin: a card, then a place; a card that scouts asks one step more.
    path = PickPath("deploy", ("card", "slot", "scout"),
                    (Branch(7, "Militia", (Branch(0, "near"), Branch(3, "Adventure"))),
                     Branch(9, "Scouts", (Branch(1, "middle", (Branch(0, "no"),
                                                               Branch(2, "far"))),))),
                    questions=("Which card?", "Where?", "Scouting?"), fixed={"scout": 0})
    assert path.to_json()["options"][1]["then"][0]["then"][1] == {"value": 2, "label": "far"}
    assert path.build([7, 3]) == {"name": "deploy", "args": {"card": 7, "slot": 3, "scout": 0}}
    assert path.build([9, 1, 2]) == {"name": "deploy", "args": {"card": 9, "slot": 1, "scout": 2}}
    assert {c.kind for c in (pick, assign, number, PickOne(), path)} == set(CHOICE_KINDS)


def test_decision_to_json() -> None:
    plain = Decision(1, "claim", "claim or pass")
    assert plain.to_json() == {"seat": 1, "kind": "claim", "prompt": "claim or pass",
                               "hidden": False, "id": "", "choices": []}
    full = Decision(0, "bid", "bid", hidden=True, id="x", choices=(Number("bid", "v", 0, 3),),
                    deadline=30.0, default="random", position=2)
    data = full.to_json()
    assert data["deadline"] == 30.0 and data["default"] == "random" and data["position"] == 2
    assert data["choices"][0]["kind"] == "number"


# --------------------------------------------------------------- presentation


def test_screen_to_json_validates() -> None:
    screen = kpresent.screen(
        kpresent.section("Table", kpresent.Track("Coins", per_seat=(1, 2)),
                         kpresent.Track("HP", 7, maximum=12),
                         kpresent.Cards("Hand", (kpresent.Card(1, "Pearl", "3", "pearl"),),
                                        zone="hand:0", numbered=True),
                         kpresent.Cards("Deck", count=9),
                         kpresent.Table("Scores", ("a", "b"), ((1, 2),)),
                         kpresent.Board("Map", (kpresent.Space(1, "Town", (2,), ("you",), True),)),
                         kpresent.Note("a note"), None),
        kpresent.section("Empty"),
    )
    data = screen.to_json()
    assert kpresent.validate_screen(data) == []
    assert [s["title"] for s in data["sections"]] == ["Table"]  # empty sections left out
    items = data["sections"][0]["items"]
    assert [i["kind"] for i in items] == ["track", "track", "cards", "cards", "table", "board",
                                          "note"]
    assert items[0]["per_seat"] == [1, 2] and items[1]["maximum"] == 12
    assert items[2]["cards"][0] == {"id": 1, "name": "Pearl", "detail": "3", "tag": "pearl"}
    assert items[3] == {"kind": "cards", "label": "Deck", "count": 9}


def test_validate_screen_finds_problems() -> None:
    assert kpresent.validate_screen({}) == ["screen has no list of sections"]
    bad = {"sections": [{"items": []}, {"title": "T", "items": [{"kind": "map"},
                                                               {"kind": "cards"}]}]}
    problems = kpresent.validate_screen(bad)
    assert len(problems) == 3


def test_generic_screen_draws_any_view() -> None:
    data = kpresent.generic_screen({"gold": 3, "hand": [1, 2], "map": {"a": 1}}).to_json()
    assert kpresent.validate_screen(data) == []


# ------------------------------------------------ staleness, audiences, clocks


def test_seats_choosing_at_once_never_make_each_other_stale() -> None:
    game = SecretVote.start(["a", "b", "c"])
    ids = {d.seat: d.id for d in game.pending_decisions()}
    assert len(set(ids.values())) == 3
    game.act(0, Vote(2), decision_id=ids[0])
    game.act(2, Vote(3), decision_id=ids[2])  # seat 0's answer did not make this stale
    assert {d.seat: d.id for d in game.pending_decisions()} == {1: ids[1]}
    with pytest.raises(RuleError) as info:
        game.act(1, Vote(1), decision_id=ids[0])  # another seat's decision
    assert info.value.reason == Reason.STALE_DECISION
    with pytest.raises(RuleError) as info:
        game.act(1, Vote(1), decision_id="1.vote.0.deadbeef")
    assert info.value.reason == Reason.STALE_DECISION
    game.act(1, Vote(1), decision_id=ids[1])
    assert game.outcome == {"total": 6}


def test_choices_are_read_by_their_chooser_alone_until_revealed_together() -> None:
    game = SecretVote.start(["a", "b"])
    game.act(0, Vote(3))
    game.act(1, Vote(1))
    events = list(game.collect_events())
    made = [e for e in events if event_type(e) == "ChoiceMade"]
    assert [e.meta["aud"] for e in made] == [[0], [1]]
    assert [e.meta["pub"] for e in made] == [{"seat": 0, "kind": "vote"},
                                             {"seat": 1, "kind": "vote"}]
    for ev in made:
        other = 1 - payload_of(ev)["seat"]
        payload, redacted, _ = visible_payload(SecretVote, ev, Reader(other))
        assert redacted and "choice" not in payload
    revealed = [e for e in events if event_type(e) == "ChoicesRevealed"]
    assert len(revealed) == 1 and payload_of(revealed[0])["choices"] == {"0": 3, "1": 1}
    assert revealed[0].meta["aud"] is None


def test_audiences_are_recorded_in_meta_and_read_back() -> None:
    game = SecretVote.start(["a", "b"])
    game.act(0, Vote(2))
    events = list(game.collect_events())
    made = next(e for e in events if event_type(e) == "ChoiceMade")
    audience, public = recorded_audience(SecretVote, "ChoiceMade", payload_of(made), made.meta)
    assert audience.seats == {0} and public == {"seat": 0, "kind": "vote"}
    opened = next(e for e in events if event_type(e) == "ChoicesOpened")
    audience, public = recorded_audience(SecretVote, "ChoicesOpened", payload_of(opened),
                                         opened.meta)
    assert audience.everyone and public == {}
    # A game recorded before Kernel 2 (no "aud" in meta): the class-level rule.
    legacy = {k: v for k, v in made.meta.items() if k not in ("aud", "pub")}
    audience, _ = recorded_audience(SecretVote, "ChoiceMade", payload_of(made), legacy)
    assert audience.everyone


def test_a_random_default_is_recorded_hidden_and_audited() -> None:
    game = SecretVote.start(["a", "b", "c"])
    game.act(0, Vote(1))
    game.act_default(1)
    events = list(game.collect_events())
    applied = next(e for e in events if event_type(e) == "DefaultApplied")
    assert applied.meta["cmd"]["name"] == DEFAULT_COMMAND and applied.meta["draws"]
    # Kernel fix: the command picked for a hidden choice is the seat's alone.
    assert applied.meta["aud"] == [1]
    assert "command" not in applied.meta["pub"]
    payload, redacted, _ = visible_payload(SecretVote, applied, Reader(0))
    assert redacted and payload == {"seat": 1, "decision": payload_of(applied)["decision"],
                                    "default": "random"}
    game.act(2, Vote(3))
    events += game.collect_events()
    report = audit(events, SecretVote)
    assert report.ok, report.problems


def test_act_default_without_a_default_or_pass_is_refused() -> None:
    game = SecretVote.start(["a", "b"])
    game.act(0, Vote(1))
    with pytest.raises(RuleError) as info:
        game.act_default(0)
    assert info.value.reason == Reason.NO_DEFAULT


class PassingVote(SecretVote):
    """A vote whose decisions say "pass" though its step declares no pass."""

    RULES_ID = "passing_vote"

    def pending(self) -> list[Decision]:
        return [dataclasses.replace(d, default="pass") for d in super().pending()]


def test_a_pass_default_on_a_step_without_a_pass_is_refused() -> None:
    game = PassingVote.start(["a", "b"])
    version = game.version
    with pytest.raises(RuleError) as info:
        game.act_default(1)
    assert info.value.reason == Reason.NO_DEFAULT and game.version == version


def test_a_forged_default_fails_the_audit() -> None:
    game = SecretVote.start(["a", "b"])
    game.act_default(0)
    game.act(1, Vote(2))
    events = list(game.collect_events())
    index = next(i for i, e in enumerate(events) if event_type(e) == "ChoiceMade")
    forged = list(events)
    choice = payload_of(events[index])["choice"]
    forged[index] = dataclasses.replace(events[index], choice=choice % 3 + 1)
    report = audit(forged, SecretVote)
    assert not report.ok


def test_emit_of_an_event_the_kernel_declares_works_in_a_subclass() -> None:
    """Kernel fix: ``emit`` found the subclass's copy of an inherited event
    class, which the library cannot apply (``collect`` failed in every game)."""
    game = SecretVote.start(["a", "b"])
    game.emit("ChoiceMade", audience=Audience(frozenset({1})), seat=1, kind="vote", choice=2)
    assert game.collecting is not None and game.collecting["chosen"] == {"1": 2}
    with pytest.raises(TypeError):
        game.emit("NoSuchEvent")


def test_assign_names_its_slots_in_the_games_words() -> None:
    """An Assign's slots travel with the game's labels, so a client never names
    a slot after a card that happens to share its number."""
    from aggregates.kernel import Assign

    choice = Assign("bid", "bids", items=("East",), slots=(0, 1), slot_labels=("bid 0", "bid 1"))
    assert choice.to_json()["slot_labels"] == ["bid 0", "bid 1"]
    assert choice.build([1]) == {"name": "bid", "args": {"bids": [1]}}
