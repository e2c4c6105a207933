"""The report of ``quintet analyze``: summary, worst deals, leaks; its CSV rows.

Leaks split the total equilibrium loss three ways, each adding up to it:

* by position: each deal's loss split by position
  (:func:`solver.analysis.breakdown.breakdown`), with your concession rate
  there against the equilibrium's;
* by combination laid: a position's part goes to the combination you laid
  there, with how many packets of it you laid against equilibrium play's
  expected count;
* by change: a deal's whole loss goes to the kind of its best single change
  (``swap_packets``, ``one_card``, ``two_cards``; ``none`` when no small
  change helps), with what those changes recover.

>>> share(1.0, 0.0), share(1.0, 4.0)
(0.0, 0.25)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from solver.analysis.breakdown import Breakdown, Interval, mean_interval
from solver.analysis.changes import Change
from solver.analysis.grade import Verdict
from solver.app.history import BadLine, PlayedDeal
from solver.app.report import Output
from solver.app.report_grade import verdict_text
from solver.game.cards import format_cards
from solver.game.payloads import arrangement_payload, cards_payload, rules_payload
from solver.game.rules import DEFAULT_RULES, Category
from solver.schemas import FORMATS
from solver.util.language import Lang, Phrase

__all__ = ["CSV_HEADER", "DealResult", "analysis_report", "csv_row", "share"]

CSV_HEADER: list[object] = [
    "line", "seed", "mode", "loss", "verdict", "game_value", "value", "change_kind",
    "change_recovers", "from_book", "position_losses", "arrangement", "holding",
    "opponent_holding",
]  # fmt: skip

_W = {
    "title": Phrase("Analysis of", "Анализ"),
    "deals": Phrase("deals graded", "сдач оценено"),
    "mean": Phrase("mean equilibrium loss", "средняя потеря против равновесия"),
    "interval": Phrase("95% interval", "95% интервал"),
    "verdicts": Phrase("verdicts", "оценки"),
    "trend": Phrase("trend: first half", "динамика: первая половина"),
    "second": Phrase("second half", "вторая половина"),
    "worst": Phrase("worst deals", "худшие сдачи"),
    "seed": Phrase("seed", "зерно"),
    "line": Phrase("line", "строка"),
    "recovers": Phrase("recovers", "возвращает"),
    "no_change": Phrase("no small change helps", "малые изменения не помогают"),
    "by_position": Phrase("leaks by position", "утечки по позициям"),
    "by_combination": Phrase("leaks by combination laid", "утечки по выложенным комбинациям"),
    "by_change": Phrase("leaks by the change that helps", "утечки по виду изменения"),
    "concede": Phrase("you concede", "вы уступаете"),
    "eq_concede": Phrase("equilibrium concedes", "равновесие уступает"),
    "laid": Phrase("you laid", "вы выложили"),
    "eq_laid": Phrase("equilibrium lays", "равновесие выкладывает"),
    "share": Phrase("of the loss", "потери"),
    "interrupted": Phrase("interrupted: deals graded so far", "прервано: оценены не все сдачи"),
    "bad": Phrase("lines skipped", "строк пропущено"),
    "swap_packets": Phrase("swap packets", "обмен пакетов"),
    "one_card": Phrase("exchange one card", "обмен одной карты"),
    "two_cards": Phrase("exchange two cards", "обмен двух карт"),
    "none": Phrase("none", "нет"),
}


_BY_NAME = {c.english: c for c in Category}


def _say(key: str, lang: Lang | str) -> str:
    return _W[key].text(lang)


@dataclass(frozen=True)
class DealResult:
    """One graded deal of a history."""

    deal: PlayedDeal
    loss: float
    verdict: str
    game_value: float
    value: float
    change: Change | None
    parts: Breakdown
    from_book: bool

    @property
    def recovers(self) -> float:
        """What the best single change recovers (0 without one)."""
        return 0.0 if self.change is None else self.loss - self.change.equilibrium_loss

    @property
    def change_kind(self) -> str:
        """The best change's kind, or ``none``."""
        return "none" if self.change is None else self.change.kind.value


def share(part: float, total: float) -> float:
    """``part / total``, 0 when the total is 0."""
    return part / total if total > 0 else 0.0


def _ascii(arrangement: Any) -> str:
    return " | ".join(format_cards(p, ascii=True) for p in arrangement.packets)


def csv_row(result: DealResult) -> list[object]:
    """The CSV row of a graded deal (columns :data:`CSV_HEADER`)."""
    d = result.deal
    return [
        d.line, "" if d.seed is None else d.seed, d.rules.discard_mode.value,
        f"{result.loss:.6f}", result.verdict, f"{result.game_value:.6f}", f"{result.value:.6f}",
        result.change_kind, f"{result.recovers:.6f}", int(result.from_book),
        ";".join(f"{p:.6f}" for p in result.parts.position_loss), _ascii(d.arrangement),
        format_cards(d.mine, ascii=True), format_cards(d.theirs, ascii=True),
    ]  # fmt: skip


