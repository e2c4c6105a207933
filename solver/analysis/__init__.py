"""Analysis of played arrangements: grades against the equilibrium, best responses and heuristics."""
