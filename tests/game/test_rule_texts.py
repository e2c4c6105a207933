"""Every example hand and every comparison stated in the seed texts.

The texts are the original Russian rule texts named in docs/rules.md, "Sources":

* ``000``: Quintet, the long description (headed «Квинтет»).
* ``002``: Quintet, the short description.
* ``003``: general (52-card) poker ranking; only
  the claims that make sense on a 32-card deck are checked, and examples with
  cards 2-6 are transposed to the nearest 32-card analog (said so each time).

Each test quotes (in translation) the sentence it checks.  Hands are written in
the texts' own notation where the texts give cards, Russian included.
"""

from __future__ import annotations

import pytest

from solver.errors import CardError
from solver.game.arrangement import Arrangement, score
from solver.game.cards import parse_cards
from solver.game.deal import deal
from solver.game.evaluator import category, strength
from solver.game.rules import Category, Rules

C = Category


def s(text: str, rules: Rules | None = None) -> int:
    """Strength of a five-card hand written in any notation."""
    return int(strength(parse_cards(text, count=5), rules))


def cat(text: str, rules: Rules | None = None) -> Category:
    return Category(int(category(parse_cards(text, count=5), rules)))


def beats(a: str, b: str, rules: Rules | None = None) -> bool:
    return s(a, rules) > s(b, rules)


def ties(a: str, b: str, rules: Rules | None = None) -> bool:
    return s(a, rules) == s(b, rules)


# ======================================================================= cards


def test_000_no_twos_to_sixes():
    # 000: "All cards from the twos to the sixes are removed from the deck."
    for rank in "23456":
        with pytest.raises(CardError, match="not in a 32-card deck"):
            parse_cards(f"{rank}s")


def test_000_002_card_order_ace_to_seven():
    # 000: "Card order in this game: from the Ace down to the seven."
    # 002: "Card order: from the ace to the seven."
    # Four of a kind of each rank (same suits, kicker 8 or 7) in Russian notation:
    # the strengths rise strictly from the sevens to the aces.
    ladder = ["7", "8", "9", "10", "В", "Д", "К", "Т"]  # low to high
    fours = [s(f"{r}п {r}ч {r}б {r}т " + ("8п" if r == "7" else "7п")) for r in ladder]
    assert fours == sorted(fours) and len(set(fours)) == 8
    # The same with single cards: a high-card hand whose top card climbs Q -> K -> A.
    tops = [s(f"{r}п 9ч 8б 7т Вт") for r in ["Д", "К", "Т"]]
    assert tops == sorted(tops) and len(set(tops)) == 3


def test_000_002_all_suits_equal():
    # 000: "all suits in the game are equal"; 002: "All suits in the game are equal."
    assert ties("Тп Кп Дч 9б 7т", "Тч Кб Дт 9п 7ч")
    assert ties("Тп Кп Дп Вп 10п", "Тт Кт Дт Вт 10т")
    assert ties("10п 10ч 7б 7т Тп", "10б 10т 7п 7ч Тч")


# ======================================================================= straight flush


def test_000_straight_flush_examples():
    # 000: "Straight flush (Покер) ... five cards of one suit in sequence.
    # For example Ace, King, Queen, Jack, 10 of hearts; or Jack, 10, 9, 8, 7 of spades."
    assert cat("Тч Кч Дч Вч 10ч") is C.STRAIGHT_FLUSH
    assert cat("Вп 10п 9п 8п 7п") is C.STRAIGHT_FLUSH
    # 000: "Straight flush - the best combination of all".
    assert beats("Тч Кч Дч Вч 10ч", "Тп Тч Тб Тт Кп")  # above the best four of a kind
    assert s("Тч Кч Дч Вч 10ч") == 839  # the top of all 840 strengths


def test_002_straight_flush_examples():
    # 002: "Straight flush: the highest combination, five cards of one suit in a row.
    # For example from the ace to the ten or from the jack to the seven."
    assert cat("Тб Кб Дб Вб 10б") is C.STRAIGHT_FLUSH
    assert cat("Вт 10т 9т 8т 7т") is C.STRAIGHT_FLUSH


