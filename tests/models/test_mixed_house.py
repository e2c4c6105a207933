"""The mixed house rule: a house rule per die face, its layouts, its exact figures, training, CLI."""

from __future__ import annotations

import csv
import json
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest

from solver.analysis.mixed_house import (
    evaluate_deal,
    evaluate_to_csv,
    interval,
    mixture_figures,
    summarize_csv,
)
from solver.analysis.mixed_house_train import (
    VARIANT_POOL,
    mixed_test_seeds,
    mixed_training_seeds,
    pool_profiles,
    train,
)
from solver.book.source import DEFAULT_SOURCE
from solver.equilibria.payoff import Payoff
from solver.errors import QuintetError
from solver.game.arrangement import Arrangement, points_against
from solver.game.deal import deal
from solver.game.rules import Rules
from solver.models.house import HOUSE_RULE, HouseRule, house_arrangement
from solver.models.mixed_house import (
    MIXED_HOUSE_RULE,
    DiceVariant,
    MixedHouseRule,
    mixed_house_arrangement,
    mixed_house_mixture,
)
from solver.models.mixture import Mixture
from solver.models.opponents import Objective, Opponent
from solver.response.best_response import best_response
from tests.support.cli import one_line_error, quintet
from tests.support.documents import valid

TWO = Rules(position_points=(6, 7))
TWO_RULE = MixedHouseRule(
    (DiceVariant((1, 2), HouseRule((0, 1))), DiceVariant((3,), HouseRule((1, 0)))), sides=3
)


def test_the_die_gives_each_face_one_variant_and_probabilities_sum_to_one():
    rule = MIXED_HOUSE_RULE
    faces = sorted(f for v in rule.variants for f in v.faces)
    assert faces == list(range(1, rule.sides + 1))
    assert sum(rule.probabilities) == Fraction(1)
    assert all(
        p == Fraction(len(v.faces), rule.sides)
        for v, p in zip(rule.variants, rule.probabilities, strict=True)
    )
    assert [rule.rule_for(f) for f in range(1, rule.sides + 1)].count(rule.variants[0].rule) == len(
        rule.variants[0].faces
    )


def test_every_variant_lays_out_a_legal_arrangement_of_the_holding_over_many_deals():
    for index in range(40):
        holding = deal(mixed_test_seeds(1, start=index)[0]).holdings[0]
        mixture = mixed_house_mixture(holding)
        assert abs(sum(mixture.probabilities) - 1.0) < 1e-12
        for face in range(1, MIXED_HOUSE_RULE.sides + 1):
            arrangement = mixed_house_arrangement(holding, face=face)
            assert Arrangement.parse(arrangement.format(ascii=True), n_packets=5) == arrangement
            assert arrangement.cards == tuple(sorted(holding))
            assert [len(p) for p in arrangement.packets] == [5] * 5
            strengths = tuple(arrangement.strengths().tolist())
            assert strengths in {tuple(a.strengths().tolist()) for a in mixture.arrangements}


def test_the_mixture_merges_variants_that_lay_out_the_same_strengths():
    same = MixedHouseRule(
        (
            DiceVariant((1,), HouseRule((0, 1, 2, 3, 4))),
            DiceVariant((2,), HouseRule((0, 1, 2, 3, 4))),
        ),
        sides=2,
    )
    mixture = mixed_house_mixture(deal(1).holdings[0], mixed=same)
    assert mixture.probabilities == (1.0,)


@pytest.mark.parametrize(
    ("make", "fragment"),
    [
        (lambda: MixedHouseRule((DiceVariant((1, 2), HOUSE_RULE),)), "not each face 1-6 once"),
        (lambda: MixedHouseRule((DiceVariant((1, 1), HOUSE_RULE),), 2), "increasing"),
        (lambda: MIXED_HOUSE_RULE.rule_for(7), "7 is not a face"),
        (lambda: MIXED_HOUSE_RULE.rule_for(True), "True is not a face"),
        (lambda: mixed_house_mixture(deal(1, TWO).holdings[0], TWO), "lays out 5 packets"),
        (
            lambda: MixedHouseRule(
                (DiceVariant((1,), HouseRule((0, 1))), DiceVariant((2,), HOUSE_RULE)), 2
            ),
            "different numbers of packets",
        ),
    ],
)
def test_bad_mixed_rules_and_faces_are_refused_by_name(make, fragment):
    with pytest.raises(QuintetError, match=fragment):
        make()


