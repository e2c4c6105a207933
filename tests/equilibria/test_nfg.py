"""Gambit export: the .nfg file parses back, its payoffs are exact, its value is certified.

The file is read by a parser written here from Gambit's format description,
not by the exporter's code; its game is then solved by another route (HiGHS
through scipy for the supports, then exact rational arithmetic to prove the
value), and the value is checked, as a fraction, against the certificate's
``[lower, upper]``.  Where pygambit installs, Gambit itself solves the file too.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import cache

import numpy as np
import pytest
from scipy.optimize import linprog

from solver.cli.main import main
from solver.equilibria.certificate import certificate
from solver.equilibria.equilibrium import solve
from solver.equilibria.nfg import nfg_text, support
from solver.errors import SolverError
from solver.game.arrangement import Arrangement, score
from solver.game.deal import deal
from solver.game.rules import Rules

REDUCED = {
    "mirror2": Rules(position_points=(6, 7)),
    "independent2": Rules(position_points=(6, 7), discard_mode="independent"),
    "independent3": Rules(position_points=(5, 6, 7), discard_mode="independent"),
    "independent": Rules(discard_mode="independent"),
}
TOKEN = re.compile(r'"[^"]*"|[{}]|[^\s{}"]+')


def parse_nfg(text: str) -> tuple[str, list[list[str]], str, list[Fraction]]:
    """Title, strategy labels of each player, comment and the payoff list of an .nfg file."""
    tokens = TOKEN.findall(text)
    assert tokens[:3] == ["NFG", "1", "R"]
    title, rest = tokens[3], tokens[4:]
    assert rest[:4] == ["{", '"Player 1"', '"Player 2"', "}"]
    rest = rest[4:]
    assert rest[0] == "{"
    labels: list[list[str]] = []
    position = 1
    while rest[position] == "{":
        end = rest.index("}", position)
        labels.append([t.strip('"') for t in rest[position + 1 : end]])
        position = end + 1
    assert rest[position] == "}" and len(labels) == 2
    comment, numbers = rest[position + 1], rest[position + 2 :]
    assert comment.startswith('"') and all(not t.startswith('"') for t in numbers)
    return title.strip('"'), labels, comment.strip('"'), [Fraction(t) for t in numbers]


@cache
def _solved(name: str, payoff: str, seed: int):
    rules = REDUCED[name]
    first, second = deal(seed, rules).holdings
    result = solve(first, second, rules, payoff)
    return result, certificate(result, first, second)


def _game(name: str, payoff: str, seed: int) -> list[list[Fraction]]:
    """Player 1's payoff matrix, read back from the file."""
    _, labels, _, numbers = parse_nfg(nfg_text(_solved(name, payoff, seed)[0]))
    n, m = len(labels[0]), len(labels[1])
    return [[numbers[2 * (j * n + i)] for j in range(m)] for i in range(n)]


def _exact_solve(matrix: list[list[Fraction]], keep: list[int]) -> list[Fraction] | None:
    """The strategy on ``keep`` (rows of ``matrix``) equalizing every column: x, then v."""
    k, columns = len(keep), len(matrix[0])
    if columns != k:
        return None
    # unknowns x_keep, v: sum_i x_i a_ij - v = 0 for every column j, sum x = 1
    system = [[matrix[i][j] for i in keep] + [Fraction(-1), Fraction(0)] for j in range(k)]
    system.append([Fraction(1)] * k + [Fraction(0), Fraction(1)])
    size = k + 1
    for col in range(size):
        pivot = next((r for r in range(col, size) if system[r][col] != 0), None)
        if pivot is None:
            return None
        system[col], system[pivot] = system[pivot], system[col]
        for r in range(size):
            if r != col and system[r][col] != 0:
                f = system[r][col] / system[col][col]
                system[r] = [a - f * b for a, b in zip(system[r], system[col], strict=True)]
    return [system[r][size] / system[r][r] for r in range(size)]


def _float_strategy(matrix: np.ndarray) -> np.ndarray:
    """An optimal strategy of the maximizing row player, by HiGHS."""
    n, m = matrix.shape
    cost = np.zeros(n + 1)
    cost[-1] = -1.0
    bounds = [(0, None)] * n + [(None, None)]
    rows = np.hstack([-matrix.T, np.ones((m, 1))])  # v - x.A_j <= 0
    out = linprog(
        cost, A_ub=rows, b_ub=np.zeros(m), A_eq=[[1.0] * n + [0.0]], b_eq=[1.0], bounds=bounds
    )
    assert out.status == 0
    return out.x[:n]


