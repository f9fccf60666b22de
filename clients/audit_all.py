"""``arbiter audit --all`` and ``--since POSITION``: the whole store audited.

Every game (or every game with events after a global position, for a nightly
job) is sent to the server's ``Audit`` with the admin token; a progress bar
goes to stderr when it is a terminal, and a summary table to stdout. Any
failure (a failed proof, or an audit the server could not run) makes the
exit status non-zero. ``--since`` ends with the new high-water position to
pass next time.

The audits are sent over as many connections at once as the machine has
cores: a server audits a game on one core (the replay holds its
interpreter), so a deployment of a server process per core on one port
(``ARBITER_REUSE_PORT``, docs/operations.md), whose kernel hands each
connection to one of them, audits the store on all of its cores at once.
This process sends over the first ``CONNECTIONS_HERE`` of them, each on a
thread of its own, from the first game: a connection keeps about an eighth
of its core busy (measured on 400 small games: 0.45 ms of this process's
CPU a game against 3.5 ms a game's round trip), so four use about half of
its interpreter. Each connection past those is a helper process's
(``python -m clients.audit_all``, which imports the client and this module
alone) and takes games once it is ready: a process costs 0.2 s of CPU to
start (its imports), in which a connection here audits some sixty small
games, so processes are for the connections one interpreter cannot serve.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any, TextIO

import arbiter
import grpc
from arbiter.client import ArbiterClient, ArbiterError, channel_credentials


@dataclasses.dataclass
class Row:
    game_id: str
    rules: str
    version: int
    over: bool
    result: str
    ok: bool
    problems: list[str] = dataclasses.field(default_factory=list)


def changed_since(
    client: ArbiterClient, position: int, token: str | None
) -> tuple[list[Any], int]:
    """Every game with events after ``position`` and the position covered."""
    games: dict[str, Any] = {}
    covered = position
    while True:
        page = client.changed_games(covered, limit=100, token=token)
        for game in page.games:
            games[game.game_id] = game
        if not page.games or page.next_after <= covered:
            return list(games.values()), max(covered, page.next_after)
        covered = page.next_after


@dataclasses.dataclass(frozen=True)
class Listed:
    """What the summary shows of a game before its audit (from ``ListGames``)."""

    game_id: str
    rules: str
    version: int
    over: bool


#: Refusals that say "not now" (the server's audit slots all busy, the
#: caller's share spent): an audit changes nothing, so it is asked again, after
#: these waits in seconds, before its row says so.
BUSY = ("AUDITS_BUSY", "RATE_LIMITED")
BUSY_WAITS = (0.2, 0.5, 1.0, 2.0, 4.0)


def audit_one(client: Any, game: Listed, token: str | None) -> Row:
    """One game's audit as a summary row."""
    try:
        audit = _audited(client, game.game_id, token)
    except ArbiterError as exc:
        # A running game without the admin token: not audited (the CLI
        # has said once where it looked for the token), not an error.
        result = "not audited: needs the admin token" if exc.reason == "NO_TOKEN" \
            else f"error {exc.reason}"
        return Row(game.game_id, game.rules, game.version, game.over, result, False,
                   [exc.message])
    ok = audit.chain_ok and audit.dice_ok and audit.replay_ok and not audit.bad_snapshots
    if ok:
        result = "ok" if audit.over else "ok so far"
        if any(p.startswith("note: ") for p in audit.problems):
            result += ", not re-executed (see its note)"
    else:
        result = f"FAILED at v{audit.first_failure}" if audit.first_failure else "FAILED"
    return Row(game.game_id, game.rules, audit.events, audit.over, result, ok,
               list(audit.problems))


def _audited(client: Any, game_id: str, token: str | None) -> Any:
    """The game's ``Audit``, asked again after a wait while the server says it
    is busy (``BUSY``)."""
    for wait in (*BUSY_WAITS, None):
        try:
            return client.audit(game_id, token=token)
        except ArbiterError as exc:
            if exc.reason not in BUSY or wait is None:
                raise
            time.sleep(wait)
    raise AssertionError("unreachable")  # the last try raises or returns


