"""The JSON documents' formats: their names, versions and JSON Schema files.

Every document the command line prints with ``--json``, the web API answers
or a file holds carries ``"format": "quintet-KIND/N"``; :data:`FORMATS` is the
one table of those names (the application layer stamps them, the tests
validate every emitted document against the schema named here, the
documentation renders the schemas).  A schema is a file of this package,
``KIND.schema.json`` (JSON Schema, draft 2020-12).

>>> FORMATS["suggest"]
'quintet-suggest/1'
>>> schema("quintet-mixture/1")["title"]
'quintet-mixture/1'
>>> schema("quintet-nothing/1")
Traceback (most recent call last):
    ...
KeyError: "no schema for format 'quintet-nothing/1'"
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

__all__ = ["FORMATS", "schema", "schema_file", "versioned"]

# document kind -> its format name, version included.  A new document gets a
# line here and a KIND.schema.json file beside this module; a changed
# document (a key removed or its meaning changed) gets the next version.
FORMATS: dict[str, str] = {
    "eval": "quintet-eval/1",
    "deal": "quintet-deal/1",
    "score": "quintet-score/1",
    "suggest": "quintet-suggest/1",
    "equilibrium": "quintet-equilibrium/1",
    "grade": "quintet-grade/1",
    "house": "quintet-house/1",
    "house-mixed": "quintet-house-mixed/1",
    "play": "quintet-play/1",
    "tournament": "quintet-tournament/1",
    "book-build": "quintet-book-build/1",
    "book-stats": "quintet-book-stats/1",
    "book-check": "quintet-book-check/1",
    "analysis": "quintet-analysis/1",
    "report": "quintet-report/1",
    "certificate": "quintet-certificate/1",
    "players": "quintet-players/1",
    "mixture": "quintet-mixture/1",
    "train": "quintet-train/1",
    "summary": "quintet-summary/1",
}


def versioned(kind: str, document: dict[str, Any]) -> dict[str, Any]:
    """``document`` with its ``"format"`` first.

    >>> versioned("eval", {"strength": 839})
    {'format': 'quintet-eval/1', 'strength': 839}
    """
    return {"format": FORMATS[kind], **document}


def schema_file(format_name: str) -> str:
    """The file name of the schema of ``format_name`` (``quintet-KIND/N``).

    >>> schema_file("quintet-book-stats/1")
    'book-stats.schema.json'
    """
    kinds = {name: kind for kind, name in FORMATS.items()}
    if format_name not in kinds:
        raise KeyError(f"no schema for format {format_name!r}")
    return f"{kinds[format_name]}.schema.json"


def schema(format_name: str) -> dict[str, Any]:
    """The JSON Schema of the documents of ``format_name``, read from the package."""
    # Beside this module (importlib.resources would cost a command 7 ms of imports).
    text = (Path(__file__).parent / schema_file(format_name)).read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded
