"""quintet verify on full deals: the exact best-response search's time per certificate.

Run from the repository root::

    python benchmarks/bench_verify.py [--deals 20] [--seed 1] [--time-limit 600] [--markdown]

Seeded deals of the standard game (five positions), of each discard mode and
payoff.  Per deal the equilibrium and its certificate are computed (untimed),
then ``verify_document`` checks the certificate read back from its JSON text,
with ``--time-limit`` seconds for its two best-response bounds.  The table
gives the verify time's median, p95 and max (and its CPU seconds, which a
loaded machine does not inflate), and how many certificates had both bounds
proven (a bound not proven in time is reported not checked).
"""

import json
import sys
import time

import harness as h

from solver import __version__
from solver.app.arguments import non_negative_int, positive_int
from solver.equilibria.certificate import certificate
from solver.equilibria.equilibrium import solve
from solver.game.deal import deal
from solver.game.rules import Rules
from solver.verify import verify_document

MODES = ("mirror", "independent")
PAYOFFS = ("margin", "win")


def measure(seed: int, rules: Rules, payoff: str, time_limit: float) -> dict[str, float]:
    """The verify time of one deal's certificate, whether both bounds were proven, its support."""
    first, second = deal(seed, rules).holdings
    document = certificate(solve(first, second, rules, payoff), first, second)
    text = json.dumps(document)
    started, cpu = time.perf_counter(), time.process_time()
    report = verify_document(json.loads(text), time_limit=time_limit)
    verified, used = time.perf_counter() - started, time.process_time() - cpu
    sizes = [len(document["strategies"][p]) for p in ("player1", "player2")]
    proven = not report.unverified
    return {"verify": verified, "cpu": used, "proven": proven, "support": sum(sizes) / 2}


def table(rows: list[dict], title: str) -> h.Table:
    out = h.Table(
        title,
        "mode; payoff; deals; mean support; largest support; both bounds proven; "
        "verify median; verify p95; verify max; CPU median; CPU max",
        "llrrrrrrrrr",
    )
    for (mode, payoff), group in h.groups(rows, mode=MODES, payoff=PAYOFFS):
        out.add(
            mode,
            payoff,
            len(group),
            f"{sum(row['support'] for row in group) / len(group):.1f}",
            f"{max(row['support'] for row in group):.0f}",
            f"{sum(row['proven'] for row in group)}/{len(group)}",
            *h.spread([row["verify"] for row in group]),
            h.seconds(h.median(row["cpu"] for row in group)),
            h.seconds(max(row["cpu"] for row in group)),
        )
    out.notes = [
        "verify: verify_document on the certificate's JSON text, both best-response bounds "
        "included (the exact search of solver.verify.search, no floating point)",
        "support: arrangements per player in the certificate (their mean over both players)",
        "the time limit is wall-clock: on a loaded machine fewer bounds are proven within it; "
        "CPU: the verifying process's CPU seconds",
    ]
    return out


def main() -> int:
    cli = h.parser(__doc__).options(positive_int, deals=20).options(non_negative_int, seed=1)
    cli.add_argument("--time-limit", type=float, default=600.0, help="seconds per certificate")
    args = cli.parse_args()
    started = time.perf_counter()
    rows = []
    for mode in MODES:
        rules = Rules(discard_mode=mode)
        for payoff in PAYOFFS:
            for seed in range(args.seed, args.seed + args.deals):
                row = measure(seed, rules, payoff, args.time_limit)
                rows.append({"mode": mode, "payoff": payoff} | row)
                h.log(f"{mode} {payoff} seed {seed}: {rows[-1]}")
    parameters = f"deals={args.deals} seed={args.seed} time-limit={args.time_limit:g}"
    facts = h.machine([("quintet-solver", __version__), "numpy"], parameters)
    title = f"quintet verify on {args.deals} full deals per mode and payoff"
    h.show([facts, table(rows, title)], args.markdown, h.elapsed(started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
