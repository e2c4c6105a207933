"""Certificates: ``quintet verify`` time per certificate, and what a certificate adds to a solve.

Run from the repository root::

    python benchmarks/bench_certificate.py [--deals 20] [--seed 1] [--positions 2] [--markdown]

Seeded deals of reduced games (``--positions`` 2 or 3: position points (6, 7) or
(5, 6, 7); full deals are bench_verify.py's), of each discard mode and payoff.  Per deal, in one process (as
``quintet equilibrium --certificate`` runs): the solve (frontiers included: the
frontier cache is cleared first), then the certificate
(:func:`solver.equilibria.certificate.certificate`, on the solve's cached
frontiers), the Gambit export (:func:`solver.equilibria.nfg.nfg_text`), and
``verify_document`` on the certificate read back from its JSON text.  One deal
outside the range is solved and verified first, untimed (imports, caches).
"""

import json
import sys
import time

import harness as h

from solver import __version__
from solver.app.arguments import bounded_int, non_negative_int, positive_int
from solver.equilibria.certificate import certificate
from solver.equilibria.equilibrium import solve
from solver.equilibria.nfg import nfg_text
from solver.game.deal import deal
from solver.game.rules import Rules
from solver.response.frontier import cached_frontier
from solver.verify import verify_document

MODES = ("mirror", "independent")
PAYOFFS = ("margin", "win")
POINTS = {2: (6, 7), 3: (5, 6, 7)}


def measure(seed: int, rules: Rules, payoff: str) -> dict[str, float]:
    """Seconds of each step for one deal, and the certificate's support sizes."""
    first, second = deal(seed, rules).holdings
    cached_frontier.cache_clear()  # the solve computes its frontiers, as a fresh command does
    started = time.perf_counter()
    result = solve(first, second, rules, payoff)
    solved = time.perf_counter()
    document = certificate(result, first, second)
    certified = time.perf_counter()
    nfg_text(result)
    exported = time.perf_counter()
    report = verify_document(json.loads(json.dumps(document)))
    verified = time.perf_counter()
    assert not report.unverified, f"seed {seed}: {report.unverified}"
    sizes = [len(document["strategies"][p]) for p in ("player1", "player2")]
    return {
        "solve": solved - started,
        "certificate": certified - solved,
        "nfg": exported - certified,
        "verify": verified - exported,
        "support": sum(sizes) / 2,
    }


def table(rows: list[dict], title: str) -> h.Table:
    out = h.Table(
        title,
        "mode; payoff; deals; mean support; solve median; certificate median; "
        "certificate added (median); nfg median; verify median; verify p95; verify max",
        "llrrrrrrrrr",
    )
    for (mode, payoff), group in h.groups(rows, mode=MODES, payoff=PAYOFFS):
        added = [row["certificate"] / row["solve"] for row in group]
        verify = [row["verify"] for row in group]
        out.add(
            mode,
            payoff,
            len(group),
            f"{sum(row['support'] for row in group) / len(group):.1f}",
            h.ms(h.median(row["solve"] for row in group)),
            h.ms(h.median(row["certificate"] for row in group)),
            f"{100 * h.median(added):.0f}%",
            h.ms(h.median(row["nfg"] for row in group)),
            *h.spread(verify, h.ms),
        )
    out.notes = [
        "certificate added: the certificate's time over the solve's, the median of the ratios",
        "verify: quintet verify's check of the certificate (the exact best-response search "
        "for both payoffs), JSON parsing included",
        "mean support: arrangements per player in the certificate",
    ]
    return out


def main() -> int:
    cli = h.parser(__doc__).options(positive_int, deals=20).options(non_negative_int, seed=1)
    cli.options(bounded_int(2, 3), positions=2)
    args = cli.parse_args()
    started = time.perf_counter()
    rows = []
    for mode in MODES:
        rules = Rules(position_points=POINTS[args.positions], discard_mode=mode)
        for payoff in PAYOFFS:
            measure(args.seed + args.deals, rules, payoff)  # untimed warm-up
            for seed in range(args.seed, args.seed + args.deals):
                rows.append({"mode": mode, "payoff": payoff} | measure(seed, rules, payoff))
                h.log(f"{mode} {payoff} seed {seed}: {rows[-1]}")
    parameters = f"deals={args.deals} seed={args.seed} positions={args.positions}"
    facts = h.machine([("quintet-solver", __version__), "scipy / ortools"], parameters)
    title = f"Certificates of {args.deals} deals per mode and payoff, {args.positions} positions"
    h.show([facts, table(rows, title)], args.markdown, h.elapsed(started))
    return 0


if __name__ == "__main__":
    sys.exit(main())
