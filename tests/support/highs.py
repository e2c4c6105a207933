"""HiGHS's answers to the recorded restricted games, computed in a process of its own.

OR-Tools bundles another HiGHS under the same library name (``libhighs.so.1``),
so highspy and OR-Tools's linear solvers cannot both load in one process:
whichever comes second fails on a missing symbol.  The differential test
(``tests/lp/test_highs.py``) therefore asks a fresh interpreter, which imports
highspy and numpy only::

    python -m tests.support.highs tests/support/data/restricted_games.npz

prints one JSON object: for each game of the file and each of its
:func:`pieces` (``"name/piece"``), the value HiGHS finds for the row player.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[2]
GAMES = REPO / "tests" / "support" / "data" / "restricted_games.npz"
STEPS = 4  # the leading blocks a game grows through, the whole game last
TOLERANCE = 1e-10  # HiGHS's primal and dual feasibility tolerances (the least it takes)


def pieces(shape: tuple[int, ...]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """The sub-games the test solves, by name: leading blocks (rows and columns growing at
    their own pace, as the double oracle grows them), then the even rows against the odd
    columns (not symmetric, unlike most whole games: their value is not 0)."""
    rows, columns = shape
    found = {}
    for step in range(1, STEPS + 1):
        size = (-(-rows * step // STEPS), -(-columns * step * step // STEPS**2))
        found[f"grown{step}"] = (np.arange(size[0]), np.arange(size[1]))
    found["restricted"] = (np.arange(0, rows, 2), np.arange(1, columns, 2))
    return found


def value(matrix: np.ndarray) -> float:
    """The game's value from one HiGHS program: max v, x in the simplex, x^T A >= v."""
    import highspy

    model = highspy.Highs()
    model.setOptionValue("output_flag", False)
    for name in ("primal_feasibility_tolerance", "dual_feasibility_tolerance"):
        model.setOptionValue(name, TOLERANCE)
    infinite, rows = highspy.kHighsInf, matrix.shape[0]
    model.addCol(1.0, -infinite, infinite, 0, np.zeros(0, dtype=np.int32), np.zeros(0))
    for _ in range(rows):
        model.addCol(0.0, 0.0, infinite, 0, np.zeros(0, dtype=np.int32), np.zeros(0))
    index = np.arange(rows + 1, dtype=np.int32)
    model.addRow(1.0, 1.0, rows, index[1:], np.ones(rows))
    for column in matrix.T:
        model.addRow(0.0, infinite, rows + 1, index, np.r_[-1.0, column])
    model.changeObjectiveSense(highspy.ObjSense.kMaximize)
    model.run()
    if model.getModelStatus() != highspy.HighsModelStatus.kOptimal:
        raise RuntimeError(f"HiGHS: {model.getModelStatus()}")
    return float(model.getInfo().objective_function_value)


def answers(path: Path = GAMES) -> dict[str, float]:
    """HiGHS's value of every piece of every game in ``path``, from a fresh interpreter."""
    environment = os.environ | {"PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [sys.executable, "-m", "tests.support.highs", str(path)],
        capture_output=True, text=True, cwd=REPO, env=environment, check=True,
    )  # fmt: skip
    # The JSON is the last line: HiGHS may print its banner on stdout first (1.16 does).
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(path: str) -> None:
    games = np.load(path)
    found = {}
    for name in games.files:
        game = games[name].astype(np.float64)
        for piece, (rows, columns) in pieces(game.shape).items():
            found[f"{name}/{piece}"] = value(game[np.ix_(rows, columns)])
    print(json.dumps(found))


if __name__ == "__main__":
    main(sys.argv[1])
