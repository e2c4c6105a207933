"""The whole game's statistics: the summary shipped with the package, shown and rebuilt.

``quintet report`` shows it when there is no book (and ``--summary``
asks for it); ``quintet book summary`` makes it from a book built over a
uniform sample of mirror classes (:mod:`solver.book.summary`).  A damaged
file is reported in the answer's warnings (its readable payoffs are still
shown); a file with nothing readable is a :class:`~solver.errors.BookError`.

>>> answer = whole_game(WholeGameRequest(payoff="win"))
>>> answer.document["format"], [p["payoff"] for p in answer.document["payoffs"]]
('quintet-summary/1', ['win'])
>>> whole_game(WholeGameRequest(payoff="draw"))
Traceback (most recent call last):
    ...
solver.errors.QuintetError: payoff: 'draw' is not margin or win
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver.app.answers import Answer, Notice, answer_of
from solver.app.report import Output
from solver.app.study_text import interval_text
from solver.book.store import Book
from solver.book.summary import read_summary, summarize, write_summary
from solver.errors import BookError, FileError, QuintetError
from solver.game.rules import Category
from solver.util.language import Lang, Phrase, language

__all__ = [
    "SummaryBuildRequest",
    "WholeGameRequest",
    "build_summary",
    "check_plot_folder",
    "whole_game",
    "whole_text",
]

_W = {
    "title": Phrase("the whole game", "вся игра"),
    "drawn": Phrase(
        "{n} mirror classes drawn uniformly (seed {seed}) of {total}",
        "{n} зеркальных классов, выбранных равномерно (зерно {seed}), из {total}",
    ),
    "of_asked": Phrase(
        "the first {n} of {asked} drawn (seed {seed}; a uniform sample too), of {total} mirror classes",
        "первые {n} из {asked} выбранных (зерно {seed}; тоже равномерная выборка), из {total} зеркальных классов",
    ),
    "book": Phrase(
        "{n} mirror classes of a book, of {total}", "{n} зеркальных классов из книги, из {total}"
    ),
    "weighted": Phrase(
        "each weighted by the deals it stands for; 95% intervals (weighted bootstrap, {r} replicates)",
        "каждый с весом числа сдач, которые он представляет; 95% интервалы (взвешенный бутстрэп, {r} повторов)",
    ),
    "payoff": Phrase("payoff {p}: {n} classes", "выплата {p}: {n} классов"),
    "position": Phrase("position", "позиция"),
    "concedes": Phrase("equilibrium concedes", "равновесие уступает"),
    "lays": Phrase("lays", "выкладывает"),
    "support": Phrase("support size", "размер носителя"),
    "median_max": Phrase("median {m}, max {x}", "медиана {m}, максимум {x}"),
    "pure": Phrase("deals with a pure equilibrium", "сдач с чистым равновесием"),
    "seconds": Phrase("solve time per class, s", "время решения класса, с"),
    "largest": Phrase("largest supports", "наибольшие носители"),
    "slowest": Phrase("slowest", "самые долгие"),
    "removed": Phrase("turned-up cards", "открытые карты"),
    "margin": Phrase("margin", "разность очков"),
    "plots": Phrase("charts written", "графики записаны"),
    "win": Phrase("win", "победа"),
}
_BY_NAME = {c.english: c for c in Category}


@dataclass(frozen=True)
class WholeGameRequest:
    """The summary at ``path`` (None: the shipped one), the figures of ``payoff``."""

    payoff: str = "margin"
    path: str | None = None
    plot: str | None = None  # a folder: whole_game.png of every payoff written there


@dataclass(frozen=True)
class SummaryBuildRequest:
    """Summarize the book at ``book`` (None: the default) into ``out``.

    ``sample``/``sample_seed``: the classes ``quintet book build --sample
    --seed`` drew (None: every class of the book); ``seed``: the bootstrap's.
    """

    out: str
    book: str | None = None
    sample: int | None = None
    sample_seed: int = 0
    seed: int = 0


def _say(key: str, lang: Lang | str, **values: Any) -> str:
    return _W[key].text(lang).format(**values)


def _number(n: int, lang: Lang | str) -> str:
    return f"{n:,}".replace(",", "\u00a0" if language(lang) is Lang.RU else ",")


def whole_text(document: dict[str, Any], lang: Lang | str) -> str:
    """The summary for people: its sample, then each payoff's figures with their intervals."""
    sample = document["sample"]
    total = _number(sample["classes_total"], lang)
    n = document["payoffs"][0]["classes"] if document["payoffs"] else 0
    if sample["asked"] is not None and sample.get("prefix") not in (None, sample["asked"]):
        drawn = _say(
            "of_asked", lang, n=_number(n, lang), asked=_number(sample["asked"], lang),
            seed=sample["seed"], total=total,
        )  # fmt: skip
    elif sample["asked"] is not None:
        drawn = _say("drawn", lang, n=_number(n, lang), seed=sample["seed"], total=total)
    else:
        drawn = _say("book", lang, n=_number(n, lang), total=total)
    weighted = _say("weighted", lang, r=sample["bootstrap"]["replicates"])
    lines = [f"{_say('title', lang)}: {drawn}; {weighted}"]
    for block in document["payoffs"]:
        lines.append(
            _say("payoff", lang, p=_say(block["payoff"], lang), n=_number(block["classes"], lang))
        )
        for p in block["positions"]:
            kinds = ", ".join(
                f"{_BY_NAME[name].name_in(lang)} {100 * share['mean']:.0f}%"
                for name, share in p["combinations"].items()
                if share["mean"] >= 0.005
            )
            lines.append(
                f"  {_say('position', lang)} {p['position']}: {_say('concedes', lang)} "
                f"{interval_text(p['concede'], 100, 1)}%; {_say('lays', lang)} {kinds}"
            )
        support = block["support"]
        median_max = _say("median_max", lang, m=f"{support['median']:g}", x=support["max"])
        lines.append(
            f"  {_say('support', lang)}: {interval_text(support, digits=1)} ({median_max})"
        )
        lines.append(f"  {_say('pure', lang)}: {interval_text(block['pure'], 100, 2)}%")
        seconds = block["seconds"]
        spread = _say("median_max", lang, m=f"{seconds['median']:.3f}", x=f"{seconds['max']:.2f}")
        lines.append(f"  {_say('seconds', lang)}: {interval_text(seconds, digits=3)} ({spread})")
        for kind, what in (("support", "largest"), ("slowest", "slowest")):
            deals = block["hardest"][kind][:3]
            shown = "; ".join(
                f"{d['removed']} ({d['support']}, {d['seconds']:.2f} s)" for d in deals
            )
            lines.append(f"  {_say(what, lang)} ({_say('removed', lang)}): {shown}")
    return "\n".join(lines)


