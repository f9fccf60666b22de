"""`arbiter play ethnos`: selections, band matching, the Ethnos screen, the event
sentences, the person's menus and the bots, without a server."""

from __future__ import annotations

import io
import json
import random
from collections import Counter
from typing import Any

import pytest
from arbiter.v1 import game_pb2

from clients.cli import build_parser, main
from clients.play_ethnos import (
    EthnosPlayer,
    Narrator,
    SelectionError,
    band_index,
    band_problem,
    choice_label,
    ethnos_seat_names,
    leader_hint,
    match_band,
    parse_selection,
    strip_command_names,
)
from clients.render import (
    ethnos_card,
    ethnos_hand_order,
    render_ethnos_outcome,
    render_ethnos_view,
    render_state,
    render_view,
)
from clients.wire import json_to_command


def card(card_id: int, tribe: str, colour: str | None) -> dict[str, Any]:
    return {"id": card_id, "tribe": tribe, "colour": colour}


KINGDOMS = [
    ("ithys", "Ithys", "orange", [6, 6], [0, 1, 0]),
    ("straton", "Straton", "blue", [2, 8], [0, 0, 0]),
    ("rhea", "Rhea", "red", [2, 8], [2, 0, 1]),
    ("duris", "Duris", "purple", [0, 10], [0, 0, 0]),
    ("althea", "Althea", "green", [4, 8], [0, 0, 3]),
    ("pelagon", "Pelagon", "gray", [4, 6], [0, 0, 0]),
]

HAND = [
    card(141, "wingfolk", "green"),
    card(100, "skeletons", None),
    card(12, "centaurs", "red"),
    card(13, "centaurs", "blue"),
    card(60, "elves", "red"),
]

SAMPLE_VIEW: dict[str, Any] = {
    "stage": "turn",
    "age": 1,
    "ages": 2,
    "current": 0,
    "first_player": 2,
    "tribes": ["centaurs", "elves", "merfolk", "skeletons", "wingfolk", "trolls", "giants",
               "orcs"],
    "kingdoms": [
        {"key": k, "name": n, "colour": c, "glory_tokens": t, "markers": m}
        for k, n, c, t, m in KINGDOMS
    ],
    "glory": [3, 7, 12],
    "row": [card(145, "wizards", "orange"), card(39, "giants", "blue"),
            card(106, "orcs", "gray")],
    "deck_size": 54,
    "dragons": [card(156, "dragon", None)],
    "hand_counts": [5, 2, 4],
    "bands": [
        [],
        [{"cards": [card(40, "giants", "red"), card(101, "skeletons", None)],
          "leader": 40, "size": 2}],
        [],
    ],
    "band_in_play": None,
    "steps": [],
    "third_dragon_seat": None,
    "outcome": None,
    "seat": 0,
    "hand": HAND,
    "merfolk_track": [0, 3, 7],
    "troll_tokens": [[], [4], []],
    "troll_tokens_free": [1, 2, 3, 5, 6],
    "giant_token": 1,
    "orc_horde_boards": [["red"], [], ["gray", "blue"]],
    "orc_horde_pending": [],
    "mystery": "kept",
}

SEATS = ["Ada", "Bot 1", "Bot 2"]


def legal(name: str, **args: Any) -> game_pb2.LegalAction:
    """A LegalAction as the server sends it: the typed command, its JSON, a label."""
    command = {"name": name, "args": args}
    return game_pb2.LegalAction(command=json_to_command("ethnos", command),
                                json=json.dumps(command), label=f"{name}(...)")


# --- selections and bands ------------------------------------------------------


def test_parse_selection_reads_numbers_commas_and_ranges() -> None:
    assert parse_selection("3 5 7", 8) == [2, 4, 6]
    assert parse_selection("3,5, 7", 8) == [2, 4, 6]
    assert parse_selection(" 2-4 1 ", 8) == [1, 2, 3, 0]
    assert parse_selection("1", 1) == [0]


@pytest.mark.parametrize(("text", "count", "why"), [
    ("", 5, "name at least one card"),
    ("x", 5, "'x' is not a card number"),
    ("0", 5, "there is no card 0"),
    ("9", 5, "there is no card 9 (your hand has cards 1-5)"),
    ("2 3 2", 5, "card 2 is named twice"),
    ("1-2 2", 5, "card 2 is named twice"),
    ("4-2", 5, "runs backwards"),
    ("-1", 5, "not a card number"),
    ("1", 0, "your hand has no cards"),
])
def test_parse_selection_says_what_is_wrong(text: str, count: int, why: str) -> None:
    with pytest.raises(SelectionError) as error:
        parse_selection(text, count)
    assert why in str(error.value)


