"""``report``: aggregates over the book, checked against a direct loop and a hand-made book."""

from __future__ import annotations

import numpy as np
import pytest

from solver.analysis.where import parse_where
from solver.app.requests import BookChoice
from solver.app.study import StudyRequest, study
from solver.book.build import build
from solver.book.canonical import canonical_key, holding_of
from solver.book.store import Book, record
from solver.equilibria.equilibrium import solve
from solver.errors import QuintetError
from solver.game.deal import deal
from solver.game.evaluator import strength
from solver.game.rules import DiscardMode, Rules

RULES = Rules(position_points=(6, 7), discard_mode=DiscardMode.INDEPENDENT)


def _concede(entry) -> np.ndarray:
    """The direct loop: sum over both strategies' arrangements of x_a y_b [s_a < s_b]."""
    x, y = entry.row_probabilities, entry.column_probabilities
    out = np.zeros(entry.rules.n_packets)
    for a, pa in zip(entry.row_cards, x, strict=True):
        for b, pb in zip(entry.column_cards, y, strict=True):
            sa, sb = strength(a, entry.rules), strength(b, entry.rules)
            out += pa * pb * (sa < sb)
    return out


def test_report_equals_a_direct_loop_over_the_rows(tmp_path):
    path = tmp_path / "book.sqlite"
    build(path, RULES, ["margin"], deals=5, seed=2)
    document = study(StudyRequest(rules=RULES, book=BookChoice(str(path)))).document
    with Book(path, create=False) as book:
        entries = list(book.entries(RULES, "margin"))
    weights = np.array([e.orbit for e in entries], dtype=float)
    concede = np.array([_concede(e) for e in entries])
    expected = weights @ concede / weights.sum()
    for k, position in enumerate(document["positions"]):
        assert position["concede"]["mean"] == pytest.approx(expected[k])
        low, high = position["concede"]["interval"]
        assert low <= expected[k] <= high
        assert sum(position["combinations"].values()) == pytest.approx(1.0)
    values = np.array([e.value for e in entries])
    assert document["value"]["mean"] == pytest.approx(np.average(values, weights=weights))
    assert document["sample"]["deals"] == len(entries) and document["sample"]["kind"] == "book"
    assert 0 < document["sample"]["coverage"] < 1
    assert sum(b["share"] for b in document["support"]["histogram"]) == pytest.approx(1.0)


def test_orbit_weights_on_a_hand_made_book(tmp_path):
    path = tmp_path / "book.sqlite"
    # Rows hold the canonical deal's strategies (the book checks that they do).
    keys = [canonical_key(deal(seed, RULES).holdings)[0] for seed in (1, 2)]
    results = [solve(holding_of(a), holding_of(b), RULES, "margin") for a, b in keys]
    rows = [
        record(key, orbit, result) for key, result, orbit in zip(keys, results, (1, 3), strict=True)
    ]
    with Book(path) as book:
        book.put(rows)
    document = study(StudyRequest(rules=RULES, book=BookChoice(str(path)))).document
    expected = (1 * results[0].value + 3 * results[1].value) / 4
    assert document["value"]["mean"] == pytest.approx(expected)
    assert document["sample"]["weight"] == 4.0


def test_seeded_deals_count_each_deal_once_per_deal(tmp_path):
    path = tmp_path / "book.sqlite"
    document = study(
        StudyRequest(rules=RULES, deals=3, seed=5, book=BookChoice(str(path)))
    ).document
    values = [solve(*deal(s, RULES).holdings, RULES, "margin").value for s in _seeds(5, 3)]
    assert document["sample"]["kind"] == "seeded" and document["sample"]["deals"] == 3
    assert document["value"]["mean"] == pytest.approx(np.mean(values), abs=1e-6)


def _seeds(seed: int, deals: int) -> list[int]:
    from solver.game.deal import deal_seed

    return [deal_seed(seed, i) for i in range(deals)]


def test_where_filters_deals(tmp_path):
    path = tmp_path / "book.sqlite"
    build(path, RULES, ["margin"], deals=5, seed=2)
    choice = BookChoice(str(path))
    every = study(StudyRequest(rules=RULES, book=choice)).document
    none = study(StudyRequest(rules=RULES, book=choice, where="support < 0")).document
    assert none["sample"]["deals"] == 0 and none["positions"] == []
    high = study(StudyRequest(rules=RULES, book=choice, where="value >= 0")).document
    assert high["sample"]["deals"] == sum(
        1 for e in Book(path, create=False).entries(RULES, "margin") if e.value >= 0
    )
    assert every["sample"]["deals"] == every["sample"]["read"] >= high["sample"]["deals"]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("aces", "where: ends early (expected a comparison such as >=)"),
        ("aces >= 1 or fours > 0", "where: unexpected 'or' at column 11 (expected \"and\")"),
        ("aces >= 1 $", "where: unexpected '$' at column 11"),
        ("1 > aces", "where: unexpected '1' at column 1 (expected a name)"),
    ],
)
def test_filters_are_refused_clearly(text, message):
    with pytest.raises(QuintetError) as error:
        parse_where(text)
    assert str(error.value) == message


def test_plots_are_written_with_a_legend(tmp_path):
    path = tmp_path / "book.sqlite"
    build(path, RULES, ["margin"], deals=2, seed=2)
    document = study(
        StudyRequest(rules=RULES, book=BookChoice(str(path)), plot=str(tmp_path))
    ).document
    assert sorted(p.rsplit("/", 1)[1] for p in document["plots"]) == [
        "combinations.png", "concede.png", "support.png", "top_probability.png", "value.png",
    ]  # fmt: skip
    with pytest.raises(QuintetError, match="not a directory"):
        study(StudyRequest(rules=RULES, book=BookChoice(str(path)), plot=str(tmp_path / "no")))