def default_connections(games: int) -> int:
    """As many connections as the cores this process may run on (at most one
    per game)."""
    return max(1, min(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                      else os.cpu_count() or 1, games))


#: Connections this process sends audits over (the client's and more, each on
#: a thread of its own) before the next is a helper process's.
CONNECTIONS_HERE = 4


class Dealer:
    """The games' indices, handed out one at a time to whichever auditor is
    free (this process or a helper), until none is left or ``stop``."""

    def __init__(self, count: int) -> None:
        self.count = count
        self._next = itertools.count()
        self._lock = threading.Lock()
        self.stopped = False

    def take(self) -> int | None:
        with self._lock:
            if self.stopped:
                return None
            n = next(self._next)
            if n >= self.count:
                self.stopped = True
                return None
            return n

    def stop(self) -> None:
        with self._lock:
            self.stopped = True


class Auditor:
    """Audits games from a ``Dealer`` on a thread of its own, beside this
    process's own loop (``_in_order``): each ``(index, row)`` into ``done``,
    or ``(None, error)`` on a failure (raised again by the loop)."""

    _feeder: threading.Thread | None = None

    def audit(self, game: Listed) -> Row:
        raise NotImplementedError

    def feed(self, games: Sequence[Listed], dealer: Dealer, done: queue.SimpleQueue[Any]) -> None:
        try:
            while (n := dealer.take()) is not None:
                done.put((n, self.audit(games[n])))
        except Exception as exc:  # noqa: BLE001 - raised again by the caller's loop
            done.put((None, exc))

    def start(self, games: Sequence[Listed], dealer: Dealer,
              done: queue.SimpleQueue[Any]) -> None:
        """``feed`` on a thread of its own."""
        self._feeder = threading.Thread(target=self.feed, args=(games, dealer, done),
                                        name=f"audit-{type(self).__name__.lower()}",
                                        daemon=True)
        self._feeder.start()

    def join(self) -> None:
        """Wait for the game in hand (the dealer stopped)."""
        if self._feeder is not None:
            self._feeder.join(timeout=30)


def own_connection(client: ArbiterClient, address: str) -> ArbiterClient:
    """A client as ``client`` is (its token, TLS, timeout and retries) on a
    connection of its own to ``address``: the channel has its own subchannel
    pool, where channels to one address in one process would share a
    connection (and so one server process behind a shared port)."""
    credentials = channel_credentials(client.tls_ca, client.tls)
    options = [("grpc.use_local_subchannel_pool", 1)]
    channel = (grpc.secure_channel(address, credentials, options) if credentials
               else grpc.insecure_channel(address, options))
    return ArbiterClient(address, token=client.token, tls_ca=client.tls_ca, tls=client.tls,
                         channel=channel, timeout=client.timeout, retries=client.retries)


class Here(Auditor):
    """A connection of this process's own, on a thread of its own."""

    def __init__(self, address: str, client: ArbiterClient, token: str | None) -> None:
        self.client = own_connection(client, address)
        self.token = token

    def audit(self, game: Listed) -> Row:
        return audit_one(self.client, game, self.token)

    def close(self) -> None:
        self.join()
        self.client.close()


class HelperFailed(RuntimeError):
    """A helper process failed on a game or ended before its answer."""


def helper_env() -> dict[str, str]:
    """A helper's environment: this one, with the directories this process
    found the client and this module in first on its path (as a spawned
    process gets its parent's path)."""
    roots = [str(Path(__file__).resolve().parents[1]),
             *(str(Path(p).resolve().parent) for p in arbiter.__path__)]
    inherited = os.environ.get("PYTHONPATH", "")
    path = os.pathsep.join(dict.fromkeys([*roots, *filter(None, inherited.split(os.pathsep))]))
    return {**os.environ, "PYTHONPATH": path}


