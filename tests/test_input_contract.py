"""Every public function of :mod:`solver` refuses wrong input by name, before any work.

Each public callable (the functions of ``solver.__all__``, the constructors and
classmethods of its classes) has a case below: cheap valid arguments, and for each
argument a strategy of *wrong* values (wrong types, out-of-range integers, floats,
bools, NaN, huge sizes, wrong shapes and dtypes, empty inputs).  Hypothesis feeds each
argument its wrong values, the others staying valid; the only exceptions allowed are a
:class:`~solver.errors.QuintetError` or a :class:`TypeError` whose message starts with
the argument's name, raised without a big allocation (``tracemalloc``'s peak).  A public
name without a case fails :func:`test_every_public_callable_has_a_case`, so that the
contract stays complete.
"""

from __future__ import annotations

import inspect
import re
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solver
from solver import (
    Arrangement,
    Book,
    EquilibriumSource,
    HouseRule,
    Mixture,
    Objective,
    Opponent,
    QuintetError,
    Rules,
    TournamentConfig,
)
from tests.test_argument_checks import RECORDS  # records hold what they are given

TWO = Rules(position_points=(6, 7))
MINE = tuple(range(10))
THEIRS = tuple(range(10, 20))
ARRANGEMENT = Arrangement.from_array(np.arange(10).reshape(2, 5))
OPPONENT = Opponent.random(THEIRS, TWO)
PROFILE = np.array([3, 500])
# A call that refuses its input allocates next to nothing; one that starts working on a
# huge input allocates far more than this before it could refuse.
MAX_PEAK = 32 << 20

# ---------------------------------------------------------------------------------------
# Wrong values, by kind of argument.

NOT_A_NUMBER = st.sampled_from([float("nan"), float("inf"), -float("inf")])
ANYTHING_ELSE = st.sampled_from(["7", "", b"3", object(), [1], {"a": 1}, 1j])


def wrong_ints(low: int, high: int | None = None, *, none: bool = True) -> st.SearchStrategy:
    """Not an int in ``[low, high]``: floats (1.0 too), bools, NaN, text, ints out of range."""
    out_of_range = [st.integers(max_value=low - 1), st.sampled_from([low - 1, -(2**63)])]
    if high is not None:
        out_of_range += [st.integers(min_value=high + 1), st.sampled_from([high + 1, 2**64])]
    kinds = [
        *out_of_range,
        st.floats(allow_nan=False),
        st.sampled_from([float(max(low, 1)), np.float64(max(low, 1)), True, False]),
        st.sampled_from([np.bool_(True), np.array(low), np.array([low])]),
        NOT_A_NUMBER,
        ANYTHING_ELSE,
    ]
    if none:
        kinds.append(st.none())
    return st.one_of(kinds)


def wrong_numbers(*, positive: bool = True, none: bool = False) -> st.SearchStrategy:
    """Not a finite (positive) number: NaN, infinities, bools, text, negative."""
    kinds = [NOT_A_NUMBER, st.sampled_from([True, False, np.bool_(True)]), ANYTHING_ELSE]
    kinds.append(st.floats(max_value=0.0 if positive else -1e300, allow_nan=False))
    if none:
        kinds.append(st.none())
    return st.one_of(kinds)


BAD_CARD = st.one_of(
    st.integers(max_value=-1),
    st.integers(min_value=32),
    st.sampled_from([32, -1, 1.0, 0.0, 2.5, True, False, np.float64(3), np.bool_(False)]),
    NOT_A_NUMBER,
    st.sampled_from(["7c", None, object(), [1]]),
)


