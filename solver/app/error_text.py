"""Error messages in the user's language: the library's English line, and its Russian form.

The library raises :class:`~solver.errors.QuintetError` with one English line.
:func:`error_text` gives that line in the language asked for: every message
the library makes of a user's input (cards, packets, holdings, rules, options)
has a Russian form here, a pattern of the English line and its Russian
template.  The request fields a message names (``opponent_cards``,
``against="equilibrium"``) stay as they are: each face speaks of them in its
own words afterwards (the command line's flags, the page's field names).  A
line that matches no pattern is returned as it is (English): the tests keep
the messages a user can meet all covered.

>>> error_text("card 'Xs': unknown rank 'X' (ranks are 7 8 9 10 J Q K A, or В Д К Т)", "ru")
"карта 'Xs': неизвестное достоинство 'X' (достоинства: 7 8 9 10 J Q K A или В Д К Т)"
>>> error_text("cards: expected 25 cards, got 24", "ru")
'cards: нужно 25 карт, а дано 24'
>>> error_text("expected 25 cards, got 24", "en")
'expected 25 cards, got 24'
>>> error_text("expected 25 cards, got 24", "fr")
Traceback (most recent call last):
    ...
solver.errors.QuintetError: lang 'fr' is not one of: en, ru
"""

from __future__ import annotations

import re

from solver.util.checks import check_instance
from solver.util.language import Lang, language

__all__ = ["error_text", "known_in_russian"]

# The hints of solver.game.cards for letters of the other alphabet.
_HINTS: dict[str, str] = {
    "Latin B; the Jack is J or Cyrillic В": "латинская B; валет — J или кириллическая В",
    "Latin D; the Queen is Q or Cyrillic Д": "латинская D; дама — Q или кириллическая Д",
    "Cyrillic А; the Ace is Latin A or Cyrillic Т": "кириллическая А; туз — латинская A или кириллическая Т",
    "Cyrillic с; clubs are Latin c, or Cyrillic т or к": "кириллическая с; трефы — латинская c или кириллические т, к",
    "Latin k; clubs are c, or Cyrillic к or т": "латинская k; трефы — c или кириллические к, т",
    "Latin t; clubs are c, or Cyrillic т or к": "латинская t; трефы — c или кириллические т, к",
    "Latin b; diamonds are d, or Cyrillic б": "латинская b; бубны — d или кириллическая б",
    "Cyrillic ԁ; diamonds are Latin d, or Cyrillic б": "кириллическая ԁ; бубны — латинская d или кириллическая б",
    "Cyrillic һ; hearts are Latin h, or Cyrillic ч": "кириллическая һ; червы — латинская h или кириллическая ч",
    "Latin n; spades are s, or Cyrillic п": "латинская n; пики — s или кириллическая п",
    "Latin p; spades are s, or Cyrillic п": "латинская p; пики — s или кириллическая п",
    "Cyrillic ѕ; spades are Latin s, or Cyrillic п": "кириллическая ѕ; пики — латинская s или кириллическая п",
}

