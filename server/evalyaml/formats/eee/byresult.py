"""An aggregate result by result (`core.items`, issue #27): a keystroke in one of 10,000
`evaluation_results` checks that result, not the file.

No rule reads two results: the schema checks each result against `evaluation_results.items`
(messages naming `evaluation_results[3]`), EY727 compares a result's score with its own metric's
range, EY112 looks at one number; the results add only their `evaluation_name` to the symbols
(`AggregateResult.cases`). So there is no cross-result pass: the file's findings are the
root's and each result's, end to end.

The array is cut out of the object by `syntax.jsonsplit` (as a promptfoo JSON config's `tests`);
the root is checked as a whole aggregate whose `evaluation_results` is `[]` (`check_aggregate`
on the compact skeleton: every root rule, facts and references, none of them reading the
results); each result alone, with the walk's path and the result's index. What a result reads
of the root is the schema it is checked against (the version declared, or none after EY700):
that is the fingerprint its cached result is keyed by, so changing `schema_version` re-checks
every result. A result the version's compiled predicate passes (`fastpath`, C json) skips the
walk, so a first analysis costs no more than the whole file's. Only a document with a cache
goes this way (the command line reads the file whole, as it does the other formats' JSON lists:
real aggregates hold a handful of results); a file that does not cut (a parser finding,
results sharing a line, no single `evaluation_results` array) or a schema whose root rules
read the array (none of upstream's do) is analysed whole.
"""

from __future__ import annotations

from collections.abc import Sequence

from evalyaml.core.findings import Finding, FindingSink
from evalyaml.core.items import Item, ItemState, analyze_items
from evalyaml.core.joined import Joined
from evalyaml.core.model import CaseSummary
from evalyaml.core.options import Options
from evalyaml.formats.eee import fastpath, semantic, versions
from evalyaml.formats.eee.aggregate import WHAT, AggregateResult, check_aggregate
from evalyaml.formats.eee.kinds import AGGREGATE
from evalyaml.formats.eee.schemacheck import Schema, SchemaCheck
from evalyaml.syntax.jsonsplit import JsonItems, JsonReading
from evalyaml.syntax.record import record, replace
from evalyaml.syntax.text import Position, Span
from evalyaml.syntax.tree import Mapping, Node, Scalar
from evalyaml.syntax.yaml.parse import read_mapping

STATE = "eee-aggregate-results"
JOINED = "eee-aggregate-joined"
KEY = "evaluation_results"

# What a root schema may hold for its results to be checked apart: none of these keywords reads
# one property's value together with another's (an `if` on the root, `dependencies`, would).
_ROOT_KEYWORDS = frozenset({"$schema", "$id", "$defs", "definitions", "version", "title",
                            "type", "description", "required", "additionalProperties",
                            "properties"})
_ARRAY_KEYWORDS = frozenset({"type", "description", "items"})
_PREDICATES: dict[str, fastpath.Predicate] = {}  # per version: a result the walk passes


@record
class ResultsRoot:
    """The root's check: its facts and references (`check_aggregate` over the compact
    skeleton), where its `{` is (EY726's place), and what each result is checked against."""

    checked: AggregateResult
    at: Span
    schema: Schema | None  # the root schema; None: an unknown version (EY700), none checked
    item: Schema
    version: str
    valid: fastpath.Predicate | None  # True only when the walk over a result finds nothing


