"""Apastra's digest convention, reproduced byte for byte.

`sha256:` + hex of `json.dumps(value, sort_keys=True, separators=(",", ":"))` over the file's
value; a JSONL file is its non-blank lines, each canonicalised, joined with "\\n" and no
trailing newline; a self-digest (suites, evaluators) hashes the document without its `digest`
key. Apastra has two implementations that disagree on non-ASCII text: `compute-digest.sh`
writes it as is (`ensure_ascii=False`), `runtime/digest.py` escapes it (the default): both are
computed and a digest is said to match one when only one agrees.

Values are read the way Apastra's loader reads YAML (PyYAML `safe_load`, YAML 1.1): plain
`yes`/`no`/`on`/`off` are booleans, `0o17`-style and `017` octals, `1_000` and sexagesimal
`1:30` numbers, and an unquoted date or timestamp becomes a `date` that `json.dumps` refuses, so
no digest exists (`Unreadable`). Our YAML reader is YAML 1.2; the conversion below walks its
tree and re-reads each plain scalar with PyYAML's 1.1 resolver patterns.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from typing import Any, cast

from evalyaml.syntax.record import record
from evalyaml.syntax.tree import (
    MERGE_TAG,
    Budget,
    Mapping,
    Node,
    PyValue,
    Scalar,
    Sequence,
    to_python,
)
from evalyaml.syntax.yaml.pyyaml11 import BOOL as _BOOL
from evalyaml.syntax.yaml.pyyaml11 import FLOAT as _FLOAT
from evalyaml.syntax.yaml.pyyaml11 import INT as _INT
from evalyaml.syntax.yaml.pyyaml11 import NULL as _NULL
from evalyaml.syntax.yaml.pyyaml11 import TIMESTAMP as _TIMESTAMP
from evalyaml.syntax.yaml.pyyaml11 import TRUE as _TRUE

EMPTY = "sha256:" + hashlib.sha256(b"").hexdigest()
WELL_FORMED = re.compile(r"sha256:[a-f0-9]{64}")
# Python's text-mode files break lines at LF, CRLF and CR (universal newlines), nothing else.
_LINE_BREAK = re.compile(r"\r\n|\r|\n")



class Unreadable(Exception):
    """Apastra's digest tools fail on this value; `node` is where."""

    def __init__(self, node: Node, why: str) -> None:
        super().__init__(why)
        self.node = node
        self.why = why


def _sexagesimal(text: str) -> float:
    sign = -1 if text.startswith("-") else 1
    total = 0.0
    for part in text.lstrip("+-").split(":"):
        total = total * 60 + float(part)
    return sign * total


def scalar_11(node: Scalar, *, key: bool = False) -> PyValue:
    """A scalar as PyYAML's `safe_load` reads it (as a mapping's key: `key`)."""
    if not node.is_plain:
        return node.text
    text = node.text
    if text in ("=", "<<") and not key:
        raise Unreadable(node, f"PyYAML reads a plain '{text}' as a YAML 1.1 "
                         f"{'value' if text == '=' else 'merge'} key, which safe_load cannot "
                         "build (\"could not determine a constructor\"); quote it")
    if _BOOL.fullmatch(text):
        return text in _TRUE
    if _NULL.fullmatch(text):
        return None
    if _INT.fullmatch(text):
        clean = text.replace("_", "")
        sign = -1 if clean.startswith("-") else 1
        body = clean.lstrip("+-")
        if ":" in body:
            return int(_sexagesimal(clean))
        if body.startswith("0b"):
            return sign * int(body[2:], 2)
        if body.startswith("0x"):
            return sign * int(body[2:], 16)
        if body != "0" and body.startswith("0"):
            return sign * int(body, 8)
        return sign * int(body)
    if _FLOAT.fullmatch(text):
        clean = text.replace("_", "").lower()
        if clean.endswith(".inf"):
            return -math.inf if clean.startswith("-") else math.inf
        if clean.endswith(".nan"):
            return math.nan
        if ":" in clean:
            return _sexagesimal(clean)
        return float(clean)
    if _TIMESTAMP.fullmatch(text):
        raise Unreadable(node, f"PyYAML reads the unquoted '{text}' as a date, which json.dumps "
                         "refuses (\"Object of type date is not JSON serializable\"); quote it")
    return text


def value_11(node: Node, budget: Budget | None = None) -> PyValue:
    """A YAML tree as PyYAML (YAML 1.1, `safe_load`) would load it."""
    budget = budget or Budget(1_000_000)
    budget.remaining -= 1
    if budget.remaining < 0:
        raise Unreadable(node, "the document expands past the alias budget")
    if isinstance(node, Scalar):
        return scalar_11(node)
    if isinstance(node, Sequence):
        return [value_11(item, budget) for item in node.items]
    if isinstance(node, Mapping):
        out: dict[Any, PyValue] = {}
        odd: Node | None = None  # the first key PyYAML reads as other than text
        for merged in reversed(node.merged()):
            merged_value = value_11(merged, budget)
            if isinstance(merged_value, dict):
                out.update(merged_value)
        for key, value in node.pairs:
            if isinstance(key, Scalar) and key.tag == MERGE_TAG:
                if not (isinstance(value, Mapping) or (isinstance(value, Sequence) and all(
                        isinstance(item, Mapping) for item in value.items))):
                    raise Unreadable(key, "PyYAML merges only mappings under '<<' "
                                     "(\"expected a mapping or list of mappings for merging\")")
                continue
            name = (scalar_11(key, key=True) if isinstance(key, Scalar)
                    else to_python(key, Budget(10_000)))
            if isinstance(name, (list, dict)):
                raise Unreadable(key, "PyYAML cannot use a list or mapping as a key")
            # A YAML 1.1 boolean, number or null key stays one: json.dumps writes it as text
            # but sorts the keys as they are, and fails on a mix of types (TypeError).
            if not isinstance(name, str) and odd is None:
                odd = key
            out[name] = value_11(value, budget)
        try:
            sorted(out)
        except TypeError:
            raise Unreadable(odd or node, "PyYAML reads a key here as a boolean, number or "
                             "null beside text keys, and json.dumps cannot sort keys of "
                             "different types; quote the key") from None
        return cast(PyValue, out)
    return None


@record
class Digests:
    """The digest each of Apastra's two implementations computes."""

    script: str  # compute-digest.sh: ensure_ascii=False
    runtime: str  # runtime/digest.py: ensure_ascii=True

    @property
    def agree(self) -> bool:
        return self.script == self.runtime


def canonical(value: PyValue, *, ensure_ascii: bool) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=ensure_ascii)


def _sha(text: str) -> str:
    return "sha256:" + hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def of_value(value: PyValue) -> Digests:
    return Digests(_sha(canonical(value, ensure_ascii=False)),
                   _sha(canonical(value, ensure_ascii=True)))


def of_jsonl(text: str) -> Digests | None:
    """A JSONL text's digest; None when a line is not JSON (Apastra's tools fail)."""
    script: list[str] = []
    runtime: list[str] = []
    for line in _LINE_BREAK.split(text):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except ValueError:
            return None
        script.append(canonical(value, ensure_ascii=False))
        runtime.append(canonical(value, ensure_ascii=True))
    return Digests(_sha("\n".join(script)), _sha("\n".join(runtime)))
