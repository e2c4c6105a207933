"""Tournaments (:mod:`solver.play.tournament`): determinism, structure, statistics.

* Deterministic: the same seed gives the same games, strengths and
  exploitabilities with one job, two jobs, a Dask cluster started here, or
  one that ``run`` starts itself, and in a ``quintet tournament`` subprocess.
* Structure: two games per pair and deal (one per seat), every play is the
  player's own arrangement (rebuilt here from the documented seeds), games
  are scored from the plays, the pair and player statistics add up.
* Exploitability: recomputed by exhaustive search on two-packet deals, by an
  independent best response (frontier and CP-SAT) on full deals; random
  arrangements are badly exploitable.

Reports, the CSV writer and ``quintet tournament`` are in tests/cli/test_report_games.py.
"""

from __future__ import annotations

import itertools
import multiprocessing
import types
from itertools import combinations

import numpy as np
import pytest

from solver.app.report_games import tournament_report
from solver.book.source import EquilibriumSource
from solver.errors import QuintetError
from solver.game.arrangement import Arrangement
from solver.game.deal import deal, deal_seed
from solver.game.evaluator import strength
from solver.game.rules import Rules
from solver.models.opponents import Objective, Opponent
from solver.play import tournament
from solver.play.players import PLAYER_NAMES, player
from solver.play.tournament import (
    EXACT_GAP,
    TournamentConfig,
    TournamentResult,
    play_deal,
    run,
)
from solver.response.best_response import best_response
from solver.response.frontier_response import frontier_best_response

CHEAP = ("greedy", "random", "br-random", "br-greedy")
TWO = Rules(position_points=(6, 7))
TWO_INDEPENDENT = Rules(position_points=(6, 7), discard_mode="independent")
THREE_INDEPENDENT = Rules(position_points=(5, 6, 7), discard_mode="independent")

# All players on reduced deals (fast), and the cheap players on full deals.
REDUCED_INDEPENDENT = TournamentConfig(PLAYER_NAMES, deals=4, seed=2024, rules=THREE_INDEPENDENT)
REDUCED_MIRROR = TournamentConfig(PLAYER_NAMES, deals=4, seed=2025, rules=TWO)
BRUTE = TournamentConfig(PLAYER_NAMES, deals=4, seed=77, rules=TWO_INDEPENDENT)
FULL = TournamentConfig(CHEAP, deals=3, seed=5)


def essence(result: TournamentResult) -> list:
    """Everything in the records except the timings."""
    return [
        (
            r.index,
            r.seed,
            [(p.player, p.seat, p.strengths, p.exploitability, p.strategy_gap) for p in r.plays],
            list(r.games),
        )
        for r in result.records
    ]


class Counter:
    def __init__(self) -> None:
        self.calls: list[int] = []

    def __call__(self, n: int) -> None:
        self.calls.append(n)


@pytest.fixture(scope="module")
def full_local() -> TournamentResult:
    return run(FULL)


@pytest.fixture(scope="module")
def reduced_independent() -> TournamentResult:
    return run(REDUCED_INDEPENDENT)


@pytest.fixture(scope="module")
def brute() -> TournamentResult:
    return run(BRUTE)


def _results(request) -> list[TournamentResult]:
    return [
        request.getfixturevalue("full_local"),
        request.getfixturevalue("reduced_independent"),
        request.getfixturevalue("brute"),
    ]


# ======================================================================= determinism


@pytest.mark.parametrize(
    "config",
    [REDUCED_INDEPENDENT, REDUCED_MIRROR],
    ids=["three-packets-independent", "two-packets-mirror"],
)
def test_same_results_with_one_job_and_two(config):
    # Two jobs first, so that the worker processes solve everything from scratch.
    progress_two, progress_one = Counter(), Counter()
    two = run(config, jobs=2, on_deal=progress_two)
    one = run(config, jobs=1, on_deal=progress_one)
    assert essence(one) == essence(two)
    assert [r.index for r in two.records] == list(range(config.deals))
    assert sum(progress_two.calls) == sum(progress_one.calls) == config.deals
    assert progress_one.calls == [1] * config.deals
    # The comparison can fail: another seed gives other results.
    other = run(TournamentConfig(config.players, config.deals, config.seed + 1, config.rules))
    assert essence(other) != essence(one)


def test_full_size_same_results_with_two_jobs(full_local):
    two = run(FULL, jobs=2)
    assert essence(two) == essence(full_local)
    assert [s.name for s in two.players()] == list(CHEAP)


def test_play_deal_alone_gives_the_record_of_the_run(reduced_independent):
    record = play_deal(REDUCED_INDEPENDENT, 2)
    assert (
        essence(TournamentResult(REDUCED_INDEPENDENT, (record,), 0.0))
        == essence(reduced_independent)[2:3]
    )


