"""Opponent models by name: the one registry every face and run uses.

``OPPONENTS`` are the models a best response answers (``suggest``'s
``against``, the web's choices); ``equilibrium`` is not a model but "play
the equilibrium", and a path ending in ``.json`` (or naming a file) is a
mixture file, for the command line only.  The computer players
(tournaments, games, the web's table, benchmarks) are in
:mod:`solver.play.players`, which describes its ``random`` and ``greedy``
players as these models are described.  This module imports no solver of
equilibria, so a best response against a model starts without them.

>>> sorted(OPPONENTS)
['equilibrium', 'greedy', 'house', 'known', 'random']
>>> opponent_model("random", tuple(range(25)), None, Rules())[1]
'random'
>>> opponent_model("clever", tuple(range(25)), None, Rules())
Traceback (most recent call last):
    ...
solver.errors.SolverError: against 'clever': expected random, greedy, house, known, equilibrium or a mixture FILE.json
"""

from __future__ import annotations

from pathlib import Path

from solver.errors import MixtureError, QuintetError, SolverError
from solver.game.arrangement import Arrangement
from solver.game.rules import Rules
from solver.models.house import house_arrangement
from solver.models.mixture import read_mixture
from solver.models.opponents import Opponent
from solver.util.checks import check_instance
from solver.util.language import Phrase

__all__ = ["OPPONENTS", "is_mixture_file", "opponent_model"]

OPPONENTS: dict[str, Phrase] = {
    # The players of the same names are described the same way (solver.play.players).
    "random": Phrase("arranges uniformly at random", "раскладывает случайно"),
    "greedy": Phrase(
        "strongest packet first, weakest at position 1",
        "сначала сильнейший пакет, слабейший на позиции 1",
    ),
    "house": Phrase("the house rule", "домашнее правило"),
    "known": Phrase("the arrangement given", "заданная раскладка"),
    "equilibrium": Phrase(
        "play an arrangement sampled from your equilibrium strategy",
        "сыграть раскладку из своей равновесной стратегии",
    ),
}
"""Opponent models by name, with what each does."""


def is_mixture_file(against: str) -> bool:
    """Whether ``against`` names a mixture file rather than a model."""
    return against not in OPPONENTS and (against.endswith(".json") or Path(against).exists())


def opponent_model(
    against: str, theirs: tuple[int, ...], known: str | None, rules: Rules
) -> tuple[Opponent, str]:
    """The opponent model named ``against`` for the holding ``theirs``, and its description.

    ``known`` is the arrangement text of ``against="known"``.
    """
    check_instance(against, str, "against")
    if known is not None:
        check_instance(known, str, "known")
    if not against.strip():  # not the current directory taken for a mixture file
        raise SolverError(
            "against is empty: expected a model or a mixture FILE.json", argument="against"
        )
    if against == "random":
        return Opponent.random(theirs, rules), "random"
    if against == "greedy":
        opponent = Opponent.greedy(theirs, rules)
        assert opponent.arrangements is not None  # a known opponent has its arrangement
        return opponent, f"greedy ({opponent.arrangements[0].format()})"
    if against == "house":
        arrangement = house_arrangement(theirs, rules)
        return Opponent.known(arrangement, rules, holding=theirs), f"house ({arrangement.format()})"
    if against == "known":
        if known is None:
            raise SolverError(
                'known is needed for against="known": "P1 | P2 | P3 | P4 | P5"', argument="known"
            )
        arrangement = Arrangement.parse(known, n_packets=rules.n_packets)
        return Opponent.known(arrangement, rules, holding=theirs), "known"
    if is_mixture_file(against):
        mixture = read_mixture(against)
        try:
            opponent = mixture.opponent(rules, holding=theirs)
        except QuintetError as error:
            raise MixtureError(f"{against}: {error}") from None
        return opponent, f"{against} ({len(mixture.arrangements)} arrangements)"
    raise SolverError(
        f"against {against!r}: expected random, greedy, house, known, equilibrium or a "
        "mixture FILE.json",
        argument="against",
    )
