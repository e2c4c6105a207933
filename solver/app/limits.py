"""Upper bounds of the counts a request may ask for: beyond them a run would exhaust
memory or never end.  Both faces use them: the command line refuses with one
line (exit status 2), the web API answers 422.

README.md ("Limits and exit statuses") lists the same numbers.

>>> MAX_TOP, MAX_SHOW
(100, 1000)
"""

from __future__ import annotations

__all__ = [
    "MAX_DEALS",
    "MAX_JOBS",
    "MAX_SAMPLES",
    "MAX_SEED",
    "MAX_SHOW",
    "MAX_TOP",
    "MAX_WORKERS",
    "SAMPLED_TOP_TIME_LIMIT",
    "TOP_TIME_LIMIT",
]

MAX_TOP = 100  # suggest --top: each runner-up is one or more CP-SAT solves
MAX_SAMPLES = 10_000  # suggest --samples: the win model grows with every sample
MAX_WORKERS = 64  # suggest --workers: CP-SAT search threads
MAX_SHOW = 1_000  # equilibrium --show: arrangements listed
MAX_DEALS = 1_000_000  # tournament --deals
MAX_JOBS = 256  # tournament --jobs: worker processes
MAX_SEED = 2**63 - 1  # --seed of every command

# suggest --top K with the win or game objective against a random opponent: each
# runner-up is a CP-SAT solve over every sampled arrangement (minutes), so without a
# time limit the search gets this one (seconds), with a warning.
SAMPLED_TOP_TIME_LIMIT = 120.0

# suggest --top K (K > 1) without --time-limit: the CP-SAT searches for runners-up stop after
# this many seconds, and a result they did not finish is shown as not proven, with its gap.
TOP_TIME_LIMIT = 60.0
