"""Tournaments: every pair of players on the same seeded deals, in both seats.

Deal ``i`` of a tournament with seed ``S`` is dealt from the seed
``SeedSequence([S, i])``; each player's generator for a deal and seat comes
from ``SeedSequence([S, i, seat, player id])``.  A deal is one unit of work
(:func:`play_deal`): every player arranges both seats, every arrangement's
exploitability is measured, and every pair plays two games (each player in
each seat).  Units are independent, so the results are the same whatever
runs them: one process, a local process pool (``jobs``), or a Dask cluster
(``backend="dask"``, the ``distributed`` extra).

Exploitability of an arrangement: the margin that an opponent who knew it
would score against it with a best response (exact, over the opponent's
frontier).  In mirror mode the game value is 0, so this is exactly what
playing it gives away against a perfect opponent.

>>> result = run(TournamentConfig(("greedy", "random"), deals=2, seed=1))
>>> [(s.first, s.second, s.games) for s in result.pairs()]
[('greedy', 'random', 4)]
>>> TournamentConfig(("greedy",), deals=2, seed=1)
Traceback (most recent call last):
    ...
solver.errors.QuintetError: a tournament needs at least two players
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from itertools import combinations

import numpy as np
from threadpoolctl import threadpool_limits

from solver.book.source import EquilibriumSource
from solver.equilibria.equilibrium import Payoff
from solver.errors import QuintetError
from solver.game.arrangement import Arrangement, points_against
from solver.game.deal import deal, deal_seed
from solver.game.rules import DEFAULT_RULES, Rules
from solver.game.suits import canonical_key, holding_of
from solver.models.opponents import Objective, Opponent
from solver.play.players import PLAYER_NAMES, player, players
from solver.play.runners import DASK_CONNECT_TIMEOUT, chunks, run_dask, run_local
from solver.response.frontier import cached_frontier
from solver.response.frontier_response import frontier_best_response
from solver.util.checks import check_callback, check_instance, check_int, check_number
from solver.util.time_limit import check_time_limit

__all__ = [
    "DASK_CONNECT_TIMEOUT",
    "EXACT_GAP",
    "MAX_DEALS",
    "DealRecord",
    "PairStats",
    "PlayerStats",
    "TournamentConfig",
    "TournamentResult",
    "play_deal",
    "run",
    "used_jobs",
]

# The most deals a tournament plays (the command line allows fewer, solver.app.limits):
# its list of deals is built before the first is played.
MAX_DEALS = 10_000_000

# An equilibrium strategy counts as exact when its certified gap is at most
# this (payoff units), as in the equilibrium benchmark.
EXACT_GAP = 1e-6


@dataclass(frozen=True)
class TournamentConfig:
    """What a tournament plays: player names, number of deals (1 to :data:`MAX_DEALS`),
    seed (at least 0) and rules."""

    players: tuple[str, ...]
    deals: int
    seed: int
    rules: Rules = DEFAULT_RULES
    equilibrium_time_limit: float | None = None

    def __post_init__(self) -> None:
        check_int(self.deals, "deals", high=MAX_DEALS)
        check_int(self.seed, "seed")
        check_instance(self.rules, Rules, "rules")
        names = tuple(p.name for p in players(self.players))
        object.__setattr__(self, "players", names)
        if len(names) < 2:
            raise QuintetError("a tournament needs at least two players")
        if self.deals < 1:
            raise QuintetError(f"the number of deals must be at least 1, got {self.deals}")
        if self.seed < 0:
            raise QuintetError(f"the seed must be non-negative, got {self.seed}")
        limit = check_time_limit(self.equilibrium_time_limit, "equilibrium_time_limit")
        object.__setattr__(self, "equilibrium_time_limit", limit)


@dataclass(frozen=True)
class Play:
    """One player's arrangement in one seat of one deal."""

    player: str
    seat: int
    strengths: tuple[int, ...]
    seconds: float
    exploitability: float
    strategy_gap: float | None = None  # equilibrium players: their strategy's certified gap


@dataclass(frozen=True)
class Game:
    """One game: ``first`` in seat ``first_seat`` against ``second`` in the other."""

    first: str
    second: str
    first_seat: int
    points: tuple[int, int]

    @property
    def margin(self) -> int:
        """First player's points minus the second's."""
        return self.points[0] - self.points[1]


@dataclass(frozen=True)
class DealRecord:
    """Everything that happened on one deal."""

    index: int
    seed: int
    frontier_seconds: float
    plays: tuple[Play, ...]
    games: tuple[Game, ...]