def _url(d: PlayedDeal) -> str | None:
    """The main page's link to the deal, in the page's own URL form (``arr``: packets of
    two-letter card codes joined by ``_``; ``grade=1``: graded on opening); seeded deals of
    the standard positions only.

    >>> from solver.game.deal import deal
    >>> from solver.models.heuristics import greedy_arrangement
    >>> laid = greedy_arrangement(deal(1).holdings[0])
    >>> _url(PlayedDeal(1, DEFAULT_RULES, (), (), 1, laid))[:36]
    '/?seed=1&mode=mirror&arr=7c7h7sTsAs_'
    >>> _url(PlayedDeal(1, DEFAULT_RULES, (), (), None, laid)) is None
    True
    """
    if d.seed is None or d.rules.position_points != DEFAULT_RULES.position_points:
        return None
    query: dict[str, object] = {"seed": d.seed, "mode": d.rules.discard_mode.value}
    query["arr"] = "_".join("".join(cards_payload(p)) for p in d.arrangement.packets)
    if d.rules.ace_low_straight:
        query["ace"] = 1
    if d.rules.flush_beats_full_house:
        query["flush"] = 1
    query["grade"] = 1  # the main page grades the arrangement once it is laid out
    return "/?" + urlencode(query)


def _row(result: DealResult) -> dict[str, Any]:
    d, change = result.deal, result.change
    return {
        "line": d.line,
        "seed": d.seed,
        "rules": rules_payload(d.rules),
        "holding": cards_payload(d.mine),
        "opponent_holding": cards_payload(d.theirs),
        "arrangement": arrangement_payload(d.arrangement),
        "loss": result.loss,
        "verdict": result.verdict,
        "game_value": result.game_value,
        "value": result.value,
        "from_book": result.from_book,
        "position_loss": list(result.parts.position_loss),
        "change": None
        if change is None
        else {
            "kind": change.kind.value,
            "positions": list(change.positions),
            "arrangement": arrangement_payload(change.arrangement),
            "loss_after": change.equilibrium_loss,
            "recovers": result.recovers,
        },
        "url": _url(d),
    }


def _interval(values: Sequence[float]) -> dict[str, Any] | None:
    if not values:
        return None
    i: Interval = mean_interval(values)
    return {"deals": i.n, "mean": i.mean, "interval": [i.low, i.high]}


def _summary(results: Sequence[DealResult]) -> dict[str, Any]:
    losses = [r.loss for r in results]
    half = len(losses) // 2
    verdicts = {v.value: 0 for v in Verdict}
    for r in results:
        verdicts[r.verdict] += 1
    return {
        "deals": len(results),
        "total_loss": float(sum(losses)),
        "loss": _interval(losses),
        "verdicts": verdicts,
        "trend": {
            "first_half": _interval(losses[:half]) if half else None,
            "second_half": _interval(losses[half:]) if half else None,
        },
    }


def _position_leaks(results: Sequence[DealResult], total: float) -> list[dict[str, Any]]:
    n = max((len(r.parts.position_loss) for r in results), default=0)
    leaks = []
    for k in range(n):
        at = [r for r in results if len(r.parts.position_loss) > k]
        loss = float(sum(r.parts.position_loss[k] for r in at))
        leaks.append(
            {
                "position": k + 1,
                "loss": loss,
                "share": share(loss, total),
                "concede": sum(r.parts.concede[k] for r in at) / len(at),
                "equilibrium_concede": sum(r.parts.equilibrium_concede[k] for r in at) / len(at),
            }
        )
    return leaks


def _combination_leaks(results: Sequence[DealResult], total: float) -> list[dict[str, Any]]:
    loss = {c: 0.0 for c in Category}
    laid = {c: 0 for c in Category}
    expected = {c: 0.0 for c in Category}
    for r in results:
        for k, kind in enumerate(r.parts.laid):
            loss[kind] += r.parts.position_loss[k]
            laid[kind] += 1
            for other, p in r.parts.equilibrium_laid[k].items():
                expected[other] += p
    rows = [
        {
            "combination": c.english,
            "loss": loss[c],
            "share": share(loss[c], total),
            "laid": laid[c],
            "equilibrium_laid": expected[c],
        }
        for c in Category
        if laid[c] or expected[c] > 0
    ]
    return sorted(rows, key=lambda row: -row["loss"])


