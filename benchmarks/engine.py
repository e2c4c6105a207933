"""The engine's cases: evaluator, best response, equilibrium solves, LP engines, certificates,
learning algorithms."""

from __future__ import annotations

import importlib
import json
import tempfile
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

import solver
from benchmarks import harness as h
from benchmarks.harness import Case, Run, Table

# Our card id is 4 * rank + suit, ranks 7..A, suits c d h s: spelled out so the comparison
# does not rely on our own formatter.
CARD_NAMES = tuple(rank + suit for rank in "789TJQKA" for suit in "cdhs")
COLD_STEPS = {  # step: target (seconds)
    "import solver and the evaluator (numpy included)": 0.2,
    "first hand_table(), default rules": 0.15,
    "first strength() call (colex mask tables)": None,
    "hand_table(Rules(ace_low_straight=True)), warm": None,
    "hand_table() again (lru_cache hit)": None,
}


def random_hands(n: int, seed: int) -> np.ndarray:
    """``(n, 5)`` int8 hands of distinct cards, uniform: rows with a repeat are redrawn."""
    rng = np.random.default_rng(seed)
    hands = rng.integers(0, 32, size=(n, 5), dtype=np.int8)
    redraw = np.arange(n)
    while redraw.size:
        block = np.sort(hands[redraw], axis=1)
        redraw = redraw[(block[:, 1:] == block[:, :-1]).any(axis=1)]
        hands[redraw] = rng.integers(0, 32, size=(redraw.size, 5), dtype=np.int8)
    return hands


def other_evaluators(hands: list[list[int]]) -> list[tuple[str, str, Any]]:
    """(library, call, run over every hand) of each installed comparison library."""
    found = []
    for library in ("treys", "eval7", "phevaluator"):
        try:
            module = importlib.import_module(library)
        except ImportError:
            h.log(f"{library} not installed: skipped")
            continue
        if library == "treys":  # Evaluator() builds its tables: outside the timed region
            card, shape = module.Card.new, lambda c: ([c[0], c[1]], c[2:])
            calls = [("Evaluator().evaluate(hole, board)", module.Evaluator().evaluate)]
        elif library == "eval7":
            card, shape, calls = (
                module.Card,
                lambda c: (c,),
                [("evaluate([Card, ...])", module.evaluate)],
            )
        else:
            card, shape = module.Card.to_id, tuple
            calls = [
                (f"{f}(*int ids)", getattr(module, f))
                for f in ("evaluate_cards", "evaluate_5cards")
            ]
        ids = [card(name) for name in CARD_NAMES]
        arguments = [shape([ids[c] for c in hand]) for hand in hands]
        for call, f in calls:
            found.append((f"{library} {importlib.metadata.version(library)}", call,
                          partial(lambda f, a: [f(*x) for x in a], f, arguments)))  # fmt: skip
    return found


def best_of(call: Any, repeat: int) -> list[float]:
    call()  # warm-up
    return [h.timed(call)[0] for _ in range(repeat)]


