"""Every served game as an OpenSpiel game (``pip install 'arbiter[openspiel]'``).

``register()`` registers each game of the catalogue as a Python ``pyspiel``
game named ``arbiter_<rules id>`` (``pyspiel.load_game("arbiter_ethnos",
{"players": 3})``), played on the rules in process:

- **type and parameters** from the game's one-time declaration
  (``GAME_TYPE``, ``aggregates.kernel.nature``): chance, information,
  utility, reward model, player counts. Parameters: ``players`` (default the
  smallest table, two where the game allows it) and ``options``, the
  creation options as a JSON object string (``OPTIONS_SCHEMA``).
- **turns**: OpenSpiel's games here are sequential. Where the rules ask
  several seats at once, the lowest of them moves first; a secret choice is
  recorded for its chooser alone, so no later seat's information state
  carries it.
- **actions**: the integer ``i`` is the ``i``-th command of the seat's legal
  list as ``LegalActions`` orders it, its string the game's own words
  (``Game.action_label``). An action's number means that list's entry, not a
  fixed command across states.
- **chance**: explicit. Every die the kernel draws (a die roll, each swap of a
  shuffle, the setup's draws) is a chance node of its own, with ``sides``
  equally likely outcomes (action ``v - 1`` for the value ``v``). A command
  is carried out when its last die is known: it is run again on the state
  before it with the dice chosen so far, and a die past those is a new
  chance node. So the chance nodes are exactly the kernel's recorded dice,
  in their order.
- **information state / observation**: the information state is the
  seat's own record (each event in the form the seat read it, as
  ``History`` serves it); the observation is the seat's view
  (``Game.view``). Strings are their JSON; tensors a fixed-size hashed bag
  of their (path, value) pairs.
- **returns**: 1 to each winner (a shared win: 1 / the number of winners),
  0 to the rest, at the end only.
"""

from __future__ import annotations

import contextlib
import copy
import hashlib
import json
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pyspiel

from aggregates.catalog import GAMES
from aggregates.kernel import Command, Game
from aggregates.kernel.nature import Chance, Information, game_type_of
from aggregates.kernel.record import rng
from clients.bots.seat import read_by

#: The largest legal list and die an adapted game may offer.
MAX_ACTIONS = 2048
MAX_SIDES = 1024
#: Each tensor's size (hashed features).
TENSOR = 512
#: A game longer than this (moves and dice) is not an OpenSpiel game.
MAX_LENGTH = 200_000


class NeedDie(Exception):
    """A command asked for a die past those chosen: a chance node."""

    def __init__(self, sides: int) -> None:
        super().__init__(sides)
        self.sides = sides


@contextlib.contextmanager
def forced_dice(values: list[int]) -> Iterator[None]:
    """Every die drawn inside takes the next of ``values``; one more raises ``NeedDie``."""
    original = rng.draw
    given = iter(values)

    def draw(seed_hex: str, counter: int, sides: int) -> int:
        value = next(given, None)
        if value is None:
            raise NeedDie(sides)
        if not 1 <= value <= sides:
            raise ValueError(f"BAD_CHANCE: {value} is no side of a {sides}-sided die")
        return value

    rng.draw = draw  # type: ignore[assignment]
    try:
        yield
    finally:
        rng.draw = original  # type: ignore[assignment]


class Shared:
    """A game between commands, shared by a state and its clones (OpenSpiel
    clones a state by deep-copying its attributes): it is never changed once
    made, since every command is carried out on a copy (``ArbiterState.run``)."""

    __slots__ = ("game", "labels", "listed")

    def __init__(self, game: Game) -> None:
        self.game = game
        #: Each seat's legal list and its strings, worked out once.
        self.listed: dict[int, list[Command]] = {}
        self.labels: dict[int, list[str]] = {}

    def commands(self, player: int) -> list[Command]:
        found = self.listed.get(player)
        if found is None:
            found = self.listed[player] = self.game.legal_actions(player)
            if len(found) > MAX_ACTIONS:
                raise ValueError(f"TOO_MANY_ACTIONS: {len(found)} legal commands")
        return found

    def strings(self, player: int) -> list[str]:
        """Each legal command in the game's words; where two read the same
        (two cards of one name), with the command's JSON after them."""
        found = self.labels.get(player)
        if found is None:
            commands = self.commands(player)
            words = [self.game.action_label(c) for c in commands]
            found = self.labels[player] = [
                w if words.count(w) == 1
                else f"{w} {json.dumps(c.to_json(), sort_keys=True)}"
                for w, c in zip(words, commands, strict=True)]
        return found

    def __deepcopy__(self, memo: dict[int, Any]) -> Shared:
        return self


