"""Bots for every game, through the kernel's generic surface.

A bot is a function from one seat's observation (its view, its legal
commands, the events as it read them, and a belief to sample hidden worlds
from) to a move: ``clients.bots.seat``. The levels (``clients.bots.levels``):
random, greedy on the game's own result, and information-set MCTS at a time
budget per decision. Determinisation (``clients.bots.determinisation``) draws
the worlds a seat may be in from what it cannot see; simulation runs on the
rules in process (``clients.bots.playout``).
"""

from clients.bots.determinisation import Determiniser, NoBelief
from clients.bots.levels import ISMCTS, GreedyBot, RandomBot
from clients.bots.seat import Belief, Bot, Legal, Move, Observation, observe

LEVELS = ("random", "greedy", "ismcts")


def make(level: str, seed: int | str = 0, budget: float = 0.5) -> Bot:
    """A bot of ``level`` with its own seeded generator (``budget``: a
    searching level's seconds per decision)."""
    if level == "random":
        return RandomBot(seed)
    if level == "greedy":
        return GreedyBot(seed, budget=budget)
    if level == "ismcts":
        return ISMCTS(seed, budget=budget)
    raise ValueError(f"UNKNOWN_LEVEL: {level!r} is not one of {', '.join(LEVELS)}")


__all__ = [
    "ISMCTS",
    "LEVELS",
    "Belief",
    "Bot",
    "Determiniser",
    "GreedyBot",
    "Legal",
    "Move",
    "NoBelief",
    "Observation",
    "RandomBot",
    "make",
    "observe",
]
