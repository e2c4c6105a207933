"""The subsets of a holding: unranked by numpy, equal to itertools' enumeration."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from solver.models.packets import subsets


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5, 6])
def test_subsets_equal_itertools_in_order_and_type(k):
    for n in range(34):
        expected = np.array(list(combinations(range(n), k)), dtype=np.int8).reshape(-1, k)
        found = subsets(n, k)
        assert found.dtype == expected.dtype
        assert found.shape == expected.shape
        assert np.array_equal(found, expected)
        assert not found.flags.writeable
