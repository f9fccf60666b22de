"""Interactive terminal play against a running server (``arbiter play enin``).

The loop knows nothing of any game's rules: it shows the seat's view, numbers
the choices LegalActions offers, sends the chosen typed command with the
version it was chosen at, and describes the events that came back. So what a
person can do here is exactly what the server says is legal, nothing more.
"""

from __future__ import annotations

import time
from typing import TextIO

from arbiter.v1 import game_pb2

from clients.client import ArbiterClient, ArbiterError
from clients.render import (
    describe_event,
    loads_object,
    render_audit,
    render_choices,
    render_outcome,
    render_pending,
    render_view,
)

QUIT_WORDS = {"q", "quit", "exit"}


def parse_choice(text: str, count: int) -> int | None:
    """A 1-based menu number as a 0-based index; ``None`` when not a valid choice."""
    text = text.strip()
    if not text.isdigit():
        return None
    number = int(text)
    return number - 1 if 1 <= number <= count else None


def describe_events(events: list[game_pb2.Event]) -> list[str]:
    """What happened, one line per event, in words."""
    return [
        f"  * {describe_event(event.type, loads_object(event.payload_json))}"
        for event in events
    ]


class Player:
    """One person at one seat of one game, reading choices from ``stdin``."""

    def __init__(
        self,
        client: ArbiterClient,
        game_id: str,
        seat: int,
        stdin: TextIO,
        stdout: TextIO,
        poll_seconds: float = 1.0,
    ) -> None:
        self.client = client
        self.game_id = game_id
        self.seat = seat
        self.stdin = stdin
        self.stdout = stdout
        self.poll_seconds = poll_seconds
        self.echo = not _isatty(stdin)

    def say(self, *lines: str) -> None:
        """Write lines and flush, so a piped transcript is never behind the game."""
        for line in lines:
            self.stdout.write(line + "\n")
        self.stdout.flush()

    def show(self, state: game_pb2.GameState) -> None:
        """The screen: the view, and who the game waits on."""
        self.say("", f"--- {state.rules} game {state.game_id}, version {state.version} ---")
        self.say(*render_view(state.rules, loads_object(state.view_json)))
        others = [d for d in state.pending if d.seat != self.seat]
        if others:
            self.say(*render_pending(others, state.seats))

    def ask(self, actions: list[game_pb2.LegalAction]) -> int | None:
        """Read a choice; ``None`` on end of input or a quit word."""
        self.say("Your choices:", *render_choices(actions))
        while True:
            self.stdout.write(f"Choose 1-{len(actions)} (q to quit): ")
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                self.say("")
                return None
            if self.echo:
                self.say(line.strip())
            if line.strip().lower() in QUIT_WORDS:
                return None
            choice = parse_choice(line, len(actions))
            if choice is not None:
                return choice
            self.say(f"Please answer with a number from 1 to {len(actions)}.")

    def finish(self, state: game_pb2.GameState) -> None:
        """The end: outcome, the revealed seed, and the server's audit of the game."""
        self.say("", render_outcome(loads_object(state.outcome_json)))
        if state.seed:
            self.say(f"Seed (revealed): {state.seed}")
        self.say(f"Seed commitment: {state.seed_commitment}")
        try:
            self.say(render_audit(self.client.audit(self.game_id)))
        except ArbiterError as exc:
            self.say(f"Audit unavailable: {exc}")

    def run(self) -> int:
        """Play until the game ends (0) or the person leaves (0)."""
        state = self.client.state(self.game_id, self.seat)
        shown_version = -1
        while True:
            if state.over:
                self.show(state)
                self.finish(state)
                return 0
            if state.version != shown_version:
                self.show(state)
                shown_version = state.version
            legal = self.client.legal(self.game_id, self.seat)
            actions = list(legal.actions)
            if not actions:
                time.sleep(self.poll_seconds)
                state = self.client.state(self.game_id, self.seat)
                continue
            choice = self.ask(actions)
            if choice is None:
                self.say(f"Left game {self.game_id} at version {state.version}; "
                         f"resume with: arbiter play {state.rules} --game {self.game_id}")
                return 0
            try:
                response = self.client.act(
                    self.game_id, self.seat, actions[choice].command,
                    expected_version=legal.version,
                )
            except ArbiterError as exc:
                self.say(f"Refused: {exc}")
                state = self.client.state(self.game_id, self.seat)
                continue
            self.say("", "What happened:", *describe_events(list(response.events)))
            state = response.state if response.state.game_id else self.client.state(
                self.game_id, self.seat
            )


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