def evaluator(run: Run) -> list[Table]:
    cold = Table(f"Table build, cold (fresh interpreter, {run.repeat} runs)",
                 "step; median; min; target; met", "lrrrl")  # fmt: skip
    steps = [h.probe("cold")["steps"] for _ in range(run.repeat)]
    for (name, target), values in zip(COLD_STEPS.items(), zip(*steps, strict=True), strict=True):
        goal = (
            ["", ""]
            if target is None
            else [f"<= {target * 1e3:.0f} ms", h.met(h.median(values) <= target)]
        )
        cold.add(
            name,
            *(
                f"{1e6 * v:.2f} µs" if v < 1e-3 else h.ms(v)
                for v in (h.median(values), min(values))
            ),
            *goal,
        )
    hands8 = random_hands(run.hands, run.seed)
    batch = Table(f"Batch strength(hands), {run.hands:,} random hands, {run.repeat} repeats",
                  "input dtype; median time; median M hands/s; best M hands/s; target >= 40; met", "lrrrrl")  # fmt: skip
    for hands in (hands8, hands8.astype(np.int64)):
        walls = best_of(lambda x=hands: solver.strength(x), run.repeat)
        rate = run.hands / h.median(walls) / 1e6
        batch.add(
            hands.dtype.name,
            h.ms(h.median(walls)),
            f"{rate:.1f}",
            f"{run.hands / min(walls) / 1e6:.1f}",
            ">= 40",
            h.met(rate >= 40),
        )
    n = min(run.compare_hands, run.hands)
    speed = Table(f"Per-hand evaluators, {n:,} of the same hands, {run.repeat} repeats",
                  "library; call (one per hand); median µs/hand; median M hands/s; ours batch / theirs", "llrrr")  # fmt: skip
    speed.add(
        f"quintet-solver {solver.__version__}",
        "strength(int64 array), batch",
        f"{1 / rate:.4f}",
        f"{rate:.1f}",
        "1",
    )
    for library, call, each in other_evaluators(hands8[:n].astype(np.int64).tolist()):
        theirs = n / h.median(best_of(each, run.repeat)) / 1e6
        speed.add(library, call, f"{1 / theirs:.3f}", f"{theirs:.3f}", f"{rate / theirs:,.0f}x")
    k = min(run.single_hands, run.hands)
    rows = list(hands8[:k].astype(np.int64))
    single = k / h.median(best_of(lambda: [solver.strength(x) for x in rows], run.repeat)) / 1e6
    speed.add(f"quintet-solver {solver.__version__}", "strength(int64 array of shape (5,))",
              f"{1 / single:.2f}", f"{single:.3f}", f"{rate / single:,.0f}x")  # fmt: skip
    speed.notes = ["Card conversion and treys.Evaluator() untimed; the ordering agreement is a test "
                   "(tests/game/test_evaluator.py)"]  # fmt: skip
    return [cold, batch, speed]


def best_response(run: Run) -> list[Table]:
    from solver import Objective, Opponent, SolveStatus
    from solver.models.heuristics import random_arrangements

    table = Table(f"Best response: {run.deals} mirror deals from seed {run.seed}, the frontier "
                  f"computed first (untimed), CP-SAT with {run.workers} workers",
                  "objective; opponent; engine; deals; median; p95; max; proven optimal; mean value; "
                  "max |value - CP-SAT|", "lllrrrrrrr")  # fmt: skip
    found: list[dict] = []
    for seed in [
        run.seed + run.deals,
        *range(run.seed, run.seed + run.deals),
    ]:  # the first: warm-up
        mine, theirs = solver.deal(seed=seed).holdings
        solver.cached_frontier(tuple(sorted(mine)), solver.Rules())
        for objective in (Objective.POINTS, Objective.MARGIN):
            for name in ("random", "greedy"):
                opponent = (
                    Opponent.random(theirs)
                    if name == "random"
                    else Opponent.known(solver.greedy_arrangement(theirs))
                )
                engines = {"CP-SAT": partial(solver.best_response, time_limit=run.time_limit, workers=run.workers),
                           "frontier": solver.frontier_best_response}  # fmt: skip
                for engine, call in engines.items():
                    wall, _, result = h.timed(lambda c=call, a=(mine, opponent, objective): c(*a))
                    found += [] if seed == run.seed + run.deals else [{"objective": objective.value, "opponent": name, "engine": engine,
                                  "seed": seed, "wall": wall, "value": result.value,
                                  "proven": result.status is SolveStatus.OPTIMAL}]  # fmt: skip
        h.log(f"best response: deal {seed}")
    reference = {
        (f["seed"], f["objective"], f["opponent"]): f["value"]
        for f in found
        if f["engine"] == "CP-SAT"
    }
    for key in dict.fromkeys((f["objective"], f["opponent"], f["engine"]) for f in found):
        group = [f for f in found if (f["objective"], f["opponent"], f["engine"]) == key]
        walls = [f["wall"] for f in group]
        off = max(abs(f["value"] - reference[f["seed"], key[0], key[1]]) for f in group)
        table.add(*key, len(group), *h.spread(walls, h.ms), f"{sum(f['proven'] for f in group)}/{len(group)}",
                  f"{np.mean([f['value'] for f in group]):.4f}", f"{off:.1e}")  # fmt: skip
    table.notes = [
        "values out of 25 points; targets: CP-SAT median <= 0.5 s, p95 <= 2 s; frontier <= 20 ms"
    ]
    mixture = Table(f"Win against a 200-arrangement mixture (CP-SAT): {run.mixture_deals} deals",
                    "deals; median; p95; max; proven optimal; mean P(win); target median <= 10 s", "rrrrrrl")  # fmt: skip
    runs = []
    for i in range(run.mixture_deals):
        mine, theirs = solver.deal(seed=run.seed + i).holdings
        rng = np.random.default_rng((run.seed, i))
        opponent = Opponent.mixture(
            random_arrangements(theirs, 200, rng), rng.dirichlet(np.ones(200))
        )
        options = {"time_limit": run.time_limit, "workers": run.workers}
        runs.append(
            h.timed(
                lambda m=mine, o=opponent, k=options: solver.best_response(
                    m, o, Objective.WIN_PROBABILITY, **k
                )
            )
        )
    if runs:
        walls = [r[0] for r in runs]
        mixture.add(len(runs), *h.spread(walls), f"{sum(r[2].status is SolveStatus.OPTIMAL for r in runs)}/{len(runs)}",
                    f"{np.mean([r[2].value for r in runs]):.4f}", h.met(h.median(walls) <= 10))  # fmt: skip
    return [table] + ([mixture] if runs else [])


