"""Interactive terminal play against a running server (``arbiter play GAME``).

One loop for every game, on one ``Play`` stream of the person's seat and the
bots' (``arbiter.play``). The person plays one seat; random bots play the
seats this terminal holds tokens for. The server pushes each event the
person's seat may see (each event's ``text``, in that seat's form, so other
players' secrets stay hidden), told as it comes, and each seat's turn; the
person's turn draws the game's screen (the game's own ``screen_json``) and
asks its decisions from the turn's legal moves: a numbered menu of the
listed actions in the game's words,
and for a choice structure its answer (cards of a zone by number, a slot per
item, a number in a range), built into a command with the kernel's
semantics. The server judges every answer; a refusal is shown in its words
and the question asked again. The loop holds no line of any game's rules.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from arbiter.answers import (
    TERMINAL,
    CardId,
    Option,
    bot_move,
    build_assign,
    build_number,
    build_pick_cards,
    build_pick_path,
    check_count,
    mark_name,
    menu,
    path_step,
)
from arbiter.client import ArbiterClient, ArbiterError, default_address
from arbiter.play import PlayStream, legal_of
from arbiter.render import (
    INDENT,
    card_names,
    event_text,
    loads_object,
    numbered,
    render_outcome,
    render_pending,
    screen_cards,
)
from arbiter.v1 import game_pb2
from rich.console import Console

from clients.render import render_audit, render_game_screen
from clients.terminal import draw_screen
from clients.typed import SelectionError, parse_cards, parse_menu_number

QUIT_WORDS = {"q", "quit", "exit"}
BACK_WORDS = {"b", "back"}
NONE_WORDS = {"none", "-", "nothing"}
YES_WORDS = {"", "1", "y", "yes", "ok"}
MAX_BOT_REFUSALS = 100


class _Quit(Exception):
    """The person left (a quit word or the end of input)."""


class _Back(Exception):
    """The person asked to go back to the menu."""


def seat_names(players: int, seat: int, name: str) -> list[str]:
    """Seat names of a new game: the person's at ``seat``, ``Bot 1``... elsewhere."""
    names, bot = [], 0
    for s in range(players):
        if s == seat:
            names.append(name)
        else:
            bot += 1
            names.append(f"Bot {bot}")
    return names


