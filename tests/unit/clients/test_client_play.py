"""The one play loop, driven by scripted input.

Against the real servicer in this process (``real_server``, on the store as
the server configures it) it plays whole games of every game the server has;
against a scripted service it meets each choice structure (pick cards with a
mark, assign, number), refusals and a single possible move, and the commands
it sends are checked field by field.
"""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import grpc
import pytest
from arbiter.client import ArbiterClient
from arbiter.decisions import Assign, Branch, Number, PickCards, PickOne, PickPath
from arbiter.play import PlayStream
from arbiter.v1 import game_pb2, game_pb2_grpc
from arbiter.wire import command_to_json, json_to_command

from aggregates.catalog import SERVED
from aggregates.kernel.present import Card, Cards, Track, screen, section
from clients.play import Player, seat_names
from tests.unit.clients.conftest import RealServer
from tests.unit.clients.support import serving

BAD_WORDING = ("Choose 1-1", "from 1 to 1", " 1 cards", "1 to 1)")


class FirstChoices(io.StringIO):
    """A player who answers "1" to every question, and, told how many cards to
    pick ("Pick exactly 3 cards."), the first that many: a script that can finish
    any game, whatever its choice structures ask."""

    def __init__(self, out: io.StringIO, lines: int = 4000) -> None:
        super().__init__()
        self.out, self.left = out, lines

    def tail(self) -> str:
        """The last 300 characters written (not the whole game's output, which
        grows with every move: copying it for every answer made long games slow)."""
        end = self.out.tell()
        self.out.seek(max(0, end - 300))
        text = self.out.read(end - max(0, end - 300))
        self.out.seek(end)
        return text

    def readline(self, size: int | None = -1) -> str:
        if self.left <= 0:
            return ""
        self.left -= 1
        tail = self.tail()
        told = re.findall(r"Pick (?:exactly|at least) (\d+) cards?\.", tail)
        if told and tail.rstrip().endswith("quit:"):
            return " ".join(str(n) for n in range(1, int(told[-1]) + 1)) + "\n"
        return "1\n"


def play(address: str, rules: str, players: int, script: str | None, seat: int = 0,
         seed: int = 1) -> tuple[int, str, ArbiterClient, str]:
    """Play seat ``seat`` with ``script`` (None: ``FirstChoices``), bots at the others."""
    client = ArbiterClient(address)
    created = client.create_game(rules, seat_names(players, seat, "Ada"))
    out = io.StringIO()
    bots = [s for s in range(players) if s != seat]
    answers = FirstChoices(out) if script is None else io.StringIO(script)
    status = Player(client, created.game_id, seat, answers, out, bots=bots,
                    rng=random.Random(seed)).run()
    return status, out.getvalue(), client, created.game_id


def rules_ids(address: str) -> list[tuple[str, int]]:
    with ArbiterClient(address) as client:
        return [(r.id, max(1, r.min_seats)) for r in client.list_rules()]


@pytest.mark.heavy(5)
@pytest.mark.parametrize("rules", sorted(cls.RULES_ID for cls in SERVED))
def test_every_game_plays_to_the_end_through_the_one_loop(
        real_server: RealServer, rules: str) -> None:
    games = dict(rules_ids(real_server.address))
    assert set(games) == {cls.RULES_ID for cls in SERVED}, "a served game is not tested"
    for players in (games[rules],):
        status, out, client, game_id = play(real_server.address, rules, players, None)
        assert status == 0, out[-2000:]
        state = client.state(game_id, 0)
        assert state.over, f"{rules}: {out[-2000:]}"
        assert "Game over" in out and "Seed (revealed):" in out and "Audit PASSED" in out
        assert "Refused" not in out
        for bad in BAD_WORDING:
            assert bad not in out, f"{rules}: {bad!r}"
        # every section of the last screen drawn, every event of the seat told in its words
        titles = [s["title"] for s in json.loads(state.screen_json)["sections"]]
        assert all(f"== {t} ==" in out for t in titles)
        client.close()


