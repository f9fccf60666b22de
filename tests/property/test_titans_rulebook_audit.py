"""Random Titans games checked against the rulebook's arithmetic, as an
independent checker would check a recorded game.

The rules decide; this test re-derives each decision from the rulebook alone,
reading the board as it stood before the command (the armies, control,
Strongholds, Capitols, hands), and compares it with what the events record:

- "Managing the Order Cards": the Pool each turn chooses from (2 players: 4, 3,
  2, then 4, 3, 2, then 3, 2 — the 2-player exception; 3 players: 5, 4, 3, 2
  three times; 4 players: 4, 3, 2 four times);
- "1) Beginning of the Battle": a die per unit while the set of 8 holds (3
  Infantry, 2 Cavalry, 1 Artillery; a Titan rolls 1 Titan die), the Defender's
  stage first, the Attacker's first at a Stronghold or an undamaged Capitol;
- "4) Battle Outcome": the Attacker wins only by exceeding; 0-2 / 3-4 / 5+
  destroy 0 / 1 / 2 units (as many as there are, then counted as 4), draw 1 / 2
  / 3 Support Cards, score 1 / 2 / 4 VP, +1 for a Titan destroyed, +1 for a
  Stronghold destroyed, +3 for a Capitol; the Attacker withdraws to where each
  unit came from, the Defender into one adjacent region he controls, else one
  adjacent Empty Region;
- "End of the Round": 1 VP per region controlled, the Starting Player Token
  counter-clockwise, the Reinforcements from the new Starting Player
  clockwise, each player both before the next;
- "End of the Game": most VP, then more regions, then more units on the map,
  then the earlier turn in the last Round.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

import pytest

from aggregates.kernel import event_type, payload_of
from aggregates.titans import Titans, regions
from tests import soak

GAMES_PER_COUNT = soak.games(3)  # a game is cheap: no invariants, no replay
ENDING = {"end_orders", "end_stage", "decline"}
#: The rulebook's Pool sizes, turn by turn through a Round ("Examples").
POOLS = {2: [4, 3, 2, 4, 3, 2, 3, 2], 3: [5, 4, 3, 2] * 3, 4: [4, 3, 2] * 4}
#: The Battle Outcome tiers: units destroyed, Support Cards drawn, VP.
TIERS = ((2, (0, 1, 1)), (4, (1, 2, 2)))
SET_OF_DICE = {"infantry": 3, "cavalry": 2, "artillery": 1, "titan": 1}


def tier(difference: int) -> tuple[int, int, int]:
    return next((t for high, t in TIERS if difference <= high), (2, 3, 4))


class Checker:
    """What the rulebook says each recorded fact must be, from the board before."""

    def __init__(self, game: Titans) -> None:
        self.players = len(game.seats)
        self.pools: list[int] = []
        self.titan_lost = False
        self.reinforcing: list[tuple[int, int]] = []
        self.checked: Counter[str] = Counter()

    def check(self, before: Titans, after: Titans, kind: str, p: dict[str, Any]) -> None:
        handler = getattr(self, kind, None)
        if handler is not None:
            handler(before, after, p)
            self.checked[kind] += 1

    def OrderTaken(self, before: Titans, after: Titans, p: dict[str, Any]) -> None:
        self.pools.append(len(before.order_pool))

    def BattleBegun(self, before: Titans, after: Titans, p: dict[str, Any]) -> None:
        region, defender = p["region"], p["defender"]
        capitol = before.capitols.get(region)
        fortified = region in before.strongholds or (
            capitol is not None and capitol["owner"] == defender and not capitol["damaged"])
        assert p["fortified"] == fortified
        assert p["order"] == (["attacker", "defender"] if fortified else ["defender", "attacker"])
        for side in p["sides"].values():
            units = Counter(t["unit"] for t in side["troops"])
            dice = Counter(d["die"] for d in side["pool"])
            assert dice == Counter({u: min(n, SET_OF_DICE[u]) for u, n in units.items()}), side
        self.titan_lost = False

    def BattleWon(self, before: Titans, after: Titans, p: dict[str, Any]) -> None:
        attack, defence = p["attacker_strength"], p["defender_strength"]
        assert (p["winner_role"] == "attacker") == (attack > defence)
        assert p["difference"] == abs(attack - defence)
        assert before.battle is not None
        loser = "defender" if p["winner_role"] == "attacker" else "attacker"
        due = tier(p["difference"])[0]
        assert p["destroy"] == min(due, len(before.battle["sides"][loser]["troops"]))
        assert p["effective"] == (4 if p["destroy"] < due else p["difference"])

    def UnitsDestroyed(self, before: Titans, after: Titans, p: dict[str, Any]) -> None:
        assert before.battle is not None and before.battle["result"] is not None
        if p["why"] == "battle":
            assert sum(p["units"].values()) == before.battle["result"]["destroy"]
        self.titan_lost |= bool(p["titan"])

    def UnitsWithdrew(self, before: Titans, after: Titans, p: dict[str, Any]) -> None:
        assert before.battle is not None
        troops = before.battle["sides"][p["role"]]["troops"]
        if p["role"] == "attacker":  # each to the region it came from
            assert sorted((m["unit"], m["to"]) for m in p["moves"]) == sorted(
                (t["unit"], t["from"]) for t in troops)
            return
        [to] = {m["to"] for m in p["moves"]}  # a single region
        around = regions.neighbours(before, p["region"])
        mine = [r for r in around if before.control.get(r) == p["seat"]]
        empty = [r for r in around if r not in before.armies and r not in before.control]
        assert to in (mine or empty), (to, mine, empty)

    def BattleResolved(self, before: Titans, after: Titans, p: dict[str, Any]) -> None:
        _, cards, vp = tier(p["difference"])
        region, won = p["region"], p["winner_role"] == "attacker"
        assert before.battle is not None
        defender = before.battle["sides"]["defender"]["seat"]
        capitol = before.capitols.get(region)
        assert p["cards"] == cards and p["tier_vp"] == vp
        assert p["bonus"] == {"titan": int(self.titan_lost),
                              "stronghold": int(won and region in before.strongholds),
                              "capitol": 3 * int(won and capitol is not None and capitol[
                                  "owner"] == defender and not capitol["damaged"])}
        assert after.vp[p["winner"]] == before.vp[p["winner"]] + vp + sum(p["bonus"].values())

    def RoundScored(self, before: Titans, after: Titans, p: dict[str, Any]) -> None:
        assert self.pools == POOLS[self.players], self.pools
        self.pools = []
        assert p["vp"] == [len(regions.controlled(before, s)) for s in range(self.players)]
        if self.reinforcing:
            start = self.reinforcing[0][0]
            order = [(start + i) % self.players for i in range(self.players)]
            assert self.reinforcing == [(s, n) for s in order for n in (1, 2)]
        self.reinforcing = []

    def StartingPlayerPassed(self, before: Titans, after: Titans, p: dict[str, Any]) -> None:
        assert p["start_player"] == (before.start_player - 1) % self.players

    def ReinforcementChosen(self, before: Titans, after: Titans, p: dict[str, Any]) -> None:
        self.reinforcing.append((p["seat"], p["reinforcement"]))
        assert self.reinforcing[0][0] == after.start_player

    def ObjectivesDrawn(self, before: Titans, after: Titans, p: dict[str, Any]) -> None:
        """The 1st Reinforcement's other option: 2 Secret Objectives drawn."""
        self.reinforcing.append((p["seat"], 1))

    def Ended(self, before: Titans, after: Titans, p: dict[str, Any]) -> None:
        turns = [(after.start_player + i) % self.players for i in range(self.players)]

        def key(s: int) -> tuple[int, int, int, int]:
            return (after.vp[s], len(regions.controlled(after, s)),
                    regions.unit_count_on_map(after, s), -turns.index(s))

        assert p["outcome"]["winner"] == max(range(self.players), key=key)


