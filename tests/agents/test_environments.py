"""The PettingZoo and Gymnasium environments pass their libraries' own checks, and play
the deal's payoffs (illegal actions forfeit)."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from solver.agents.deals import AgentDeal, equilibrium_of
from solver.agents.gym_env import QuintetEnv
from solver.agents.pettingzoo_env import AGENTS, aec_env, parallel_env
from solver.equilibria.exploitability import values_against
from solver.errors import SolverError
from solver.game.rules import Rules
from solver.models.mixture import Mixture

SMALL = Rules(position_points=(5, 6, 7))
INDEPENDENT = Rules(position_points=(5, 6, 7), discard_mode="independent")


@pytest.mark.parametrize("rules", [SMALL, INDEPENDENT], ids=["mirror", "independent"])
def test_pettingzoo_checks(rules: Rules) -> None:
    parallel_api_test(parallel_env(seeds=range(4), rules=rules), num_cycles=20)
    parallel_seed_test(lambda: parallel_env(seeds=range(4), rules=rules), num_cycles=20)
    api_test(aec_env(seeds=range(4), rules=rules), num_cycles=20)
    seed_test(lambda: aec_env(seeds=range(4), rules=rules, payoff="win"), num_cycles=20)


def test_pettingzoo_pays_the_deal_and_forfeits_illegal_actions() -> None:
    env = parallel_env(seeds=[1, 2], rules=INDEPENDENT, render_mode="ansi")
    observations, infos = env.reset(seed=5)
    game = env.game
    for seat, agent in enumerate(AGENTS):
        assert observations[agent]["action_mask"].sum() == game.sizes[seat]
        assert observations[agent]["observation"][0].sum() == 15  # own holding first
        assert infos[agent] == {"seed": game.seed}
    _, rewards, terminations, truncations, infos = env.step({"player_0": 0, "player_1": 1})
    assert tuple(rewards.values()) == game.returns(0, 1, "margin")
    assert all(terminations.values()) and not any(truncations.values())
    assert env.agents == []
    assert env.render().splitlines()[1] == f"player_0: {game.arrangement(0, 0).format(ascii=True)}"
    with pytest.raises(SolverError, match=r"actions: the episode is over, call reset\(\)"):
        env.step({"player_0": 0, "player_1": 1})
    env.reset()
    too_far = env.game.sizes[1]
    _, rewards, _, _, infos = env.step({"player_0": 0, "player_1": too_far})
    assert rewards == {"player_0": 18.0, "player_1": -18.0}
    assert infos["player_1"]["illegal"] and not infos["player_0"]["illegal"]
    env.reset()
    with pytest.raises(SolverError, match="actions: expected one for each of player_0, player_1"):
        env.step({"player_0": 0})


@pytest.mark.parametrize(
    "opponent",
    ["random", "greedy", "house", "equilibrium", {"house": 1.0, "equilibrium": 3.0}],
    ids=["random", "greedy", "house", "equilibrium", "mixture-of-names"],
)
@pytest.mark.parametrize("seat", [0, 1])
def test_gymnasium_checks(opponent: object, seat: int) -> None:
    env = QuintetEnv(seeds=range(3), rules=INDEPENDENT, opponent=opponent, seat=seat)
    check_env(env, skip_render_check=True)


def test_gymnasium_against_the_equilibrium_earns_the_value_at_best() -> None:
    # Against the column player's equilibrium strategy no action earns more than the
    # value (within its certificate), and the equilibrium's own support earns it.
    env = QuintetEnv(seeds=[3], rules=SMALL, opponent="equilibrium")
    env.reset(seed=0)
    game = env.game
    result = equilibrium_of(game, "margin")
    column = result.column
    strengths = np.array([a.strengths(SMALL) for a in column.arrangements])
    against = (strengths, np.array(column.probabilities))
    action = int(np.argmax(game.strengths(0).sum(axis=1)))
    expected = values_against(game.strengths(0)[[action]], SMALL, "margin", against)[0]
    assert expected <= result.upper + 1e-9
    rewards = []
    for _ in range(300):
        env.reset()
        rewards.append(env.step(action)[1])
    assert abs(np.mean(rewards) - expected) <= 4 * np.std(rewards) / np.sqrt(300)


def test_gymnasium_plays_a_mixture_and_forfeits_illegal_actions() -> None:
    game = AgentDeal.dealt(1, SMALL)
    mixture = Mixture((game.arrangement(1, 3),), (1.0,))
    env = QuintetEnv(seeds=1, rules=SMALL, opponent=mixture, payoff="win", render_mode="ansi")
    env.reset(seed=1)
    _, reward, terminated, truncated, info = env.step(0)
    assert (reward, terminated, truncated) == (game.returns(0, 3, "win")[0], True, False)
    assert info["opponent"] == game.arrangement(1, 3).format(ascii=True)
    assert env.render().splitlines()[2] == f"opponent: {info['opponent']}"
    env.reset()
    _, reward, _, _, info = env.step(30)
    assert (reward, info["illegal"]) == (0.0, True)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"opponent": "clever"}, "opponent 'clever': expected random, greedy, house"),
        ({"opponent": {"house": -1.0}}, "opponent"),
        ({"opponent": {"house": "all"}}, "opponent"),
        ({"seeds": []}, "seeds: no deal given"),
        ({"payoff": "points"}, "payoff 'points' is not margin or win"),
        ({"render_mode": "human"}, "render_mode 'human' is not None or 'ansi'"),
        ({"seat": 2}, r"seat must be in \[0, 1\], got 2"),
    ],
)
def test_gymnasium_refuses_bad_arguments(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(SolverError if "seat" not in kwargs else ValueError, match=message):
        QuintetEnv(rules=SMALL, **kwargs)  # type: ignore[arg-type]


def test_a_mixture_of_another_holding_is_refused() -> None:
    other = Mixture((AgentDeal.dealt(2, SMALL).arrangement(1, 0),), (1.0,))
    with pytest.raises(SolverError, match="opponent: a Mixture is one deal's"):
        QuintetEnv(seeds=1, rules=SMALL, opponent=other)
    with pytest.raises(SolverError, match="render_mode 'human' is not None or 'ansi'"):
        parallel_env(render_mode="human")


def test_the_full_game_environments() -> None:
    # Tens of thousands of actions a player: the checks still pass, and quickly.
    parallel_api_test(parallel_env(seeds=[1, 3]), num_cycles=3)
    env = QuintetEnv(seeds=[1, 3], opponent={"house": 1.0, "equilibrium": 1.0})
    check_env(env, skip_render_check=True)
    assert env.action_space.n == 43860  # seed 3's frontier, the larger