def test_enin_events_are_told_and_decisions_named(real_server: RealServer) -> None:
    status, out, client, game_id = play(real_server.address, "enin", 1, "1\n" * 3)
    assert status == 0 and "resume with: arbiter play enin --game " + game_id in out
    lines = out.splitlines()
    events = [e for e in client.history(game_id, 0) if e.version > 1]
    shown = int(re.findall(r"version (\d+) ---", out)[-1])
    assert all(f"  * {e.text}" in lines for e in events if e.version <= shown)
    assert "Your decision: " in out
    # one possible move is announced and taken on Enter (or 1)
    assert "Your only choice: " in out and "Press Enter to take it (q to quit): " in out
    client.close()


class Recording(ArbiterClient):
    """Records every move sent on its Play streams: seat, decision id, expected version."""

    def __init__(self, address: str) -> None:
        super().__init__(address)
        self.sent: list[tuple[int | None, str, int]] = []

    def play(self, *args: Any, **kwargs: Any) -> PlayStream:
        stream = super().play(*args, **kwargs)
        send = stream.move

        def recorded(command: Any, *, seat: int | None = None, decision_id: str = "",
                     expected_version: int = 0, command_id: str = "") -> str:
            self.sent.append((seat, decision_id, expected_version))
            return send(command, seat=seat, decision_id=decision_id,
                        expected_version=expected_version, command_id=command_id)

        stream.move = recorded  # type: ignore[method-assign]
        return stream


def test_every_answer_names_its_decision(real_server: RealServer) -> None:
    client = Recording(real_server.address)
    created = client.create_game("ethnos", seat_names(3, 1, "Ada"))
    out = io.StringIO()
    Player(client, created.game_id, 1, io.StringIO("1\n" * 5), out, bots=[0, 2],
           rng=random.Random(2)).run()
    assert client.sent and all(decision for _, decision, _ in client.sent)
    assert all(version == 0 for _, _, version in client.sent)  # judged per decision
    assert {seat for seat, _, _ in client.sent} >= {0, 1}
    client.close()


def test_eof_and_quit_leave_with_a_resume_line(real_server: RealServer) -> None:
    """The line resumes the same game on the same server: the address the person
    gave is kept (this server is not the default one)."""
    for script in ("", "q\n"):
        status, out, client, game_id = play(real_server.address, "ethnos", 2, script, seat=1)
        assert status == 0
        assert out.rstrip().endswith(f"resume with: arbiter play ethnos --game {game_id} "
                                     f"--player 2 --address {real_server.address}")
        client.close()


# --- a scripted service: each choice structure, refusals, one move ------------------


HAND = Cards("Your hand", (Card(58, "Halfling"), Card(10, "Centaur"), Card(149, "Wizard")),
             zone="hand", numbered=True)
SCREEN = screen(section("You", Track("Glory", 3), HAND), section("Deck", Cards("Deck", count=9)))


def recruit(card: int, label: str) -> game_pb2.LegalAction:
    command = {"name": "recruit_face_up", "args": {"card": card}}
    return game_pb2.LegalAction(command=json_to_command("ethnos", command),
                                json=json.dumps(command), label=label)