def test_000_002_ace_straight_flush_beats_jack_straight_flush():
    # 000: "The one beginning with the higher card is stronger; the Ace straight flush is
    # of course rated above the Jack straight flush."
    # 002: "The ace straight flush is higher than the jack straight flush."
    assert beats("Тч Кч Дч Вч 10ч", "Вп 10п 9п 8п 7п")
    # Intermediate ones in order too: A > K > Q > J high.
    heights = [
        s("Вч 10ч 9ч 8ч 7ч"),
        s("Дч Вч 10ч 9ч 8ч"),
        s("Кч Дч Вч 10ч 9ч"),
        s("Тч Кч Дч Вч 10ч"),
    ]
    assert heights == sorted(heights) and len(set(heights)) == 4


def test_000_002_straight_flushes_of_different_suits_same_top_are_equal():
    # 000: "If the players show two straight flushes of different suits beginning with
    # the same cards, they are equal."  002: "Two straight flushes of different suits
    # beginning with the same card are equal."
    assert ties("Тч Кч Дч Вч 10ч", "Тп Кп Дп Вп 10п")
    assert ties("Вп 10п 9п 8п 7п", "Вб 10б 9б 8б 7б")


def test_003_royal_beats_king_high_straight_flush():
    # 003: "A-K-Q-J-10 ('royal flush') ... beats the sequence K-Q-J-10-9."
    # (The 6-5-4-3-2 vs 5-4-3-2-A example needs cards absent from a 32-card deck.)
    assert beats("Тп Кп Дп Вп 10п", "Кч Дч Вч 10ч 9ч")
    assert s("Тп Кп Дп Вп 10п") == 839  # the highest standard hand


# ======================================================================= four of a kind


def test_000_four_queens_and_a_seven():
    # 000: "Four of a kind: four cards of one rank, the fifth card may be any.
    # For example, four Queens and a seven."
    assert cat("Дп Дч Дб Дт 7п") is C.FOUR_OF_A_KIND
    assert cat("Q♠ Q♥ Q♦ Q♣ 7♠") is C.FOUR_OF_A_KIND


def test_000_002_higher_four_of_a_kind_wins():
    # 000: "Of two four of a kinds, the one made of higher cards is stronger."
    # 002: "The four of a kind made of higher cards is stronger."
    assert beats("Кп Кч Кб Кт 7п", "Дп Дч Дб Дт Тп")  # the four decides, not the fifth card
    assert beats("8п 8ч 8б 8т 7п", "7ч 7б 7т 7п Тп")
    assert beats("Тп Тч Тб Тт 7п", "Кп Кч Кб Кт Дп")


def test_rules_four_of_a_kind_fifth_card():
    # docs/rules.md (standard poker): four of a kind, "the higher four wins; then the
    # fifth card".  (Two fours of the same rank need two decks: one per player.)
    assert beats("Дп Дч Дб Дт Тп", "Дп Дч Дб Дт 7п")
    assert ties("Дп Дч Дб Дт Тп", "Дп Дч Дб Дт Тч")


def test_003_four_of_a_kind_beats_full_house():
    # 003: "Four of a kind beats a 'full house' and any lower hand."
    assert beats("7п 7ч 7б 7т 8п", "Тп Тч Тб Кп Кч")
    assert beats("7п 7ч 7б 7т 8п", "Тп Кп Дп Вп 9п")  # a flush
    # and loses only to a straight flush
    assert beats("Вп 10п 9п 8п 7п", "Тп Тч Тб Тт Кп")


# ======================================================================= full house


def test_000_full_house_kings_beat_queens():
    # 000: "one player has three Queens and two Jacks, the other three Kings and two
    # sevens: the full house with Kings is the winner."
    queens = "Дп Дч Дб Вп Вч"
    kings = "Кп Кч Кб 7п 7ч"
    assert cat(queens) is C.FULL_HOUSE and cat(kings) is C.FULL_HOUSE
    assert beats(kings, queens)


