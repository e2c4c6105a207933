"""The solving use cases: documents made once, warnings as data, errors naming fields."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from solver.app.requests import (
    BookChoice,
    EquilibriumRequest,
    SuggestRequest,
    fixed_from_text,
    holdings,
)
from solver.app.solving import equilibrium
from solver.app.suggesting import suggest
from solver.errors import CardError, QuintetError, SolverError
from solver.game.rules import Rules

TWO = Rules(position_points=(6, 7))
NO_BOOK = BookChoice(enabled=False)


def test_equilibrium_progress_with_the_book(tmp_path: Path) -> None:
    """One code path: a solve through the book reports each iteration; a look-up none."""
    dealt = holdings(None, None, 3, TWO)
    request = EquilibriumRequest(dealt, TWO, book=BookChoice(str(tmp_path / "b.sqlite")))
    seen: list[int] = []
    solved = equilibrium(request, on_record=lambda r: seen.append(r.iteration))
    assert solved.document["book"]["from_book"] is False
    assert seen == [r[0] for r in solved.document["history"]] and seen
    assert "from the book" not in solved.text()
    seen.clear()
    looked_up = equilibrium(request, on_record=lambda r: seen.append(r.iteration))
    assert looked_up.document["book"]["from_book"] is True
    assert seen == [] and looked_up.document["history"] == []
    assert "from the book, solved earlier (iterations: " in looked_up.text()


def test_the_text_is_rendered_in_the_language_asked_for() -> None:
    answer = suggest(SuggestRequest(holdings(None, None, 1, Rules()), Rules()))
    assert answer.text("en") != answer.text("ru")
    assert "ожидаемый перевес" in answer.text("ru")
    assert answer.document["holding"] == answer.document["opponent_holding"]


def test_ignored_options_are_warnings_naming_fields_never_printed(capsys) -> None:
    request = SuggestRequest(holdings(None, None, 1, Rules()), Rules(), time_limit=5, workers=2)
    answer = suggest(request)
    assert capsys.readouterr() == ("", "")
    [notice] = answer.warnings
    assert notice.fields == ("time_limit", "workers")
    assert "--" not in notice.message


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"against": "greedy", "known": "x"}, "known"),
        ({"against": "known"}, "known"),
        ({"against": "clever"}, "against"),
        ({"payoff": "win"}, "payoff"),
        ({"against": "equilibrium", "objective": "win"}, "objective"),
        ({"against": "equilibrium", "top": 2}, "against"),
        ({"engine": "fast"}, "engine"),
    ],
)
def test_conflicting_options_are_refused_naming_the_field(options, field) -> None:
    request = SuggestRequest(holdings(None, None, 1, Rules()), Rules(), book=NO_BOOK, **options)
    with pytest.raises(SolverError) as error:
        suggest(request)
    assert error.value.argument == field
    assert str(error.value).startswith(field) and "--" not in str(error.value)


@pytest.mark.parametrize(
    ("cards", "opponent_cards", "rules", "message"),
    [
        (None, "As", Rules(), "opponent_cards needs cards (your holding) too"),
        (
            " ".join(
                ["7c 7d 7h 7s 8c 8d 8h 8s 9c 9d 9h 9s Tc Td Th Ts Jc Jd Jh Js Qc Qd Qh Qs Kc"]
            ),
            None,
            Rules(discard_mode="independent"),
            "opponent_cards are needed in independent mode",
        ),
    ],
)
def test_holdings_errors_name_the_field(cards, opponent_cards, rules, message) -> None:
    with pytest.raises(CardError, match=re.escape(message)) as error:
        holdings(cards, opponent_cards, 1, rules)
    assert error.value.argument == "opponent_cards"


def test_fixed_packets_are_parsed_once_for_both_faces() -> None:
    assert fixed_from_text(["1=7c 7d 7h 7s 8c"]) == {1: (0, 1, 2, 3, 4)}
    for bad in (["7c 7d"], ["x=7c"], ["1=7c 7d 7h 7s 8c", "1=8d 8h 8s 9c 9d"]):
        with pytest.raises(QuintetError) as error:
            fixed_from_text(bad)
        assert error.value.argument == "fixed"


def test_runners_up_get_a_default_time_limit() -> None:
    from solver.app.limits import TOP_TIME_LIMIT
    from solver.app.suggesting import top_time_limit

    dealt = holdings(None, None, 1, Rules())
    assert top_time_limit(SuggestRequest(dealt, Rules(), top=2)) == TOP_TIME_LIMIT
    assert top_time_limit(SuggestRequest(dealt, Rules(), top=2, time_limit=5.0)) == 5.0
    assert top_time_limit(SuggestRequest(dealt, Rules(), top=1)) is None


def test_a_ctrl_c_during_the_runners_up_keeps_them_with_a_warning(monkeypatch) -> None:
    from solver.response import cpsat_model
    from solver.response.results import STOPPED

    def interrupted(self, time_limit, workers):
        raise KeyboardInterrupt

    monkeypatch.setattr(cpsat_model.ArrangementModel, "solve", interrupted)
    request = SuggestRequest(holdings(None, None, 1, Rules()), Rules(), top=3, book=NO_BOOK)
    answer = suggest(request)
    assert [w.message for w in answer.warnings] == [
        "interrupted: the last arrangement is the best found, not proven"
    ]
    [second] = answer.document["runners_up"]
    assert second["status"] == "feasible" and second["note"] == STOPPED
    assert "best found, not proven optimal (gap " in answer.text("en")


def test_sampled_runners_up_get_a_default_time_limit_with_a_warning() -> None:
    from solver.app.limits import SAMPLED_TOP_TIME_LIMIT
    from solver.app.suggesting import sampled_top_limit
    from solver.cli.render import warning_lines
    from solver.models.opponents import Objective

    dealt = holdings(None, None, 1, Rules())
    request = SuggestRequest(dealt, Rules(), top=3, objective="win", engine="cpsat")
    limit, notices = sampled_top_limit(request, Objective.WIN_PROBABILITY, "random")
    assert limit == SAMPLED_TOP_TIME_LIMIT and len(notices) == 1
    [line] = warning_lines(notices, {"top": "--top", "time_limit": "--time-limit"})
    assert line.startswith("quintet: warning: --top 3 with the win objective")
    assert "--time-limit 120 s is used (give --time-limit to change it)" in line
    # Given a limit, one arrangement, a separable objective or a known opponent: no default.
    for case, objective, against in (
        (SuggestRequest(dealt, Rules(), top=3, time_limit=5.0), Objective.GAME_RESULT, "random"),
        (SuggestRequest(dealt, Rules(), top=1), Objective.WIN_PROBABILITY, "random"),
        (SuggestRequest(dealt, Rules(), top=3), Objective.MARGIN, "random"),
        (SuggestRequest(dealt, Rules(), top=3), Objective.WIN_PROBABILITY, "greedy"),
    ):
        assert sampled_top_limit(case, objective, against) == (case.time_limit, ())
