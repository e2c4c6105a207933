"""The vectorized evaluator against the independent reference, over every hand.

For each ranking rule set, every one of the C(32, 5) = 201,376 hands is
classified once by ``reference_poker`` (plain Python, one hand at a time) and
the dense rank of its reference key is compared with ``solver``'s strength.
Equal dense-rank arrays mean: for every pair of hands a, b,
strength(a) < strength(b) iff refkey(a) < refkey(b), and equal iff equal.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter

import numpy as np
import pytest

from solver.errors import CardError, QuintetError
from solver.game.evaluator import (
    N_HANDS,
    all_hands,
    category,
    colex_index,
    hand_table,
    strength,
)
from solver.game.rules import Category, Rules
from tests.support import reference_poker as ref

ALL_COMBOS = list(itertools.combinations(range(32), 5))  # lexicographic order
ALL_COMBOS_ARRAY = np.array(ALL_COMBOS, dtype=np.int64)

RULE_SETS = {
    "default": Rules(),
    "ace_low": Rules(ace_low_straight=True),
    "flush_over_full": Rules(flush_beats_full_house=True),
    "both": Rules(ace_low_straight=True, flush_beats_full_house=True),
}

REF_TO_CATEGORY = {
    ref.HIGH_CARD: Category.HIGH_CARD,
    ref.PAIR: Category.PAIR,
    ref.TWO_PAIRS: Category.TWO_PAIR,
    ref.THREE_OF_A_KIND: Category.THREE_OF_A_KIND,
    ref.STRAIGHT: Category.STRAIGHT,
    ref.FLUSH: Category.FLUSH,
    ref.FULL_HOUSE: Category.FULL_HOUSE,
    ref.FOUR_OF_A_KIND: Category.FOUR_OF_A_KIND,
    ref.STRAIGHT_FLUSH: Category.STRAIGHT_FLUSH,
}

# Category counts over all 201,376 hands of the 32-card deck, default rules.
DEFAULT_COUNTS = {
    Category.STRAIGHT_FLUSH: 16,  # 4 sequences (A, K, Q, J high) x 4 suits
    Category.FOUR_OF_A_KIND: 224,  # 8 ranks x 28 other cards
    Category.FULL_HOUSE: 1_344,  # 8 x C(4,3) x 7 x C(4,2)
    Category.FLUSH: 208,  # 4 suits x (C(8,5) - 4 sequences)
    Category.STRAIGHT: 4_080,  # 4 sequences x (4^5 - 4 suited)
    Category.THREE_OF_A_KIND: 10_752,  # 8 x 4 x C(7,2) x 4 x 4
    Category.TWO_PAIR: 24_192,  # C(8,2) x 6 x 6 x 24
    Category.PAIR: 107_520,  # 8 x 6 x C(7,3) x 4^3
    Category.HIGH_CARD: 53_040,  # (C(8,5) - 4) x (4^5 - 4)
}
# ace_low_straight adds one sequence, A-7-8-9-10:
#   straight flushes 16 + 4 suits = 20;
#   flushes lose the 4 suited A-10-9-8-7: 208 - 4 = 204;
#   straights gain 4^5 - 4 = 1,020: 4,080 + 1,020 = 5,100;
#   high cards lose those same 1,020 unsuited A-10-9-8-7: 53,040 - 1,020 = 52,020.
ACE_LOW_COUNTS = {
    **DEFAULT_COUNTS,
    Category.STRAIGHT_FLUSH: 20,
    Category.FLUSH: 204,
    Category.STRAIGHT: 5_100,
    Category.HIGH_CARD: 52_020,
}
# flush_beats_full_house only reorders categories: every count is unchanged.
EXPECTED_COUNTS = {
    "default": DEFAULT_COUNTS,
    "ace_low": ACE_LOW_COUNTS,
    "flush_over_full": DEFAULT_COUNTS,
    "both": ACE_LOW_COUNTS,
}
# Distinct strengths: 840 by default.  With ace_low_straight the rank set
# A-10-9-8-7 stops being a high-card pattern and a flush pattern (-2) and
# becomes one more straight and one more straight flush (+2): still 840.
# flush_beats_full_house permutes categories: still 840.
EXPECTED_N_STRENGTHS = {"default": 840, "ace_low": 840, "flush_over_full": 840, "both": 840}


def _dense_ranks(keys: list[tuple]) -> tuple[np.ndarray, int]:
    distinct = sorted(set(keys))
    position = {k: i for i, k in enumerate(distinct)}
    return np.array([position[k] for k in keys], dtype=np.int64), len(distinct)


@pytest.fixture(scope="module", params=list(RULE_SETS))
def reference(request):
    """Reference categories, keys and dense ranks of every hand (lexicographic order)."""
    rules = RULE_SETS[request.param]
    categories = []
    keys = []
    for hand in ALL_COMBOS:
        name, k = ref.classify(hand, rules.ace_low_straight, rules.flush_beats_full_house)
        categories.append(name)
        keys.append(k)
    dense, n_distinct = _dense_ranks(keys)
    return {
        "name": request.param,
        "rules": rules,
        "categories": categories,
        "category_values": np.array([REF_TO_CATEGORY[c] for c in categories], dtype=np.int64),
        "dense": dense,
        "n_distinct": n_distinct,
    }


# --------------------------------------------------------------- full comparison


def test_strength_equals_reference_dense_rank(reference):
    rules = reference["rules"]
    solver_strength = strength(ALL_COMBOS_ARRAY, rules).astype(np.int64)
    mismatches = np.flatnonzero(solver_strength != reference["dense"])
    if mismatches.size:
        i = int(mismatches[0])
        pytest.fail(
            f"{mismatches.size} hands differ; first {ALL_COMBOS[i]}: solver {solver_strength[i]}, "
            f"reference dense rank {reference['dense'][i]}"
        )


def test_strengths_are_dense_ranks(reference):
    rules = reference["rules"]
    table = hand_table(rules)
    values = np.unique(table.strength)
    # Dense: exactly 0..n-1, every value used.
    assert values.tolist() == list(range(table.n_strengths))
    assert table.n_strengths == reference["n_distinct"]
    assert table.n_strengths == EXPECTED_N_STRENGTHS[reference["name"]]


def test_category_equals_reference(reference):
    rules = reference["rules"]
    solver_category = category(ALL_COMBOS_ARRAY, rules).astype(np.int64)
    mismatches = np.flatnonzero(solver_category != reference["category_values"])
    if mismatches.size:
        i = int(mismatches[0])
        pytest.fail(
            f"{mismatches.size} hands differ; first {ALL_COMBOS[i]}: solver "
            f"{Category(int(solver_category[i])).english}, reference {reference['categories'][i]}"
        )


def test_category_counts(reference):
    expected = EXPECTED_COUNTS[reference["name"]]
    assert sum(expected.values()) == N_HANDS == math.comb(32, 5)
    # The reference agrees with the literals...
    ref_counts = Counter(REF_TO_CATEGORY[c] for c in reference["categories"])
    assert dict(ref_counts) == expected
    # ...and so does the solver's table.
    table = hand_table(reference["rules"])
    counts = np.bincount(table.category, minlength=len(Category))
    assert {Category(i): int(n) for i, n in enumerate(counts) if n} == expected


def test_table_is_indexed_by_colex(reference):
    rules = reference["rules"]
    table = hand_table(rules)
    index = colex_index(ALL_COMBOS_ARRAY)
    assert np.array_equal(table.strength[index].astype(np.int64), reference["dense"])
    assert np.array_equal(table.category[index].astype(np.int64), reference["category_values"])


def test_table_side_arrays_are_consistent(reference):
    table = hand_table(reference["rules"])
    # The category of each strength, and one example hand of each strength.
    assert np.array_equal(table.strength_category[table.strength], table.category)
    assert np.array_equal(table.strength[table.strength_example], np.arange(table.n_strengths))
    assert table.ranking_key == reference["rules"].ranking_key


def test_category_order_between_categories(reference):
    """Every hand of a stronger category beats every hand of a weaker one."""
    rules = reference["rules"]
    table = hand_table(rules)
    order = rules.category_order()
    lows = [int(table.strength[table.category == c].min()) for c in order]
    highs = [int(table.strength[table.category == c].max()) for c in order]
    for weaker, stronger in itertools.pairwise(range(len(order))):
        assert highs[weaker] < lows[stronger], (order[weaker], order[stronger])


def test_flush_beats_full_house_option():
    default, manila = hand_table(Rules()), hand_table(Rules(flush_beats_full_house=True))
    flush_d = default.strength[default.category == Category.FLUSH]
    full_d = default.strength[default.category == Category.FULL_HOUSE]
    flush_m = manila.strength[manila.category == Category.FLUSH]
    full_m = manila.strength[manila.category == Category.FULL_HOUSE]
    # Default: every full house beats every flush.  Option: every flush beats every full house.
    assert flush_d.max() < full_d.min()
    assert flush_m.min() > full_m.max()
    # Same categories hand by hand.
    assert np.array_equal(default.category, manila.category)


def test_flush_rarer_than_full_house_and_four_of_a_kind_yet_ranked_below():
    # docs/rules.md, "Combinations, strongest first": on 32 cards a flush is rarer than
    # a full house and even than four of a kind, "yet the texts rank it below both".
    table = hand_table()
    counts = np.bincount(table.category, minlength=9)
    assert counts[Category.FLUSH] < counts[Category.FOUR_OF_A_KIND] < counts[Category.FULL_HOUSE]
    flush = table.strength[table.category == Category.FLUSH]
    assert flush.max() < table.strength[table.category == Category.FULL_HOUSE].min()


def test_extreme_strengths_default():
    table = hand_table()
    # Weakest: 7-8-9-10-Q unsuited high card; strongest: A-K-Q-J-10 straight flush.
    weakest = all_hands()[table.strength_example[0]]
    assert sorted(c // 4 for c in weakest) == [0, 1, 2, 3, 5]
    assert int(strength([31, 27, 23, 19, 15])) == 839
    assert int(strength([0, 4, 8, 12, 21])) == 0


def _other_library_values(library: str, hands: list[tuple[int, ...]]) -> np.ndarray:
    """Another evaluator's values of the hands, higher is better (the benchmark's libraries)."""
    names = [rank + suit for rank in "789TJQKA" for suit in "cdhs"]  # our card id order
    if library == "treys":
        treys = pytest.importorskip("treys")
        ids = [treys.Card.new(name) for name in names]
        evaluate = treys.Evaluator().evaluate
        return -np.array([evaluate([ids[h[0]], ids[h[1]]], [ids[c] for c in h[2:]]) for h in hands])
    if library == "eval7":
        eval7 = pytest.importorskip("eval7")
        cards = [eval7.Card(name) for name in names]
        return np.array([eval7.evaluate([cards[c] for c in hand]) for hand in hands])
    phevaluator = pytest.importorskip("phevaluator")
    ids = [phevaluator.Card.to_id(name) for name in names]
    return -np.array([phevaluator.evaluate_cards(*(ids[c] for c in hand)) for hand in hands])


@pytest.mark.parametrize("library", ["treys", "eval7", "phevaluator"])
def test_default_ranking_orders_hands_as_other_evaluators(library):
    # On 32 cards the default ranking is standard poker's, so the order must be theirs.
    theirs = _other_library_values(library, ALL_COMBOS[::5])
    ours = strength(ALL_COMBOS_ARRAY[::5]).astype(np.int64)
    order = np.lexsort((theirs, ours))
    assert np.array_equal(np.diff(ours[order]) > 0, np.diff(theirs[order]) > 0)


# --------------------------------------------------------------- colex


def _colex_by_hand(hand) -> int:
    c = sorted(hand)
    return sum(math.comb(card, i + 1) for i, card in enumerate(c))


def test_colex_index_formula_all_hands():
    expected = np.array([_colex_by_hand(h) for h in ALL_COMBOS], dtype=np.int64)
    got = colex_index(ALL_COMBOS_ARRAY).astype(np.int64)
    assert np.array_equal(got, expected)
    # A bijection onto 0..N-1.
    assert np.array_equal(np.sort(got), np.arange(N_HANDS))


@pytest.mark.parametrize(
    "hand",
    [
        (0, 1, 2, 3, 4),
        (27, 28, 29, 30, 31),
        (0, 8, 16, 24, 31),
        (5, 11, 17, 19, 30),
        (3, 15, 16, 17, 18),
    ],
)
def test_colex_index_small_examples(hand):
    assert int(colex_index(np.array(hand))) == _colex_by_hand(hand)
    assert int(colex_index(list(reversed(hand)))) == _colex_by_hand(hand)


def test_colex_index_known_values():
    # C(0,1)+C(1,2)+C(2,3)+C(3,4)+C(4,5) = 0; the last hand is N-1.
    assert int(colex_index([0, 1, 2, 3, 4])) == 0
    assert int(colex_index([0, 1, 2, 3, 5])) == 1  # C(5,5) = 1
    assert int(colex_index([27, 28, 29, 30, 31])) == N_HANDS - 1
    # 0 + C(1,2) + C(2,3) + C(3,4) + C(31,5) = C(31,5)
    assert int(colex_index([0, 1, 2, 3, 31])) == math.comb(31, 5)


def test_all_hands_in_colex_order():
    hands = all_hands()
    assert hands.shape == (N_HANDS, 5)
    # Rows sorted ascending within the hand.
    assert np.all(np.diff(hands.astype(np.int64), axis=1) > 0)
    # Colex order: compare the largest card first, then the next largest, ...
    expected = sorted(ALL_COMBOS, key=lambda h: tuple(reversed(h)))
    assert hands.tolist() == [list(h) for h in expected]
    # And row i has colex index i.
    assert np.array_equal(colex_index(hands), np.arange(N_HANDS))


def test_all_hands_read_only():
    with pytest.raises(ValueError):
        all_hands()[0, 0] = 1


# --------------------------------------------------------------- card order


@pytest.mark.parametrize("rules_name", ["default", "both"])
def test_any_card_order_same_strength(rules_name):
    rules = RULE_SETS[rules_name]
    base = strength(ALL_COMBOS_ARRAY, rules)
    base_cat = category(ALL_COMBOS_ARRAY, rules)
    rng = np.random.default_rng(12345)
    # Fixed column permutations...
    for perm in [(4, 3, 2, 1, 0), (1, 0, 3, 2, 4), (2, 4, 0, 1, 3)]:
        shuffled = ALL_COMBOS_ARRAY[:, list(perm)]
        assert np.array_equal(strength(shuffled, rules), base)
        assert np.array_equal(colex_index(shuffled), colex_index(ALL_COMBOS_ARRAY))
    # ...and an independent random order in every row.
    shuffled = rng.permuted(ALL_COMBOS_ARRAY, axis=1)
    assert not np.array_equal(shuffled, ALL_COMBOS_ARRAY)
    assert np.array_equal(strength(shuffled, rules), base)
    assert np.array_equal(category(shuffled, rules), base_cat)


@pytest.mark.parametrize(
    "dtype", [np.uint8, np.int8, np.int16, np.uint16, np.int32, np.int64, np.uint64]
)
def test_integer_dtypes(dtype):
    hands = ALL_COMBOS_ARRAY[::997]
    expected = strength(hands)
    assert np.array_equal(strength(hands.astype(dtype)), expected)


def test_list_and_tuple_input():
    hand = [31, 27, 23, 19, 15]
    assert int(strength(hand)) == int(strength(tuple(hand))) == int(strength(np.array(hand)))


# --------------------------------------------------------------- shapes


def test_shape_2_3_5():
    rng = np.random.default_rng(7)
    hands = np.stack([rng.permutation(32)[:5] for _ in range(6)]).reshape(2, 3, 5)
    s = strength(hands)
    c = category(hands)
    i = colex_index(hands)
    assert s.shape == c.shape == i.shape == (2, 3)
    for a in range(2):
        for b in range(3):
            assert s[a, b] == strength(hands[a, b])
            assert c[a, b] == category(hands[a, b])
            assert i[a, b] == _colex_by_hand(hands[a, b].tolist())


def test_single_hand_gives_scalar_shape():
    assert strength([0, 1, 2, 3, 4]).shape == ()
    assert colex_index([0, 1, 2, 3, 4]).shape == ()


def test_empty_batch():
    assert strength(np.zeros((0, 5), dtype=np.int64)).shape == (0,)
    assert category(np.zeros((3, 0, 5), dtype=np.int64)).shape == (3, 0)


# --------------------------------------------------------------- bad input


@pytest.mark.parametrize("bad", [32, 33, 255, -1, -32])
@pytest.mark.parametrize("func", [strength, category, colex_index])
def test_out_of_range_card_raises(func, bad):
    with pytest.raises(CardError, match=str(bad)):
        func([0, 1, 2, 3, bad])
    with pytest.raises(CardError):
        func(np.array([[0, 1, 2, 3, 4], [5, 6, 7, bad, 8]]))


@pytest.mark.parametrize("func", [strength, category, colex_index])
def test_repeated_card_raises(func):
    with pytest.raises(CardError, match="repeated"):
        func([0, 0, 1, 2, 3])
    with pytest.raises(CardError, match="hand 1 "):
        func([[0, 1, 2, 3, 4], [9, 10, 11, 12, 9]])


def test_repeated_card_in_large_batch_names_the_hand():
    hands = ALL_COMBOS_ARRAY.copy()
    hands[150_001] = [5, 6, 7, 5, 8]
    with pytest.raises(CardError, match=r"hand 150001 "):
        strength(hands)
    with pytest.raises(CardError, match=r"hand 150001 "):
        colex_index(hands)


@pytest.mark.parametrize(
    "shape_input",
    [[0, 1, 2, 3], [0, 1, 2, 3, 4, 5], [[0, 1, 2, 3]], np.zeros((5, 4), dtype=int), 3],
)
@pytest.mark.parametrize("func", [strength, category, colex_index])
def test_wrong_last_dimension_raises(func, shape_input):
    with pytest.raises(CardError, match="shape"):
        func(shape_input)


@pytest.mark.parametrize("func", [strength, category, colex_index])
def test_float_dtype_raises(func):
    with pytest.raises(CardError, match="dtype"):
        func(np.array([0.0, 1.0, 2.0, 3.0, 4.0]))
    with pytest.raises(CardError):
        func([0.0, 1.0, 2.0, 3.0, 4.0])


@pytest.mark.parametrize("func", [strength, category, colex_index])
def test_non_integer_inputs_raise(func):
    with pytest.raises(CardError):
        func(np.array([True, False, True, False, True]))
    with pytest.raises(CardError):
        func(["As", "Ks", "Qs", "Js", "Ts"])


def test_card_error_is_value_error():
    with pytest.raises(ValueError):
        strength([0, 0, 1, 2, 3])
    assert issubclass(CardError, QuintetError)