def play_deal(config: TournamentConfig, index: int) -> DealRecord:
    """Play deal ``index``: arrangements, exploitability and all games."""
    rules = config.rules
    seed = deal_seed(config.seed, index)
    holdings = deal(seed, rules).holdings
    started = time.perf_counter()
    for held, other in (holdings, holdings[::-1]):
        cached_frontier(tuple(sorted(held)), rules)  # shared by the solver players
        # The equilibrium players' frontier: the holding in the deal's canonical frame of
        # the suits (solver.equilibria.frontier_game), the same one when the deal is canonical.
        cached_frontier(holding_of(canonical_key((held, other))[0][0]), rules)
    frontier_seconds = time.perf_counter() - started

    # One source for the deal: both seats of an equilibrium player cost one solve, and
    # the win game starts from the margin one.  The equilibrium played is the canonical
    # one, the same on every machine (the one found depends on the floating point's
    # rounding: another machine's tables differed); 16% more CPU on 30 deals.
    source = EquilibriumSource(use_book=False, time_limit=config.equilibrium_time_limit)
    plays: dict[tuple[str, int], Play] = {}
    # What the best answer to an arrangement wins, by (seat, arrangement): on a mirror deal
    # the deterministic players lay out the same arrangement in both seats.
    punished: dict[tuple[tuple[int, ...], Arrangement], float] = {}
    for name in config.players:
        strategy = player(name, solver=source)
        for seat in (0, 1):
            rng = np.random.default_rng([config.seed, index, seat, PLAYER_NAMES.index(name)])
            clock = time.perf_counter()
            arrangement = strategy.arrange(holdings[seat], holdings[1 - seat], rules, rng)
            seconds = time.perf_counter() - clock
            arrangement.check(holdings[seat], rules)
            key = (holdings[1 - seat], arrangement)
            if key not in punished:
                punished[key] = frontier_best_response(
                    holdings[1 - seat],
                    Opponent.known(arrangement, rules, holding=holdings[seat]),
                    Objective.MARGIN,
                ).value
            plays[name, seat] = Play(
                player=name,
                seat=seat,
                strengths=tuple(int(s) for s in arrangement.strengths(rules)),
                seconds=seconds,
                exploitability=punished[key],
                strategy_gap=_strategy_gap(name, holdings, seat, config.rules, source),
            )
    games = []
    for first, second in combinations(config.players, 2):
        for first_seat in (0, 1):
            mine = np.array(plays[first, first_seat].strengths)
            theirs = np.array(plays[second, 1 - first_seat].strengths)
            points = points_against(mine, theirs, rules)
            games.append(Game(first, second, first_seat, (int(points[0]), int(points[1]))))
    return DealRecord(index, seed, frontier_seconds, tuple(plays.values()), tuple(games))


def _strategy_gap(
    name: str,
    holdings: tuple[tuple[int, ...], tuple[int, ...]],
    seat: int,
    rules: Rules,
    source: EquilibriumSource,
) -> float | None:
    """The certified gap of an equilibrium player's strategy (kept by ``source``)."""
    payoff = {"eq-margin": Payoff.MARGIN, "eq-win": Payoff.GAME_RESULT}.get(name)
    if payoff is None:
        return None
    return source(holdings[seat], holdings[1 - seat], rules, payoff).gap


def _play_chunk(config: TournamentConfig, indices: list[int]) -> list[DealRecord]:
    # Worker processes share the cores: one BLAS thread each, or the threads
    # of the warm simplex's matrix-vector products fight over them.
    with threadpool_limits(limits=1):
        return [play_deal(config, i) for i in indices]


@dataclass(frozen=True)
class PairStats:
    """How ``first`` fared against ``second`` over all their games."""

    first: str
    second: str
    games: int
    win: float
    draw: float
    loss: float
    mean_margin: float
    margin_ci: tuple[float, float]
    mean_points: tuple[float, float]


@dataclass(frozen=True)
class PlayerStats:
    """A player's cost and exploitability over all deals and seats."""

    name: str
    seconds_per_deal: float
    mean_exploitability: float
    max_exploitability: float
    max_strategy_gap: float | None
    median_strategy_gap: float | None = None
    exact_share: float | None = None  # share of its plays from strategies with gap <= EXACT_GAP


@dataclass(frozen=True)
class TournamentResult:
    """All deal records, in deal order, and what they add up to."""

    config: TournamentConfig
    records: tuple[DealRecord, ...]
    seconds: float

    def games(self) -> Iterator[tuple[DealRecord, Game]]:
        """Every game with its deal."""
        for record in self.records:
            for game in record.games:
                yield record, game

    def pairs(self) -> list[PairStats]:
        """Per pair of players: results, mean margin with a 95% interval, mean points."""
        out = []
        for first, second in combinations(self.config.players, 2):
            games = [g for _, g in self.games() if (g.first, g.second) == (first, second)]
            margins = np.array([g.margin for g in games], dtype=np.float64)
            points = np.array([g.points for g in games], dtype=np.float64)
            n = margins.shape[0]
            half = 1.96 * margins.std(ddof=1) / np.sqrt(n) if n > 1 else float("nan")
            mean = float(margins.mean())
            out.append(
                PairStats(
                    first=first,
                    second=second,
                    games=n,
                    win=float((margins > 0).mean()),
                    draw=float((margins == 0).mean()),
                    loss=float((margins < 0).mean()),
                    mean_margin=mean,
                    margin_ci=(mean - half, mean + half),
                    mean_points=(float(points[:, 0].mean()), float(points[:, 1].mean())),
                )
            )
        return out

    def players(self) -> list[PlayerStats]:
        """Per player: seconds per deal (both seats) and exploitability of its arrangements."""
        out = []
        for name in self.config.players:
            plays = [p for r in self.records for p in r.plays if p.player == name]
            exploit = np.array([p.exploitability for p in plays])
            gaps = [p.strategy_gap for p in plays if p.strategy_gap is not None]
            out.append(
                PlayerStats(
                    name=name,
                    seconds_per_deal=sum(p.seconds for p in plays) / len(self.records),
                    mean_exploitability=float(exploit.mean()),
                    max_exploitability=float(exploit.max()),
                    max_strategy_gap=max(gaps) if gaps else None,
                    median_strategy_gap=float(np.median(gaps)) if gaps else None,
                    exact_share=float(np.mean(np.array(gaps) <= EXACT_GAP)) if gaps else None,
                )
            )
        return out