_TOKEN = r"(?P<t>'.*?'|\".*?\")"
# (English pattern, Russian template): the whole message, after any "field: " heads.
_RUSSIAN: tuple[tuple[str, str], ...] = (
    (r"empty card token", "пустое обозначение карты"),
    (
        rf"card {_TOKEN}: a card is a rank followed by a suit, e\.g\. As or 10♥",
        "карта {t}: карта — это достоинство и масть, например As или 10♥",
    ),
    (
        rf"card {_TOKEN}: the suit is missing; a card is a rank followed by a suit, "
        r"e\.g\. (?P<a>\S+) or (?P<b>\S+)",
        "карта {t}: нет масти; карта — это достоинство и масть, например {a} или {b}",
    ),
    (
        rf"card {_TOKEN}: rank (?P<r>\S+) is not in a 32-card deck \(ranks are 7 8 9 10 J Q K A\)",
        "карта {t}: достоинства {r} нет в колоде из 32 карт (достоинства: 7 8 9 10 J Q K A)",
    ),
    (
        rf"card {_TOKEN}: unknown rank (?P<r>'.*?'|\".*?\") "
        r"\(ranks are 7 8 9 10 J Q K A, or В Д К Т\)(?:; (?P<hint>.+))?",
        "карта {t}: неизвестное достоинство {r} (достоинства: 7 8 9 10 J Q K A или В Д К Т){hint}",
    ),
    (
        rf"card {_TOKEN}: unknown suit (?P<s>'.*?'|\".*?\") "
        r"\(suits are c d h s, ♣ ♦ ♥ ♠, or т/к б ч п\)(?:; (?P<hint>.+))?",
        "карта {t}: неизвестная масть {s} (масти: c d h s, ♣ ♦ ♥ ♠ или т/к б ч п){hint}",
    ),
    (
        rf"card {_TOKEN}: duplicate of (?P<c>\S+) \(each card can appear only once\)",
        "карта {t}: повтор карты {c} (каждая карта — только один раз)",
    ),
    (r"expected (?P<n>\d+) cards, got (?P<m>\d+)", "нужно {n} карт, а дано {m}"),
    (
        r"expected (?P<n>\d+) packets separated by '\|', got (?P<m>\d+)",
        "нужно {n} пакетов через '|', а дано {m}",
    ),
    (
        r"packet (?P<p>\d+) \((?P<part>'.*?'|\".*?\")\) has (?P<n>\d+) cards; a packet has 5",
        "в пакете {p} ({part}) карт: {n}, а в пакете их 5",
    ),
    (
        r"packet (?P<p>\d+) has (?P<n>\d+) cards; a packet has 5",
        "в пакете {p} карт: {n}, а в пакете их 5",
    ),
    (r"card (?P<c>\S+) appears twice in the arrangement", "карта {c} дважды в раскладке"),
    (r"an arrangement needs at least one packet", "в раскладке нужен хотя бы один пакет"),
    (
        r"the arrangement has (?P<n>\d+) packets; the rules need (?P<m>\d+)",
        "в раскладке пакетов: {n}, а по правилам нужно {m}",
    ),
    (
        r"the arrangement uses (?P<x>.+?), not in the holding; it leaves out (?P<y>.+)",
        "в раскладке есть карты не с вашей руки: {x}; не выложены: {y}",
    ),
    (
        r"the arrangement uses (?P<x>.+?), not in the holding",
        "в раскладке есть карты не с вашей руки: {x}",
    ),
    (r"the arrangement leaves out (?P<y>.+)", "в раскладке не выложены: {y}"),
    (
        r"opponent_cards are needed in independent mode",
        "в независимом режиме нужны opponent_cards",
    ),
    (
        r"opponent_cards needs cards \(your holding\) too",
        "к opponent_cards нужны и cards (ваши карты)",
    ),
    (
        r"in mirror mode both players hold the same cards; use the independent mode",
        "в зеркальном режиме у обоих игроков одни и те же карты; выберите независимый режим",
    ),
    (
        r'objective is not for against="equilibrium", which plays the payoff game',
        'objective не задаётся при against="equilibrium": равновесие играет по payoff',
    ),
    (
        r'against="equilibrium" takes no top or fixed',
        'при against="equilibrium" нельзя top и fixed',
    ),
    (r"(?P<f>\w+) must be positive, got (?P<x>.+)", "{f} должно быть больше нуля, а дано {x}"),
    (
        r"(?P<f>\w+) must be in \[(?P<a>[^,]+), (?P<b>[^\]]+)\], got (?P<x>.+)",
        "{f} должно быть в пределах [{a}, {b}], а дано {x}",
    ),
    (
        r"seed must be a non-negative integer or a numpy Generator, got (?P<x>.+)",
        "зерно должно быть целым числом не меньше нуля, а дано {x}",
    ),
    (
        r"position points must be positive integers, got (?P<x>.+)",
        "очки позиций должны быть целыми положительными числами, а дано {x}",
    ),
    (
        r"position points must be at most (?P<n>\d+), got (?P<x>.+)",
        "очки позиций — не больше {n}, а дано {x}",
    ),
)
# What the "where" filter expected (solver.analysis.where), in Russian.
_EXPECTED = {
    "a name": "имя",
    "a comparison such as >=": "сравнение, например >=",
    "a number": "число",
    '"and"': '"and"',
}
_RUSSIAN += (
    (
        r"unexpected (?P<c>'.*?'|\".*?\") at column (?P<n>\d+) \(expected (?P<what>.+)\)",
        "неожиданное {c} в позиции {n} (ожидалось: {what})",
    ),
    (r"unexpected (?P<c>'.*?'|\".*?\") at column (?P<n>\d+)", "неожиданное {c} в позиции {n}"),
    (r"ends early \(expected (?P<what>.+)\)", "обрывается (ожидалось: {what})"),
    (
        r"unknown name (?P<c>'.*?') \(known: (?P<names>.+)\)",
        "неизвестное имя {c} (известны: {names})",
    ),
)
# The command line's usage errors (argparse's lines, and the option checks of solver.app.arguments).
_V = r"(?P<v>'.*?'|\".*?\")"
_RUSSIAN += (
    (
        r"unrecognized arguments: (?P<x>.+?); quote the cards as one argument: (?P<c>.+)",
        "непонятные аргументы: {x}; карты пишутся в кавычках, одним аргументом: {c}",
    ),
    (r"unrecognized arguments: (?P<x>.+)", "непонятные аргументы: {x}"),
    (r"the following arguments are required: (?P<x>.+)", "нужны аргументы: {x}"),
    (r"argument (?P<a>\S+): expected one argument", "аргумент {a}: нужно значение"),
    (
        rf"argument (?P<a>\S+): invalid choice: {_V} \(choose from (?P<c>.+)\)",
        "аргумент {a}: недопустимое значение {v} (на выбор: {c})",
    ),
    (
        r"argument (?P<a>\S+): not allowed with argument (?P<b>\S+)",
        "аргумент {a} нельзя вместе с {b}",
    ),
    (rf"argument (?P<a>\S+): {_V} is not an integer", "аргумент {a}: {v} — не целое число"),
    (rf"argument (?P<a>\S+): {_V} is not a number", "аргумент {a}: {v} — не число"),
    (rf"argument (?P<a>\S+): {_V} is not a finite number", "аргумент {a}: {v} — не конечное число"),
    (rf"argument (?P<a>\S+): {_V} must be >= 0", "аргумент {a}: {v} должно быть >= 0"),
    (
        rf"argument (?P<a>\S+): {_V} must be at least (?P<n>\S+)",
        "аргумент {a}: {v} должно быть не меньше {n}",
    ),
    (
        rf"argument (?P<a>\S+): {_V} must be at most (?P<n>\S+)",
        "аргумент {a}: {v} должно быть не больше {n}",
    ),
    (
        rf"argument (?P<a>\S+): {_V} must be a positive number",
        "аргумент {a}: {v} должно быть больше нуля",
    ),
    (
        rf"argument (?P<a>\S+): {_V} must be a non-negative number",
        "аргумент {a}: {v} должно быть не меньше нуля",
    ),
    (
        rf"argument (?P<a>\S+): {_V} is not auto or an integer",
        "аргумент {a}: {v} — не auto и не целое число",
    ),
    (r"--json is not available in the interactive game", "--json недоступен в интерактивной игре"),
    (r"--roll needs --mixed", "--roll имеет смысл только с --mixed"),
    (
        r"--json is not available in the interactive series \(--history FILE\.jsonl keeps its "
        r"records as JSON\)",
        "--json недоступен в интерактивной серии (--history FILE.jsonl хранит записи в JSON)",
    ),
    (
        rf"against {_V}: expected random, greedy, house, known, equilibrium or a mixture FILE\.json",
        "against {v}: ожидается random, greedy, house, known, equilibrium или файл смеси FILE.json",
    ),
)
# The mixed house rule (solver.models.mixed_house).
_RUSSIAN += (
    (
        r"face: (?P<v>\S+) is not a face of a (?P<n>\d+)-sided die",
        "face: {v} — не грань кубика с {n} гранями",
    ),
    (
        r"mixed: lays out (?P<n>\d+) packets, the rules have (?P<m>\d+)",
        "mixed: правило раскладывает пакетов: {n}, а по правилам их {m}",
    ),
)
# A history without a deal to grade (quintet analyze, the Analyze page), and why its lines were skipped.
_RUSSIAN += (
    (
        r"(?P<name>.+): no deal to grade \(it is empty\)",
        "{name}: нет сдач для оценки (история пуста)",
    ),
    (
        r"(?P<name>.+): no deal to grade \((?P<n>\d+) lines? skipped, the first: line (?P<k>\d+): "
        r"(?P<reason>.+)\)",
        "{name}: нет сдач для оценки (пропущено строк: {n}; первая — строка {k}: {reason})",
    ),
    (r"no arrangement", "нет раскладки"),
    (r"neither seed nor holding", "нет ни зерна (seed), ни карт (holding)"),
    (r"rules must be an object", "rules должно быть объектом"),
    (r"bad rules: (?P<reason>.+)", "неверные правила: {reason}"),
    (r"seed (?P<v>.+) is not a number", "seed {v} — не число"),
    (r"seed must be non-negative, got (?P<x>.+)", "seed должно быть не меньше нуля, а дано {x}"),
    (r"expected cards, got (?P<x>.+)", "ожидались карты, а дано {x}"),
    (r"(?P<f>\w+) must be 0 or 1, got (?P<x>.+)", "{f} должно быть 0 или 1, а дано {x}"),
    (r"not JSON \(nested too deeply\)", "не JSON (слишком глубокая вложенность)"),
    (r"cut short \(a crash or a full disk\?\)", "строка оборвана (сбой или полный диск?)"),
    (r"not JSON", "не JSON"),
    (r"not a JSON object", "не объект JSON"),
    (
        r"not a history header \((?P<reason>.+?); columns: (?P<c>.+)\)",
        "не заголовок истории ({reason}; столбцы: {c})",
    ),
    (r"unknown column (?P<v>'.*?')", "неизвестный столбец {v}"),
    (r"no arrangement column", "нет столбца arrangement"),
)
# The warnings the command line prints (quintet: warning: ...).
_RUSSIAN += (
    (r"line (?P<k>\d+): skipped: (?P<reason>.+)", "строка {k} пропущена: {reason}"),
    (r"interrupted: (?P<a>\d+) of (?P<b>\d+) deals graded", "прервано: оценено сдач {a} из {b}"),
    (
        r"jobs (?P<n>\d+): using (?P<m>\d+) \(one per core and per deal\)",
        "jobs {n}: используется {m} (не больше, чем ядер и сдач)",
    ),
    (r'against="equilibrium" ignores (?P<x>.+)', 'при against="equilibrium" не используются: {x}'),
    (
        r"the frontier engine is exhaustive and ignores (?P<x>.+)",
        "движок frontier перебирает всё и не использует: {x}",
    ),
    (r"connect_timeout applies only to scheduler", "connect_timeout действует только со scheduler"),
    (
        r"equilibrium_time_limit applies only to eq-\* players",
        "equilibrium_time_limit действует только на игроков eq-*",
    ),
    (
        r"samples applies only to the win or game objective against a random opponent",
        "samples действует только для целей win и game против случайного противника",
    ),
    (r"(?P<reason>.+); solving without the book", "{reason}; решаю без книги"),
    (r"(?P<reason>.+); solutions are not stored", "{reason}; решения не сохраняются"),
    (r"--lang applies to the human output, not --json", "--lang действует на текст, не на --json"),
)
# The duel's rooms (solver.app.duel).
_RUSSIAN += (
    (
        r"no open room (?P<c>\S*) \(rooms expire after (?P<h>\S+) hours unused\)",
        "нет открытой комнаты {c} (комната закрывается через {h} ч без игры)",
    ),
    (r"room (?P<c>\S+) has two players already", "в комнате {c} уже два игрока"),
    (
        r"this browser does not hold a secret of the room: only its two players can act in it",
        "у этого браузера нет ключа комнаты: играть в ней могут только её два игрока",
    ),
    (r"you have laid out this deal already", "вы уже разложили эту сдачу"),
    (
        r"the next deal comes once both players have laid out",
        "следующая сдача — когда оба игрока разложат карты",
    ),
    (
        r"a play is graded once both players have laid out",
        "оценка — когда оба игрока разложат карты",
    ),
    (
        r"the server has (?P<n>\d+) open rooms, as many as it keeps; try again when one has expired",
        "на сервере уже {n} открытых комнат, больше он не держит; попробуйте, когда одна закроется",
    ),
)
# Parts of a message that are messages themselves (a skipped line's reason), or a file's name.
_NESTED = ("reason",)
_NAMES = {"the history": "история"}
_PATTERNS = tuple((re.compile(pattern), template) for pattern, template in _RUSSIAN)
# "cards: ...", "packet 3: ...": the field or packet a message is about, then the message.
_HEAD = re.compile(r"(?P<head>packet \d+|[a-z_]+): (?P<rest>.+)", re.DOTALL)


