"""Best responses: the CP-SAT model and its search, the strategy frontier (rank
frontiers, Pareto filtering), best responses over the frontier, and their result types.
"""
