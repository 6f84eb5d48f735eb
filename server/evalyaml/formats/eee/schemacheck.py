"""Every Eval Ever's draft-07 schemas applied to our JSON tree, each mistake one located finding.

Why not jsonschema over `to_python` values, as the contract does: a samples file has 100,000
rows, and jsonschema builds a validator per property it descends into (tens of seconds for such
a file); it also reports a misspelt required key as two unrelated errors and applies an
`if`/`then` whose tested key is absent (draft-07 says an absent property passes `properties`),
so a row with a misspelt `interaction_type` would also be told it lacks `output`. This walker
reads the upstream schema files as they are, knows the keywords they use (type, enum, const,
required, properties, additionalProperties, items, minItems, minimum, maximum, pattern, $ref,
allOf, anyOf, oneOf, if/then/else, not) and ignores annotations, so every rule of the declared
version is applied, from the schema itself, with positions:

- a missing required key: on the key owning the object (or the object's `{`);
- a misspelt key: ONE finding on the key that is there, naming the required (or known) key it
  meant, with a rename fix; the value is then checked as the key it meant;
- a wrong type, enum (did-you-mean and a fix) or constraint: on the value;
- an `if`/`then` (`interaction_type`'s conditionals, `score_type`'s): only when the key it tests
  is present; what the branch demands is said with the reason, on the tested value when a key is
  missing;
- `token_usage` is all-or-nothing: its three counts are required together, said once.
- oneOf/anyOf: the branch whose type fits is checked and explained; a value two branches accept
  is not a finding (pydantic, the upstream validator, takes the first that fits).

The upstream schema bug (the multi-turn branch puts `metrics: {required: [num_turns]}` under
`properties`, so `num_turns` is never required) is kept as upstream validates it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from evalyaml.core.findings import FindingSink, Fix, Related, TextEdit
from evalyaml.core.suggest import best, best_value
from evalyaml.syntax.json import BOOL, FLOAT, INT, NULL, STR
from evalyaml.syntax.text import Span
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence

Path = tuple[str | int, ...]
Place = Callable[[Node], Span]
Schema = dict[str, Any]

MISSING, TYPE, ENUM, CLOSED, MISSPELT, TYPO, CONSTRAINT, CONDITIONAL, TOKENS = (
    "EY701", "EY702", "EY703", "EY704", "EY705", "EY706", "EY707", "EY708", "EY709")

_NAMES = {"string": "a string", "number": "a number", "integer": "an integer",
          "boolean": "a boolean", "array": "an array", "object": "an object", "null": "null"}
_TAG_TYPES = {STR: "string", INT: "integer", FLOAT: "number", BOOL: "boolean", NULL: "null"}
_TOKEN_COUNTS = ("input_tokens", "output_tokens", "total_tokens")
_PATTERNS: dict[str, re.Pattern[str]] = {}


def json_type(node: Node) -> str:
    if isinstance(node, Mapping):
        return "object"
    if isinstance(node, Sequence):
        return "array"
    if isinstance(node, Scalar):
        if node.style:
            return "string"
        return _TAG_TYPES.get(node.tag, "string")
    return "null"  # pragma: no cover - JSON builds only the three node kinds


def _fits(expected: str, actual: str, node: Node) -> bool:
    if expected == actual:
        return True
    if expected == "number" and actual == "integer":
        return True
    if expected == "integer" and actual == "number" and isinstance(node, Scalar):
        value = node.value
        return isinstance(value, float) and value.is_integer()  # 1.0 is an integer to both
    return False


def type_fits(schema: Schema, node: Node) -> bool:
    expected = schema.get("type")
    if expected is None:
        return True
    actual = json_type(node)
    names = [expected] if isinstance(expected, str) else expected
    return any(_fits(name, actual, node) for name in names)


def path_text(path: Path) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def _shown(node: Node) -> str:
    if isinstance(node, Scalar):
        text = node.text if len(node.text) <= 60 else node.text[:57] + "..."
        return f"'{text}'" if node.style else text
    return _NAMES[json_type(node)]


def _json_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


class Condition:
    """Why a `then` branch applies: the tested key's value, for messages and places."""

    __slots__ = ("known", "span", "text")

    def __init__(self, text: str, span: Span, known: frozenset[str]) -> None:
        self.text = text
        self.span = span
        self.known = known  # the keys the object's own schema knows


