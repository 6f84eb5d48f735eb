"""The schema walker says "valid" exactly when jsonschema does, on the upstream schemas.

Real files (the corpus's EEE rows and aggregates) and mutations of them, one change each (a key
removed, a value of another type, a string no enum holds), are judged by both. The two known
departures are excluded by construction and documented in `schemacheck`: an `if` whose tested
key is absent (jsonschema applies the branch; we leave it to the missing key's own finding),
and a value two `oneOf` branches accept (jsonschema refuses it; pydantic, upstream's validator,
takes the first).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from evalyaml.core.findings import FindingSink
from evalyaml.formats.eee import versions
from evalyaml.formats.eee.kinds import AGGREGATE, SAMPLES
from evalyaml.formats.eee.schemacheck import SchemaCheck
from evalyaml.syntax.json import read_json
from evalyaml.syntax.text import LineIndex, Span
from evalyaml.syntax.tree import Node

CORPUS = Path(__file__).resolve().parents[4] / "shared" / "corpus" / "every_eval_ever"
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is not here")
TESTED = {"interaction_type", "score_type"}  # keys an `if` tests


def ours(schema: dict[str, Any], value: Any) -> list[str]:
    text = json.dumps(value)
    sink = FindingSink(strict=False)
    root = read_json(text, sink)
    assert root is not None
    lines = LineIndex(text)

    def place(node: Node) -> Span:
        return lines.span(node.start, node.end)

    SchemaCheck(schema, sink, place, what="it").check(root)
    return [f.message for f in sink.findings]


def theirs(schema: dict[str, Any], value: Any) -> list[str]:
    return [e.message for e in jsonschema.Draft7Validator(schema).iter_errors(value)]


def only_ambiguous(schema: dict[str, Any], value: Any) -> bool:
    """Every error jsonschema has comes down to a value two oneOf branches accept."""
    def ambiguous(error: jsonschema.ValidationError) -> bool:
        if "is valid under each of" in error.message:
            return True
        return bool(error.context) and any(ambiguous(e) for e in error.context)
    return all(ambiguous(e) for e in jsonschema.Draft7Validator(schema).iter_errors(value))


def mutations(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    """(where, what) pairs: delete a key, replace a value by a number, a string, null."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield (*path, key), _DELETE
            yield from mutations(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:2]):
            yield from mutations(item, (*path, index))
    replacements: tuple[Any, ...] = (7, "zzz-not-a-choice", None, [], {})
    for replacement in replacements:
        if path and value != replacement:
            yield path, replacement


_DELETE = object()


def mutate(value: Any, where: tuple[Any, ...], what: Any) -> Any:
    out = copy.deepcopy(value)
    target = out
    for part in where[:-1]:
        target = target[part]
    if what is _DELETE:
        del target[where[-1]]
    else:
        target[where[-1]] = what
    return out


def _cases() -> list[tuple[str, dict[str, Any], Any]]:
    if not CORPUS.is_dir():
        return []
    rows = CORPUS / ("v0.3.0@HEAD/tests/data/skill_reference_conversion/data/demo-source/"
                     "demo-org/demo-model/f3a1c0de-4b2e-4c1a-9f6d-1b7e5a2c8d40_samples.jsonl")
    row = json.loads(rows.read_text().splitlines()[0])
    cases = []
    for version in versions.SAMPLES_VERSIONS:
        sample = copy.deepcopy(row)
        if version == "0.2.0":
            sample["input"]["reference"] = "4"
            sample["output"]["raw"] = "The answer is 4."
        cases.append((f"row-{version}", versions.schema_for(SAMPLES, version), sample))
    for path in sorted(CORPUS.rglob("*.json")):
        if "schema" in path.name or not path.is_file():
            continue
        data = json.loads(path.read_text())
        schema = versions.schema_for(AGGREGATE, data.get("schema_version"))
        if schema is not None and len(path.read_bytes()) < 12000:
            cases.append((path.name[:8], schema, data))
    return [(name, schema, value) for name, schema, value in cases if schema is not None]


@needs_corpus
@pytest.mark.parametrize(("name", "schema", "value"), _cases(), ids=lambda x: x
                         if isinstance(x, str) else "")
def test_valid_and_invalid_agree_with_jsonschema(name: str, schema: dict[str, Any],
                                                 value: Any) -> None:
    assert ours(schema, value) == [] == theirs(schema, value)
    checked = 0
    for where, what in mutations(value):
        if what is _DELETE and where[-1] in TESTED:
            continue  # departure 1: an `if` over an absent key
        changed = mutate(value, where, what)
        mine, upstream = ours(schema, changed), theirs(schema, changed)
        if not upstream and mine:
            pytest.fail(f"{where} -> {what!r}: we say {mine}, jsonschema accepts it")
        if upstream and not mine:
            if only_ambiguous(schema, changed):
                continue  # departure 2: two oneOf branches accept it
            pytest.fail(f"{where} -> {what!r}: jsonschema says {upstream}, we say nothing")
        checked += 1
    assert checked > 20
