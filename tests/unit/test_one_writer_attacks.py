"""``ArbiterApp.act_moves`` (the ``Play`` writer's pass) attacked with the
passes a stranger's streams can make it decide, each pass built exactly (one
call: one pass), which a test over a server can only hope for: a command id
twice in one pass, a refusal among the same game's and other games' good
moves, an expected-version conflict inside the pass. Each move is answered as
``act`` would answer it alone, in the order sent, none lost, none applied
twice (DESIGN: one write path; exactly-once commands).

Titans opens with a choice every seat makes at once (its rulebook, "Setup"),
so several seats of one game can move in one pass in any order."""

from __future__ import annotations

import threading
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from aggregates.kernel import RuleError
from service.application import ActResult, ArbiterApp, Move
from service.config import Settings
from service.errors import ServiceError


@pytest.fixture()
def app(tmp_path: Path) -> Iterator[ArbiterApp]:
    """A store as the server keeps it (its aggregate cache included)."""
    application = ArbiterApp(Settings(data_dir=tmp_path).store_env())
    yield application
    application.close()


def titans(app: ArbiterApp) -> str:
    """A cached Titans game at its opening (every seat asked at once)."""
    game_id = str(app.create_game("titans", ["a", "b", "c"]).id)
    assert sorted(d.seat for d in app.game(game_id).pending()) == [0, 1, 2]
    return game_id


def move(app: ArbiterApp, game_id: str, seat: int, command_id: str = "",
         expected_version: int = 0, pick: int = 0) -> Move:
    """The seat's ``pick``-th legal command now, with its pending decision named."""
    game = app.game(game_id)
    decision = next(d.id for d in game.pending_decisions() if d.seat == seat)
    actions = game.legal_actions(seat)
    return Move(game_id, seat, actions[pick % len(actions)].to_json(),
                expected_version=expected_version, command_id=command_id,
                decision_id=decision)


def versions(app: ArbiterApp, game_id: str) -> list[int]:
    return [e.originator_version for e in app.game_events(game_id)]


def commands_recorded(app: ArbiterApp, game_id: str) -> list[tuple[int, str]]:
    """(seat, id) of every command the game's record carries, in order."""
    cmds = [e.meta.get("cmd") for e in app.game_events(game_id) if "cmd" in e.meta]
    return [(c.get("seat"), c.get("id", "")) for c in cmds]


def test_a_command_id_twice_in_one_pass_is_applied_once(app: ArbiterApp) -> None:
    """Exactly once inside one pass: a seat's command id sent twice (the
    second with another command), among another game's move, is applied
    once; the second is answered ``replayed`` and records nothing."""
    gid, other = titans(app), titans(app)
    start = app.game(gid).version
    first = move(app, gid, 0, "same")
    again = move(app, gid, 0, "same", pick=1)
    answers = app.act_moves([first, move(app, other, 1, "x"), again])
    assert isinstance(answers[0], ActResult) and answers[0].recorded \
        and not answers[0].replayed
    assert isinstance(answers[2], ActResult) and answers[2].replayed, answers[2]
    assert isinstance(answers[1], ActResult) and answers[1].recorded
    assert app.game(gid).version == answers[0].version > start
    assert versions(app, gid) == list(range(1, app.game(gid).version + 1))
    assert commands_recorded(app, gid).count((0, "same")) == 1


def test_one_command_id_for_two_seats_in_one_pass_is_two_commands(app: ArbiterApp) -> None:
    """Command ids are each seat's own: the same id from two seats in one
    pass is two commands, each applied once."""
    gid = titans(app)
    answers = app.act_moves([move(app, gid, 0, "shared"), move(app, gid, 1, "shared")])
    assert all(isinstance(a, ActResult) and a.recorded and not a.replayed for a in answers)
    recorded = commands_recorded(app, gid)
    assert recorded.count((0, "shared")) == recorded.count((1, "shared")) == 1


def test_refusals_in_a_pass_are_judged_in_order_and_lose_no_move(app: ArbiterApp) -> None:
    """A pass of one game's moves: seat 0's, seat 0's stale decision again,
    seat 1's, seat 1's at a stale expected version, seat 2's; and another
    game's move before and after them. Each is answered as ``act`` alone
    would, in order: the refusals with their reasons at the version the
    game had then, the good moves applied once each, the other game's too."""
    gid, other = titans(app), titans(app)
    start = app.game(gid).version
    a, c, e = move(app, gid, 0, "a"), move(app, gid, 1, "c"), move(app, gid, 2, "e")
    b = Move(gid, 0, a.action, command_id="b", decision_id=a.decision_id)
    d = Move(gid, 1, c.action, expected_version=start, command_id="d")
    o1, o2 = move(app, other, 0, "o1"), move(app, other, 1, "o2")
    answers = app.act_moves([o1, a, b, c, d, e, o2])
    got: dict[str, Any] = dict(zip(["o1", "a", "b", "c", "d", "e", "o2"], answers, strict=True))
    for key in ("o1", "a", "c", "e", "o2"):
        assert isinstance(got[key], ActResult) and got[key].recorded \
            and not got[key].replayed, (key, got[key])
    assert isinstance(got["b"], (RuleError, ServiceError)), got["b"]
    assert isinstance(got["d"], ServiceError) and got["d"].reason == "VERSION_MISMATCH"
    assert start < got["a"].version < got["c"].version < got["e"].version
    assert got["d"].version == got["c"].version, "judged after c, before e"
    assert getattr(got["b"], "version", None) == got["a"].version, "judged after a, before c"
    assert versions(app, gid) == list(range(1, app.game(gid).version + 1))
    assert [k for k in commands_recorded(app, gid) if k[1]] == [(0, "a"), (1, "c"), (2, "e")]
    assert [k for k in commands_recorded(app, other) if k[1]] == [(0, "o1"), (1, "o2")]