class Log:
    """The events so far, as a chain of batches shared by clones (never
    changed once made), with each batch in the form each seat read it, worked
    out once: an information state costs its length, not its history's."""

    def __init__(self, cls: type[Game], parent: Log | None = None,
                 batch: tuple[Any, ...] = ()) -> None:
        self.cls, self.parent, self.batch = cls, parent, batch
        self._forms: dict[int, tuple[str, ...]] = {}
        self._bags: dict[int, np.ndarray] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> Log:
        return self

    def then(self, batch: Sequence[Any]) -> Log:
        return Log(self.cls, self, tuple(batch)) if batch else self

    def chain(self) -> list[Log]:
        """The batches from the first, without recursion (a game has hundreds)."""
        out: list[Log] = []
        node: Log | None = self
        while node is not None:
            out.append(node)
            node = node.parent
        return out[::-1]

    def forms(self, player: int) -> tuple[str, ...]:
        """This batch's events as ``player`` read them, as JSON."""
        found = self._forms.get(player)
        if found is None:
            found = self._forms[player] = tuple(
                json.dumps(list(pair), sort_keys=True, default=str)
                for pair in read_by(self.cls, self.batch, player))
        return found

    def string(self, player: int) -> str:
        """The seat's whole record as JSON: ``[player, [[type, form], ...]]``."""
        forms = [form for node in self.chain() for form in node.forms(player)]
        return f"[{player}, [{', '.join(forms)}]]"

    def bag(self, player: int) -> np.ndarray:
        """The hashed features of the seat's record (summed batch by batch)."""
        chain = self.chain()
        start = max((i for i, node in enumerate(chain) if player in node._bags), default=-1)
        total = (chain[start]._bags[player].copy() if start >= 0
                 else np.zeros(TENSOR, np.float32))
        for node in chain[start + 1:]:
            for form in node.forms(player):
                add_hashed(json.loads(form), total)
            node._bags[player] = total.copy()
        return total


def spiel_type(cls: type[Game]) -> pyspiel.GameType:
    """OpenSpiel's ``GameType`` from the game's declaration."""
    declared = game_type_of(cls)
    GT = pyspiel.GameType
    default_players = min(max(2, cls.MIN_SEATS), cls.MAX_SEATS)
    return GT(
        short_name=f"arbiter_{cls.RULES_ID}", long_name=f"Arbiter {cls.TITLE}",
        dynamics=GT.Dynamics.SEQUENTIAL,
        chance_mode=(GT.ChanceMode.DETERMINISTIC if declared.chance is Chance.DETERMINISTIC
                     else GT.ChanceMode.EXPLICIT_STOCHASTIC),
        information=(GT.Information.PERFECT_INFORMATION
                     if declared.information is Information.PERFECT
                     else GT.Information.IMPERFECT_INFORMATION),
        utility=GT.Utility.GENERAL_SUM, reward_model=GT.RewardModel.TERMINAL,
        max_num_players=declared.max_players, min_num_players=declared.min_players,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={"players": default_players, "options": "{}"})


class ArbiterGame(pyspiel.Game):
    """One Arbiter game as a ``pyspiel.Game``; ``cls`` is set per registered subclass."""

    cls: type[Game]

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        kind = spiel_type(self.cls)
        spec = kind.parameter_specification
        self.players = int(params.get("players", spec["players"]))
        if not self.cls.MIN_SEATS <= self.players <= self.cls.MAX_SEATS:
            raise ValueError(f"BAD_SEATS: {self.cls.TITLE} takes {self.cls.MIN_SEATS}.."
                             f"{self.cls.MAX_SEATS} players, not {self.players}")
        self.options = json.loads(str(params.get("options", spec["options"])))
        info = pyspiel.GameInfo(
            num_distinct_actions=MAX_ACTIONS, max_chance_outcomes=MAX_SIDES,
            num_players=self.players, min_utility=0.0, max_utility=1.0,
            utility_sum=None, max_game_length=MAX_LENGTH)
        super().__init__(kind, info, {"players": self.players,
                                      "options": json.dumps(self.options)})

    def new_initial_state(self) -> ArbiterState:
        return ArbiterState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        if params:
            raise ValueError(f"BAD_ARGUMENT: no observation parameters, got {params}")
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return Observer(recall)


