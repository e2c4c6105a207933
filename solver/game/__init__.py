"""The game itself: cards, rules, the hand evaluator, the deal, arrangements and scoring.

numpy only; nothing here knows about opponents, solvers or the command line.
"""
