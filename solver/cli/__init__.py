"""The ``quintet`` command: argument parsing, reports for people and JSON, the English and
Russian phrases.  A thin shell over the library; nothing in the library imports it.

The command runs numpy's BLAS on one thread (``OPENBLAS_NUM_THREADS=1``, unless
the environment already says how many): numpy's OpenBLAS starts a pool of
threads as it loads, one per core, and they spin for work for about a tenth of
a second, 0.07 s of CPU on two cores, more than ``quintet eval`` spends on its
work.  The command's products are too small for threads to pay (measured: an
equilibrium's CPU equals its wall time with the pool, and is no slower
without it); the book and the tournaments' workers limit themselves to one
thread anyway.  Importing :mod:`solver` does not load numpy, so this runs first.
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