#: How a helper process is started, after the interpreter: ``serve_helper``.
#: ``-P``: the working directory not put first on the helper's path, so a
#: ``clients/audit_all.py`` there (another checkout, a stranger's folder) is
#: never run in this module's place and handed the tokens.
HELPER_ARGS = ("-P", "-m", "clients.audit_all")


class Helper(Auditor):
    """A helper process auditing the games it is handed, one at a time, over
    a connection of its own to ``address``: a game's fields a line on its
    stdin, its row a line on its stdout (``serve_helper``). Its first line
    carries the tokens, so they are on no command line."""

    def __init__(self, address: str, client: ArbiterClient, token: str | None) -> None:
        self.process = subprocess.Popen(
            [sys.executable, *HELPER_ARGS], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, env=helper_env(), text=True, encoding="utf-8")
        self._send({"address": address, "token": client.token, "tls_ca": client.tls_ca,
                    "tls": client.tls, "audit_token": token})

    def _send(self, message: dict[str, Any]) -> None:
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write(json.dumps(message) + "\n")
        stdin.flush()

    def audit(self, game: Listed) -> Row:
        """One game's row, from the helper."""
        try:
            self._send(dataclasses.asdict(game))
        except OSError:  # it had ended: said below
            line = ""
        else:
            assert self.process.stdout is not None
            line = self.process.stdout.readline()
        if not line:
            raise HelperFailed(f"an audit process ended (exit {self.process.wait()}) before "
                               f"its answer for game {game.game_id}")
        answer = json.loads(line)
        if "failed" in answer:
            raise HelperFailed(f"an audit process failed on game {game.game_id}: "
                               f"{answer['failed']}")
        return Row(**answer)

    def close(self) -> None:
        """End the helper: its stdin closed (it ends after the game in hand),
        killed if it does not end soon."""
        if self.process.stdin is not None:
            with contextlib.suppress(OSError):  # it had ended
                self.process.stdin.close()
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.join()
        if self.process.stdout is not None:
            self.process.stdout.close()


def serve_helper(requests: IO[str], answers: IO[str]) -> int:
    """A helper process's loop (``Helper``): its client from the first line,
    then a row for each game line, until ``requests`` ends."""
    first = requests.readline()
    if not first:
        return 0
    config = json.loads(first)
    with ArbiterClient(config["address"], token=config["token"], tls_ca=config["tls_ca"],
                       tls=config["tls"]) as client:
        for line in requests:
            game = Listed(**json.loads(line))
            try:
                answer: dict[str, Any] = dataclasses.asdict(
                    audit_one(client, game, config["audit_token"]))
            except Exception as exc:  # noqa: BLE001 - told to the caller, who raises it
                answer = {"failed": f"{type(exc).__name__}: {exc}"}
            answers.write(json.dumps(answer) + "\n")
            answers.flush()
    return 0


def rows_over_connections(client: ArbiterClient, games: Sequence[Listed], token: str | None,
                          connections: int, addresses: Sequence[str]) -> Iterator[Row]:
    """Each game's row, in order, audited over ``connections`` connections at
    once: the client's, on this thread, from the first game; more of this
    process's own, each on a thread of its own, up to ``CONNECTIONS_HERE``;
    then a helper process's each. The n-th connection goes to
    ``addresses[n]`` in turn (else to the client's address); each auditor
    takes the next game as it is free."""
    named = list(addresses) or [client.address]
    dealer = Dealer(len(games))
    done: queue.SimpleQueue[Any] = queue.SimpleQueue()
    auditors: list[Here | Helper] = []
    try:
        for n in range(1, connections):
            address = named[n % len(named)]
            auditors.append(Here(address, client, token) if n < CONNECTIONS_HERE
                            else Helper(address, client, token))
            auditors[-1].start(games, dealer, done)
        yield from _in_order(client, games, token, dealer, done)
    finally:
        dealer.stop()
        for auditor in auditors:
            auditor.close()


