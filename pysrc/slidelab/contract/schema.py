"""The JSON Schema of the api's requests and answers, written from their types: request.py's records (a request
is one flat JSON object; each field's metadata names its key) and answers.py's TypedDicts. docs/api.schema.json is
its output (`python -m slidelab.contract.schema > docs/api.schema.json`), which a test keeps current."""

from __future__ import annotations

import json
import types
import typing
from typing import Any, Literal, NotRequired, Union

from slidelab.contract import request as requests
from slidelab.contract.record import MISSING, fields, is_record
from slidelab.core import answers

REQUESTS = {"solve": requests.Solve, "trace": requests.Trace, "explore": requests.Space,
            "check_heuristic": requests.HeuristicCheck, "split": requests.Split}


def schema() -> dict:
    """Every request and answer, under $defs by name (solve_request, solve_answer, ..., error_answer, progress)."""
    defs: dict = {}
    for name, cls in REQUESTS.items():
        defs[f"{name}_request"] = _request(cls)
    for name, typed in [*((f"{n}_answer", t) for n, t in answers.ANSWERS.items()), *answers.MESSAGES.items()]:
        _typed_dict(typed, defs)
        defs[name] = {"$ref": f"#/$defs/{typed.__name__}"}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Slide Lab api: requests and answers",
            "description": "Every request is one JSON object; every answer is {\"ok\": true, ...} or an error_answer. "
                           "Answers may carry keys not listed here.",
            "$defs": dict(sorted(defs.items()))}


def _request(cls) -> dict:
    properties: dict = {}
    _fields_into(cls, properties)
    return {"type": "object", "description": (cls.__doc__ or "").strip(), "properties": properties}


def _fields_into(cls, properties: dict) -> None:
    """The JSON keys of a request record's fields, its parts' (nested records) flattened in."""
    hints = typing.get_type_hints(cls, include_extras=True)
    for f in fields(cls):
        if f.metadata.get("json", True) is False:
            continue
        part = _part(hints[f.name])
        if part is not None:
            _fields_into(part, properties)
            continue
        entry = {**_type(hints[f.name], {}), **f.metadata.get("schema", {}), "description": f.metadata["doc"]}
        if "enum" in entry and "null" in entry["type"]:
            entry["enum"] = [*entry["enum"], None]
        if f.default is not None and f.default is not MISSING:
            entry["default"] = f.default
        properties[f.metadata.get("key") or f.name] = entry


def _part(hint):
    """The record a field holds (also when it may be None), else None."""
    options = typing.get_args(hint) if _is_union(hint) else (hint,)
    found = [o for o in options if is_record(o)]
    return found[0] if found else None


def _is_union(hint) -> bool:
    return typing.get_origin(hint) in (Union, types.UnionType)


SIMPLE = {str: "string", bool: "boolean", int: "integer", float: "number", type(None): "null"}


def _type(hint, defs: dict) -> dict:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return {}
    if isinstance(hint, type) and hint in SIMPLE:
        return {"type": SIMPLE[hint]}
    if origin is NotRequired:
        return _type(args[0], defs)
    if origin is typing.Annotated:
        return {**_type(args[0], defs), **args[1]}
    if origin is Literal:
        return {"const": args[0]} if len(args) == 1 else {"enum": list(args)}
    if _is_union(hint):
        options = [_type(a, defs) for a in args]
        if all(set(o) == {"type"} for o in options):
            return {"type": [o["type"] for o in options]}
        return {"anyOf": options}
    if origin is list:
        return {"type": "array", "items": _type(args[0], defs)}
    if origin is dict:
        return {"type": "object", "additionalProperties": _type(args[1], defs)}
    if typing.is_typeddict(hint):
        _typed_dict(hint, defs)
        return {"$ref": f"#/$defs/{hint.__name__}"}
    raise TypeError(f"no JSON Schema for {hint!r}")


def _typed_dict(typed, defs: dict) -> None:
    if typed.__name__ in defs:
        return
    defs[typed.__name__] = {}  # taken, before its own fields may name it
    hints = typing.get_type_hints(typed, include_extras=True)
    entry: dict = {"type": "object", "properties": {k: _type(v, defs) for k, v in hints.items()},
                   "required": sorted(typed.__required_keys__)}
    if typed.__doc__ and typed.__doc__ != dict.__doc__:
        entry["description"] = typed.__doc__.strip()
    defs[typed.__name__] = entry


def answer_errors(answer, kind: str) -> list[str]:
    """What is wrong with an answer of `kind` (solve, trace, explore, check_heuristic, check; a message: progress,
    pool_question, pool_reply; an error answer of any kind) by the schema: [] when nothing is. Needs the jsonschema
    package (the test extra)."""
    import jsonschema

    name = "error_answer" if isinstance(answer, dict) and answer.get("ok") is False else f"{kind}_answer"
    name = kind if kind in answers.MESSAGES else name
    validator = jsonschema.Draft202012Validator({**schema(), "$ref": f"#/$defs/{name}"})
    return [f"{'/'.join(map(str, e.absolute_path)) or '(answer)'}: {e.message}" for e in validator.iter_errors(answer)]


if __name__ == "__main__":
    print(json.dumps(schema(), indent=2, ensure_ascii=False))
