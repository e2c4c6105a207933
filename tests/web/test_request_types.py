"""The request bodies accept what the OpenAPI document calls valid, and nothing else.

JSON Schema counts ``35987.0`` as an integer and refuses ``true`` for one; the
server agrees, field by field, for every integer and number property of every
request model in the document (read from ``/openapi.json``, so a new field is
covered without a new test).  Bounds are stated where the server checks them,
and stated exactly.
"""

from __future__ import annotations

import sys
import warnings
from typing import Any

import jsonschema
import pytest
from pydantic import BaseModel, ValidationError

from solver.app.limits import MAX_SEED, MAX_TOP
from solver.web import analysis_api, api, duel_api
from solver.web.app import create_app
from solver.web.fields import Body

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", message="Using `httpx`")
    from fastapi.testclient import TestClient

MODELS: dict[str, type[BaseModel]] = {
    name: model
    for module in (api, analysis_api, duel_api)
    for name, model in vars(module).items()
    if isinstance(model, type) and issubclass(model, BaseModel) and name.endswith("In")
}


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    with TestClient(create_app()) as client:
        openapi: dict[str, Any] = client.get("/openapi.json").json()
    return openapi


def _variants(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """A property's schema, or each non-null variant of an ``anyOf`` (an optional field)."""
    return [s for s in spec.get("anyOf", [spec]) if s.get("type") != "null"]


def _fields(document: dict[str, Any], kind: str) -> list[tuple[str, str, dict[str, Any]]]:
    """(model, field, schema) of every request field the document types as ``kind``."""
    schemas = document["components"]["schemas"]
    assert {name for name in schemas if name.endswith("In")} <= set(MODELS)
    return [
        (model, name, variant)
        for model in MODELS
        if model in schemas  # RulesIn is only a base
        for name, spec in schemas[model]["properties"].items()
        for variant in _variants(spec)
        if variant.get("type") == kind
    ]


def _field_errors(model: str, name: str, value: Any) -> list[dict[str, Any]]:
    """The validation errors of ``value`` for the field ``name`` of ``model`` (others ignored)."""
    try:
        MODELS[model].model_validate({name: value})
    except ValidationError as error:
        return [e for e in error.errors() if e["loc"][:1] == (name,)]
    return []


def test_every_request_model_is_a_strict_body():
    assert set(MODELS) >= {"EvalIn", "DealIn", "SuggestIn", "EquilibriumIn", "AnalyzeIn"}
    assert all(issubclass(model, Body) for model in MODELS.values()), MODELS


def test_integer_fields_take_integral_floats_and_refuse_booleans_and_fractions(document):
    fields = _fields(document, "integer")
    assert {(m, n) for m, n, _ in fields} >= {("DealIn", "seed"), ("AnalyzeIn", "top")}
    for model, name, spec in fields:
        value = spec["minimum"]  # every integer field has one (the next test)
        validator = jsonschema.Draft202012Validator(spec)
        assert validator.is_valid(float(value)) and not validator.is_valid(True)
        assert _field_errors(model, name, value) == [], (model, name)
        assert _field_errors(model, name, float(value)) == [], (model, name, float(value))
        for refused in (True, False, value + 0.5, str(value)):
            assert not validator.is_valid(refused)
            assert _field_errors(model, name, refused), (model, name, refused)


def test_integer_bounds_are_stated_exactly_and_enforced(document):
    for model, name, spec in _fields(document, "integer"):
        bounds = {k: v for k, v in spec.items() if k.endswith(("imum", "Maximum"))}
        assert bounds and all(type(v) is int for v in bounds.values()), (model, name, spec)
        if "maximum" in spec:
            assert _field_errors(model, name, spec["maximum"] + 1), (model, name)
        if "exclusiveMaximum" in spec:
            assert _field_errors(model, name, spec["exclusiveMaximum"]), (model, name)
            assert not _field_errors(model, name, spec["exclusiveMaximum"] - 1), (model, name)
        assert _field_errors(model, name, spec["minimum"] - 1), (model, name)
    seed = _variants(document["components"]["schemas"]["DealIn"]["properties"]["seed"])[0]
    assert (seed["minimum"], seed["exclusiveMaximum"]) == (0, MAX_SEED + 1)
    top = document["components"]["schemas"]["SuggestIn"]["properties"]["top"]
    assert (top["minimum"], top["maximum"]) == (1, MAX_TOP)


def test_number_fields_take_integers_and_any_size_and_refuse_booleans(document):
    fields = _fields(document, "number")
    assert {(m, n) for m, n, _ in fields} >= {("EquilibriumIn", "tolerance")}
    for model, name, spec in fields:
        assert "exclusiveMinimum" in spec or "minimum" in spec, (model, name)
        for value in (1, 10**400, 2.5, sys.float_info.max):
            assert _field_errors(model, name, value) == [], (model, name, value)
        for refused in (True, "1", -1, float("nan")):
            assert _field_errors(model, name, refused), (model, name, refused)


def test_boolean_fields_refuse_numbers(document):
    fields = _fields(document, "boolean")
    assert {(m, n) for m, n, _ in fields} >= {("EquilibriumIn", "certificate")}
    for model, name, _ in fields:
        assert _field_errors(model, name, True) == []
        for refused in (0, 1, "true"):
            assert _field_errors(model, name, refused), (model, name, refused)


def test_over_http_the_seed_as_a_float_is_the_seed_and_true_is_a_documented_422():
    with TestClient(create_app()) as client:
        as_float = client.post("/api/deal", json={"seed": 35987.0})
        assert as_float.status_code == 200 and as_float.json()["seed"] == 35987
        assert as_float.json() == client.post("/api/deal", json={"seed": 35987}).json()
        for path, body in [
            ("/api/analyze", {"history": "", "top": True}),
            ("/api/suggest", {"seed": 1, "top": True}),
            ("/api/report", {"mode": 0}),
            ("/api/deal", {"seed": MAX_SEED + 1}),
        ]:
            refused = client.post(path, json=body)
            assert refused.status_code == 422, (path, refused.text)
            answer = refused.json()
            assert set(answer) == {"detail", "errors"} and answer["errors"][0]["loc"][0] == "body"