BANDS = [
    legal("play_band", cards=[12], leader=12),
    legal("play_band", cards=[12, 13], leader=12),
    legal("play_band", cards=[12, 13], leader=13),
    legal("play_band", cards=[12, 60], leader=12),
    legal("play_band", cards=[12, 60], leader=60),
    legal("play_band", cards=[12, 13, 100], leader=13),
    legal("play_band", cards=[12, 13, 100], leader=12),
    legal("recruit_from_deck"),
]


def test_band_index_and_match_in_any_order() -> None:
    index = band_index(BANDS)
    assert set(index) == {(12,), (12, 13), (12, 60), (12, 13, 100)}
    leaders = match_band([100, 13, 12], index)
    assert sorted(leaders) == [12, 13]
    assert json.loads(leaders[13].json)["args"] == {"cards": [12, 13, 100], "leader": 13}
    assert match_band([13, 60], index) == {}
    assert match_band([], index) == {}


def test_band_problem_gives_the_rulebook_reason() -> None:
    by_id = {c["id"]: c for c in HAND}
    mixed = band_problem([by_id[13], by_id[60]])
    assert "neither a tribe (Centaurs, Elves) nor a colour (blue, red)" in mixed
    assert "Skeletons cannot lead" in band_problem([by_id[100]])
    assert "at most 10 cards" in band_problem([by_id[12]] * 11)
    # a well-formed band the server does not list (e.g. not now): the generic reason
    assert "does not offer" in band_problem([by_id[12], by_id[13], by_id[100]])


def test_leader_hint_names_the_marker_and_the_ability() -> None:
    by_id = {c["id"]: c for c in HAND}
    assert leader_hint(SAMPLE_VIEW, 0, by_id[13], 1) == (
        "Control marker in Straton; if it places a marker, you may play another band at once"
    )
    assert leader_hint(SAMPLE_VIEW, 0, by_id[12], 3).startswith("Control marker in Rhea;")
    # seat 0 has 2 markers in Rhea: a band of 2 is not enough, a Minotaur band of 2 is
    assert leader_hint(SAMPLE_VIEW, 0, by_id[60], 2).startswith(
        "no marker: 2 already in Rhea, the band counts 2"
    )
    assert leader_hint(SAMPLE_VIEW, 0, card(1, "minotaurs", "red"), 2).startswith(
        "Control marker in Rhea"
    )
    assert "a Kingdom you choose" in leader_hint(SAMPLE_VIEW, 0, by_id[141], 1)
    assert leader_hint(SAMPLE_VIEW, 0, card(2, "halflings", "red"), 3) == (
        "no Control marker (Halflings)"
    )


def test_hand_order_groups_tribes_and_puts_skeletons_last() -> None:
    ordered = [c["id"] for c in ethnos_hand_order(HAND)]
    assert ordered == [13, 12, 60, 141, 100]
    assert ethnos_card(HAND[1]) == "Skeletons (wild)"
    assert ethnos_card(HAND[0]) == "Wingfolk (green)"
    assert ethnos_card(card(156, "dragon", None)) == "Dragon"


# --- the screen -----------------------------------------------------------------


def test_ethnos_view_shows_the_whole_table() -> None:
    lines = render_ethnos_view(SAMPLE_VIEW, SEATS)
    text = "\n".join(lines)
    assert lines[0] == "Age 1 of 2 - You to play (turn)"
    assert "Glory: You 3, Bot 1 7, Bot 2 12" in text
    kingdom_header = next(line for line in lines if line.strip().startswith("Kingdom "))
    assert kingdom_header.split() == ["Kingdom", "Colour", "Glory", "You", "Bot", "1", "Bot", "2"]
    assert any(line.split() == ["Rhea", "red", "2", "8", "2", "0", "1"] for line in lines)
    assert "Face-up row (3 cards):" in text
    assert "1. Wizards (orange)" in text and "3. Orcs (gray)" in text
    assert "Your hand (5 cards):" in text
    assert "1. Centaurs (blue)" in text and "5. Skeletons (wild)" in text
    assert "Bot 1: 2 led by Giants (red) + Skeletons (wild)" in text
    assert "Dragons revealed: 1 of 3   Allies Deck: 54 cards" in text
    assert "Cards in hand: Bot 1 2, Bot 2 4" in text
    assert "Merfolk track: You 0, Bot 1 3, Bot 2 7" in text
    assert "Troll tokens: You -, Bot 1 [4], Bot 2 -; unclaimed: 1 2 3 5 6" in text
    assert "Giant token: Bot 1" in text
    assert "Orc Horde boards: You [red], Bot 1 -, Bot 2 [gray blue]" in text
    assert "mystery: kept" in text  # an unknown key is still shown