def test_002_three_tens_two_sevens_beat_three_nines_two_kings():
    # 002: "Example: three tens and two sevens beat three nines and two kings."
    tens = "10п 10ч 10б 7п 7ч"
    nines = "9п 9ч 9б Кп Кч"
    assert cat(tens) is C.FULL_HOUSE and cat(nines) is C.FULL_HOUSE
    assert beats(tens, nines)


def test_rules_full_house_then_the_pair():
    # docs/rules.md (standard poker): "the higher three wins; then the pair".
    assert beats("Кп Кч Кб Тп Тч", "Кп Кч Кб 7п 7ч")
    assert ties("Кп Кч Кб Тп Тч", "Кт Кч Кб Тб Тт")


def test_003_full_house_beats_flush():
    # 003: "A full house beats a flush or any lower hand."
    assert beats("7п 7ч 7б 8п 8ч", "Тп Кп Дп Вп 9п")
    assert beats("7п 7ч 7б 8п 8ч", "Тп Кч Дб Вт 10п")  # a straight


# ======================================================================= flush


def test_000_002_flush_is_five_of_one_suit():
    # 000: "Flush (Колер), or suit: five cards of one suit."  002: "Flush: five cards of
    # one suit."
    assert cat("Тп Дп 10п 9п 8п") is C.FLUSH
    assert cat("Вч 9ч 8ч 7ч Кч") is C.FLUSH


def test_000_002_flushes_compared_card_by_card():
    # 000: "Of two flushes the stronger has the higher card in first place by rank. If
    # they begin with equal cards, compare the second cards, and so on. Flushes are
    # equal if all five cards have the same ranks."
    # 002: "... if these cards are the same, the flushes are compared by the second card
    # and so on. In the end they may turn out equal."
    assert beats("Тп 9п 8п 7п Вп", "Кч Дч Вч 9ч 8ч")  # first card
    assert beats("Тп Дп 9п 8п 7п", "Тч Вч 10ч 9ч 8ч")  # second
    assert beats("Тп Кп 10п 8п 7п", "Тч Кч 9ч 8ч 7ч")  # third
    assert beats("Тп Кп Дп 9п 8п", "Тч Кч Дч 9ч 7ч")  # fifth
    assert ties("Тп Кп Дп 9п 8п", "Тч Кч Дч 9ч 8ч")  # all equal: equal


def test_003_flush_example_transposed():
    # 003: "spades A-Q-10-9-3 beat hearts A-Q-10-3-2" (the fourth card decides).
    # 3 and 2 are not in a 32-card deck; the analog with the lowest cards 8 and 7:
    with pytest.raises(CardError):
        parse_cards("Тп Дп 10п 9п 3п")
    assert beats("Тп Дп 10п 9п 7п", "Тч Дч 10ч 8ч 7ч")


def test_003_flush_beats_straight():
    # 003: "A flush beats a straight or any lower hand."
    assert beats("Вп 9п 8п 7п Дп", "Тп Кч Дб Вт 10п")


# ======================================================================= straight


def test_000_straight_example():
    # 000: "For example King of spades, Queen of hearts, Jack of hearts, 10 of diamonds,
    # 9 of spades."
    assert cat("Кп Дч Вч 10б 9п") is C.STRAIGHT


def test_002_straight_example():
    # 002: "Example: king of hearts, queen of clubs, jack of diamonds, 10 of diamonds,
    # nine of spades."
    assert cat("Кч Дт Вб 10б 9п") is C.STRAIGHT
    assert cat("K♥ Q♣ J♦ 10♦ 9♠") is C.STRAIGHT


def test_000_002_straights_compared_by_top_card():
    # 000: "Of two straights the stronger is the one beginning with the higher card.
    # If they begin with cards of the same rank, they are equal."
    # 002: "... the one beginning with the higher card is stronger. Straights beginning
    # with the same card are equal."
    assert beats("Тп Кч Дб Вт 10п", "Кп Дч Вч 10б 9п")
    assert beats("Кп Дч Вч 10б 9п", "Вт 10ч 9п 8п 7п")
    assert ties("Кп Дч Вч 10б 9п", "Кч Дт Вб 10б 9п")