def wrong_cards(size: int = 10, *, distinct: bool = True, none: bool = False) -> st.SearchStrategy:
    """Card ids with one wrong id among good ones, or not a list of ids at all (or, when
    the cards must be ``distinct``, a card twice)."""
    spoilt = st.tuples(st.integers(0, size - 1), BAD_CARD).map(
        lambda bad: [*range(bad[0]), bad[1], *range(bad[0] + 1, size)]
    )
    return st.one_of(
        spoilt,
        spoilt.map(lambda cards: np.array(cards, dtype=object)),
        st.sampled_from(
            [
                "7c 7d",
                3,
                *([] if none else [None]),
                object(),
                np.arange(size, dtype=np.float64),
                np.ones(size, dtype=bool),
                np.full(size, 32),
                *([[*range(size - 1), size - 2]] if distinct else []),  # a repeated card
            ]
        ),
    )


def wrong_hands(width: int = 5, high: int = 32) -> st.SearchStrategy:
    """Arrays that are not ``(..., width)`` integers in ``0..high-1``, or far too many of them."""
    good = np.arange(width)
    return st.one_of(
        st.sampled_from(
            [
                good.astype(np.float64),
                good.astype(bool),
                good.astype(object),
                np.array([1.0, 2.5, 3, 4, 5][:width]),
                np.arange(width + 1),
                np.arange(width - 1),
                np.array(3),
                np.array([]),
                np.zeros((0, width + 1), dtype=int),
                np.where(np.arange(width) == 0, high, good),
                np.where(np.arange(width) == 0, -1, good),
                np.broadcast_to(good, (10**9, width)),  # 40 GB as int64: refused unread
                "7c 7d 7h 7s 8c",
                None,
                object(),
                [[0, 1, 2], [3, 4]],
            ]
        ),
        st.integers(0, width - 1).map(lambda i: np.where(np.arange(width) == i, np.nan, good)),
    )


def wrong_instance(none_allowed: bool = False) -> st.SearchStrategy:
    """Not an object of the right class (and not None, unless None is allowed)."""
    return st.one_of(
        st.sampled_from(["mirror", "", 3, 2.5, True, object(), [1, 2], b"x"]),
        st.nothing() if none_allowed else st.none(),
    )


def wrong_choice(*allowed: str) -> st.SearchStrategy:
    """Text that is none of ``allowed``, or not text."""
    return st.one_of(
        st.text(max_size=8).filter(lambda text: text not in allowed),
        st.sampled_from([3, 2.5, True, None, object(), b"margin"]),
    )


WRONG_TEXT = st.sampled_from([3, 2.5, True, None, object(), b"x", ["x"]])
WRONG_BOOL = st.sampled_from(["no", "", 0, 1, 2.5, None, object()])
WRONG_CALLBACK = st.sampled_from(["print", 3, True, object()])
WRONG_PATH = st.sampled_from([3, 2.5, True, object(), b"\x00", "a\x00b", ["x"]])

# ---------------------------------------------------------------------------------------
# The cases: what each public callable is given, and what is wrong with it.


@dataclass(frozen=True)
class Case:
    """Valid keyword arguments of ``call``, and wrong values of some of them."""

    call: Callable[..., object]
    valid: dict[str, Any]
    wrong: dict[str, st.SearchStrategy]