@dataclass
class Scripted(game_pb2_grpc.GameServiceServicer):
    """One seat asked one decision until an answer is accepted; then the game is over."""

    choices: list[Any]
    actions: list[game_pb2.LegalAction] = field(default_factory=list)
    complete: bool = False
    refusals: list[str] = field(default_factory=list)
    acts: list[game_pb2.ActRequest] = field(default_factory=list)
    over: bool = False
    screen: dict[str, Any] = field(default_factory=SCREEN.to_json)
    rules: str = "ethnos"

    def state(self) -> game_pb2.GameState:
        pending = [] if self.over else [game_pb2.Decision(
            seat=0, kind="turn", id="d-7", prompt="Recruit an Ally or play a band",
            choices_json=json.dumps([c.to_json() for c in self.choices]))]
        return game_pb2.GameState(
            game_id="g", rules=self.rules, version=5 + self.over, over=self.over,
            seats=["Ada", "Bo"],
            pending=pending, screen_json=json.dumps(self.screen), seed_commitment="c0",
            outcome_json=json.dumps({"winners": [0], "winning_team": None, "ranking": [[0], [1]],
                                     "scores": [9, 4], "breakdown": {},
                                     "summary": "Player 1 wins with 9 Glory."})
            if self.over else "",
        )

    def GetState(self, request: Any, context: Any) -> game_pb2.GameState:
        return self.state()

    def LegalActions(self, request: Any, context: Any) -> game_pb2.LegalActionsResponse:
        state = self.state()
        return game_pb2.LegalActionsResponse(version=state.version, actions=self.actions,
                                             decisions=state.pending, complete=self.complete)

    def Act(self, request: Any, context: Any) -> game_pb2.ActResponse:
        self.acts.append(request)
        if self.refusals:
            sentence = self.refusals.pop(0)
            context.set_trailing_metadata((("arbiter-reason", "ILLEGAL_MOVE"),
                                           ("arbiter-version", "5")))
            context.abort(grpc.StatusCode.FAILED_PRECONDITION, f"ILLEGAL_MOVE: {sentence}")
        self.over = True
        return game_pb2.ActResponse(version=6, state=self.state())

    def Play(self, requests: Iterator[game_pb2.PlayRequest],
             context: Any) -> Iterator[game_pb2.PlayMessage]:
        """The one seat's turn until a move is accepted: a refusal, then the
        turn again; then the move's event, the final state and the end."""
        join = next(requests).join
        seat = join.seats[0] if join.seats else 0
        yield self.turn(seat)
        for request in requests:
            move = request.move
            self.acts.append(game_pb2.ActRequest(
                game_id="g", seat=move.seat, command=move.command,
                decision_id=move.decision_id, expected_version=move.expected_version))
            if self.refusals:
                asked = self.turn(seat)
                asked.results.add(
                    command_id=move.command_id, version=5, reason="ILLEGAL_MOVE",
                    code="FAILED_PRECONDITION", message=self.refusals.pop(0))
                yield asked
                continue
            self.over = True
            done = self.turn(seat)
            done.results.add(command_id=move.command_id, accepted=True, version=6)
            done.events.add(for_seats=[seat], event=game_pb2.Event(
                game_id="g", version=6, type="BandPlayed",
                text="Ada plays a band of 2 led by the Wizard."))
            done.status, done.state = "ended: the game is over", game_pb2.FEED_STATE_ENDED
            yield done
            return

    def turn(self, seat: int) -> game_pb2.PlayMessage:
        """A round with the seat's turn (its final state once the game is over)."""
        return game_pb2.PlayMessage(turns=[game_pb2.PlayTurn(
            seat=seat, state=self.state(), actions=[] if self.over else self.actions,
            complete=self.complete)])

    def Audit(self, request: Any, context: Any) -> game_pb2.AuditResponse:
        return game_pb2.AuditResponse(chain_ok=True, dice_ok=True, replay_ok=True, over=True)


@pytest.fixture
def scripted() -> Iterator[tuple[Scripted, str]]:
    service = Scripted(choices=[])
    with serving(service) as address:
        yield service, address


def run(address: str, script: str) -> str:
    out = io.StringIO()
    with ArbiterClient(address) as client:
        assert Player(client, "g", 0, io.StringIO(script), out).run() == 0
    return out.getvalue()


def sent(service: Scripted) -> list[tuple[str, dict[str, Any], str]]:
    return [(*command_to_json(a.command)[1].values(), a.decision_id)  # type: ignore[misc]
            for a in service.acts]


BAND = PickCards(command="play_band", arg="cards", options=(58, 10, 149), low=1, high=10,
                 zone="hand", mark="leader")


def test_pick_cards_with_a_leader_and_a_refusal_shown_as_is(
    scripted: tuple[Scripted, str],
) -> None:
    service, address = scripted
    service.choices = [PickOne(), BAND]
    service.actions = [recruit(12, "Recruit the Elf from the row")]
    sentence = "a band is of one tribe or of one kingdom; the Halfling and the Wizard share neither"
    service.refusals = [sentence]
    # 2: the band; cards 1 and 3; the leader is the second of them; refused;
    # then again with the leader marked inline
    out = run(address, "2\n1 3\n2\n2\n1 3*\n")
    lines = out.splitlines()
    assert "Your decision: Recruit an Ally or play a band" in lines
    assert "  1. Recruit the Elf from the row" in lines
    assert "  2. Play band (pick 1 to 10 cards of hand, one of them as leader)" in lines
    assert "    2. Centaur" in lines  # the screen's numbered hand is what the numbers mean
    # ... and the hand again right above the question (the screen has scrolled away)
    at = next(i for i, line in enumerate(lines) if line.startswith("Which cards?"))
    assert lines[at - 4:at] == ["Your hand:", "  1. Halfling", "  2. Centaur", "  3. Wizard"]
    assert "Which card is the leader?" in lines
    assert f"Refused: {sentence}" in lines
    assert sent(service) == [
        ("play_band", {"cards": [58, 149], "leader": 149}, "d-7"),
        ("play_band", {"cards": [58, 149], "leader": 149}, "d-7"),
    ]
    assert "  * Ada plays a band of 2 led by the Wizard." in lines
    assert "Winner: Ada (Player 1)" in lines and "Audit PASSED" in out


