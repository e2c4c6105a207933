"""The JSON formats as a Markdown page (the docs site's page), rendered from the schema files.

>>> page = formats_page()
>>> page.startswith("# JSON formats") and "## `quintet-suggest/1`" in page
True
>>> property_rows({"properties": {"n": {"type": "integer"}}, "required": ["n"]})
['| `n` | integer | yes |  |']
"""

from __future__ import annotations

import json
from typing import Any

from solver.schemas import FORMATS, schema

__all__ = ["formats_page", "property_rows"]


def _type(spec: dict[str, Any]) -> str:
    """A property's type in a few words."""
    if "$ref" in spec:
        return spec["$ref"].rsplit("/", 1)[-1]
    if "const" in spec:
        return f"`{json.dumps(spec['const'])}`"
    if "enum" in spec:
        return " \\| ".join(f"`{json.dumps(v)}`" for v in spec["enum"])
    for key in ("anyOf", "oneOf"):
        if key in spec:
            return " or ".join(_type(s) for s in spec[key])
    kind = spec.get("type", "any")
    kind = " or ".join(kind) if isinstance(kind, list) else kind
    if kind == "array" and isinstance(spec.get("items"), dict):
        return f"array of {_type(spec['items'])}"
    return str(kind)


def property_rows(document: dict[str, Any]) -> list[str]:
    """One table row per top-level property: name, type, required, description."""
    required = set(document.get("required", ()))
    return [
        f"| `{name}` | {_type(spec)} | {'yes' if name in required else ''} | "
        f"{spec.get('description', '')} |"
        for name, spec in document.get("properties", {}).items()
    ]


def formats_page() -> str:
    """Every format: what emits it, its top-level keys and the whole schema."""
    lines = [
        "# JSON formats",
        "",
        "Every document `quintet COMMAND --json` prints, the web API answers or a file holds "
        'names its format and version first: `"format": "quintet-KIND/N"`. The schemas '
        "(JSON Schema, draft 2020-12) ship in the package, `solver/schemas/KIND.schema.json` "
        '(`solver.schemas.schema("quintet-suggest/1")`), and the tests validate every '
        "document the command line and the web API emit against them. This page is rendered "
        "from those files when the site is built.",
    ]
    for name in FORMATS.values():
        document = schema(name)
        lines += ["", f"## `{name}`", "", document.get("description", ""), ""]
        variants = document.get("oneOf", [document])
        for variant in variants:
            if len(variants) > 1:
                lines += [f"**{variant.get('title', '')}**", ""]
            lines += ["| key | type | required | meaning |", "|---|---|---|---|"]
            lines += [*property_rows(variant), ""]
        lines += ["```json", json.dumps(document, indent=2, ensure_ascii=False), "```"]
    return "\n".join(lines) + "\n"