def _all_two_packet_arrangements(holding: tuple[int, ...]) -> list[Arrangement]:
    """Every arrangement of a 10-card holding into two ordered packets (the slow reference)."""
    return [
        Arrangement((first, tuple(c for c in holding if c not in first)))
        for first in combinations(holding, 5)
    ]


def _reference(seed: int) -> tuple[float, float]:
    """Exploitability and equilibrium loss of TWO_RULE on deal ``seed``, by enumeration."""
    mine, theirs = deal(seed, TWO).holdings
    mixture = mixed_house_mixture(mine, TWO, TWO_RULE)
    eq = DEFAULT_SOURCE(mine, theirs, TWO, Payoff.MARGIN)

    def margin(a: Arrangement, b: Arrangement) -> float:
        won, lost = points_against(a.strengths(TWO), b.strengths(TWO), TWO)
        return float(won - lost)

    best = max(
        sum(
            p * margin(b, a)
            for a, p in zip(mixture.arrangements, mixture.probabilities, strict=True)
        )
        for b in _all_two_packet_arrangements(theirs)
    )
    value = sum(
        p * q * margin(a, b)
        for a, p in zip(mixture.arrangements, mixture.probabilities, strict=True)
        for b, q in zip(eq.column.arrangements, eq.column.probabilities, strict=True)
    )
    loss = eq.value - value
    return best, 0.0 if loss <= eq.gap + 1e-9 else loss


@pytest.mark.parametrize("seed", [1, 2, 5, 8, 13])
def test_the_exact_figures_match_a_slow_enumeration_on_two_packet_deals(seed):
    figures = evaluate_deal(seed, TWO_RULE, TWO, house=HouseRule((1, 0)))
    best, loss = _reference(seed)
    assert figures.mixed_exploitability == pytest.approx(best, abs=1e-9)
    assert figures.mixed_loss == pytest.approx(loss, abs=1e-9)


@pytest.mark.slow
@pytest.mark.parametrize("index", [0, 1, 2])
def test_the_exploitability_matches_a_cpsat_best_response_on_full_deals(index):
    seed = mixed_test_seeds(1, start=index)[0]
    mine, theirs = deal(seed).holdings
    mixture = mixed_house_mixture(mine)
    opponent = Opponent.mixture(mixture.arrangements, mixture.probabilities, holding=mine)
    found = best_response(theirs, opponent, Objective.MARGIN)
    assert found.status.value == "optimal"
    figures = evaluate_deal(seed)
    assert figures.mixed_exploitability == pytest.approx(found.value, abs=1e-6)


@pytest.mark.parametrize("index", range(4))
def test_the_exploitability_is_never_below_the_equilibrium_gap(index):
    figures = evaluate_deal(mixed_test_seeds(1, start=index)[0], with_win=True, index=index)
    assert figures.game_value == 0.0  # mirror mode: symmetric
    for exploitability, loss in (
        (figures.mixed_exploitability, figures.mixed_loss),
        (figures.house_exploitability, figures.house_loss),
    ):
        # A best response does at least as well as the opponent's equilibrium strategy,
        # which takes the rule's equilibrium loss (and never less than the value, 0).
        assert exploitability >= -figures.gap
        assert exploitability >= loss - figures.gap
    assert 0.5 - 1e-9 <= figures.mixed_exploitability_win <= 1.0


def test_a_single_variant_mixture_scores_as_its_arrangement():
    mine, theirs = deal(3).holdings
    eq = DEFAULT_SOURCE(mine, theirs, Rules(), Payoff.MARGIN)
    arrangement = house_arrangement(mine)
    exploitability, _ = mixture_figures(
        Mixture((arrangement,), (1.0,)), theirs, Rules(), eq.value, eq.gap, eq.column
    )
    found = best_response(theirs, Opponent.known(arrangement, holding=mine), Objective.MARGIN)
    assert exploitability == pytest.approx(found.value, abs=1e-9)


def test_pool_profiles_are_what_each_rule_lays_out():
    holding = deal(11).holdings[0]
    profiles = pool_profiles(holding, Rules(), VARIANT_POOL)
    for index in (0, 119, 120, 333, 599, len(VARIANT_POOL) - 1):
        expected = house_arrangement(holding, rule=VARIANT_POOL[index]).strengths()
        assert profiles[index].tolist() == expected.tolist()