class ArbiterState(pyspiel.State):
    """A game between commands, or a command waiting for its dice."""

    def __init__(self, game: ArbiterGame) -> None:
        super().__init__(game)
        self.cls = game.cls
        self.seats = [f"Player {n + 1}" for n in range(game.players)]
        self.options = game.options
        self.held: Shared | None = None
        #: The events so far (the information states read them).
        self.log = Log(self.cls)
        #: A command waiting for dice: (seat, command); None with no table: the setup.
        self.waiting: tuple[int, Command] | None = None
        self.dice: list[int] = []
        self.sides = 0
        self.run()

    # --- carrying out commands with chosen dice -------------------------------

    def run(self) -> None:
        """Carry out the setup or the waiting command with the dice chosen so
        far; a die past them leaves a chance node (``sides``)."""
        try:
            with forced_dice(self.dice):
                if self.table is None:
                    made = self.cls.start(self.seats, self.options, seed="00" * 32)
                else:
                    assert self.waiting is not None
                    made = copy.deepcopy(self.table)
                    made.act(*self.waiting)
        except NeedDie as need:
            if need.sides > MAX_SIDES:
                raise ValueError(f"BAD_CHANCE: a {need.sides}-sided die is past "
                                 f"{MAX_SIDES} outcomes") from None
            self.sides = need.sides
            return
        self.log = self.log.then(made.collect_events())
        self.held, self.waiting, self.dice, self.sides = Shared(made), None, [], 0

    @property
    def table(self) -> Game | None:
        """The game between commands (None while the setup's dice are drawn)."""
        return None if self.held is None else self.held.game

    # --- the pyspiel API --------------------------------------------------------

    def current_player(self) -> int:
        if self.sides:
            return int(pyspiel.PlayerId.CHANCE)
        assert self.table is not None
        if self.table.ended:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.table.waiting_on()[0]

    def commands(self, player: int) -> list[Command]:
        assert self.held is not None
        return self.held.commands(player)

    def _legal_actions(self, player: int) -> list[int]:
        return list(range(len(self.commands(player))))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(value, 1.0 / self.sides) for value in range(self.sides)]

    def _apply_action(self, action: int) -> None:
        if self.sides:
            self.dice.append(action + 1)
        else:
            player = self.current_player()
            self.waiting = (player, self.commands(player)[action])
        self.run()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"die {action + 1} of {self.sides}"
        assert self.held is not None
        return self.held.strings(player)[action]

    def is_terminal(self) -> bool:
        return not self.sides and self.table is not None and self.table.ended

    def returns(self) -> list[float]:
        players = len(self.seats)
        if not self.is_terminal():
            return [0.0] * players
        assert self.table is not None
        winners = self.table.standings().winners
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(players)]

    def __str__(self) -> str:
        if self.table is None:
            return f"setup, {len(self.dice)} dice drawn"
        return json.dumps(self.table.view(None), sort_keys=True, default=str)

    # --- what a seat knows ---------------------------------------------------------

    def record_of(self, player: int) -> str:
        return self.log.string(player)

    def view_of(self, player: int) -> dict[str, Any]:
        """The seat's view (nothing yet while the setup's dice are drawn)."""
        return {} if self.table is None else self.table.view(player)


def features(value: Any, path: str = "") -> Iterator[str]:
    """The (path, value) pairs of a JSON value, as strings."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from features(inner, f"{path}/{key}")
    elif isinstance(value, list | tuple):
        for index, inner in enumerate(value):
            yield from features(inner, f"{path}/{index}")
    else:
        yield f"{path}={value}"


def hashed(value: Any, out: np.ndarray) -> None:
    """A fixed-size bag of ``value``'s features (each hashed to one slot)."""
    out.fill(0)
    add_hashed(value, out)


def add_hashed(value: Any, out: np.ndarray) -> None:
    for feature in features(value):
        out[hash_of(feature) % len(out)] += 1.0


def hash_of(feature: str) -> int:
    return int.from_bytes(hashlib.blake2b(feature.encode(), digest_size=4).digest(), "big")


class Observer:
    """OpenSpiel's observer: the seat's record (perfect recall) or its view."""

    def __init__(self, recall: bool) -> None:
        self.recall = recall
        self.tensor = np.zeros(TENSOR, np.float32)
        self.dict = {"hashed": self.tensor}

    def set_from(self, state: ArbiterState, player: int) -> None:
        if self.recall:
            self.tensor[:] = state.log.bag(player)
        else:
            hashed(state.view_of(player), self.tensor)
        self.tensor[hash_of(f"player={player}") % TENSOR] += 1.0

    def string_from(self, state: ArbiterState, player: int) -> str:
        if self.recall:
            return state.record_of(player)
        return json.dumps([player, state.view_of(player)], sort_keys=True, default=str)


def game_class(cls: type[Game]) -> type[ArbiterGame]:
    """A ``pyspiel.Game`` subclass for one rules class."""
    return type(f"Spiel{type(cls).__name__}{cls.RULES_ID}", (ArbiterGame,), {"cls": cls})


def register() -> list[str]:
    """Register every served game (once); their OpenSpiel names."""
    names = []
    registered = set(pyspiel.registered_names())
    for cls in GAMES.values():
        kind = spiel_type(cls)
        if kind.short_name not in registered:
            pyspiel.register_game(kind, game_class(cls))
        names.append(kind.short_name)
    return names
