"""``arbiter audit --all`` and ``--since POSITION``: the whole store audited.

Every game (or every game with events after a global position, for a nightly
job) is sent to the server's ``Audit`` with the admin token; a progress bar
goes to stderr when it is a terminal, and a summary table to stdout. Any
failure (a failed proof, or an audit the server could not run) makes the
exit status non-zero. ``--since`` ends with the new high-water position to
pass next time.

The audits are sent from as many processes as the machine has cores, each
with its own connection: a server audits a game on one core (the replay holds
its interpreter), so a deployment of a server process per core on one port
(``ARBITER_REUSE_PORT``, docs/operations.md), whose kernel hands each
connection to one of them, audits the store on all of its cores at once.
This process is one of them, auditing from its first game; each other is a
helper (``python -m clients.audit_all``) that imports the client and this
module alone, and takes games as it is ready: a process started by
``multiprocessing`` imports its parent's main module again (the CLI's, or a
bench's: up to a second of a short run), before its first game.
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
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, Any, TextIO

import arbiter
from arbiter.client import ArbiterClient, ArbiterError


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


def audit_one(client: Any, game: Listed, token: str | None) -> Row:
    """One game's audit as a summary row."""
    try:
        audit = client.audit(game.game_id, token=token)
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


def default_processes(games: int) -> int:
    """As many processes as cores (at most one per game)."""
    return max(1, min(os.cpu_count() or 1, games))


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
HELPER_ARGS = ("-m", "clients.audit_all")


class Helper:
    """A helper process auditing the games it is handed, one at a time, over
    a connection of its own to ``address``: a game's fields a line on its
    stdin, its row a line on its stdout (``serve_helper``). Its first line
    carries the tokens, so they are on no command line."""

    def __init__(self, address: str, client: ArbiterClient, token: str | None) -> None:
        self.process = subprocess.Popen(
            [sys.executable, *HELPER_ARGS], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, env=helper_env(), text=True, encoding="utf-8")
        self._feeder: threading.Thread | None = None
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

    def feed(self, games: Sequence[Listed], dealer: Dealer, done: queue.SimpleQueue[Any]) -> None:
        """Audit games from ``dealer`` until none is left; each ``(index, row)``
        into ``done``, or ``(None, error)`` on a failure."""
        try:
            while (n := dealer.take()) is not None:
                done.put((n, self.audit(games[n])))
        except Exception as exc:  # noqa: BLE001 - raised again by the caller's loop
            done.put((None, exc))

    def start(self, games: Sequence[Listed], dealer: Dealer,
              done: queue.SimpleQueue[Any]) -> None:
        """``feed`` on a thread of its own."""
        self._feeder = threading.Thread(target=self.feed, args=(games, dealer, done),
                                        name="audit-helper", daemon=True)
        self._feeder.start()

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
        if self._feeder is not None:
            self._feeder.join(timeout=5)
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


def rows_in_processes(client: ArbiterClient, games: Sequence[Listed], token: str | None,
                      processes: int, addresses: Sequence[str]) -> Iterator[Row]:
    """Each game's row, in order, audited by this process (over ``client``)
    and ``processes - 1`` helper processes, each over a connection of its own
    (the n-th helper to ``addresses[n]`` in turn, else to the client's
    address). This process audits from the first game, as the helpers start;
    each auditor takes the next game as it is free."""
    named = list(addresses) or [client.address]
    dealer = Dealer(len(games))
    done: queue.SimpleQueue[Any] = queue.SimpleQueue()
    helpers: list[Helper] = []
    try:
        for n in range(1, processes):
            helpers.append(Helper(named[n % len(named)], client, token))
            helpers[-1].start(games, dealer, done)
        yield from _in_order(client, games, token, dealer, done)
    finally:
        dealer.stop()
        for helper in helpers:
            helper.close()


def _in_order(client: ArbiterClient, games: Sequence[Listed], token: str | None,
              dealer: Dealer, done: queue.SimpleQueue[Any]) -> Iterator[Row]:
    """The rows in the games' order: this process audits a game whenever one
    is left, and waits on the helpers' rows once none is."""
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
    """A helper's ``(index, row)`` into ``rows``; its error raised."""
    n, row = item
    if n is None:
        raise row
    rows[n] = row


def audit_games(
    client: ArbiterClient, games: Iterable[Any], token: str | None,
    progress: TextIO | None = None, total: int = 0, processes: int | None = None,
    addresses: Sequence[str] = (),
) -> list[Row]:
    """Audit each game; a bar on ``progress`` (a terminal) as it goes.

    ``processes``: how many processes send the audits (None: one per core,
    ``default_processes``): this one over the client's connection, and
    helpers, each with its own connection to the client's address or, given
    ``addresses``, to one of them in turn (``rows_in_processes``). A client
    that is not an ``ArbiterClient`` (no address to connect again to) audits
    from this process alone."""
    listed = [Listed(g.game_id, g.rules, g.version, g.over) for g in games]
    if processes is None:
        processes = default_processes(len(listed)) if isinstance(client, ArbiterClient) else 1
    audited: Iterable[Row] = (
        rows_in_processes(client, listed, token, processes, addresses)
        if processes > 1 and len(listed) > 1
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
