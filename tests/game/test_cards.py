"""Card notation: parsing in every notation, errors, formatting round trips."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.errors import CardError, QuintetError
from solver.game.cards import (
    DECK,
    DECK_SIZE,
    card_id,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
    rank_of,
    split_tokens,
    suit_of,
)

# rank 0..7 = 7 8 9 10 J Q K A; suit 0..3 = clubs diamonds hearts spades.
ACE_OF_SPADES = 4 * 7 + 3
TEN_OF_SPADES = 4 * 3 + 3
QUEEN_OF_HEARTS = 4 * 5 + 2
TEN_OF_DIAMONDS = 4 * 3 + 1
SEVEN_OF_CLUBS = 0


# ======================================================================= notations


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        # English, symbols and letters, both cases.
        ("A♠", ACE_OF_SPADES),
        ("As", ACE_OF_SPADES),
        ("AS", ACE_OF_SPADES),
        ("as", ACE_OF_SPADES),
        ("aS", ACE_OF_SPADES),
        ("A♤", ACE_OF_SPADES),
        ("A♠\ufe0f", ACE_OF_SPADES),  # emoji presentation selector
        ("10♠", TEN_OF_SPADES),
        ("10s", TEN_OF_SPADES),
        ("10S", TEN_OF_SPADES),
        ("Ts", TEN_OF_SPADES),
        ("ts", TEN_OF_SPADES),
        ("T♠", TEN_OF_SPADES),  # Latin T: a ten
        ("Q♥", QUEEN_OF_HEARTS),
        ("Qh", QUEEN_OF_HEARTS),
        ("Q♡", QUEEN_OF_HEARTS),
        ("10♦", TEN_OF_DIAMONDS),
        ("Td", TEN_OF_DIAMONDS),
        ("10♢", TEN_OF_DIAMONDS),
        ("7♣", SEVEN_OF_CLUBS),
        ("7c", SEVEN_OF_CLUBS),
        ("7♧", SEVEN_OF_CLUBS),
        ("Jc", 4 * 4 + 0),
        ("Kd", 4 * 6 + 1),
        ("8h", 4 * 1 + 2),
        ("9s", 4 * 2 + 3),
        # Russian ranks В Д К Т with suit symbols.
        ("Т♠", ACE_OF_SPADES),  # Cyrillic Т: an ace
        ("Д♥", QUEEN_OF_HEARTS),
        ("К♦", 4 * 6 + 1),
        ("В♣", 4 * 4 + 0),
        # Russian ranks with Russian suit letters п ч б т к.
        ("Тп", ACE_OF_SPADES),
        ("тп", ACE_OF_SPADES),
        ("ТП", ACE_OF_SPADES),
        ("Дч", QUEEN_OF_HEARTS),
        ("10б", TEN_OF_DIAMONDS),
        ("10п", TEN_OF_SPADES),
        ("7т", SEVEN_OF_CLUBS),
        ("7к", SEVEN_OF_CLUBS),  # крести
        ("Тт", 4 * 7 + 0),  # ace (Cyrillic Т) of clubs (т)
        ("Кк", 4 * 6 + 0),  # king (к) of clubs (к)
        ("Вб", 4 * 4 + 1),
        ("Кч", 4 * 6 + 2),
        # Mixed: Latin rank and Russian suit, and the reverse.
        ("Aп", ACE_OF_SPADES),
        ("Тs", ACE_OF_SPADES),
        ("Tт", 4 * 3 + 0),  # Latin T (ten) of clubs (Cyrillic т)
        # Surrounding whitespace is ignored.
        ("  As ", ACE_OF_SPADES),
    ],
)
def test_parse_card_notations(token, expected):
    assert parse_card(token) == expected
    assert parse_cards(token) == (expected,)


def test_parse_cards_separators_and_order():
    expected = (ACE_OF_SPADES, TEN_OF_SPADES, QUEEN_OF_HEARTS, TEN_OF_DIAMONDS, SEVEN_OF_CLUBS)
    for text in [
        "As Ts Qh Td 7c",
        "As,Ts,Qh,Td,7c",
        "As, Ts, Qh, Td, 7c",
        "  As   Ts\tQh\nTd 7c  ",
        "A♠ 10♠ Q♥ 10♦ 7♣",
        "Тп 10п Дч 10б 7т",
        "Т♠ 10♠ Д♥ 10♦ 7♣",
        "Тп,10s,Q♥,10б,7к",
    ]:
        assert parse_cards(text) == expected, text
        assert parse_cards(text, count=5) == expected, text


def test_parse_cards_from_iterables():
    assert parse_cards(["As", "Дч"]) == (ACE_OF_SPADES, QUEEN_OF_HEARTS)
    assert parse_cards([31, 22]) == (31, 22)
    assert parse_cards(np.array([31, 22])) == (31, 22)
    assert parse_cards(c for c in [0, 1, 2]) == (0, 1, 2)
    assert parse_cards("") == ()
    assert parse_cards([], count=0) == ()


def test_module_docstring_example():
    assert parse_cards("A♠ 10h Js, Дч Тб") == (31, 14, 19, 22, 29)


def test_split_tokens():
    assert split_tokens("As, Kd  Qh") == ["As", "Kd", "Qh"]
    assert split_tokens(",,As,,") == ["As"]


def test_rank_and_suit_of():
    assert rank_of(ACE_OF_SPADES) == 7 and suit_of(ACE_OF_SPADES) == 3
    assert rank_of(0) == 0 and suit_of(0) == 0
    assert rank_of(np.arange(32)).tolist() == [c // 4 for c in range(32)]
    assert suit_of(np.arange(32)).tolist() == [c % 4 for c in range(32)]
    assert [card_id(rank_of(c), suit_of(c)) for c in DECK] == list(range(DECK_SIZE))


def test_card_id_errors():
    with pytest.raises(CardError, match="rank 8"):
        card_id(8, 0)
    with pytest.raises(CardError, match="suit 4"):
        card_id(0, 4)
    with pytest.raises(CardError, match="rank -1"):
        card_id(-1, 0)


# ======================================================================= formatting


def test_format_examples():
    assert format_card(31) == "A♠"
    assert format_card(31, lang="ru") == "Т♠"
    assert format_card(31, ascii=True) == "As"
    assert format_card(12, ascii=True) == "Tc"
    assert format_card(12) == "10♣"
    assert format_card(22, lang="ru") == "Д♥"
    assert format_card(17, lang="ru") == "В♦"
    assert format_card(24, lang="ru") == "К♣"
    assert format_cards([28, 29, 30], ascii=True) == "Ac Ad Ah"
    assert format_cards([]) == ""
    # ascii ignores the language: machine codes are always English.
    assert format_card(31, ascii=True, lang="ru") == "As"


@pytest.mark.parametrize("bad", [-1, 32, 100])
def test_format_out_of_range(bad):
    with pytest.raises(CardError, match=str(bad)):
        format_card(bad)


# ======================================================================= errors


def _error(text, **kwargs) -> str:
    with pytest.raises(CardError) as info:
        parse_cards(text, **kwargs)
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, QuintetError)
    message = str(info.value)
    assert "\n" not in message
    return message


@pytest.mark.parametrize("token", ["2s", "3h", "4d", "5c", "6s", "5♥", "6п", "2б", "6Ч"])
def test_short_deck_rank_not_in_32_card_deck(token):
    message = _error(f"As {token} Kd")
    assert repr(token) in message
    assert "not in a 32-card deck" in message


@pytest.mark.parametrize(
    ("token", "hint"),
    [
        ("Xs", "unknown rank 'X'"),
        ("1s", "unknown rank '1'"),
        ("11h", "unknown rank '11'"),
        ("0s", "unknown rank '0'"),
        ("Zп", "unknown rank 'Z'"),
        ("Bs", "Latin B"),  # looks like Cyrillic В (jack)
        ("Dh", "Latin D"),  # looks like Cyrillic Д (queen)
        ("Аs", "Cyrillic А"),  # Cyrillic А is no ace
    ],
)
def test_unknown_rank(token, hint):
    message = _error(f"7c {token}")
    assert repr(token) in message
    assert "unknown rank" in message
    assert hint in message


@pytest.mark.parametrize("token", ["Ax", "10z", "Kb", "Q?", "7♔", "Тж", "Jl"])
def test_unknown_suit(token):
    message = _error(f"7c {token}")
    assert repr(token) in message
    assert "unknown suit" in message
    assert repr(token[-1]) in message


@pytest.mark.parametrize("token", ["A", "7", "♠"])
def test_too_short_token(token):
    message = _error(token)
    assert repr(token) in message


def test_empty_token_in_list():
    assert "empty" in _error(["As", "  "])


@pytest.mark.parametrize(
    ("text", "token", "shown"),
    [
        ("As Kd As", "As", "A♠"),
        ("As Kd A♠", "A♠", "A♠"),
        ("Тп Kd As", "As", "A♠"),  # same card in two notations
        ("10h Th", "Th", "10♥"),
        ("7т 7c", "7c", "7♣"),
        ("Дч qH", "qH", "Q♥"),
    ],
)
def test_duplicate_card(text, token, shown):
    message = _error(text)
    assert repr(token) in message
    assert "duplicate" in message
    assert shown in message


def test_duplicate_card_id():
    message = _error([3, 5, 3])
    assert "duplicate" in message and "7♠" in message


@pytest.mark.parametrize(("text", "count"), [("As Kd", 5), ("7c 8c 9c Tc Jc Qc", 5), ("", 1)])
def test_wrong_count(text, count):
    got = len(split_tokens(text))
    message = _error(text, count=count)
    assert f"expected {count} cards, got {got}" in message


@pytest.mark.parametrize("bad", [32, -1, 40])
def test_card_id_out_of_range(bad):
    message = _error([0, bad])
    assert str(bad) in message and "out of range" in message


def test_first_bad_token_is_reported():
    # Several problems: the first bad token (left to right) is named.
    message = _error("As 5h Xs As")
    assert "'5h'" in message and "'Xs'" not in message


# ======================================================================= round trips

card_lists = st.lists(st.integers(0, DECK_SIZE - 1), unique=True, max_size=DECK_SIZE)

# Russian letter notation, built here independently of the formatter.
_RU_RANKS = ("7", "8", "9", "10", "В", "Д", "К", "Т")
_RU_SUITS = (("т", "к"), ("б",), ("ч",), ("п",))


@given(card_lists)
def test_round_trip_human_english(cards):
    text = format_cards(cards)
    assert parse_cards(text) == tuple(cards)
    assert parse_cards(text, count=len(cards)) == tuple(cards)


@given(card_lists)
def test_round_trip_human_russian(cards):
    text = format_cards(cards, lang="ru")
    assert parse_cards(text) == tuple(cards)


@given(card_lists)
def test_round_trip_ascii(cards):
    text = format_cards(cards, ascii=True)
    assert text.isascii()
    assert parse_cards(text) == tuple(cards)
    # Tokens are exactly two characters, rank in 789TJQKA and suit in cdhs.
    for token in text.split():
        assert len(token) == 2 and token[0] in "789TJQKA" and token[1] in "cdhs"


@given(card_lists, st.sampled_from([" ", ",", ", ", "  ,"]))
def test_round_trip_single_tokens_any_separator(cards, sep):
    for ascii_, lang in [(True, "en"), (False, "en"), (False, "ru")]:
        tokens = [format_card(c, ascii=ascii_, lang=lang) for c in cards]
        assert parse_cards(sep.join(tokens)) == tuple(cards)
        assert parse_cards(tokens) == tuple(cards)


def _random_case(token: str, flips: list[bool]) -> str:
    return "".join(
        (ch.upper() if flip else ch.lower()) for ch, flip in zip(token, flips, strict=True)
    )


@given(st.data(), card_lists)
def test_ascii_tokens_any_case(data, cards):
    tokens = []
    for card in cards:
        token = format_card(card, ascii=True)
        flips = data.draw(st.lists(st.booleans(), min_size=len(token), max_size=len(token)))
        tokens.append(_random_case(token, flips))
    assert parse_cards(" ".join(tokens)) == tuple(cards)


@given(st.data(), card_lists)
def test_russian_letter_tokens_any_case(data, cards):
    tokens = []
    for card in cards:
        rank, suit = divmod(card, 4)
        token = _RU_RANKS[rank] + data.draw(st.sampled_from(_RU_SUITS[suit]))
        flips = data.draw(st.lists(st.booleans(), min_size=len(token), max_size=len(token)))
        tokens.append(_random_case(token, flips))
    assert parse_cards(" ".join(tokens)) == tuple(cards)


@given(st.data(), card_lists)
def test_human_tokens_any_case(data, cards):
    # "case-insensitive": human tokens with random case still parse the same.
    lang = data.draw(st.sampled_from(["en", "ru"]))
    tokens = []
    for card in cards:
        token = format_card(card, lang=lang)
        flips = data.draw(st.lists(st.booleans(), min_size=len(token), max_size=len(token)))
        tokens.append(_random_case(token, flips))
    assert parse_cards(",".join(tokens)) == tuple(cards)


@given(st.lists(st.integers(0, DECK_SIZE - 1), min_size=2, max_size=10))
def test_any_repeat_is_an_error(cards):
    text = format_cards(cards, ascii=True)
    if len(set(cards)) == len(cards):
        assert parse_cards(text) == tuple(cards)
    else:
        with pytest.raises(CardError, match="duplicate"):
            parse_cards(text)
