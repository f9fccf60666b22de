"""The generic renderer: screens in the kernel's vocabulary, decisions, events, outcomes.

The screens are built with the kernel's own presentation classes and sent
through JSON, exactly as ``GameState.screen_json`` carries them, so these tests
prove the renderer reads what games write.
"""

from __future__ import annotations

import json

from arbiter.render import (
    card_names,
    describe_choice,
    describe_command_json,
    describe_event,
    event_text,
    format_value,
    humanize,
    loads_object,
    plural,
    render_outcome,
    render_pending,
    screen_cards,
    seat_name,
)
from arbiter.v1 import game_pb2

from aggregates.kernel.present import (
    Board,
    Card,
    Cards,
    Note,
    Space,
    Table,
    Track,
    screen,
    section,
    validate_screen,
)
from clients.render import (
    render_audit,
    render_event_line,
    render_legal,
    render_screen,
    render_state,
)

SEATS = ["Ada", "Bo", "Cy"]


def wire(*sections: object) -> dict[str, object]:
    """A screen as it travels: built by the kernel, through JSON text, checked."""
    data = json.loads(json.dumps(screen(*sections).to_json()))  # type: ignore[arg-type]
    assert validate_screen(data) == []
    return data  # type: ignore[no-any-return]


HAND = Cards("Your hand", (Card(58, "Red Halfling", "no power", tag="red"),
                           Card(10, "Centaur", tag="gray"), Card(149, "Wizard", "draws X cards")),
             zone="hand", numbered=True)


def test_every_item_kind() -> None:
    data = wire(
        section("You", Track("HP", 7, maximum=10), Track("Gold", 25), HAND),
        section("Table", Track("Glory", per_seat=(3, 5, 0)),
                Cards("Allies deck", count=66), Cards("Discard", cards=()),
                Cards("Row", (Card(12, "Elf", tag="orange"), Card(13, "Dwarf"))),
                Table("Kingdoms", ("Kingdom", "Glory", "Markers"),
                      (("Ithys", "6 8", "-"), ("Rhea", "2 10", "Ada 1")))),
        section("Encounter", Note("A Minotaur blocks the road.")),
    )
    lines = render_screen(data, SEATS)
    text = "\n".join(lines)
    assert lines[0] == "== You ==" and "== Table ==" in lines and "== Encounter ==" in lines
    assert "  HP: 7/10" in lines and "  Gold: 25" in lines
    # numbered cards: one per line, numbered for picking, with tag and detail
    assert "  Your hand (3):" in lines
    assert "    1. Red Halfling: no power" in lines  # a tag in the name is not repeated
    assert "    2. Centaur [gray]" in lines
    assert "    3. Wizard: draws X cards" in lines
    # per-seat tracks by seat name; a hidden zone as a count; an empty zone
    assert "  Glory: Ada 3, Bo 5, Cy 0" in lines
    assert "  Allies deck: 66 cards" in lines
    assert "  Discard: none" in lines
    assert "  Row (2): Elf [orange], Dwarf" in lines
    # a table under its headings, aligned
    assert "  Kingdoms:" in lines
    assert any(line.split() == ["Kingdom", "Glory", "Markers"] for line in lines)
    assert any(line.split() == ["Rhea", "2", "10", "Ada", "1"] for line in lines)
    assert "  A Minotaur blocks the road." in lines
    assert "1 cards" not in text


def test_a_hidden_zone_of_one_card_is_a_count_never_the_faces() -> None:
    data = wire(section("Bo", Cards("Hand", count=1), Cards("Deck", count=0)))
    lines = render_screen(data, SEATS)
    assert lines == ["== Bo ==", "  Hand: 1 card", "  Deck: 0 cards"]


def test_a_board_lists_spaces_links_and_occupants_and_marks_the_marked() -> None:
    data = wire(section("Map", Board("The land", (
        Space(1, "Iron Hills", links=(2,)),
        Space(2, "Wood of Wyr", links=(1, 3), occupants=("You",), marked=True),
        Space(3, "Nigh Towns", links=(2,), occupants=("Bandits", "Imp")),
    ))))
    lines = render_screen(data)
    assert "  The land:" in lines
    assert "    1 Iron Hills   -> Wood of Wyr" in lines
    assert "  > *2 Wood of Wyr*: You   -> Iron Hills, Nigh Towns" in lines
    assert "    3 Nigh Towns: Bandits, Imp   -> Wood of Wyr" in lines


def test_unknown_kinds_and_junk_do_not_crash() -> None:
    assert render_screen({}) == []
    assert render_screen({"sections": ["x", {"title": "T", "items": [{"kind": "dial", "v": 1}]}]}) \
        == ["== T ==", "  dial: v=1"]


