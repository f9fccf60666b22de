"""Choice structures on the client: menus, typed card picks, built commands, bots."""

from __future__ import annotations

import json
import random
from collections import Counter

from arbiter.answers import (
    bot_move,
    build_assign,
    build_number,
    build_pick_cards,
    check_count,
    menu,
    random_answer,
)
from arbiter.decisions import Assign, Number, PickCards, PickOne
from arbiter.v1 import game_pb2
from arbiter.wire import json_to_command

BAND = PickCards(command="play_band", arg="cards", options=(58, 10, 149), low=1, high=10,
                 zone="hand", mark="leader", fixed={"extra": 1})


def action(name: str, label: str = "", **args: object) -> game_pb2.LegalAction:
    command = {"name": name, "args": args}
    typed = json_to_command("ethnos", command)
    return game_pb2.LegalAction(command=typed, json=json.dumps(command), label=label or name)


def legal(actions: list[game_pb2.LegalAction], *choices: object, complete: bool = True,
          ids: tuple[str, ...] = ("d-1",)) -> game_pb2.LegalActionsResponse:
    payload = json.dumps([c.to_json() for c in choices])  # type: ignore[attr-defined]
    return game_pb2.LegalActionsResponse(
        version=4, actions=actions, complete=complete,
        decisions=[game_pb2.Decision(seat=0, id=i, choices_json=payload) for i in ids])


def test_built_commands_are_the_kernels() -> None:
    choice = BAND.to_json()
    assert build_pick_cards(choice, [58, 149], 149) == BAND.build([58, 149], 149) == {
        "name": "play_band", "args": {"extra": 1, "cards": [58, 149], "leader": 149}}
    no_mark = PickCards(command="keep_cards", arg="cards", options=(1,), low=0, high=1)
    assert build_pick_cards(no_mark.to_json(), []) == no_mark.build([])
    assign = Assign(command="deploy", arg="to", items=(1, 2), slots=("a", "b"), fixed={"x": 0})
    assert build_assign(assign.to_json(), ["b", "a"]) == assign.build(["b", "a"])
    number = Number(command="bid", arg="amount", low=0, high=9)
    assert build_number(number.to_json(), 4) == number.build(4)


def test_the_menu_lists_labels_and_asks_a_built_command_through_its_structure() -> None:
    bands = [action("play_band", f"band {i}", cards=[i], leader=i) for i in range(3)]
    offer = legal([action("recruit_from_deck", "Draw the top card"), *bands], PickOne(), BAND,
                  ids=("d-1", "d-2"))
    options = menu(offer)
    assert [o.label for o in options] == [
        "Draw the top card", "Play band (pick 1 to 10 cards of hand, one of them as leader)"]
    assert options[0].action is not None and options[0].decision_id == "d-1"
    assert options[1].choice is not None and options[1].choice["mark"] == "leader"
    # the same structure offered by two decisions of the seat is one entry
    assert len(options) == 2


def test_counts_are_worded_without_one_cards() -> None:
    assert check_count(2, 1, 3) == ""
    assert check_count(0, 1, 1) == "Pick exactly 1 card."
    assert check_count(0, 2, 4) == "Pick at least 2 cards."
    assert check_count(5, 1, 4) == "Pick at most 4 cards."
    assert check_count(2, 1, 1) == "Pick exactly 1 card."


def test_bots_pick_uniformly_from_the_list() -> None:
    rng = random.Random(1)
    offer = legal([action("recruit_face_up", card=c) for c in range(4)], PickOne())
    picks: Counter[int] = Counter()
    for _ in range(800):
        move = bot_move(offer, rng)
        assert move is not None and move.decision_id == "d-1" and not move.guess
        assert isinstance(move.command, game_pb2.Command)
        picks[move.command.ethnos.recruit_face_up.card] += 1
    assert set(picks) == {0, 1, 2, 3} and all(150 < n < 250 for n in picks.values())


def test_bots_answer_a_structure_when_the_list_is_incomplete() -> None:
    rng = random.Random(3)
    offer = legal([action("recruit_from_deck")], PickOne(), BAND, complete=False)
    moves = [bot_move(offer, rng) for _ in range(200)]
    guesses = [m for m in moves if m is not None and m.guess]
    assert 60 < len(guesses) < 140  # one of two candidates
    for move in guesses:
        assert isinstance(move.command, dict)
        args = move.command["args"]
        assert move.command["name"] == "play_band" and 1 <= len(args["cards"]) <= 3
        assert set(args["cards"]) <= {58, 10, 149} and args["leader"] in args["cards"]
        assert args["extra"] == 1
    # a complete list is all a bot needs; simulate never guesses
    assert not any(m and m.guess for m in (bot_move(offer, rng, explore=False)
                                          for _ in range(50)))
    assert bot_move(legal([]), rng) is None


def test_random_answers_fit_their_structure() -> None:
    rng = random.Random(5)
    assign = Assign(command="deploy", arg="to", items=(1, 2, 3), slots=("a", "b")).to_json()
    answer = random_answer(assign, rng)
    assert answer is not None and len(answer["args"]["to"]) == 3
    assert set(answer["args"]["to"]) <= {"a", "b"}
    number = random_answer(Number(command="bid", arg="amount", low=2, high=4).to_json(), rng)
    assert number is not None and 2 <= number["args"]["amount"] <= 4
    impossible = PickCards(command="c", arg="a", options=(1,), low=2, high=3).to_json()
    assert random_answer(impossible, rng) is None
