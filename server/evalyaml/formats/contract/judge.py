"""Judge files: the schema, template variables, validation figures and their freshness.

Template variables are found in the *source* text of the `template` scalar, not its value, so a
finding lands on the exact characters even inside a `|` block (whose value has lost its
indentation) or a quoted string.
"""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from evalyaml.core.findings import FindingSink, Fix, TextEdit
from evalyaml.core.kinds import FileKind
from evalyaml.core.model import Definition
from evalyaml.core.options import Options
from evalyaml.core.schemas import schema
from evalyaml.core.suggest import best_value
from evalyaml.core.validate import Located, Path
from evalyaml.formats.contract.identity import check_version
from evalyaml.formats.contract.schema_report import SchemaReporter
from evalyaml.formats.contract.schemas import validator
from evalyaml.formats.contract.words import TEMPLATE_VARIABLES
from evalyaml.syntax.lazyre import lazy_re
from evalyaml.syntax.parsed import ParsedText
from evalyaml.syntax.tree import Budget, Mapping, Scalar, to_python

if TYPE_CHECKING:
    from jsonschema import ValidationError

# `[^{}]*` cannot match a brace, so a failed match gives up at the next one: linear time. (An
# earlier `\s*([^{}]*?)\s*` backtracked cubically on `{{` followed by a long run of spaces.)
_TAG = lazy_re(r"\{\{(\{?)([#^/!>&]?)([^{}]*)\}?\}\}")
_OPEN = lazy_re(r"\{\{")


def analyze_judge(
    parsed: ParsedText, root: Mapping, budget: Budget, options: Options, sink: FindingSink
) -> Definition | None:
    lines = parsed.lines

    def describe(path: Path) -> str:
        return "the judge" if path == () else f"'{path[-1]}'"

    def skip(error: ValidationError, path: Path) -> bool:
        if path == ("version",):
            return True
        return path == ("validation", "validated_at") and error.validator == "format"

    def overrides(error: ValidationError, path: Path, located: Located) -> bool:
        if error.validator == "required" and "level_names" in error.validator_value \
                and "then" in error.schema_path:
            score_type = root.get("score_type")
            if isinstance(score_type, Scalar):
                sink.add("EY401", "score_type 'levels' needs 'level_names': the names of the "
                         "levels, lowest first", parsed.span(score_type))
                return True
        if path[:1] == ("validation",) and len(path) == 2 and path[1] in ("tpr", "tnr") and \
                error.validator in ("minimum", "maximum") and located.node is not None:
            name = {"tpr": "true-positive rate", "tnr": "true-negative rate"}[str(path[1])]
            hint = ""
            if isinstance(error.instance, int) and 2 <= error.instance <= 100:
                hint = f" (write {error.instance / 100:g})"  # a percentage, most likely
            sink.add("EY402", f"'{path[1]}' is {error.instance}, but a {name} is a fraction "
                     f"from 0 to 1{hint}", parsed.span(located.node))
            return True
        return False

    value = to_python(root, budget)
    reporter = SchemaReporter(FileKind.JUDGE, lines, sink, describe=describe, skip=skip,
                              overrides=overrides)
    reporter.open_typos(root, schema(FileKind.JUDGE)["properties"], where="the judge")
    reporter.run(validator(FileKind.JUDGE), value, root)
    version, version_span = check_version(root, lines, sink)
    template = root.get("template")
    if isinstance(template, Scalar) and isinstance(template.value, str):
        _check_template(template, parsed, sink)
    validated_at = _check_validation(root, parsed, options, sink)

    id_node = root.get("id")
    if not isinstance(id_node, Scalar) or not isinstance(id_node.value, str) or not id_node.text:
        return None
    validation = root.get("validation")
    score_type = root.get("score_type")
    description = root.get("description")
    return Definition(
        FileKind.JUDGE,
        id_node.text,
        version,
        parsed.span(id_node),
        version_span,
        description=description.text if isinstance(description, Scalar) else None,
        score_type=score_type.text if isinstance(score_type, Scalar) else None,
        tpr=_rate(validation, "tpr"),
        tnr=_rate(validation, "tnr"),
        validated_at=validated_at,
        has_validation=isinstance(validation, Mapping),
    )


def _rate(validation: object, key: str) -> float | None:
    if not isinstance(validation, Mapping):
        return None
    node = validation.get(key)
    if isinstance(node, Scalar) and isinstance(node.value, (int, float)) and \
            not isinstance(node.value, bool):
        return float(node.value)
    return None


def _check_template(template: Scalar, parsed: ParsedText, sink: FindingSink) -> None:
    source = parsed.text[template.start : template.end]
    base = template.start
    opened_by_tags: set[int] = set()  # offsets of the `{{` that belong to a closed tag
    for match in _TAG.finditer(source):
        opened_by_tags.add(match.start())
        if match.group(1):
            opened_by_tags.add(match.start() + 1)  # `{{{x}}}` holds a second `{{`
        sigil, raw_name = match.group(2), match.group(3)
        name = raw_name.strip()
        if sigil in ("!", ">", "/") or not name:
            continue  # comments, partials and closing tags: the opening tag is the one checked
        words = name.split(".", 1)[0].split()
        if not words:
            continue  # `{{ .x }}`: no variable name to check
        root_name = words[0]
        if root_name in TEMPLATE_VARIABLES:
            continue
        start = base + match.start(3) + (len(raw_name) - len(raw_name.lstrip()))
        span = parsed.lines.span(start, start + len(root_name))
        suggestion = best_value(root_name, TEMPLATE_VARIABLES)
        fixes = (Fix(f"Change to '{suggestion}'", (TextEdit(span, suggestion),), preferred=True),
                 ) if suggestion else ()
        hint = f"; did you mean '{suggestion}'?" if suggestion else \
            f"; known variables: {', '.join(TEMPLATE_VARIABLES)}"
        sink.add("EY400", f"unknown template variable '{root_name}'{hint}", span, fixes=fixes,
                 data={"suggestion": suggestion} if suggestion else None)
    for match in _OPEN.finditer(source):
        if match.start() in opened_by_tags:
            continue
        start = base + match.start()
        sink.add("EY406", "'{{' is never closed with '}}'",
                 parsed.lines.span(start, start + 2))


def _check_validation(
    root: Mapping, parsed: ParsedText, options: Options, sink: FindingSink
) -> date | None:
    validation = root.get("validation")
    if not isinstance(validation, Mapping):
        return None
    node = validation.get("validated_at")
    if not isinstance(node, Scalar) or node.value is None:
        return None
    span = parsed.span(node)
    try:
        when = date.fromisoformat(node.text.strip())
        if len(node.text.strip()) != 10:
            raise ValueError(node.text)
    except ValueError:
        sink.add("EY405", f"validated_at '{node.text}' is not a date; write it as YYYY-MM-DD",
                 span)
        return None
    age = (options.today - when).days
    if age < 0:
        sink.add("EY404", f"validated_at {when.isoformat()} is in the future (today is "
                 f"{options.today.isoformat()})", span)
    elif age > options.freshness_days:
        sink.add("EY403", f"this judge was validated {age} days ago ({when.isoformat()}), more "
                 f"than the {options.freshness_days}-day limit; re-validate it and update "
                 "validated_at", span, data={"age_days": str(age)})
    return when
