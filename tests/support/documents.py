"""A JSON document checked against the schema of the format it names (format checking on)."""

from __future__ import annotations

from typing import Any

import jsonschema

from solver.schemas import schema


def errors_of(document: Any, expected: str) -> list[str]:
    """Where ``document`` disagrees with the schema of ``expected`` (formats checked too)."""
    validator = jsonschema.Draft202012Validator(
        schema(expected), format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(document)]


def valid(document: Any, expected: str) -> None:
    """``document`` names the format ``expected`` and is valid under its schema."""
    assert isinstance(document, dict) and document.get("format") == expected, document
    errors = errors_of(document, expected)
    assert not errors, errors[:5]
