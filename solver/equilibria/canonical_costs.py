"""The canonical costs: a fixed hash of each frontier strategy's id (:mod:`solver.equilibria.canonical`).

The canonical strategy is the optimal vertex of least ``h . x``; hashed
costs are in general position, so that vertex is unique.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from solver.errors import SolverError

__all__ = ["costs"]


def costs(strategies: Sequence[int] | np.ndarray) -> np.ndarray:
    """The canonical costs ``h`` of frontier strategies: a fixed hash of each id, in ``[0, 1)``.

    >>> costs([0, 1, 2]).round(3).tolist()
    [0.883, 0.567, 0.591]
    >>> costs([-1])
    Traceback (most recent call last):
        ...
    solver.errors.SolverError: strategy ids are non-negative, got -1
    """
    ids = np.asarray(strategies, dtype=np.int64)
    if ids.size and int(ids.min()) < 0:
        raise SolverError(f"strategy ids are non-negative, got {int(ids.min())}")
    # splitmix64's finalizer: a linear hash (id times the golden ratio,
    # modulo 1) made ties, h_a + h_b = h_c + h_d whenever a + b = c + d, and
    # with them two optimal vertices (measured: independent margin deal 2).
    z = ids.astype(np.uint64) + np.uint64(0x9E3779B97F4A7C15)
    with np.errstate(over="ignore"):
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(11)).astype(np.float64) / float(1 << 53)