class Player:
    """One person at one seat of one game, reading answers from ``stdin``;
    random bots (seeded by ``rng``) at the seats in ``bots``."""

    def __init__(
        self,
        client: ArbiterClient,
        game_id: str,
        seat: int,
        stdin: TextIO,
        stdout: TextIO,
        bots: Sequence[int] = (),
        rng: random.Random | None = None,
        fancy: bool | None = None,
    ) -> None:
        self.client = client
        self.game_id = game_id
        self.seat = seat
        self.stdin = stdin
        self.stdout = stdout
        self.bots = sorted(set(bots) - {seat})
        self.rng = rng or random.Random()
        self.echo = not _isatty(stdin)
        self.seen = 0
        #: The events pushed since the last report, told (``report``).
        self.told: list[str] = []
        #: The command ids of the person's own moves (a refusal of one is shown).
        self.sent: set[str] = set()
        # A terminal gets the screen drawn with rich (its width, colour); a pipe
        # or a file the plain text of ``arbiter.render`` (None: decide by stdout).
        self.fancy = _isatty(stdout) if fancy is None else fancy
        self.console = Console(file=stdout, highlight=False) if self.fancy else None

    # -- output and input

    def say(self, *lines: str) -> None:
        """Write lines and flush, so a piped transcript is never behind the game."""
        for line in lines:
            self.stdout.write(line + "\n")
        self.stdout.flush()

    def read(self, question: str, back: bool = False) -> str:
        """One answer, stripped; raises ``_Quit`` (end of input, a quit word) or
        ``_Back`` (a back word, where going back is offered)."""
        self.stdout.write(question)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self.say("")
            raise _Quit
        text = line.strip()
        if self.echo:
            self.say(text)
        if text.lower() in QUIT_WORDS:
            raise _Quit
        if back and text.lower() in BACK_WORDS:
            raise _Back
        return text

    def choose(self, title: str, labels: Sequence[str], back: bool = False) -> int:
        """A numbered menu; the 0-based choice. One entry is announced and taken on Enter."""
        extra = ", b to go back" if back else ""
        if len(labels) == 1:
            self.say(f"{title} {labels[0]}")
            while True:
                text = self.read(f"Press Enter to take it (q to quit{extra}): ", back)
                if text.lower() in YES_WORDS:
                    return 0
                self.say("Press Enter to take it, or q to quit.")
        self.say(title, *numbered(labels))
        while True:
            text = self.read(f"Choose a number, 1 to {len(labels)} (q to quit{extra}): ", back)
            choice = parse_menu_number(text, len(labels))
            if choice is not None:
                return choice
            self.say(f"Please answer with a number from 1 to {len(labels)}.")

    # -- screens and reports

    def show(self, state: game_pb2.GameState) -> None:
        """The screen, then what happened since the last one."""
        self.say("", f"--- {state.rules} game {state.game_id}, version {state.version} ---")
        screen = loads_object(state.screen_json)
        if self.console is not None and screen.get("sections"):
            draw_screen(self.console, screen, list(state.seats))
        else:
            self.say(*render_game_screen(state))
        self.report()

    def report(self) -> None:
        """Tell the events pushed since the last report, as the person's seat sees them."""
        if self.told:
            self.say("What happened:", *self.told)
            self.told = []

    def tell(self, pushed: game_pb2.PlayEvent) -> None:
        """An event the person's seat sees: told at the next report."""
        if self.seat in pushed.for_seats and pushed.event.version > self.seen:
            self.seen = pushed.event.version
            self.told.append(f"  * {event_text(pushed.event)}")

    def finish(self, state: game_pb2.GameState) -> None:
        """The end: outcome, the revealed seed, and the server's audit of the game."""
        self.say("", render_outcome(loads_object(state.outcome_json), list(state.seats)))
        if state.seed:
            self.say(f"Seed (revealed): {state.seed}")
        self.say(f"Seed commitment: {state.seed_commitment}")
        try:
            self.say(render_audit(self.client.audit(self.game_id)))
        except ArbiterError as exc:
            self.say(f"Audit unavailable: {exc}")

    def leave(self, state: game_pb2.GameState) -> int:
        seat = f" --player {self.seat + 1}" if self.seat else ""  # counted as people do
        # The server this game is on, as the person gave it (the default needs none).
        address = self.client.address
        where = f" --address {address}" if address != default_address() else ""
        self.say(f"Left game {self.game_id} at version {state.version}; resume with: "
                 f"arbiter play {state.rules} --game {self.game_id}{seat}{where}")
        return 0

    # -- the loop

    def run(self) -> int:
        """Play until the game ends (0), the person leaves (0) or the bots are stuck (1)."""
        state = self.client.state(self.game_id, self.seat)
        self.seen = state.version
        if state.over:
            self.show(state)
            self.finish(state)
            return 0
        seats = [self.seat, *self.bots]
        with self.client.play(self.game_id, seats, after_version=state.version,
                              screens=True) as stream:
            return self.follow(stream, state)

    def follow(self, stream: PlayStream, state: game_pb2.GameState) -> int:
        """Answer the stream's turns until the game ends: the person's by asking,
        the bots' at random; tell the person's events; a refusal of the
        person's move is shown (and the turn comes again)."""
        refusals, waited = 0, -1
        for message in stream:
            for event in message.events:
                self.tell(event)
            for result in message.results:
                if result.accepted:
                    continue
                if result.command_id in self.sent:
                    self.say(f"Refused: {result.message or result.reason}")
                    continue
                refusals += 1
                if refusals >= MAX_BOT_REFUSALS:
                    self.say(f"The bots cannot move (game {self.game_id} is stuck).")
                    return 1
            for turn in message.turns:
                if turn.seat != self.seat:
                    if not turn.state.over:
                        refusals = refusals if self.bot_turn(stream, turn) else refusals + 1
                    continue
                self.show(turn.state)
                if turn.state.over:
                    self.finish(turn.state)
                    return 0
                try:
                    self.turn(stream, turn)
                except _Quit:
                    return self.leave(turn.state)
            if not message.turns and message.status and self.seen != waited:
                # Caught up, and nobody this terminal plays is asked: the others are.
                self.report()
                state = self.client.state(self.game_id, self.seat)
                self.say(*render_pending(state.pending, state.seats))
                waited = self.seen
        return 0

    def bot_turn(self, stream: PlayStream, turn: game_pb2.PlayTurn) -> bool:
        """One random move of a bot; False when it has none to send."""
        legal = legal_of(turn)
        move = bot_move(legal, self.rng)
        if move is None:
            return False
        stream.move(move.command, seat=turn.seat, decision_id=move.decision_id,
                    expected_version=0 if move.decision_id else legal.version)
        return True

    # -- the person's decisions

    def turn(self, stream: PlayStream, turn: game_pb2.PlayTurn) -> None:
        """Ask one decision of the person and send it; a refusal comes back on the stream."""
        legal = legal_of(turn)
        options = menu(legal, TERMINAL)
        if not options:
            return
        prompts = list(dict.fromkeys(d.prompt for d in legal.decisions if d.prompt))
        for prompt in prompts:
            self.say(f"Your decision: {prompt}")
        screen = loads_object(turn.state.screen_json)
        while True:
            index = self.choose("Your choices:" if len(options) > 1 else "Your only choice:",
                                [o.label for o in options])
            option = options[index]
            try:
                command = self.answer(option, screen)
            except _Back:
                continue
            break
        self.sent.add(stream.move(
            command, seat=self.seat, decision_id=option.decision_id,
            expected_version=0 if option.decision_id else legal.version))

    def answer(
        self, option: Option, screen: Mapping[str, Any]
    ) -> game_pb2.Command | dict[str, Any]:
        """The command of a menu entry: the listed one, or one built from the answer."""
        if option.action is not None:
            return option.action.command
        choice = option.choice or {}
        kind = choice.get("kind")
        if kind == "pick_cards":
            return self.ask_cards(choice, screen)
        if kind == "assign":
            return self.ask_assign(choice, screen)
        if kind == "pick_path":
            return self.ask_path(choice)
        return self.ask_number(choice)

    def ask_path(self, choice: Mapping[str, Any]) -> dict[str, Any]:
        """One question after another ("Which card?", then "Where?"), each
        offering what the answers before it allow; b goes back a step (from the
        first, to the menu)."""
        questions = [str(q) for q in choice.get("questions") or []]
        path: list[CardId] = []
        while branches := path_step(choice, path):
            step = len(path)
            question = questions[step] if step < len(questions) else "Which one?"
            try:
                index = self.choose(question, [str(b.get("label", b.get("value")))
                                               for b in branches], back=True)
            except _Back:
                if not path:
                    raise
                path.pop()
                continue
            path.append(branches[index]["value"])
        return build_pick_path(choice, path)

    def ask_cards(self, choice: Mapping[str, Any], screen: Mapping[str, Any]) -> dict[str, Any]:
        """Cards of a zone by their numbers (or ids), and the marked one if asked."""
        options: list[CardId] = list(choice.get("options") or [])
        names = card_names(screen)
        zone = str(choice.get("zone") or "")
        shown = screen_cards(screen, zone)
        numbering: list[CardId] = [c["id"] for c in shown if "id" in c] if shown else options
        # The cards again, right above the question (the screen's list has
        # scrolled away by now), numbered as the answer reads them.
        label = _zone_label(screen, zone) or "Cards"
        self.say(f"{label}:", *numbered([names.get(str(c), str(c)) for c in numbering], INDENT))
        low, high = int(choice.get("low", 0)), int(choice.get("high", 0))
        mark = mark_name(choice)
        hints = ["their numbers (e.g. 1 3 4)" if high > 1 else "its number"]
        if mark and high > 1:
            hints.append(f"a * after the {mark.lower()}")
        if low == 0:
            hints.append("none for no card")
        question = (f"Which card{'s' if high > 1 else ''}? Type {', '.join(hints)}; "
                    "b to go back, q to quit: ")
        picked: list[CardId] = []
        marked: CardId | None = None
        while True:
            text = self.read(question, back=True)
            try:
                picked, marked = ([], None) if text.lower() in NONE_WORDS else parse_cards(
                    text, numbering, options)
            except SelectionError as exc:
                self.say(f"{exc}.")
                continue
            problem = check_count(len(picked), low, high)
            if problem:
                self.say(problem)
                continue
            break
        if mark and marked is None and picked:
            marked = self.ask_mark(mark, picked, names)
        return build_pick_cards(choice, picked, marked)

    def ask_mark(self, mark: str, picked: Sequence[CardId], names: Mapping[str, str]) -> CardId:
        """Which picked card gets the mark (the only one needs no question)."""
        labels = [names.get(str(c), str(c)) for c in picked]
        if len(picked) == 1:
            self.say(f"{mark}: {labels[0]}.")
            return picked[0]
        return picked[self.choose(f"Which card is the {mark.lower()}?", labels, back=True)]

    def ask_assign(self, choice: Mapping[str, Any], screen: Mapping[str, Any]) -> dict[str, Any]:
        """One slot per item, asked item by item."""
        names = card_names(screen)
        items = list(choice.get("items") or [])
        slots = list(choice.get("slots") or [])
        # Slots are named by the game (slot_labels), never by a card that
        # happens to share a slot's number.
        given = list(choice.get("slot_labels") or [])
        labels = given if len(given) == len(slots) else [str(s) for s in slots]
        if len(slots) == 1:
            self.say(f"Everything goes to {labels[0]}.")
            return build_assign(choice, [slots[0]] * len(items))
        self.say("Slots:", *numbered(labels))
        answer: list[CardId] = []
        for item in items:
            while True:
                text = self.read(f"{names.get(str(item), str(item))}: which slot "
                                 f"(1 to {len(slots)}; b to go back, q to quit)? ", back=True)
                index = parse_menu_number(text, len(slots))
                if index is not None:
                    answer.append(slots[index])
                    break
                self.say(f"Please answer with a number from 1 to {len(slots)}.")
        return build_assign(choice, answer)

    def ask_number(self, choice: Mapping[str, Any]) -> dict[str, Any]:
        """A number in the choice's range (a range of one is taken on Enter)."""
        low, high = int(choice.get("low", 0)), int(choice.get("high", 0))
        if low == high:
            self.choose("The only number allowed:", [str(low)], back=True)
            return build_number(choice, low)
        while True:
            text = self.read(f"A number from {low} to {high} (b to go back, q to quit): ",
                             back=True)
            try:
                value = int(text)
            except ValueError:
                value = low - 1
            if low <= value <= high:
                return build_number(choice, value)
            self.say(f"Please answer with a number from {low} to {high}.")


def _zone_label(screen: Mapping[str, Any], zone: str) -> str:
    """The label the screen gives ``zone`` ("Your hand"), "" when it shows none."""
    for section in screen.get("sections") or []:
        for item in section.get("items") or [] if isinstance(section, Mapping) else []:
            if (isinstance(item, Mapping) and item.get("kind") == "cards" and zone
                    and item.get("zone") == zone):
                return str(item.get("label") or "")
    return ""


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
