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
(``quintet serve``).  Importing ``solver`` is cheap: no table is built and
OR-Tools is not loaded until a function needs it.

>>> import solver
>>> solver.Rules().total_points
25
"""

from __future__ import annotations

from solver.errors import (
    ArrangementError,
    CardError,
    MixtureError,
    QuintetError,
    RulesError,
    SolverError,
)
from solver.game.arrangement import Arrangement, GameResult, Outcome, Score, points_against, score
from solver.game.cards import format_cards, parse_cards
from solver.game.deal import Deal, deal
from solver.game.evaluator import category, colex_index, hand_table, strength
from solver.game.rules import Category, DiscardMode, Rules
from solver.util.language import Lang

__version__ = "0.1.0"

__all__ = [
    "Arrangement",
    "ArrangementError",
    "CardError",
    "Category",
    "Deal",
    "DiscardMode",
    "GameResult",
    "Lang",
    "MixtureError",
    "Outcome",
    "QuintetError",
    "Rules",
    "RulesError",
    "Score",
    "SolverError",
    "__version__",
    "category",
    "colex_index",
    "deal",
    "format_cards",
    "hand_table",
    "parse_cards",
    "points_against",
    "score",
    "strength",
]