class _Invalid(Exception):
    """A validity probe's walk met its first finding: the value is not valid."""


class _Probe(FindingSink):
    """The sink of `SchemaCheck.valid`: whether there is a finding, not which, so the walk stops
    at the first (an aggregate's 10,000 results each try `source_data`'s three branches)."""

    __slots__ = ()

    def add(self, code_id: str, message: str, span: Span, *, related: tuple[Related, ...] = (),
            fixes: tuple[Fix, ...] = (), data: dict[str, str] | None = None) -> None:
        raise _Invalid


_PROBE = _Probe(strict=False)


class SchemaCheck:
    """One schema document applied to trees of one file; findings go to `sink`."""

    def __init__(self, root: Schema, sink: FindingSink, place: Place, *, what: str,
                 renamed: dict[str, str] | None = None) -> None:
        self.root = root
        self.sink = sink
        self.place = place
        self.what = what  # how messages name the root object: "a sample", "the aggregate"
        # Keys a later version renamed (old -> new): one finding naming the new key, and the
        # old key's value is checked as the new one's.
        self.renamed = renamed or {}
        self._probe: SchemaCheck | None = None  # the same walk with `_PROBE`, for `valid`

    # -- entry points -----------------------------------------------------------------------

    def check(self, node: Node, schema: Schema | None = None) -> None:
        self._check(node, self.root if schema is None else schema, (), None, None)

    def check_at(self, node: Node, schema: Schema, path: Path) -> None:
        """`node` as the walk over its whole tree reaches it at `path` with no owner key and
        no condition (an array's item): an aggregate's result read alone says what its file
        says of it (`byresult`)."""
        self._check(node, schema, path, None, None)

    def valid(self, node: Node, schema: Schema) -> bool:
        probe = self._probe
        if probe is None:
            probe = self._probe = self if self.sink is _PROBE else SchemaCheck(
                self.root, _PROBE, self.place, what=self.what, renamed=self.renamed)
        try:
            probe._check(node, schema, (), None, None)
        except _Invalid:
            return False
        return True

    def resolve(self, schema: Schema) -> Schema:
        seen = 0
        while "$ref" in schema and seen < 32:
            ref = schema["$ref"]
            target: Any = self.root
            if isinstance(ref, str) and ref.startswith("#/"):
                for part in ref[2:].split("/"):
                    target = target.get(part.replace("~1", "/").replace("~0", "~"), {}) \
                        if isinstance(target, dict) else {}
            else:
                target = {}
            extra = {k: v for k, v in schema.items() if k != "$ref"}
            schema = {**target, **extra} if extra else target
            seen += 1
        return schema

    # -- the walk ---------------------------------------------------------------------------

    def _add(self, code: str, message: str, span: Span, cond: Condition | None, *,
             fixes: tuple[Fix, ...] = (), data: dict[str, str] | None = None) -> None:
        if cond is not None:
            code = CONDITIONAL
            message = f"{message} when {cond.text}"
        self.sink.add(code, message, span, fixes=fixes, data=data)

    def _owner(self, node: Node, owner: Node | None) -> Span:
        if owner is not None:
            return self.place(owner)
        start = self.place(node).start
        return Span(start, type(start)(start.line, start.character + 1))

    def _subject(self, path: Path) -> str:
        return f"'{path_text(path)}'" if path else self.what

    def _check(self, node: Node, schema: Schema, path: Path, owner: Node | None,
               cond: Condition | None) -> None:
        if not isinstance(schema, dict):
            if schema is False:
                self._add(CONSTRAINT, f"{self._subject(path)} is not allowed here",
                          self.place(owner or node), cond)
            return
        if "$ref" in schema:
            schema = self.resolve(schema)
        if not type_fits(schema, node):
            self._wrong_type(node, schema["type"], path, cond)
            return
        if "const" in schema and not _equal(node, schema["const"]):
            self._bad_choice(node, [schema["const"]], path, cond)
            return
        if "enum" in schema and not any(_equal(node, v) for v in schema["enum"]):
            self._bad_choice(node, schema["enum"], path, cond)
            return
        if isinstance(node, Mapping):
            self._object(node, schema, path, owner, cond)
        elif isinstance(node, Sequence):
            self._array(node, schema, path, cond)
        elif isinstance(node, Scalar):
            self._scalar(node, schema, path, cond)
        if "not" in schema and self.valid(node, schema["not"]):
            self._add(CONSTRAINT, f"{self._subject(path)} must not be "
                      f"{_describe(self.resolve(schema['not']))}", self.place(node), cond)
        for sub in schema.get("allOf", ()):
            self._check(node, sub, path, owner, cond)
        for keyword in ("oneOf", "anyOf"):
            if keyword in schema:
                self._one_of(node, schema[keyword], path, owner, cond)
        if "if" in schema:
            self._conditional(node, schema, path, owner, cond)

    def _wrong_type(self, node: Node, expected: str | list[str], path: Path,
                    cond: Condition | None) -> None:
        names = [expected] if isinstance(expected, str) else list(expected)
        shown = _NAMES[json_type(node)]
        if names == ["null"]:
            self._add(TYPE, f"{self._subject(path)} must be null or absent, not {shown}",
                      self.place(node), cond)
            return
        wanted = " or ".join(_NAMES.get(n, n) for n in names)
        self._add(TYPE, f"{self._subject(path)} must be {wanted}, not {shown}",
                  self.place(node), cond)

    def _bad_choice(self, node: Node, allowed: list[Any], path: Path,
                    cond: Condition | None) -> None:
        if self.sink is _PROBE:
            raise _Invalid  # before the suggestion, which only a message would show
        choices = [str(v) for v in allowed]
        value = node.text if isinstance(node, Scalar) else None
        suggestion = best_value(value, choices) \
            if value is not None and json_type(node) == "string" else None
        fixes: tuple[Fix, ...] = ()
        if suggestion is not None:
            fixes = (Fix(f"Change to '{suggestion}'",
                         (TextEdit(self.place(node), _json_string(suggestion)),),
                         preferred=True),)
        hint = f"; did you mean '{suggestion}'?" if suggestion else ""
        name = next((p for p in reversed(path) if isinstance(p, str)), "value")
        if len(choices) == 1:
            message = f"{_shown(node)} is not a valid {name}: it must be '{choices[0]}'{hint}"
        else:
            message = (f"{_shown(node)} is not a valid {name}: expected one of "
                       f"{', '.join(choices)}{hint}")
        self._add(ENUM, message, self.place(node), cond, fixes=fixes)

    def _scalar(self, node: Scalar, schema: Schema, path: Path, cond: Condition | None) -> None:
        kind = json_type(node)
        if kind in ("integer", "number"):
            value = node.value
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                low, high = schema.get("minimum"), schema.get("maximum")
                if isinstance(low, (int, float)) and value < low:
                    self._add(CONSTRAINT, f"{self._subject(path)} must be at least {low}, not "
                              f"{node.text}", self.place(node), cond)
                if isinstance(high, (int, float)) and value > high:
                    self._add(CONSTRAINT, f"{self._subject(path)} must be at most {high}, not "
                              f"{node.text}", self.place(node), cond)
        elif kind == "string" and "pattern" in schema:
            pattern = schema["pattern"]
            compiled = _PATTERNS.get(pattern)
            if compiled is None:
                compiled = _PATTERNS[pattern] = re.compile(pattern)
            if not compiled.search(node.text):
                self._add(CONSTRAINT, f"{_shown(node)} does not have the form "
                          f"{self._subject(path)} needs ({pattern})", self.place(node), cond)

    def _array(self, node: Sequence, schema: Schema, path: Path, cond: Condition | None) -> None:
        least = schema.get("minItems")
        if isinstance(least, int) and len(node.items) < least:
            self._add(CONSTRAINT, f"{self._subject(path)} needs at least {least} "
                      f"item{'s' if least != 1 else ''}", self.place(node), cond)
        items = schema.get("items")
        if isinstance(items, dict):
            for index, item in enumerate(node.items):
                self._check(item, items, (*path, index), None, cond)

    def _object(self, node: Mapping, schema: Schema, path: Path, owner: Node | None,
                cond: Condition | None) -> None:
        props: dict[str, Schema] = schema.get("properties", {})
        required = [k for k in schema.get("required", ()) if isinstance(k, str)]
        additional = schema.get("additionalProperties", True)
        pairs: list[tuple[Scalar, Node]] = []
        seen: set[str] = set()
        for key, value in node.pairs:
            if isinstance(key, Scalar) and key.text not in seen:  # the first of duplicates
                seen.add(key.text)
                pairs.append((key, value))
        renamed = {self.renamed[k]: k for k in seen if k in self.renamed and k not in props}
        missing = [k for k in required if k not in seen and k not in renamed]
        for key, value in pairs:
            name = key.text
            sub = props.get(name)
            if sub is not None:
                self._check(value, sub, (*path, name), key, cond)
                continue
            if isinstance(additional, dict):
                self._check(value, additional, (*path, name), key, cond)
            if cond is not None or ("properties" not in schema and additional is not False):
                continue  # a branch or a bare `required`: the object's own walk judges keys
            new_name = self.renamed.get(name)
            if new_name is not None and new_name in props and new_name not in seen:
                if cond is None:  # said once, by the walk over the object's own keys
                    self._rename(MISSPELT, key, new_name, f"'{name}' was renamed "
                                 f"'{new_name}' in schema 0.2.1; this file declares a version "
                                 f"that reads only '{new_name}'", None)
                    self._check(value, props[new_name], (*path, new_name), key, None)
                continue
            meant = best(name, missing) if missing else None
            if meant is not None:
                missing.remove(meant)
                self._rename(MISSPELT, key, meant, f"'{name}' is not a key of "
                             f"{self._where(path)}; did you mean '{meant}'? "
                             f"('{meant}' is required)", cond)
                if meant in props:
                    self._check(value, props[meant], (*path, meant), key, cond)
                continue
            absent = [k for k in props if k not in seen]
            if additional is False:
                guess = best(name, absent)
                tail = f"; did you mean '{guess}'?" if guess else \
                    f"; allowed keys: {', '.join(props)}"
                if guess:
                    self._rename(CLOSED, key, guess, f"unknown key '{name}' in "
                                 f"{self._where(path)}{tail}", cond)
                    self._check(value, props[guess], (*path, guess), key, cond)
                else:
                    self._add(CLOSED, f"unknown key '{name}' in {self._where(path)}{tail}",
                              self.place(key), cond)
                continue
            guess = best(name, absent) if absent else None
            if guess is not None:
                self._rename(TYPO, key, guess, f"unknown key '{name}' in {self._where(path)}; "
                             f"did you mean '{guess}'? (an unknown key is kept as extra data, "
                             "so its value is not read as that field)", cond)
        if not missing:
            return
        if cond is not None:
            strangers = [k for k in seen if k not in cond.known]
            for name in missing:
                if any(best(k, [name]) for k in strangers):
                    continue  # a misspelling of it is there, and the object's walk says so
                self._add(CONDITIONAL, f"{self._where(path)} needs '{name}'", cond.span, cond)
            return
        if path and path[-1] == "token_usage" and set(missing) <= set(_TOKEN_COUNTS):
            have = [k for k in _TOKEN_COUNTS if k in seen]
            self.sink.add(TOKENS, f"'{path_text(path)}' is all or nothing: it has "
                          f"{_and(have)} but not {_and(missing)}; give all of "
                          f"{_and(list(_TOKEN_COUNTS))}, or set token_usage to null",
                          self._owner(node, owner))
            return
        if len(missing) == 1:
            self.sink.add(MISSING, f"{self._where(path)} is missing required key "
                          f"'{missing[0]}'", self._owner(node, owner),
                          data={"missing_key": missing[0]})
        else:  # one finding per object: a stub row lacks many keys, and that is one mistake
            self.sink.add(MISSING, f"{self._where(path)} is missing required keys "
                          f"{_and(missing)}", self._owner(node, owner))

    def _where(self, path: Path) -> str:
        return f"'{path_text(path)}'" if path else self.what

    def _rename(self, code: str, key: Scalar, name: str, message: str,
                cond: Condition | None) -> None:
        span = self.place(key)
        self._add(code, message, span, cond,
                  fixes=(Fix(f"Rename to '{name}'", (TextEdit(span, _json_string(name)),),
                             preferred=True),), data={"suggestion": name})

    def _one_of(self, node: Node, branches: list[Schema], path: Path, owner: Node | None,
                cond: Condition | None) -> None:
        resolved = [self.resolve(b) if isinstance(b, dict) else {} for b in branches]
        if any(self.valid(node, b) for b in resolved):
            return
        fitting = [b for b in resolved if type_fits(b, node)]
        if not fitting:
            names: list[str] = []
            for branch in resolved:
                kind = branch.get("type")
                for name in [kind] if isinstance(kind, str) else (kind or []):
                    if name not in names:
                        names.append(name)
            self._wrong_type(node, names or ["object"], path, cond)
            return
        if len(fitting) > 1:
            fitting.sort(key=lambda b: self._count(node, b, path, owner))
        self._check(node, fitting[0], path, owner, cond)

    def _count(self, node: Node, schema: Schema, path: Path, owner: Node | None) -> int:
        scratch = SchemaCheck(self.root, FindingSink(strict=False), self.place, what=self.what,
                              renamed=self.renamed)
        scratch._check(node, schema, path, owner, None)
        return len(scratch.sink.findings)

    def _conditional(self, node: Node, schema: Schema, path: Path, owner: Node | None,
                     cond: Condition | None, *, known: frozenset[str] | None = None) -> None:
        test = self.resolve(schema["if"]) if isinstance(schema["if"], dict) else {}
        tested = list(test.get("properties", {}))
        if not isinstance(node, Mapping) or not tested:
            return
        present = [(name, node.pair(name)) for name in tested]
        found = [(name, pair) for name, pair in present if pair is not None]
        if not found:
            return  # the tested key is absent: its own finding says so; no cascade
        name, pair = found[0]
        assert pair is not None
        if known is None:
            known = frozenset(schema.get("properties", {}))
        reason = Condition(f"{name} is {_shown(pair[1])}", self.place(pair[1]), known)
        if self.valid(node, test):
            if "then" in schema:
                self._check(node, schema["then"], path, owner, reason)
        elif isinstance(schema.get("else"), dict):
            other = self.resolve(schema["else"])
            if "if" in other and set(other) <= {"if", "then", "else"}:
                self._conditional(node, other, path, owner, cond, known=known)  # else-if
            else:
                self._check(node, other, path, owner, cond)


def _equal(node: Node, expected: Any) -> bool:
    if not isinstance(node, Scalar):
        return False
    kind = json_type(node)
    if isinstance(expected, str):
        return kind == "string" and node.text == expected
    if isinstance(expected, bool):
        return kind == "boolean" and node.value is expected
    if expected is None:
        return kind == "null"
    if isinstance(expected, (int, float)):
        value = node.value
        return kind in ("integer", "number") and not isinstance(value, bool) and value == expected
    return False


def _describe(schema: Schema) -> str:
    kind = schema.get("type")
    if isinstance(kind, str):
        return _NAMES.get(kind, kind)
    return "this"


def _and(names: list[str]) -> str:
    quoted = [f"'{n}'" for n in names]
    if not quoted:
        return "none of them"
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]