CASES: dict[str, Case] = {
    # the game
    "Arrangement": Case(
        Arrangement,
        {"packets": ((0, 1, 2, 3, 4),)},
        {"packets": st.one_of(wrong_cards(5).map(lambda p: (p,)), wrong_instance())},
    ),
    "Arrangement.parse": Case(
        Arrangement.parse,
        {"text": "7c 7d 7h 7s 8c", "n_packets": 1},
        {"text": WRONG_TEXT, "n_packets": wrong_ints(1, 6, none=False)},
    ),
    "Arrangement.from_array": Case(
        Arrangement.from_array, {"array": np.arange(10).reshape(2, 5)}, {"array": wrong_hands()}
    ),
    "Rules": Case(
        Rules,
        {},
        {
            "position_points": st.sampled_from(
                [(), (3, 2.5), (True,), "34567", 3, (-1,), (10**9,)]
            ),
            "discard_mode": wrong_choice("mirror", "random"),
            "ace_low_straight": WRONG_BOOL,
            "flush_beats_full_house": WRONG_BOOL,
        },
    ),
    "parse_cards": Case(
        solver.parse_cards, {"cards": "7c 7d", "count": 2}, {"count": wrong_ints(0, 32, none=False)}
    ),
    "format_cards": Case(
        solver.format_cards,
        {"cards": [0, 1], "ascii": False, "lang": "en"},
        {
            "cards": wrong_cards(distinct=False),
            "ascii": WRONG_BOOL,
            "lang": wrong_choice("en", "ru"),
        },
    ),
    "strength": Case(
        solver.strength,
        {"hands": np.arange(5), "rules": TWO},
        {"hands": wrong_hands(), "rules": wrong_instance(True)},
    ),
    "category": Case(
        solver.category,
        {"hands": np.arange(5), "rules": TWO},
        {"hands": wrong_hands(), "rules": wrong_instance(True)},
    ),
    "colex_index": Case(solver.colex_index, {"hands": np.arange(5)}, {"hands": wrong_hands()}),
    "hand_table": Case(solver.hand_table, {"rules": TWO}, {"rules": wrong_instance(True)}),
    "deal": Case(
        solver.deal,
        {"seed": 1, "rules": TWO},
        {"seed": wrong_ints(0, none=False), "rules": wrong_instance(True)},
    ),
    "score": Case(
        solver.score,
        {"a": ARRANGEMENT, "b": ARRANGEMENT, "rules": TWO},
        {"a": wrong_instance(), "b": wrong_instance(), "rules": wrong_instance(True)},
    ),
    "points_against": Case(
        solver.points_against,
        {"mine": PROFILE, "theirs": PROFILE, "rules": TWO},
        {
            "mine": wrong_hands(2, 2**16),
            "theirs": wrong_hands(2, 2**16),
            "rules": wrong_instance(True),
        },
    ),
}
CASES.update(
    {
        # models
        "Opponent.random": Case(
            Opponent.random,
            {"holding": THEIRS, "rules": TWO},
            {"holding": wrong_cards(), "rules": wrong_instance(True)},
        ),
        "Opponent.greedy": Case(
            Opponent.greedy,
            {"holding": THEIRS, "rules": TWO},
            {"holding": wrong_cards(), "rules": wrong_instance(True)},
        ),
        "Opponent.known": Case(
            Opponent.known,
            {"arrangement": ARRANGEMENT, "rules": TWO, "holding": MINE},
            {
                "arrangement": wrong_instance(),
                "rules": wrong_instance(True),
                "holding": wrong_cards(none=True),
            },
        ),
        "Opponent.mixture": Case(
            Opponent.mixture,
            {"arrangements": [ARRANGEMENT], "probabilities": [1.0], "rules": TWO, "holding": MINE},
            {
                "arrangements": st.sampled_from([[], "x", 3, [3], None, [ARRANGEMENT, "x"]]),
                "probabilities": st.sampled_from(
                    [[], [0.5], [float("nan")], [-1.0], "1", None, [[1.0]]]
                ),
                "rules": wrong_instance(True),
                "holding": wrong_cards(none=True),
            },
        ),
        "expected_value": Case(
            solver.expected_value,
            {"profiles": PROFILE, "opponent": OPPONENT, "objective": Objective.MARGIN},
            {
                "profiles": wrong_hands(2, 840),
                "opponent": wrong_instance(),
                "objective": wrong_choice("margin", "points", "win", "game"),
            },
        ),
        "position_stats": Case(
            solver.position_stats,
            {"profile": PROFILE, "opponent": OPPONENT},
            {"profile": wrong_hands(2, 840), "opponent": wrong_instance()},
        ),
        "strength_probabilities": Case(
            solver.strength_probabilities, {"opponent": OPPONENT}, {"opponent": wrong_instance()}
        ),
        "greedy_arrangement": Case(
            solver.greedy_arrangement,
            {"holding": MINE, "rules": TWO},
            {"holding": wrong_cards(), "rules": wrong_instance(True)},
        ),
        "random_arrangement": Case(
            solver.random_arrangement,
            {"holding": MINE, "rng": np.random.default_rng(1), "rules": TWO},
            {"holding": wrong_cards(), "rng": wrong_instance(), "rules": wrong_instance(True)},
        ),
        "HouseRule": Case(
            HouseRule,
            {"order": (1, 0)},
            {
                "order": st.sampled_from(
                    [(), (0, 0), (1.0, 0), (True, False), (0, 2), "10", 3, None]
                ),
                "alternative_order": st.sampled_from([(0, 0), (1.0, 0), "10", 3]),
            },
        ),
        "house_rule": Case(solver.house_rule, {"n_packets": 2}, {"n_packets": wrong_ints(1, 6)}),
        "house_arrangement": Case(
            solver.house_arrangement,
            {"holding": MINE, "rules": TWO, "rule": HouseRule((1, 0))},
            {"holding": wrong_cards(), "rules": wrong_instance(True), "rule": wrong_instance(True)},
        ),
        "Mixture": Case(
            Mixture,
            {"arrangements": (ARRANGEMENT,), "probabilities": (1.0,)},
            {
                "arrangements": st.sampled_from([(), "x", 3, (3,), None]),
                "probabilities": st.sampled_from([(), (0.5,), (float("nan"),), "1", None, (True,)]),
                "metadata": st.sampled_from(["x", 3, [1]]),
            },
        ),
        "Mixture.from_dict": Case(
            Mixture.from_dict,
            {
                "payload": {"strategies": [{"arrangement": "7c 7d 7h 7s 8c", "probability": 1}]},
                "source": "mixture",
            },
            {
                "payload": st.sampled_from(
                    [
                        None,
                        3,
                        "x",
                        [],
                        {},
                        {"strategies": "x"},
                        {"strategies": [{"arrangement": 3, "probability": 1}]},
                    ]
                ),
                "source": WRONG_TEXT,
            },
        ),
        "read_mixture": Case(solver.read_mixture, {"path": "missing.json"}, {"path": WRONG_PATH}),
        "write_mixture": Case(
            solver.write_mixture,
            {"mixture": Mixture((ARRANGEMENT,), (1.0,)), "path": "out.json"},
            {"mixture": wrong_instance(), "path": WRONG_PATH},
        ),
        "rank_counts": Case(solver.rank_counts, {"cards": MINE}, {"cards": wrong_cards()}),
        "subsets": Case(
            solver.subsets, {"n": 6, "k": 5}, {"n": wrong_ints(0, 127), "k": wrong_ints(0, 127)}
        ),
        # best responses
        "best_response": Case(
            solver.best_response,
            {
                "holding": MINE,
                "opponent": OPPONENT,
                "objective": "margin",
                "time_limit": 10,
                "workers": 1,
                "fixed": None,
                "samples": 20,
                "estimate_samples": 100,
                "rng": np.random.default_rng(1),
            },
            {
                "holding": wrong_cards(),
                "opponent": wrong_instance(),
                "objective": wrong_choice("margin", "points", "win", "game"),
                "time_limit": wrong_numbers(),
                "workers": wrong_ints(1, 256),
                "fixed": st.sampled_from(
                    ["x", 3, {7: MINE[:5]}, {0: "x"}, {0: [0, 1, 2, 3, 32]}, {True: MINE[:5]}]
                ),
                "samples": wrong_ints(1, 10**6),
                "estimate_samples": wrong_ints(0, 10**7),
                "rng": wrong_instance(True),
            },
        ),
        "top_responses": Case(
            solver.top_responses,
            {
                "holding": MINE,
                "opponent": OPPONENT,
                "objective": "margin",
                "k": 1,
                "time_limit": 10,
                "workers": 1,
                "samples": 20,
                "estimate_samples": 100,
            },
            {
                "holding": wrong_cards(),
                "opponent": wrong_instance(),
                "objective": wrong_choice("margin", "points", "win", "game"),
                "k": wrong_ints(1, 1000),
                "time_limit": wrong_numbers(),
                "workers": wrong_ints(1, 256),
                "samples": wrong_ints(1, 10**6),
                "estimate_samples": wrong_ints(0, 10**7),
            },
        ),
        "frontier_best_response": Case(
            solver.frontier_best_response,
            {
                "holding": MINE,
                "opponent": OPPONENT,
                "objective": "margin",
                "samples": 20,
                "estimate_samples": 100,
                "rng": np.random.default_rng(1),
            },
            {
                "holding": wrong_cards(),
                "opponent": wrong_instance(),
                "objective": wrong_choice("margin", "points", "win", "game"),
                "fixed": st.sampled_from(["x", 3, {7: MINE[:5]}, {0: "x"}]),
                "samples": wrong_ints(1, 10**6),
                "estimate_samples": wrong_ints(0, 10**7),
                "rng": wrong_instance(True),
            },
        ),
        "cached_frontier": Case(
            solver.cached_frontier,
            {"holding": MINE, "rules": TWO},
            {"holding": wrong_cards(), "rules": wrong_instance(True)},
        ),
        # equilibria
        "solve_equilibrium": Case(
            solver.solve_equilibrium,
            {"first": MINE, "second": THEIRS, "rules": TWO, "payoff": "margin"},
            {
                "first": wrong_cards(),
                "second": wrong_cards(),
                "rules": wrong_instance(True),
                "payoff": wrong_choice("margin", "game"),
                "tolerance": wrong_numbers(positive=False),
                "time_limit": wrong_numbers(),
                "warm_simplex": WRONG_BOOL,
                "warm_up": WRONG_BOOL,
                "canonical": WRONG_BOOL,
                "ranges": WRONG_BOOL,
                "on_record": WRONG_CALLBACK,
                "start": wrong_instance(True),
            },
        ),
        "simple_strategy": Case(
            solver.simple_strategy,
            {"first": MINE, "second": THEIRS, "rules": TWO, "payoff": "margin", "k": 1},
            {
                "first": wrong_cards(),
                "second": wrong_cards(),
                "rules": wrong_instance(True),
                "payoff": wrong_choice("margin", "win"),
                "k": wrong_ints(1, solver.equilibria.simple_strategy.MAX_K, none=True),
                "seat": wrong_ints(1, 2),
                "equilibrium": wrong_instance(True),
            },
        ),
        "simple_strategies": Case(
            solver.simple_strategies,
            {"first": MINE, "second": THEIRS, "rules": TWO, "payoff": "margin", "ks": (1,)},
            {
                "first": wrong_cards(),
                "second": wrong_cards(),
                "rules": wrong_instance(True),
                "payoff": wrong_choice("margin", "win"),
                "ks": st.sampled_from([(), [0], (1, 51), "12", 3, None, (1.0,), (True,), [None]]),
                "seat": wrong_ints(1, 2),
                "equilibrium": wrong_instance(True),
            },
        ),
        "DEFAULT_SOURCE": Case(
            solver.DEFAULT_SOURCE,
            {"mine": MINE, "theirs": THEIRS, "rules": TWO, "payoff": "margin"},
            {
                "mine": wrong_cards(),
                "theirs": wrong_cards(),
                "rules": wrong_instance(True),
                "payoff": wrong_choice("margin", "game"),
                "on_record": WRONG_CALLBACK,
            },
        ),
        "EquilibriumSource": Case(
            EquilibriumSource,
            {"use_book": False},
            {
                "book": WRONG_PATH,
                "use_book": WRONG_BOOL,
                "tolerance": wrong_numbers(positive=False),
                "time_limit": wrong_numbers(),
                "keep": wrong_ints(0, 10**6),
                "canonical": WRONG_BOOL,
                "ranges": WRONG_BOOL,
            },
        ),
        # the book
        "Book": Case(
            Book,
            {"path": "book.sqlite"},
            {"path": WRONG_PATH, "create": WRONG_BOOL, "read_only": WRONG_BOOL},
        ),
        "default_book_path": Case(solver.default_book_path, {}, {}),
        "solve_with_book": Case(
            solver.solve_with_book,
            {"first": MINE, "second": THEIRS, "payoff": "margin", "rules": TWO, "book": None},
            {
                "first": wrong_cards(),
                "second": wrong_cards(),
                "payoff": wrong_choice("margin", "game"),
                "rules": wrong_instance(True),
                "book": wrong_instance(True),
                "tolerance": wrong_numbers(positive=False),
                "time_limit": wrong_numbers(),
                "on_record": WRONG_CALLBACK,
            },
        ),
        "build_book": Case(
            solver.build_book,
            {
                "path": "book.sqlite",
                "rules": TWO,
                "payoffs": ["margin"],
                "deals": 1,
                "seed": 0,
                "jobs": 1,
            },
            {
                "path": WRONG_PATH,
                "rules": wrong_instance(True),
                "payoffs": st.sampled_from([[], "x", 3, ["x"], [3], None]),
                "deals": wrong_ints(1, none=False),
                "seed": wrong_ints(0),
                "jobs": wrong_ints(1),
                "backend": wrong_choice("local", "dask"),
                "scheduler": st.sampled_from([3, 2.5, object()]),
                "batch": wrong_ints(1, 10**6),
                "tolerance": wrong_numbers(positive=False),
                "on_progress": WRONG_CALLBACK,
            },
        ),
        "book_stats": Case(solver.book_stats, {"book": None}, {"book": wrong_instance()}),
        # analysis
        "grade": Case(
            solver.grade,
            {
                "arrangement": ARRANGEMENT,
                "opponent_holding": THEIRS,
                "rules": TWO,
                "payoff": "margin",
            },
            {
                "arrangement": wrong_instance(),
                "opponent_holding": wrong_cards(none=True),
                "rules": wrong_instance(True),
                "payoff": wrong_choice("margin", "game"),
                "holding": wrong_cards(none=True),
                "equilibrium": wrong_instance(True),
                "solver": WRONG_CALLBACK,
            },
        ),
        "search_house_rules": Case(
            solver.search_house_rules,
            {"family": [HouseRule((1, 0))], "seeds": [1], "rules": TWO},
            {
                "family": st.sampled_from(["x", 3, [], ["x"], None]),
                "seeds": st.sampled_from([[], "x", 3, [1.5], [True], [-1], None]),
                "rules": wrong_instance(True),
                "solver": WRONG_CALLBACK,
            },
        ),
        "training_seeds": Case(solver.training_seeds, {"n": 3}, {"n": wrong_ints(0, 10**6)}),
        "holdout_seeds": Case(solver.holdout_seeds, {"n": 3}, {"n": wrong_ints(0, 10**6)}),
        # play
        "player": Case(
            solver.player,
            {"name": "greedy"},
            {
                "name": wrong_choice(
                    "random", "greedy", "house", "br-random", "br-greedy", "eq-margin", "eq-win"
                ),
                "equilibrium_time_limit": wrong_numbers(),
                "solver": WRONG_CALLBACK,
            },
        ),
        "players": Case(
            solver.players,
            {"names": "greedy"},
            {"names": st.sampled_from(["", "x", 3, None, ["x"], [3], "greedy,greedy"])},
        ),
        "describe_player": Case(
            solver.describe_player,
            {"name": "greedy", "lang": "en"},
            {
                "name": wrong_choice(
                    "random", "greedy", "house", "br-random", "br-greedy", "eq-margin", "eq-win"
                ),
                "lang": wrong_choice("en", "ru"),
            },
        ),
        "opponent_model": Case(
            solver.opponent_model,
            {"against": "random", "theirs": THEIRS, "known": None, "rules": TWO},
            {
                "against": wrong_choice("random", "greedy", "house", "known", "equilibrium"),
                "theirs": wrong_cards(),
                "known": st.sampled_from([3, object()]),
                "rules": wrong_instance(True),
            },
        ),
        "TournamentConfig": Case(
            TournamentConfig,
            {"players": ("greedy", "random"), "deals": 2, "seed": 1, "rules": TWO},
            {
                "players": st.sampled_from([(), ("greedy",), ("x", "greedy"), "greedy", 3, None]),
                "deals": wrong_ints(1, 10**7),
                "seed": wrong_ints(0),
                "rules": wrong_instance(),
                "equilibrium_time_limit": wrong_numbers(),
            },
        ),
        # agents
        "exploitability": Case(
            solver.exploitability,
            {"policy": {0: 1.0}, "deal": 1, "payoff": "margin", "rules": TWO},
            {
                "policy": st.sampled_from(["x", 3, {0: 2.0}, {-1: 1.0}, {0: "x"}, object()]),
                "deal": st.sampled_from(["x", -1, 1.5, [], [object()], object()]),
                "payoff": wrong_choice("margin", "win"),
                "rules": wrong_instance(True),
            },
        ),
        "learning_curves": Case(
            solver.learning_curves,
            {
                "seeds": 1,
                "rules": TWO,
                "payoff": "margin",
                "algorithms": ["regret_matching"],
                "checkpoints": [1],
            },
            {
                "seeds": st.sampled_from(["x", -1, [], 1.5, [2.5], object()]),
                "rules": wrong_instance(True),
                "payoff": wrong_choice("margin", "win"),
                "algorithms": st.sampled_from([["x"], ["cfr", "x"], "x", [3]]),
                "checkpoints": st.sampled_from([[], [0], [2, 1], ["x"], [1.5], [1, 1]]),
            },
        ),
        "summarize_curves": Case(
            solver.summarize_curves,
            {"points": ()},
            {"points": st.sampled_from(["x", 3, [3], [object()], None, [None]])},
        ),
        "run_tournament": Case(
            solver.run_tournament,
            {"config": TournamentConfig(("greedy", "random"), 1, 1, TWO), "jobs": 1},
            {
                "config": wrong_instance(),
                "jobs": wrong_ints(1),
                "backend": wrong_choice("local", "dask"),
                "scheduler": st.sampled_from([3, object()]),
                "on_deal": WRONG_CALLBACK,
                "on_record": WRONG_CALLBACK,
                "skip": st.sampled_from([3, "x", [1.5], [-1], [True]]),
                "connect_timeout": wrong_numbers(),
            },
        ),
    }
)

