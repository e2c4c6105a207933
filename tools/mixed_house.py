"""Train and evaluate the mixed house rule (docs/findings.md, "A mixed house rule").

    python tools/mixed_house.py train --deals 400          # the LP on training deals -> docs/data/mixed_house_training.json
    python tools/mixed_house.py evaluate --deals 2000      # per-deal exact figures -> docs/data/mixed_house_test.csv (resumable)
    python tools/mixed_house.py summary                    # means with 95% intervals, medians

Each writes as it goes: ``evaluate`` appends a row per deal and, run again,
resumes where it stopped (``nice -n 5`` it on a shared machine).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

from solver.analysis.mixed_house import evaluate_to_csv, summarize_csv
from solver.analysis.mixed_house_train import mixed_training_seeds, train
from solver.models.mixed_house import MIXED_HOUSE_RULE

ROOT = Path(__file__).resolve().parent.parent
TRAINING = ROOT / "docs" / "data" / "mixed_house_training.json"
TEST = ROOT / "docs" / "data" / "mixed_house_test.csv"


def _train(args: argparse.Namespace) -> None:
    started = time.process_time()
    result = train(mixed_training_seeds(args.deals))
    heaviest = np.argsort(-result.lp_weights, kind="stable")[:20]
    record = {
        "training_deals": args.deals,
        "series": "mixed_training_seeds (deal_seed(4000, i))",
        "pool_size": len(result.pool),
        "lp_rounds": result.rounds,
        "lp_mean_exploitability": round(result.lp_exploitability, 4),
        "lp_bound": round(result.lp_bound, 4),
        "lp_support": int(np.count_nonzero(result.lp_weights > 1e-9)),
        "lp_heaviest": [
            {"weight": round(float(result.lp_weights[i]), 4), "rule": result.pool[i].describe()}
            for i in heaviest
        ],
        "rule": result.rule.describe(),
        "rule_repr": repr(result.rule),
        "rounded_mean_exploitability": round(result.rounded_exploitability, 4),
        "cpu_seconds": round(time.process_time() - started, 1),
    }
    Path(args.out).write_text(
        json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    print(json.dumps(record, indent=1, ensure_ascii=False))


def _evaluate(args: argparse.Namespace) -> None:
    done = evaluate_to_csv(args.out, args.deals, MIXED_HOUSE_RULE, with_win=not args.no_win)
    print(f"{done} deals in {args.out}")


def _summary(args: argparse.Namespace) -> None:
    print(summarize_csv(args.out).table())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("train")
    p.add_argument("--deals", type=int, default=400)
    p.add_argument("--out", default=str(TRAINING))
    p.set_defaults(run=_train)
    p = sub.add_parser("evaluate")
    p.add_argument("--deals", type=int, default=2000)
    p.add_argument("--out", default=str(TEST))
    p.add_argument("--no-win", action="store_true")
    p.set_defaults(run=_evaluate)
    p = sub.add_parser("summary")
    p.add_argument("--out", default=str(TEST))
    p.set_defaults(run=_summary)
    args = parser.parse_args(argv)
    os.environ.setdefault("QUINTET_PROGRESS", "0")
    args.run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
