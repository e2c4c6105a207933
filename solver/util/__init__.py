"""Utilities under the game: files, phrases in two languages, time limits, JSON text, Dask.

The bottom layer above :mod:`solver.errors`: the standard library and numpy
only; nothing here knows about cards, rules or solvers.
"""