def test_ethnos_view_of_a_spectator_and_at_the_end() -> None:
    public = {k: v for k, v in SAMPLE_VIEW.items() if k not in ("seat", "hand")}
    text = "\n".join(render_view("ethnos", public, SEATS))
    assert "Ada" in text and "Your hand" not in text and "Cards in hand: Ada 5" in text
    over = {**SAMPLE_VIEW, "stage": "over"}
    text = "\n".join(render_ethnos_view(over, SEATS))
    assert "the game is over" in text and "Face-up row" not in text


def test_render_state_of_ethnos_uses_the_seat_names() -> None:
    state = game_pb2.GameState(game_id="g", rules="ethnos", version=3, seats=SEATS,
                               view_json=json.dumps({**SAMPLE_VIEW, "seat": 2}))
    text = render_state(state)
    assert "Glory: Ada 3, Bot 1 7, You 12" in text


def test_ethnos_outcome() -> None:
    outcome = {"result": "finished", "winners": [2], "glory": [30, 41, 46],
               "markers": [8, 9, 12], "last_age_bands": [[2], [1], [3]]}
    lines = render_ethnos_outcome(outcome, ["You", "Bot 1", "Bot 2"])
    assert lines == [
        "Game over.",
        "Final Glory: You 30, Bot 1 41, Bot 2 46",
        "Control markers on the board: You 8, Bot 1 9, Bot 2 12",
        "Winner: Bot 2 with 46 Glory",
    ]
    tied = render_ethnos_outcome({**outcome, "winners": [0, 1], "glory": [40, 40, 1]},
                                 ["You", "Bot 1", "Bot 2"])
    assert tied[-1] == "Winners (tied): You, Bot 1 with 40 Glory"


# --- events ---------------------------------------------------------------------


def narrator() -> Narrator:
    words = Narrator(SEATS, me=0)
    words.learn(SAMPLE_VIEW)
    return words


def test_events_in_words_hide_other_players_draws() -> None:
    words = narrator()
    assert words.describe("DrewFromDeck", {"seat": 1}) == (
        "Bot 1 draws a card from the Allies Deck."
    )
    assert words.describe("DrewFromDeck", {"seat": 0, "card": 141}) == (
        "You draw Wingfolk (green) from the Allies Deck."
    )
    assert words.describe("CardDealt", {"seat": 2}) == "Bot 2 is dealt a card."
    assert words.describe("RecruitedFaceUp", {"seat": 2, "card": 145}) == (
        "Bot 2 recruits Wizards (orange) from the face-up row."
    )
    assert words.describe("BandPlayed", {"seat": 1, "cards": [40, 101], "leader": 40,
                                         "size": 2, "steps": []}) == (
        "Bot 1 plays a band of 2 led by Giants (red) with Skeletons (wild)."
    )
    assert words.describe("MarkerPlaced", {"seat": 0, "kingdom": "rhea",
                                           "source": "wingfolk"}) == (
        "You place a Control marker in Rhea (Wingfolk)."
    )
    assert words.describe("KingdomScored", {"kingdom": "althea", "awards": [0, 2, 6]}) == (
        "Althea gives Glory: Bot 1 +2, Bot 2 +6."
    )
    assert words.describe("TurnEnded", {"seat": 2, "next_seat": 0}) == "Your turn."
    assert words.describe("DragonRevealed", {"seat": 1, "card": 156}) == (
        "Bot 1 reveals a Dragon!"
    )
    assert words.describe("AgeBegan", {"age": 2, "first_player": 1, "deck_size": 60}) == (
        "Age 2 begins: Bot 1 goes first; the Allies Deck has 60 cards."
    )
    assert words.describe("Created", {"seats": SEATS}) is None
    # an unknown card, a malformed payload and an unknown event still read
    assert words.describe("DrewFromDeck", {"seat": 0, "card": 999}) == (
        "You draw card 999 from the Allies Deck."
    )
    assert words.describe("BandPlayed", {"seat": 1}).startswith("Band played")
    assert words.describe("DragonSlept", {"turns": 2}) == "Dragon slept: turns=2"


