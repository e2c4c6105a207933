"""What certifying a book row again adds to a lookup (``solver.book.recheck``).

Run from the repository root, on a book of mirror deals (the default rules)::

    quintet book build --book /tmp/m.sqlite --deals 12 --seed 0 --payoff both
    python benchmarks/bench_book_recheck.py /tmp/m.sqlite

For each payoff and stored deal, one lookup of a random suit relabelling of it
(``look_up``) is timed three ways: without the recheck (the lookup as it was), with it
in a fresh process's state (the deal's frontiers not computed yet: what one command
pays), and with them computed (a long-running process that asked before).  Prints the
median and the maximum of each.
"""

import argparse
import statistics
import time

import numpy as np

from solver.book import lookup
from solver.book.canonical import holding_of, relabel
from solver.book.store import Book
from solver.game.rules import Rules
from solver.response.frontier import cached_frontier

RULES = Rules()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("book", help="a book of mirror deals of the default rules")
    args = parser.parse_args()
    real = lookup.recertified
    ways = (
        ("without the recheck", lambda entry, holdings=None: entry, True),
        ("recheck, frontiers not computed", real, True),
        ("recheck, frontiers computed", real, False),
    )
    rng = np.random.default_rng(0)
    with Book(args.book, create=False, read_only=True) as book:
        for payoff in ("margin", "win"):
            keys = [tuple(k) for k in book.keys(RULES, payoff).tolist()]
            for name, recheck, cold in ways:
                lookup.recertified = recheck
                times = []
                for key in keys:
                    holding = relabel(holding_of(key[0]), int(rng.integers(24)))
                    if cold:
                        cached_frontier.cache_clear()
                    else:
                        lookup.look_up(holding, holding, payoff, RULES, book)
                    started = time.perf_counter()
                    found = lookup.look_up(holding, holding, payoff, RULES, book)
                    times.append(time.perf_counter() - started)
                    assert found is not None, key
                lookup.recertified = real
                if times:
                    print(
                        f"{payoff:6s} {name:32s} {len(times)} deals: median "
                        f"{1000 * statistics.median(times):.1f} ms, max {1000 * max(times):.1f} ms"
                    )


if __name__ == "__main__":
    main()
