"""Apastra schema errors to located findings: one message per mistake, on the exact span.

ajv (Apastra's validator) stops at the first error and names a JSON pointer; here every error
is reported, each where a person looks for it: a missing key on the key owning the object (the
first line at the root), a wrong type, enum or pattern on the value, an unknown key of a
closed object on the key with a did-you-mean and a fix. jsonschema reports the keywords that
only combine others (`anyOf`, `oneOf`) as one error with its best sub-error; several `required`
errors on one object become one message.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from jsonschema import ValidationError
from jsonschema.protocols import Validator

from evalyaml.core.findings import FindingSink, Fix, TextEdit
from evalyaml.core.suggest import best, best_value
from evalyaml.core.validate import Located, locate, path_text, type_name
from evalyaml.syntax.text import Span
from evalyaml.syntax.tree import Node, PyValue, Scalar

SpanOf = Callable[[Node], Span]
FirstLine = Callable[[Node], Span]

_TYPES = {"string": "a string", "number": "a number", "integer": "a whole number",
          "boolean": "true or false", "array": "a list", "object": "a mapping", "null": "null"}


def _types(expected: Any) -> str:
    names = expected if isinstance(expected, list) else [expected]
    return " or ".join(_TYPES.get(str(n), str(n)) for n in names)


class Reporter:
    """One file's (or one JSONL line's) schema findings."""

    def __init__(self, sink: FindingSink, schema_title: str, span: SpanOf,
                 first_line: FirstLine) -> None:
        self.sink = sink
        self.title = schema_title  # "suite.schema.json"
        self.span = span
        self.first_line = first_line
        self.located: set[int] = set()  # start offsets of values a finding is on
        self.covered: set[tuple[str, str]] = set()
        self.root_name = "the document"
        # Where the validated value sits in the document (`("cases", 3)` for a quick eval's
        # case checked on its own): messages and near misses name the document's path.
        self.prefix: tuple[str | int, ...] = ()

    def _where(self, path: tuple[str | int, ...]) -> str:
        full = self.prefix + path
        return path_text(full) if full else self.root_name

    def _named(self, path: tuple[str | int, ...]) -> str:
        return path_text(self.prefix + path)

    def run(self, validator: Validator, value: PyValue, root: Node,
            covered: set[tuple[str, str]] | None = None) -> None:
        """`covered`: (object path, key) pairs a near-miss finding already names, so a
        misspelt required key is one finding (on the misspelling), not two."""
        # Closed objects first: their did-you-mean covers the required key a typo misses.
        errors = sorted((e for found in validator.iter_errors(value) for e in _chosen(found)),
                        key=lambda e: (list(e.absolute_path),
                                       e.validator != "additionalProperties"))
        missing: dict[tuple[str | int, ...], list[str]] = {}
        self.covered = covered if covered is not None else set()
        for error in errors:
            path = tuple(error.absolute_path)
            if error.validator == "required":
                missing.setdefault(path, []).append(_quoted_name(error.message))
                continue
            self._report(error, root, path)
        for path, all_names in missing.items():
            names = [n for n in all_names if (self._named(path), n) not in self.covered]
            if not names:
                continue
            located = locate(root, path)
            if located.node is None:
                continue
            where = self._owner(located)
            what = self._where(path)
            keys = ", ".join(f"'{n}'" for n in names)
            noun = "key" if len(names) == 1 else "keys"
            self.sink.add("EY800", f"{what} misses the required {noun} {keys} "
                          f"({self.title})", where)

    def _owner(self, located: Located) -> Span:
        if located.key is not None:
            return self.span(located.key)
        assert located.node is not None
        return self.first_line(located.node)

    def _report(self, error: ValidationError, root: Node, path: tuple[str | int, ...]) -> None:
        located = locate(root, path)
        node = located.node
        if node is None:
            return
        keyword = str(error.validator)
        what = self._where(path)
        if keyword in ("anyOf", "oneOf") and error.context:
            deepest = max(error.context, key=lambda e: len(list(e.absolute_path)))
            if len(list(deepest.absolute_path)) > len(path):
                self._report(deepest, root, tuple(deepest.absolute_path))
                return
            wanted = {_quoted_name(e.message) for e in error.context if e.validator == "required"}
            if any((self._named(path), name) in self.covered for name in wanted):
                return  # a misspelt key the branches require: said once, on the key
            branches = error.validator_value if isinstance(error.validator_value, list) else []
            keys = list(dict.fromkeys(k for b in branches for k in _consts(b)))
            if keys and all(_consts(b) for b in branches):
                self.sink.add("EY800", f"{what} misses the required key "
                              f"{' or '.join(repr(k) for k in keys)} ({self.title})",
                              self._owner(located))
                return
        if keyword == "additionalProperties" and isinstance(error.instance, dict):
            self._closed(error, root, path)
            return
        if keyword in {"dependentRequired", "dependencies"}:
            self._dependency(error, root, path, located)
            return
        span = self.span(node)
        self.located.add(node.start)
        if keyword == "type":
            message = (f"{what} must be {_types(error.validator_value)}, "
                       f"not {type_name(error.instance)}")
        elif keyword == "enum":
            allowed = [str(v) for v in error.validator_value]
            choice = best_value(str(error.instance), allowed) if isinstance(error.instance, str) \
                else None
            hint = f"; did you mean '{choice}'?" if choice else ""
            message = (f"{what} must be one of {', '.join(allowed)}{hint}")
            if choice and isinstance(node, Scalar):
                self.sink.add("EY800", f"{message} ({self.title})", span,
                              fixes=(Fix(f"Change to '{choice}'", (TextEdit(span, choice),),
                                         preferred=True),))
                return
        elif keyword == "pattern":
            choices = _alternatives(str(error.validator_value))
            choice = (best_value(str(error.instance), choices)
                      if choices and isinstance(error.instance, str) else None)
            if choice and isinstance(node, Scalar):
                self.sink.add("EY800", f"{what} '{error.instance}' is not one of the types "
                              f"Apastra knows; did you mean '{choice}'? ({self.title})", span,
                              fixes=(Fix(f"Change to '{choice}'", (TextEdit(span, _key_text(
                                  node, choice)),), preferred=True),))
                return
            message = f"{what} {_short(error.instance)} does not match {error.validator_value}"
        elif keyword in ("minItems", "minLength", "minProperties"):
            message = f"{what} is too short ({keyword} {error.validator_value})"
        elif keyword in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
            message = f"{what} must be {_bound(keyword)} {error.validator_value}"
        elif keyword == "uniqueItems":
            message = f"{what} holds the same item twice"
        elif keyword == "const":
            message = f"{what} must be {error.validator_value!r}"
        else:
            message = f"{what}: {error.message}"
        self.sink.add("EY800", f"{message} ({self.title})", span)

    def _dependency(self, error: ValidationError, root: Node, path: tuple[str | int, ...],
                    located: Located) -> None:
        """`dependentRequired`: on the key whose presence asks for the missing one (a package's
        `version` without `public_interface`), which is the text to change or complete."""
        match = re.match(r"'(.+)' is a dependency of '(.+)'$", str(error.message))
        if match is None:
            self.sink.add("EY800", f"{self._where(path)}: {error.message} ({self.title})",
                          self._owner(located))
            return
        needed, trigger = match.group(1), match.group(2)
        trigger_located = locate(root, (*path, trigger))
        where = (self.span(trigger_located.key) if trigger_located.key is not None
                 else self._owner(located))
        self.sink.add("EY800", f"'{trigger}' needs '{needed}' beside it in "
                      f"{self._where(path)}: the schema requires '{needed}' whenever "
                      f"'{trigger}' is present ({self.title})", where)

    def _closed(self, error: ValidationError, root: Node, path: tuple[str | int, ...]) -> None:
        located = locate(root, path)
        schema = error.schema if isinstance(error.schema, dict) else {}
        known = [str(k) for k in schema.get("properties", {})]
        instance = error.instance
        for name in instance:
            if name in known or _pattern_allows(schema, name):
                continue
            key_located = locate(root, (*path, name))
            if key_located.key is None:
                continue
            key_span = self.span(key_located.key)
            where = self._where(path)
            choice = best(name, [k for k in known if k not in instance]) or _word_of(
                name, [k for k in schema.get("required", ()) if k not in instance])
            if choice:
                self.covered.add((self._named(path), choice))
                self.sink.add(
                    "EY800", f"{where} does not allow '{name}'; did you mean '{choice}'? "
                    f"({self.title})", key_span,
                    fixes=(Fix(f"Rename to '{choice}'", (TextEdit(key_span, _key_text(
                        key_located.key, choice)),), preferred=True),))
            else:
                allowed = ", ".join(known)
                self.sink.add("EY800", f"{where} does not allow '{name}' (it allows {allowed}) "
                              f"({self.title})", key_span)
        del located


def _chosen(error: ValidationError) -> list[ValidationError]:
    """A `oneOf`/`anyOf` whose branches are told apart by a `const` (delivery targets by
    `type`): the errors of the one branch the value's discriminator selects, so a missing
    `credentials_ref` of an npm target is said as such rather than as "valid under none"; none
    when the discriminator matches no branch (its own `enum` says so, on the value)."""
    if error.validator not in ("anyOf", "oneOf") or not error.context \
            or not isinstance(error.instance, dict):
        return [error]
    branches = error.validator_value if isinstance(error.validator_value, list) else []
    consts = [_consts(branch) for branch in branches]
    if not branches or not all(consts):
        return [error]
    instance = error.instance
    selected = [index for index, const in enumerate(consts)
                if all(key in instance and instance[key] == value for key, value in const.items())]
    if len(selected) == 1:
        return [sub for sub in error.context
                if sub.relative_schema_path and sub.relative_schema_path[0] == selected[0]]
    if not selected and any(key in instance for const in consts for key in const):
        return []
    return [error]


def _consts(branch: Any) -> dict[str, Any]:
    props = branch.get("properties") if isinstance(branch, dict) else None
    if not isinstance(props, dict):
        return {}
    return {k: v["const"] for k, v in props.items() if isinstance(v, dict) and "const" in v}


def _word_of(name: str, missing: list[str]) -> str | None:
    """The one missing required key the unknown key is a word of (`id` for `case_id`): the
    docs' quick evals write `id:` in cases, where the case schema wants `case_id`."""
    found = [k for k in missing if name in k.split("_") and name != k]
    return found[0] if len(found) == 1 else None


def _key_text(key: Node, name: str) -> str:
    if isinstance(key, Scalar) and key.style == '"':
        return f'"{name}"'
    if isinstance(key, Scalar) and key.style == "'":
        return f"'{name}'"
    return name


def _alternatives(pattern: str) -> list[str]:
    """The words of an enumeration written as a pattern: `^(not-)?(equals|contains|...)$`."""
    import re
    found = re.fullmatch(r"\^(\(not-\)\?)?\(([\w|-]+)\)\$", pattern)
    if not found:
        return []
    words = found.group(2).split("|")
    return words + [f"not-{w}" for w in words] if found.group(1) else words


def _pattern_allows(schema: dict[str, Any], name: str) -> bool:
    import re
    return any(re.search(p, name) for p in schema.get("patternProperties", {}))


def _quoted_name(message: str) -> str:
    return message.split("'")[1] if message.count("'") >= 2 else message


def _short(value: Any) -> str:
    text = repr(value) if not isinstance(value, str) else f"'{value}'"
    return text if len(text) <= 60 else text[:57] + "...'"


def _bound(keyword: str) -> str:
    return {"minimum": "at least", "maximum": "at most", "exclusiveMinimum": "more than",
            "exclusiveMaximum": "less than"}[keyword]
