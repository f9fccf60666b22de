"""The bots' levels: random, greedy on the game's own result, and IS-MCTS.

Each is a callable ``Observation -> Move`` (``clients.bots.seat``) holding
its own seeded generator, so a game played by bots is reproducible.

- ``RandomBot``: a legal command uniformly at random (the server's old bot).
- ``GreedyBot``: each legal command (at most ``width``, a random subset when
  there are more) is played in a sampled world and followed by one short
  random playout (``depths``, within its share of the time budget); the
  command whose world is worth most to the seat (``playout.worth``: the game's
  own ranking and score margin, so far or at the end) is played. One look
  ahead, no search.
- ``ISMCTS``: single-observer information-set Monte Carlo tree search
  (Cowling, Powley and Whitehouse, 2012). Each iteration samples a world from
  the seat's belief (``clients.bots.determinisation``), walks a tree shared
  by all worlds (edges are commands; a child is chosen by UCB among those
  legal in this world, with availability counts), adds one node, plays out at
  random (``depths``) and backs up each mover's worth. A first pass
  gives up to ``width`` root commands one iteration each, as greedy's
  candidates get; then UCB's iterations run to the time budget (or to
  ``iterations``, for reproducible tests). It plays the root's most visited
  command, the better mean among as many visits.

Both levels cut their playouts short only in a game whose standings give a
score before the end (``playout.scored_in_progress``): there a short playout
says nearly what a whole one does, at a fraction of its cost, so a decision
runs many more of them. How short is the game's own say
(``playout.depth_of``): a few moves where its standings score it as if it
ended now, more where they count only what was scored so far. Elsewhere a
playout runs to the end (or the deadline), since a cut one would say nothing.
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
    """Play the observed command ``item`` in a sampled world, when that
    world's rules list it too (a world plays unguarded: ``determinisation``)."""
    return item.command in p.legal_commands(world, seat) and p.act(world, seat, item.command)


