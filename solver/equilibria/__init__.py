"""Equilibria: zero-sum matrix games (GLOP and a warm-started simplex), double oracle
over any payoff oracle, and the equilibria of a deal (its frontier game).
"""
