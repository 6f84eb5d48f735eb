"""Rubric files: the schema, then what a schema cannot say.

Beyond the schema: an unknown check `kind` is a warning with a did-you-mean (other modules may
contribute kinds, so it is never an error); regex patterns must compile; a `json_schema` check's
`schema` must itself be a valid schema; check ids are unique; `weighted_avg` needs a weight
above zero.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from evalyaml.core.findings import FindingSink, Fix, Related, TextEdit
from evalyaml.core.kinds import FileKind
from evalyaml.core.model import CheckSummary, Definition, Reference
from evalyaml.core.schemas import schema
from evalyaml.core.suggest import best
from evalyaml.core.validate import Path, locate
from evalyaml.formats.contract.identity import check_version
from evalyaml.formats.contract.refscan import collect_reference
from evalyaml.formats.contract.schema_report import SchemaReporter
from evalyaml.formats.contract.schemas import CHECK_KINDS, validator
from evalyaml.syntax.lazyre import lazy_re
from evalyaml.syntax.parsed import ParsedText
from evalyaml.syntax.tree import Budget, Mapping, Node, PyValue, Scalar, Sequence, to_python

if TYPE_CHECKING:
    from jsonschema import ValidationError

_REF_FIELDS = ("rubric_ref", "judge_prompt_ref")
_MAX_PATTERN = 10_000
_PCRE_NAMED_GROUP = lazy_re(r"\(\?<(?=[A-Za-z_])")
_FLAG_BITS = {"i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL, "x": re.VERBOSE}


def check_label(check: Node | None, index: int) -> str:
    if isinstance(check, Mapping):
        kind = check.get("kind")
        check_id = check.get("id")
        kind_text = f"{kind.text} " if isinstance(kind, Scalar) and kind.text else ""
        if isinstance(check_id, Scalar) and check_id.text:
            return f"{kind_text}check '{check_id.text}'"
        return f"{kind_text}check #{index + 1}"
    return f"check #{index + 1}"


def analyze_rubric(
    parsed: ParsedText, root: Mapping, budget: Budget, sink: FindingSink
) -> tuple[Definition | None, list[Reference]]:
    lines = parsed.lines
    checks_node = root.get("checks")
    checks = checks_node.items if isinstance(checks_node, Sequence) else []

    def describe(path: Path) -> str:
        if len(path) >= 2 and path[0] == "checks" and isinstance(path[1], int):
            label = check_label(checks[path[1]] if path[1] < len(checks) else None, path[1])
            return "this " + label if len(path) == 2 else f"{label}, '{path[-1]}'"
        if path == ():
            return "the rubric"
        return f"'{path[-1]}'"

    def skip(error: ValidationError, path: Path) -> bool:
        if path == ("version",):
            return True  # identity.check_version says it better
        return (bool(path) and path[-1] in _REF_FIELDS and error.validator == "pattern") or (
            len(path) >= 3 and path[-1] == "judge_prompt_ref" and error.validator == "pattern"
        )

    value = to_python(root, budget)
    reporter = SchemaReporter(FileKind.RUBRIC, lines, sink, describe=describe, skip=skip)
    reporter.open_typos(root, schema(FileKind.RUBRIC)["properties"], where="the rubric")
    reporter.run(validator(FileKind.RUBRIC), value, root)
    version, version_span = check_version(root, lines, sink)

    references: list[Reference] = []
    summaries: list[CheckSummary] = []
    for index, check in enumerate(checks):
        if not isinstance(check, Mapping):
            continue
        label = check_label(check, index)
        kind_node = check.get("kind")
        kind = kind_node.text if isinstance(kind_node, Scalar) else ""
        if isinstance(kind_node, Scalar) and kind not in CHECK_KINDS:
            _unknown_kind(kind_node, parsed, sink)
        if kind == "regex":
            _check_regex(check, parsed, sink)
        elif kind == "json_schema":
            _check_json_schema(check, parsed, budget, sink)
        elif kind == "composite":
            collect_reference(check, "rubric_ref", target=FileKind.RUBRIC, origin="composite",
                              owner=label, parsed=parsed, sink=sink, out=references)
        elif kind == "llm_judge":
            collect_reference(check, "judge_prompt_ref", target=FileKind.JUDGE,
                              origin="llm_judge", owner=label, parsed=parsed, sink=sink,
                              out=references)
            jury = check.get("jury")
            if isinstance(jury, Sequence):
                for member in jury.items:
                    if isinstance(member, Mapping):
                        collect_reference(member, "judge_prompt_ref", target=FileKind.JUDGE,
                                          origin="jury", owner=label, parsed=parsed, sink=sink,
                                          out=references)
        check_id = check.get("id")
        description = check.get("description")
        summaries.append(CheckSummary(
            kind or "?",
            check_id.text if isinstance(check_id, Scalar) else None,
            parsed.lines.span(check.start, lines.line_end(lines.position(check.start).line)),
            description.text if isinstance(description, Scalar) else None,
        ))
    _duplicate_check_ids(checks, parsed, sink)
    combine = _check_weights(root, checks, parsed, sink)
    definition = _definition(root, parsed=parsed, version=version, version_span=version_span,
                             checks=tuple(summaries), combine=combine)
    return definition, references


def _definition(
    root: Mapping,
    *,
    parsed: ParsedText,
    version: str | None,
    version_span: Any,
    checks: tuple[CheckSummary, ...],
    combine: str | None,
) -> Definition | None:
    id_node = root.get("id")
    if not isinstance(id_node, Scalar) or not isinstance(id_node.value, str) or not id_node.text:
        return None
    description = root.get("description")
    return Definition(
        FileKind.RUBRIC,
        id_node.text,
        version,
        parsed.span(id_node),
        version_span,
        description=description.text if isinstance(description, Scalar) else None,
        checks=checks,
        combine=combine,
    )


def _unknown_kind(kind_node: Scalar, parsed: ParsedText, sink: FindingSink) -> None:
    suggestion = best(kind_node.text, CHECK_KINDS)
    span = parsed.span(kind_node)
    if suggestion:
        sink.add(
            "EY206",
            f"unknown check kind '{kind_node.text}'; did you mean '{suggestion}'?",
            span,
            fixes=(Fix(f"Change to '{suggestion}'", (TextEdit(span, suggestion),),
                       preferred=True),),
            data={"suggestion": suggestion},
        )
    else:
        sink.add(
            "EY206",
            f"unknown check kind '{kind_node.text}' (not built in; fine if another module "
            f"provides it). Built-in kinds: {', '.join(CHECK_KINDS)}",
            span,
        )


def _check_regex(check: Mapping, parsed: ParsedText, sink: FindingSink) -> None:
    pattern_node = check.get("pattern")
    if not isinstance(pattern_node, Scalar) or not isinstance(pattern_node.value, str):
        return
    pattern = pattern_node.text
    if len(pattern) > _MAX_PATTERN:
        sink.add("EY212", f"regex pattern is {len(pattern)} characters long; evalyaml checks "
                 f"patterns up to {_MAX_PATTERN}", parsed.span(pattern_node))
        return
    flags_node = check.get("flags")
    flag_bits = 0
    if isinstance(flags_node, Scalar):
        for letter in flags_node.text:
            flag_bits |= _FLAG_BITS.get(letter, 0)
    try:
        # PCRE's (?<name>...) is Python's (?P<name>...); graders run PCRE-compatible engines.
        re.compile(_PCRE_NAMED_GROUP.sub("(?P<", pattern), flag_bits)
    except re.error as err:
        span = parsed.span(pattern_node)
        if err.pos is not None and "\n" not in pattern:
            start = pattern_node.start + (0 if pattern_node.is_plain else 1)
            if pattern_node.is_plain or (pattern_node.style == "'" and "'" not in pattern):
                at = start + err.pos
                span = parsed.lines.span(at, min(at + 1, pattern_node.end))
        sink.add("EY212", f"regex does not compile: {err.msg}"
                 + (f" at position {err.pos}" if err.pos is not None else ""), span)
    except RecursionError:  # its text depends on the caller's stack depth: not a message
        sink.add("EY212", "regex does not compile: it nests too deeply",
                 parsed.span(pattern_node))
    except (OverflowError, ValueError) as err:
        sink.add("EY212", f"regex does not compile: {err}", parsed.span(pattern_node))


def _check_json_schema(check: Mapping, parsed: ParsedText, budget: Budget,
                       sink: FindingSink) -> None:
    schema_node = check.get("schema")
    if not isinstance(schema_node, Mapping):
        return
    value: PyValue = to_python(schema_node, budget)
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match

    try:
        errors = list(Draft202012Validator(Draft202012Validator.META_SCHEMA).iter_errors(value))
    except RecursionError:
        sink.add("EY213", "the schema nests too deeply to check", parsed.span(schema_node))
        return
    if not errors:
        return
    error = best_match(errors)
    if error is None:  # pragma: no cover - best_match of a non-empty list is an error
        return
    located = locate(schema_node, tuple(error.absolute_path))
    node = located.node or schema_node
    message = error.message
    if error.validator in ("anyOf", "type", "enum") and error.absolute_path and \
            error.absolute_path[-1] == "type" and isinstance(error.instance, str):
        types = ["array", "boolean", "integer", "null", "number", "object", "string"]
        suggestion = best(error.instance, types)
        message = f"'{error.instance}' is not a JSON Schema type (one of {', '.join(types)})" + (
            f"; did you mean '{suggestion}'?" if suggestion else "")
    sink.add("EY213", f"the check's schema is not a valid JSON Schema: {message}",
             parsed.span(node))


def _duplicate_check_ids(checks: list[Node], parsed: ParsedText, sink: FindingSink) -> None:
    first: dict[str, Scalar] = {}
    for check in checks:
        if not isinstance(check, Mapping):
            continue
        id_node = check.get("id")
        if not isinstance(id_node, Scalar) or not id_node.text:
            continue
        earlier = first.setdefault(id_node.text, id_node)
        if earlier is id_node:
            continue
        line = parsed.lines.position(earlier.start).line + 1
        sink.add(
            "EY211",
            f"check id '{id_node.text}' is already used on line {line}; check ids must be unique "
            "within a rubric",
            parsed.span(id_node),
            related=(Related(None, parsed.span(earlier), f"first check '{id_node.text}'"),),
        )


def _check_weights(root: Mapping, checks: list[Node], parsed: ParsedText,
                   sink: FindingSink) -> str | None:
    scoring = root.get("scoring")
    combine_node = scoring.get("combine") if isinstance(scoring, Mapping) else None
    combine = combine_node.text if isinstance(combine_node, Scalar) else None
    if combine != "weighted_avg" or not checks or combine_node is None:
        return combine
    weights: list[Node] = []
    for check in checks:
        weight = check.get("weight") if isinstance(check, Mapping) else None
        if not isinstance(weight, Scalar) or weight.value not in (0, 0.0) or \
                isinstance(weight.value, bool):
            return combine  # a missing weight is 1; any non-zero weight is enough
        weights.append(weight)
    sink.add(
        "EY214",
        "scoring 'weighted_avg' with every check's weight 0 has nothing to average; give at "
        "least one check a positive weight",
        parsed.span(combine_node),
        related=tuple(Related(None, parsed.span(w), "weight 0") for w in weights),
    )
    return combine