def test_training_finds_a_mixture_no_worse_than_any_single_variant():
    pool = (HouseRule((0, 1)), HouseRule((1, 0)))
    seeds = tuple(range(6))
    result = train(seeds, pool, TWO, sides=4)
    assert sum(result.rule.probabilities) == 1
    assert all((p * 4).denominator == 1 for p in result.rule.probabilities)
    assert result.rounded_exploitability >= result.lp_exploitability - 1e-9
    assert result.lp_exploitability == pytest.approx(result.lp_bound, abs=1e-7)  # proven optimal
    singles = []
    for rule in pool:
        single = MixedHouseRule((DiceVariant((1,), rule),), 1)
        singles.append(
            np.mean([evaluate_deal(s, single, TWO, house=rule).mixed_exploitability for s in seeds])
        )
    assert result.lp_exploitability <= min(singles) + 1e-9
    again = np.mean([evaluate_deal(s, result.rule, TWO).mixed_exploitability for s in seeds])
    assert again == pytest.approx(result.rounded_exploitability, abs=1e-9)


def test_training_and_test_deals_differ():
    assert not set(mixed_training_seeds(300)) & set(mixed_test_seeds(300))


def test_the_csv_is_written_deal_by_deal_and_resumed(tmp_path):
    out = tmp_path / "mixed.csv"
    assert evaluate_to_csv(out, 2, TWO_RULE, TWO, with_win=False) == 2
    text = out.read_text(encoding="utf-8")
    out.write_text(text + text.splitlines()[-1][:10], encoding="utf-8")  # a row cut short by a kill
    assert evaluate_to_csv(out, 3, TWO_RULE, TWO, with_win=False) == 3
    with out.open(newline="", encoding="utf-8") as handle:
        rows = [r for r in csv.DictReader(handle) if r["house_loss"]]
    assert sorted(int(r["index"]) for r in rows) == [0, 1, 2]
    summary = summarize_csv(out)
    assert summary.deals == 3 and "mixed_exploitability" in summary.figures
    assert "win" not in summary.table()
    (tmp_path / "other.csv").write_text("a,b\n1,2\n", encoding="utf-8")
    with pytest.raises(QuintetError, match="not a mixed house rule table"):
        evaluate_to_csv(tmp_path / "other.csv", 1)


def test_the_interval_is_seeded_and_holds_the_mean():
    values = np.arange(100, dtype=float)
    first, second = interval(values), interval(values)
    assert first == second
    assert first.low < first.mean == 49.5 < first.high and first.median == 49.5


def test_house_mixed_prints_and_applies_the_rule():
    english = quintet("house", "--seed", "3", "--mixed", "--roll", "2", "--no-book")
    assert english.returncode == 0, english.stderr
    assert "roll a 6-sided die:" in english.stdout and "the die shows 2: play" in english.stdout
    russian = quintet("house", "--seed", "3", "--mixed", "--no-book", "--lang", "ru")
    assert "бросьте кубик (6 граней):" in russian.stdout and "эксплуатируемость" in russian.stdout


def test_house_mixed_json_is_valid_and_agrees_with_the_library():
    process = quintet("house", "--seed", "3", "--mixed", "--roll", "6", "--no-book", "--json")
    assert process.returncode == 0, process.stderr
    document = json.loads(process.stdout)
    valid(document, "quintet-house-mixed/1")
    mine = deal(3).holdings[0]
    rolled = mixed_house_arrangement(mine, face=6)
    assert document["roll"]["arrangement"] == [
        p.split() for p in rolled.format(ascii=True).split(" | ")
    ]
    figures = evaluate_deal(3)
    assert document["exploitability"] == figures.mixed_exploitability
    assert document["house_exploitability"] == figures.house_exploitability


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("--mixed", "--roll", "7"), "--roll: 7 is not a face"),
        (("--mixed", "--roll", "x"), "'x' is not an integer"),
        (("--roll", "2"), "--roll needs --mixed"),
        (("--mixed", "--roll", "0"), "--roll"),
    ],
)
def test_house_mixed_bad_input_is_one_line_and_exit_2(args, fragment):
    one_line_error(quintet("house", "--seed", "3", "--no-book", *args), fragment)


def test_house_mixed_json_in_independent_mode_is_valid():
    process = quintet(
        "house", "--seed", "3", "--mixed", "--mode", "independent", "--no-book", "--json"
    )
    assert process.returncode == 0, process.stderr
    document = json.loads(process.stdout)
    valid(document, "quintet-house-mixed/1")
    assert document["holding"] != document["opponent_holding"] and document["roll"] is None
