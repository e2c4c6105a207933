"""Quintet for learning agents: an OpenSpiel game, PettingZoo and Gymnasium environments,
and the exact exploitability of any policy.

A deal is a one-shot simultaneous zero-sum game whose actions are each
player's frontier strategies (:mod:`solver.agents.deals`).  The interfaces
need the ``agents`` extra (``pip install "quintet-solver[agents]"``) and are
imported from their modules, each only when asked for:

* :mod:`solver.agents.openspiel_game`: the ``python_quintet`` game, registered
  with OpenSpiel on import;
* :mod:`solver.agents.pettingzoo_env`: a PettingZoo parallel environment;
* :mod:`solver.agents.gym_env`: a Gymnasium environment against a named opponent.

:func:`solver.agents.exploitability.exploitability` (``solver.exploitability``)
needs none of them for mixtures, arrangements and action probabilities.
"""
