"""Correctness of :func:`solver.response.pareto.pareto_keep`.

The vectorized rounds are checked against the textbook O(n^2) definition,
written here independently: within its group, a row is *maximal* when no
other row of the group is ``>=`` in every column and different somewhere.
Of several equal maximal rows exactly one is kept (which one is not
specified), and nothing else is kept.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.response.pareto import pareto_keep

MAX_VALUE = 1023


# ======================================================================= reference


def brute_maximal_values(groups: np.ndarray, rows: np.ndarray) -> set[tuple[int, ...]]:
    """Distinct ``(group, *row)`` of the rows no other row of their group dominates."""
    result = set()
    n = rows.shape[0]
    for i in range(n):
        dominated = False
        for j in range(n):
            if groups[j] != groups[i]:
                continue
            if np.all(rows[j] >= rows[i]) and np.any(rows[j] != rows[i]):
                dominated = True
                break
        if not dominated:
            result.add((int(groups[i]), *(int(v) for v in rows[i])))
    return result


def check_against_brute_force(groups: np.ndarray, rows: np.ndarray, heads: int = 8) -> None:
    keep = pareto_keep(groups, rows, heads=heads)
    assert keep.dtype == bool
    assert keep.shape == (rows.shape[0],)
    kept = [(int(groups[i]), *(int(v) for v in rows[i])) for i in np.flatnonzero(keep)]
    # Exactly one of each set of equal rows ...
    assert len(kept) == len(set(kept)), "an equal row was kept twice"
    # ... and exactly the maximal ones.
    assert set(kept) == brute_maximal_values(groups, rows)


# ======================================================================= random inputs


@st.composite
def instances(draw):
    """Random groups and rows, with the parameters drawn by hypothesis.

    Small value ranges force many duplicates and ties; wide ranges reach 1023.
    """
    seed = draw(st.integers(0, 2**32 - 1))
    n = draw(st.integers(0, 70))
    k = draw(st.integers(1, 5))
    n_groups = draw(st.integers(1, 4))
    high = draw(st.sampled_from([1, 2, 3, 5, 10, 100, MAX_VALUE]))
    heads = draw(st.sampled_from([1, 2, 3, 8]))
    rng = np.random.default_rng(seed)
    rows = rng.integers(0, high + 1, size=(n, k))
    if n and draw(st.booleans()):
        rows[rng.integers(0, n)] = MAX_VALUE  # the extreme value itself
    if n > 2 and draw(st.booleans()):
        # Exact copies of some rows.
        copies = rng.integers(0, n, size=n // 3)
        rows[rng.integers(0, n, size=copies.shape[0])] = rows[copies]
    # Group ids need be neither sorted nor contiguous.
    labels = rng.choice(np.array([0, 3, 7, 1000, 12345]), size=n_groups, replace=False)
    groups = labels[rng.integers(0, n_groups, size=n)]
    return groups.astype(np.int64), rows.astype(np.int64), heads


@settings(max_examples=300, deadline=None)
@given(instances())
def test_matches_brute_force(instance):
    groups, rows, heads = instance
    check_against_brute_force(groups, rows, heads)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 2), st.lists(st.integers(0, 3), min_size=3, max_size=3)),
        min_size=1,
        max_size=40,
    )
)
def test_matches_brute_force_on_drawn_rows(items):
    """Rows drawn value by value (hypothesis shrinks a failure to a tiny case)."""
    groups = np.array([g for g, _ in items], dtype=np.int64)
    rows = np.array([r for _, r in items], dtype=np.int64)
    check_against_brute_force(groups, rows, heads=2)


@pytest.mark.parametrize("heads", [1, 8])
@pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
def test_large_groups(k, heads):
    """Hundreds of rows per group: the rounds with one head per group are used too."""
    rng = np.random.default_rng(100 + k)
    n = 1500
    groups = rng.integers(0, 3, size=n)
    # Rows near the hyperplane sum(row) = 900 make large frontiers.
    rows = rng.integers(0, 400, size=(n, k))
    if k == 1:
        rows[:, 0] = rng.integers(0, MAX_VALUE + 1, size=n)
    else:
        rest = 900 - rows[:, :-1].sum(axis=1) // (k - 1) + rng.integers(0, 50, size=n)
        rows[:, -1] = np.clip(rest, 0, MAX_VALUE)
    rows[:100] = rows[100:200]
    groups[:100] = groups[100:200]
    keep = pareto_keep(groups, rows, heads=heads)
    kept = [(int(groups[i]), *rows[i].tolist()) for i in np.flatnonzero(keep)]
    assert len(kept) == len(set(kept))
    # Vectorized O(n^2) reference (same definition as brute_maximal_values).
    ge = (rows[:, None, :] >= rows[None, :, :]).all(axis=2)  # ge[j, i]: row j >= row i
    ne = (rows[:, None, :] != rows[None, :, :]).any(axis=2)
    same = groups[:, None] == groups[None, :]
    dominated = (ge & ne & same).any(axis=0)
    expected = {(int(groups[i]), *rows[i].tolist()) for i in np.flatnonzero(~dominated)}
    assert set(kept) == expected
    assert len(expected) > (5 if k > 1 else 2)  # the instance is not trivial


# ======================================================================= fixed cases


def test_equal_rows_keep_exactly_one():
    rows = np.array([[5, 5], [5, 5], [5, 5], [1, 1], [7, 0], [7, 0]])
    groups = np.zeros(6, dtype=np.int64)
    keep = pareto_keep(groups, rows)
    assert keep[:3].sum() == 1
    assert not keep[3]
    assert keep[4:].sum() == 1


def test_equal_rows_in_different_groups_are_both_kept():
    rows = np.array([[2, 3], [2, 3], [1, 1]])
    groups = np.array([0, 1, 1])
    assert pareto_keep(groups, rows).tolist() == [True, True, False]


def test_single_column_keeps_one_maximum_per_group():
    rows = np.array([[4], [9], [9], [1], [0], [0]])
    groups = np.array([0, 0, 0, 0, 1, 1])
    keep = pareto_keep(groups, rows)
    assert keep[1] + keep[2] == 1 and not keep[0] and not keep[3]
    assert keep[4] + keep[5] == 1


def test_extreme_values_and_five_columns():
    rows = np.array(
        [
            [1023, 0, 0, 0, 0],
            [0, 1023, 0, 0, 0],
            [1023, 1023, 1023, 1023, 1023],
            [1023, 1023, 1023, 1023, 1022],
            [0, 0, 0, 0, 0],
        ]
    )
    groups = np.array([0, 0, 1, 1, 2])
    assert pareto_keep(groups, rows).tolist() == [True, True, True, False, True]


def test_order_of_input_does_not_matter():
    rng = np.random.default_rng(7)
    rows = rng.integers(0, 20, size=(200, 3))
    groups = rng.integers(0, 4, size=200)
    perm = rng.permutation(200)
    a = pareto_keep(groups, rows)
    b = pareto_keep(groups[perm], rows[perm])
    kept_a = {(int(groups[i]), *rows[i].tolist()) for i in np.flatnonzero(a)}
    kept_b = {(int(groups[perm][i]), *rows[perm][i].tolist()) for i in np.flatnonzero(b)}
    assert kept_a == kept_b


def test_empty_input():
    keep = pareto_keep(np.zeros(0, dtype=np.int64), np.zeros((0, 3), dtype=np.int64))
    assert keep.shape == (0,)


# ======================================================================= errors


@pytest.mark.parametrize("bad", [1024, 2000, 1 << 20])
def test_value_too_large_is_an_error(bad):
    rows = np.array([[1, 2], [bad, 0]])
    with pytest.raises(ValueError):
        pareto_keep(np.zeros(2, dtype=np.int64), rows)


def test_negative_value_is_an_error():
    with pytest.raises(ValueError):
        pareto_keep(np.zeros(2, dtype=np.int64), np.array([[1, 2], [-1, 0]]))


@pytest.mark.parametrize("k", [6, 7])
def test_too_many_columns_is_an_error(k):
    with pytest.raises(ValueError):
        pareto_keep(np.zeros(3, dtype=np.int64), np.ones((3, k), dtype=np.int64))