# The words errors start with where the front ends' phrase is not the argument's name
# (the command line speaks of "your holding", an arrangement's errors of the arrangement).
NAMES = {
    ("Arrangement", "packets"): "arrangement",
    ("Mixture.from_dict", "payload"): "mixture",
    ("Rules", "position_points"): "position points",
    ("Rules", "discard_mode"): "discard mode",
    **{
        (name, "holding"): "your holding"
        for name in ("best_response", "top_responses", "frontier_best_response")
    },
    **{
        (name, "first"): "player 1's holding"
        for name in ("solve_equilibrium", "solve_with_book", "simple_strategy", "simple_strategies")
    },
    **{
        (name, "second"): "player 2's holding"
        for name in ("solve_equilibrium", "solve_with_book", "simple_strategy", "simple_strategies")
    },
    ("simple_strategies", "ks"): ("ks", "k"),
    ("DEFAULT_SOURCE", "mine"): "your holding",
    ("DEFAULT_SOURCE", "theirs"): "opponent's holding",
    ("Opponent.random", "holding"): "opponent's holding",
    ("opponent_model", "theirs"): "opponent's holding",
    ("build_book", "payoffs"): "payoff",
    ("player", "name"): "player",
    ("describe_player", "name"): "player",
    ("players", "names"): ("player", "players"),
    ("TournamentConfig", "players"): "players",
}