def test_an_expected_version_conflict_inside_a_pass(app: ArbiterApp) -> None:
    """Two seats' moves of one game in one pass, both at the version both
    read (two bots answering the same turn): the first is applied, the
    second refused ``VERSION_MISMATCH`` at the first's version, as two
    ``Act`` calls in that order would be; nothing else is recorded."""
    gid = titans(app)
    start = app.game(gid).version
    first = move(app, gid, 0, "v0", expected_version=start)
    second = move(app, gid, 1, "v1", expected_version=start)
    answers = app.act_moves([first, second])
    assert isinstance(answers[0], ActResult) and answers[0].recorded
    assert isinstance(answers[1], ServiceError) and answers[1].reason == "VERSION_MISMATCH"
    assert answers[1].version == answers[0].version == app.game(gid).version
    assert [k for k in commands_recorded(app, gid) if k[1]] == [(0, "v0")]


def test_a_replayed_id_after_a_batched_move_answers_as_then(app: ArbiterApp) -> None:
    """A move batched with other games' moves records its id: the id sent
    again in a later pass (with another command) is ``replayed`` with the
    events its first sending made, and the game does not move."""
    ids = [titans(app) for _ in range(3)]
    sent = [move(app, g, 0, "once") for g in ids]
    first = app.act_moves(sent)
    now = [app.game(g).version for g in ids]
    again = app.act_moves([Move(m.game_id, 0, m.action, command_id="once") for m in sent])
    for one, two in zip(first, again, strict=True):
        assert isinstance(one, ActResult) and isinstance(two, ActResult) and two.replayed
        assert [e.originator_version for e in two.events] == [
            e.originator_version for e in one.events]
    assert [app.game(g).version for g in ids] == now


class UnevenStore:
    """A store whose moves cost what their game says: ``heavy`` ones burn
    ``HEAVY_SECONDS`` of the deciding thread's CPU (a move the writer must
    decide at length: a refusal read again from the store, a game loaded),
    ``light`` ones nothing; each answered as recorded nothing (a refusal)."""

    def act_moves(self, moves: Any, costs: list[float] | None = None) -> list[Any]:
        answers: list[Any] = []
        spent: list[float] = []
        for m in moves:
            started = time.thread_time()
            if m.game_id == "heavy":
                until = time.thread_time() + HEAVY_SECONDS
                while time.thread_time() < until:
                    pass
            answers.append(ServiceError("ABORTED", "VERSION_MISMATCH", "stale", 1))
            spent.append(time.thread_time() - started)
        if costs is not None:
            costs[:] = spent  # each move's own, as ArbiterApp.act_moves reports them
        return answers


#: The writer's CPU on one heavy move.
HEAVY_SECONDS = 0.05


def test_each_stream_is_charged_the_writer_s_time_on_its_own_moves() -> None:
    """Principle 11 (a call costs its caller by its work), through the
    writer: in one pass, one caller's heavy move and another's light move;
    the light move's stream is charged about its own move's cost (here
    none), not half the heavy one's."""
    from service.play import Inbox, Writer

    store = UnevenStore()
    writer = Writer(store)  # type: ignore[arg-type]
    light = Inbox(_nothing(), lambda: None, lambda *_: None, lambda _: None)
    heavy = Inbox(_nothing(), lambda: None, lambda *_: None, lambda _: None)
    writer._apply([(light, "l", Move("light", 0, {})), (heavy, "h", Move("heavy", 0, {}))])
    assert heavy._spent >= 0.8 * HEAVY_SECONDS, "the heavy move's caller pays for it"
    assert light._spent < 0.2 * HEAVY_SECONDS, (
        f"the light move's caller was charged {light._spent * 1000:.0f} ms of the "
        f"writer's time, for a move that took none")


class CountingStore:
    """A store that answers every move at once and counts what it decided."""

    def __init__(self) -> None:
        self.decided: list[str] = []
        self.guard = threading.Lock()

    def act_moves(self, moves: Any, costs: list[float] | None = None) -> list[Any]:
        with self.guard:
            self.decided.extend(m.command_id for m in moves)
        return [ServiceError("ABORTED", "VERSION_MISMATCH", "stale", 1) for _ in moves]


