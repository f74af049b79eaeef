"""Every answer the API gives is described by its OpenAPI: a route whose success answer has no schema,
or a schema with an object of unknown fields anywhere in it, fails here. The web's generated client
and the contract fuzz read these schemas, so an untyped answer would reach them as `unknown`."""

from collections.abc import Iterator
from typing import Any

import pytest

from portal_api.app import create_app

# JSON Schema of the answers, as FastAPI writes it: plain JSON (so `Any`).
Schema = dict[str, Any]


@pytest.fixture(scope="module")
def spec() -> Schema:
    return create_app().openapi()


def _success_answers(spec: Schema) -> Iterator[tuple[str, str, Schema]]:
    """(operation, status, response) of every 2xx answer."""
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            for status, response in operation["responses"].items():
                if status.startswith("2"):
                    yield f"{method.upper()} {path}", status, response


def _untyped(schema: Schema, where: str, components: Schema, seen: set[str]) -> Iterator[str]:
    """Where `schema` (followed through its references) accepts anything: `{}`, or an object
    with neither properties nor typed values."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        if name not in seen:
            seen.add(name)
            yield from _untyped(components[name], name, components, seen)
        return
    if not schema:
        yield where
        return
    extra = schema.get("additionalProperties")
    if schema.get("type") == "object" and not schema.get("properties") and not isinstance(extra, dict):
        yield where
    for key in ("anyOf", "oneOf", "allOf"):
        for option in schema.get(key, []):
            yield from _untyped(option, where, components, seen)
    if "items" in schema:
        yield from _untyped(schema["items"], f"{where}[]", components, seen)
    if isinstance(extra, dict):
        yield from _untyped(extra, f"{where}{{}}", components, seen)
    for name, field in schema.get("properties", {}).items():
        yield from _untyped(field, f"{where}.{name}", components, seen)


def test_every_success_answer_has_a_schema(spec: Schema) -> None:
    missing = [
        f"{operation} {status} {media}"
        for operation, status, response in _success_answers(spec)
        if status != "204"
        for media, content in (response.get("content") or {"(none)": {}}).items()
        if not content.get("schema")
    ]
    assert missing == []


def test_no_answer_holds_an_untyped_object(spec: Schema) -> None:
    components = spec["components"]["schemas"]
    untyped = {
        f"{operation} {status}: {where}"
        for operation, status, response in _success_answers(spec)
        for content in (response.get("content") or {}).values()
        for where in _untyped(content["schema"], "answer", components, set())
    }
    assert sorted(untyped) == []


def test_json_answers_are_the_envelope(spec: Schema) -> None:
    """Every JSON success answer is `{message, data}` (api-conventions.md)."""
    components = spec["components"]["schemas"]
    loose = []
    for operation, status, response in _success_answers(spec):
        schema = (response.get("content") or {}).get("application/json", {}).get("schema")
        if schema is None:
            continue
        body = components[schema["$ref"].rsplit("/", 1)[-1]] if "$ref" in schema else schema
        if set(body.get("required", [])) != {"message", "data"}:
            loose.append(f"{operation} {status}")
    assert loose == []