def solve(run: Run) -> list[Table]:
    """Each (deal, payoff, alternative) in a fresh process: cold frontiers, then the solve."""
    roots = {variant: run.roots["this checkout"] for variant in run.words("variants")}
    if "baseline" in run.roots:
        roots["baseline"] = run.roots["baseline"]
    items = [(mode, seed, payoff) for mode in run.words("modes") for seed in range(run.seed, run.seed + run.deals)
             for payoff in run.words("payoffs")]  # fmt: skip

    def measure(item: tuple[str, int, str], name: str) -> dict | None:
        variant = run.words("variants")[0] if name == "baseline" else name
        found = h.probe("solve", roots[name], mode=item[0], seed=item[1], payoff=item[2],
                        variant=variant, time_limit=run.time_limit)  # fmt: skip
        return (
            None
            if "error" in found
            else found | dict(zip(("mode", "seed", "payoff"), item, strict=True))
        )

    results = h.alternate(items, list(roots), measure)
    frontier = Table("Strategy frontier, cold, per holding (fresh processes)",
                     "mode; holdings; median strategies; max strategies; wall median; p95; max; CPU median; p95; max",
                     "lrrrrrrrrr")  # fmt: skip
    first, payoffs = next(iter(results.values())), run.words("payoffs")
    for mode in run.words("modes"):
        built = [
            f
            for r in first
            if r["mode"] == mode and r["payoff"] == payoffs[0]
            for f in r["frontiers"]
        ]
        if built:
            sizes = [f["strategies"] for f in built]
            frontier.add(mode, len(built), f"{h.median(sizes):,.0f}", f"{max(sizes):,}",
                         *h.spread([f["wall"] for f in built]), *h.spread([f["cpu"] for f in built]))  # fmt: skip
    frontier.notes = ["targets: median <= 0.15 s wall, <= 0.04 s CPU (mirror)"]
    table = Table("Exact equilibrium per deal (tolerance 1e-9, no book), CPU unless said",
                  "mode; payoff; alternative; deals; certified; median iterations; mean support; "
                  "total median; mean; p95; p99; max; solve alone median; p95; wall total median; "
                  "solve / first's (median); max |value - first's|", "lll" + "r" * 14)  # fmt: skip
    reference = {(r["mode"], r["seed"], r["payoff"]): r for r in first}
    for mode in run.words("modes"):
        for payoff in run.words("payoffs"):
            for name, rows in results.items():
                group = [r for r in rows if r["mode"] == mode and r["payoff"] == payoff]
                if not group:
                    continue
                total = [r["cpu"] + sum(f["cpu"] for f in r["frontiers"]) for r in group]
                wall = [r["wall"] + sum(f["wall"] for f in r["frontiers"]) for r in group]
                theirs = [reference.get((mode, r["seed"], payoff)) for r in group]
                ratio = h.median(
                    r["cpu"] / t["cpu"] for r, t in zip(group, theirs, strict=True) if t
                )
                off = max(
                    abs(r["value"] - t["value"]) for r, t in zip(group, theirs, strict=True) if t
                )
                table.add(mode, payoff, name, len(group), f"{sum(r['gap'] <= 1e-6 for r in group)}/{len(group)}",
                          f"{h.median(r['iterations'] for r in group):.0f}",
                          f"{np.mean([r['support'] for r in group]):.1f}", h.seconds(h.median(total)),
                          h.seconds(float(np.mean(total))), *h.spread(total, p99=True)[1:],
                          *h.spread([r["cpu"] for r in group])[:2], h.seconds(h.median(wall)),
                          f"{ratio:.2f}", f"{off:.1e}")  # fmt: skip
    table.notes = ["total: cold frontiers + solve; solve alone: the frontiers cached; certified: gap <= 1e-6",
                   "plain: canonical=False; canonical: the default solve (selection, ranges); glop: "
                   "warm_simplex=False; baseline: --baseline's checkout, the first variant",
                   "targets (mirror, CPU): margin median <= 0.12 s, p99 <= 1 s; win median <= 0.2 s, p99 <= 2 s"]  # fmt: skip
    return [frontier, table]