def test_no_move_is_lost_or_decided_twice_as_writers_end_and_start(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A writer idle for ``WRITER_IDLE_SECONDS`` ends and the next move starts
    another (``service.play.submit``): moves sent from several streams while
    writers end and start, over and over (an idle time of a millisecond, the
    senders pausing together about as long, then coming back around the
    writer's end), are each decided once and answered once."""
    from service import play

    monkeypatch.setattr(play, "WRITER_IDLE_SECONDS", 0.001)
    started: list[int] = []
    real_start = play.Writer.start

    def start(self: Any) -> None:
        started.append(1)
        real_start(self)

    monkeypatch.setattr(play.Writer, "start", start)
    store = CountingStore()
    inboxes = [play.Inbox(_nothing(), lambda: None, lambda *_: None, lambda _: None)
               for _ in range(4)]
    per_stream = 300

    together = threading.Barrier(len(inboxes))

    def send(k: int) -> None:
        for n in range(per_stream):
            if n % 25 == 0:  # all pause, the writer idles; they come back around its end
                together.wait(10)
                time.sleep(0.001 + 0.0005 * ((n // 25 + k) % 5))
            play.submit(store, inboxes[k], f"{k}-{n}",  # type: ignore[arg-type]
                        Move("g", 0, {}, command_id=f"{k}-{n}"))

    senders = [threading.Thread(target=send, args=(k,)) for k in range(len(inboxes))]
    for sender in senders:
        sender.start()
    for sender in senders:
        sender.join(30)
    deadline = time.monotonic() + 10
    answered: dict[int, list[str]] = {k: [] for k in range(len(inboxes))}
    while sum(map(len, answered.values())) < per_stream * len(inboxes):
        assert time.monotonic() < deadline, "moves never answered"
        for k, inbox in enumerate(inboxes):
            answered[k].extend(cid for cid, _ in inbox.take())
        time.sleep(0.005)
    for k in answered:
        assert answered[k] == [f"{k}-{n}" for n in range(per_stream)], "each once, in order"
    assert sorted(store.decided) == sorted(f"{k}-{n}" for k in answered for n in range(per_stream))
    assert len(started) >= 3, f"writers ended and started {len(started)} times: nothing raced"


def test_ids_pushed_out_of_the_window_in_a_pass_are_still_replayed(
        app: ArbiterApp, monkeypatch: pytest.MonkeyPatch) -> None:
    """Exactly once beyond a game's newest ids: an id pushed out of the
    window (``COMMAND_WINDOW``, cut to 3 here) by a move decided in a pass
    with other games' moves is indexed in that pass's transaction
    (``CommandIndexed``), so sent again long after it is ``replayed``, not
    applied a second time; an id never sent is not taken for one."""
    from aggregates.kernel.record import recording

    monkeypatch.setattr(recording, "COMMAND_WINDOW", 3)
    ids = [str(app.create_game("enin", ["solo"]).id) for _ in range(3)]
    first: dict[tuple[str, int], Any] = {}
    for n in range(6):
        pass_moves = [move(app, g, 0, f"id-{n}") for g in ids]
        for g, m, answer in zip(ids, pass_moves, app.act_moves(pass_moves), strict=True):
            assert isinstance(answer, ActResult) and answer.recorded, answer
            first[(g, n)] = m
    for g in ids:
        now = app.game(g).version
        for n in range(6):
            old = first[(g, n)]
            again = app.act_moves([Move(g, 0, old.action, expected_version=1,
                                        command_id=f"id-{n}")])[0]
            assert isinstance(again, ActResult) and again.replayed, (n, again)
        never = app.act_moves([Move(g, 0, first[(g, 0)].action, expected_version=1,
                                    command_id="never")])[0]
        assert isinstance(never, ServiceError) and never.reason == "VERSION_MISMATCH"
        assert app.game(g).version == now
        assert [k for k in commands_recorded(app, g) if k[1]] == [
            (0, f"id-{n}") for n in range(6)]


def test_a_store_whose_writer_ended_is_not_kept_alive(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A store no longer used (closed, dropped), whose writer has ended idle,
    is freed: the map of running writers holds no store for good (a test
    process makes hundreds of stores; a server that reopens one would keep
    the old one's games in memory)."""
    import gc
    import weakref

    from service import play

    monkeypatch.setattr(play, "WRITER_IDLE_SECONDS", 0.01)
    store = ArbiterApp(Settings(data_dir=tmp_path).store_env())
    inbox = play.Inbox(_nothing(), lambda: None, lambda *_: None, lambda _: None)
    play.submit(store, inbox, "c", Move("not-a-game", 0, {}))
    deadline = time.monotonic() + 5
    while not inbox.take():
        assert time.monotonic() < deadline, "the move was never answered"
        time.sleep(0.01)
    writer = play._writers[store]
    writer.join(5)
    assert not writer.is_alive(), "the writer ended, idle"
    store.close()
    gone = weakref.ref(store)
    del store, writer
    gc.collect()
    assert gone() is None, "the closed store, its writer ended, is still referenced"


async def _nothing() -> AsyncIterator[Any]:
    """A request stream that has nothing (the tests hand the inboxes their answers)."""
    for _ in ():
        yield
