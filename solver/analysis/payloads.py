"""A grade as JSON: points as numbers, arrangements as lists of ASCII card codes.

The ``quintet grade --json`` output and each line of a training history
(``quintet train --history``) use this form.
"""

from __future__ import annotations

from typing import Any

from solver.analysis.grade import Grade
from solver.game.payloads import arrangement_payload, cards_payload
from solver.models.mixture import Mixture

__all__ = ["grade_payload", "likely_arrangements"]


def likely_arrangements(mixture: Mixture, limit: int) -> list[tuple[float, Any]]:
    """The ``limit`` most likely arrangements of a mixture, most likely first.

    >>> import numpy as np
    >>> from solver.game.arrangement import Arrangement
    >>> a = Arrangement.from_array(np.arange(25).reshape(5, 5))
    >>> [p for p, _ in likely_arrangements(Mixture((a,), (1.0,)), 3)]
    [1.0]
    """
    order = sorted(range(len(mixture.arrangements)), key=lambda i: -mixture.probabilities[i])
    return [(float(mixture.probabilities[i]), mixture.arrangements[i]) for i in order[:limit]]


def grade_payload(grade: Grade, *, likely: int = 3) -> dict[str, Any]:
    """Every figure of a grade for JSON (points unless named otherwise)."""
    change = grade.change
    return {
        "arrangement": arrangement_payload(grade.arrangement),
        "strengths": [int(s) for s in grade.arrangement.strengths(grade.rules)],
        "verdict": grade.verdict.value,
        "game_value": grade.equilibrium.value,
        "value": grade.value,
        "equilibrium_loss": grade.equilibrium_loss,
        "certificate_gap": grade.certificate_gap,
        "win_loss": grade.win_loss,
        "exploitability": grade.exploitability,
        "punishing": arrangement_payload(grade.punishing),
        "against_random": {
            "value": grade.against_random,
            "best": grade.best_against_random,
            "gap": grade.random_gap,
        },
        "against_greedy": {
            "value": grade.against_greedy,
            "best": grade.best_against_greedy,
            "gap": grade.greedy_gap,
        },
        "dominated": grade.dominated,
        "dominating": None if grade.dominating is None else arrangement_payload(grade.dominating),
        "change": None
        if change is None
        else {
            "kind": change.kind.value,
            "positions": list(change.positions),
            "given": cards_payload(change.given),
            "taken": cards_payload(change.taken),
            "arrangement": arrangement_payload(change.arrangement),
            "equilibrium_loss": change.equilibrium_loss,
            "candidates": change.candidates,
        },
        "equilibrium": [
            {"probability": p, "arrangement": arrangement_payload(a)}
            for p, a in likely_arrangements(grade.equilibrium.row, likely)
        ],
    }