def test_003_highest_straight_and_straight_beats_trips():
    # 003: "The highest straight is A-K-Q-J-10" (its lowest, 5-4-3-2-A, does not exist on
    # 32 cards; docs/rules.md: J-10-9-8-7 is the lowest).  "A straight beats three of a kind."
    assert beats("Тп Кч Дб Вт 10п", "Кп Дч Вч 10б 9п")
    assert beats("Вт 10ч 9п 8п 7п", "Тп Тч Тб Кп Дп")
    # No wheel by default: A-7-8-9-10 is not a straight.
    assert cat("Тп 7ч 8б 9т 10п") is C.HIGH_CARD


# ======================================================================= three of a kind


def test_000_three_kings_seven_queen():
    # 000: "Three of a kind: three cards of one rank and two arbitrary cards. For example,
    # three Kings, the 7 of clubs and the Queen of diamonds."
    assert cat("Кп Кч Кб 7т Дб") is C.THREE_OF_A_KIND


def test_000_002_higher_three_wins():
    # 000: "Of two three of a kinds the stronger is the one made of higher cards."
    # 002: "Of two three of a kinds, the one made of higher cards is the higher."
    assert beats("Кп Кч Кб 7т 8б", "Дп Дч Дб Тт Кт")
    # docs/rules.md (standard poker, as 003 for one pair): then the other cards, high to low.
    assert beats("Кп Кч Кб Тт 7б", "Кп Кч Кт Дт Вб")
    assert beats("Кп Кч Кб Тт 8б", "Кп Кч Кт Тб 7б")
    assert ties("Кп Кч Кб Тт 8б", "Кп Кт Кб Тч 8п")


def test_003_three_of_a_kind_beats_two_pairs():
    # 003: "This sequence beats 'two pairs' and any lower sequence."
    assert beats("7п 7ч 7б 8п 9ч", "Тп Тч Кб Кп Дч")


# ======================================================================= two pairs


def test_000_two_pairs_example():
    # 000: "For example the 10 of diamonds and the 10 of spades, the 7 of spades and the
    # 7 of hearts and the Ace of diamonds."
    assert cat("10б 10п 7п 7ч Тб") is C.TWO_PAIR
    assert cat("10♦ 10♠ 7♠ 7♥ A♦") is C.TWO_PAIR


def test_000_002_003_two_pairs_comparison():
    # 000: "the stronger is the one whose higher pair has the higher cards. Sometimes the
    # higher pairs are equal, then the lower pairs are compared. If the lower pairs too
    # are the same, compare the remaining odd cards. If the last cards have the same rank
    # too, the combinations are equal."
    # 002: "If the higher pairs are equal, the lower ones are compared."
    # 003: "If both pairs are identical, the single decides."
    assert beats("Вп Вч 7п 7ч 8б", "10б 10п 9п 9ч Тб")  # higher pair
    assert beats("10б 10п 9п 9ч 7б", "10ч 10т 8п 8ч Тб")  # then the lower pair
    assert beats("10б 10п 7п 7ч Тб", "10ч 10т 7б 7т Кб")  # then the odd card
    assert ties("10б 10п 7п 7ч Тб", "10ч 10т 7б 7т Тп")  # then equal


def test_003_two_pairs_beat_one_pair_and_no_pair():
    # 003: "Two pairs can beat any hand with one pair or without a pair."
    assert beats("7п 7ч 8б 8т 9ч", "Тп Тч Кб Дт Вч")
    assert beats("7п 7ч 8б 8т 9ч", "Тп Кч Дб Вт 9ч")


# ======================================================================= one pair


def test_000_002_003_pair_comparison():
    # 000: "Pair: two cards of one rank and three arbitrary cards. Of two, the higher is
    # the one with the higher cards in its pair. If that does not decide, the arbitrary
    # cards are compared. The combinations are equal if all their cards are equal by rank."
    # 003: "If the pairs are the same, the highest of the three singles decides; if those
    # too are the same, the second highest singles, and then the third."
    assert cat("Вп Вч 9б 8т 7ч") is C.PAIR
    assert beats("8п 8ч 7б 9т 10ч", "7п 7ч Тб Кт Дч")  # the pair first
    assert beats("Вп Вч Тб 8т 7ч", "Вб Вт Кб Дт 10ч")  # highest single
    assert beats("Вп Вч Тб Кт 8ч", "Вб Вт Тп Дт 10ч")  # second single
    assert beats("Вп Вч Тб Кт 8ч", "Вб Вт Тп Кп 7ч")  # third single
    assert ties("Вп Вч Тб Кт 8ч", "Вб Вт Тп Кп 8п")  # all equal


