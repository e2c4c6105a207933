"""A mixed house rule: a few house rules, one chosen by a die roll.

The deterministic house rule (:mod:`solver.models.house`) loses little
against equilibrium play, but an opponent who knows it and the cards takes
about 10 points a game from it: they know the layout.  A **mixed** house rule
keeps the layouts simple and hides which one is played: roll a die, and the
face names the variant to lay out.  Each variant is a :class:`HouseRule`
(how the packets are built and the order they are laid out in), so the mixed
rule is data: a die and the faces of each variant.

The default :data:`MIXED_HOUSE_RULE` was chosen by a linear program over
training deals minimizing the mean exploitability (the margin an opponent who
knows the rule and the cards takes from it), its weights rounded to sixths
(:mod:`solver.analysis.mixed_house`; docs/findings.md, "A mixed house rule").

>>> from solver.game.deal import deal
>>> holding = deal(seed=3).holdings[0]
>>> mixture = mixed_house_mixture(holding)
>>> abs(sum(mixture.probabilities) - 1.0) < 1e-12
True
>>> mixed_house_arrangement(holding, face=7)
Traceback (most recent call last):
    ...
solver.errors.QuintetError: face: 7 is not a face of a 6-sided die
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from solver.errors import QuintetError
from solver.game.arrangement import Arrangement
from solver.game.rules import Rules, rules_or_default
from solver.models.house import HouseRule, house_arrangement
from solver.models.mixture import Mixture
from solver.util.checks import check_instance, check_int
from solver.util.language import Lang, Phrase

__all__ = [
    "MIXED_HOUSE_RULE",
    "DiceVariant",
    "MixedHouseRule",
    "mixed_house_arrangement",
    "mixed_house_mixture",
]

_ROLL_TEXT = Phrase("roll a {sides}-sided die:", "бросьте кубик ({sides} граней):")
_FACES_TEXT = Phrase("{faces} ({share}): {rule}", "{faces} ({share}): {rule}")


def _faces_text(faces: tuple[int, ...]) -> str:
    """Faces as runs: ``(1, 2, 3, 5)`` -> ``'1-3, 5'``."""
    runs: list[list[int]] = []
    for face in faces:
        if runs and face == runs[-1][-1] + 1:
            runs[-1].append(face)
        else:
            runs.append([face])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


@dataclass(frozen=True)
class DiceVariant:
    """A house rule and the die faces that choose it.

    Attributes
    ----------
    faces
        The faces (from 1) that choose this variant, increasing.
    rule
        The house rule laid out on those faces.

    >>> DiceVariant((1, 2), HouseRule((0, 1, 2, 3, 4))).faces
    (1, 2)
    >>> DiceVariant((), HouseRule((0, 1, 2, 3, 4)))
    Traceback (most recent call last):
        ...
    solver.errors.QuintetError: variants: a variant needs at least one face, increasing, got ()
    """

    faces: tuple[int, ...]
    rule: HouseRule

    def __post_init__(self) -> None:
        if not isinstance(self.faces, tuple):
            raise TypeError(f"faces must be a tuple of die faces, got {self.faces!r}")
        for face in self.faces:
            check_int(face, "faces", low=1)
        if not self.faces or list(self.faces) != sorted(set(self.faces)):
            raise QuintetError(
                f"variants: a variant needs at least one face, increasing, got {self.faces}",
                argument="variants",
            )
        check_instance(self.rule, HouseRule, "rule")


@dataclass(frozen=True)
class MixedHouseRule:
    """House rules chosen by a die: each face names one variant.

    Attributes
    ----------
    variants
        The variants; their faces together are ``1..sides``, each once.
    sides
        The die's number of faces.

    >>> a, b = HouseRule((0, 1, 2, 3, 4)), HouseRule((1, 2, 0, 3, 4))
    >>> rule = MixedHouseRule((DiceVariant((1, 2), a), DiceVariant((3, 4, 5, 6), b)))
    >>> [str(p) for p in rule.probabilities]
    ['1/3', '2/3']
    >>> print(rule.describe())
    roll a 6-sided die:
      1-2 (1/3): greedy packets at positions 1-5: 1 2 3 4 5
      3-6 (2/3): greedy packets at positions 1-5: 2 3 1 4 5
    >>> MixedHouseRule((DiceVariant((1, 2), a),))
    Traceback (most recent call last):
        ...
    solver.errors.QuintetError: variants: faces (1, 2) are not each face 1-6 once
    """

    variants: tuple[DiceVariant, ...]
    sides: int = 6

    def __post_init__(self) -> None:
        if not isinstance(self.variants, tuple) or not self.variants:
            raise TypeError(
                f"variants must be a non-empty tuple of DiceVariant, got {self.variants!r}"
            )
        check_int(self.sides, "sides", low=1, high=100)
        for variant in self.variants:
            check_instance(variant, DiceVariant, "variants")
        faces = tuple(sorted(f for v in self.variants for f in v.faces))
        if faces != tuple(range(1, self.sides + 1)):
            raise QuintetError(
                f"variants: faces {faces} are not each face 1-{self.sides} once",
                argument="variants",
            )
        lengths = {len(v.rule.order) for v in self.variants}
        if len(lengths) != 1:
            raise QuintetError(
                "variants: rules for different numbers of packets", argument="variants"
            )

    @property
    def n_packets(self) -> int:
        """The number of packets the variants lay out."""
        return len(self.variants[0].rule.order)

    @property
    def probabilities(self) -> tuple[Fraction, ...]:
        """Each variant's probability, exactly (its share of the faces)."""
        return tuple(Fraction(len(v.faces), self.sides) for v in self.variants)

    def rule_for(self, face: int) -> HouseRule:
        """The variant's rule the die face ``face`` chooses.

        >>> MIXED_HOUSE_RULE.rule_for(1) in [v.rule for v in MIXED_HOUSE_RULE.variants]
        True
        >>> MIXED_HOUSE_RULE.rule_for(0)
        Traceback (most recent call last):
            ...
        solver.errors.QuintetError: face: 0 is not a face of a 6-sided die
        """
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= self.sides:
            raise QuintetError(
                f"face: {face!r} is not a face of a {self.sides}-sided die", argument="face"
            )
        return next(v.rule for v in self.variants if face in v.faces)

    def describe(self, lang: Lang | str = Lang.EN) -> str:
        """The dice table in words, one variant a line, in ``lang``.

        >>> print(MIXED_HOUSE_RULE.describe("ru").splitlines()[0])
        бросьте кубик (6 граней):
        """
        lines = [_ROLL_TEXT.text(lang).format(sides=self.sides)]
        for variant, share in zip(self.variants, self.probabilities, strict=True):
            lines.append(
                "  "
                + _FACES_TEXT.text(lang).format(
                    faces=_faces_text(variant.faces), share=share, rule=variant.rule.describe(lang)
                )
            )
        return "\n".join(lines)