def test_cards_of_a_zone_and_names_by_id() -> None:
    data = wire(section("You", HAND), section("Row", Cards("Row", (Card("e1", "Elf"),))))
    assert [c["id"] for c in screen_cards(data, "hand") or []] == [58, 10, 149]
    assert screen_cards(data, "nowhere") is None
    names = card_names(data)
    assert names["10"] == "Centaur [gray]" and names["e1"] == "Elf"
    assert names["58"] == "Red Halfling: no power"


def test_a_long_card_row_wraps() -> None:
    row = Cards("Row", tuple(Card(i, f"Card number {i}") for i in range(20)))
    lines = render_screen(wire(section("Row", row)))
    assert len(lines) > 3 and all(len(line) <= 100 for line in lines)
    assert lines[1].startswith("  Row (20): Card number 0,")


def test_state_draws_the_screen_or_falls_back_to_the_view() -> None:
    data = wire(section("You", Track("HP", 7, maximum=10)))
    state = game_pb2.GameState(
        game_id="g", rules="enin", version=9, screen_json=json.dumps(data),
        view_json='{"hp": 7}', seed_commitment="def", seats=["Ada"],
        pending=[game_pb2.Decision(seat=0, kind="turn", prompt="Travel or quest?")],
    )
    text = render_state(state)
    assert "== You ==" in text and "HP: 7/10" in text and "Ada (Player 1)" in text
    assert "Waiting on Ada (Player 1): Travel or quest?" in text
    bare = game_pb2.GameState(game_id="g", rules="x", view_json='{"hit_points": 7}')
    assert "hit points: 7" in render_state(bare)


def test_pending_decisions_name_the_seat_and_say_a_secret_choice() -> None:
    pending = [game_pb2.Decision(seat=1, kind="deploy", prompt="", hidden=True)]
    assert render_pending(pending, SEATS) == [
        "Waiting on Bo (Player 2): deploy (a secret choice)"]


def test_one_naming_of_seats_counted_from_1_in_the_terminal_pages_and_log() -> None:
    """Issue 23: "Seat 2" in one place and "Player 3" in another for the same
    seat. A seat is its name, else ``Player N`` with N = seat + 1 (the names
    ``arbiter new`` gives), in the terminal (``seat_name``, ``render_pending``,
    ``render_outcome``), the pages (which draw through ``seat_name``) and the
    replay's reader line."""
    from clients.replay import reader_name

    assert seat_name(2) == seat_name(2, ["", "", ""]) == "Player 3"
    assert seat_name(1, ["Ada", "Bo"]) == "Bo"
    assert render_pending([game_pb2.Decision(seat=2, kind="turn", prompt="Go")]) == [
        "Waiting on Player 3: Go"]
    assert "Winner: Player 3" in render_outcome({"winners": [2], "summary": "Player 3 wins."})
    assert reader_name(1, ["Ada", "Bo"]) == "Bo (Player 2)"
    assert reader_name(0, []) == "Player 1"
    # An alliance's win is one team winning, not a tie (Ettin: Winning the Game).
    alliance = render_outcome({"winners": [2, 3], "winning_team": [2, 3],
                               "summary": "Cy and Di win."}, ["Ada", "Bo", "Cy", "Di"])
    assert "Winning team: Cy (Player 3) & Di (Player 4)" in alliance
    assert "tied" not in alliance


def test_events_are_told_in_the_games_words_else_type_and_payload() -> None:
    told = game_pb2.Event(type="DrewFromDeck", payload_json='{"seat": 1}',
                          text="Bo draws a card from the Allies Deck.")
    assert event_text(told) == "Bo draws a card from the Allies Deck."
    bare = game_pb2.Event(type="DragonSlept", payload_json='{"turns": 2}')
    assert event_text(bare) == "Dragon slept: turns=2"
    assert describe_event("Healed", {"text": "You rest."}) == "You rest."
    assert describe_event("Passed", {}) == "Passed"