def _value(matrix: list[list[Fraction]]) -> tuple[Fraction, Fraction, bool]:
    """Exact bounds ``(low, high)`` on the game's value, and whether they were proved equal.

    The supports HiGHS finds are solved again in fractions; when both
    equalizing strategies exist, are non-negative and no strategy does
    better against them, the value is proven exactly.  Otherwise the
    HiGHS strategies, as fractions, still bound the value.
    """
    a = np.array(matrix, dtype=float)
    x, y = _float_strategy(a), _float_strategy(-a.T)
    rows, columns = list(np.flatnonzero(x > 1e-9)), list(np.flatnonzero(y > 1e-9))
    sub = [[matrix[i][j] for j in columns] for i in rows]
    transposed = [[-matrix[i][j] for i in rows] for j in columns]
    sx, sy = (
        _exact_solve(sub, list(range(len(rows)))),
        _exact_solve(transposed, list(range(len(columns)))),
    )
    if sx is not None and sy is not None and min(sx[:-1] + sy[:-1]) >= 0:
        fx = dict(zip(rows, sx[:-1], strict=True))
        fy = dict(zip(columns, sy[:-1], strict=True))
        low = min(sum(fx[i] * matrix[i][j] for i in rows) for j in range(len(matrix[0])))
        high = max(sum(fy[j] * matrix[i][j] for j in columns) for i in range(len(matrix)))
        if low == high:
            return low, high, True
    fx = [Fraction(v).limit_denominator(10**9) for v in x]
    fy = [Fraction(v).limit_denominator(10**9) for v in y]
    fx = [v / sum(fx) for v in fx]
    fy = [v / sum(fy) for v in fy]
    low = min(sum(fx[i] * matrix[i][j] for i in range(len(matrix))) for j in range(len(matrix[0])))
    high = max(sum(fy[j] * matrix[i][j] for j in range(len(matrix[0]))) for i in range(len(matrix)))
    return low, high, False


def test_the_file_has_the_supports_and_their_exact_payoffs():
    for name, payoff, seed in [("independent2", "win", 3), ("independent3", "margin", 1)]:
        result, _ = _solved(name, payoff, seed)
        title, labels, comment, numbers = parse_nfg(nfg_text(result))
        rows, columns = support(result.row), support(result.column)
        assert payoff in title and payoff in comment
        assert labels == [[a.format(ascii=True) for a in side] for side in (rows, columns)]
        assert len(numbers) == 2 * len(rows) * len(columns)
        total = 0 if payoff == "margin" else 1
        for j, b in enumerate(columns):
            for i, a in enumerate(rows):
                first, second = (
                    numbers[2 * (j * len(rows) + i)],
                    numbers[2 * (j * len(rows) + i) + 1],
                )
                s = score(a, b, REDUCED[name])  # the slow obvious reference
                expected = s.margin if payoff == "margin" else Fraction(1 + np.sign(s.margin), 2)
                assert (first, second) == (expected, total - expected)
        assert [Arrangement.parse(t) for t in labels[0]] == list(rows)


@pytest.mark.parametrize("payoff", ["margin", "win"])
@pytest.mark.parametrize("name", ["mirror2", "independent2"])
def test_the_support_games_value_is_within_the_certified_bounds(name, payoff):
    proved = 0
    for seed in range(20):
        _, doc = _solved(name, payoff, seed)
        low, high, exact = _value(_game(name, payoff, seed))
        lower, upper = Fraction(doc["lower"]), Fraction(doc["upper"])
        proved += exact
        if exact:
            assert lower <= low == high <= upper
        else:  # degenerate support game: HiGHS's bounds, exact, must meet the certificate's
            assert low <= high and low <= upper and lower <= high
            assert high - low < Fraction(1, 10**6)
    assert proved >= 10 if payoff == "margin" else proved >= 1


@pytest.mark.parametrize(
    ("name", "payoff", "seed"),
    [("independent3", p, s) for p in ("margin", "win") for s in range(6)]
    + [("independent", "margin", 1), ("independent", "margin", 2), ("independent", "win", 2)],
)
def test_mixed_support_games_have_their_value_proved_within_the_bounds(name, payoff, seed):
    """Mixed support games (5x5, 9x10 at full size): the value is proved exactly, and certified."""
    _, doc = _solved(name, payoff, seed)
    low, high, exact = _value(_game(name, payoff, seed))
    assert exact and Fraction(doc["lower"]) <= low == high <= Fraction(doc["upper"])


def test_gambit_solves_the_file_to_the_same_value(tmp_path):
    gambit = pytest.importorskip("pygambit")
    for name, payoff, seed in [("independent2", "margin", 1), ("independent2", "win", 2)]:
        result, doc = _solved(name, payoff, seed)
        path = tmp_path / "game.nfg"
        path.write_text(nfg_text(result))
        game = gambit.read_nfg(str(path))
        equilibrium = gambit.nash.lp_solve(game, rational=True).equilibria[0]
        value = Fraction(str(equilibrium.payoff(game.players[0])))
        assert Fraction(doc["lower"]) <= value <= Fraction(doc["upper"])
        low, high, _ = _value(_game(name, payoff, seed))
        assert low <= value <= high


def test_titles_with_quotes_are_refused():
    with pytest.raises(SolverError, match=r"^title: "):
        nfg_text(_solved("mirror2", "margin", 0)[0], title='a "b"')


def test_the_equilibrium_command_writes_the_nfg_file(tmp_path, capsys):
    argv = ["equilibrium", "--seed", "2", "--no-book", "--mode", "independent", "--payoff", "win"]
    assert main([*argv, "--nfg", str(tmp_path / "missing" / "g.nfg")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("quintet: error:") and err.count("\n") == 1
    path = tmp_path / "g.nfg"
    assert main([*argv, "--nfg", str(path), "--json"]) == 0
    _, labels, _, numbers = parse_nfg(path.read_text())
    assert len(numbers) == 2 * len(labels[0]) * len(labels[1]) > 0
    assert all(v in (0, Fraction(1, 2), 1) for v in numbers)
