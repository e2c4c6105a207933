"""Reports of the solution book: builds, statistics, and where an answer came from."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solver.app.report import Output
from solver.book.check import BookCheck
from solver.game.payloads import rules_payload
from solver.util.language import Lang, Phrase, language

if TYPE_CHECKING:  # not at run time: the book build imports the process pool and the cluster
    from solver.book.build import BuildProgress, BuildSummary
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

    >>> from solver.book.build import BuildProgress
    >>> progress_line(BuildProgress(done=10, total=40, seconds=20.0))
    '10/40 solved, 1800 per hour, 1m00s left'
    """
    return rate_line(progress.done, progress.total, progress.seconds, "solved")


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


def build_report(summary: BuildSummary, path: Path) -> Output:
    """What a build did."""
    text = (
        f"book {path}: {summary.asked} asked (deals x payoffs), {summary.stored_before} "
        f"already stored, {summary.solved} solved in {_duration(summary.seconds)}"
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


def _game_lines(stats: GameStats) -> list[str]:
    rules = stats.rules
    points = "-".join(str(p) for p in rules.position_points)
    lines = [
        f"{rules.discard_mode.value} ({points} points), {stats.payoff.value} payoff: "
        f"{stats.deals:,} of {stats.classes:,} classes ({100 * stats.class_share:.4g}%), "
        f"standing for {100 * stats.deal_share:.4g}% of all deals",
        f"  solve time: total {_duration(stats.seconds['total'])}, mean "
        f"{stats.seconds['mean']:.2f} s, median {stats.seconds['median']:.2f} s, "
        f"90% {stats.seconds['p90']:.2f} s, max {stats.seconds['max']:.2f} s",
        f"  support sizes: median {stats.support['row_median']:g} / "
        f"{stats.support['column_median']:g}, max {stats.support['row_max']:g} / "
        f"{stats.support['column_max']:g} (player 1 / player 2)",
        f"  certified gap at most {stats.max_gap:.2g}; converged {100 * stats.converged_share:.4g}%",
        "  ex ante, weighted by orbit size (player 1):",
    ]
    for position, (concede, kinds) in enumerate(
        zip(stats.concede, stats.combinations, strict=True), start=1
    ):
        top = ", ".join(f"{name} {100 * share:.1f}%" for name, share in list(kinds.items())[:4])
        lines.append(
            f"    position {position} ({rules.position_points[position - 1]} points): "
            f"conceded {100 * concede:.1f}%; {top}"
        )
    value = stats.value
    lines.append(
        f"  game value: mean {value['mean']:.4g}, 10% {value['p10']:.4g}, median "
        f"{value['median']:.4g}, 90% {value['p90']:.4g} (min {value['min']:.4g}, "
        f"max {value['max']:.4g})"
    )
    return lines


def stats_report(games: list[GameStats], path: Path) -> Output:
    """Statistics of every game in the book."""
    lines = [f"book {path}: {sum(g.deals for g in games):,} solutions"]
    for stats in games:
        lines.extend(_game_lines(stats))
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


def check_report(found: BookCheck) -> Output:
    """What ``book check`` found: SQLite's integrity check and the damaged rows."""
    lines = [f"book: {found.path}", f"rows: {found.rows}"]
    lines.append("integrity: " + ("ok" if found.integrity == ("ok",) else "PROBLEMS"))
    lines += [f"  {line}" for line in found.integrity if line != "ok"]
    lines.append(f"damaged rows: {len(found.damaged)}")
    lines += [f"  {why}" for _key, why in found.damaged]
    lines.append("the book is sound" if found.ok else "the book has problems (see above)")
    payload = {
        "path": str(found.path),
        "rows": found.rows,
        "integrity": list(found.integrity),
        "damaged": [{"deal": key, "why": why} for key, why in found.damaged],
        "ok": found.ok,
    }
    return Output("\n".join(lines), payload)