def _russian(message: str) -> str | None:
    for pattern, template in _PATTERNS:
        found = pattern.fullmatch(message)
        if found:
            values = {k: v or "" for k, v in found.groupdict().items()}
            for key in _NESTED:
                if key in values:
                    values[key] = _russian(values[key]) or values[key]
            if "name" in values:
                values["name"] = _NAMES.get(values["name"], values["name"])
            if "what" in values:
                values["what"] = _EXPECTED.get(values["what"], values["what"])
            if "hint" in values:
                hint = values["hint"]
                values["hint"] = f"; {_HINTS.get(hint, hint)}" if hint else ""
            return template.format(**values)
    head = _HEAD.fullmatch(message)
    if head:
        rest = _russian(head["rest"])
        if rest is not None:
            name = head["head"]
            name = name.replace("packet", "пакет") if name.startswith("packet ") else name
            return f"{name}: {rest}"
    return None


def known_in_russian(message: str) -> bool:
    """Whether ``message`` has a Russian form here.

    >>> known_in_russian("packet 2: empty card token"), known_in_russian("no such thing")
    (True, False)
    """
    return _russian(check_instance(message, str, "message")) is not None


def error_text(message: str, lang: Lang | str) -> str:
    """The library's error ``message`` in the language ``lang`` (English as it is).

    Parameters
    ----------
    message
        The English line of a :class:`~solver.errors.QuintetError` (``str(error)``).
    lang
        ``"en"`` or ``"ru"``.

    Returns
    -------
    str
        The message in ``lang``; a message without a Russian form stays English.

    >>> error_text("packet 1 ('7c 8c') has 2 cards; a packet has 5", "ru")
    "в пакете 1 ('7c 8c') карт: 2, а в пакете их 5"
    >>> error_text(3, "ru")
    Traceback (most recent call last):
        ...
    TypeError: message must be a str, got 3
    """
    check_instance(message, str, "message")
    if language(lang) is Lang.EN:
        return message
    russian = _russian(message)
    return message if russian is None else russian