def test_deal_seeds(full_local):
    assert [r.index for r in full_local.records] == [0, 1, 2]
    assert [r.seed for r in full_local.records] == [deal_seed(5, i) for i in range(3)]
    assert len({deal_seed(s, i) for s in range(5) for i in range(5)}) == 25
    assert deal_seed(5, 0) == int(np.random.SeedSequence([5, 0]).generate_state(1)[0])


# ======================================================================= structure


@pytest.mark.parametrize("which", range(3), ids=["full", "reduced-independent", "two-packets"])
def test_each_pair_plays_two_games_per_deal_one_in_each_seat(request, which):
    result = _results(request)[which]
    names = result.config.players
    for record in result.records:
        assert sorted((p.player, p.seat) for p in record.plays) == sorted(
            (n, s) for n in names for s in (0, 1)
        )
        assert len(record.games) == 2 * len(list(combinations(names, 2)))
        for first, second in combinations(names, 2):
            seats = sorted(
                g.first_seat for g in record.games if (g.first, g.second) == (first, second)
            )
            assert seats == [0, 1]
    for pair in result.pairs():
        assert pair.games == 2 * result.config.deals


@pytest.mark.parametrize("which", range(3), ids=["full", "reduced-independent", "two-packets"])
def test_games_are_scored_from_the_plays(request, which):
    result = _results(request)[which]
    weights = result.config.rules.position_points
    for record in result.records:
        plays = {(p.player, p.seat): p.strengths for p in record.plays}
        for game in record.games:
            mine = plays[game.first, game.first_seat]
            theirs = plays[game.second, 1 - game.first_seat]
            won = sum(w for a, b, w in zip(mine, theirs, weights, strict=True) if a > b)
            lost = sum(w for a, b, w in zip(mine, theirs, weights, strict=True) if a < b)
            assert game.points == (won, lost)
            assert game.margin == won - lost


@pytest.mark.parametrize("which", range(3), ids=["full", "reduced-independent", "two-packets"])
def test_plays_are_the_players_own_arrangements(request, which):
    # Rebuilt from the documented seeds: deal ``SeedSequence([S, i])``, player
    # generator ``[S, i, seat, player id]``; equilibria as the tournament solves
    # them (canonical: the same whatever the path, so a source of its own gives them).
    result = _results(request)[which]
    config = result.config
    source = EquilibriumSource(use_book=False)
    for record in result.records:
        holdings = deal(deal_seed(config.seed, record.index), config.rules).holdings
        for play in record.plays:
            rng = np.random.default_rng(
                [config.seed, record.index, play.seat, PLAYER_NAMES.index(play.player)]
            )
            arrangement = player(play.player, solver=source).arrange(
                holdings[play.seat], holdings[1 - play.seat], config.rules, rng
            )
            assert play.strengths == tuple(int(s) for s in arrangement.strengths(config.rules))


def test_seconds_are_measured_around_each_piece_of_work(monkeypatch):
    # A clock that advances one tick per reading, seen only by the tournament:
    # each arrangement and each deal's frontiers are timed by exactly two
    # readings around them (one tick), and the whole run by readings around
    # all of them.  Timings recorded from the wrong span, or not recorded, fail.
    ticks = itertools.count()
    monkeypatch.setattr(tournament, "time", types.SimpleNamespace(perf_counter=lambda: next(ticks)))
    config = TournamentConfig(("greedy", "random"), deals=2, seed=3, rules=TWO)
    result = run(config)
    assert [r.frontier_seconds for r in result.records] == [1, 1]
    assert [p.seconds for r in result.records for p in r.plays] == [1] * 8
    readings_inside = sum(2 + 2 * len(r.plays) for r in result.records)
    assert result.seconds == readings_inside + 1
    assert [s.seconds_per_deal for s in result.players()] == [2, 2]  # a tick per seat


def test_random_player_differs_between_seats_and_deals(full_local):
    random_plays = [
        p.strengths for r in full_local.records for p in r.plays if p.player == "random"
    ]
    assert len(set(random_plays)) == len(random_plays) == 6


# ======================================================================= statistics


@pytest.mark.parametrize("which", range(3), ids=["full", "reduced-independent", "two-packets"])
def test_pair_statistics_match_the_raw_games(request, which):
    result = _results(request)[which]
    pairs = result.pairs()
    assert [(p.first, p.second) for p in pairs] == list(combinations(result.config.players, 2))
    for pair in pairs:
        games = [g for _, g in result.games() if (g.first, g.second) == (pair.first, pair.second)]
        margins = [g.margin for g in games]
        n = len(margins)
        assert pair.games == n
        assert pair.win == pytest.approx(sum(m > 0 for m in margins) / n)
        assert pair.draw == pytest.approx(sum(m == 0 for m in margins) / n)
        assert pair.loss == pytest.approx(sum(m < 0 for m in margins) / n)
        assert pair.win + pair.draw + pair.loss == pytest.approx(1.0)
        mean = sum(margins) / n
        assert pair.mean_margin == pytest.approx(mean)
        low, high = pair.margin_ci
        assert low <= pair.mean_margin <= high
        sd = (sum((m - mean) ** 2 for m in margins) / (n - 1)) ** 0.5
        assert (high - low) / 2 == pytest.approx(1.96 * sd / n**0.5)
        assert pair.mean_points == pytest.approx(
            (sum(g.points[0] for g in games) / n, sum(g.points[1] for g in games) / n)
        )
        assert pair.mean_points[0] - pair.mean_points[1] == pytest.approx(pair.mean_margin)


