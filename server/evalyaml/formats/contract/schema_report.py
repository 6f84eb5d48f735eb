"""The contract's schema findings: jsonschema errors on a dataset, rubric or judge turned into
one clear, located finding per mistake (EY201-EY205, EY207).

jsonschema reports *where in the data* (`absolute_path`) and *which keyword* failed. We walk the
same path through our YAML tree (`core.validate.locate`) to find the node, then choose the span a
person expects: a missing key on the key that owns the object (or the list item's first line), a
wrong type or enum on the value, an unknown key on the key itself. Keywords that describe
structure rather than mistakes (`allOf`, `if`, `$ref`) never surface: jsonschema already
descends into them. Other formats report their schemas with codes and messages of their own.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from collections.abc import Sequence as Seq
from typing import TYPE_CHECKING, Any, Protocol

from evalyaml.core.findings import FindingSink, Fix, TextEdit
from evalyaml.core.kinds import Kind
from evalyaml.core.schemas import known_properties, resolve_local
from evalyaml.core.suggest import best, best_value, did_you_mean
from evalyaml.core.validate import TYPE_NAMES, Located, Path, locate, path_text, type_name
from evalyaml.syntax.text import LineIndex, Span
from evalyaml.syntax.tree import Mapping, Node, PyValue, Scalar

if TYPE_CHECKING:  # jsonschema is imported by whoever builds a validator, when one is needed
    from jsonschema import ValidationError


class ErrorSource(Protocol):
    """A jsonschema validator, or what gives the same errors another way
    (`contract.schemas.PropertyDescent`)."""

    def iter_errors(self, instance: Any) -> Iterable[ValidationError]: ...


class SchemaReporter:
    """Turns one validator's errors on one instance into findings."""

    def __init__(
        self,
        kind: Kind,
        lines: LineIndex,
        sink: FindingSink,
        *,
        describe: Callable[[Path], str],
        skip: Callable[[ValidationError, Path], bool] | None = None,
        overrides: Callable[[ValidationError, Path, Located], bool] | None = None,
    ) -> None:
        self.kind = kind
        self.lines = lines
        self.sink = sink
        self.describe = describe
        self.skip = skip
        self.overrides = overrides
        # jsonschema reports one `required` error per missing key, and may report a type error
        # and an enum error on one value: each mistake is said once.
        self._said: set[tuple[object, ...]] = set()
        # (object path, key) an unknown key's rename would supply: a misspelt required key is
        # one mistake, so it is not also reported missing (two quick fixes, renaming the key and
        # inserting it, would write the key twice).
        self._renamed: set[tuple[Path, str]] = set()
        self._closed_paths: set[Path] = set()  # objects whose unknown keys EY204 has said

    def span(self, node: Node) -> Span:
        return self.lines.span(node.start, node.end)

    def open_typos(self, mapping: Mapping, known: Iterable[str], *, where: str,
                   path: Path = ()) -> None:
        """EY205 on an open object's likely typos, before `run`: the key a rename supplies is
        then not also reported missing (its EY201 fix would insert the key the rename writes)."""
        for suggestion in likely_typos(mapping, known, self.lines, self.sink, where=where):
            self._renamed.add((path, suggestion))

    def first_line(self, node: Node) -> Span:
        line = self.lines.position(node.start).line
        return self.lines.span(node.start, max(node.start, self.lines.line_end(line)))

    def owner_span(self, located: Located) -> Span:
        """Where to report something about an object as a whole."""
        if located.key is not None:
            return self.span(located.key)
        assert located.node is not None
        return self.first_line(located.node)

    def run(
        self,
        validator: ErrorSource | Callable[[], ErrorSource],
        value: PyValue,
        root: Node,
        prefix: Path = (),
        precheck: Callable[[Any], bool] | None = None,
    ) -> None:
        if precheck is not None and precheck(value):
            return  # certainly valid: jsonschema would find nothing
        if callable(validator):  # built only now: a valid file never imports jsonschema
            validator = validator()
        try:
            errors = list(validator.iter_errors(value))
        except RecursionError:
            self.sink.add("EY105", "this value nests too deeply to validate", self.first_line(root))
            return
        # Unknown keys first: a `required` error then knows which missing key a typo explains.
        errors.sort(key=lambda error: error.validator not in _CLOSING)
        for error in errors:
            self.report(error, root, prefix)

    def report(self, error: ValidationError, root: Node, prefix: Path) -> None:
        rel_path: Path = tuple(error.absolute_path)
        path = prefix + rel_path
        if self.skip and self.skip(error, path):
            return
        located = locate(root, rel_path)
        if located.node is None:
            return  # a path through an alias-expanded value we cannot place; reported elsewhere
        if self.overrides and self.overrides(error, path, located):
            return
        keyword = error.validator
        handler = getattr(self, f"_on_{keyword}", None)
        if handler is not None:
            handler(error, path, located)
        else:
            self._on_other(error, path, located)

    # -- keywords ------------------------------------------------------------------------------

    def _on_required(self, error: ValidationError, path: Path, located: Located) -> None:
        instance = error.instance if isinstance(error.instance, dict) else {}
        for name in error.validator_value:
            if name in instance or ("required", path, name) in self._said or \
                    (path, name) in self._renamed:
                continue
            self._said.add(("required", path, name))
            where = self.describe(path)
            if self._misspelt(name, path, located, error.schema, where):
                continue
            self.sink.add(
                "EY201",
                f"{where} is missing required key '{name}'" if where else
                f"missing required key '{name}'",
                self.owner_span(located),
                data={"insert_key": name},  # the editor offers to insert it (ide/actions)
            )

    def _on_type(self, error: ValidationError, path: Path, located: Located) -> None:
        self._said.add(("type", path))
        expected = error.validator_value
        names = [TYPE_NAMES.get(t, t) for t in ([expected] if isinstance(expected, str)
                                                   else expected)]
        assert located.node is not None
        subject = f"'{path_text(path)}'" if path else (self.describe(path) or "the document")
        self.sink.add(
            "EY202",
            f"{subject} must be {' or '.join(names)}, not {type_name(error.instance)}",
            self.span(located.node),
        )

    def _on_enum(self, error: ValidationError, path: Path, located: Located) -> None:
        allowed = [str(v) for v in error.validator_value]
        self._bad_choice(error.instance, allowed, path, located)

    def _on_const(self, error: ValidationError, path: Path, located: Located) -> None:
        self._bad_choice(error.instance, [str(error.validator_value)], path, located)

    def _bad_choice(self, value: Any, allowed: Seq[str], path: Path, located: Located) -> None:
        assert located.node is not None
        if ("type", path) in self._said:
            return  # `format: 1` is a wrong type; listing the allowed strings adds nothing
        shown = value if isinstance(value, str) else repr(value)
        suggestion = best_value(shown, allowed) if isinstance(value, str) else None
        fixes: tuple[Fix, ...] = ()
        if suggestion and isinstance(located.node, Scalar):
            fixes = (Fix(f"Change to '{suggestion}'",
                         (TextEdit(self.span(located.node), suggestion),), preferred=True),)
        hint = f"; did you mean '{suggestion}'?" if suggestion else ""
        self.sink.add(
            "EY203",
            f"'{shown}' is not a valid {_last_key(path)}: expected one of "
            f"{', '.join(allowed)}{hint}",
            self.span(located.node),
            fixes=fixes,
        )

    def _misspelt(self, name: str, path: Path, located: Located, schema: Any,
                  where: str) -> bool:
        """A missing required key written close by under a key the object does not know
        (`knid:` for `kind:` in a check whose kind is therefore unknown): one finding, on the
        misspelling, whose rename is the fix (EY205, as for an open object's typo)."""
        node = located.node
        if not isinstance(node, Mapping) or path in self._closed_paths:
            return False
        allowed = known_properties(self.kind, schema) if isinstance(schema, dict) else {}
        strays = {k.text: k for k in node.key_nodes() if k.text not in allowed}
        near = best(name, strays)
        if near is None:
            return False
        key = strays[near]
        self._renamed.add((path, name))
        self.sink.add(
            "EY205",
            f"unknown key '{key.text}' in {where or 'here'}; did you mean '{name}'? (an "
            "unknown key is ignored, so its value has no effect)",
            self.span(key),
            fixes=(Fix(f"Rename to '{name}'", (TextEdit(self.span(key), name),),
                       preferred=True),),
            data={"suggestion": name},
        )
        return True

    def _closed(self, error: ValidationError, path: Path, located: Located) -> None:
        node = located.node
        if not isinstance(node, Mapping):
            return
        self._closed_paths.add(path)
        allowed = known_properties(self.kind, error.schema)
        unknown = [k for k in node.key_nodes() if k.text not in allowed]
        where = self.describe(path) or "here"
        for key in unknown:
            suggestion = best(key.text, allowed)
            fixes: tuple[Fix, ...] = ()
            if suggestion:
                self._renamed.add((path, suggestion))
                fixes = (Fix(f"Rename to '{suggestion}'", (TextEdit(self.span(key), suggestion),),
                             preferred=True),)
                tail = f"; did you mean '{suggestion}'?"
            else:
                tail = f"; allowed keys: {', '.join(sorted(allowed))}"
            self.sink.add(
                "EY204",
                f"unknown key '{key.text}' in {where}{tail}",
                self.span(key),
                fixes=fixes,
                data={"suggestion": suggestion} if suggestion else None,
            )

    _on_unevaluatedProperties = _closed
    _on_additionalProperties = _closed

    def _on_oneOf(self, error: ValidationError, path: Path, located: Located) -> None:
        branches = error.validator_value
        instance = error.instance if isinstance(error.instance, dict) else {}
        choices = [b["required"][0] for b in branches
                   if isinstance(b, dict) and list(b) == ["required"] and len(b["required"]) == 1]
        if len(choices) != len(branches):
            self._on_other(error, path, located)
            return
        present = [c for c in choices if c in instance]
        where = self.describe(path) or "this object"
        if not present and any((path, c) in self._renamed for c in choices):
            return  # a misspelt choice: its EY204 rename supplies it (one mistake, one finding)
        if not present:
            self.sink.add("EY201", f"{where} needs one of {' or '.join(repr(c) for c in choices)}",
                          self.owner_span(located))
            return
        node = located.node
        assert isinstance(node, Mapping)
        second = node.pair(present[-1])
        assert second is not None
        self.sink.add(
            "EY207",
            f"{where} has both {' and '.join(repr(c) for c in present)}; keep only one",
            self.span(second[0]),
        )

    def _on_dependentRequired(self, error: ValidationError, path: Path, located: Located) -> None:
        node = located.node
        if not isinstance(node, Mapping):
            return
        for name, needs in error.validator_value.items():
            pair = node.pair(name)
            missing = [n for n in needs if node.pair(n) is None]
            if pair and missing:
                self.sink.add("EY207", f"'{name}' only applies together with "
                              f"{' and '.join(repr(m) for m in missing)}", self.span(pair[0]))

    def _on_minItems(self, error: ValidationError, path: Path, located: Located) -> None:
        count = error.validator_value
        self._constraint(located, f"'{path_text(path)}' needs at least {count} "
                         f"item{'s' if count != 1 else ''}")

    def _on_minLength(self, error: ValidationError, path: Path, located: Located) -> None:
        self._constraint(located, f"'{path_text(path)}' must not be empty")

    def _on_minimum(self, error: ValidationError, path: Path, located: Located) -> None:
        self._constraint(located, f"'{path_text(path)}' must be at least "
                         f"{error.validator_value}, not {error.instance}")

    def _on_maximum(self, error: ValidationError, path: Path, located: Located) -> None:
        self._constraint(located, f"'{path_text(path)}' must be at most "
                         f"{error.validator_value}, not {error.instance}")

    def _on_pattern(self, error: ValidationError, path: Path, located: Located) -> None:
        self._constraint(located, f"'{error.instance}' is not a valid {_last_key(path)} "
                         f"(expected the form {error.validator_value})")

    def _on_uniqueItems(self, error: ValidationError, path: Path, located: Located) -> None:
        self._constraint(located, f"'{path_text(path)}' lists the same item twice")

    def _on_format(self, error: ValidationError, path: Path, located: Located) -> None:
        self._constraint(located, f"'{error.instance}' is not a valid {error.validator_value} "
                         f"for '{path_text(path)}'")

    def _on_other(self, error: ValidationError, path: Path, located: Located) -> None:
        self._constraint(located, f"'{path_text(path)}': {error.message}")

    def _constraint(self, located: Located, message: str) -> None:
        assert located.node is not None
        self.sink.add("EY207", message, self.span(located.node))