def test_003_one_pair_beats_no_pair():
    # 003: "A hand with one pair beats a hand without a pair and no other sequence."
    assert beats("7п 7ч 8б 9т Вч", "Тп Кч Дб Вт 9ч")
    assert not beats("Тп Тч Кб Дт Вч", "7п 7ч 8б 8т 9ч")


# ======================================================================= high card


def test_000_high_card_example():
    # 000: "High card (Шанс) ... such as the Ace of hearts, King of spades, 10 of hearts,
    # 8 of spades and 7 of diamonds."
    assert cat("Тч Кп 10ч 8п 7б") is C.HIGH_CARD
    assert cat("A♥ K♠ 10♥ 8♠ 7♦") is C.HIGH_CARD


def test_000_002_high_cards_compared_in_order():
    # 000: "the comparison starts with the higher card and proceeds to the very end in
    # sequence. The combinations are equal if all cards are equal."
    # 002: "These combinations are compared by the order of consecutive cards. If all
    # cards are equal by rank, the combinations are equal."
    assert beats("Тч Кп 10ч 8п 7б", "Кч Дп Вч 9п 8б")
    assert beats("Тч Кп 10ч 8п 7б", "Тп Дп Вч 9п 8б")
    assert beats("Тч Кп 10ч 8п 7б", "Тп Кч 9ч 8б 7т")
    assert beats("Тч Кп 10ч 9п 7б", "Тп Кч 10б 8б 7т")
    assert ties("Тч Кп 10ч 8п 7б", "Тп Кч 10б 8б 7т")


# ======================================================================= category order


def test_002_closing_list_ascending_with_four_of_a_kind():
    # 002: "Order of combinations (ascending): high card, pair, two pairs, three of a
    # kind, straight, flush, full house, straight flush."  Four of a kind is left out of
    # the list; both texts' descriptions (and docs/rules.md) put it between the full house and
    # the straight flush.
    ascending = [
        ("Шанс", "Тч Кп 10ч 8п 7б"),
        ("Пара", "7п 7ч 8б 9т Вч"),
        ("Две двойки", "10б 10п 7п 7ч Тб"),
        ("Тройка", "Кп Кч Кб 7т Дб"),
        ("Стрит", "Кп Дч Вч 10б 9п"),
        ("Колер", "Тп Дп 10п 9п 8п"),
        ("Фул", "Дп Дч Дб Вп Вч"),
        ("Каре", "Дп Дч Дб Дт 7п"),
        ("Покер", "Тч Кч Дч Вч 10ч"),
    ]
    names = [cat(hand).russian for _, hand in ascending]
    assert names == [name for name, _ in ascending]
    strengths = [s(hand) for _, hand in ascending]
    assert strengths == sorted(strengths) and len(set(strengths)) == len(strengths)
    assert [c.russian for c in Rules().category_order()] == [name for name, _ in ascending]


def test_weakest_of_each_category_beats_strongest_of_previous():
    # 003: each category "beats ... any lower hand": the extremes make it sharp.
    strongest_lower_weakest_upper = [
        ("Тп Кч Дб Вт 9п", "7п 7ч 8б 9т 10ч"),  # best high card < worst pair
        ("Тп Тч Кб Дт Вп", "7п 7ч 8б 8т 9ч"),  # best pair < worst two pairs
        ("Тп Тч Кб Кт Дп", "7п 7ч 7б 8т 9ч"),  # best two pairs < worst three
        ("Тп Тч Тб Кт Дп", "Вп 10ч 9б 8т 7ч"),  # best three < worst straight
        ("Тп Кч Дб Вт 10п", "Вп 9п 8п 7п Дп"),  # best straight < worst flush
        ("Тп Кп Дп Вп 9п", "7п 7ч 7б 8т 8ч"),  # best flush < worst full house
        ("Тп Тч Тб Кт Кч", "7п 7ч 7б 7т 8ч"),  # best full house < worst four
        ("Тп Тч Тб Тт Кч", "Вп 10п 9п 8п 7п"),  # best four < worst straight flush
    ]
    for lower, upper in strongest_lower_weakest_upper:
        assert beats(upper, lower), (lower, upper)


