"""Every served game as an OpenSpiel game (clients/spiel.py).

OpenSpiel's own API test for games (``pyspiel.random_sim_test``: random
playouts through the API, checking legal actions, action strings, chance
outcomes, clones, information states and observations, strings and tensors,
at every state) and one of its algorithms (MCTS with random rollouts) playing
a game to its end. The Land of Enin runs in the suite; all five games and
the MCTS game run under ``make soak`` (a random simulation of Ethnos takes
some 20 s: each of its shuffles' hundred dice is a chance node of its own).
"""

from __future__ import annotations

import pytest

from aggregates.catalog import GAMES
from tests.soak import SOAK

pyspiel = pytest.importorskip(
    "pyspiel", reason="open_spiel is not installed (pip install 'arbiter[openspiel]')")
np = pytest.importorskip("numpy", reason="numpy comes with open_spiel")

from clients import spiel  # noqa: E402 - needs pyspiel

NAMES = spiel.register()
SUITE = ["arbiter_enin"]
ALL = sorted(NAMES) if SOAK else SUITE


@pytest.mark.parametrize("name", ALL)
def test_openspiels_random_simulation_test_passes(name: str) -> None:
    game = pyspiel.load_game(name)
    pyspiel.random_sim_test(game, num_sims=2 if name in SUITE else 1,
                            serialize=False, verbose=False)


def test_every_served_game_is_registered_with_its_declared_type() -> None:
    for cls in GAMES.values():
        game = pyspiel.load_game(f"arbiter_{cls.RULES_ID}")
        kind = game.get_type()
        assert (kind.min_num_players, kind.max_num_players) == (cls.MIN_SEATS, cls.MAX_SEATS)
        assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        perfect = cls.GAME_TYPE.information == "perfect"
        assert (kind.information == pyspiel.GameType.Information.PERFECT_INFORMATION) == perfect


def test_a_table_the_rules_refuse_is_refused_with_its_reason() -> None:
    with pytest.raises(ValueError, match="BAD_SEATS"):
        spiel.game_class(GAMES["ethnos"])({"players": 7})


def test_chance_nodes_are_the_kernels_dice() -> None:
    """Every die of the setup is a chance node; the dice chosen make the game."""
    state = pyspiel.load_game("arbiter_enin").new_initial_state()
    drawn = 0
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
        state.apply_action(outcomes[0][0])
        drawn += 1
    assert drawn > 0
    assert state.current_player() == 0
    assert state.legal_actions() == list(range(len(state.legal_actions())))


@pytest.mark.skipif(not SOAK, reason="OpenSpiel's MCTS to the end of an Enin game takes "
                    "minutes (every simulation's rollout runs each die as a chance node): "
                    "make soak")
def test_openspiels_mcts_plays_a_game_to_its_end() -> None:
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game("arbiter_enin")
    rng = np.random.RandomState(3)
    bot = mcts.MCTSBot(game, uct_c=1.4, max_simulations=4,
                       evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probs)))
        else:
            state.apply_action(bot.step(state))
    assert state.returns()[0] in (0.0, 1.0)
