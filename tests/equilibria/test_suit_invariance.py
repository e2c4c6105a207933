"""One canonical equilibrium per suit class: a deal and any relabelling of its suits print
the same equilibrium (mapped back to each deal's suits), whatever the seat, the solver's
path, or whether it came from the book."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from solver.book.build import build
from solver.book.canonical import INVERSES, relabel_mixture
from solver.book.lookup import look_up
from solver.book.source import EquilibriumSource
from solver.book.store import Book
from solver.equilibria.certificate import certificate
from solver.equilibria.equilibrium import EquilibriumResult, solve
from solver.equilibria.frontier_game import FrontierGame
from solver.game.arrangement import Arrangement
from solver.game.deal import deal, deal_seed
from solver.game.rules import Rules
from solver.game.suits import CARD_PERMUTATIONS, automorphisms, frame, relabel
from solver.models.mixture import Mixture
from solver.response.frontier import cached_frontier

# The canonical vertex is recomputed from its structure (test_canonical.py: paths agree
# within 6e-14); relabelled deals are the same game bit for bit, so they agree exactly.
_TOLERANCE = 1e-12


def _cards(a: Arrangement) -> tuple[tuple[int, ...], ...]:
    """An arrangement as what it is: a set of cards at each position (printed sorted)."""
    return tuple(tuple(sorted(packet)) for packet in a.packets)


def _probabilities(m: Mixture) -> Counter:
    total: Counter = Counter()
    for a, p in zip(m.arrangements, m.probabilities, strict=True):
        total[_cards(a)] += p
    return total


def _distance(a: EquilibriumResult, b: EquilibriumResult) -> float:
    worst = 0.0
    for x, y in ((a.row, b.row), (a.column, b.column)):
        px, py = _probabilities(x), _probabilities(y)
        worst = max(worst, max(abs(px[k] - py[k]) for k in px.keys() | py.keys()))
    return worst


def _mapped_back(result: EquilibriumResult, g: int) -> EquilibriumResult:
    """A relabelled deal's result in the suits of the deal it was relabelled from."""
    inverse = int(INVERSES[g])
    return replace(
        result,
        row=relabel_mixture(result.row, inverse),
        column=relabel_mixture(result.column, inverse),
    )


def _variants(
    first: tuple[int, ...], second: tuple[int, ...], rules: Rules, payoff: str, seed: int
) -> list[tuple[str, EquilibriumResult]]:
    """The deal solved with its seats swapped, three random relabellings, another path."""

    def solved(a, b, **options) -> EquilibriumResult:
        return solve(a, b, rules, payoff, ranges=False, **options)

    found = []
    if first != second:  # a mirror deal's seats are one game
        found.append(("seats swapped", solved(second, first).transposed()))
    for g in np.random.default_rng(seed).choice(np.arange(1, 24), 3, replace=False).tolist():
        relabelled = solved(relabel(first, g), relabel(second, g))
        found.append((f"relabelled by {g}", _mapped_back(relabelled, g)))
        if first != second and g == 5:  # both at once: another relabelling's key
            swapped = solved(relabel(second, g), relabel(first, g)).transposed()
            found.append((f"relabelled by {g}, seats swapped", _mapped_back(swapped, g)))
    found.append(("GLOP, no warm-up", solved(first, second, warm_simplex=False, warm_up=False)))
    return found


def _check_deal(first, second, rules: Rules, payoff: str, seed: int) -> EquilibriumResult:
    base = solve(first, second, rules, payoff, ranges=False)
    assert base.canonical and base.gap <= 1e-9, (rules.discard_mode, payoff, seed)
    for name, other in _variants(first, second, rules, payoff, seed):
        assert other.canonical, (rules.discard_mode, payoff, seed, name)
        assert _distance(base, other) <= _TOLERANCE, (rules.discard_mode, payoff, seed, name)
    return base


def _seeded(mode: str, index: int) -> tuple[Rules, tuple[int, ...], tuple[int, ...]]:
    """Deal ``index`` of the series a book build of seed 0 solves."""
    rules = Rules(discard_mode=mode)
    first, second = deal(deal_seed(0, index), rules).holdings
    return rules, first, second


# A handful in the fast tier: mirror deal 2 of the series has suit automorphisms.
@pytest.mark.parametrize(
    ("mode", "payoff", "index"),
    [
        ("mirror", "margin", 2),
        ("mirror", "win", 0),
        ("independent", "margin", 0),
        ("independent", "win", 1),
    ],
)
def test_relabelled_and_swapped_deals_print_the_same_canonical_equilibrium(
    mode: str, payoff: str, index: int
) -> None:
    rules, first, second = _seeded(mode, index)
    _check_deal(first, second, rules, payoff, index)