# ======================================================================= game


def test_000_002_deal_and_packets():
    # 000: "The dealer ... turns up the first seven cards. These open cards take no part.
    # ... Each player is left with 25 cards, which each tries to divide into packets of
    # five cards."  002: "The opponent throws out the same cards from its deck."
    d = deal(seed=2024)
    assert len(d.exposed[0]) == 7 and len(d.holdings[0]) == 25
    assert d.exposed[0] == d.exposed[1]  # 002: the same cards (default mirror mode)
    assert Rules().n_packets == 5


# Five packets of strictly increasing strength, 25 distinct cards.
PACKETS = [
    "7c 8d 9h Jh Qd",  # high card
    "7d 7h 9s Jd Qh",  # pair of sevens
    "Js Ts 9c 8c 7s",  # straight, jack high
    "Ks Kd Kh Kc 8s",  # four kings
    "Ac Ad Ah As 8h",  # four aces
]


def _suit_shifted(packet: str) -> tuple[int, ...]:
    # The same ranks in other suits (c->d->h->s->c): equal strength, by 000's
    # "all suits are equal".
    return tuple(4 * (c // 4) + (c % 4 + 1) % 4 for c in parse_cards(packet))


@pytest.mark.parametrize(
    ("mine", "theirs", "outcomes", "points"),
    [
        # Same packets in the same order: every comparison ties, 0 : 0, a draw.
        ((0, 1, 2, 3, 4), (0, 1, 2, 3, 4), (0, 0, 0, 0, 0), (0, 0)),
        # Positions 1 and 2 swapped: player 2 wins position 1 (3), player 1 position 2 (4).
        ((0, 1, 2, 3, 4), (1, 0, 2, 3, 4), (-1, 1, 0, 0, 0), (4, 3)),
        # Player 2 wins positions 1 and 2 (3 + 4), player 1 position 5 (7): a draw.
        ((0, 1, 2, 3, 4), (1, 4, 2, 3, 0), (-1, -1, 0, 0, 1), (7, 7)),
        # Reversed: player 2 wins 1, 2 (3 + 4), player 1 wins 4, 5 (6 + 7), 3 ties.
        ((0, 1, 2, 3, 4), (4, 3, 2, 1, 0), (-1, -1, 0, 1, 1), (13, 7)),
        # Player 1 wins positions 1-3 (3 + 4 + 5 = 12) but loses 4 (6), 5 ties: 12 : 6.
        ((1, 2, 3, 0, 4), (0, 1, 2, 3, 4), (1, 1, 1, -1, 0), (12, 6)),
        # Player 1 wins positions 1-3 (12), player 2 positions 4-5 (6 + 7 = 13): a loss.
        ((1, 2, 4, 0, 3), (0, 1, 2, 3, 4), (1, 1, 1, -1, -1), (12, 13)),
    ],
)
def test_000_002_points_three_to_seven(mine, theirs, outcomes, points):
    # 000: "The first comparison brings the winner 3 points, the second 4 points, the
    # third 5, the fourth 6 and the fifth 7. The player who scored more points in five
    # comparisons wins."  002: the same.  Equal packets score nothing (docs/rules.md).
    first = Arrangement(tuple(parse_cards(PACKETS[i]) for i in mine))
    second = Arrangement(tuple(_suit_shifted(PACKETS[i]) for i in theirs))
    result = score(first, second)
    assert tuple(int(o) for o in result.outcomes) == outcomes
    assert result.points == points
    assert result.margin == points[0] - points[1]
    expected = "win" if points[0] > points[1] else "loss" if points[0] < points[1] else "draw"
    assert result.result.value == expected