# Public callables that take nothing to check, or trust what they are given by design.
EXEMPT = {
    "Arrangement.trusted": "built without checks by design (the book checks its arrays in numpy)",
    "Mixture.trusted": "built without checks by design (the book checks its arrays in numpy)",
    "Player": "a Protocol: not called",
}


def _public_callables() -> list[str]:
    names = []
    for name in solver.__all__:
        value = getattr(solver, name)
        if not callable(value) or name in RECORDS:
            continue
        if inspect.isclass(value) and (
            issubclass(value, BaseException) or hasattr(value, "__members__")
        ):
            continue  # exceptions and enums
        names.append(name)
        if inspect.isclass(value):
            for attribute, member in vars(value).items():
                if isinstance(member, classmethod) and not attribute.startswith("_"):
                    names.append(f"{name}.{attribute}")
    for name in RECORDS:
        value = getattr(solver, name)
        for attribute, member in vars(value).items():
            if isinstance(member, classmethod) and not attribute.startswith("_"):
                names.append(f"{name}.{attribute}")
    return names


def test_every_public_callable_has_a_case():
    missing = [name for name in _public_callables() if name not in CASES and name not in EXEMPT]
    assert not missing, f"public callables without a case in CASES: {missing}"
    unknown = set(CASES) - set(_public_callables())
    assert not unknown, f"cases of no public callable: {sorted(unknown)}"


