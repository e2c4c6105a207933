"""quintet-solver: exact rules, optimal arrangements and certified equilibria for Quintet.

Quintet is a two-player poker game of pure arrangement: each player splits
25 cards of a 32-card deck into five five-card packets and lays them out in
order; packets are compared position by position for 3, 4, 5, 6 and 7 points.

The package is layered, one subpackage per layer, each importing only the
layers below it: :mod:`solver.util` (files, phrases, time limits, JSON
text, the Dask connection), :mod:`solver.game` (cards, rules, evaluator, deal,
arrangements), :mod:`solver.models` (packet options, opponent models,
heuristics, mixtures), :mod:`solver.response` (best responses: CP-SAT and the
strategy frontier), :mod:`solver.equilibria` (matrix games, double oracle),
:mod:`solver.book` (the solution book), :mod:`solver.analysis` (grading an
arrangement), :mod:`solver.play` (players, tournaments, the interactive
table), :mod:`solver.cli` (the ``quintet`` command) and :mod:`solver.web`
(``quintet serve``).

Everything a user of the library needs is importable from ``solver`` itself
(``from solver import best_response``); the layers' other modules are the
implementation.  Importing ``solver`` is cheap: it loads the errors and nothing else, not
even numpy; every name below but the errors is imported from its module on
first use (:pep:`562`), so numpy, OR-Tools, SciPy and SQLite are not loaded
until a function needs them (and the command line can choose numpy's threads
before it loads, :mod:`solver.cli`).

Attributes
----------
Rules, DiscardMode, Category
    The rule options (:mod:`solver.game.rules`).
parse_cards, format_cards, Lang
    Cards in either notation (:mod:`solver.game.cards`).
strength, category, colex_index, hand_table
    The hand evaluator (:mod:`solver.game.evaluator`).
Deal, deal
    Seeded deals (:mod:`solver.game.deal`).
Arrangement, score, points_against, Score, Outcome, GameResult
    Arrangements and scoring (:mod:`solver.game.arrangement`).
QuintetError, CardError, RulesError, ArrangementError, MixtureError, SolverError
    The errors (:mod:`solver.errors`), all ``ValueError``.
Opponent, OpponentKind, Objective, PositionStats, expected_value, position_stats, strength_probabilities
    Opponent models and what a player maximizes (:mod:`solver.models.opponents`).
greedy_arrangement, random_arrangement, HouseRule, HOUSE_RULE, house_rule, house_arrangement
    Simple players: the greedy heuristic and the house rule.
Mixture, read_mixture, write_mixture
    Mixed strategies and their JSON file (:mod:`solver.models.mixture`).
rank_counts, subsets
    Holdings' rank counts and the packets of a holding (:mod:`solver.models.packets`).
best_response, top_responses, BestResponse, SolveStatus, Engine
    Exact best responses by CP-SAT (:mod:`solver.response.best_response`).
frontier_best_response, Frontier, cached_frontier
    Exact best responses over the strategy frontier (:mod:`solver.response`).
solve_equilibrium, EquilibriumResult, Payoff, IterationRecord
    Certified equilibria by double oracle (:func:`solver.equilibria.equilibrium.solve`).
simple_strategy, simple_strategies, SimpleStrategy
    The best strategy found mixing at most k arrangements, with its certified
    exploitability (:mod:`solver.equilibria.simple_strategy`).
Book, BookError, default_book_path, solve_with_book, BookAnswer, build_book, book_stats
    The solution book (:mod:`solver.book`; ``build_book`` is
    :func:`solver.book.build.build`).
EquilibriumSource, DEFAULT_SOURCE
    The one source of equilibria: in-process cache, then the book, then a
    solve (:mod:`solver.book.source`).
grade, Grade, Verdict
    Grading an arrangement against the equilibrium (:mod:`solver.analysis.grade`).
search_house_rules, HOUSE_FAMILY, HouseFamily, training_seeds, holdout_seeds
    Searching house rules (:func:`solver.analysis.house_search.search`).
player, players, Player, PLAYER_NAMES, describe_player
    The named computer players (:mod:`solver.play.players`).
run_tournament, TournamentConfig, TournamentResult
    Tournaments (:func:`solver.play.tournament.run`).
exploitability, Exploitability
    The exact exploitability of any policy of a deal or of several
    (:mod:`solver.agents.exploitability`; the OpenSpiel, PettingZoo and
    Gymnasium interfaces are in :mod:`solver.agents`).
learning_curves, summarize_curves, CurvePoint, CurveSummary
    OpenSpiel's learning algorithms scored exactly, beside double oracle
    (:mod:`solver.agents.learning`; needs the ``agents`` extra).

Examples
--------
>>> import solver
>>> solver.Rules().total_points
25
>>> game = solver.deal(seed=1)
>>> solver.greedy_arrangement(game.holdings[0]).format()
'7♣ 7♥ 7♠ 10♠ A♠ | 8♣ 8♦ 9♦ 9♥ 9♠ | 9♣ 10♣ J♣ Q♣ K♣ | 10♥ J♥ Q♥ K♥ A♥ | 10♦ J♦ Q♦ K♦ A♦'
>>> opponent = solver.Opponent.random(game.holdings[1])
>>> result = solver.frontier_best_response(game.holdings[0], opponent, solver.Objective.MARGIN)
>>> round(result.value, 4), result.status.value
(24.9449, 'optimal')
>>> solver.best_response is solver.response.best_response.best_response
True
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from solver.errors import (
    ArrangementError,
    CardError,
    MixtureError,
    QuintetError,
    RulesError,
    SolverError,
)
from solver.util.language import Lang
from solver.version import __version__

if TYPE_CHECKING:  # the lazy names, for type checkers (tests/test_public_api.py keeps them in step)
    from solver.agents.exploitability import Exploitability, exploitability
    from solver.agents.learning import CurvePoint, CurveSummary, learning_curves
    from solver.agents.learning import summarize as summarize_curves
    from solver.analysis.grade import Grade, Verdict, grade
    from solver.analysis.house_search import (
        HOUSE_FAMILY,
        HouseFamily,
        holdout_seeds,
        training_seeds,
    )
    from solver.analysis.house_search import search as search_house_rules
    from solver.book.build import build as build_book
    from solver.book.location import default_book_path
    from solver.book.lookup import BookAnswer, solve_with_book
    from solver.book.source import DEFAULT_SOURCE, EquilibriumSource
    from solver.book.stats import book_stats
    from solver.book.store import Book
    from solver.equilibria.double_oracle import IterationRecord
    from solver.equilibria.equilibrium import EquilibriumResult
    from solver.equilibria.equilibrium import solve as solve_equilibrium
    from solver.equilibria.payoff import Payoff
    from solver.equilibria.simple_strategy import (
        SimpleStrategy,
        simple_strategies,
        simple_strategy,
    )
    from solver.errors import BookError
    from solver.game.arrangement import (
        Arrangement,
        GameResult,
        Outcome,
        Score,
        points_against,
        score,
    )
    from solver.game.cards import format_cards, parse_cards
    from solver.game.deal import Deal, deal
    from solver.game.evaluator import category, colex_index, hand_table, strength
    from solver.game.rules import Category, DiscardMode, Rules
    from solver.models.heuristics import greedy_arrangement, random_arrangement
    from solver.models.house import HOUSE_RULE, HouseRule, house_arrangement, house_rule
    from solver.models.mixture import Mixture, read_mixture, write_mixture
    from solver.models.opponents import (
        Objective,
        Opponent,
        OpponentKind,
        PositionStats,
        expected_value,
        position_stats,
        strength_probabilities,
    )
    from solver.models.packets import rank_counts, subsets
    from solver.play.players import PLAYER_NAMES, Player, describe_player, player, players
    from solver.play.registry import OPPONENTS, opponent_model
    from solver.play.tournament import TournamentConfig, TournamentResult
    from solver.play.tournament import run as run_tournament
    from solver.response.best_response import best_response, top_responses
    from solver.response.frontier import Frontier, cached_frontier
    from solver.response.frontier_response import frontier_best_response
    from solver.response.results import BestResponse, Engine, SolveStatus

# The lazily imported names: public name -> "module" (the same name there) or
# "module:name" (another name there).  The one place to update when a
# definition moves or is renamed.
_LAZY: dict[str, str] = {
    # the game (numpy)
    "Arrangement": "solver.game.arrangement",
    "GameResult": "solver.game.arrangement",
    "Outcome": "solver.game.arrangement",
    "Score": "solver.game.arrangement",
    "points_against": "solver.game.arrangement",
    "score": "solver.game.arrangement",
    "format_cards": "solver.game.cards",
    "parse_cards": "solver.game.cards",
    "Deal": "solver.game.deal",
    "deal": "solver.game.deal",
    "category": "solver.game.evaluator",
    "colex_index": "solver.game.evaluator",
    "hand_table": "solver.game.evaluator",
    "strength": "solver.game.evaluator",
    "Category": "solver.game.rules",
    "DiscardMode": "solver.game.rules",
    "Rules": "solver.game.rules",
    # models
    "Objective": "solver.models.opponents",
    "Opponent": "solver.models.opponents",
    "OpponentKind": "solver.models.opponents",
    "PositionStats": "solver.models.opponents",
    "expected_value": "solver.models.opponents",
    "position_stats": "solver.models.opponents",
    "strength_probabilities": "solver.models.opponents",
    "greedy_arrangement": "solver.models.heuristics",
    "random_arrangement": "solver.models.heuristics",
    "HOUSE_RULE": "solver.models.house",
    "HouseRule": "solver.models.house",
    "house_arrangement": "solver.models.house",
    "house_rule": "solver.models.house",
    "Mixture": "solver.models.mixture",
    "read_mixture": "solver.models.mixture",
    "write_mixture": "solver.models.mixture",
    "rank_counts": "solver.models.packets",
    "subsets": "solver.models.packets",
    # best responses
    "BestResponse": "solver.response.results",
    "SolveStatus": "solver.response.results",
    "Engine": "solver.response.results",
    "best_response": "solver.response.best_response",
    "top_responses": "solver.response.best_response",
    "frontier_best_response": "solver.response.frontier_response",
    "Frontier": "solver.response.frontier",
    "cached_frontier": "solver.response.frontier",
    # equilibria
    "solve_equilibrium": "solver.equilibria.equilibrium:solve",
    "EquilibriumResult": "solver.equilibria.equilibrium",
    "IterationRecord": "solver.equilibria.double_oracle",
    "Payoff": "solver.equilibria.payoff",
    "SimpleStrategy": "solver.equilibria.simple_strategy",
    "simple_strategy": "solver.equilibria.simple_strategy",
    "simple_strategies": "solver.equilibria.simple_strategy",
    # the book
    "Book": "solver.book.store",
    "default_book_path": "solver.book.location",
    "BookError": "solver.errors",
    "BookAnswer": "solver.book.lookup",
    "solve_with_book": "solver.book.lookup",
    "build_book": "solver.book.build:build",
    "book_stats": "solver.book.stats",
    "EquilibriumSource": "solver.book.source",
    "DEFAULT_SOURCE": "solver.book.source",
    # analysis
    "Grade": "solver.analysis.grade",
    "Verdict": "solver.analysis.grade",
    "grade": "solver.analysis.grade",
    "HOUSE_FAMILY": "solver.analysis.house_search",
    "HouseFamily": "solver.analysis.house_search",
    "search_house_rules": "solver.analysis.house_search:search",
    "training_seeds": "solver.analysis.house_search",
    "holdout_seeds": "solver.analysis.house_search",
    # play
    "PLAYER_NAMES": "solver.play.players",
    "Player": "solver.play.players",
    "describe_player": "solver.play.players",
    "player": "solver.play.players",
    "players": "solver.play.players",
    "OPPONENTS": "solver.play.registry",
    "opponent_model": "solver.play.registry",
    "TournamentConfig": "solver.play.tournament",
    "TournamentResult": "solver.play.tournament",
    "run_tournament": "solver.play.tournament:run",
    # agents
    "Exploitability": "solver.agents.exploitability",
    "exploitability": "solver.agents.exploitability",
    "CurvePoint": "solver.agents.learning",
    "CurveSummary": "solver.agents.learning",
    "learning_curves": "solver.agents.learning",
    "summarize_curves": "solver.agents.learning:summarize",
}


def __getattr__(name: str) -> Any:
    """Import a lazy name from its module on first use, then keep it (:pep:`562`)."""
    try:
        target = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    module, _, attribute = target.partition(":")
    value = getattr(importlib.import_module(module), attribute or name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "DEFAULT_SOURCE",
    "HOUSE_FAMILY",
    "HOUSE_RULE",
    "OPPONENTS",
    "PLAYER_NAMES",
    "Arrangement",
    "ArrangementError",
    "BestResponse",
    "Book",
    "BookAnswer",
    "BookError",
    "CardError",
    "Category",
    "CurvePoint",
    "CurveSummary",
    "Deal",
    "DiscardMode",
    "Engine",
    "EquilibriumResult",
    "EquilibriumSource",
    "Exploitability",
    "Frontier",
    "GameResult",
    "Grade",
    "HouseFamily",
    "HouseRule",
    "IterationRecord",
    "Lang",
    "Mixture",
    "MixtureError",
    "Objective",
    "Opponent",
    "OpponentKind",
    "Outcome",
    "Payoff",
    "Player",
    "PositionStats",
    "QuintetError",
    "Rules",
    "RulesError",
    "Score",
    "SimpleStrategy",
    "SolveStatus",
    "SolverError",
    "TournamentConfig",
    "TournamentResult",
    "Verdict",
    "__version__",
    "best_response",
    "book_stats",
    "build_book",
    "cached_frontier",
    "category",
    "colex_index",
    "deal",
    "default_book_path",
    "describe_player",
    "expected_value",
    "exploitability",
    "format_cards",
    "frontier_best_response",
    "grade",
    "greedy_arrangement",
    "hand_table",
    "holdout_seeds",
    "house_arrangement",
    "house_rule",
    "learning_curves",
    "opponent_model",
    "parse_cards",
    "player",
    "players",
    "points_against",
    "position_stats",
    "random_arrangement",
    "rank_counts",
    "read_mixture",
    "run_tournament",
    "score",
    "search_house_rules",
    "simple_strategies",
    "simple_strategy",
    "solve_equilibrium",
    "solve_with_book",
    "strength",
    "strength_probabilities",
    "subsets",
    "summarize_curves",
    "top_responses",
    "training_seeds",
    "write_mixture",
]
