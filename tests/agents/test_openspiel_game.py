"""The python_quintet OpenSpiel game: loads by name, passes OpenSpiel's own checks of a
python game, and its policies are scored exactly by solver.exploitability."""

from __future__ import annotations

import pickle

import numpy as np
import pyspiel
import pytest
from open_spiel.python import policy as openspiel_policy
from open_spiel.python.algorithms import exploitability as openspiel_exploitability

import solver
from solver.agents.deals import AgentDeal
from solver.agents.openspiel_game import GAME_NAME, QuintetGame, load, openspiel_game
from solver.errors import QuintetError, RulesError, SolverError
from solver.game.rules import Rules

SMALL = "5_6_7"


@pytest.mark.parametrize(
    "params",
    [
        {"seed": 3, "points": SMALL},
        {"seed": 1, "num_deals": 3, "points": SMALL, "payoff": "win"},
        {"seed": 2, "mode": "independent", "points": SMALL},
    ],
    ids=["one-deal", "three-deals-win", "independent"],
)
def test_random_simulation_and_serialization(params: dict[str, object]) -> None:
    game = pyspiel.load_game(GAME_NAME, params)
    assert isinstance(game, QuintetGame)
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)
    pyspiel.random_sim_test(
        pyspiel.convert_to_turn_based(game), num_sims=5, serialize=False, verbose=False
    )
    again = pyspiel.load_game(str(game))  # the game's own string loads it back
    assert again.get_parameters() == game.get_parameters()


@pytest.mark.slow
def test_random_simulation_of_the_full_game() -> None:
    game = pyspiel.load_game(GAME_NAME, {"seed": 5})  # tens of thousands of actions
    assert game.num_distinct_actions() == max(game.deals[0].sizes) > 10_000
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_states_pickle_and_know_their_deal() -> None:
    game = load(seed=1, num_deals=3, points=SMALL, payoff="win")
    assert game.get_type().utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert game.num_distinct_actions() == max(max(d.sizes) for d in game.deals)
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    state.apply_action(1)
    copy = pickle.loads(pickle.dumps(state))
    assert str(copy) == str(state) == "deal seed 2"
    assert copy.legal_actions(0) == list(range(copy.deal.sizes[0]))
    copy.apply_actions([0, 1])
    assert copy.returns() == list(copy.deal.returns(0, 1, "win"))
    assert sum(copy.returns()) == 1.0


def test_information_states_name_the_deal_and_the_holdings() -> None:
    game = load(seed=2, num_deals=2, points=SMALL)
    state = game.state_for(1)
    text = state.information_state_string(0)
    assert text.startswith("seed 3 player 0 holds ")
    tensor = np.array(state.information_state_tensor(1))
    assert tensor[:2].tolist() == [0.0, 1.0]  # the deal drawn
    assert tensor[2:66].sum() == 30  # both holdings of fifteen cards... twice over 32 bits
    assert state.observation_string(1) == state.information_state_string(1)


def test_a_tabular_policy_is_scored_exactly_and_as_openspiel_scores_it() -> None:
    game = load(seed=1, num_deals=2, points=SMALL)
    # One decision state per deal: TabularPolicy needs them given (no tree walk).
    states = {str(i): game.state_for(i) for i in range(2)}
    tabular = openspiel_policy.TabularPolicy(game, states=states)
    rng = np.random.default_rng(0)
    for key in tabular.state_lookup:
        row = tabular.policy_for_key(key)
        row[:] = rng.dirichlet(np.ones(row.shape[0])) * (row > 0)
        row /= row.sum()
    found = solver.exploitability(tabular, [1, 2], "margin", rules=Rules(position_points=(5, 6, 7)))
    # OpenSpiel's own NashConv walks the tree of the turn-based game (chance, then player 0,
    # then player 1 not seeing player 0's move), whose information states are the
    # simultaneous game's after a "Current player: p" line.
    turn_based = pyspiel.convert_to_turn_based(game)
    same = openspiel_policy.TabularPolicy(turn_based)
    for key in same.state_lookup:
        same.policy_for_key(key)[:] = tabular.policy_for_key(key.split("\n", 1)[1])
    theirs = openspiel_exploitability.nash_conv(turn_based, same)
    assert found.nash_conv == pytest.approx(theirs, abs=1e-9)
    assert found.nash_conv > 0.1
    uniform = openspiel_policy.UniformRandomPolicy(game)
    found = solver.exploitability(uniform, [1, 2], rules=Rules(position_points=(5, 6, 7)))
    per_deal = [
        solver.exploitability(np.full(n, 1 / n), seed, rules=Rules(position_points=(5, 6, 7)))
        for seed, n in ((1, game.deals[0].sizes[0]), (2, game.deals[1].sizes[0]))
    ]
    assert found.nash_conv == pytest.approx(np.mean([p.nash_conv for p in per_deal]))


def test_a_policy_of_another_game_is_refused() -> None:
    game = load(seed=1, points=SMALL)
    tabular = openspiel_policy.TabularPolicy(game, states={"0": game.state_for(0)})
    with pytest.raises(SolverError, match="policy: its game has no deal of seed 4"):
        solver.exploitability(tabular, 4, rules=Rules(position_points=(5, 6, 7)))


@pytest.mark.parametrize(
    ("params", "error", "message"),
    [
        ({"payoff": "points"}, SolverError, "payoff 'points' is not margin or win"),
        ({"points": "6,7"}, RulesError, "points '6,7' is not integers joined by '_'"),
        ({"points": "0_7"}, RulesError, "position points must be positive"),
        ({"mode": "both"}, RulesError, "mode 'both' is not one of: mirror, independent"),
        ({"num_deals": 0}, QuintetError, r"num_deals must be in \[1, 1000\], got 0"),
        ({"seed": -1}, QuintetError, r"seed must be in \[0, inf\], got -1"),
    ],
)
def test_bad_parameters_are_refused(params: dict[str, object], error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        pyspiel.load_game(GAME_NAME, params)


def test_unknown_parameters_and_deals_not_in_a_row() -> None:
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'colour'"):
        pyspiel.load_game(GAME_NAME, {"colour": "red"})
    deals = (AgentDeal.dealt(1), AgentDeal.dealt(3))
    with pytest.raises(SolverError, match=r"deals: the game's deals are consecutive seeds"):
        openspiel_game(deals, "margin")