def test_pick_cards_reads_ids_ranges_and_says_what_is_wrong(
    scripted: tuple[Scripted, str],
) -> None:
    service, address = scripted
    service.choices = [dataclass_replace(BAND, high=2, mark="")]
    out = run(address, "\n9\n1 1\n1-3\nb\n\n#10 x\n#10,1\n")
    lines = out.splitlines()
    assert "Your only choice: Play band (pick 1 to 2 cards of hand)" in lines
    assert "there is no card number 9 (the numbers go from 1 to 3)." in lines
    assert "card 58 is picked twice." in lines
    assert "Pick at most 2 cards." in lines
    assert "'x' is neither a card number nor a card's id." in lines
    assert sent(service) == [("play_band", {"cards": [10, 58], "leader": 0}, "d-7")]
    for bad in BAD_WORDING:
        assert bad not in out


def dataclass_replace(choice: PickCards, **changes: Any) -> PickCards:
    import dataclasses

    return dataclasses.replace(choice, **changes)


def test_a_zone_not_on_the_screen_is_listed_from_the_options(
    scripted: tuple[Scripted, str],
) -> None:
    service, address = scripted
    service.choices = [PickCards(command="keep_cards", arg="cards", options=(10, 149), low=0,
                                 high=1, zone="elsewhere")]
    out = run(address, "\n2\n")
    lines = out.splitlines()
    assert "Cards:" in lines and "  1. Centaur" in lines and "  2. Wizard" in lines
    assert "Which card? Type its number, none for no card; b to go back, q to quit: " in out
    assert sent(service) == [("keep_cards", {"cards": [149]}, "d-7")]


def test_pick_none_when_zero_cards_are_allowed(scripted: tuple[Scripted, str]) -> None:
    service, address = scripted
    service.choices = [PickCards(command="keep_cards", arg="cards", options=(58, 10), low=0,
                                 high=2, zone="hand")]
    run(address, "\nnone\n")
    assert sent(service) == [("keep_cards", {"cards": []}, "d-7")]


def test_assign_one_slot_per_item(scripted: tuple[Scripted, str]) -> None:
    service, address = scripted
    service.choices = [Assign(command="keep_cards", arg="cards", items=(58, 10),
                              slots=(4, 5, 6))]
    out = run(address, "\n7\n1\n3\n")
    lines = out.splitlines()
    assert "Slots:" in lines and "  3. 6" in lines
    assert any(line.startswith("Halfling: which slot (1 to 3") for line in lines)
    assert "Please answer with a number from 1 to 3." in lines
    assert sent(service) == [("keep_cards", {"cards": [4, 6]}, "d-7")]


DEPLOY = PickPath(
    "deploy", ("card", "slot", "scout"),
    (Branch(213, "Sellswords", (Branch(0, "the near Location"), Branch(3, "the Adventure"))),
     Branch(223, "Cutthroats", (Branch(1, "the middle Location", (
         Branch(0, "do not use Scouting"), Branch(3, "scout the Enemy's far Location"))),))),
    questions=("Which card?", "Where?", "Scouting?"), fixed={"scout": 0})


