"""The work a job does, in its own process: suggest, equilibrium, grade, play.

Each function takes plain, picklable values (the holdings already checked
by the server), calls the same argparse-free helpers as the command line,
and returns the JSON document ``--json`` prints.  :func:`run` is the target
of a job's process: it sends ``("progress", dict)`` messages while working
and ends with ``("done", document)`` or ``("error", message, argument)``.
"""

from __future__ import annotations

import time
from multiprocessing.connection import Connection
from typing import Any

import numpy as np

from solver.analysis.solutions import BookSolutions
from solver.cli.commands import Setup
from solver.cli.commands_grade import grade_output
from solver.cli.commands_solve import equilibrium_output, suggest_output
from solver.cli.report import score_report
from solver.equilibria.equilibrium import IterationRecord
from solver.errors import QuintetError
from solver.game.arrangement import Arrangement, score
from solver.game.rules import Rules
from solver.play.players import describe_player, player

__all__ = ["KINDS", "equilibrium", "grade", "play", "run", "suggest"]


def suggest(setup: Setup, rules: Rules, options: dict[str, Any], send: Any) -> dict[str, Any]:
    """The document of ``quintet suggest --json`` with these options."""
    return suggest_output(setup, rules, "en", **options).payload


def equilibrium(setup: Setup, rules: Rules, options: dict[str, Any], send: Any) -> dict[str, Any]:
    """The document of ``quintet equilibrium --json``; each iteration is reported."""

    def progress(record: IterationRecord) -> None:
        send(
            {
                "iteration": record.iteration,
                "strategies": [record.row_strategies, record.column_strategies],
                "lower": record.lower,
                "upper": record.upper,
                "gap": record.gap,
                "seconds": record.seconds,
            }
        )

    return equilibrium_output(setup, rules, "en", on_record=progress, **options).payload


def grade(setup: Setup, rules: Rules, options: dict[str, Any], send: Any) -> dict[str, Any]:
    """The document of ``quintet grade --json``: the deal looked up in the book or solved."""
    return grade_output(setup, rules, "en", **options).payload


def play(setup: Setup, rules: Rules, options: dict[str, Any], send: Any) -> dict[str, Any]:
    """The computer's arrangement against yours, and the score (``quintet score --json``).

    The computer arranges the opponent's holding without seeing yours, with
    the generator ``quintet play`` uses (seeded by the deal's seed).
    """
    # The eq-* players look the deal up in the book (and store what they solve).
    solutions = BookSolutions(time_limit=options.get("time_limit"))
    computer = player(options["opponent"], solver=solutions)
    mine = Arrangement.parse(options["arrangement"], n_packets=rules.n_packets)
    mine.check(setup.mine, rules)
    rng = np.random.default_rng([setup.seed, 2])
    theirs = computer.arrange(setup.theirs, setup.mine, rules, rng)
    report = score_report(mine, theirs, score(mine, theirs, rules), rules, "en")
    return {
        "opponent": computer.name,
        "description": {lang: describe_player(computer.name, lang) for lang in ("en", "ru")},
        "seed": setup.seed,
        "score": report.payload,
    }


KINDS = {"suggest": suggest, "equilibrium": equilibrium, "grade": grade, "play": play}


def run(
    connection: Connection, kind: str, setup: Setup, rules: Rules, options: dict[str, Any]
) -> None:
    """A job's process: do the work and send its messages on ``connection``."""
    started = time.perf_counter()

    def send(progress: dict[str, Any]) -> None:
        connection.send(("progress", {**progress, "elapsed": time.perf_counter() - started}))

    try:
        document = KINDS[kind](setup, rules, options, send)
    except QuintetError as error:
        connection.send(("error", str(error), error.argument))
    except Exception as error:  # reported as an internal error, never a traceback
        connection.send(("crash", f"{type(error).__name__}: {error}", None))
    else:
        connection.send(("done", document))
    finally:
        connection.close()
