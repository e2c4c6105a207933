"""The prose of the documentation says the numbers of the tables it describes.

A paragraph after ``<!-- numbers: the table above -->`` (and a blank line) may
only use numbers of the nearest table before the marker (a fenced block or a
markdown table), each as the table writes it, to the same decimals (rounded,
a number would too easily be some other cell's); a number written with a sign
keeps the table's sign.  A rerun that changes the
table without the prose, or prose edited by hand, fails here.
"""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PAGES = sorted([REPO / "README.md", *(REPO / "docs").rglob("*.md")])
MARKER = "<!-- numbers: the table above -->"

# A number: an optional sign (not a hyphen inside a word), digits with thousands commas, decimals.
NUMBER = re.compile(r"(?<![\w.])([+\-−]?)(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?(?![\d])")


def numbers(text: str) -> list[tuple[str, Decimal, int]]:
    """Each number of ``text``: as written, its value (signed), its decimals.

    >>> [(w, str(v), d) for w, v, d in numbers("eq-win: −0.26 [−0.50, +0.01], 52.8%, 1,000 deals")]
    [('−0.26', '-0.26', 2), ('−0.50', '-0.50', 2), ('+0.01', '0.01', 2), ('52.8', '52.8', 1), ('1,000', '1000', 0)]
    """
    found = []
    for match in NUMBER.finditer(text):
        sign, whole, decimals = match.groups()
        value = Decimal(whole.replace(",", "") + (f".{decimals}" if decimals else ""))
        found.append(
            (match.group(0), -value if sign in "-−" and sign else value, len(decimals or ""))
        )
    return found


def agrees(written: str, value: Decimal, decimals: int, table: list[tuple[Decimal, int]]) -> bool:
    """Whether a number of the prose is one of the table's, to the same decimals."""
    signed = written[0] in "+-−"
    mine = value if signed else abs(value)
    return any(
        (entry if signed else abs(entry)) == mine and places == decimals for entry, places in table
    )


def described(page: str) -> list[tuple[int, str, str]]:
    """Each marked paragraph of ``page``: its line, its text, and the table before it."""
    lines = page.splitlines()
    found = []
    for index, line in enumerate(lines):
        if line.strip() != MARKER:
            continue
        start = index + 1
        while start < len(lines) and not lines[start].strip():
            start += 1
        end = start
        while end < len(lines) and lines[end].strip():
            end += 1
        found.append((start + 1, "\n".join(lines[start:end]), _table_before(lines, index)))
    return found


def _table_before(lines: list[str], index: int) -> str:
    """The nearest fenced block or markdown table above line ``index``."""
    end = index - 1
    while end >= 0 and not (lines[end].startswith("```") or lines[end].startswith("|")):
        end -= 1
    assert end >= 0, f"no table above the marker of line {index + 1}"
    if lines[end].startswith("|"):
        start = end
        while start > 0 and lines[start - 1].startswith("|"):
            start -= 1
        return "\n".join(lines[start : end + 1])
    start = end - 1
    while start >= 0 and not lines[start].startswith("```"):
        start -= 1
    return "\n".join(lines[start + 1 : end])


def disagreements(prose: str, table: str) -> list[str]:
    """The numbers of ``prose`` that are none of ``table``'s.

    >>> disagreements("+0.16, 49.0% to 42.1%, 0.39", "42.1% 8.8% 49.0% +0.16 [-0.06, +0.39]")
    []
    >>> disagreements("+0.32 (49% to 42.1%), −0.16", "42.1% 8.8% 49.0% +0.16 [-0.06, +0.39] 0.323")
    ['+0.32', '49', '−0.16']
    """
    values = [(value, decimals) for _, value, decimals in numbers(table)]
    return [w for w, v, d in numbers(prose) if not agrees(w, v, d, values)]


MARKED = [
    (f"{path.relative_to(REPO)}:{line}", prose, table)
    for path in PAGES
    for line, prose, table in described(path.read_text(encoding="utf-8"))
]


def test_the_tournament_prose_of_usage_is_marked():
    assert any(where.startswith("docs/usage.md") and "eq-margin" in p for where, p, _ in MARKED)


@pytest.mark.parametrize(("where", "prose", "table"), MARKED, ids=[m[0] for m in MARKED])
def test_every_number_of_a_marked_paragraph_is_its_tables(where, prose, table):
    assert disagreements(prose, table) == [], where


def test_the_prose_that_was_wrong_is_caught():
    """The usage page's paragraph as it stood before issue #39, against the same table."""
    table = next(t for w, p, t in MARKED if w.startswith("docs/usage.md") and "eq-margin" in p)
    old = (
        "against `eq-win`: +0.32 points a deal, in the margin that `eq-margin` maximizes, while "
        "`eq-win`, which plays for the game, wins more of those games (48% to 43%). The closest "
        "of the rest are greedy play against `eq-win` (−0.35, losing 53% of the games to 45%) "
        "and the house against `eq-margin` (−0.43)."
    )
    assert disagreements(old, table) == ["+0.32", "48", "43", "−0.35", "53", "45", "−0.43"]
