"""The plumbing of the games' server-level leak tests (Titans, Nine Empires).

A game is played by seeded random bots through a real server with its web
side, while every seat and a spectator read everything the service offers
them: ``GetState`` (its ``view_json``, ``screen_json`` and pending choices,
now and at a past version), ``LegalActions``, the events of ``Act`` replies,
``History`` and ``Subscribe``, a direct Redis subscriber, and the web side's
seat page and game page. Each read is checked against what that reader may
know at that version, which each game's test works out by its rulebook from
the game the admin's full record folds into (``FoldedKnowledge``): the
rules' own ``@event`` bodies, no rules code, and not the audiences the server
recorded.

What is the same for every game is here: the fold, the surfaces read and
where each reply is checked. What a reader may know, and how a reply names
cards, is each game's (the ``check_*`` hooks of its ``FoldedKnowledge``).
"""

from __future__ import annotations

import datetime
import json
import random
import uuid
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

import pytest
from arbiter.v1 import game_pb2

from aggregates.kernel import Game
from aggregates.kernel.record import upcast
from aggregates.kernel.record.audit import Record, rebuild
from service.web.templating import LOG_TAIL
from tests.integration.conftest import ServerProcess
from tests.integration.test_leaks_screens_and_choices import Knowledge, Reader, Table, unsealed
from tests.web.test_pages import Browser as SpectatorBrowser
from tests.web.test_seat import Browser, SeatPage

JSON = Any


class FoldedKnowledge(Knowledge):
    """What each reader may know, version by version: the admin's full record
    folded into the game, and after each version the game's ``learned`` hook
    records what every reader may know then. The ``check_*`` hooks check one
    reply (its part named by the hook) for ``reader`` at ``version``."""

    GAME: ClassVar[type[Game]]

    def __init__(self, players: int) -> None:
        super().__init__(players)
        self.game: Game | None = None
        self.private = 0  # versions at which a seat knew a card the spectator did not

    def follow(self, events: list[game_pb2.Event]) -> None:
        for ev in events:
            assert ev.meta_json, "the admin reads the full record"
            record = Record(game_id=ev.game_id, version=ev.version, type=ev.type,
                            time=ev.time.ToDatetime(datetime.UTC).isoformat(),
                            payload=json.loads(ev.payload_json),
                            meta=json.loads(ev.meta_json), digest=ev.digest,
                            prev=ev.prev_digest)
            self.fold(record)
            assert self.game is not None and self.game.version == ev.version
            if self.learned(self.game, ev.version):
                self.private += 1
            self.version = ev.version

    def fold(self, rec: Record) -> None:
        if self.game is None:
            assert "seed" not in rec.payload, "the admin read the seed"
            self.game = rebuild(rec, self.GAME)
            return
        ev = upcast.event_of(self.GAME, rec.type, rec.meta or {},
                             originator_id=uuid.UUID(rec.game_id),
                             originator_version=rec.version,
                             timestamp=datetime.datetime.fromisoformat(rec.time), **rec.payload)
        ev.mutate(self.game)

    def learned(self, game: Any, version: int) -> bool:
        """Record what each reader may know at ``version`` (``game`` is the game
        then); true when a seat may know something the spectator may not."""
        raise NotImplementedError

    def check_view(self, view: JSON, reader: Reader, version: int, where: str) -> None:
        raise NotImplementedError

    def check_screen(self, screen: JSON, reader: Reader, version: int, where: str) -> set[str]:
        """Check a screen; return the ids of the faces it shows (as the markup
        names them), which a page may show and no other."""
        raise NotImplementedError

    def check_commands(self, commands: list[JSON], reader: Reader, version: int,
                       where: str) -> None:
        """Check commands offered to ``reader`` (legal actions, a page's buttons)
        or its choices."""
        raise NotImplementedError

    def check_payload(self, kind: str, payload: JSON, reader: Reader, version: int,
                      where: str) -> None:
        raise NotImplementedError


# ---------------------------------------------------------------------- checks


def check_state(state: game_pb2.GameState, know: FoldedKnowledge, reader: Reader,
                where: str) -> None:
    v = state.version
    unsealed(know, where, state.view_json, state.screen_json, state.seed,
             *(d.choices_json for d in state.pending))
    know.check_view(json.loads(state.view_json), reader, v, where + " view")
    know.check_screen(json.loads(state.screen_json), reader, v, where + " screen")
    for d in state.pending:
        choices = json.loads(d.choices_json or "[]")
        if d.seat != reader:
            assert choices == [], f"{where}: reader {reader} got seat {d.seat}'s choices"
        know.check_commands(choices, reader, v, where + " choices")