def used_jobs(jobs: int, deals: int) -> int:
    """Worker processes a local run uses: no more than the cores, nor the deals.

    >>> used_jobs(1, 10)
    1
    """
    return max(1, min(jobs, os.cpu_count() or jobs, deals))


def _check_run_arguments(
    jobs: int, backend: str, scheduler: str | None, connect_timeout: float
) -> None:
    """Raise :class:`QuintetError` for arguments of :func:`run` out of range."""
    check_int(jobs, "jobs")
    check_number(connect_timeout, "connect_timeout")
    if scheduler is not None:
        check_instance(scheduler, str, "scheduler")
    if jobs < 1:
        raise QuintetError(f"jobs must be at least 1, got {jobs}", argument="jobs")
    if scheduler is not None and backend != "dask":
        raise QuintetError(
            f"scheduler needs backend='dask', got backend={backend!r}", argument="scheduler"
        )
    if not connect_timeout > 0 or not math.isfinite(connect_timeout):
        raise QuintetError(
            f"connect_timeout must be a positive number, got {connect_timeout}",
            argument="connect_timeout",
        )
    if backend not in ("local", "dask"):
        raise QuintetError(f"unknown backend {backend!r} (backends: local, dask)")


def _deal_indices(skip: Collection[int]) -> list[int]:
    """``skip`` checked: deal indices, integers of at least 0."""
    if isinstance(skip, (str, bytes)) or not isinstance(skip, Iterable):
        raise TypeError(f"skip must be deal indices, got {skip!r}")
    return [check_int(index, "skip", low=0) for index in skip]


def _on_finished(
    on_deal: Callable[[int], None] | None, on_record: Callable[[DealRecord], None] | None
) -> Callable[[DealRecord], None]:
    """What :func:`run` calls as each deal finishes: ``on_record``, then ``on_deal``."""

    def finished(record: DealRecord) -> None:
        if on_record is not None:
            on_record(record)
        if on_deal is not None:
            on_deal(1)

    return finished


def run(
    config: TournamentConfig,
    *,
    jobs: int = 1,
    backend: str = "local",
    scheduler: str | None = None,
    on_deal: Callable[[int], None] | None = None,
    on_record: Callable[[DealRecord], None] | None = None,
    skip: Collection[int] = (),
    connect_timeout: float = DASK_CONNECT_TIMEOUT,
) -> TournamentResult:
    """Play a tournament.

    Parameters
    ----------
    config
        Players, deals, seed and rules.
    jobs
        Worker processes (local pool, or local Dask cluster).
    backend
        ``"local"`` or ``"dask"``.
    scheduler
        For ``"dask"``: the address of a running scheduler; by default a
        local cluster of ``jobs`` workers is started and stopped.
    on_deal
        Called with the number of deals finished, as they finish (progress).
    on_record
        Called with each deal's record as it finishes (in finishing order),
        to save results as they come: an interrupted run keeps them.
    skip
        Indices of deals not to play (already played by an interrupted run):
        the result holds the other deals only.
    connect_timeout
        For a Dask ``scheduler``: seconds to wait for it to answer.

    Returns
    -------
    TournamentResult
        Identical for any ``jobs`` and backend (unless the equilibrium solves
        have a time limit: then timing decides where they stop).
    """
    _check_run_arguments(jobs, backend, scheduler, connect_timeout)
    check_instance(config, TournamentConfig, "config")
    check_callback(on_deal, "on_deal")
    check_callback(on_record, "on_record")
    skipped = set(_deal_indices(skip))
    indices = [i for i in range(config.deals) if i not in skipped]
    jobs = used_jobs(jobs, len(indices)) if backend == "local" else jobs
    finished = _on_finished(on_deal, on_record)
    work = partial(_play_chunk, config)
    started = time.perf_counter()
    if backend == "local":
        records = run_local(work, chunks(indices, jobs), jobs, finished)
    else:
        records = run_dask(work, chunks(indices, jobs), jobs, scheduler, finished, connect_timeout)
    records.sort(key=lambda r: r.index)
    return TournamentResult(config, tuple(records), time.perf_counter() - started)
