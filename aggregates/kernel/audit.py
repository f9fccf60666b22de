"""Re-verification of a recorded game from its events alone.

Three independent checks, each of which a third party can repeat once the
seed is revealed:

1. the hash chain: every digest recomputed, every link to its predecessor;
2. the dice: the seed matches its public commitment, every draw is
   ``rng.draw(seed, counter, sides)`` and the counters run without a gap;
3. re-execution: the game is rebuilt from its creation event and every
   recorded command is played again; it must produce exactly the recorded
   events (types, payloads, dice), which proves each move was legal and each
   consequence followed from the rules.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from aggregates.kernel import chain, rng
from aggregates.kernel.errors import RuleError
from aggregates.kernel.game import DEFAULT_COMMAND, Game, event_type, payload_of


@dataclasses.dataclass
class AuditReport:
    events: int = 0
    dice: int = 0
    commands: int = 0
    chain_ok: bool = True
    dice_ok: bool = True
    replay_ok: bool = True
    problems: list[str] = dataclasses.field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.chain_ok and self.dice_ok and self.replay_ok

    def fail(self, check: str, problem: str) -> None:
        setattr(self, f"{check}_ok", False)
        if len(self.problems) < 50:
            self.problems.append(f"{check}: {problem}")


def audit(events: Sequence[Any], game_class: type[Game]) -> AuditReport:
    """Check a game's stored events (in version order) against all three proofs."""
    report = AuditReport(events=len(events))
    if not events:
        report.fail("chain", "no events")
        return report
    seed = payload_of(events[0]).get("seed", "")
    check_chain(events, seed, report)
    check_dice(events, seed, report)
    check_replay(events, game_class, report)
    return report


def check_chain(events: Sequence[Any], seed: str, report: AuditReport) -> None:
    """Every digest recomputed (with its seed-derived salt) and linked to the one before."""
    try:
        bytes.fromhex(seed)
    except ValueError:
        report.fail("chain", "the seed is not hex")
        return
    prev = chain.GENESIS
    for expected_version, ev in enumerate(events, start=1):
        meta = ev.meta
        if ev.originator_version != expected_version:
            report.fail(
                "chain", f"version {ev.originator_version} where {expected_version} was due"
            )
        if meta.get("prev") != prev:
            report.fail(
                "chain", f"version {ev.originator_version} does not link to its predecessor"
            )
        recomputed = chain.digest(
            prev, str(ev.originator_id), ev.originator_version, event_type(ev),
            ev.timestamp.isoformat(), payload_of(ev), meta,
            chain.salt(seed, ev.originator_version),
        )
        if recomputed != meta.get("digest"):
            report.fail("chain", f"version {ev.originator_version} digest does not match")
        prev = meta.get("digest", "")


def check_dice(events: Sequence[Any], seed: str, report: AuditReport) -> None:
    commitment = payload_of(events[0]).get("commitment", "")
    try:
        if rng.commitment(seed) != commitment:
            report.fail("dice", "the seed does not match its commitment")
            return
    except ValueError:
        report.fail("dice", "the seed is not hex")
        return
    counter = 0
    for ev in events:
        for drawn_counter, sides, value in ev.meta.get("draws", []):
            report.dice += 1
            if drawn_counter != counter:
                report.fail("dice", f"draw {drawn_counter} where {counter} was due")
            if rng.draw(seed, drawn_counter, sides) != value:
                report.fail("dice", f"draw {drawn_counter} (D{sides}) was not {value}")
            counter = drawn_counter + 1
        if ev.meta.get("rng") != counter:
            report.fail("dice", f"version {ev.originator_version} rng counter is off")


#: Meta keys Kernel 2 added: an event recorded before them has nothing to compare.
KERNEL2_META = ("aud", "pub")


def _fingerprint(ev: Any, legacy: bool = False) -> tuple[str, str, str]:
    """What must be equal on re-execution: type, payload, and meta (less the
    chain links, which the chain check covers). ``legacy``: compare with an
    event recorded before audiences were recorded, so leave those out."""
    skip = ("digest", "prev", *KERNEL2_META) if legacy else ("digest", "prev")
    meta = {k: v for k, v in ev.meta.items() if k not in skip}
    return (event_type(ev), chain.canonical(payload_of(ev)), chain.canonical(meta))


def check_replay(events: Sequence[Any], game_class: type[Game], report: AuditReport) -> None:
    """Rebuild from the creation event and play every recorded command again."""
    created = events[0]
    try:
        game = created.mutate(None)
    except Exception as exc:  # a corrupt creation event cannot be rebuilt
        report.fail("replay", f"cannot rebuild from the creation event: {exc}")
        return
    if not isinstance(game, game_class):
        report.fail("replay", "the creation event is for another game")
        return
    game.begin()
    produced: list[Any] = list(game.collect_events())
    for ev in events[1:]:
        command = ev.meta.get("cmd")
        if command is None:
            continue
        report.commands += 1
        try:
            if command["name"] == DEFAULT_COMMAND:
                game.act_default(command["seat"])
            else:
                parsed = game_class.COMMANDS.parse(command["name"], command["args"])
                game.act(command["seat"], parsed, command.get("id", ""))
        except RuleError as exc:
            # The reason code only: the rule's sentence may quote private arguments.
            report.fail(
                "replay", f"version {ev.originator_version}: refused on replay ({exc.reason})"
            )
            return
        produced.extend(game.collect_events())
    recorded = [_fingerprint(ev) for ev in events[1:]]
    legacy = ["aud" not in ev.meta for ev in events[1:]]
    again = [
        _fingerprint(ev, legacy[i] if i < len(legacy) else False)
        for i, ev in enumerate(produced)
    ]
    if recorded != again:
        for offset, (a, b) in enumerate(zip(recorded, again, strict=False), start=2):
            if a != b:
                report.fail("replay", f"version {offset} differs on re-execution")
                break
        else:
            report.fail("replay", f"{len(recorded)} events recorded, {len(again)} re-executed")