def test_seat_names_and_prompts() -> None:
    assert ethnos_seat_names(4, 2, "Ada") == ["Bot 1", "Bot 2", "Ada", "Bot 3"]
    assert strip_command_names("Trolls: take a token (take_troll_token)") == (
        "Trolls: take a token"
    )
    label = choice_label(legal("choose_kingdom", kingdom="rhea"), SAMPLE_VIEW, 0, SEATS)
    assert label == "Rhea (red), Glory 2 8: You 2, Bot 2 1"
    assert choice_label(legal("take_troll_token", value=3), SAMPLE_VIEW, 0) == (
        "Take the Troll token of value 3"
    )
    view = {**SAMPLE_VIEW, "bands": [[{"cards": [], "leader": 1, "size": 3}], [], []]}
    assert choice_label(legal("wizards_draw", draw=True), view, 0) == (
        "Draw 3 cards from the Allies Deck"
    )
    assert choice_label(legal("score_orc_horde", score=True), SAMPLE_VIEW, 0) == (
        "Score and clear your Orc Horde board now (1 colour: red)"
    )


# --- the person's menus -----------------------------------------------------------


def player(answers: str, seat: int = 0) -> tuple[EthnosPlayer, io.StringIO]:
    out = io.StringIO()
    return EthnosPlayer(None, "g", seat, io.StringIO(answers), out), out  # type: ignore[arg-type]


def turn_state(view: dict[str, Any] | None = None) -> game_pb2.GameState:
    return game_pb2.GameState(
        game_id="g", rules="ethnos", version=5, seats=SEATS,
        view_json=json.dumps(view or SAMPLE_VIEW),
        pending=[game_pb2.Decision(seat=0, kind="turn", prompt="Recruit or play (play_band)")],
    )


TURN_ACTIONS = [
    legal("recruit_face_up", card=145), legal("recruit_face_up", card=39),
    legal("recruit_face_up", card=106), legal("recruit_from_deck"), *BANDS[:-1],
]


def test_option_one_of_the_turn_is_the_deck() -> None:
    person, _ = player("1\n")
    picked = person.decide(turn_state(), TURN_ACTIONS)
    assert picked is not None and json.loads(picked.json)["name"] == "recruit_from_deck"


def test_recruit_a_face_up_card_by_row_number() -> None:
    person, out = player("2\n7\n2\n")
    picked = person.decide(turn_state(), TURN_ACTIONS)
    assert picked is not None and json.loads(picked.json)["args"] == {"card": 39}
    assert "Please answer with a row number from 1 to 3." in out.getvalue()


def test_play_a_band_explains_refusals_then_asks_the_leader() -> None:
    # menu 3 (band); "3 4" is Elves + Wingfolk: refused with the reason; "1 2 5" is
    # the two Centaurs and the Skeleton; leader menu: 2 = Centaurs (red)
    person, out = player("3\n3 4\n1 2 5\n2\n")
    picked = person.decide(turn_state(), TURN_ACTIONS)
    assert picked is not None
    assert json.loads(picked.json)["args"] == {"cards": [12, 13, 100], "leader": 12}
    text = out.getvalue()
    assert "Not a legal band: the cards share neither a tribe" in text
    assert "Which card leads this band of 3?" in text
    assert "1. Centaurs (blue): Control marker in Straton" in text


def test_a_band_with_one_possible_leader_needs_no_leader_menu() -> None:
    person, out = player("3\n1\n")
    picked = person.decide(turn_state(), [*TURN_ACTIONS, legal("play_band", cards=[13],
                                                               leader=13)])
    assert picked is not None and json.loads(picked.json)["args"] == {"cards": [13],
                                                                      "leader": 13}
    assert "the only card that can lead" in out.getvalue()


def test_back_goes_to_the_turn_menu_and_q_quits() -> None:
    person, _ = player("3\nb\n1\n")
    picked = person.decide(turn_state(), TURN_ACTIONS)
    assert picked is not None and json.loads(picked.json)["name"] == "recruit_from_deck"
    person, _ = player("3\nq\n")
    assert person.decide(turn_state(), TURN_ACTIONS) is None
    person, _ = player("")  # end of input
    assert person.decide(turn_state(), TURN_ACTIONS) is None


