"""What a player can do and what it plays against: packet options, opponent models
and objectives, simple heuristics (random, greedy), and mixed strategies.
"""