def test_pair_statistics_from_the_second_players_side(full_local):
    # A vs B: B's results are A's mirrored, game by game.
    games = [g for _, g in full_local.games() if (g.first, g.second) == ("greedy", "br-greedy")]
    pair = next(p for p in full_local.pairs() if (p.first, p.second) == ("greedy", "br-greedy"))
    assert pair.loss == pytest.approx(sum(g.points[1] > g.points[0] for g in games) / len(games))
    # br-greedy is the exact best response to greedy: it never loses to it.
    assert pair.win == 0.0 and pair.mean_margin < 0


@pytest.mark.parametrize("which", range(3), ids=["full", "reduced-independent", "two-packets"])
def test_player_statistics_match_the_plays(request, which):
    result = _results(request)[which]
    stats = result.players()
    assert [s.name for s in stats] == list(result.config.players)
    for s in stats:
        plays = [p for r in result.records for p in r.plays if p.player == s.name]
        assert len(plays) == 2 * result.config.deals
        exploit = [p.exploitability for p in plays]
        assert s.mean_exploitability == pytest.approx(sum(exploit) / len(exploit))
        assert s.max_exploitability == max(exploit)
        assert s.seconds_per_deal == pytest.approx(
            sum(p.seconds for p in plays) / result.config.deals
        )
        if s.name.startswith("eq-"):
            assert s.max_strategy_gap is not None and 0 <= s.max_strategy_gap <= 1e-9
            assert all(p.strategy_gap is not None for p in plays)
            assert s.median_strategy_gap is not None
            assert 0 <= s.median_strategy_gap <= s.max_strategy_gap
            assert s.exact_share == 1.0  # solved without a time limit
        else:
            assert s.max_strategy_gap is None
            assert s.median_strategy_gap is None and s.exact_share is None
            assert all(p.strategy_gap is None for p in plays)


# ======================================================================= exploitability


def test_exploitability_of_random_is_large(full_local):
    stats = {s.name: s for s in full_local.players()}
    total = FULL.rules.total_points
    assert stats["random"].mean_exploitability >= 0.8 * total
    for name in ("greedy", "br-random", "br-greedy"):
        assert stats[name].mean_exploitability < stats["random"].mean_exploitability
    # Mirror mode: the punisher could copy the arrangement, so never below 0.
    for record in full_local.records:
        for play in record.plays:
            assert 0 <= play.exploitability <= total


def _rebuild(config: TournamentConfig, record, play) -> tuple[Arrangement, tuple[int, ...]]:
    holdings = deal(record.seed, config.rules).holdings
    rng = np.random.default_rng(
        [config.seed, record.index, play.seat, PLAYER_NAMES.index(play.player)]
    )
    arrangement = player(play.player).arrange(
        holdings[play.seat], holdings[1 - play.seat], config.rules, rng
    )
    return arrangement, holdings[1 - play.seat]


@pytest.mark.parametrize("name", ["br-random", "br-greedy", "random"])
def test_exploitability_spot_check_with_an_independent_best_response(full_local, name):
    record = full_local.records[1]
    play = next(p for p in record.plays if p.player == name and p.seat == 1)
    arrangement, punisher_holding = _rebuild(FULL, record, play)
    punisher = frontier_best_response(
        punisher_holding, Opponent.known(arrangement, FULL.rules), Objective.MARGIN
    )
    assert play.exploitability == pytest.approx(punisher.value, abs=1e-9)
    # The punisher's arrangement really scores that against the played one.
    mine = punisher.arrangement.strengths(FULL.rules)
    weights = FULL.rules.position_points
    margin = sum(
        w * np.sign(int(a) - int(b)) for a, b, w in zip(mine, play.strengths, weights, strict=True)
    )
    assert margin == pytest.approx(play.exploitability)


def test_exploitability_agrees_with_cpsat(full_local):
    record = full_local.records[0]
    play = next(p for p in record.plays if p.player == "br-random" and p.seat == 0)
    arrangement, punisher_holding = _rebuild(FULL, record, play)
    cpsat = best_response(
        punisher_holding, Opponent.known(arrangement, FULL.rules), Objective.MARGIN
    )
    assert play.exploitability == pytest.approx(cpsat.value, abs=1e-9)