def test_a_card_then_a_place_asked_one_question_after_another(
    scripted: tuple[Scripted, str],
) -> None:
    """Ettin's Deploy as a ``pick_path``: the listed commands it groups leave the
    menu, each step offers what the answer before allows, b goes back a step."""
    service, address = scripted
    service.rules = "ettin"
    service.choices = [PickOne(), DEPLOY]
    service.actions = [game_pb2.LegalAction(
        command=json_to_command("ettin", {"name": "deploy", "args": {"card": 213, "slot": 0}}),
        json='{"name": "deploy", "args": {"card": 213, "slot": 0}}', label="Deploy flat")]
    # the one menu entry (Enter); card 1, then b back to the cards; card 2, place 1, scout 2
    out = run(address, "\n1\nb\n2\n\n2\n")
    lines = out.splitlines()
    assert "Deploy flat" not in out
    assert lines.count("Which card?") == 2 and "  2. Cutthroats" in lines
    assert "Where? the middle Location" in lines  # one place only: announced, Enter takes it
    assert "Scouting?" in lines and "  2. scout the Enemy's far Location" in lines
    assert sent(service) == [("deploy", {"card": 223, "slot": 1, "scout": 3}, "d-7")]


def test_a_number_in_range(scripted: tuple[Scripted, str]) -> None:
    service, address = scripted
    service.choices = [PickOne(), Number(command="take_troll_token", arg="value", low=2, high=5)]
    service.actions = [recruit(12, "Recruit the Elf")]
    out = run(address, "2\n9\nx\n4\n")
    assert "Please answer with a number from 2 to 5." in out
    assert sent(service) == [("take_troll_token", {"value": 4}, "d-7")]


def test_a_number_of_one_possible_value_is_taken_on_enter(
    scripted: tuple[Scripted, str],
) -> None:
    service, address = scripted
    service.choices = [Number(command="take_troll_token", arg="value", low=3, high=3)]
    out = run(address, "\n\n")
    assert "The only number allowed: 3" in out
    assert sent(service) == [("take_troll_token", {"value": 3}, "d-7")]
    for bad in BAD_WORDING:
        assert bad not in out


def test_a_listed_action_with_a_refusal(scripted: tuple[Scripted, str]) -> None:
    service, address = scripted
    service.choices = [PickOne()]
    service.actions = [recruit(12, "Recruit the Elf"), recruit(13, "Recruit the Dwarf")]
    service.complete = True
    service.refusals = ["the Dwarf has left the row"]
    out = run(address, "3\n2\n1\n")
    lines = out.splitlines()
    assert "Please answer with a number from 1 to 2." in lines
    assert "Refused: the Dwarf has left the row" in lines
    assert sent(service) == [("recruit_face_up", {"card": 13}, "d-7"),
                             ("recruit_face_up", {"card": 12}, "d-7")]


# --- the command line ---------------------------------------------------------------


@pytest.mark.parametrize(("argv", "why"), [
    (["play", "ethnos", "--players", "7"], "Ethnos is for 2 to 6 players (--players)"),
    (["play", "ethnos", "--players", "3", "--player", "4"],
     "--player must be a player of the game: 1 to 3"),
    (["play", "enin", "--players", "2"], "The Land of Enin is for 1 player (--players)"),
    (["play", "chess"], "the server plays no 'chess' (it plays: enin, ethnos"),
    (["play", "enin", "--game", "g", "--players", "2"], "--players is for a new game"),
])
def test_play_usage_errors(real_server: RealServer, argv: list[str], why: str,
                           capsys: pytest.CaptureFixture[str]) -> None:
    from clients.cli import main

    assert main([*argv, "--address", real_server.address]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: BAD_ARGUMENT: ") and why in err


def test_play_flags_are_the_same_for_every_game() -> None:
    from clients.cli import build_parser

    args = build_parser().parse_args(
        ["play", "ethnos", "--players", "4", "--seat", "2", "--bot-seed", "3", "--name", "Ada"])
    assert (args.rules, args.players, args.seat, args.bot_seed, args.name) == (
        "ethnos", 4, 2, 3, "Ada")
    other = build_parser().parse_args(["play", "any_game_the_server_has"])
    assert other.rules == "any_game_the_server_has" and other.players == 0


def test_play_resumes_a_game_of_other_rules_with_a_hint(
    real_server: RealServer, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from clients.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "enin", "--address", real_server.address]) == 0
    game_id = re.findall(r"New enin game (\S+)", capsys.readouterr().out)[0]
    assert main(["play", "ethnos", "--game", game_id, "--address", real_server.address]) == 2
    assert f"arbiter play enin --game {game_id}" in capsys.readouterr().err
