"""Reports of the solution book: builds, statistics, and where an answer came from."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solver.app.report import Output
from solver.app.text import say
from solver.book.check import BookCheck
from solver.game.payloads import rules_payload
from solver.game.rules import Category
from solver.util.language import Lang, Phrase, language

if TYPE_CHECKING:  # not at run time: the book build imports the process pool and the cluster
    from solver.book.build import BuildProgress, BuildSummary
    from solver.book.estimate import BuildEstimate
    from solver.book.stats import GameStats

__all__ = [
    "build_report",
    "check_report",
    "progress_line",
    "rate_line",
    "source_line",
    "source_report",
    "stats_report",
]

_SOURCE = {
    "unused": Phrase("book: not used (--no-book)", "книга решений: не используется (--no-book)"),
    "from": Phrase("book: from {path}", "книга решений: из {path}"),
    "solved": Phrase(
        "book: solved, stored in {path}", "книга решений: решено сейчас, сохранено в {path}"
    ),
    "unstored": Phrase(
        "book: solved, not stored in {path} (see the warning)",
        "книга решений: решено сейчас, не сохранено в {path} (см. предупреждение)",
    ),
}


# The words of build, stats and check (English as they have always been).
_BOOK = {
    "built": Phrase(
        "book {path}: {asked} asked (deals x payoffs), {before} already stored, "
        "{solved} solved in {duration}",
        "книга решений {path}: запрошено {asked} (сдачи x платежи), уже было {before}, "
        "решено {solved} за {duration}",
    ),
    "holds": Phrase("book {path}: {deals} solutions", "книга решений {path}: решений {deals}"),
    "game": Phrase(
        "{mode} ({points} points), {payoff} payoff: {deals} of {classes} classes ({share}%), "
        "standing for {deal_share}% of all deals",
        "{mode} (очки {points}), платёж «{payoff}»: {deals} из {classes} классов ({share}%), "
        "это {deal_share}% всех сдач",
    ),
    "times": Phrase(
        "  solve time: total {total}, mean {mean} s, median {median} s, 90% {p90} s, max {max} s",
        "  время решения: всего {total}, среднее {mean} s, медиана {median} s, 90% {p90} s, "
        "максимум {max} s",
    ),
    "support": Phrase(
        "  support sizes: median {row} / {column}, max {row_max} / {column_max} "
        "(player 1 / player 2)",
        "  размеры носителей: медиана {row} / {column}, максимум {row_max} / {column_max} "
        "(игрок 1 / игрок 2)",
    ),
    "gap": Phrase(
        "  stored gap at most {gap} (book check recomputes each); converged {converged}%",
        "  записанный зазор не больше {gap} (проверка книги пересчитывает каждый); "
        "сходимость достигнута в {converged}%",
    ),
    "ex_ante": Phrase(
        "  ex ante, weighted by orbit size (player 1):",
        "  априори, с весами по размеру орбит (игрок 1):",
    ),
    "position": Phrase(
        "    position {position} ({points} points): conceded {conceded}%; {top}",
        "    позиция {position} ({points} очк.): уступает {conceded}%; {top}",
    ),
    "value": Phrase(
        "  game value: mean {mean}, 10% {p10}, median {median}, 90% {p90} (min {min}, max {max})",
        "  цена игры: среднее {mean}, 10% {p10}, медиана {median}, 90% {p90} "
        "(минимум {min}, максимум {max})",
    ),
    "path": Phrase("book: {path}", "книга решений: {path}"),
    "rows": Phrase("rows: {rows}", "строк: {rows}"),
    "integrity": Phrase("integrity: ", "целостность: "),
    "ok": Phrase("ok", "в порядке"),
    "problems": Phrase("PROBLEMS", "ЕСТЬ ПРОБЛЕМЫ"),
    "damaged": Phrase("damaged rows: {n}", "повреждённых строк: {n}"),
    "sound": Phrase("the book is sound", "книга решений в порядке"),
    "unsound": Phrase(
        "the book has problems (see above)", "в книге решений есть проблемы (см. выше)"
    ),
}
_BY_NAME = {kind.english: kind for kind in Category}


def _say(key: str, lang: Lang | str, **values: Any) -> str:
    return _BOOK[key].text(lang).format(**values)


def _duration(duration: float) -> str:
    """``1h02m``, ``3m05s`` or ``12s``.

    >>> _duration(3725), _duration(185), _duration(12.4)
    ('1h02m', '3m05s', '12s')
    """
    seconds = round(duration)
    if seconds >= 3600:
        return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"
    if seconds >= 60:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds}s"


def progress_line(progress: BuildProgress) -> str:
    """The build's progress: units done, rate and time left.

    >>> from solver.book.build import BuildEstimate, BuildProgress
    >>> progress_line(BuildProgress(done=10, total=40, seconds=20.0))
    '10/40 solved, 1800 per hour, 1m00s left'
    """
    return rate_line(progress.done, progress.total, progress.seconds, "solved")


def estimate_line(estimate: BuildEstimate) -> str:
    """The build's cost before it starts (stderr, English: a log line).

    >>> from solver.book.estimate import BuildEstimate
    >>> estimate_line(BuildEstimate(100, 200, 90.0, 2, 2.5e6, "margin: the shipped summary"))
    'estimate: 100 classes x 0.900 s per class / 2 workers = 45s (1m30s of solving); disk 2.5 MB (margin: the shipped summary)'
    """
    per_class = estimate.cpu_seconds / estimate.classes if estimate.classes else 0.0
    if per_class != per_class:  # NaN: no measure of these payoffs
        time = "time unknown"
    else:
        time = (
            f"{per_class:.3f} s per class / {estimate.workers} worker"
            f"{'s' if estimate.workers > 1 else ''} = {_duration(estimate.wall_seconds)} "
            f"({_duration(estimate.cpu_seconds)} of solving)"
        )
    disk = estimate.disk_bytes
    size = f"{disk / 1e9:.1f} GB" if disk >= 1e9 else f"{disk / 1e6:.1f} MB"
    return f"estimate: {estimate.classes:,} classes x {time}; disk {size} ({estimate.source})"


def rate_line(done: int, total: int, seconds: float, what: str) -> str:
    """``done/total WHAT``, the rate per hour and the time left at that rate.

    >>> rate_line(25, 100, 50.0, "deals")
    '25/100 deals, 1800 per hour, 2m30s left'
    >>> rate_line(0, 100, 0.0, "deals")
    '0/100 deals, 0 per hour, ? left'
    """
    rate = done / seconds if seconds > 0 else 0.0
    eta = "?" if rate <= 0 else _duration((total - done) / rate)
    return f"{done}/{total} {what}, {3600 * rate:.0f} per hour, {eta} left"


def build_report(summary: BuildSummary, path: Path, lang: Lang | str = Lang.EN) -> Output:
    """What a build did."""
    text = _say(
        "built",
        lang,
        path=path,
        asked=summary.asked,
        before=summary.stored_before,
        solved=summary.solved,
        duration=_duration(summary.seconds),
    )
    payload = {
        "book": str(path),
        "asked": summary.asked,
        "stored_before": summary.stored_before,
        "solved": summary.solved,
        "seconds": summary.seconds,
    }
    return Output(text, payload)


def _game_payload(stats: GameStats) -> dict[str, Any]:
    return {
        "rules": rules_payload(stats.rules),
        "payoff": stats.payoff.value,
        "deals": stats.deals,
        "classes": stats.classes,
        "class_share": stats.class_share,
        "deal_share": stats.deal_share,
        "seconds": stats.seconds,
        "support": stats.support,
        "max_gap": stats.max_gap,
        "converged_share": stats.converged_share,
        "concede_by_position": list(stats.concede),
        "combinations_by_position": list(stats.combinations),
        "value": stats.value,
    }


def _mode_and_payoff(stats: GameStats, lang: Lang | str) -> tuple[str, str]:
    """``mirror`` and ``margin`` (the names the options take), or their Russian words."""
    mode, payoff = stats.rules.discard_mode.value, stats.payoff.value
    if language(lang) is Lang.EN:
        return mode, payoff
    return say(mode, lang), say(f"payoff_{payoff}", lang)


def _game_lines(stats: GameStats, lang: Lang | str) -> list[str]:
    rules = stats.rules
    mode, payoff = _mode_and_payoff(stats, lang)
    seconds, support = stats.seconds, stats.support
    lines = [
        _say(
            "game",
            lang,
            mode=mode,
            points="-".join(str(p) for p in rules.position_points),
            payoff=payoff,
            deals=f"{stats.deals:,}",
            classes=f"{stats.classes:,}",
            share=f"{100 * stats.class_share:.4g}",
            deal_share=f"{100 * stats.deal_share:.4g}",
        ),
        _say(
            "times",
            lang,
            total=_duration(seconds["total"]),
            **{k: f"{seconds[k]:.2f}" for k in ("mean", "median", "p90", "max")},
        ),
        _say(
            "support",
            lang,
            **{k: f"{support[k + '_median']:g}" for k in ("row", "column")},
            **{f"{k}_max": f"{support[k + '_max']:g}" for k in ("row", "column")},
        ),
        _say(
            "gap",
            lang,
            gap=f"{stats.max_gap:.2g}",
            converged=f"{100 * stats.converged_share:.4g}",
        ),
        _say("ex_ante", lang),
    ]
    for position, (concede, kinds) in enumerate(
        zip(stats.concede, stats.combinations, strict=True), start=1
    ):
        top = ", ".join(
            f"{_BY_NAME[name].name_in(lang) if name in _BY_NAME else name} {100 * share:.1f}%"
            for name, share in list(kinds.items())[:4]
        )
        lines.append(
            _say(
                "position",
                lang,
                position=position,
                points=rules.position_points[position - 1],
                conceded=f"{100 * concede:.1f}",
                top=top,
            )
        )
    value = {k: f"{v:.4g}" for k, v in stats.value.items()}
    lines.append(_say("value", lang, **value))
    return lines


def stats_report(games: list[GameStats], path: Path, lang: Lang | str = Lang.EN) -> Output:
    """Statistics of every game in the book."""
    lines = [_say("holds", lang, path=path, deals=f"{sum(g.deals for g in games):,}")]
    for stats in games:
        lines.extend(_game_lines(stats, lang))
    payload = {
        "book": str(path),
        "deals": sum(g.deals for g in games),
        "games": [_game_payload(g) for g in games],
    }
    return Output("\n".join(lines), payload)


def source_line(
    path: Path | None, from_book: bool, stored: bool = True, lang: Lang | str = Lang.EN
) -> str:
    """Where an equilibrium came from: the book, or solved (and stored, when it could be), in ``lang``.

    >>> source_line(Path("b.sqlite"), True), source_line(None, False)
    ('book: from b.sqlite', 'book: not used (--no-book)')
    >>> source_line(Path("b.sqlite"), False, stored=False)
    'book: solved, not stored in b.sqlite (see the warning)'
    >>> source_line(Path("b.sqlite"), False, lang="ru")
    'книга решений: решено сейчас, сохранено в b.sqlite'
    >>> source_line(None, False, lang="fr")
    Traceback (most recent call last):
        ...
    solver.errors.QuintetError: lang 'fr' is not one of: en, ru
    """
    lang = language(lang)
    if path is None:
        return _SOURCE["unused"].text(lang)
    key = "from" if from_book else "solved" if stored else "unstored"
    return _SOURCE[key].text(lang).format(path=path)


def source_report(
    output: Output,
    path: Path | None,
    from_book: bool,
    stored: bool = True,
    lang: Lang | str = Lang.EN,
) -> Output:
    """A report with where its equilibrium came from: the book, or solved (and stored)."""
    book = None if path is None else {"path": str(path), "from_book": from_book, "stored": stored}
    text = f"{output.text}\n{source_line(path, from_book, stored, lang)}"
    return replace(output, text=text, payload={**output.payload, "book": book})


def check_report(found: BookCheck, lang: Lang | str = Lang.EN) -> Output:
    """What ``book check`` found: SQLite's integrity check and the damaged rows."""
    lines = [_say("path", lang, path=found.path), _say("rows", lang, rows=found.rows)]
    sound = found.integrity == ("ok",)
    lines.append(_say("integrity", lang) + _say("ok" if sound else "problems", lang))
    lines += [f"  {line}" for line in found.integrity if line != "ok"]
    lines.append(_say("damaged", lang, n=len(found.damaged)))
    lines += [f"  {why}" for _key, why in found.damaged]
    lines.append(_say("sound" if found.ok else "unsound", lang))
    payload = {
        "path": str(found.path),
        "rows": found.rows,
        "integrity": list(found.integrity),
        "damaged": [{"deal": key, "why": why} for key, why in found.damaged],
        "ok": found.ok,
    }
    return Output("\n".join(lines), payload)
