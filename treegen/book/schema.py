"""The book's JSON Schema (``schema.json``), applied by every reader of a book.

The schema is the one statement of what each field of a book's sections may hold; this module
applies it with the standard library alone, so a reader that must not depend on ``jsonschema``
checks exactly what the published schema says. It knows the keywords ``schema.json`` uses and
refuses a schema that uses another (a test walks the file), so the two cannot drift apart.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from typing import Any

__all__ = ["KEYWORDS", "book_schema", "schema_problem"]

#: The keywords this module applies; ``schema.json`` may use these and the annotations below.
KEYWORDS = frozenset({
    "type", "const", "enum", "required", "properties", "additionalProperties", "propertyNames",
    "dependentRequired", "items", "minItems", "maxItems", "uniqueItems", "minLength", "maxLength",
    "pattern", "minimum", "maximum", "$ref"})
ANNOTATIONS = frozenset({"$schema", "$id", "$defs", "title", "description", "$comment"})

_TYPES = {
    "object": lambda v: type(v) is dict,
    "array": lambda v: type(v) is list,
    "string": lambda v: type(v) is str,
    "integer": lambda v: type(v) is int,
    "number": lambda v: type(v) in (int, float),
    "boolean": lambda v: type(v) is bool,
    "null": lambda v: v is None,
}


@cache
def book_schema() -> dict[str, Any]:
    """The schema shipped with treegen (read once)."""
    text = resources.files("treegen.book").joinpath("schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def schema_problem(value: object, section: str) -> str | None:
    """The first thing in ``value`` that the schema of the book's ``section`` refuses, named by
    its path (``strategy.max_depth must be an integer or null``), or None."""
    schema = book_schema()
    return _problem(value, schema["properties"][section], section, schema)


def _problem(value: object, schema: dict[str, Any], where: str, root: dict[str, Any]) -> str | None:
    if "$ref" in schema:
        schema = _resolve(schema["$ref"], root)
    kinds = schema.get("type")
    if kinds is not None:
        kinds = [kinds] if isinstance(kinds, str) else kinds
        if not any(_TYPES[kind](value) for kind in kinds):
            return f"{where} must be {' or '.join(_article(kind) for kind in kinds)}"
    if "const" in schema and not _same(value, schema["const"]):
        return f"{where} must be {json.dumps(schema['const'])}"
    if "enum" in schema and not any(_same(value, choice) for choice in schema["enum"]):
        return f"{where} must be one of {', '.join(json.dumps(c) for c in schema['enum'])}"
    if type(value) in (int, float) and type(value) is not bool:
        if "minimum" in schema and value < schema["minimum"]:
            return f"{where} must be at least {schema['minimum']}"
        if "maximum" in schema and value > schema["maximum"]:
            return f"{where} must be at most {schema['maximum']}"
    if type(value) is str:
        return _text_problem(value, schema, where)
    if type(value) is list:
        return _array_problem(value, schema, where, root)
    if type(value) is dict:
        return _object_problem(value, schema, where, root)
    return None


def _text_problem(value: str, schema: dict[str, Any], where: str) -> str | None:
    if len(value) < schema.get("minLength", 0):
        return f"{where} must not be empty" if schema["minLength"] == 1 else \
            f"{where} must be at least {schema['minLength']} characters"
    if "maxLength" in schema and len(value) > schema["maxLength"]:
        return f"{where} must be at most {schema['maxLength']} characters"
    if "pattern" in schema and not _pattern(schema["pattern"]).search(value):
        return f"{where} is not of the form {schema['pattern']}"
    return None


def _array_problem(value: list[Any], schema: dict[str, Any], where: str,
                   root: dict[str, Any]) -> str | None:
    if len(value) < schema.get("minItems", 0):
        return f"{where} must hold at least {schema['minItems']} item(s)"
    if "maxItems" in schema and len(value) > schema["maxItems"]:
        return f"{where} must hold at most {schema['maxItems']} items"
    items = schema.get("items")
    if items is not None:
        for index, item in enumerate(value):
            problem = _problem(item, items, f"{where}[{index}]", root)
            if problem:
                return problem
    if schema.get("uniqueItems") and len({json.dumps(v, sort_keys=True) for v in value}) != len(value):
        return f"{where} holds an item twice"
    return None


def _object_problem(value: dict[str, Any], schema: dict[str, Any], where: str,
                    root: dict[str, Any]) -> str | None:
    for key in schema.get("required", ()):
        if key not in value:
            return f"{where}.{key} is missing"
    for key, needs in schema.get("dependentRequired", {}).items():
        if key in value and any(other not in value for other in needs):
            return f"{where}.{key} needs {', '.join(needs)} beside it"
    names = schema.get("propertyNames")
    properties = schema.get("properties", {})
    extra = schema.get("additionalProperties", True)
    for key, item in value.items():
        if names is not None:
            problem = _problem(key, names, f"{where} key {json.dumps(key)[:40]}", root)
            if problem:
                return problem
        if key in properties:
            problem = _problem(item, properties[key], f"{where}.{key}", root)
        elif extra is False:
            problem = f"{where} has an unknown field {json.dumps(key)[:40]}"
        elif isinstance(extra, dict):
            problem = _problem(item, extra, f"{where}.{key}", root)
        else:
            problem = None
        if problem:
            return problem
    return None


def _resolve(ref: str, root: dict[str, Any]) -> dict[str, Any]:
    if not ref.startswith("#/"):
        raise ValueError(f"the book's schema refers outside itself: {ref}")
    node: Any = root
    for part in ref[2:].split("/"):
        node = node[part]
    return dict(node)


def _same(value: object, expected: object) -> bool:
    """JSON equality: ``true`` is not ``1``, as the schema's ``const`` and ``enum`` mean it."""
    return type(value) is type(expected) and value == expected


def _article(kind: str) -> str:
    return {"object": "an object", "array": "an array", "integer": "an integer",
            "null": "null", "boolean": "true or false"}.get(kind, f"a {kind}")


@cache
def _pattern(text: str) -> re.Pattern[str]:
    return re.compile(text)