def test_exploitability_matches_exhaustive_search_on_two_packets(brute):
    # Every play of every player: the best margin over all 252 ordered
    # two-packet arrangements of the punisher's ten cards.
    rules = BRUTE.rules
    weights = np.array(rules.position_points)
    for record in brute.records:
        holdings = deal(record.seed, rules).holdings
        for play in record.plays:
            cards = holdings[1 - play.seat]
            rows = [
                (first, tuple(c for c in cards if c not in first))
                for first in combinations(cards, 5)
            ]
            profiles = strength(np.array(rows), rules).astype(np.int64)
            margins = np.sign(profiles - np.array(play.strengths)) @ weights
            assert play.exploitability == pytest.approx(float(margins.max()), abs=1e-9), (
                record.index,
                play.player,
                play.seat,
            )


# ======================================================================= validation


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"players": ("greedy",)}, "at least two players"),
        ({"players": ("greedy", "greedy")}, "listed twice"),
        ({"players": ("greedy", "clever")}, "unknown player 'clever'"),
        ({"players": ()}, "no players given"),
        ({"deals": 0}, "at least 1"),
        ({"seed": -1}, "non-negative"),
    ],
)
def test_bad_config_is_a_clear_error(kwargs, message):
    arguments = {"players": ("greedy", "random"), "deals": 2, "seed": 1, **kwargs}
    with pytest.raises(QuintetError, match=message):
        TournamentConfig(**arguments)


def test_config_normalises_names():
    config = TournamentConfig((" greedy", "random "), deals=1, seed=0)
    assert config.players == ("greedy", "random")


def test_bad_run_arguments_are_clear_errors():
    config = TournamentConfig(("greedy", "random"), deals=1, seed=0, rules=TWO)
    with pytest.raises(QuintetError, match=r"^jobs must be at least 1"):
        run(config, jobs=0)
    with pytest.raises(QuintetError, match="unknown backend 'spark'"):
        run(config, backend="spark")


# ======================================================================= Dask (last: starts threads)


DASK_REDUCED = TournamentConfig(CHEAP, deals=4, seed=31, rules=THREE_INDEPENDENT)


@pytest.mark.slow
def test_dask_cluster_gives_the_local_results(full_local):
    distributed = pytest.importorskip("distributed")
    children_before = set(multiprocessing.active_children())
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    try:
        progress = Counter()
        result = run(FULL, backend="dask", scheduler=cluster.scheduler_address, on_deal=progress)
        assert essence(result) == essence(full_local)
        assert sum(progress.calls) == FULL.deals
        # The cluster is still up (``run`` did not own it): use it again.
        again = run(DASK_REDUCED, jobs=2, backend="dask", scheduler=cluster.scheduler_address)
        assert essence(again) == essence(run(DASK_REDUCED))
    finally:
        cluster.close()
    assert set(multiprocessing.active_children()) <= children_before


@pytest.mark.slow
def test_dask_backend_starts_and_stops_its_own_cluster():
    pytest.importorskip("distributed")
    local = run(DASK_REDUCED)
    children_before = set(multiprocessing.active_children())
    progress = Counter()
    result = run(DASK_REDUCED, jobs=2, backend="dask", on_deal=progress)
    assert essence(result) == essence(local)
    assert sum(progress.calls) == DASK_REDUCED.deals
    assert [r.index for r in result.records] == list(range(DASK_REDUCED.deals))
    assert set(multiprocessing.active_children()) <= children_before


def test_time_limited_equilibria_report_their_gaps():
    # A time limit too short to converge on a full deal: the statistics and
    # the report show how far from exact the equilibrium players were.  The
    # limit (1 ns) has always passed by the first check, which comes after one
    # whole double-oracle iteration, so every solve stops there whatever the
    # machine's speed: the gaps are those of the first iteration.
    config = TournamentConfig(
        ("greedy", "eq-margin", "eq-win"), deals=2, seed=11, equilibrium_time_limit=1e-9
    )
    result = run(config)
    for stats in result.players():
        gaps = np.array(
            [p.strategy_gap for r in result.records for p in r.plays if p.player == stats.name]
        )
        if stats.name == "greedy":
            assert stats.exact_share is None and stats.median_strategy_gap is None
            continue
        assert stats.exact_share == pytest.approx(float(np.mean(gaps <= EXACT_GAP)))
        assert stats.median_strategy_gap == pytest.approx(float(np.median(gaps)))
        assert stats.max_strategy_gap == pytest.approx(float(gaps.max()))
    assert max(s.max_strategy_gap or 0.0 for s in result.players()) > EXACT_GAP
    text = tournament_report(result, "en").text
    assert "exact" in text and "strategy gap median" in text
