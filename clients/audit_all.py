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
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import multiprocessing
import os
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, TextIO

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


#: A worker process's own client (``_start_worker``).
_WORKER: dict[str, Any] = {}


def _start_worker(addresses: Any, token: str | None, tls_ca: str | None, tls: bool) -> None:
    """A worker's client, on its own connection, to the next address of the
    ``addresses`` queue (one per worker: each its own server's, when the
    caller names several)."""
    _WORKER["client"] = ArbiterClient(addresses.get(), token=token, tls_ca=tls_ca, tls=tls)


def _audit_in_worker(game: Listed, token: str | None) -> Row:
    return audit_one(_WORKER["client"], game, token)


def rows_in_processes(client: ArbiterClient, games: list[Listed], token: str | None,
                       processes: int, addresses: Sequence[str]) -> Iterator[Row]:
    """Each game's row, in order, audited by ``processes`` worker processes
    (each to one of ``addresses`` in turn, else to the client's address)."""
    context = multiprocessing.get_context("spawn")  # nothing inherited: no gRPC state
    queue = context.SimpleQueue()
    named = list(addresses) or [client.address]
    for n in range(processes):
        queue.put(named[n % len(named)])
    with concurrent.futures.ProcessPoolExecutor(
        processes, mp_context=context, initializer=_start_worker,
        initargs=(queue, client.token, client.tls_ca, client.tls),
    ) as pool:
        yield from pool.map(_audit_in_worker, games, [token] * len(games))


def audit_games(
    client: ArbiterClient, games: Iterable[Any], token: str | None,
    progress: TextIO | None = None, total: int = 0, processes: int | None = None,
    addresses: Sequence[str] = (),
) -> list[Row]:
    """Audit each game; a bar on ``progress`` (a terminal) as it goes.

    ``processes``: how many processes send the audits (None: one per core,
    ``default_processes``), each with its own connection, to the client's
    address or, given ``addresses``, each worker to one of them in turn. A
    client that is not an ``ArbiterClient`` (no address to connect again to)
    audits from this process."""
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
