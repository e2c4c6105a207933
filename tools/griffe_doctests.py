"""A Griffe extension for the API reference: the docstrings' doctests as numpy Examples sections.

The project's docstrings put their doctests after the text (and after a
``Parameters`` section) without an ``Examples`` heading; the numpy parser
would render them as prose.  This adds the heading before the first ``>>>``
of a docstring that has no ``Examples`` section, so every doctest is shown
as code.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

FIRST_PROMPT = re.compile(r"^([ \t]*)>>> ", re.MULTILINE)
HEADING = re.compile(r"^[ \t]*Examples?\n[ \t]*-{3,}", re.MULTILINE)


def with_examples_heading(text: str) -> str:
    """``text`` with ``Examples`` / ``--------`` before its first doctest (if it has none)."""
    if HEADING.search(text) is not None:
        return text
    match = FIRST_PROMPT.search(text)
    if match is None:
        return text
    indent = match.group(1)
    return f"{text[: match.start()]}{indent}Examples\n{indent}--------\n{text[match.start() :]}"


class DoctestExamples(griffe.Extension):
    """Rewrite each docstring as it is loaded."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = with_examples_heading(obj.docstring.value)
