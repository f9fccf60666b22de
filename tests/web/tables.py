"""Tables to look at: one game of every served rules, a few bot moves in, and
the four pages (lobby, game, seat, replay) a browser opens on each.

Shared by the browser tests of the table's layout (``test_table_layout.py``)
and by the screenshot script (``tools/screenshots.py``), so the screenshots'
pictures show exactly the pages the tests measure. Bots move through gRPC with
a fixed seed; each game stops at a version where a seat has something to do.
"""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

from arbiter.answers import bot_move
from arbiter.v1 import game_pb2, game_pb2_grpc
from arbiter.wire import json_to_command

from tests.integration.conftest import ServerProcess

#: Each served rules id: its seats, how many bot moves to play before looking
#: (enough to reach the game's middle: cards in hands and rows, units on a map),
#: and how many card faces the waiting seat should then see (a few more bot
#: moves, at most ``EXTRA_MOVES``, to get there): cards to draw.
TABLES: dict[str, tuple[tuple[str, ...], int, int]] = {
    "enin": (("Ada",), 8, 0),
    "ethnos": (("Ada", "Brann", "Cyd"), 6, 7),
    "ettin": (("Ada", "Brann", "Cyd", "Dara"), 40, 6),
    "titans": (("Ada", "Brann", "Cyd"), 30, 6),
    "nine_empires": (("Ada", "Brann"), 30, 6),
}
EXTRA_MOVES = 40
#: The pages of a table, in the order a browser opens them.
#: (The seat's link comes last: its cookie replaces the spectator's for the game.)
PAGES = ("lobby", "game", "replay", "seat")


def spectator_state(stub: game_pb2_grpc.GameServiceStub, game_id: str,
                    version: int | None = None) -> game_pb2.GameState:
    request = game_pb2.GetStateRequest(game_id=game_id, spectator=True)
    if version is not None:
        request.version = version
    return stub.GetState(request)


def bot_step(stub: game_pb2_grpc.GameServiceStub, game_id: str, rules: str,
             rng: random.Random) -> bool:
    """One random legal move by the seat the game waits on; False once it is over.
    The move's reply carries no state (``with_state=False``): nothing here reads
    it, and the server spent a quarter of each bot move rendering it (12.3 ->
    9.5 ms a move, load 6), the next look being the spectator's state anyway."""
    state = spectator_state(stub, game_id)
    if state.over:
        return False
    seat = state.pending[0].seat
    legal = stub.LegalActions(game_pb2.LegalActionsRequest(game_id=game_id, seat=seat))
    move = bot_move(legal, rng)
    assert move is not None, f"seat {seat} has no move at version {state.version}"
    command = move.command if isinstance(move.command, game_pb2.Command) \
        else json_to_command(rules, move.command)
    try:
        stub.Act(game_pb2.ActRequest(game_id=game_id, seat=seat, command=command,
                                     decision_id=move.decision_id, with_state=False))
    except Exception:
        if not move.guess:  # a guessed combination may be refused; a listed one not
            raise
    return True


@dataclasses.dataclass(frozen=True)
class Table:
    """One game under way: where its pages are and the tokens that open them."""

    rules: str
    game_id: str
    seat: int            # a seat the game waits on
    seat_token: str
    spectator_token: str
    version: int

    def urls(self, base: str) -> dict[str, tuple[str, bool]]:
        """Each page's URL and whether it holds a token to trade for a cookie.
        The replay of a running game is opened by the game page's cookie."""
        game = f"{base}/games/{self.game_id}"
        return {"lobby": (f"{base}/?rules={self.rules}", False),
                "game": (f"{game}#{self.spectator_token}", True),
                "seat": (f"{game}/seat/{self.seat}#{self.seat_token}", True),
                "replay": (f"{game}/replay", False)}


def faces_shown(stub: game_pb2_grpc.GameServiceStub, game_id: str) -> int:
    """How many card faces the seat the game waits on sees on its screen."""
    state = spectator_state(stub, game_id)
    if state.over or not state.pending:
        return 0
    own = stub.GetState(game_pb2.GetStateRequest(game_id=game_id, seat=state.pending[0].seat))
    screen = json.loads(own.screen_json or "{}")
    return sum(len(item.get("cards") or []) for section in screen.get("sections") or []
               for item in section.get("items") or [] if item.get("kind") == "cards")


def set_table(server: ServerProcess, rules: str, seed: int = 1, tries: int = 20) -> Table:
    """A game of ``rules`` after its bot moves, stopped where a seat must act.
    The server rolls its own dice, so a game may end early (a Land of Enin
    hero dies): then another game is set up, ``tries`` times at most.

    Twenty: about half the Ethnos games (28 of 60 measured) stop with the
    waiting seat shown fewer than seven cards (a band just played empties a
    hand), so five tries all failed about once in fifty runs, as a fresh
    clone's suite did; twenty fail about once in three million."""
    seats, moves, faces = TABLES[rules]
    stub = server.stub()
    for attempt in range(tries):
        created = stub.CreateGame(game_pb2.CreateGameRequest(rules=rules, seats=list(seats)))
        rng = random.Random(seed + attempt)
        for _ in range(moves):
            if not bot_step(stub, created.game_id, rules, rng):
                break
        for _ in range(EXTRA_MOVES):  # on to where the waiting seat holds a few cards
            if faces_shown(stub, created.game_id) >= faces or \
                    not bot_step(stub, created.game_id, rules, rng):
                break
        state = spectator_state(stub, created.game_id)
        # The server rolls its own dice: a game may also stop where the waiting
        # seat holds no card (an Ethnos age just ended, every hand discarded), and
        # a table with no face to look at measures nothing: another game then.
        if not state.over and state.pending and faces_shown(stub, created.game_id) >= faces:
            seat = state.pending[0].seat
            return Table(rules, created.game_id, seat, created.seat_tokens[seat].token,
                         created.spectator_token, int(state.version))
    raise AssertionError(f"{tries} games of {rules} each ended, or showed the waiting seat "
                         f"fewer than {faces} cards, within {moves + EXTRA_MOVES} moves")


def open_page(page: Any, url: str, with_token: bool, ready: str, timeout: float = 15) -> None:
    """Open ``url``; a link with a token in its fragment is traded for the game's
    cookie and the page loads again without it, then shows ``ready``."""
    from tests.web.browser import poll

    page.goto(url)
    if with_token:
        poll(page, lambda: "#" not in page.url and page.query_selector(ready) is not None,
             timeout=timeout, what=f"{url.split('#')[0]} to trade its token and show {ready}")
    else:
        page.wait_for_selector(ready)


#: What each page shows once it is ready.
READY = {"lobby": "table#games", "game": "#board[data-version]",
         "seat": "section#play", "replay": "#board[data-version]"}
