"""The players of :mod:`solver.play.players`.

* Every player returns a valid arrangement of its own holding, in mirror and
  independent deals, full size and reduced (two and three packets).
* Seeded generators give reproducible choices; ``random`` differs across seeds.
* ``br-random`` and ``br-greedy`` are exact: their values are checked against
  CP-SAT (:func:`solver.response.best_response.best_response`, another engine) on full
  deals and against exhaustive enumeration written here on reduced deals; the
  values themselves are recomputed here by counting (not by the library's
  opponent models).
* ``eq-margin`` and ``eq-win`` play members of the equilibrium support, each
  seat from its own side of the game, and one cached solve serves both seats.
* Unknown and repeated names raise :class:`QuintetError` with a clear message.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from solver.book import source as source_module
from solver.book.source import DEFAULT_SOURCE, EquilibriumSource
from solver.equilibria.equilibrium import Payoff
from solver.errors import QuintetError
from solver.game.arrangement import Arrangement, score
from solver.game.deal import deal
from solver.game.evaluator import strength
from solver.game.rules import Rules
from solver.models.heuristics import greedy_arrangement
from solver.models.opponents import Objective, Opponent
from solver.play.players import PLAYER_NAMES, player, players
from solver.response.best_response import SolveStatus, best_response

MIRROR = Rules()
INDEPENDENT = Rules(discard_mode="independent")
TWO = Rules(position_points=(6, 7))
TWO_INDEPENDENT = Rules(position_points=(6, 7), discard_mode="independent")
THREE_INDEPENDENT = Rules(position_points=(5, 6, 7), discard_mode="independent")

# Full-size deals whose equilibria solve in well under a second or a few (measured).
FULL_DEALS = [(0, MIRROR), (1, INDEPENDENT)]
REDUCED_DEALS = [(3, TWO), (4, TWO_INDEPENDENT), (5, THREE_INDEPENDENT)]
EXACT = 1e-9


def _holdings(seed: int, rules: Rules) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return deal(seed, rules).holdings


def _id(case: tuple[int, Rules]) -> str:
    seed, rules = case
    return f"seed{seed}-{rules.n_packets}packets-{rules.discard_mode.value}"


# ======================================================================= checkers written here


def _margin_vs_random(profile: np.ndarray, theirs: tuple[int, ...], rules: Rules) -> float:
    """Expected margin of a strength profile against a uniformly random arrangement.

    Each position's packet of a random arrangement is a uniformly random
    five-card subset of the opponent's cards: count all of them.
    """
    opp = np.sort(strength(np.array(list(combinations(theirs, 5))), rules).astype(np.int64))
    n = opp.shape[0]
    total = 0.0
    for s, w in zip(profile, rules.position_points, strict=True):
        below = np.searchsorted(opp, s, side="left")
        above = n - np.searchsorted(opp, s, side="right")
        total += w * (below - above) / n
    return total


def _margin_vs_known(profile, theirs_profile, rules: Rules) -> int:
    return int(
        sum(
            w * int(np.sign(int(a) - int(b)))
            for a, b, w in zip(profile, theirs_profile, rules.position_points, strict=True)
        )
    )


def _two_packet_profiles(cards: tuple[int, ...], rules: Rules) -> np.ndarray:
    """Strength profiles of every ordered two-packet arrangement of ten cards."""
    assert rules.n_packets == 2 and len(cards) == 10
    rows = []
    for first in combinations(cards, 5):
        second = tuple(c for c in cards if c not in first)
        rows.append((first, second))
    return strength(np.array(rows), rules).astype(np.int64)


# ======================================================================= valid arrangements


@pytest.mark.parametrize("case", FULL_DEALS + REDUCED_DEALS, ids=_id)
@pytest.mark.parametrize("name", PLAYER_NAMES)
def test_every_player_arranges_its_own_holding(name, case):
    seed, rules = case
    holdings = _holdings(seed, rules)
    for seat in (0, 1):
        mine, theirs = holdings[seat], holdings[1 - seat]
        arrangement = player(name).arrange(mine, theirs, rules, np.random.default_rng(seat))
        assert isinstance(arrangement, Arrangement)
        assert arrangement.n_packets == rules.n_packets
        assert all(len(packet) == 5 for packet in arrangement.packets)
        assert arrangement.cards == tuple(sorted(mine))
        arrangement.check(mine, rules)  # raises if it is not an arrangement of ``mine``


def test_independent_deals_really_differ_between_the_seats():
    # Otherwise the independent cases above would test nothing new.
    for seed, rules in FULL_DEALS[1:] + REDUCED_DEALS[1:]:
        a, b = _holdings(seed, rules)
        assert a != b and len(a) == len(b) == 5 * rules.n_packets


@pytest.mark.parametrize("rules", [TWO, TWO_INDEPENDENT], ids=["mirror", "independent"])
def test_reduced_deal_turns_up_22_cards_and_keeps_10(rules):
    for seed in range(5):
        d = deal(seed, rules)
        for exposed, holding in zip(d.exposed, d.holdings, strict=True):
            assert len(exposed) == 22 and len(holding) == 10
            assert set(exposed).isdisjoint(holding)
            assert set(exposed) | set(holding) == set(range(32))
        assert (d.holdings[0] == d.holdings[1]) == (rules.discard_mode.value == "mirror")
        assert deal(seed, rules) == d


@pytest.mark.parametrize("name", ["random", "greedy", "br-random", "br-greedy"])
def test_players_do_not_depend_on_the_order_of_the_cards(name):
    mine, theirs = _holdings(1, INDEPENDENT)
    shuffled = list(np.random.default_rng(5).permutation(mine))
    a = player(name).arrange(mine, theirs, INDEPENDENT, np.random.default_rng(3))
    b = player(name).arrange(shuffled, theirs[::-1], INDEPENDENT, np.random.default_rng(3))
    assert a == b


# ======================================================================= seeds


@pytest.mark.parametrize("case", [FULL_DEALS[0], REDUCED_DEALS[2]], ids=_id)
@pytest.mark.parametrize("name", PLAYER_NAMES)
def test_seeded_generator_gives_the_same_arrangement(name, case):
    seed, rules = case
    mine, theirs = _holdings(seed, rules)
    first = player(name).arrange(mine, theirs, rules, np.random.default_rng(42))
    again = player(name).arrange(mine, theirs, rules, np.random.default_rng(42))
    assert first == again


def test_random_differs_across_seeds_and_is_spread_over_the_cards():
    mine, theirs = _holdings(0, MIRROR)
    random_player = player("random")
    drawn = [
        random_player.arrange(mine, theirs, MIRROR, np.random.default_rng(s)) for s in range(8)
    ]
    assert len(set(drawn)) == 8
    # Not just a rotation of one arrangement: position 1 holds different cards.
    assert len({frozenset(a.packets[0]) for a in drawn}) == 8


def test_deterministic_players_ignore_the_generator():
    mine, theirs = _holdings(1, INDEPENDENT)
    for name in ("greedy", "br-random", "br-greedy"):
        a = player(name).arrange(mine, theirs, INDEPENDENT, np.random.default_rng(1))
        b = player(name).arrange(mine, theirs, INDEPENDENT, np.random.default_rng(2))
        assert a == b, name


# ======================================================================= best responses


@pytest.mark.parametrize("case", FULL_DEALS, ids=_id)
def test_br_random_equals_the_cpsat_best_response_to_a_random_opponent(case):
    seed, rules = case
    mine, theirs = _holdings(seed, rules)
    arrangement = player("br-random").arrange(mine, theirs, rules, np.random.default_rng(0))
    value = _margin_vs_random(arrangement.strengths(rules), theirs, rules)
    cpsat = best_response(mine, Opponent.random(theirs, rules), Objective.MARGIN)
    assert cpsat.status is SolveStatus.OPTIMAL
    assert value == pytest.approx(cpsat.value, abs=1e-6)
    # And no greedy or random arrangement does better.
    for other in [greedy_arrangement(mine, rules)] + [
        player("random").arrange(mine, theirs, rules, np.random.default_rng(s)) for s in range(5)
    ]:
        assert _margin_vs_random(other.strengths(rules), theirs, rules) <= value + EXACT


@pytest.mark.parametrize("case", FULL_DEALS, ids=_id)
def test_br_greedy_scores_the_optimum_against_the_greedy_arrangement(case):
    seed, rules = case
    mine, theirs = _holdings(seed, rules)
    target = greedy_arrangement(theirs, rules)
    arrangement = player("br-greedy").arrange(mine, theirs, rules, np.random.default_rng(0))
    margin = score(arrangement, target, rules).margin
    cpsat = best_response(mine, Opponent.known(target, rules), Objective.MARGIN)
    assert cpsat.status is SolveStatus.OPTIMAL
    assert margin == pytest.approx(cpsat.value, abs=EXACT)
    assert margin >= score(greedy_arrangement(mine, rules), target, rules).margin


@pytest.mark.parametrize("seed", [3, 4, 6])
@pytest.mark.parametrize("rules", [TWO, TWO_INDEPENDENT], ids=["mirror", "independent"])
def test_best_response_players_match_exhaustive_search_on_two_packets(rules, seed):
    mine, theirs = _holdings(seed, rules)
    profiles = _two_packet_profiles(mine, rules)
    rng = np.random.default_rng(0)

    br_random = player("br-random").arrange(mine, theirs, rules, rng)
    optimum = max(_margin_vs_random(p, theirs, rules) for p in profiles)
    assert _margin_vs_random(br_random.strengths(rules), theirs, rules) == pytest.approx(
        optimum, abs=EXACT
    )

    target = greedy_arrangement(theirs, rules).strengths(rules)
    br_greedy = player("br-greedy").arrange(mine, theirs, rules, rng)
    optimum = max(_margin_vs_known(p, target, rules) for p in profiles)
    assert _margin_vs_known(br_greedy.strengths(rules), target, rules) == optimum


# ======================================================================= equilibrium players


def _seat_strategy(mine, theirs, rules, payoff):
    """The mixture a seat holding ``mine`` plays: its own side of the sorted game."""
    result = DEFAULT_SOURCE(mine, theirs, rules, payoff)
    return result.row, result.column, result.gap


def _value_against(arrangement, mixture, rules, payoff) -> float:
    total = 0.0
    for other, p in zip(mixture.arrangements, mixture.probabilities, strict=True):
        margin = score(arrangement, other, rules).margin
        if payoff is Payoff.MARGIN:
            total += p * margin
        else:
            total += p * (1.0 if margin > 0 else 0.5 if margin == 0 else 0.0)
    return total


EQ_CASES = [(0, MIRROR), (7, TWO_INDEPENDENT), (8, THREE_INDEPENDENT), (9, TWO)]


@pytest.mark.parametrize("case", EQ_CASES, ids=_id)
@pytest.mark.parametrize(
    "name,payoff", [("eq-margin", Payoff.MARGIN), ("eq-win", Payoff.GAME_RESULT)]
)
def test_equilibrium_players_play_their_own_equilibrium_support(name, payoff, case):
    seed, rules = case
    holdings = _holdings(seed, rules)
    values = []
    for seat in (0, 1):
        mine, theirs = holdings[seat], holdings[1 - seat]
        own, other, gap = _seat_strategy(mine, theirs, rules, payoff)
        assert gap <= 1e-9
        assert own.cards == tuple(sorted(mine)) and other.cards == tuple(sorted(theirs))
        support = {a for a, p in zip(own.arrangements, own.probabilities, strict=True) if p > 0}
        for rng_seed in range(4):
            arrangement = player(name).arrange(mine, theirs, rules, np.random.default_rng(rng_seed))
            assert arrangement in support
            # A support member of an equilibrium earns the game value against
            # the other side's equilibrium strategy (scored here, game by game).
            values.append(_value_against(arrangement, other, rules, payoff))
    row_values, column_values = values[:4], values[4:]
    assert max(row_values) - min(row_values) == pytest.approx(0, abs=1e-6)
    assert max(column_values) - min(column_values) == pytest.approx(0, abs=1e-6)
    # Zero-sum: what one seat earns, the other gives up.
    zero = 0.0 if payoff is Payoff.MARGIN else 1.0
    assert row_values[0] + column_values[0] == pytest.approx(zero, abs=1e-6)
    if rules.discard_mode.value == "mirror":
        assert row_values[0] == pytest.approx(zero / 2, abs=1e-6)


@pytest.mark.parametrize(
    "name,payoff", [("eq-margin", Payoff.MARGIN), ("eq-win", Payoff.GAME_RESULT)]
)
@pytest.mark.parametrize("rules", [TWO_INDEPENDENT, TWO], ids=["independent", "mirror"])
def test_one_cached_equilibrium_serves_both_seats(name, payoff, rules, monkeypatch):
    # A deal no other test uses, so that its equilibrium is not cached yet.
    seed = 1000 + (payoff is Payoff.GAME_RESULT) + 2 * (rules.discard_mode.value == "mirror")
    holdings = _holdings(seed, rules)
    solves = []
    real_solve = source_module.solve

    def counting_solve(*args, **kwargs):
        solves.append(args[:2])
        return real_solve(*args, **kwargs)

    monkeypatch.setattr(source_module, "solve", counting_solve)
    source = EquilibriumSource(use_book=False)
    seat0 = player(name, solver=source).arrange(
        holdings[0], holdings[1], rules, np.random.default_rng(0)
    )
    seat1 = player(name, solver=source).arrange(
        holdings[1], holdings[0], rules, np.random.default_rng(0)
    )
    first, second = sorted(tuple(sorted(h)) for h in holdings)
    assert solves == [(first, second)]  # solved once, in the sorted seat order
    assert seat0.cards == tuple(sorted(holdings[0]))
    assert seat1.cards == tuple(sorted(holdings[1]))
    # Both seats read one kept answer: each side's strategy holds its sample.
    result = source(holdings[0], holdings[1], rules, payoff)
    assert len(solves) == 1
    assert seat0 in result.row.arrangements
    assert seat1 in result.column.arrangements


# ======================================================================= names


def test_player_names_and_descriptions():
    assert PLAYER_NAMES == (
        "random",
        "greedy",
        "house",
        "br-random",
        "br-greedy",
        "eq-margin",
        "eq-win",
    )
    for name in PLAYER_NAMES:
        p = player(name)
        assert p.name == name and p.description
    assert player("  greedy ").name == "greedy"
    assert [p.name for p in players("greedy, random")] == ["greedy", "random"]
    assert [p.name for p in players(["eq-win", " br-random"])] == ["eq-win", "br-random"]


def test_unknown_player_is_a_clear_error():
    with pytest.raises(QuintetError) as error:
        player("clever")
    message = str(error.value)
    assert "'clever'" in message and "unknown player" in message
    for name in PLAYER_NAMES:
        assert name in message
    assert "\n" not in message
    with pytest.raises(QuintetError, match="unknown player 'nope'"):
        players("greedy,nope")
    with pytest.raises(QuintetError, match="unknown player 'Greedy'"):
        player("Greedy")


@pytest.mark.parametrize(
    "names", ["greedy,greedy", "greedy, random ,greedy ", ["random", "random"]]
)
def test_duplicate_players_are_a_clear_error(names):
    with pytest.raises(QuintetError) as error:
        players(names)
    assert "listed twice" in str(error.value)
    assert "'greedy'" in str(error.value) or "'random'" in str(error.value)


@pytest.mark.parametrize("names", ["", " , ", []])
def test_no_players_is_a_clear_error(names):
    with pytest.raises(QuintetError, match="no players given"):
        players(names)