def _change_leaks(results: Sequence[DealResult], total: float) -> list[dict[str, Any]]:
    kinds = ("swap_packets", "one_card", "two_cards", "none")
    rows = []
    for kind in kinds:
        mine = [r for r in results if r.change_kind == kind]
        loss = float(sum(r.loss for r in mine))
        rows.append(
            {
                "kind": kind,
                "deals": len(mine),
                "loss": loss,
                "share": share(loss, total),
                "recovers": float(sum(r.recovers for r in mine)),
            }
        )
    return rows


def _document(
    results: Sequence[DealResult], bad: Sequence[BadLine], name: str, top: int, cut: bool, n: int
) -> dict[str, Any]:
    summary = _summary(results)
    total = summary["total_loss"]
    worst = sorted(results, key=lambda r: (-r.loss, r.deal.line))[:top]
    return {
        "format": FORMATS["analysis"],
        "history": name,
        "deals_read": n,
        "interrupted": cut,
        "bad_lines": [{"line": b.line, "reason": b.reason} for b in bad],
        "summary": summary,
        "worst": [_row(r) for r in worst],
        "leaks": {
            "positions": _position_leaks(results, total),
            "combinations": _combination_leaks(results, total),
            "changes": _change_leaks(results, total),
        },
        "rows": [_row(r) for r in results],
    }


def _interval_text(block: dict[str, Any] | None) -> str:
    if block is None:
        return "-"
    low, high = block["interval"]
    return f"{block['mean']:.3f} [{low:.3f}, {high:.3f}] ({block['deals']})"


def _text(doc: dict[str, Any], lang: Lang | str) -> str:
    s = doc["summary"]
    lines = [f"{_say('title', lang)} {doc['history']}: {_say('deals', lang)} {s['deals']}"]
    if doc["interrupted"]:
        lines.append(_say("interrupted", lang))
    if doc["bad_lines"]:
        lines.append(f"{_say('bad', lang)}: {len(doc['bad_lines'])}")
    lines.append(f"{_say('mean', lang)} ({_say('interval', lang)}): {_interval_text(s['loss'])}")
    lines.append(
        f"{_say('verdicts', lang)}: "
        + ", ".join(f"{verdict_text(Verdict(k), lang)} {v}" for k, v in s["verdicts"].items())
    )
    t = s["trend"]
    lines.append(
        f"{_say('trend', lang)} {_interval_text(t['first_half'])}, "
        f"{_say('second', lang)} {_interval_text(t['second_half'])}"
    )
    lines.append(f"{_say('worst', lang)}:")
    for row in doc["worst"]:
        change = row["change"]
        fix = (
            f"{_say(change['kind'], lang)}: {_say('recovers', lang)} {change['recovers']:.3f}"
            if change
            else _say("no_change", lang)
        )
        seed = "" if row["seed"] is None else f" {_say('seed', lang)} {row['seed']}"
        lines.append(
            f"  {_say('line', lang)} {row['line']}{seed}: {row['loss']:.3f} "
            f"{verdict_text(Verdict(row['verdict']), lang)}; {fix}"
        )
    leaks = doc["leaks"]
    lines.append(f"{_say('by_position', lang)}:")
    for p in leaks["positions"]:
        lines.append(
            f"  {p['position']}: {p['loss']:+.3f} ({100 * p['share']:.0f}% {_say('share', lang)}); "
            f"{_say('concede', lang)} {100 * p['concede']:.0f}%, "
            f"{_say('eq_concede', lang)} {100 * p['equilibrium_concede']:.0f}%"
        )
    lines.append(f"{_say('by_combination', lang)}:")
    for c in leaks["combinations"]:
        name = _BY_NAME[c["combination"]]
        label = name.russian if Lang(lang) is Lang.RU else name.english
        lines.append(
            f"  {label}: {c['loss']:+.3f} ({100 * c['share']:.0f}%); {_say('laid', lang)} "
            f"{c['laid']}, {_say('eq_laid', lang)} {c['equilibrium_laid']:.1f}"
        )
    lines.append(f"{_say('by_change', lang)}:")
    for c in leaks["changes"]:
        lines.append(
            f"  {_say(c['kind'], lang)}: {c['deals']}, {c['loss']:.3f} ({100 * c['share']:.0f}%), "
            f"{_say('recovers', lang)} {c['recovers']:.3f}"
        )
    return "\n".join(lines)


def analysis_report(
    results: Sequence[DealResult],
    bad: Sequence[BadLine],
    name: str,
    top: int,
    interrupted: bool,
    read: int,
    lang: Lang | str,
) -> Output:
    """The analysis as text in ``lang`` and as the ``quintet-analysis/1`` document."""
    doc = _document(results, bad, name, top, interrupted, read)
    return Output(_text(doc, lang), doc)
