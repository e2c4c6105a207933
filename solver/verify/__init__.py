"""``quintet verify``: checking a certificate without trusting the solver.

This package shares no code with the solver: it imports only the standard
library and numpy (an import-linter contract in ``pyproject.toml``
keeps it so).  It ranks hands by its own short sort-based rule written from
``docs/rules.md`` (:mod:`solver.verify.ranking`), computes in exact rational
arithmetic (:mod:`fractions`) and checks the best-response bounds with code of
its own (:mod:`solver.verify.bounds`: every maximal strength profile of the
holding in every order, :mod:`solver.verify.search`, scored in integers, for
both payoffs and any number of positions).  The idea of maximal profiles is
the solver's too (its strategy frontier); the code, the hand ranking and the
arithmetic are written again, and the tests compare the two.  The checks and their order are in
:mod:`solver.verify.checks`.
"""

from solver.verify.checks import Report, verify_document

__all__ = ["Report", "verify_document"]
