"""The grading use cases: grade, house and play all answer through the one source and the book."""

from __future__ import annotations

from pathlib import Path

import pytest

from solver.app.grading import grade_arrangement, house, play
from solver.app.requests import BookChoice, GradeRequest, PlayRequest, holdings
from solver.errors import ArrangementError
from solver.game.rules import Rules
from solver.models.heuristics import greedy_arrangement

TWO = Rules(position_points=(6, 7))


@pytest.fixture
def book(tmp_path: Path) -> BookChoice:
    return BookChoice(str(tmp_path / "book.sqlite"))


def test_house_answers_from_the_book_the_second_time(book: BookChoice) -> None:
    request = GradeRequest(holdings(None, None, 4, TWO), TWO, arrangement="", book=book)
    first, again = house(request), house(request)
    assert first.document["book"]["from_book"] is False
    assert again.document["book"]["from_book"] is True
    assert first.document["house_rule"] == again.document["house_rule"]
    assert again.text().startswith("house rule: ")
    assert first.document["equilibrium_loss"] == again.document["equilibrium_loss"]


def test_grade_and_play_share_the_book(book: BookChoice) -> None:
    dealt = holdings(None, None, 3, TWO)
    layout = greedy_arrangement(dealt.mine, TWO).format(ascii=True)
    graded = grade_arrangement(GradeRequest(dealt, TWO, arrangement=layout, book=book))
    assert graded.document["book"]["from_book"] is False
    game = play(PlayRequest(dealt, TWO, arrangement=layout, opponent="eq-margin", book=book))
    assert game.document["opponent"] == "eq-margin"
    assert set(game.document["description"]) == {"en", "ru"}
    again = grade_arrangement(GradeRequest(dealt, TWO, arrangement=layout, book=book))
    assert again.document["book"]["from_book"] is True


def test_play_refuses_cards_that_are_not_the_holding(book: BookChoice) -> None:
    dealt = holdings(None, None, 3, TWO)
    other = holdings(None, None, 4, TWO)
    layout = greedy_arrangement(other.mine, TWO).format(ascii=True)
    with pytest.raises(ArrangementError):
        play(PlayRequest(dealt, TWO, arrangement=layout, book=book))
