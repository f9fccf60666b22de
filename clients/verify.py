"""Offline re-verification of a finished game from its event history alone.

The server's ``Audit`` re-executes every command; this module lets anyone
check the two proofs that need no rules code, on their own machine, from what
``History`` returns once the game is over (or to the admin): the hash chain
(every digest recomputed with its seed-derived salt and linked to the one
before) and the dice (the seed matches its public commitment, and every
recorded die is ``draw(seed, counter, sides)`` with no counter skipped,
the seed mixed with the entropy contributions recorded before it).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable, Sequence
from datetime import UTC

from arbiter.v1 import game_pb2

from aggregates.kernel.record import chain, rng
from aggregates.kernel.record.audit import Record, added_entropy, contribution_used
from aggregates.kernel.record.verify import Verdict


@dataclasses.dataclass
class Verification:
    events: int = 0
    dice: int = 0
    problems: list[str] = dataclasses.field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems and self.events > 0


def verify_history(events: Iterable[game_pb2.Event]) -> Verification:
    """Check a whole game's History (full record: seed and dice included)."""
    result = Verification()
    history = list(events)
    result.events = len(history)
    if not history or history[0].type != "Created":
        result.problems.append("the history does not start with the creation event")
        return result
    created = json.loads(history[0].payload_json)
    seed = created.get("seed", "")
    if not seed:
        result.problems.append("the seed is not revealed (the game is not over?)")
        return result
    if rng.commitment(seed) != created.get("commitment"):
        result.problems.append("the seed does not match its commitment")
    prev, counter = chain.GENESIS, 0
    contributions: list[str] = []
    for expected, ev in enumerate(history, start=1):
        if not ev.meta_json:
            result.problems.append(f"version {ev.version}: no dice record (not a full read)")
            return result
        meta = json.loads(ev.meta_json)
        if ev.version != expected or ev.prev_digest != prev:
            result.problems.append(f"version {ev.version}: the chain is broken here")
        again = chain.digest(
            prev, ev.game_id, ev.version, ev.type,
            ev.time.ToDatetime(tzinfo=UTC).isoformat(),
            json.loads(ev.payload_json), meta, chain.salt(seed, ev.version),
        )
        if again != ev.digest:
            result.problems.append(f"version {ev.version}: the digest does not match")
        contributions += added_entropy(ev.type, json.loads(ev.payload_json))
        try:
            dice_seed = rng.dice_seed(seed, contributions)
        except ValueError:
            result.problems.append(f"version {ev.version}: recorded entropy is not hex")
            return result
        for drawn, sides, value in meta.get("draws", []):
            result.dice += 1
            if drawn != counter or rng.draw(dice_seed, drawn, sides) != value:
                result.problems.append(f"version {ev.version}: die {drawn} is not fair")
            counter = drawn + 1
        prev = ev.digest
    return result


def my_contribution(
    records: Sequence[Record], verdict: Verdict, entropy_hex: str
) -> tuple[bool, str]:
    """Whether a seat's own entropy was used for the dice, in a sentence.

    Used means: recorded (in the creation event or a seat's ``EntropyAdded``)
    and the dice after it re-derived with it. Before the end the dice cannot
    be re-derived yet, so the answer is only that it is on the record.
    """
    version = contribution_used(records, entropy_hex)
    if not version:
        return False, f"your entropy {entropy_hex}: NOT on the record; it was not used"
    where = "the creation event" if version == 1 else f"version {version}"
    if not verdict.ok:
        return False, f"your entropy {entropy_hex}: recorded in {where}, but the dice do not verify"
    if not records[0].payload.get("seed"):
        return True, (f"your entropy {entropy_hex}: recorded in {where}; every die drawn "
                      "after it uses it, checkable once the seed is revealed at the end")
    return True, (f"your entropy {entropy_hex}: used, recorded in {where} and mixed into "
                  "every die drawn after it, each re-derived")