def test_with_a_full_hand_option_one_then_card_one_is_always_a_band() -> None:
    # no recruit is legal: the band is option 1, and hand card 1 (never a
    # Skeleton) alone is a legal band, so answering "1" always makes progress
    person, out = player("1\n1\n")
    picked = person.decide(turn_state(), [*BANDS[:-1], legal("play_band", cards=[13],
                                                             leader=13)])
    assert picked is not None
    assert json.loads(picked.json)["args"] == {"cards": [13], "leader": 13}
    assert "  1. Play a band" in out.getvalue()


def test_elves_keep_up_to_x_cards() -> None:
    view = {**SAMPLE_VIEW, "stage": "elves", "hand": HAND[:3]}  # Centaurs red, Skeleton, Wingfolk
    actions = [legal("keep_cards", cards=[]), legal("keep_cards", cards=[12]),
               legal("keep_cards", cards=[100]), legal("keep_cards", cards=[141])]
    person, out = player("1 2\n1\n")
    picked = person.decide(turn_state(view), actions)
    assert picked is not None and json.loads(picked.json)["args"] == {"cards": [12]}
    assert "Elves keep at most 1 cards (X, the band's size), not 2." in out.getvalue()
    person, _ = player("none\n")
    picked = person.decide(turn_state(view), actions)
    assert picked is not None and json.loads(picked.json)["args"] == {"cards": []}


def test_follow_up_menus_are_numbered() -> None:
    state = turn_state()
    state.pending[0].prompt = "Wingfolk: place the marker (choose_kingdom)"
    person, out = player("2\n")
    actions = [legal("choose_kingdom", kingdom="ithys"), legal("choose_kingdom", kingdom="rhea")]
    picked = person.decide(state, actions)
    assert picked is actions[1]
    assert "Wingfolk: place the marker:" in out.getvalue()
    assert "2. Rhea (red), Glory 2 8: You 2, Bot 2 1" in out.getvalue()


# --- bots -----------------------------------------------------------------------


class FakeClient:
    """Just enough of ArbiterClient for the bots: a fixed list of legal actions."""

    def __init__(self, actions: list[game_pb2.LegalAction]) -> None:
        self.actions = actions
        self.acted: list[tuple[int, str]] = []

    def legal(self, game_id: str, seat: int = 0) -> game_pb2.LegalActionsResponse:
        return game_pb2.LegalActionsResponse(version=7, actions=self.actions)

    def act(self, game_id: str, seat: int, command: game_pb2.Command,
            expected_version: int = 0) -> game_pb2.ActResponse:
        assert expected_version == 7
        self.acted.append((seat, str(command.ethnos.WhichOneof("command"))))
        return game_pb2.ActResponse(version=8)


def test_bots_pick_a_command_name_uniformly_then_an_option() -> None:
    many = [legal("play_band", cards=[i], leader=i) for i in range(200)]
    fake = FakeClient([legal("recruit_from_deck"), *many])
    bot = EthnosPlayer(fake, "g", 0, io.StringIO(), io.StringIO(),  # type: ignore[arg-type]
                       bots=[1], rng=random.Random(1))
    for _ in range(400):
        assert bot.bot_move(1)
    assert {seat for seat, _ in fake.acted} == {1}
    picks = Counter(name for _, name in fake.acted)
    assert set(picks) == {"recruit_from_deck", "play_band"}
    assert 150 < picks["recruit_from_deck"] < 250  # about half, not 1 in 201


# --- the command line -------------------------------------------------------------


def test_play_ethnos_flags() -> None:
    args = build_parser().parse_args(
        ["play", "ethnos", "--players", "4", "--seat", "2", "--bot-seed", "3", "--name", "Ada"]
    )
    assert (args.rules, args.players, args.seat, args.bot_seed, args.name) == (
        "ethnos", 4, 2, 3, "Ada")
    enin = build_parser().parse_args(["play", "enin"])
    assert enin.name is None and enin.players == 0


@pytest.mark.parametrize(("argv", "why"), [
    (["play", "ethnos", "--players", "7"], "2 to 6 players"),
    (["play", "ethnos", "--players", "3", "--seat", "3"], "--seat must be a seat"),
    (["play", "enin", "--players", "2"], "for ethnos"),
])
def test_play_usage_errors(argv: list[str], why: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*argv, "--address", "localhost:1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: BAD_ARGUMENT: ") and why in err