# Chosen by solver.analysis.mixed_house_train.train on 400 training deals (tools/mixed_house.py
# train): six orders of the greedy packets, one per face (docs/findings.md, "A mixed house rule").
MIXED_HOUSE_RULE = MixedHouseRule(
    tuple(
        DiceVariant((face,), HouseRule(order))
        for face, order in enumerate(
            (
                (0, 1, 2, 4, 3),
                (0, 3, 2, 1, 4),
                (1, 2, 3, 4, 0),
                (1, 3, 0, 2, 4),
                (2, 0, 4, 3, 1),
                (2, 1, 3, 0, 4),
            ),
            start=1,
        )
    )
)


def _checked_rule(mixed: MixedHouseRule | None, rules: Rules) -> MixedHouseRule:
    mixed = MIXED_HOUSE_RULE if mixed is None else check_instance(mixed, MixedHouseRule, "mixed")
    if mixed.n_packets != rules.n_packets:
        raise QuintetError(
            f"mixed: lays out {mixed.n_packets} packets, the rules have {rules.n_packets}",
            argument="mixed",
        )
    return mixed


def mixed_house_arrangement(
    holding: Iterable[int],
    rules: Rules | None = None,
    mixed: MixedHouseRule | None = None,
    *,
    face: int,
) -> Arrangement:
    """The arrangement the mixed rule lays out when the die shows ``face``.

    Parameters
    ----------
    holding
        The player's cards.
    rules
        The rules.
    mixed
        The mixed rule (default :data:`MIXED_HOUSE_RULE`, five packets).
    face
        The die's face, from 1.

    Returns
    -------
    Arrangement

    >>> from solver.game.deal import deal
    >>> holding = deal(seed=3).holdings[0]
    >>> rule = MIXED_HOUSE_RULE.rule_for(2)
    >>> mixed_house_arrangement(holding, face=2) == house_arrangement(holding, rule=rule)
    True
    >>> mixed_house_arrangement(holding, Rules(position_points=(6, 7)), face=1)
    Traceback (most recent call last):
        ...
    solver.errors.QuintetError: mixed: lays out 5 packets, the rules have 2
    """
    rules = rules_or_default(rules)
    mixed = _checked_rule(mixed, rules)
    return house_arrangement(holding, rules, mixed.rule_for(face))


def mixed_house_mixture(
    holding: Iterable[int], rules: Rules | None = None, mixed: MixedHouseRule | None = None
) -> Mixture:
    """The mixed strategy the rule plays: each distinct layout with its probability.

    Variants laying out the same arrangement (their strengths position by
    position equal) are merged, their probabilities added; the arrangements
    come in the order of their first variant.

    Parameters
    ----------
    holding
        The player's cards.
    rules
        The rules.
    mixed
        The mixed rule (default :data:`MIXED_HOUSE_RULE`).

    Returns
    -------
    Mixture

    >>> from solver.game.deal import deal
    >>> m = mixed_house_mixture(deal(seed=5).holdings[0])
    >>> 1 <= len(m.arrangements) <= len(MIXED_HOUSE_RULE.variants)
    True
    >>> mixed_house_mixture(range(24))
    Traceback (most recent call last):
        ...
    solver.errors.CardError: holding: expected 25 cards, got 24
    """
    rules = rules_or_default(rules)
    mixed = _checked_rule(mixed, rules)
    merged: dict[tuple[int, ...], tuple[Arrangement, Fraction]] = {}
    for variant, share in zip(mixed.variants, mixed.probabilities, strict=True):
        arrangement = house_arrangement(holding, rules, variant.rule)
        # Equal strengths everywhere score alike: one strategy for the opponent to face.
        key = tuple(int(s) for s in arrangement.strengths(rules))
        known = merged.get(key)
        merged[key] = (arrangement, share) if known is None else (known[0], known[1] + share)
    arrangements = tuple(a for a, _ in merged.values())
    return Mixture(arrangements, tuple(float(p) for _, p in merged.values()))