def _in_order(client: ArbiterClient, games: Sequence[Listed], token: str | None,
              dealer: Dealer, done: queue.SimpleQueue[Any]) -> Iterator[Row]:
    """The rows in the games' order: this thread audits a game whenever one
    is left, and waits on the other auditors' rows once none is."""
    rows: dict[int, Row] = {}
    ready = 0
    while ready < len(games):
        n = dealer.take()
        if n is not None:
            rows[n] = audit_one(client, games[n], token)
        else:
            _kept(done.get(), rows)
        while not done.empty():
            _kept(done.get(), rows)
        while ready in rows:
            yield rows.pop(ready)
            ready += 1


def _kept(item: tuple[int | None, Any], rows: dict[int, Row]) -> None:
    """An auditor's ``(index, row)`` into ``rows``; its error raised."""
    n, row = item
    if n is None:
        raise row
    rows[n] = row


def audit_games(
    client: ArbiterClient, games: Iterable[Any], token: str | None,
    progress: TextIO | None = None, total: int = 0, connections: int | None = None,
    addresses: Sequence[str] = (),
) -> list[Row]:
    """Audit each game; a bar on ``progress`` (a terminal) as it goes.

    ``connections``: how many connections send the audits at once (None: one
    per core, ``default_connections``): the client's and more, to the
    client's address or, given ``addresses``, to one of them in turn
    (``rows_over_connections``). A client that is not an ``ArbiterClient``
    (no address to connect again to) audits over itself alone."""
    listed = [Listed(g.game_id, g.rules, g.version, g.over) for g in games]
    if connections is None and not token:
        # Without the admin token each audit is ten calls of this caller's
        # share: one connection keeps within it.
        connections = 1
    if connections is None:
        connections = (default_connections(len(listed)) if isinstance(client, ArbiterClient)
                       else 1)
    audited: Iterable[Row] = (
        rows_over_connections(client, listed, token, connections, addresses)
        if connections > 1 and len(listed) > 1
        else (audit_one(client, game, token) for game in listed))
    rows: list[Row] = []
    for done, row in enumerate(audited, start=1):
        rows.append(row)
        if progress is not None:
            _bar(progress, done, total, sum(not r.ok for r in rows))
    if progress is not None and rows:
        progress.write("\n")
        progress.flush()
    return rows


def _bar(out: TextIO, done: int, total: int, failed: int, width: int = 30) -> None:
    total = max(total, done)
    filled = width * done // total if total else width
    out.write(f"\raudit [{'#' * filled}{'.' * (width - filled)}] {done}/{total}"
              + (f"  {failed} FAILED" if failed else ""))
    out.flush()


def render_summary(rows: list[Row]) -> str:
    """The summary table, then the failures' problems, then a total line."""
    if not rows:
        return "(no games to audit)"
    lines = [f"{'GAME ID':<36}  {'RULES':<8} {'EVENTS':>6}  {'STATUS':<8} RESULT"]
    for row in rows:
        status = "over" if row.over else "running"
        lines.append(f"{row.game_id:<36}  {row.rules:<8} {row.version:>6}  {status:<8} "
                     f"{row.result}")
    for row in rows:
        shown = row.problems if not row.ok else [p for p in row.problems if p.startswith("note")]
        lines.extend(f"  {row.game_id}: {problem}" for problem in shown[:5])
    failed = sum(not r.ok for r in rows)
    lines.append(f"{len(rows)} games audited, {len(rows) - failed} ok, {failed} failed")
    return "\n".join(lines)


def helper_main() -> int:
    """``python -m clients.audit_all``: a helper process (``Helper``). Its rows
    go to the stdout it was given, and anything else printed to stderr; a
    Ctrl-C is its caller's to handle (which closes its stdin)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    with answers:
        return serve_helper(sys.stdin, answers)


if __name__ == "__main__":
    sys.exit(helper_main())
