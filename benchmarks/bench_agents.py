"""Learning algorithms scored exactly: OpenSpiel's solvers on Quintet deals, beside double oracle.

Run from the repository root (needs the agents extra)::

    python benchmarks/bench_agents.py [--deals 6] [--seed 0] [--points 5_6_7] [--payoff margin] [--markdown]

Each deal (seeded, mirror mode, the reduced rules of --points: three packets by default,
frontiers of 30 to 300 strategies) is a matrix game.  OpenSpiel's regret matching and
projected replicator dynamics (normal-form), its C++ CFR and CFR+ and its fictitious play
(XFP, which walks the tree in Python: fewer iterations) run on it, and each one's average
strategies are scored by their exact NashConv (solver.exploitability: best responses over
every arrangement) after each number of iterations; the project's double oracle beside
them, at each of its iterations (its certified gap) up to its certified equilibrium.
"""

import sys

import harness as h

import solver
from solver.agents.deals import AgentDeal
from solver.agents.learning import learning_curves, summarize
from solver.agents.openspiel_game import game_rules
from solver.app.arguments import non_negative_int, positive_int

NORMAL_FORM = (1, 10, 100, 1000, 10000)
TREE = (1, 10, 100, 1000)
FICTITIOUS = (1, 3, 10, 30)
GROUPS = (  # double oracle first: its frontiers are built within its time, not cached by scoring
    (("double_oracle",), (1000,)),
    (("regret_matching", "replicator_dynamics"), NORMAL_FORM),
    (("cfr", "cfr_plus"), TREE),
    (("fictitious_play",), FICTITIOUS),
)


def fmt(value: float) -> str:
    """A NashConv: 0 below 1e-12 (no float dust), else four significant digits."""
    return "0" if abs(value) < 1e-12 else f"{value:.4g}"


def main() -> int:
    cli = h.parser(__doc__).options(positive_int, deals=6).options(non_negative_int, seed=0)
    cli.options(str, points="5_6_7", payoff="margin")
    args = cli.parse_args()
    rules = game_rules({"points": args.points})
    seeds = range(args.seed, args.seed + args.deals)
    points = []
    for algorithms, checkpoints in GROUPS:
        for name in algorithms:
            points += learning_curves(seeds, rules, args.payoff, [name], checkpoints)
            h.log(f"{name}: done")
    sizes = [AgentDeal.dealt(seed, rules).sizes for seed in seeds]
    facts = h.machine(
        [h.package(solver), "open-spiel / numpy"],
        f"deals={args.deals} seed={args.seed} points={args.points} payoff={args.payoff}; "
        f"frontier sizes {', '.join(f'{a}x{b}' for a, b in sizes)}",
    )
    table = h.Table(
        f"Exact NashConv against iterations, mean over {args.deals} deals",
        "algorithm; iterations; NashConv; 95% interval; time per deal",
        "lrrrr",
    )
    for row in summarize(points):
        interval = f"{fmt(row.low)} to {fmt(row.high)}"
        table.add(
            row.algorithm, row.iterations, fmt(row.nash_conv), interval, h.seconds(row.seconds)
        )
    unit = "points" if args.payoff == "margin" else "win probability"
    table.notes = [
        f"NashConv in {unit}: what both players together gain by best-responding (0 at an equilibrium)",
        "time: CPU seconds of the iterations (scoring excluded); double oracle: wall time since "
        "its solve began, frontiers included, its last row at the certified equilibrium",
        "double oracle's rows past a deal's last iteration count that deal at its last",
    ]
    h.show([facts, table], args.markdown)
    return 0


if __name__ == "__main__":
    sys.exit(main())