def record(index: int, time_limit: float, payoff: str = "win", mirror: bool = True) -> Any:
    """The double oracle of tournament deal ``index`` with every LP change recorded (a
    :class:`MatrixGameLP` subclass in the oracle's public ``lp`` attribute)."""
    from solver.equilibria.equilibrium import DealDoubleOracle
    from solver.game.deal import deal_seed
    from solver.lp import MatrixGameLP

    class Recording(MatrixGameLP):
        events: list[list[Any]]
        games: list[np.ndarray]

        def add_row(self, payoffs: Any) -> None:
            super().add_row(payoffs)
            self.events.append(["row", np.asarray(payoffs, dtype=np.float64).tolist()])

        def add_column(self, payoffs: Any) -> None:
            super().add_column(payoffs)
            self.events.append(["column", np.asarray(payoffs, dtype=np.float64).tolist()])

        def restrict(self, rows: list[int], columns: list[int]) -> None:
            super().restrict(rows, columns)
            self.events.append(["restrict", list(rows), list(columns)])

        def guess(self, row: np.ndarray, column: np.ndarray) -> None:
            super().guess(row, column)
            self.events.append(["guess", np.asarray(row).tolist(), np.asarray(column).tolist()])

        def solve(self) -> Any:
            self.events.append(["solve"])
            self.games.append(self.matrix())
            return super().solve()

    holdings = [tuple(sorted(x)) for x in solver.deal(deal_seed(2026, index)).holdings]
    oracle = DealDoubleOracle(holdings[0], holdings[0 if mirror else 1], payoff=payoff)
    lp = Recording(oracle.lp.baseline, oracle.lp.lowest, oracle.lp.warm, oracle.lp.options)
    lp.events, lp.games, oracle.lp = [], [], lp
    for _ in oracle.iterations(time_limit=time_limit):
        pass
    return lp


def replay(lp: Any, warm: bool) -> tuple[list[list[Any]], int]:
    """(CPU seconds, row, column, value) of each recorded LP on the warm simplex or GLOP, and
    the warm simplex's GLOP fallbacks; seconds: the changes since the last solve and the solve."""
    import time

    from solver.lp import MatrixGameLP

    game, found, took = MatrixGameLP(lp.baseline, lp.lowest, warm=warm), [], 0.0
    steps = {
        "row": game.add_row,
        "column": game.add_column,
        "restrict": game.restrict,
        "guess": game.guess,
    }
    for kind, *data in lp.events:
        started = time.process_time()
        if kind == "solve":
            answer = game.solve()
            found.append(
                [took + time.process_time() - started, answer.row, answer.column, answer.value]
            )
            took = 0.0
        else:
            steps[kind](*(np.asarray(d) if kind == "guess" else d for d in data))
            took += time.process_time() - started
    return found, game.fallbacks