def test_the_book_serves_the_equilibrium_a_solve_prints(tmp_path: Path) -> None:
    rules, first, second = _seeded("independent", 3)
    solved = solve(first, second, rules, "margin", ranges=False)
    g = 9
    relabelled = relabel(first, g), relabel(second, g)
    path = tmp_path / "book.sqlite"
    # The first asks a relabelled deal from the other seat: the book stores the class.
    asked = EquilibriumSource(path)(relabelled[1], relabelled[0], rules, "margin")
    assert _distance(solved, _mapped_back(asked.transposed(), g)) <= _TOLERANCE
    for a, b, back in ((first, second, 0), (second, first, 0), (*relabelled, g)):
        source = EquilibriumSource(path)
        answer = source(a, b, rules, "margin")
        assert source.from_book(a, b, rules, "margin")
        answer = answer if (a, b) != (second, first) else answer.transposed()
        assert _distance(solved, _mapped_back(answer, back)) <= _TOLERANCE


def test_a_relabelled_holding_has_the_same_frontier() -> None:
    # Why the vertex (by frontier ids) is the same for every relabelling: ids and
    # payoffs depend on strengths only.  Only the cards laying a strategy differ.
    rules = Rules(discard_mode="independent")
    for index in range(4):
        holding = deal(deal_seed(0, index), rules).holdings[0]
        front = cached_frontier(holding, rules)
        for g in (5, 17, 23):
            other = cached_frontier(tuple(sorted(relabel(holding, g))), rules)
            assert np.array_equal(front.profiles, other.profiles)


def _symmetric_deal() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Independent holdings both symmetric under ♣ <-> ♦ (and under nothing else)."""
    full = set(range(32))
    first = tuple(sorted(full - {0, 1, 4, 5, 8, 9, 31}))  # 7♣ 7♦ 8♣ 8♦ 9♣ 9♦ A♠ out
    second = tuple(sorted(full - {12, 13, 16, 17, 22, 26, 30}))  # 10♣ 10♦ J♣ J♦ Q♥ K♥ A♥ out
    return first, second


@pytest.mark.parametrize("payoff", ["margin", "win"])
def test_a_deal_with_a_suit_automorphism_gets_the_symmetrized_vertex(payoff: str) -> None:
    rules = Rules(discard_mode="independent")
    first, second = _symmetric_deal()
    swap = automorphisms(first, second).tolist()
    assert swap == [0, 6] and len(frame((first, second))[1]) == 2
    result = _check_deal(first, second, rules, payoff, 7)
    game = FrontierGame(first, second, rules, payoff)
    split = 0
    for player, mixture in ((game.rows, result.row), (game.columns, result.column)):
        # Invariant under the automorphism, arrangement by arrangement.
        assert _probabilities(relabel_mixture(mixture, 6)) == pytest.approx(
            _probabilities(mixture), abs=1e-15
        )
        ids = player.ids(mixture, rules, repeated=True)
        counts = Counter(ids)
        for arrangement, i in zip(mixture.arrangements, ids, strict=True):
            image = Arrangement.trusted(
                CARD_PERMUTATIONS[6][np.array(arrangement.packets)].tolist()
            )
            # Each strategy is one arrangement fixed by the swap, or two swapped ones.
            assert counts[i] == (1 if _cards(image) == _cards(arrangement) else 2)
            split += counts[i] == 2
    assert split > 0  # some strategy's arrangements are not fixed by the swap
    # Still an equilibrium: the exact certificate of the symmetrized strategies.
    document = certificate(result, first, second)
    assert Fraction(document["upper"]) - Fraction(document["lower"]) <= Fraction(1, 10**6)


def test_the_report_says_the_vertex_is_symmetrized() -> None:
    from solver.app.report_equilibrium import equilibrium_report
    from solver.app.report_suggest import SuggestContext

    rules = Rules(discard_mode="independent")
    first, second = _symmetric_deal()
    result = solve(first, second, rules, "margin", ranges=False)
    context = SuggestContext(rules, first, second, 0, False, "equilibrium")
    output = equilibrium_report(result, context, "en")
    assert "symmetrized: 2 relabellings of the suits leave this deal unchanged" in output.text
    assert output.payload["suit_automorphisms"] == 2
    _, mine, theirs = _seeded("independent", 0)
    assert automorphisms(mine, theirs).tolist() == [0]
    plain = SuggestContext(rules, mine, theirs, 0, False, "equilibrium")
    output = equilibrium_report(solve(mine, theirs, rules, "margin", ranges=False), plain, "en")
    assert "symmetrized" not in output.text and output.payload["suit_automorphisms"] == 1


# 20 seeded deals of each mode and payoff, every variant, and both
# books (built with one worker and with two) serving what a solve prints.
@pytest.mark.slow
@pytest.mark.parametrize("mode", ["mirror", "independent"])
@pytest.mark.parametrize("payoff", ["margin", "win"])
def test_twenty_deals_print_one_equilibrium_per_suit_class(
    mode: str, payoff: str, tmp_path: Path
) -> None:
    count = 20
    rules = Rules(discard_mode=mode)
    solved = []
    for index in range(count):
        _, first, second = _seeded(mode, index)
        solved.append((first, second, _check_deal(first, second, rules, payoff, index)))
    for jobs in (1, 2):
        path = tmp_path / f"book-{jobs}.sqlite"
        build(path, rules, [payoff], deals=count, seed=0, jobs=jobs)
        with Book(path) as book:
            for first, second, base in solved:
                stored = look_up(first, second, payoff, rules, book)
                assert stored is not None and _distance(base, stored) <= _TOLERANCE, (jobs, first)