def test_every_argument_of_a_case_is_a_parameter():
    for name, case in CASES.items():
        parameters = inspect.signature(case.call).parameters
        for argument in (*case.valid, *case.wrong):
            assert argument in parameters, (name, argument)


ARGUMENTS = [(name, argument) for name, case in CASES.items() for argument in case.wrong]


def _refused(name: str, argument: str, value: object) -> None:
    """``CASES[name]`` called with ``argument=value`` raises a TypeError or a QuintetError
    naming the argument, having allocated less than MAX_PEAK."""
    case = CASES[name]
    alias = NAMES.get((name, argument), ())
    words = (argument, *((alias,) if isinstance(alias, str) else alias))
    tracemalloc.start()
    try:
        case.call(**{**case.valid, argument: value})
    except (TypeError, QuintetError) as error:
        peak = tracemalloc.get_traced_memory()[1]
        message = str(error)
        assert any(re.search(rf"(^|\W){re.escape(word)}(\W|$)", message) for word in words), (
            f"{name}({argument}={value!r}): {type(error).__name__}: {message}"
        )
        assert peak < MAX_PEAK, (
            f"{name}({argument}={value!r}) allocated {peak} bytes before refusing"
        )
    except Exception as error:
        pytest.fail(f"{name}({argument}={value!r}): {type(error).__name__}: {error}")
    else:
        pytest.fail(f"{name} accepted {argument}={value!r}")
    finally:
        tracemalloc.stop()


def _settings(examples: int) -> settings:
    return settings(
        derandomize=True,
        max_examples=examples,
        database=None,
        deadline=None,  # no timing asserts: a slow refusal shows as a slow test
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )


ARGUMENT_IDS = [f"{n}-{a}" for n, a in ARGUMENTS]


@pytest.mark.parametrize(("name", "argument"), ARGUMENTS, ids=ARGUMENT_IDS)
@_settings(10)
@given(data=st.data())
def test_wrong_input_is_refused_by_name(name, argument, data, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a path taken as given lands here
    _refused(name, argument, data.draw(CASES[name].wrong[argument], label=argument))


@pytest.mark.slow
@pytest.mark.parametrize(("name", "argument"), ARGUMENTS, ids=ARGUMENT_IDS)
@_settings(150)
@given(data=st.data())
def test_wrong_input_is_refused_by_name_thoroughly(name, argument, data, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _refused(name, argument, data.draw(CASES[name].wrong[argument], label=argument))
