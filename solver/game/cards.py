"""Cards of the 32-card deck: the integer encoding, parsing and formatting.

A card is an ``int`` from 0 to 31, ``card = 4 * rank + suit``::

                 suit:  0 ♣ clubs   1 ♦ diamonds   2 ♥ hearts   3 ♠ spades
    rank 0   7        0            1              2            3
    rank 1   8        4            5              6            7
    rank 2   9        8            9             10           11
    rank 3  10       12           13             14           15
    rank 4   J       16           17             18           19
    rank 5   Q       20           21             22           23
    rank 6   K       24           25             26           27
    rank 7   A       28           29             30           31

So ``card >> 2`` is the rank (7 lowest, Ace highest) and ``card & 3`` the
suit.  This encoding is public and stable: arrays of card ids are the
currency of the whole package.

Notation accepted by :func:`parse_cards` (case-insensitive; tokens separated
by spaces or commas):

* ranks ``7 8 9 10 T J Q K A`` and the Russian ``В Д К Т`` (валет, дама,
  король, туз).  Note that the Latin ``T`` is a ten and the Cyrillic ``Т`` an
  ace: the rank always comes first in a token, so ``Тт`` is the ace of clubs.
* suits ``c d h s``, the symbols ``♣ ♦ ♥ ♠`` (and ``♧ ♢ ♡ ♤``), and the
  Russian ``т``/``к`` (трефы, крести ♣), ``б`` (бубны ♦), ``ч`` (червы ♥),
  ``п`` (пики ♠).

>>> parse_cards("A♠ 10h Js, Дч Тб")
(31, 14, 19, 22, 29)
>>> format_cards((31, 14))
'A♠ 10♥'
>>> format_cards((31, 14), ascii=True)
'As Th'
>>> parse_cards("5h")
Traceback (most recent call last):
    ...
solver.errors.CardError: card '5h': rank 5 is not in a 32-card deck (ranks are 7 8 9 10 J Q K A)
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from solver.errors import CardError
from solver.util.checks import check_bool, check_int
from solver.util.language import Lang, language

__all__ = [
    "DECK",
    "DECK_SIZE",
    "HAND_SIZE",
    "N_RANKS",
    "N_SUITS",
    "card_id",
    "card_ids",
    "check_card_id",
    "format_card",
    "format_cards",
    "parse_card",
    "parse_cards",
    "rank_of",
    "split_tokens",
    "suit_of",
]

N_RANKS = 8
N_SUITS = 4
DECK_SIZE = N_RANKS * N_SUITS
HAND_SIZE = 5
DECK = tuple(range(DECK_SIZE))


# Display names, indexed by rank or suit id.
_RANK_NAMES = {
    Lang.EN: ("7", "8", "9", "10", "J", "Q", "K", "A"),
    Lang.RU: ("7", "8", "9", "10", "В", "Д", "К", "Т"),
}
_RANK_ASCII = ("7", "8", "9", "T", "J", "Q", "K", "A")
_SUIT_SYMBOLS = ("♣", "♦", "♥", "♠")
_SUIT_ASCII = ("c", "d", "h", "s")

# Parsing tables, keyed by the case-folded token part.
_RANK_TOKENS = {
    "7": 0,
    "8": 1,
    "9": 2,
    "10": 3,
    "t": 3,  # Latin T: ten
    "j": 4,
    "q": 5,
    "k": 6,  # Latin K
    "a": 7,
    "в": 4,  # Cyrillic: валет
    "д": 5,  # дама
    "к": 6,  # король
    "т": 7,  # туз
}
_SUIT_TOKENS = {
    "c": 0,
    "d": 1,
    "h": 2,
    "s": 3,
    "♣": 0,
    "♦": 1,
    "♥": 2,
    "♠": 3,
    "♧": 0,
    "♢": 1,
    "♡": 2,
    "♤": 3,
    "т": 0,  # трефы
    "к": 0,  # крести
    "б": 1,  # бубны
    "ч": 2,  # червы
    "п": 3,  # пики
}
_SHORT_DECK_RANKS = {"2", "3", "4", "5", "6"}
# Latin letters that look like Cyrillic ranks: a likely slip worth naming.
_LOOKALIKE_HINTS = {
    "b": "Latin B; the Jack is J or Cyrillic В",
    "d": "Latin D; the Queen is Q or Cyrillic Д",
    "а": "Cyrillic А; the Ace is Latin A or Cyrillic Т",
}
# Letters that look like (or transliterate) a suit of the other alphabet.
_SUIT_LOOKALIKE_HINTS = {
    "с": "Cyrillic с; clubs are Latin c, or Cyrillic т or к",
    "k": "Latin k; clubs are c, or Cyrillic к or т",
    "t": "Latin t; clubs are c, or Cyrillic т or к",
    "b": "Latin b; diamonds are d, or Cyrillic б",
    "ԁ": "Cyrillic ԁ; diamonds are Latin d, or Cyrillic б",
    "һ": "Cyrillic һ; hearts are Latin h, or Cyrillic ч",
    "n": "Latin n; spades are s, or Cyrillic п",
    "p": "Latin p; spades are s, or Cyrillic п",
    "ѕ": "Cyrillic ѕ; spades are Latin s, or Cyrillic п",
}
_VARIATION_SELECTOR = "\ufe0f"  # emoji presentation of ♠ etc.


def card_id(rank: int, suit: int) -> int:
    """Return the card id of ``rank`` (0 = 7 ... 7 = Ace) and ``suit`` (0 = ♣ ... 3 = ♠).

    >>> card_id(7, 3)
    31
    >>> card_id(8, 0)
    Traceback (most recent call last):
        ...
    solver.errors.CardError: rank 8 out of range 0..7
    """
    if not 0 <= rank < N_RANKS:
        raise CardError(f"rank {rank} out of range 0..{N_RANKS - 1}")
    if not 0 <= suit < N_SUITS:
        raise CardError(f"suit {suit} out of range 0..{N_SUITS - 1}")
    return N_SUITS * rank + suit


def rank_of(cards: int | np.ndarray) -> int | np.ndarray:
    """Rank (0 = 7 ... 7 = Ace) of a card id or an array of card ids.

    >>> rank_of(31), rank_of(np.array([0, 4]))
    (7, array([0, 1]))
    """
    return cards >> 2


def suit_of(cards: int | np.ndarray) -> int | np.ndarray:
    """Suit (0 = ♣, 1 = ♦, 2 = ♥, 3 = ♠) of a card id or an array of card ids.

    >>> suit_of(31)
    3
    """
    return cards & 3


def parse_card(token: str) -> int:
    """Parse one card token such as ``As``, ``10♥``, ``Ts`` or ``Дч``.

    Parameters
    ----------
    token
        A rank followed by a suit, in any notation of the module docstring.

    Returns
    -------
    int
        The card id.

    Raises
    ------
    CardError
        If the token is not a card of the 32-card deck; the message names
        the token and why.

    >>> parse_card("Тп"), parse_card("qS"), parse_card("10б")
    (31, 23, 13)
    >>> parse_card("Xs")
    Traceback (most recent call last):
        ...
    solver.errors.CardError: card 'Xs': unknown rank 'X' (ranks are 7 8 9 10 J Q K A, or В Д К Т)
    """
    text = token.strip().replace(_VARIATION_SELECTOR, "")
    if not text:
        raise CardError("empty card token")
    if len(text) < 2:
        raise CardError(f"card {token!r}: a card is a rank followed by a suit, e.g. As or 10♥")
    if text.casefold() in _RANK_TOKENS:
        raise CardError(
            f"card {token!r}: the suit is missing; a card is a rank followed by a suit, "
            f"e.g. {text}♥ or {text}h"
        )
    rank_text, suit_text = text[:-1], text[-1]
    rank_key = rank_text.casefold()
    if rank_key not in _RANK_TOKENS:
        if rank_key in _SHORT_DECK_RANKS:
            raise CardError(
                f"card {token!r}: rank {rank_text} is not in a 32-card deck "
                "(ranks are 7 8 9 10 J Q K A)"
            )
        hint = _LOOKALIKE_HINTS.get(rank_key)
        why = f"; {hint}" if hint else ""
        raise CardError(
            f"card {token!r}: unknown rank {rank_text!r} "
            f"(ranks are 7 8 9 10 J Q K A, or В Д К Т){why}"
        )
    suit_key = suit_text.casefold()
    if suit_key not in _SUIT_TOKENS:
        hint = _SUIT_LOOKALIKE_HINTS.get(suit_key)
        raise CardError(
            f"card {token!r}: unknown suit {suit_text!r} (suits are c d h s, ♣ ♦ ♥ ♠, or т/к б ч п)"
            + (f"; {hint}" if hint else "")
        )
    return N_SUITS * _RANK_TOKENS[rank_key] + _SUIT_TOKENS[suit_key]


def split_tokens(text: str) -> list[str]:
    """Split a card list on spaces and commas.

    >>> split_tokens("As, Kd  Qh")
    ['As', 'Kd', 'Qh']
    """
    return text.replace(",", " ").split()


def parse_cards(
    cards: str | Iterable[str] | Iterable[int], count: int | None = None
) -> tuple[int, ...]:
    """Parse a list of distinct cards.

    Parameters
    ----------
    cards
        A string of tokens separated by spaces or commas, an iterable of
        tokens, or an iterable of card ids (validated and returned as is).
    count
        If given, the exact number of cards required.

    Returns
    -------
    tuple of int
        Card ids, in the order given.

    Raises
    ------
    CardError
        On a bad token, a duplicate card or a wrong number of cards.

    >>> parse_cards("7c 8c", count=2)
    (0, 4)
    >>> parse_cards("7c 7♣")
    Traceback (most recent call last):
        ...
    solver.errors.CardError: card '7♣': duplicate of 7♣ (each card can appear only once)
    >>> parse_cards("7c 8c", count=5)
    Traceback (most recent call last):
        ...
    solver.errors.CardError: expected 5 cards, got 2
    """
    if count is not None:
        check_int(count, "count", low=0, high=DECK_SIZE)
    tokens: list[str | int] = list(split_tokens(cards) if isinstance(cards, str) else cards)
    ids: list[int] = []
    seen: dict[int, str] = {}
    for token in tokens:
        if isinstance(token, str):
            card = parse_card(token)
            shown = token
        else:
            card = check_card_id(token)
            shown = format_card(card)
        if card in seen:
            raise CardError(
                f"card {shown!r}: duplicate of {format_card(card)} (each card can appear only once)"
            )
        seen[card] = shown
        ids.append(card)
    if count is not None and len(ids) != count:
        raise CardError(f"expected {count} cards, got {len(ids)}")
    return tuple(ids)


def check_card_id(value: object) -> int:
    """One card id as an ``int``: an integer (Python or numpy) from 0 to 31.

    Floats, bools and strings are refused, never truncated: ``1.9`` is not
    card 1.

    >>> check_card_id(np.int64(31))
    31
    >>> check_card_id(1.0)
    Traceback (most recent call last):
        ...
    solver.errors.CardError: card id 1.0 is not an integer
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise CardError(f"card id {value!r} is not an integer")
    card = int(value)
    if not 0 <= card < DECK_SIZE:
        raise CardError(f"card id {card} out of range 0..{DECK_SIZE - 1}")
    return card