def check_event(ev: game_pb2.Event, know: FoldedKnowledge, seats: list[str], reader: Reader,
                where: str) -> None:
    """The payload, and the text: the game's sentence for exactly the payload
    this reader got, so the words carry nothing the payload does not."""
    payload = json.loads(ev.payload_json)
    assert not ev.meta_json, f"{where}: reader {reader} got the kernel's meta before the end"
    know.check_payload(ev.type, payload, reader, ev.version, f"{where} {ev.type}")
    unsealed(know, where, ev.payload_json, ev.text)
    assert ev.text == know.GAME.describe(ev.type, payload, seats), (where, ev.type, ev.text)


def check_legal(legal: game_pb2.LegalActionsResponse, know: FoldedKnowledge, seat: int) -> None:
    v = legal.version
    know.check_commands([json.loads(a.json) for a in legal.actions], seat, v, "LegalActions")
    for d in legal.decisions:
        assert d.seat == seat
        know.check_commands(json.loads(d.choices_json), seat, v, "choices")


class LeakTable(Table):
    """The kernel leak test's table, with the checks a game's knowledge makes."""

    know: FoldedKnowledge

    def check_everyone(self, rnd: random.Random) -> None:
        for r in self.know.readers:
            check_state(self.state(r), self.know, r, "GetState")
        reader = rnd.choice(self.know.readers)  # time travel: a past version
        version = rnd.randint(1, self.know.version)
        past = self.state(reader, version)
        assert past.version == version and not past.seed
        check_state(past, self.know, reader, f"GetState(version={version})")

    def secret(self, version: int) -> bool:
        """Whether the event at ``version`` was read while the game ran: the
        move that ends it is everyone's, and the end makes the record public."""
        return not self.secret_until or version < self.secret_until

    def histories(self) -> dict[Reader, list[game_pb2.Event]]:
        """Every reader's whole ``History`` now."""
        return {r: self.history(r) for r in self.know.readers}

    def check_histories(self, histories: dict[Reader, list[game_pb2.Event]] | None = None
                        ) -> None:
        """Every event of every reader's ``History`` (``histories``: read now;
        None: read here)."""
        for r, events in (self.histories() if histories is None else histories).items():
            for ev in events:
                check_event(ev, self.know, self.seats, r, "History")

    def finish_feeds(self) -> None:
        final = self.know.version
        for r, feed in self.feeds.items():
            assert feed.wait_for(lambda f: len(f.events) >= final), f"feed of {r} stalled"
            assert feed.error is None, feed.error
            assert [ev.version for ev in feed.events[:final]] == list(range(1, final + 1))
            for ev in feed.events[:final]:
                if self.secret(ev.version):
                    check_event(ev, self.know, self.seats, r, "Subscribe")
        assert self.tap.messages, "the Redis subscriber heard the game"
        for message in self.tap.messages:
            version = message["version"]
            if not self.secret(version):
                continue
            self.know.check_payload(message["type"], message["payload"], None, version,
                                    "Redis " + message["type"])
            unsealed(self.know, "Redis", json.dumps(message))
            if message["audience"] != "everyone":
                assert message["redacted"], message


class Pages:
    """Each seat's page in its own browser, and the spectator's game page."""

    def __init__(self, server: ServerProcess, table: LeakTable) -> None:
        self.table = table
        self.seats = [Browser(server) for _ in table.seats]
        for seat, browser in enumerate(self.seats):
            assert browser.open_seat(table.game_id, seat, table.tokens[seat]).status == 200
        self.spectator = SpectatorBrowser(server.web_url)
        assert self.spectator.open_session(table.game_id, table.spectator_token).status == 200
        self.checked = 0

    def check(self, version: int, histories: dict[Reader, list[game_pb2.Event]]) -> None:
        """Each page at ``version``; ``histories``: every reader's ``History``
        read at it (a seat's page shows its own as its log)."""
        know, game_id = self.table.know, self.table.game_id
        for seat, browser in enumerate(self.seats):
            reply = browser.get(f"/games/{game_id}/seat/{seat}")
            assert reply.status == 200, reply.text
            where = f"seat {seat}'s page"
            unsealed(know, where, reply.text)
            page = SeatPage(reply.text)
            assert page.board_version == version and page.screen_json is not None, where
            faces = know.check_screen(json.loads(page.screen_json), seat, version, where)
            know.check_commands([json.loads(a["data-json"]) for a in page.actions], seat,
                                version, where + " actions")
            # The markup's cards are the checked screen's faces, and the forms'
            # values the options of the seat's own (checked) choices.
            assert {c for c in page.cards_shown if c} <= faces, where
            options = {str(o) for d in self.table.state(seat).pending if d.seat == seat
                       for c in json.loads(d.choices_json) for o in c.get("options", [])}
            for form in page.forms:
                assert {c["value"] for c in form["checkboxes"]} <= options, where
            own = histories[seat]
            assert page.log == [(e.version, e.text) for e in own][-LOG_TAIL:], \
                f"{where}: not the latest of its History"
        game_page = self.spectator.get(f"/games/{game_id}")
        assert game_page.status == 200
        unsealed(know, "the game page", game_page.body)
        screen = json.loads(game_page.dom.by_id("screen-json").text())
        assert screen == json.loads(self.table.state(None).screen_json), "the game page"
        know.check_screen(screen, None, version, "the game page")
        self.checked += 1