def whole_game(request: WholeGameRequest) -> Answer:
    """The summary's figures of one payoff (its damage as warnings)."""
    if request.payoff not in ("margin", "win"):
        raise QuintetError(f"payoff: {request.payoff!r} is not margin or win", argument="payoff")
    found = read_summary(request.path)
    warnings = tuple(Notice(p) for p in found.problems)
    if found.document is None:
        raise BookError("; ".join(found.problems), argument="summary")
    blocks = [b for b in found.document["payoffs"] if b["payoff"] == request.payoff]
    if not blocks:
        raise BookError(
            f"summary: no readable figures of the {request.payoff} payoff", argument="summary"
        )
    written = []
    if request.plot is not None:
        from solver.app.study_plots import write_whole_plot

        check_plot_folder(request.plot)
        written = [write_whole_plot(found.document, Path(request.plot))]
    document = {**found.document, "payoffs": blocks}

    def report(lang: Lang | str) -> Output:
        charts = f"\n{_say('plots', lang)}: {', '.join(written)}" if written else ""
        return Output(whole_text(document, lang) + charts, document)

    return answer_of(report, warnings, kind="summary")


def check_plot_folder(folder: str | None) -> None:
    """Refuse a ``plot`` folder that does not exist, or plotting without matplotlib."""
    if folder is None:
        return
    if not Path(folder).is_dir():
        raise FileError(f"{folder}: not a directory (plot needs an existing directory)")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise QuintetError(
            "plot needs matplotlib: pip install 'quintet-solver[notebooks]'", argument="plot"
        ) from None


def build_summary(request: SummaryBuildRequest) -> Answer:
    """Summarize a book into ``request.out`` (JSON, under 1 MB); the answer is the summary."""
    out = Path(request.out)
    if not out.parent.is_dir():
        raise QuintetError(f"out: {out.parent} is not a directory", argument="out")
    with Book(request.book, create=False, read_only=True) as book:
        document = summarize(
            book, sample=request.sample, sample_seed=request.sample_seed, seed=request.seed
        )
        notices = tuple(
            Notice(n.removesuffix("; it is solved again") + "; left out") for n in book.notices
        )
    size = write_summary(document, out)

    def text(lang: Lang | str) -> Output:
        written = "written to" if language(lang) is Lang.EN else "записано в"
        return Output(f"{whole_text(document, lang)}\n{written} {out} ({size} B)", document)

    return answer_of(text, notices, kind="summary")