def lp_engines(run: Run) -> list[Table]:
    from threadpoolctl import threadpool_limits

    names = ("warm simplex", "HiGHS kept warm", "GLOP from scratch")
    runs: dict[str, list[tuple[float, float, float]]] = {name: [] for name in names}
    fallbacks = 0
    for index in range(run.first, run.first + run.deals):
        with threadpool_limits(limits=1):
            lp = record(index, run.time_limit)
        h.log(f"deal {index}: {len(lp.games)} LPs recorded, the last {lp.games[-1].shape}")
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "sequence.json"
            path.write_text(json.dumps({"events": lp.events, "baseline": lp.baseline}))
            highs = h.probe("highs", path=str(path), tolerance=run.highs_tolerance)
        if "error" in highs:
            raise SystemExit(f"HiGHS replay: {highs['error']}")
        with threadpool_limits(limits=1):
            (warm, fallback), (glop, _) = replay(lp, True), replay(lp, False)
        fallbacks += fallback
        for name, found in zip(names, (warm, highs["found"], glop), strict=True):
            for game, (took, row, column, value) in zip(lp.games, found, strict=True):
                gap = float((game @ np.asarray(column)).max() - (np.asarray(row) @ game).min())
                runs[name].append((took, gap, value))
    table = Table(f"The double oracle's LP sequence replayed: {len(runs[names[0]])} LPs of {run.deals} deals",
                  "engine; median per LP; p95 per LP; total; certified gap, max; |value - warm simplex|, max",
                  "lrrrrr")  # fmt: skip
    reference = [v for _, _, v in runs[names[0]]]
    totals = {name: sum(t for t, _, _ in found) for name, found in runs.items()}
    for name, found in runs.items():
        off = max(abs(v - r) for (_, _, v), r in zip(found, reference, strict=True))
        times = [t for t, _, _ in found]
        table.add(name, h.ms(h.median(times)), h.ms(h.pct(times, 95)), h.seconds(totals[name]),
                  f"{max(g for _, g, _ in found):.1e}", f"{off:.1e}")  # fmt: skip
    table.notes = [f"CPU per LP on one BLAS thread; mirror win deals of the tournament (seed 2026); the warm simplex "
                   f"fell back to GLOP on {fallbacks} LPs; HiGHS in a process of its own, feasibility tolerances "
                   f"{run.highs_tolerance:g}",
                   f"total: HiGHS kept warm {totals[names[1]] / totals[names[0]]:.1f}x, GLOP from scratch "
                   f"{totals[names[2]] / totals[names[0]]:.1f}x the warm simplex's time"]  # fmt: skip
    if run.save_games:
        save_games(Path(run.save_games), run.first, run.time_limit)
    return [table]