Pick = Callable[[game_pb2.LegalActionsResponse, random.Random], game_pb2.LegalAction]


def pick_acting(kind_of: Callable[[game_pb2.LegalAction], str], ending: set[str],
                rank: Callable[[game_pb2.LegalAction], int] = lambda _: 0) -> Pick:
    """A bot that picks a random legal command, ending a phase (a command in
    ``ending``) early one time in four: it prefers doing something, so armies
    meet; and only among the commands of the highest ``rank`` (what the test
    must reach within its moves first, what would keep it from that last)."""

    def pick(legal: game_pb2.LegalActionsResponse, rnd: random.Random) -> game_pb2.LegalAction:
        best = max((rank(a) for a in legal.actions), default=0)
        actions = [a for a in legal.actions if rank(a) == best]
        name_of = [kind_of(a) for a in actions]
        names = sorted(set(name_of))
        acting = [n for n in names if n not in ending]
        name = rnd.choice(acting if acting and rnd.random() > 0.25 else names)
        return rnd.choice([a for a, n in zip(actions, name_of, strict=True) if n == name])

    return pick


def play_and_check(table: LeakTable, pages: Pages, pick: Pick, moves: int,
                   rnd: random.Random, pages_every: int = 20,
                   after_move: Callable[[], None] = lambda: None,
                   reached: frozenset[str] = frozenset(), max_moves: int = 0) -> set[str]:
    """Bots play ``moves`` moves, and on (the server's dice are new each run)
    until the game has reached every kind of event in ``reached`` or
    ``max_moves`` moves: every reader's state every 4 moves (and
    a random past), the pages every ``pages_every``, the mover's LegalActions and Act reply
    at each, and the game's own ``after_move`` checks; every History with the
    pages and at the end, then every feed (up to the move that ends the game,
    if one does: the end makes the record public). Return the kinds of
    events the game reached."""
    know = table.know
    kinds: set[str] = set()
    table.catch_up()
    state = table.state(None)
    for move in range(max(moves, max_moves)):
        if move >= moves and kinds >= reached:
            break
        if move % 4 == 0:
            table.check_everyone(rnd)
        if move % pages_every == 0:
            # Each reader's History read once for both (nothing moves in
            # between): reading it for the pages and again for its checks was
            # a sixth of the test's time.
            histories = table.histories()
            pages.check(know.version, histories)
            table.check_histories(histories)
        if state.over:
            break
        seat = rnd.choice([d.seat for d in state.pending])
        legal = table.stubs[seat].LegalActions(game_pb2.LegalActionsRequest(
            game_id=table.game_id, seat=seat))
        check_legal(legal, know, seat)
        action = pick(legal, rnd)
        reply = table.stubs[seat].Act(game_pb2.ActRequest(
            game_id=table.game_id, seat=seat, command=action.command,
            decision_id=legal.decisions[0].id))
        table.catch_up()
        kinds |= {ev.type for ev in reply.events}
        if reply.state.over:  # the end reveals the record (and the seed)
            table.secret_until = reply.events[0].version
            break
        for ev in reply.events:
            check_event(ev, know, table.seats, seat, "Act reply")
        check_state(reply.state, know, seat, "Act reply state")
        after_move()
        state = reply.state
    if not state.over and not table.secret_until:
        histories = table.histories()
        table.check_histories(histories)
        pages.check(know.version, histories)
    table.finish_feeds()
    return kinds


def web_server(tmp_path_factory: pytest.TempPathFactory, redis_url: str,
               name: str) -> Iterator[ServerProcess]:
    """A server process with its web side, for a module's fixture."""
    process = ServerProcess(tmp_path_factory.mktemp(name) / "data", redis_url,
                            {"ARBITER_WEB_ADDRESS": "127.0.0.1:0"})
    process.start()
    try:
        yield process
    finally:
        process.stop()