class ResultRules(JsonReading):
    """`core.items.ItemRules` for an aggregate's `evaluation_results`, read as JSON."""

    key = KEY
    uses_index = True  # the schema's and EY727's messages say `evaluation_results[3]`

    def __init__(self, path: str | None, items: JsonItems) -> None:
        self.path = path
        self.items = items

    def root(self, text: str, options: Options
             ) -> tuple[tuple[Finding, ...], ResultsRoot] | None:
        read = read_mapping(self.parse, text, strict=options.strict)
        if read is None:
            return None
        sink, parsed, root = read
        checked = check_aggregate(root, parsed.lines, sink, self.path)
        version = checked.facts.get("version")
        schema = versions.schema_for(AGGREGATE, version if isinstance(version, str) else None)
        if schema is None and version is not None:
            key, item, valid = "unchecked", {}, None
        else:  # as `check_aggregate`: no version declared is the newest
            schema = schema or versions.newest(AGGREGATE)
            key = versions.NEWEST if version is None else str(version)
            found = result_schema(schema)
            if found is None:
                return None  # a schema this module cannot split: the file is read whole
            item, valid = found, _PREDICATES.get(key)
            if valid is None:
                valid = _PREDICATES[key] = fastpath.compile_valid(schema, at=item)
        return tuple(sink.findings), ResultsRoot(
            checked, parsed.lines.span(root.start, root.start + 1), schema, item, key, valid)

    def fingerprint(self, root: ResultsRoot) -> str:
        return root.version

    def item(self, text: str, index: int, root: ResultsRoot, options: Options
             ) -> Item[CaseSummary | None] | None:
        sink = FindingSink(strict=options.strict)
        lone = self.lone(text, index, sink)
        if lone is None:
            return None
        parsed, result = lone
        lines = parsed.lines

        def place(node: Node) -> Span:
            return lines.span(node.start, node.end)

        if root.schema is not None:  # as `check_aggregate` walks the results
            valid = root.valid
            value = fastpath.load(text) if valid is not None else None
            if value is None or valid is None or not valid(value):
                SchemaCheck(root.schema, sink, place, what=WHAT).check_at(
                    result, root.item, (KEY, index))
            semantic.overflowing_numbers(result, place, sink)
            semantic.score_range(index, result, place, sink)
        name = result.get("evaluation_name") if isinstance(result, Mapping) else None
        case = CaseSummary(name.text, place(result), place(name)) \
            if isinstance(name, Scalar) and name.style else None
        return Item(tuple(sink.findings), case)

    def shift(self, facts: CaseSummary | None, lines: int) -> CaseSummary | None:
        return None if facts is None else facts.shifted(lines)

    def shift_root(self, root: ResultsRoot, first_line: int, lines: int) -> ResultsRoot:
        checked = root.checked
        moved = AggregateResult(
            {name: _moved(value, first_line, lines) for name, value in checked.facts.items()},
            [r.shifted(lines) if r.span.start.line >= first_line else r
             for r in checked.references], [])
        return replace(root, checked=moved)


def _nowhere(node: Node) -> Span:
    """The place of a check that only resolves `$ref`s (never reports)."""
    return Span.point(0, 0)


def result_schema(schema: Schema) -> Schema | None:
    """What each result is checked against, when the root's rules read nothing of the results
    beyond the array's type (`check_aggregate` then says the same of `[]`); else None."""
    if not set(schema) <= _ROOT_KEYWORDS:
        return None
    found = schema.get("properties", {}).get(KEY)
    resolver = SchemaCheck(schema, FindingSink(strict=False), _nowhere, what=WHAT)
    array = resolver.resolve(found) if isinstance(found, dict) else None
    if array is None or not set(array) <= _ARRAY_KEYWORDS or array.get("type") != "array":
        return None
    item = array.get("items")
    return item if isinstance(item, dict) else None


def _moved(value: object, first_line: int, lines: int) -> object:
    """A root fact's place moved below the results (`(value, span)` pairs, the root's start)."""
    if isinstance(value, tuple) and value and isinstance(value[-1], Span) and \
            value[-1].start.line >= first_line:
        return (*value[:-1], value[-1].shifted(lines))
    if isinstance(value, Position) and value.line >= first_line:
        return Position(value.line + lines, value.character)
    return value


def analyze_by_result(text: str, path: str | None, options: Options, state: ItemState
                      ) -> tuple[list[Finding], AggregateResult, Span] | None:
    """The aggregate's findings (before the path rules), facts, references and cases as
    `check_aggregate` over the whole file gives them, and where its root starts; None: read
    the file whole."""
    items = JsonItems(KEY)
    done = analyze_items(text, ResultRules(path, items), options, state, items)
    if done is None:
        return None
    joined = state.extra.get(JOINED)
    if not isinstance(joined, Joined):
        joined = state.extra[JOINED] = Joined(_fields, 2)
    found, cases = joined.update(done.items)
    root = done.root.checked
    checked = AggregateResult(dict(root.facts), list(root.references),
                              cases)  # type: ignore[arg-type]
    return [*done.root_findings, *found], checked, done.root.at  # type: ignore[list-item]


def _fields(item: Item[CaseSummary | None]) -> tuple[Sequence[object], ...]:
    return item.findings, () if item.facts is None else (item.facts,)