def audit(events: list[Any]) -> Counter[str]:
    """Fold the recorded events, checking each the rulebook speaks of against the
    board as it stood before it."""
    step = events[0].mutate(None)
    checker = Checker(step)
    for ev in events[1:]:
        kind = event_type(ev)
        before = copy.deepcopy(step) if hasattr(checker, kind) else step
        step = ev.mutate(step)
        checker.check(before, step, kind, payload_of(ev))
    return checker.checked


@pytest.mark.heavy(8)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_recorded_games_agree_with_the_rulebook(players: int) -> None:
    checked: Counter[str] = Counter()
    for n in range(GAMES_PER_COUNT):
        rng = random.Random(n)
        game = Titans.start([f"p{i}" for i in range(players)], {},
                            seed=f"{18_000 + 10 * players + n:064x}")
        events = list(game.collect_events())
        while not game.ended:
            seat = rng.choice(game.waiting_on())
            legal = game.legal_actions(seat)
            names = sorted({c.NAME for c in legal})
            acting = [m for m in names if m not in ENDING]
            name = rng.choice(acting if acting and rng.random() > 0.25 else names)
            game.act(seat, rng.choice([c for c in legal if name == c.NAME]))
            events += game.collect_events()
        checked += audit(events)
    for kind in ("BattleBegun", "BattleWon", "UnitsWithdrew", "BattleResolved", "RoundScored",
                 "StartingPlayerPassed", "ReinforcementChosen", "Ended", "OrderTaken"):
        assert checked[kind], f"no {kind} was checked"
