"""``arbiter audit --all`` and ``--since POSITION``: the whole store audited.

Every game (or every game with events after a global position, for a nightly
job) is sent to the server's ``Audit`` with the admin token; a progress bar
goes to stderr when it is a terminal, and a summary table to stdout. Any
failure (a failed proof, or an audit the server could not run) makes the
exit status non-zero. ``--since`` ends with the new high-water position to
pass next time.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
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


def audit_games(
    client: ArbiterClient, games: Iterable[Any], token: str | None,
    progress: TextIO | None = None, total: int = 0,
) -> list[Row]:
    """Audit each game; a bar on ``progress`` (a terminal) as it goes."""
    rows = []
    for done, game in enumerate(games, start=1):
        try:
            audit = client.audit(game.game_id, token=token)
        except ArbiterError as exc:
            # A running game without the admin token: not audited (the CLI
            # has said once where it looked for the token), not an error.
            result = "not audited: needs the admin token" if exc.reason == "NO_TOKEN" \
                else f"error {exc.reason}"
            rows.append(Row(game.game_id, game.rules, game.version, game.over,
                            result, False, [exc.message]))
        else:
            ok = audit.chain_ok and audit.dice_ok and audit.replay_ok and not audit.bad_snapshots
            if ok:
                result = "ok" if audit.over else "ok so far"
                if any(p.startswith("note: ") for p in audit.problems):
                    result += ", not re-executed (see its note)"
            else:
                result = f"FAILED at v{audit.first_failure}" if audit.first_failure else "FAILED"
            rows.append(Row(game.game_id, game.rules, audit.events, audit.over, result, ok,
                            list(audit.problems)))
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
