"""The shared argument checks, and public functions refusing bad types by the argument's name."""

from __future__ import annotations

import numpy as np
import pytest

from solver.errors import QuintetError, RulesError
from solver.game.deal import deal
from solver.game.rules import MAX_POSITION_POINTS, Rules
from solver.util.checks import check_bool, check_instance, check_int


def test_checks_accept_numpy_and_refuse_bools_and_floats() -> None:
    assert check_int(np.int64(3), "n", low=1) == 3
    assert check_bool(np.bool_(True), "flag") is True
    with pytest.raises(TypeError, match=r"^n must be an integer"):
        check_int(True, "n")
    with pytest.raises(TypeError, match=r"^n must be an integer"):
        check_int(1.5, "n")
    with pytest.raises(QuintetError, match=r"^n must be in \[1, 4\], got 5"):
        check_int(5, "n", low=1, high=4)
    with pytest.raises(TypeError, match=r"^rules must be a Rules"):
        check_instance("mirror", Rules, "rules")


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: deal(1, rules="mirror"), TypeError, "^rules must be a Rules"),
        (lambda: Rules(ace_low_straight="no"), RulesError, "^ace_low_straight must be True"),
        (lambda: Rules(flush_beats_full_house=1), RulesError, "^flush_beats_full_house must"),
        (lambda: Rules(position_points=7), RulesError, "position points must be positive"),
        (lambda: Rules(position_points=(True, 2)), RulesError, "position points must be positive"),
        (lambda: Rules(position_points=(2.5,)), RulesError, "position points must be positive"),
        (
            lambda: Rules(position_points=(MAX_POSITION_POINTS + 1,)),
            RulesError,
            f"at most {MAX_POSITION_POINTS}",
        ),
    ],
)
def test_public_functions_refuse_bad_types_naming_the_argument(call, error, match) -> None:
    with pytest.raises(error, match=match):
        call()
