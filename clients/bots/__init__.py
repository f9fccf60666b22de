"""Bots for every game, through the kernel's generic surface.

A bot is a function from one seat's observation (its view, its legal
commands, the events as it read them, and a belief to sample hidden worlds
from) to a move: ``clients.bots.seat``. The levels (``clients.bots.levels``):
random, greedy on the game's own result, and information-set MCTS at a time
budget per decision. Determinisation (``clients.bots.determinisation``) draws
the worlds a seat may be in from what it cannot see; a bot with only its
seat's record (over the server's stream) guesses the game it is in from that
record first (``clients.bots.belief``); simulation runs on the rules in
process (``clients.bots.playout``).
"""

from clients.bots.belief import Guess, belief_from_record
from clients.bots.determinisation import Determiniser, NoBelief
from clients.bots.levels import ISMCTS, GreedyBot, RandomBot
from clients.bots.playout import DEPTHS, Depths
from clients.bots.seat import Belief, Bot, Legal, Move, Observation, observe

LEVELS = ("random", "greedy", "ismcts")


def make(level: str, seed: int | str = 0, budget: float = 0.5,
         depths: Depths = DEPTHS) -> Bot:
    """A bot of ``level`` with its own seeded generator (``budget``: a
    searching level's seconds per decision; ``depths``: its playouts' depths,
    ``playout.Depths``, the measured ones unless a soak tries others)."""
    if level == "random":
        return RandomBot(seed)
    if level == "greedy":
        return GreedyBot(seed, budget=budget, depths=depths)
    if level == "ismcts":
        return ISMCTS(seed, budget=budget, depths=depths)
    raise ValueError(f"UNKNOWN_LEVEL: {level!r} is not one of {', '.join(LEVELS)}")


__all__ = [
    "ISMCTS",
    "LEVELS",
    "DEPTHS",
    "Belief",
    "Bot",
    "Depths",
    "Determiniser",
    "GreedyBot",
    "Guess",
    "Legal",
    "Move",
    "NoBelief",
    "Observation",
    "RandomBot",
    "belief_from_record",
    "make",
    "observe",
]
