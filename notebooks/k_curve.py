"""The k-curve of docs/findings.md ("Simple strategies: k arrangements"): compute, then draw.

    python notebooks/k_curve.py run --deals 200     # resumable: appends to docs/data/k_curve.csv
    python notebooks/k_curve.py run --deals 200 --reverse   # optional: a second process, seeds down
    python notebooks/k_curve.py plot                # docs/figures/k_curve.png and the table

The logic is in solver.analysis.k_curve (rows, resuming, summary); this script
only runs it and plots.  Stop ``run`` anywhere: the next run goes on from the
deals already written.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from solver.analysis.k_curve import KS, read_rows, run, summarize

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "docs" / "data" / "k_curve.csv"
FIGURE = ROOT / "docs" / "figures" / "k_curve.png"


def _table(path: Path) -> str:
    lines = [
        "| mode | payoff | k | deals | median | p90 | max | concedes nothing |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for s in summarize(read_rows(path)):
        unit = "" if s["payoff"] == "margin" else "%"
        scale = 1.0 if s["payoff"] == "margin" else 100.0
        figures = [f"{scale * s[key]:.3g}{unit}" for key in ("median", "p90", "max")]
        lines.append(
            f"| {s['mode']} | {s['payoff']} | {s['k']} | {s['deals']} | "
            + " | ".join(figures)
            + f" | {100 * s['zero_share']:.0f}% |"
        )
    return "\n".join(lines)


def _plot(path: Path, figure: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    summary = summarize(read_rows(path))
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    for ax, payoff, unit, scale in (
        (axes[0], "margin", "points", 1.0),
        (axes[1], "win", "% of a game", 100.0),
    ):
        for mode, style, colour in (("mirror", "o-", "C0"), ("independent", "s--", "C2")):
            rows = [s for s in summary if s["payoff"] == payoff and s["mode"] == mode]
            if not rows:
                continue
            ks = [s["k"] for s in rows]
            deals = rows[0]["deals"]
            ax.plot(ks, [scale * s["median"] for s in rows], style, color=colour,
                    label=f"{mode}: median ({deals} deals)")  # fmt: skip
            ax.plot(ks, [scale * s["p90"] for s in rows], style, color=colour, alpha=0.35,
                    label=f"{mode}: 90th percentile")  # fmt: skip
        ax.set_xticks(list(KS))
        ax.set_xlabel("k: arrangements mixed")
        ax.set_ylabel(f"certified exploitability ({unit})")
        ax.set_title(f"{payoff} payoff")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("Player 1's best k-arrangement strategy found: what it concedes")
    fig.tight_layout()
    figure.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(figure, dpi=100)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=["run", "plot"])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument(
        "--reverse", action="store_true", help="from the last seed down (a second process)"
    )
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--figure", type=Path, default=FIGURE)
    args = parser.parse_args(argv)
    if args.action == "run":

        def progress(rows: list[dict]) -> None:
            r = rows[-1]
            print(f"{r['mode']} {r['payoff']} seed {r['seed']}: "
                  f"{[round(x['exploitability'], 4) for x in rows]}", flush=True)  # fmt: skip

        added = run(args.data, deals=args.deals, on_deal=progress, reverse=args.reverse)
        print(f"{added} deals added to {args.data}")
    else:
        _plot(args.data, args.figure)
        print(_table(args.data))
        print(f"figure: {args.figure}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