def card_ids(cards: Iterable[object], who: str = "cards") -> tuple[int, ...]:
    """Card ids checked one by one (:func:`check_card_id`); errors start with ``who``.

    Every public function that takes card ids checks them here.

    >>> card_ids(np.array([0, 31]))
    (0, 31)
    >>> card_ids([0, float("inf")], who="holding")
    Traceback (most recent call last):
        ...
    solver.errors.CardError: holding: card id inf is not an integer
    """
    # The errors name ``who`` as their argument when it is one ("holding"), not a phrase.
    argument = who if who.isidentifier() else None
    if isinstance(cards, (str, bytes)):
        raise CardError(
            f"{who}: expected card ids, got text (parse it with parse_cards)", argument=argument
        )
    try:
        items = list(cards)
    except TypeError:
        raise CardError(
            f"{who}: expected card ids, got {type(cards).__name__}", argument=argument
        ) from None
    checked = []
    for value in items:
        try:
            checked.append(check_card_id(value))
        except CardError as error:
            raise CardError(f"{who}: {error}", argument=argument) from None
    return tuple(checked)


def format_card(card: int, *, ascii: bool = False, lang: Lang | str = Lang.EN) -> str:
    """Format one card: ``A♠`` for people, ``As`` for machines (``ascii=True``).

    >>> format_card(31), format_card(31, lang="ru"), format_card(12, ascii=True)
    ('A♠', 'Т♠', 'Tc')
    """
    card = check_card_id(card)
    rank, suit = divmod(card, N_SUITS)
    if ascii:
        return _RANK_ASCII[rank] + _SUIT_ASCII[suit]
    return _RANK_NAMES[language(lang)][rank] + _SUIT_SYMBOLS[suit]


def format_cards(
    cards: Iterable[int] | np.ndarray, *, ascii: bool = False, lang: Lang | str = Lang.EN
) -> str:
    """Format cards separated by spaces, in the order given.

    >>> format_cards([28, 29, 30], ascii=True)
    'Ac Ad Ah'
    >>> format_cards([28, 32])
    Traceback (most recent call last):
        ...
    solver.errors.CardError: cards: card id 32 out of range 0..31
    """
    ids = card_ids(cards, who="cards")
    check_bool(ascii, "ascii")
    lang = language(lang)
    return " ".join(format_card(c, ascii=ascii, lang=lang) for c in ids)