class GreedyBot:
    """One sampled world and one short playout per candidate command, within
    the budget; the candidate whose world is worth most to the seat wins."""

    level = "greedy"

    def __init__(self, seed: int | str = 0, width: int = 12, budget: float | None = 0.5,
                 depths: p.Depths = p.DEPTHS, limit: int = p.MAX_PLAYOUT_MOVES) -> None:
        self.rng = random.Random(seed)
        self.width = width
        #: Seconds a decision may take (its candidates share them); None: no
        #: deadline, each playout to its depth (reproducible, for tests).
        self.budget = budget
        #: Moves a playout runs in a game scored in progress, by what its
        #: standings say (``playout.depth_of``).
        self.depths = depths
        #: Moves a playout may last elsewhere (a world still running is even).
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
        self.rng.shuffle(candidates)
        candidates = candidates[:self.width]
        started = time.perf_counter()
        best, best_worth = candidates[0], -1.0
        for n, item in enumerate(candidates):
            world = obs.belief.sample(self.rng)
            limit = p.depth_of(world, self.depths, self.limit)
            if not find(world, obs.seat, item):
                continue
            stop = (None if self.budget is None
                    else started + self.budget * (n + 1) / len(candidates))
            worth = p.playout(world, self.rng, limit, stop)[obs.seat]
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
                 depths: p.Depths = p.DEPTHS, limit: int = p.MAX_PLAYOUT_MOVES,
                 width: int = 12) -> None:
        self.rng = random.Random(seed)
        #: Commands the first pass tries once each (greedy's width).
        self.width = width
        #: Moves a playout runs in a game scored in progress, by what its
        #: standings say (``playout.depth_of``), and elsewhere.
        self.depths = depths
        self.limit = limit
        self.budget = budget
        self.iterations = iterations
        #: UCB's exploration constant, on the spread of the worths seen.
        self.exploration = exploration
        self.seen = (math.inf, -math.inf)
        #: Iterations of the last decision (the harness reports them), and
        #: its root's children by command.
        self.last_iterations = 0
        self.last_root: dict[str, Node] = {}

    def __call__(self, obs: Observation) -> Move:
        if not obs.legal:
            raise no_move(obs)
        if len(obs.legal) == 1:
            only = obs.legal[0]
            return Move(only.command, only.decision_id, "ismcts: the only move")
        need_belief(obs, self.level)
        assert obs.belief is not None
        root = Node(mover=obs.seat)
        #: The lowest and highest worth backed up in this search: UCB's
        #: exploration is scaled to their spread (``iterate``).
        self.seen = (math.inf, -math.inf)
        started = time.perf_counter()
        # A first pass gives each of up to ``width`` commands one iteration,
        # each playout within its share of the budget, as greedy's do: the
        # search never knows less than the level below it. The iterations
        # after it (UCB's) run until the deadline, a playout still running
        # there valued where it stopped. So a decision takes its budget, or
        # the first pass when that is longer.
        first = min(len(obs.legal), self.width)
        # The root's commands: up to ``width`` of the legal ones, drawn once
        # for the decision as greedy draws its candidates, so the iterations
        # after the first pass sample these again rather than spend the
        # budget trying every other legal command once.
        candidates = list(obs.legal)
        self.rng.shuffle(candidates)
        allowed = {item.key() for item in candidates[:self.width]}
        limit = p.depth_of(obs.belief.sample(self.rng), self.depths, self.limit)
        done = 0
        while self.more(done, first, started):
            self.iterate(obs, root, limit, self.stop(done, first, started), allowed)
            done += 1
        self.last_iterations = done
        self.last_root = root.children
        by_key = {item.key(): item for item in obs.legal}
        # Most visited; among as many visits (a search that did little more
        # than its first pass), the better mean.
        visited = [(child.visits, child.total / max(child.visits, 1), -i, k)
                   for i, (k, child) in enumerate(root.children.items()) if k in by_key]
        if not visited:
            pick = self.rng.choice(obs.legal)
            return Move(pick.command, pick.decision_id, "ismcts: no iteration finished")
        visits, mean, _, best = max(visited)
        chosen = by_key[best]
        return Move(chosen.command, chosen.decision_id,
                    f"ismcts: {visits}/{done} visits, {mean:.2f}")

    def more(self, done: int, first: int, started: float) -> bool:
        """Whether to run another iteration: a fixed count, else the first
        pass and then the budget."""
        if self.iterations is not None:
            return done < self.iterations
        return done < first or time.perf_counter() < started + self.budget

    def stop(self, done: int, first: int, started: float) -> float | None:
        """When iteration ``done``'s playout stops: its share of the budget in
        the first pass, the deadline after it (none for a fixed count)."""
        if self.iterations is not None:
            return None
        return started + self.budget * min(done + 1, first) / first

    def iterate(self, obs: Observation, root: Node, limit: int,
                stop: float | None = None, allowed: set[str] | None = None) -> None:
        """One world: select, expand one node, play out, back up. At the root
        only the ``allowed`` commands are tried (all of them when none of
        those is legal in this world)."""
        assert obs.belief is not None
        world = obs.belief.sample(self.rng)
        node, path, mover = root, [], obs.seat
        while not world.ended:
            options = {key(c): c for c in p.legal_commands(world, mover)}
            if node is root and allowed:
                options = {k: c for k, c in options.items() if k in allowed} or options
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
                # Exploration on the scale of the worths seen: short playouts
                # leave most worlds near even, and an unscaled constant would
                # spread the visits evenly whatever the means say. Equal
                # bounds are settled at random, not by the legal list's order.
                scale = self.exploration * max(self.seen[1] - self.seen[0], 0.01)
                chosen = max(options, key=lambda k: (node.children[k].ucb(scale),
                                                     self.rng.random()))
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
        worth = p.playout(world, self.rng, limit, stop)
        for visited in path:
            visited.visits += 1
            visited.total += worth[visited.mover]
            self.seen = (min(self.seen[0], worth[visited.mover]),
                         max(self.seen[1], worth[visited.mover]))
