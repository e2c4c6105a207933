"""Equilibria: zero-sum matrix games (GLOP and a warm-started simplex) and the double
oracle over the strategy frontiers.
"""
