"""The bots' levels: random, greedy on the game's own result, and IS-MCTS.

Each is a callable ``Observation -> Move`` (``clients.bots.seat``) holding
its own seeded generator, so a game played by bots is reproducible.

- ``RandomBot``: a legal command uniformly at random (the server's old bot).
- ``GreedyBot``: each legal command (at most ``width``, a random subset when
  there are more) is played in a sampled world and followed by one random
  playout; the command whose end ranks the seat best (the game's own score
  and tie-breaks, ``Game.standings``) is played. One look ahead, no search.
- ``ISMCTS``: single-observer information-set Monte Carlo tree search
  (Cowling, Powley and Whitehouse, 2012). Each iteration samples a world from
  the seat's belief (``clients.bots.determinisation``), walks a tree shared
  by all worlds (edges are commands; a child is chosen by UCB among those
  legal in this world, with availability counts), adds one node, plays out at
  random and backs up each mover's worth. It stops at its time budget (or
  after ``iterations``, for reproducible tests) and plays the root's most
  visited command.
"""

from __future__ import annotations

import math
import random
import time

from aggregates.kernel import Game
from clients.bots import playout as p
from clients.bots.seat import Legal, Move, Observation, no_move


class RandomBot:
    """A legal command uniformly at random."""

    level = "random"

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = random.Random(seed)

    def __call__(self, obs: Observation) -> Move:
        if not obs.legal:
            raise no_move(obs)
        pick = self.rng.choice(obs.legal)
        return Move(pick.command, pick.decision_id, "random")


def need_belief(obs: Observation, level: str) -> None:
    if obs.belief is None:
        raise ValueError(f"NO_BELIEF: the {level} bot samples worlds and seat "
                         f"{obs.seat} was observed without a belief")


def find(world: Game, seat: int, item: Legal) -> bool:
    """Play the observed command ``item`` in a sampled world."""
    return p.act(world, seat, item.command)


class GreedyBot:
    """One sampled world and one playout per candidate command; the best end wins."""

    level = "greedy"

    def __init__(self, seed: int | str = 0, width: int = 12,
                 limit: int = p.MAX_PLAYOUT_MOVES) -> None:
        self.rng = random.Random(seed)
        self.width = width
        #: Moves a playout may last (a world still running is a draw).
        self.limit = limit

    def __call__(self, obs: Observation) -> Move:
        if not obs.legal:
            raise no_move(obs)
        if len(obs.legal) == 1:
            only = obs.legal[0]
            return Move(only.command, only.decision_id, "greedy: the only move")
        need_belief(obs, self.level)
        assert obs.belief is not None
        candidates = list(obs.legal)
        if len(candidates) > self.width:
            candidates = self.rng.sample(candidates, self.width)
        best, best_worth = candidates[0], -1.0
        for item in candidates:
            world = obs.belief.sample(self.rng)
            if not find(world, obs.seat, item):
                continue
            worth = p.playout(world, self.rng, self.limit)[obs.seat]
            if worth > best_worth:
                best, best_worth = item, worth
        return Move(best.command, best.decision_id, f"greedy: {best_worth:.2f}")


class Node:
    """A tree node: the move into it, whose it was, and its statistics."""

    __slots__ = ("available", "children", "mover", "total", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.visits = 0
        self.total = 0.0
        self.available = 0
        self.children: dict[str, Node] = {}

    def ucb(self, exploration: float) -> float:
        mean = self.total / self.visits
        return mean + exploration * math.sqrt(math.log(max(self.available, 1)) / self.visits)


def key(command: object) -> str:
    """A command as a tree edge (its name and arguments)."""
    return Legal(command, "").key()  # type: ignore[arg-type]


class ISMCTS:
    """Information-set MCTS on sampled worlds, at a time budget per decision."""

    level = "ismcts"

    def __init__(self, seed: int | str = 0, budget: float = 0.5,
                 iterations: int | None = None, exploration: float = 0.7,
                 limit: int = p.MAX_PLAYOUT_MOVES) -> None:
        self.rng = random.Random(seed)
        self.limit = limit
        self.budget = budget
        self.iterations = iterations
        self.exploration = exploration
        #: Iterations of the last decision (the harness reports them).
        self.last_iterations = 0

    def __call__(self, obs: Observation) -> Move:
        if not obs.legal:
            raise no_move(obs)
        if len(obs.legal) == 1:
            only = obs.legal[0]
            return Move(only.command, only.decision_id, "ismcts: the only move")
        need_belief(obs, self.level)
        root = Node(mover=obs.seat)
        deadline = time.perf_counter() + self.budget
        done = 0
        # The first playout always runs to the end (a search with no finished
        # playout would be a random move); any later one still running at the
        # deadline stops there, as a draw. So a decision takes its budget, or
        # one playout when that is longer.
        stop = None if self.iterations is not None else deadline
        while self.more(done, deadline):
            self.iterate(obs, root, stop if done else None)
            done += 1
        self.last_iterations = done
        by_key = {item.key(): item for item in obs.legal}
        visited = [(child.visits, -i, k) for i, (k, child) in enumerate(root.children.items())
                   if k in by_key]
        if not visited:
            pick = self.rng.choice(obs.legal)
            return Move(pick.command, pick.decision_id, "ismcts: no iteration finished")
        visits, _, best = max(visited)
        chosen = by_key[best]
        return Move(chosen.command, chosen.decision_id, f"ismcts: {visits}/{done} visits")

    def more(self, done: int, deadline: float) -> bool:
        """Whether to run another iteration: a fixed count, else the budget (at least one)."""
        if self.iterations is not None:
            return done < self.iterations
        return done < 1 or time.perf_counter() < deadline

    def iterate(self, obs: Observation, root: Node, stop: float | None = None) -> None:
        """One world: select, expand one node, play out, back up."""
        assert obs.belief is not None
        world = obs.belief.sample(self.rng)
        node, path, mover = root, [], obs.seat
        while not world.ended:
            options = {key(c): c for c in p.legal_commands(world, mover)}
            if not options:
                break
            untried = [k for k in options if k not in node.children]
            for k in options:
                if k in node.children:
                    node.children[k].available += 1
            if untried:
                chosen = self.rng.choice(untried)
                child = node.children[chosen] = Node(mover)
                child.available = 1
            else:
                chosen = max(options, key=lambda k: node.children[k].ucb(self.exploration))
                child = node.children[chosen]
            if not p.act(world, mover, options[chosen]):
                if child.visits == 0:
                    del node.children[chosen]
                break
            path.append(child)
            node = child
            if untried:
                break
            nxt = p.acting_seat(world)
            if nxt is None:
                break
            mover = nxt
        worth = p.playout(world, self.rng, self.limit, stop)
        for visited in path:
            visited.visits += 1
            visited.total += worth[visited.mover]
