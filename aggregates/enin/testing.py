"""Arrangement helpers for tests and demos (the rules never import this).

``arrange`` sets state fields directly; ``rig`` moves the game's draw counter to
the next point where the seed yields the dice a test needs, so every roll still
comes from ``rng.draw``. A rigged or arranged game is no longer replayable
from its events (use plain play for audit tests).
"""

from __future__ import annotations

import itertools
from typing import Any

from aggregates.enin import state as r
from aggregates.enin.game import Enin
from aggregates.kernel import Command
from aggregates.kernel.record import rng
from aggregates.kernel.testing import arrange as kernel_arrange

SEED = "e" * 64


def new_game(seed: str = SEED, **state: Any) -> Enin:
    """A started game, arranged: ``new_game(location=2, stage="questing", gold=30)``."""
    game = Enin.start(["solo"], seed=seed)
    game.collect_events()
    arrange(game, **state)
    return game


def arrange(game: Enin, **state: Any) -> Enin:
    kernel_arrange(game, **state)
    if "location" in state and "stage" not in state and game.stage == r.START:
        game.stage = r.TRAVEL
    return game


def in_combat(game: Enin, monster: dict[str, Any], stage: str = r.COMBAT,
              card: str = "encounter_1") -> Enin:
    """Put a monster (as printed: name, att, dam, poisons, xp, flee, treasure) in front."""
    full = {"name": "Test", "att": 10, "dam": "1", "poisons": False, "xp": "1",
            "flee": 0, "treasure": 0, **monster}
    return arrange(game, stage=stage,
                   encounter={"card": card, "level": game.level, "roll": 1, "monster": full})


def rig(game: Enin, *dice: tuple[int, int | None], limit: int = 3_000_000) -> int:
    """Make the next draws come out as ``(sides, value)`` (value None: any).

    Searches draw counters from the current one on and moves the game there.
    """
    start = game.rng_counter
    for counter in itertools.count(start):
        if counter - start > limit:
            raise RuntimeError(f"no counter gives {dice}")
        if all(
            value is None or rng.draw(game.seed, counter + i, sides) == value
            for i, (sides, value) in enumerate(dice)
        ):
            game.rng_counter = counter
            return counter
    raise AssertionError("unreachable")


def d10(*values: int | None) -> list[tuple[int, int | None]]:
    return [(10, v) for v in values]


def act(game: Enin, command: Command) -> list[str]:
    """Play one command; return the names of the events it caused."""
    game.act(0, command)
    return [type(e).__name__ for e in game.collect_events()]


def events(game: Enin, command: Command) -> list[Any]:
    game.act(0, command)
    return list(game.collect_events())
