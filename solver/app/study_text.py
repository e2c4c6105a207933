"""The text of ``quintet report`` (English and Russian): the sample first, every mean with its interval.

>>> sample_line({"kind": "seeded", "deals": 3, "read": 3, "where": "all deals",
...              "coverage": None, "weight": 3.0}, "en")
'sample: 3 seeded deals (all deals; 3 read)'
"""

from __future__ import annotations

from typing import Any

from solver.game.rules import Category
from solver.util.language import Lang, Phrase

__all__ = ["interval_text", "sample_line", "study_text"]

_W = {
    "sample": Phrase("sample", "выборка"),
    "seeded": Phrase("seeded deals", "сдач по зерну"),
    "book": Phrase("deal classes of the book", "классов сдач из книги"),
    "coverage": Phrase("covering", "покрывают"),
    "of_all": Phrase("of all deals", "всех сдач"),
    "all deals": Phrase("all deals", "все сдачи"),
    "read": Phrase("read", "прочитано"),
    "position": Phrase("position", "позиция"),
    "concedes": Phrase("equilibrium concedes", "равновесие уступает"),
    "lays": Phrase("lays", "выкладывает"),
    "support": Phrase("support size", "размер носителя"),
    "top": Phrase("top arrangement's probability", "вероятность главной раскладки"),
    "value": Phrase("game value", "цена игры"),
    "none": Phrase("no deal matches", "нет подходящих сдач"),
    "plots": Phrase("charts written", "графики записаны"),
}
_BY_NAME = {c.english: c for c in Category}


def _say(key: str, lang: Lang | str) -> str:
    return _W[key].text(lang)


def interval_text(block: dict[str, Any], scale: float = 1.0, digits: int = 3) -> str:
    """``mean [low, high]``."""
    low, high = block["interval"]
    return (
        f"{scale * block['mean']:.{digits}f} [{scale * low:.{digits}f}, {scale * high:.{digits}f}]"
    )


def sample_line(sample: dict[str, Any], lang: Lang | str) -> str:
    """What the report covers, in words."""
    text = f"{_say('sample', lang)}: {sample['deals']} {_say(sample['kind'], lang)}"
    where = sample["where"]  # a --where expression as typed, or "all deals" when none
    details = [_say(where, lang) if where == "all deals" else where]
    if sample["coverage"] is not None:
        details.append(
            f"{_say('coverage', lang)} {100 * sample['coverage']:.4g}% {_say('of_all', lang)}"
        )
    details.append(f"{sample['read']} {_say('read', lang)}")
    return f"{text} ({'; '.join(details)})"


def _combination(name: str, lang: Lang | str) -> str:
    c = _BY_NAME[name]
    return c.russian if Lang(lang) is Lang.RU else c.english


def study_text(doc: dict[str, Any], lang: Lang | str) -> str:
    """The report for people."""
    lines = [sample_line(doc["sample"], lang)]
    if not doc["positions"]:
        return "\n".join([*lines, _say("none", lang)])
    for p in doc["positions"]:
        combos = ", ".join(
            f"{_combination(n, lang)} {100 * s:.0f}%"
            for n, s in p["combinations"].items()
            if s >= 0.005
        )
        lines.append(
            f"{_say('position', lang)} {p['position']}: {_say('concedes', lang)} "
            f"{interval_text(p['concede'], 100, 1)}%; {_say('lays', lang)} {combos}"
        )
    lines.append(f"{_say('support', lang)}: {interval_text(doc['support'], digits=2)}")
    lines.append(f"{_say('top', lang)}: {interval_text(doc['top_probability'])}")
    if doc["value"] is not None:
        lines.append(f"{_say('value', lang)}: {interval_text(doc['value'])}")
    if doc.get("plots"):
        lines.append(f"{_say('plots', lang)}: {', '.join(doc['plots'])}")
    return "\n".join(lines)
