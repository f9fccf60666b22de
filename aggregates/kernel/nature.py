"""A game's nature, declared once: OpenSpiel's ``GameType``, in our words.

OpenSpiel declares each game's kind once (``_GAME_TYPE = pyspiel.GameType(...)``
in ``python/games/liars_poker.py``): how its players move, whether chance
plays, what they know, how its payoffs add up, how many may play. Clients,
bots and lobbies read it to choose a strategy (a perfect-information bot
needs no belief over hidden cards; a simultaneous game needs secret moves),
and the conformance suite (``tests/conformance``) checks each declaration
against what the game does, so it can never drift from the rules.

Each game class sets ``GAME_TYPE = GameType.of(...)``; ``Game.metadata()`` and
``ListRules`` serve it (``to_json``). The values are OpenSpiel's, spelled in
snake case, with one addition: ``mixed`` dynamics, for games that are mostly
turn by turn with moments where several seats choose at once (Ethnos' end of
Age, the template game's secret bids); OpenSpiel models those as simultaneous.
"""

from __future__ import annotations

import dataclasses
from enum import StrEnum
from typing import Any


class Dynamics(StrEnum):
    """How moves are made (OpenSpiel's ``Dynamics``)."""

    SEQUENTIAL = "sequential"      # one seat is asked at a time
    SIMULTANEOUS = "simultaneous"  # several seats are asked at once, throughout
    MIXED = "mixed"                # turn by turn, with moments of simultaneous choice


class Chance(StrEnum):
    """Whether chance plays (OpenSpiel's ``ChanceMode``)."""

    DETERMINISTIC = "deterministic"  # no die, no shuffle: the moves decide everything
    # Every random outcome is drawn by the kernel's recorded dice (a shuffle is
    # one die per swap), re-derivable from the revealed seed: OpenSpiel's
    # explicit stochastic chance, whose outcomes are moves of the chance player.
    EXPLICIT = "explicit"


class Information(StrEnum):
    """What the players know (OpenSpiel's ``Information``)."""

    PERFECT = "perfect"      # every event is read by every seat
    IMPERFECT = "imperfect"  # some events are read by some seats only (hands, decks, bids)


class Utility(StrEnum):
    """How the players' payoffs relate (OpenSpiel's ``Utility``)."""

    ZERO_SUM = "zero_sum"
    CONSTANT_SUM = "constant_sum"
    GENERAL_SUM = "general_sum"
    IDENTICAL = "identical"  # a cooperative game: every seat gets the same payoff


class RewardModel(StrEnum):
    """When payoffs are known (OpenSpiel's ``RewardModel``)."""

    TERMINAL = "terminal"  # only the outcome, when the game ends
    REWARDS = "rewards"    # payoffs along the way too


@dataclasses.dataclass(frozen=True)
class GameType:
    """One game's nature. ``min_players``/``max_players`` are seats (credential
    holders), the same numbers as the class's ``MIN_SEATS``/``MAX_SEATS``; a
    seat playing several positions (Ettin's odd player) is one player.

    OpenSpiel's ``provides_information_state``/``provides_observation`` have no
    field here: every Arbiter game provides a per-seat view and screen (the
    observation) and the seat's own event record (the information state);
    ``parameter_specification`` is the class's ``OPTIONS_SCHEMA``.
    """

    dynamics: Dynamics
    chance: Chance
    information: Information
    utility: Utility
    min_players: int
    max_players: int
    reward_model: RewardModel = RewardModel.TERMINAL

    def __post_init__(self) -> None:
        for name, kind in (("dynamics", Dynamics), ("chance", Chance),
                           ("information", Information), ("utility", Utility),
                           ("reward_model", RewardModel)):
            # Built from plain strings too (a JSON record); stored as the enum.
            object.__setattr__(self, name, kind(getattr(self, name)))
        if not 1 <= self.min_players <= self.max_players:
            raise ValueError(f"players {self.min_players}..{self.max_players} is no range")

    @classmethod
    def of(cls, dynamics: str, chance: str, information: str, utility: str, *,
           players: tuple[int, int], reward_model: str = "terminal") -> GameType:
        """A declaration in one line, from the values' names, in OpenSpiel's
        order: ``GameType.of("sequential", "explicit", "perfect", "general_sum",
        players=(1, 1))``; a name that is not one of the values is refused."""
        return cls(Dynamics(dynamics), Chance(chance), Information(information),
                   Utility(utility), players[0], players[1], RewardModel(reward_model))

    def to_json(self) -> dict[str, Any]:
        """The declaration as plain JSON (``metadata()``, ``ListRules``)."""
        return {"dynamics": str(self.dynamics), "chance": str(self.chance),
                "information": str(self.information), "utility": str(self.utility),
                "reward_model": str(self.reward_model),
                "min_players": self.min_players, "max_players": self.max_players}


    def metadata(self) -> dict[str, Any]:
        """Its entries in ``Game.metadata()``: ``dynamics`` as before, and all of it."""
        return {"dynamics": str(self.dynamics), "game_type": self.to_json()}


def game_type_of(game_cls: Any) -> GameType:
    """A game class's declared nature. A class that declares none (a small test
    game of the kernel's own tests) is sequential, with its seat counts, and
    chance and hidden information assumed (the safe assumption for a reader: a
    bot that plans for them is never wrong)."""
    declared = getattr(game_cls, "GAME_TYPE", None)
    if isinstance(declared, GameType):
        return declared
    return GameType(
        dynamics=Dynamics.SEQUENTIAL,
        chance=Chance.EXPLICIT, information=Information.IMPERFECT,
        utility=Utility.GENERAL_SUM,
        min_players=game_cls.MIN_SEATS, max_players=game_cls.MAX_SEATS,
    )
