"""The canonical equilibrium's cost: the selection's added CPU time per solve, against the solve without it.

Run from the repository root::

    python benchmarks/bench_canonical.py [--deals 10] [--seed 0] [--markdown]

Seeded deals of the full game, each discard mode and payoff.  Per deal (the
frontiers cached by an untimed first solve, so both timings are of the
double oracle and what follows): the solve with ``canonical=False``, then the
default solve; CPU seconds (``time.process_time``).  "added" is the default
solve's CPU time minus the other's; "ratio" the default's over the other's.
Also the canonical support (arrangements per player) against the found one.
"""

import sys
import time

import harness as h

from solver import __version__
from solver.app.arguments import non_negative_int, positive_int
from solver.equilibria.equilibrium import solve
from solver.game.deal import deal
from solver.game.rules import Rules

MODES = ("mirror", "independent")
PAYOFFS = ("margin", "win")


def measure(seed: int, rules: Rules, payoff: str) -> dict[str, float]:
    """CPU seconds of the solve without and with the canonical selection, and the supports."""
    first, second = deal(seed, rules).holdings
    solve(first, second, rules, payoff, canonical=False)  # frontiers into the cache
    plain = h.timed(lambda: solve(first, second, rules, payoff, canonical=False))
    canonical = h.timed(lambda: solve(first, second, rules, payoff))
    found, chosen = plain.result, canonical.result
    return {
        "plain": plain.cpu[0],
        "canonical": canonical.cpu[0],
        "added": canonical.cpu[0] - plain.cpu[0],
        "ratio": canonical.cpu[0] / plain.cpu[0],
        "support": (len(found.row.arrangements) + len(found.column.arrangements)) / 2,
        "canonical_support": (len(chosen.row.arrangements) + len(chosen.column.arrangements)) / 2,
        "chosen": float(chosen.canonical),
    }


def table(rows: list[dict], title: str) -> h.Table:
    out = h.Table(
        title,
        "mode; payoff; deals; canonical; solve median; added median; added p95; added max; "
        "ratio median; support found; support canonical",
        "llrrrrrrrrr",
    )
    for (mode, payoff), group in h.groups(rows, mode=MODES, payoff=PAYOFFS):
        added = [row["added"] for row in group]
        out.add(
            mode,
            payoff,
            len(group),
            f"{sum(row['chosen'] for row in group):.0f}",
            h.ms(h.median(row["plain"] for row in group)),
            *h.spread(added, h.ms),
            f"{h.median(row['ratio'] for row in group):.2f}",
            f"{sum(row['support'] for row in group) / len(group):.1f}",
            f"{sum(row['canonical_support'] for row in group) / len(group):.1f}",
        )
    out.notes = [
        "canonical: deals whose result is the canonical pair (else the search gave up)",
        "added: CPU of the default solve minus the solve with canonical=False (frontiers cached)",
        "support: arrangements per player, mean over the deals",
    ]
    return out


def main() -> int:
    cli = h.parser(__doc__).options(positive_int, deals=10).options(non_negative_int, seed=0)
    args = cli.parse_args()
    started = time.perf_counter()
    rows = []
    for mode in MODES:
        rules = Rules(discard_mode=mode)
        for payoff in PAYOFFS:
            for seed in range(args.seed, args.seed + args.deals):
                rows.append({"mode": mode, "payoff": payoff} | measure(seed, rules, payoff))
                h.log(f"{mode} {payoff} seed {seed}: {rows[-1]}")
    parameters = f"deals={args.deals} seed={args.seed}"
    facts = h.machine([("quintet-solver", __version__), "ortools"], parameters)
    title = f"The canonical selection's added time, {args.deals} deals per mode and payoff"
    h.show([facts, table(rows, title)], args.markdown, h.elapsed(started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
