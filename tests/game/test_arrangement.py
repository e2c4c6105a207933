"""Arrangements: parsing, validation, scoring, and scoring's symmetries."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.errors import ArrangementError, QuintetError
from solver.game.arrangement import (
    Arrangement,
    GameResult,
    Outcome,
    Score,
    points_against,
    score,
)
from solver.game.cards import parse_cards
from solver.game.evaluator import strength
from solver.game.rules import Rules

TEXT_A = "7c 7d 7h 7s 8c | 8d 8h 8s 9c 9d | 9h 9s Tc Td Th | Ts Jc Jd Jh Js | Qc Qd Qh Qs Kc"
TEXT_B = "Ac Ad Ah As Kd | Kh Ks Qc Qd Qh | Qs Jc Jd Jh Js | Tc Td Th Ts 9c | 9d 9h 9s 8c 8d"

RULE_SETS = [
    Rules(),
    Rules(ace_low_straight=True),
    Rules(flush_beats_full_house=True),
    Rules(ace_low_straight=True, flush_beats_full_house=True),
]


def _arrangement_from_order(order, n_packets=5) -> Arrangement:
    cards = list(order)[: 5 * n_packets]
    return Arrangement(tuple(tuple(cards[5 * i : 5 * i + 5]) for i in range(n_packets)))


# A random arrangement: a random permutation of the deck, its first 25 cards in 5 packets.
arrangements = st.permutations(list(range(32))).map(_arrangement_from_order)
rule_sets = st.sampled_from(RULE_SETS)


def _permute_suits(arrangement: Arrangement, suit_map) -> Arrangement:
    return Arrangement(
        tuple(
            tuple(4 * (c // 4) + suit_map[c % 4] for c in packet) for packet in arrangement.packets
        )
    )


# ======================================================================= parsing


def test_parse_five_packets():
    a = Arrangement.parse(TEXT_A)
    assert a.n_packets == 5
    assert a.packets[0] == parse_cards("7c 7d 7h 7s 8c")
    assert a.packets[4] == parse_cards("Qc Qd Qh Qs Kc")
    assert a.cards == tuple(sorted(parse_cards(TEXT_A.replace("|", " "))))
    assert a.array().shape == (5, 5)
    assert a.array().tolist() == [list(p) for p in a.packets]
    assert Arrangement.parse(TEXT_A, n_packets=5) == a


def test_parse_russian_and_symbols():
    ru = Arrangement.parse("Тп Кп Дп Вп 10п | 7т 7б 7ч 7п 8к")
    en = Arrangement.parse("A♠ K♠ Q♠ J♠ 10♠ | 7♣ 7♦ 7♥ 7♠ 8♣")
    assert ru == en == Arrangement.parse("As Ks Qs Js Ts|7c 7d 7h 7s 8c")


@pytest.mark.parametrize("ascii_, lang", [(True, "en"), (False, "en"), (False, "ru")])
def test_format_round_trip(ascii_, lang):
    a = Arrangement.parse(TEXT_A)
    text = a.format(ascii=ascii_, lang=lang)
    assert text.count("|") == 4
    assert Arrangement.parse(text) == a
    if ascii_:
        assert text == TEXT_A


def test_from_array():
    a = Arrangement.parse(TEXT_A)
    assert Arrangement.from_array(a.array()) == a
    assert Arrangement.from_array(np.arange(10).reshape(2, 5)).packets == (
        (0, 1, 2, 3, 4),
        (5, 6, 7, 8, 9),
    )


@pytest.mark.parametrize(
    ("text", "n_packets", "fragment"),
    [
        ("7c 8c 9c Tc | Jc Qc Kc Ac 7d", None, "packet 1 ('7c 8c 9c Tc') has 4 cards"),
        ("7c 8c 9c Tc Jc | Qc Kc Ac 7d 8d 9d", None, "packet 2"),
        ("7c 8c 9c Tc Jc | ", None, "packet 2 ('') has 0 cards"),
        ("7c 8c 9c Tc Jc", 5, "expected 5 packets separated by '|', got 1"),
        (TEXT_A + " | 7c", 5, "got 6"),
        ("7c 8c 9c Tc Jc | Qc Kc Ac 5d 8d", None, "packet 2: card '5d'"),
        ("7c 8c 9c Tc Jc | Qc Kc Ac Xd 8d", None, "unknown rank 'X'"),
        ("7c 8c 9c Tc Jc | Qc Kc Ac 7q 8d", None, "unknown suit 'q'"),
        ("7c 8c 9c Tc Jc | Qc Kc Ac Qc 8d", None, "packet 2: card 'Qc': duplicate"),
        ("7c 8c 9c Tc Jc | Qc Kc Ac 7c 8d", None, "7♣ appears twice"),
        ("", None, "has 0 cards"),
    ],
)
def test_parse_errors(text, n_packets, fragment):
    with pytest.raises(ArrangementError) as info:
        Arrangement.parse(text, n_packets=n_packets)
    assert fragment in str(info.value)
    assert isinstance(info.value, QuintetError) and isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("packets", "fragment"),
    [
        ((), "at least one packet"),
        (((0, 1, 2, 3),), "packet 1 has 4 cards"),
        (((0, 1, 2, 3, 4), (5, 6, 7, 8, 9, 10)), "packet 2 has 6 cards"),
        (((0, 1, 2, 3, 32),), "out of range"),
        (((0, 1, 2, 3, -1),), "out of range"),
        (((0, 1, 2, 3, 4), (4, 5, 6, 7, 8)), "8♣ appears twice"),
        (((0, 1, 2, 3, 3),), "7♠ appears twice"),
    ],
)
def test_constructor_errors(packets, fragment):
    with pytest.raises(ArrangementError, match=fragment):
        Arrangement(packets)


@pytest.mark.parametrize("shape", [(5,), (5, 4), (2, 5, 5)])
def test_from_array_shape_errors(shape):
    with pytest.raises(ArrangementError, match="shape"):
        Arrangement.from_array(np.zeros(shape, dtype=int))


# ======================================================================= check


def test_check_against_holding():
    a = Arrangement.parse(TEXT_A)
    a.check(holding=a.cards)  # exact holding: fine
    a.check(holding=reversed(a.cards))  # any order
    a.check()  # packet count only
    holding = set(a.cards) - {0} | {31}  # 7♣ is not held, A♠ is not used
    with pytest.raises(ArrangementError) as info:
        a.check(holding=holding)
    message = str(info.value)
    assert "uses 7♣, not in the holding" in message
    assert "leaves out A♠" in message
    with pytest.raises(ArrangementError, match="leaves out A♠"):
        a.check(holding=set(a.cards) | {31})
    with pytest.raises(ArrangementError, match="uses 7♣"):
        a.check(holding=set(a.cards) - {0})


def test_check_packet_count():
    a = Arrangement.parse("7c 8c 9c Tc Jc | Qc Kc Ac 7d 8d")
    a.check(rules=Rules(position_points=(6, 7)))
    with pytest.raises(ArrangementError, match="2 packets; the rules need 5"):
        a.check()
    with pytest.raises(ArrangementError, match="the rules need 5"):
        score(a, a)


def test_check_against_a_deal():
    from solver.game.deal import deal

    d = deal(seed=11)
    held = d.holdings[0]
    a = _arrangement_from_order(held)
    a.check(holding=held)
    with pytest.raises(ArrangementError, match="not in the holding"):
        _arrangement_from_order(d.exposed[0] + held[:18]).check(holding=held)


# ======================================================================= scoring


def test_score_example():
    a, b = Arrangement.parse(TEXT_A), Arrangement.parse(TEXT_B)
    result = score(a, b)
    assert isinstance(result, Score)
    # 1: four 7s < four aces; 2: 8s full < kings full; 3: 10s full < four jacks;
    # 4: four jacks > four tens; 5: four queens > 9s full.
    assert result.outcomes == (Outcome.LOSS, Outcome.LOSS, Outcome.LOSS, Outcome.WIN, Outcome.WIN)
    assert result.points == (13, 12)
    assert result.margin == 1
    assert result.result is GameResult.WIN


def test_score_ties_and_draw():
    a = Arrangement.parse(TEXT_A)
    same = score(a, a)
    assert same.outcomes == (Outcome.TIE,) * 5
    assert same.points == (0, 0) and same.margin == 0 and same.result is GameResult.DRAW


def test_score_uses_rules_ranking():
    flush = "As Qs Ts 9s 8s"
    full = "Kh Kd Kc 7h 7d"
    a = Arrangement.parse(flush)
    b = Arrangement.parse(full)
    one = Rules(position_points=(7,))
    assert score(a, b, one).result is GameResult.LOSS
    manila = Rules(position_points=(7,), flush_beats_full_house=True)
    assert score(a, b, manila).result is GameResult.WIN
    low = Arrangement.parse("Ac 7d 8h 9s Th")  # a straight only with ace_low_straight
    trips = Arrangement.parse("As Ad Ah Ks Qs")
    assert score(low, trips, one).result is GameResult.LOSS
    assert score(low, trips, Rules(position_points=(7,), ace_low_straight=True)).points == (7, 0)


def test_score_reduced_game_points():
    rules = Rules(position_points=(6, 7))
    a = Arrangement.parse("As Ks Qs Js Ts | 7c 8d 9h Jc Qd")
    b = Arrangement.parse("7c 8d 9h Jc Qd | As Ks Qs Js Ts")
    result = score(a, b, rules)
    assert result.points == (6, 7) and result.result is GameResult.LOSS


@settings(max_examples=150)
@given(arrangements, arrangements, rule_sets)
def test_score_is_antisymmetric(a, b, rules):
    ab, ba = score(a, b, rules), score(b, a, rules)
    assert ab.outcomes == tuple(Outcome(-o) for o in ba.outcomes)
    assert ab.points == ba.points[::-1]
    assert ab.margin == -ba.margin
    mirror = {GameResult.WIN: GameResult.LOSS, GameResult.LOSS: GameResult.WIN}
    assert ba.result is mirror.get(ab.result, GameResult.DRAW)


@settings(max_examples=150)
@given(arrangements, arrangements, rule_sets)
def test_points_add_up(a, b, rules):
    result = score(a, b, rules)
    mine, theirs = result.points
    tied = sum(
        p for p, o in zip(rules.position_points, result.outcomes, strict=True) if o is Outcome.TIE
    )
    assert 0 <= mine <= 25 and 0 <= theirs <= 25
    assert mine + theirs + tied == 25
    # Points follow the outcomes, position by position.
    assert mine == sum(
        p for p, o in zip(rules.position_points, result.outcomes, strict=True) if o == 1
    )
    assert theirs == sum(
        p for p, o in zip(rules.position_points, result.outcomes, strict=True) if o == -1
    )
    assert result.margin == mine - theirs
    expected = "win" if mine > theirs else "loss" if mine < theirs else "draw"
    assert result.result.value == expected
    # The outcome at each position follows the packets' strengths.
    sa, sb = a.strengths(rules), b.strengths(rules)
    assert [int(o) for o in result.outcomes] == [
        int(np.sign(x - y)) for x, y in zip(sa, sb, strict=True)
    ]


@settings(max_examples=150)
@given(arrangements, arrangements, st.permutations([0, 1, 2, 3]), rule_sets)
def test_suit_permutation_invariance(a, b, suit_map, rules):
    pa, pb = _permute_suits(a, suit_map), _permute_suits(b, suit_map)
    assert np.array_equal(pa.strengths(rules), a.strengths(rules))
    assert np.array_equal(pb.strengths(rules), b.strengths(rules))
    assert score(pa, pb, rules) == score(a, b, rules)
    # Permuting the suits of one side only changes nothing either: suits never matter.
    assert score(pa, b, rules) == score(a, b, rules)


@settings(max_examples=100)
@given(arrangements, st.permutations(range(5)))
def test_packet_order_moves_with_outcomes(a, order):
    # Reordering both players' packets the same way reorders the outcomes.
    b = _arrangement_from_order(list(range(31, 6, -1)))
    ra = Arrangement(tuple(a.packets[i] for i in order))
    rb = Arrangement(tuple(b.packets[i] for i in order))
    base = score(a, b)
    assert score(ra, rb).outcomes == tuple(base.outcomes[i] for i in order)


def test_strengths_match_evaluator():
    a = Arrangement.parse(TEXT_A)
    for rules in RULE_SETS:
        assert a.strengths(rules).tolist() == [int(strength(p, rules)) for p in a.packets]


# ======================================================================= points_against


def _random_arrangements(n: int, seed: int) -> list[Arrangement]:
    rng = np.random.default_rng(seed)
    return [_arrangement_from_order(rng.permutation(32).tolist()) for _ in range(n)]


@pytest.mark.parametrize("rules", RULE_SETS)
def test_points_against_equals_loop_of_score(rules):
    arrs = _random_arrangements(60, seed=2 * rules.ace_low_straight + rules.flush_beats_full_house)
    profiles = np.stack([a.strengths(rules) for a in arrs])  # (M, 5)
    # One against many.
    mine, theirs = points_against(profiles[0], profiles, rules)
    assert mine.shape == theirs.shape == (len(arrs),)
    for j, b in enumerate(arrs):
        assert (int(mine[j]), int(theirs[j])) == score(arrs[0], b, rules).points
    # Many against many, by broadcasting.
    mine, theirs = points_against(profiles[:, None, :], profiles[None, :, :], rules)
    assert mine.shape == (len(arrs), len(arrs))
    for i, a in enumerate(arrs):
        for j, b in enumerate(arrs):
            assert (int(mine[i, j]), int(theirs[i, j])) == score(a, b, rules).points
    assert np.array_equal(mine, theirs.T)
    assert np.all(np.diag(mine) == 0)


def test_points_against_reduced_rules_and_errors():
    rules = Rules(position_points=(6, 7))
    mine, theirs = points_against(np.array([5, 1]), np.array([[1, 5], [5, 1], [0, 0]]), rules)
    assert mine.tolist() == [6, 0, 13] and theirs.tolist() == [7, 0, 0]
    with pytest.raises(ArrangementError, match="3 positions; the rules have 5"):
        points_against(np.zeros(3), np.zeros(3))
    with pytest.raises(ArrangementError, match="the rules have 2"):
        points_against(np.zeros(2), np.zeros((4, 5)), rules)
    with pytest.raises(ArrangementError):
        points_against(np.float64(1.0), np.zeros(5))