_CLOSING = frozenset({"additionalProperties", "unevaluatedProperties"})


def _last_key(path: Path) -> str:
    for part in reversed(path):
        if isinstance(part, str):
            return part
    return "value"


MAX_TYPO_CANDIDATES = 64
"""Beyond this many unknown keys in one mapping, they are data, not typos (and ranking each
would cost seconds on a hostile file)."""


def likely_typos(
    mapping: Mapping,
    known: Iterable[str],
    lines: LineIndex,
    sink: FindingSink,
    *,
    where: str,
) -> list[str]:
    """EY205: in an open object, an unknown key close to a known one (far-off keys are fine).
    Returns the keys the suggested renames would write."""
    known_set = known if isinstance(known, (dict, set, frozenset)) else set(known)
    keys = mapping.key_nodes()
    unknown = [k for k in keys if k.text not in known_set]
    renamed: list[str] = []
    if not unknown or len(unknown) > MAX_TYPO_CANDIDATES:
        return renamed  # all known (every case of a dataset, nearly), or a payload of
        # extension keys, not a slip of the finger
    candidates = set(known_set) - {k.text for k in keys}
    for key in unknown:
        suggestion = best(key.text, candidates)
        if suggestion is None:
            continue
        renamed.append(suggestion)
        sink.add(
            "EY205",
            f"unknown key '{key.text}' in {where}{did_you_mean(key.text, [suggestion])} "
            "(an unknown key is ignored, so its value has no effect)",
            lines.span(key.start, key.end),
            fixes=(Fix(f"Rename to '{suggestion}'",
                       (TextEdit(lines.span(key.start, key.end), suggestion),), preferred=True),),
            data={"suggestion": suggestion},
        )
    return renamed


def open_object_keys(kind: Kind, node_schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return known_properties(kind, resolve_local(kind, node_schema))
