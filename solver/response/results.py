"""Results of the solvers: what was found, and what was proved about it.

>>> SolveStatus("optimal").value
'optimal'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from solver.game.arrangement import Arrangement
from solver.models.opponents import Objective, PositionStats

__all__ = [
    "STOPPED",
    "TIME_LIMIT_REACHED",
    "BestResponse",
    "Engine",
    "Estimate",
    "ModelSolve",
    "SolveStatus",
]

# The notes of a result a search did not finish (its status is feasible, its gap shown).
STOPPED = "stopped by Ctrl-C: the best found, not proven"
TIME_LIMIT_REACHED = "time limit reached: the best found, not proven"


class Engine(str, Enum):
    """What found a best response.

    >>> Engine("frontier") is Engine.FRONTIER
    True
    """

    CPSAT = "cpsat"  # the CP-SAT model, proven optimal or with its gap
    FRONTIER = "frontier"  # exhaustive search of the holding's strategy frontier
    EQUILIBRIUM = "equilibrium"  # a sample of the equilibrium strategy


class SolveStatus(str, Enum):
    """What the solver proved about a result."""

    OPTIMAL = "optimal"  # no arrangement is better (up to the reported gap)
    FEASIBLE = "feasible"  # the best found within the time limit; see the gap


@dataclass(frozen=True)
class ModelSolve:
    """One CP-SAT model solved during a search: its size and its time.

    ``booleans`` is the number of (option, position) variables the model kept;
    ``unpruned`` the number a model of every option at every free position
    would have; ``seconds`` the solve's wall time.
    """

    booleans: int
    unpruned: int
    seconds: float


@dataclass(frozen=True)
class Estimate:
    """A Monte Carlo estimate on fresh samples: mean and its standard error."""

    mean: float
    stderr: float
    n_samples: int


@dataclass(frozen=True)
class BestResponse:
    """An optimized arrangement and what is known about it.

    Attributes
    ----------
    arrangement
        The packets, position 1 first.
    strengths
        Packet strengths in position order.
    objective
        What was maximized.
    value
        Exact value of ``arrangement`` against the model optimized against
        (for win against a random opponent: the sampled arrangements).
    bound
        Upper bound on the value of any arrangement against that model.
    status
        Optimal or feasible.
    seconds
        Wall time (model building and solving).
    engine
        What found it (:class:`Engine`).
    positions
        Win, tie and loss chances and expected points at each position,
        against the opponent model itself.
    estimate
        For win or game against a random opponent, the value on fresh samples.
    note
        What the proof covers, when it needs saying.
    models
        The CP-SAT models the search solved, in order (for the runners-up of
        :func:`~solver.response.best_response.top_responses`: the whole
        search's); empty for the frontier engine.
    """

    arrangement: Arrangement
    strengths: tuple[int, ...]
    objective: Objective
    value: float
    bound: float
    status: SolveStatus
    seconds: float
    engine: Engine
    positions: tuple[PositionStats, ...]
    estimate: Estimate | None = None
    note: str = ""
    models: tuple[ModelSolve, ...] = ()

    def __post_init__(self) -> None:
        # A probability (win, game) is at most 1, whatever bound a solver
        # stopped early reports (CP-SAT's can be far above 1, or infinite).
        if self.objective in (Objective.WIN_PROBABILITY, Objective.GAME_RESULT):
            object.__setattr__(self, "value", min(1.0, max(0.0, self.value)))
            object.__setattr__(self, "bound", max(self.value, min(1.0, self.bound)))

    @property
    def gap(self) -> float:
        """``bound - value``, never negative."""
        return max(0.0, self.bound - self.value)

    @property
    def proven_optimal(self) -> bool:
        """Whether the solver proved that no arrangement does better."""
        return self.status is SolveStatus.OPTIMAL