def save_games(path: Path, first: int, time_limit: float) -> None:
    """Deals ``first`` and ``first + 1``'s restricted games (win mirror, margin of both holdings),
    the middle and the last one solved, as int8: ``tests/support/data/restricted_games.npz``."""
    saved = {}
    for index in (first, first + 1):
        for payoff, mirror in (("win", True), ("margin", False)):
            games = record(index, time_limit, payoff, mirror).games
            for name, game in {"middle": games[len(games) // 2], "last": games[-1]}.items():
                if name == "middle" or len(games) >= 3:  # with fewer, the middle game is the last
                    assert np.array_equal(game, np.round(game)) and np.abs(game).max() <= 127
                    saved[f"{payoff}_{'mirror' if mirror else 'deal'}{index}_{name}"] = game.astype(
                        np.int8
                    )
    np.savez_compressed(path, **saved)


def verify(run: Run) -> list[Table]:
    """Per deal in this process: the solve (frontiers cold), its certificate, the Gambit
    export, and ``verify_document`` on the certificate read back from its JSON text."""
    from solver.equilibria.certificate import certificate
    from solver.equilibria.nfg import nfg_text
    from solver.verify import verify_document

    points = {2: (6, 7), 3: (5, 6, 7), 5: (3, 4, 5, 6, 7)}[run.positions]
    table = Table(f"Certificates of {run.deals} deals per mode and payoff, {run.positions} positions",
                  "mode; payoff; deals; mean support; largest support; both bounds proven; solve median; "
                  "certificate median; certificate / solve; nfg median; verify CPU median; p95; max; "
                  "verify wall median; p95", "llr" + "r" * 12)  # fmt: skip
    for mode in run.words("modes"):
        rules = solver.Rules(position_points=points, discard_mode=mode)
        for payoff in run.words("payoffs"):
            rows = []
            for seed in range(run.seed, run.seed + run.deals):
                first, second = solver.deal(seed, rules).holdings
                solver.cached_frontier.cache_clear()  # the solve computes its frontiers, as a command does
                solved, _, result = h.timed(
                    lambda a=(first, second, rules, payoff): solver.solve_equilibrium(*a)
                )
                made, _, document = h.timed(lambda r=result, a=(first, second): certificate(r, *a))
                export = h.timed(lambda r=result: nfg_text(r))[0]
                text = json.dumps(document)
                wall, cpu, report = h.timed(
                    lambda t=text: verify_document(json.loads(t), time_limit=run.time_limit)
                )
                support = [len(document["strategies"][p]) for p in ("player1", "player2")]
                rows.append({"solve": solved, "certificate": made, "nfg": export, "wall": wall, "cpu": cpu,
                             "proven": not report.unverified, "support": sum(support) / 2})  # fmt: skip
                h.log(f"verify {mode} {payoff} {seed}: {rows[-1]}")
            cpu = [r["cpu"] for r in rows]
            table.add(mode, payoff, len(rows), f"{np.mean([r['support'] for r in rows]):.1f}",
                      f"{max(r['support'] for r in rows):.0f}", f"{sum(r['proven'] for r in rows)}/{len(rows)}",
                      h.ms(h.median(r["solve"] for r in rows)), h.ms(h.median(r["certificate"] for r in rows)),
                      f"{100 * h.median(r['certificate'] / r['solve'] for r in rows):.0f}%",
                      h.ms(h.median(r["nfg"] for r in rows)), *h.spread(cpu),
                      *h.spread([r["wall"] for r in rows])[:2])  # fmt: skip
    table.notes = ["verify: the exact best-response search for both bounds, JSON parsing included; "
                   "its time limit is wall clock; support: arrangements per player"]  # fmt: skip
    return [table]


def agents(run: Run) -> list[Table]:
    """OpenSpiel's solvers and the double oracle on reduced deals, scored by exact NashConv."""
    from solver.agents.deals import AgentDeal
    from solver.agents.learning import learning_curves, summarize
    from solver.agents.openspiel_game import game_rules

    rules, seeds = game_rules({"points": run.points}), range(run.seed, run.seed + run.deals)
    groups = ((("double_oracle",), (1000,)), (("regret_matching", "replicator_dynamics"), (1, 10, 100, 1000, 10000)),
              (("cfr", "cfr_plus"), (1, 10, 100, 1000)), (("fictitious_play",), (1, 3, 10, 30)))  # fmt: skip
    points = []
    for (
        algorithms,
        checkpoints,
    ) in groups:  # double oracle first: its frontiers built within its time
        for name in algorithms:
            points += learning_curves(seeds, rules, run.payoff, [name], checkpoints)
    sizes = ", ".join(f"{a}x{b}" for a, b in (AgentDeal.dealt(seed, rules).sizes for seed in seeds))
    table = Table(f"Exact NashConv against iterations, mean over {run.deals} deals (frontiers {sizes})",
                  "algorithm; iterations; NashConv; 95% interval; time per deal", "lrrrr")  # fmt: skip

    def fmt(value: float) -> str:  # no float dust
        return "0" if abs(value) < 1e-12 else f"{value:.4g}"

    for row in summarize(points):
        table.add(row.algorithm, row.iterations, fmt(row.nash_conv), f"{fmt(row.low)} to {fmt(row.high)}",
                  h.seconds(row.seconds))  # fmt: skip
    table.notes = ["time: CPU seconds of the iterations (scoring excluded); double oracle: wall time "
                   "since its solve began, frontiers included"]  # fmt: skip
    return [table]


def profile(run: Run) -> list[Table]:
    """Where the time goes: the solves of mirror deals timed (frontier cold, canonical=False),
    then the typical (median) deal and the slowest ones under cProfile (CPU clock)."""
    import cProfile
    import pstats
    import time

    def call(seed: int, payoff: str) -> Any:
        solver.cached_frontier.cache_clear()
        holdings = solver.deal(seed=seed).holdings
        return solver.solve_equilibrium(*holdings, solver.Rules(), payoff, canonical=False)

    tables = []
    for payoff in run.words("payoffs"):
        call(WARM, payoff)  # the code warm
        runs = sorted(
            (h.timed(partial(call, seed, payoff))[1], seed)
            for seed in range(run.seed, run.seed + run.deals)
        )
        cpu = [c for c, _ in runs]
        picked = [(runs[len(runs) // 2], "typical (median)")]
        picked += [(r, f"slowest {k + 1}") for k, r in enumerate(runs[::-1][: run.tail])]
        for (took, seed), which in picked:
            profiler = cProfile.Profile(time.process_time)
            profiler.runcall(partial(call, seed, payoff))
            stats = pstats.Stats(profiler).stats  # type: ignore[attr-defined]
            total = sum(row[2] for row in stats.values())
            table = Table(f"{payoff}, deal {seed} ({which}, {h.seconds(took)} CPU; {run.deals} deals: median "
                          f"{h.seconds(h.median(cpu))}, p95 {h.seconds(h.pct(cpu, 95))}, max {h.seconds(cpu[-1])})",
                          "function; own CPU; share; with callees; calls", "lrrrr")  # fmt: skip
            for (path, line, name), row in sorted(stats.items(), key=lambda i: -i[1][2])[: run.top]:
                where = (
                    f"{Path(path).parent.name}/{Path(path).name}:{line}({name})"
                    if path != "~"
                    else name
                )
                table.add(where, h.ms(row[2]), f"{100 * row[2] / total:.0f}%", h.ms(row[3]), row[1])
            tables.append(table)
    return tables


WARM = 999_999  # a deal outside the measured seeds: the code and its tables warm


CASES = [
    Case("evaluator", "Evaluator", "solver.strength cold, in batches and per hand, beside treys, eval7, phevaluator",
         {"hands": 5_000_000, "repeat": 7, "seed": 20_240_601, "compare_hands": 200_000, "single_hands": 20_000},
         {"hands": 200_000, "repeat": 3, "compare_hands": 20_000, "single_hands": 2_000},
         ("quintet-solver", "treys", "eval7", "phevaluator"), evaluator),
    Case("best-response", "Best response: CP-SAT and over the frontier",
         "best_response and frontier_best_response, points and margin against random and greedy; win against a mixture",
         {"deals": 50, "seed": 20_240_601, "mixture_deals": 10, "workers": 2, "time_limit": 60.0},
         {"deals": 2, "mixture_deals": 1}, ("CP-SAT", "frontier"), best_response),
    Case("solve", "Frontier and exact equilibria",
         "cold frontiers and solve_equilibrium per deal and payoff, each in a fresh process",
         {"modes": "mirror,independent", "payoffs": "margin,win", "deals": 20, "seed": 1,
          "variants": "plain,canonical", "time_limit": 120.0},
         {"deals": 2, "modes": "mirror"}, ("plain", "canonical", "glop", "baseline"), solve),
    Case("lp", "Restricted games: warm simplex, HiGHS kept warm, GLOP",
         "the double oracle's recorded LP sequence replayed on each engine",
         {"deals": 10, "first": 0, "time_limit": 120.0, "highs_tolerance": 1e-9, "save_games": ""},
         {"deals": 1, "first": 3}, ("warm simplex", "HiGHS kept warm", "GLOP from scratch"), lp_engines),
    Case("verify", "Certificates and quintet verify",
         "solve, certificate, Gambit export and verify_document per deal",
         {"modes": "mirror,independent", "payoffs": "margin,win", "deals": 20, "seed": 1, "positions": 5,
          "time_limit": 600.0},
         {"deals": 1, "positions": 2}, ("solve", "certificate", "nfg", "verify"), verify),
    Case("profile", "Where the time goes", "cProfile of the typical and the slowest exact equilibria",
         {"payoffs": "margin,win", "deals": 40, "seed": 1, "tail": 3, "top": 12}, {"deals": 3, "tail": 1, "top": 5},
         ("typical", "slowest"), profile),
    Case("agents", "Learning algorithms scored exactly",
         "OpenSpiel's regret matching, replicator dynamics, CFR, CFR+, XFP and the double oracle",
         {"deals": 6, "seed": 0, "points": "5_6_7", "payoff": "margin"}, {"deals": 1, "points": "6_7"},
         ("double_oracle", "regret_matching", "replicator_dynamics", "cfr", "cfr_plus", "fictitious_play"), agents),
]  # fmt: skip