def test_outcome_is_drawn_one_way_for_every_game() -> None:
    glory = {"winners": [2], "winning_team": None, "ranking": [[2], [1], [0]],
             "scores": [6, 46, 58], "breakdown": {"glory": [6, 46, 58], "markers": [1, 2, 3]},
             "summary": "Player 3 wins with 58 Glory."}
    lines = render_outcome(glory, SEATS).splitlines()
    assert lines == ["Game over: Cy (Player 3) wins with 58 Glory.", "Winner: Cy (Player 3)",
                     "Ranking: 1. Cy (Player 3); 2. Bo (Player 2); 3. Ada (Player 1)",
                     "Scores: Ada (Player 1) 6, Bo (Player 2) 46, Cy (Player 3) 58"]
    # An alliance wins as a team, not as tied winners; the breakdown is not dumped.
    team = {"winners": [1, 3], "winning_team": [1, 3], "ranking": [[1, 3], [0, 2]],
            "scores": [5, 9, 4, 8], "breakdown": {"teams": [], "winner_team": 1},
            "summary": "The team of Player 2 and Player 4 wins with 17 VP."}
    drawn = render_outcome(team, ["Player 1", "Player 2", "Player 3", "Player 4"])
    assert "Winning team: Player 2 & Player 4" in drawn.splitlines()
    assert "Ranking: 1. Player 2 & Player 4; 2. Player 1 & Player 3" in drawn
    assert "tied" not in drawn and "Winner team" not in drawn
    # Ettin, Winning the Game: the summary names the team's players as its last
    # event does ("Bo & Di win"), with the numbers people read everywhere.
    named = render_outcome(team, ["Ada", "Bo", "Cy", "Di"]).splitlines()[0]
    assert named == "Game over: The team of Bo (Player 2) and Di (Player 4) wins with 17 VP."
    tied = render_outcome({**glory, "winners": [0, 1], "ranking": [[0, 1], [2]]}, SEATS)
    assert "Winners (tied): Ada (Player 1), Bo (Player 2)" in tied
    solo = render_outcome({"winners": [], "winning_team": None, "ranking": [[0]],
                           "scores": [None], "breakdown": {"result": "lost"},
                           "summary": "Player 1's HP fall to 0 on turn 3: the quest is lost."})
    assert solo.splitlines() == ["Game over: Player 1's HP fall to 0 on turn 3: the quest "
                                 "is lost."]
    assert render_outcome({}) == "Game over."


def test_choices_in_words_without_one_cards() -> None:
    band = {"kind": "pick_cards", "command": "play_band", "arg": "cards", "options": [1, 2],
            "low": 1, "high": 10, "zone": "hand", "mark": "leader", "prompt": ""}
    assert describe_choice(band) == (
        "Play band (pick 1 to 10 cards of hand, one of them as leader)")
    one = {**band, "high": 1, "mark": "", "prompt": "Recruit"}
    assert describe_choice(one) == "Recruit (pick 1 card of hand)"
    number = {"kind": "number", "command": "bid", "arg": "amount", "low": 0, "high": 5}
    assert describe_choice(number) == "Bid (a number from 0 to 5)"
    assign = {"kind": "assign", "command": "deploy", "arg": "to", "items": [1, 2], "slots": [7]}
    assert describe_choice(assign) == "Deploy (give each of 2 items a slot, 1 slot to choose from)"
    assert plural(1, "card") == "1 card" and plural(2, "card") == "2 cards"


def test_legal_listing_shows_labels_json_and_what_the_list_leaves_out() -> None:
    action = game_pb2.LegalAction(json='{"name": "recruit_from_deck", "args": {}}',
                                  label="Recruit the top card of the deck")
    decision = game_pb2.Decision(seat=0, id="d1", choices_json=json.dumps(
        [{"kind": "pick_one"}, {"kind": "pick_cards", "command": "play_band", "arg": "cards",
                                "options": [1], "low": 1, "high": 1}]))
    text = render_legal([action], [decision], complete=False)
    assert "  1. Recruit the top card of the deck" in text
    assert "not every legal command is listed" in text and "play_band" in text
    assert render_legal([]) == "(no legal actions for this seat now)"


def test_small_helpers() -> None:
    assert humanize("RolledStart") == "rolled start" and humanize("map_of_enin") == "map of enin"
    assert format_value(["potion_of_healing", 2]) == "potion of healing, 2"
    assert format_value(None) == "-" and format_value(True) == "yes"
    assert loads_object("") == {} and loads_object("[1]") == {"value": [1]}
    assert loads_object("nope") == {"text": "nope"}
    text = json.dumps({"name": "spend_luck", "args": {"die": 0, "amount": 2}})
    assert describe_command_json(text) == "spend luck (die=0, amount=2)"


def test_event_line_has_position_short_id_version_type_payload() -> None:
    event = game_pb2.Event(
        game_id="0123456789abcdef", version=3, position=42, type="Travelled",
        payload_json='{"to": 2}',
    )
    line = render_event_line(event)
    assert line.split()[:4] == ["42", "01234567", "v3", "Travelled"]
    assert line.endswith('{"to": 2}')


def test_audit_verdict() -> None:
    ok = game_pb2.AuditResponse(chain_ok=True, dice_ok=True, replay_ok=True, events=5, over=True)
    assert render_audit(ok).startswith("Audit PASSED")
    bad = game_pb2.AuditResponse(chain_ok=True, dice_ok=False, replay_ok=True, problems=["x"])
    text = render_audit(bad)
    assert text.startswith("Audit FAILED") and "dice FAILED" in text and "problem: x" in text


def test_a_pick_path_is_described_step_by_step() -> None:
    """``arbiter legal`` words Ettin's deploy as its questions, not a flat list."""
    from aggregates.kernel import Branch, PickPath

    path = PickPath("deploy", ("card", "slot"), (Branch(1, "Militia"), Branch(2, "Scouts")),
                    questions=("Which card?", "Where?"), prompt="Deploy a card face down")
    assert describe_choice(path.to_json()) == (
        "Deploy a card face down (step by step: which card (2 choices), then where)")
