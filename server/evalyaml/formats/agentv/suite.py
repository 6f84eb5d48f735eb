"""The rules of `agentv validate` (`eval-validator.ts`) and of the loader (`yaml-parser.ts`,
`grader-parser.ts`) at e43a4d46, each at the key or value it is about.

Severities follow upstream: what makes the validator report an error, or the loader throw, is
BROKEN (an error in every mode); what they warn about, or what the loader drops without a word,
is CONTRACT (a warning, an error in strict mode). Where the validator and the loader disagree the
loader wins, because it is what runs: object-valued `input` (the seed PR's headline feature) is
accepted, although `agentv validate` 4.x still rejects it.

What needs other files (does a `file://` prompt exist, is a type a custom assertion on disk) is
recorded here as `Refs` in the analysis' facts and decided by the format's cross check.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import PurePath

from evalyaml.core.findings import Fix, TextEdit
from evalyaml.core.model import CaseSummary
from evalyaml.core.suggest import rank
from evalyaml.formats.agentv import rules
from evalyaml.formats.agentv.common import Context, is_null, pairs, quoted_like, rank_value, text_of
from evalyaml.formats.agentv.depends import Dependency, check_dependencies
from evalyaml.formats.agentv.execution import ignored_values_and_targets, suite_targets
from evalyaml.formats.agentv.graders import check_grader_fields
from evalyaml.formats.agentv.jsregex import js_regex_error
from evalyaml.formats.agentv.meta import merge, plain, pretty, rubric_items, suite_payload
from evalyaml.formats.agentv.rubrics import check_assertion_rubrics, check_inline_rubrics
from evalyaml.formats.agentv.testvars import check_vars
from evalyaml.syntax.text import Span
from evalyaml.syntax.tree import Mapping, Node, PyValue, Scalar, Sequence

_NAME = re.compile(r"^[a-z0-9-]+$")
_ENV = "${{"
# A bare prompt that is a path: one line, no spaces, a Markdown or text suffix.
_BARE_PATH = re.compile(r"^[^\s{}]+\.(?:md|markdown|txt|prompt)$", re.IGNORECASE)


@dataclass(slots=True)
class SuiteRef:
    """A file the suite names: `role` is `prompt` (a `file://` grader prompt), `bare-prompt`
    (a prompt string that looks like a path: sent as inline text), `cases` (`tests:` path or
    `file://` entry), `type` (an assertion type that is no built-in grader kind)."""

    role: str
    name: str
    span: Span
    quote: str = ""  # the scalar's style, for a fix that keeps it
    raw: str = ""  # the scalar's text as written
    # A prompt's test as its grader sees it (input, expected_output, criteria, effective
    # metadata, rubrics): what hover renders the prompt with. Plain values only.
    context: dict[str, PyValue] | None = None


@dataclass(slots=True)
class SuiteFacts:
    refs: list[SuiteRef] = field(default_factory=list)
    test_ids: list[tuple[str, Span]] = field(default_factory=list)
    depends: list[Dependency] = field(default_factory=list)
    cases: list[CaseSummary] = field(default_factory=list)
    suite_meta: dict[str, PyValue] = field(default_factory=dict)
    suite_input_files: bool = False  # the suite has `input_files` (a list with a string)
    current: dict[str, PyValue] | None = None  # the test being checked


def check_suite(ctx: Context, root: Node | None, facts: SuiteFacts, *,
                tests_elsewhere: bool = False) -> None:
    """`tests_elsewhere`: the root of a suite split into its tests (`bytest.py`), whose
    `tests:` has its list's lines taken out; each test is checked on its own (`check_item`)
    and what crosses tests (`cross_test_rules`) over all of them."""
    if not isinstance(root, Mapping):
        span = ctx.span(root) if root is not None else Span.point(0, 0)
        ctx.add("EY600", "agentv cannot load the suite: the file must contain a YAML object "
                "(\"File must contain a YAML object\")", span)
        return
    top = pairs(root)
    _top_level_keys(ctx, top)
    values = {key.text: (key, value) for key, value in top}
    facts.suite_meta = suite_payload(plain(values["metadata"][1]) if "metadata" in values
                                     else None,
                                     plain(values["governance"][1]) if "governance" in values
                                     else None)
    _name_and_version(ctx, values)
    if "input_files" in values:
        facts.suite_input_files = _string_items(values["input_files"][1])
        _input_file_refs(ctx, values["input_files"][1], facts)
    if "input" in values:
        key, value = values["input"]
        _suite_input(ctx, key, value)
    for name in ("assertions", "assert", "evaluator"):
        if name in values:
            key, value = values[name]
            check_assertions(ctx, key, value, facts, where="the suite")
    if "workspace" in values:
        key, value = values["workspace"]
        check_workspace(ctx, key, value, facts)
    for role, name, node in suite_targets(ctx, values):
        facts.refs.append(SuiteRef(role, name, ctx.span(node), node.style, node.text))
    tests_key = next((n for n in ("tests", "eval_cases", "evalcases") if n in values), None)
    if tests_key is None:
        span = ctx.span(top[0][0]) if top else Span.point(0, 0)
        ctx.add("EY605", "agentv cannot run the suite: it has no 'tests' (\"Missing or invalid "
                "'tests' field (must be an array or a file path string)\")", span)
        return
    key, value = values[tests_key]
    if tests_elsewhere:
        return
    if isinstance(value, Scalar) and isinstance(value.value, str) and value.text:
        _tests_path(ctx, value, facts)
        return
    if not isinstance(value, Sequence):
        ctx.add("EY605", "'tests' must be a list of tests or the path of a cases file "
                "(\"Missing or invalid 'tests' field (must be an array or a file path string)\")",
                ctx.at(key, value))
        return
    check_tests(ctx, value.items, facts)
    cross_test_rules(ctx, facts)


def cross_test_rules(ctx: Context, facts: SuiteFacts) -> None:
    """What one test's edit can change in another: `depends_on` between tests."""
    external = any(ref.role in ("tests-entry", "tests-glob") for ref in facts.refs)
    check_dependencies(ctx, [test_id for test_id, _ in facts.test_ids], facts.depends,
                       complete=not external)


def check_tests(ctx: Context, items: list[Node], facts: SuiteFacts, *,
                cases_file: bool = False) -> None:
    """`cases_file`: a cases file's items are tests only (`parseYamlCases` throws on anything
    else, a `file://` string included: only a suite's list expands them)."""
    for item in items:
        check_item(ctx, item, facts, cases_file=cases_file)
    duplicate_ids(ctx, facts)


def check_item(ctx: Context, item: Node, facts: SuiteFacts, *, cases_file: bool = False
               ) -> None:
    """One item of a `tests` list or a cases file, on its own (see `duplicate_ids`)."""
    if cases_file and not isinstance(item, Mapping):
        ctx.add("EY605", "each item of a cases file must be a test mapping (\"External test "
                "file contains non-object entry\"): agentv cannot load the suite",
                ctx.span(item) if item.end > item.start else ctx.point(item))
        return
    if isinstance(item, Scalar) and isinstance(item.value, str):
        if item.value.startswith("file://"):
            _tests_entry(ctx, item, facts)
        else:
            ctx.add("EY605", "a test given as a string must be a file reference "
                    "(\"Test case string must be a file reference (file://...)\")",
                    ctx.span(item))
        return
    if not isinstance(item, Mapping):
        ctx.add("EY605", "a test must be a mapping (\"Eval case must be an object\")",
                ctx.span(item) if item.end > item.start else ctx.point(item))
        return
    check_test(ctx, item, facts)


def duplicate_ids(ctx: Context, facts: SuiteFacts) -> None:
    seen: dict[str, Span] = {}
    for test_id, span in facts.test_ids:
        if test_id in seen:
            first = seen[test_id]
            ctx.add("EY607", f"Duplicate test ID '{test_id}' (first at line "
                    f"{first.start.line + 1}): agentv eval stops before running any test "
                    "(each test must have a unique ID)", span)
        else:
            seen[test_id] = span


def _top_level_keys(ctx: Context, top: list[tuple[Scalar, Node]]) -> None:
    present = {key.text for key, _ in top}
    for key, _ in top:
        name = key.text
        if name in rules.DEPRECATED_TOP_LEVEL:
            new = rules.DEPRECATED_TOP_LEVEL[name]
            ctx.add("EY602", f"'{name}' is deprecated. Use '{new}' instead.", ctx.span(key),
                    fixes=(ctx.rename_fix(key, new),) if new not in present else ())
        elif name not in rules.TOP_LEVEL_KEYS:
            _unknown_key(ctx, key, rules.TOP_LEVEL_KEYS, present, "suite")


def _unknown_key(ctx: Context, key: Scalar, known: tuple[str, ...], present: set[str],
                 where: str) -> None:
    ranked = [k for k in rank(key.text, known) if k not in present]
    hint = f"; did you mean '{ranked[0]}'?" if ranked else ""
    ctx.add("EY601", f"Unknown field '{key.text}' in the {where}: agentv ignores it{hint}",
            ctx.span(key), fixes=tuple(ctx.rename_fix(key, k) for k in ranked[:3]))


def _name_and_version(ctx: Context, values: dict[str, tuple[Scalar, Node]]) -> None:
    if "name" in values:
        value = values["name"][1]
        name = text_of(value)
        if name is not None and _ENV not in name and not _NAME.match(name):
            suggestion = re.sub(r"[^a-z0-9-]+", "-", name.lower()).strip("-")
            fixes = ((Fix(f"Replace with '{suggestion}'", (TextEdit(
                ctx.span(value), quoted_like(value, suggestion) if isinstance(value, Scalar)
                else suggestion),), preferred=True),) if suggestion else ())
            ctx.add("EY603", f"Invalid 'name' format '{name}'. Must match pattern "
                    "/^[a-z0-9-]+$/ (lowercase alphanumeric with hyphens); the loader refuses "
                    "the suite", ctx.span(value), fixes=fixes)
    if "version" in values:
        value = values["version"][1]
        if isinstance(value, Scalar) and isinstance(value.value, (int, float)) and \
                not isinstance(value.value, bool):
            ctx.add("EY603", f"'version' must be a string: the loader refuses the number "
                    f"{value.text}; quote it (\"{value.text}\")", ctx.span(value),
                    fixes=(Fix(f"Quote as \"{value.text}\"", (TextEdit(
                        ctx.span(value), f'"{value.text}"'),), preferred=True),))


def _suite_input(ctx: Context, key: Scalar, value: Node) -> None:
    if isinstance(value, Sequence):
        check_messages(ctx, value, "input")
    elif is_null(value) or not (isinstance(value, (Scalar, Mapping))):
        ctx.add("EY604", "Invalid suite-level 'input' field (must be a string or array of "
                "messages)", ctx.at(key, value))
    elif isinstance(value, Scalar) and not isinstance(value.value, str):
        ctx.add("EY604", "Invalid suite-level 'input' field (must be a string or array of "
                "messages)", ctx.span(value))


def _tests_path(ctx: Context, value: Scalar, facts: SuiteFacts) -> None:
    name = str(value.value)
    suffix = PurePath(name).suffix
    if suffix and suffix not in rules.TEST_FILE_EXTENSIONS:
        ctx.add("EY620", f"Unsupported file extension '{suffix}' for tests path '{name}'. "
                f"Supported extensions: {', '.join(rules.TEST_FILE_EXTENSIONS)}",
                ctx.span(value))
    facts.refs.append(SuiteRef("tests", name, ctx.span(value), value.style, value.text))


def _tests_entry(ctx: Context, item: Scalar, facts: SuiteFacts) -> None:
    name = str(item.value)[len("file://"):]
    suffix = PurePath(name).suffix
    if suffix not in rules.TEST_FILE_EXTENSIONS:
        ctx.add("EY620", f"Unsupported file extension '{suffix}' for tests path "
                f"'{item.value}'. Supported extensions: {', '.join(rules.TEST_FILE_EXTENSIONS)}",
                ctx.span(item))
    if any(c in name for c in "*?{"):
        # A glob (`resolveFileReference` in case-file-loader.ts): no match is only a warning
        # at run time, and evalyaml does not expand globs.
        facts.refs.append(SuiteRef("tests-glob", name, ctx.span(item), item.style, item.text))
        return
    facts.refs.append(SuiteRef("tests-entry", name, ctx.span(item), item.style, item.text))


def check_test(ctx: Context, test: Mapping, facts: SuiteFacts) -> None:
    entries = pairs(test)
    present = {key.text for key, _ in entries}
    for key, _ in entries:
        name = key.text
        if name in rules.DEPRECATED_TEST:
            new = rules.DEPRECATED_TEST[name]
            ctx.add("EY602", f"'{name}' is deprecated. Use '{new}' instead.", ctx.span(key),
                    fixes=(ctx.rename_fix(key, new),) if new not in present else ())
        elif name not in rules.TEST_KEYS:
            _unknown_key(ctx, key, rules.TEST_KEYS, present, "test")
    values = {key.text: (key, value) for key, value in entries}
    head = ctx.span(entries[0][0]) if entries else ctx.span(test)
    id_pair = values.get("id")
    test_id = text_of(id_pair[1]) if id_pair else None
    if id_pair is None:
        ctx.add("EY606", "the test has no 'id' (\"Missing or invalid 'id' field (must be a "
                "non-empty string)\")", head)
    elif test_id is None or not test_id.strip():
        ctx.add("EY606", "Missing or invalid 'id' field (must be a non-empty string)",
                ctx.at(*id_pair))
    else:
        facts.test_ids.append((test_id, ctx.span(id_pair[1])))
    if "criteria" in values:
        key, value = values["criteria"]
        text = text_of(value)
        if text is None or not text.strip():
            ctx.add("EY608", "Invalid 'criteria' field (must be a non-empty string if provided)",
                    ctx.at(key, value))
    if "input" in values:
        key, value = values["input"]
        if isinstance(value, Sequence):
            check_messages(ctx, value, "input", facts)
        elif is_null(value) or (isinstance(value, Scalar) and not isinstance(value.value, str)):
            ctx.add("EY604", "Invalid 'input' field (must be a string, a mapping or an array of "
                    "messages)", ctx.at(key, value))
    else:
        also = " (a conversation's turns do not stand in for it)" if "turns" in values else ""
        ctx.add("EY604", "the test has no 'input': agentv validate refuses it and the loader "
                "skips it (\"Missing 'input' field (must be a string or array of messages)\")"
                f"{also}", ctx.span(id_pair[0]) if id_pair else head)
    _input_files(ctx, values, facts)
    if "expected_output" in values:
        _expected_output(ctx, *values["expected_output"], facts)
    _effective(ctx, test, values, facts, test_id=test_id, id_pair=id_pair)
    for name in ("assertions", "assert", "evaluator"):
        if name in values:
            check_assertions(ctx, values[name][0], values[name][1], facts, where="the test")
    facts.current = None
    if "rubrics" in values:
        key, value = values["rubrics"]
        if isinstance(value, Sequence):
            check_inline_rubrics(ctx, value)
    _conversation(ctx, values)
    for role, name, node in ignored_values_and_targets(ctx, values):
        facts.refs.append(SuiteRef(role, name, ctx.span(node), node.style, node.text))
    check_vars(ctx, values)
    if "depends_on" in values and test_id:
        _depends_on(ctx, test_id, values["depends_on"][1], facts)
    if "workspace" in values:
        check_workspace(ctx, *values["workspace"], facts)
    if not any(name in values for name in rules.GRADED_BY):
        where = ctx.span(id_pair[1]) if id_pair and test_id else head
        also = " ('rubrics' alone does not count)" if "rubrics" in values else ""
        ctx.add("EY632", "agentv skips this test without a word: it has nothing to grade; give "
                f"it 'criteria', 'expected_output', 'assertions' or 'turns'{also}", where)


def _input_files(ctx: Context, values: dict[str, tuple[Scalar, Node]],
                 facts: SuiteFacts) -> None:
    """`expandInputFilesShorthand`: with `input_files` (the test's, else the suite's) the input
    must be a string, or the loader has no input and skips the test."""
    own = values.get("input_files")
    files = own[1] if own is not None else None
    if files is not None:
        _input_file_refs(ctx, files, facts)
    effective = _string_items(files) if own is not None else facts.suite_input_files
    execution = values["execution"][1] if "execution" in values else None
    if own is None and isinstance(execution, Mapping):
        skip = execution.get("skip_defaults")
        if isinstance(skip, Scalar) and skip.value is True:
            effective = False
    pair = values.get("input")
    if not effective or pair is None:
        return
    key, value = pair
    if isinstance(value, Scalar) and isinstance(value.value, str):
        return
    if is_null(value) or isinstance(value, Scalar):
        return  # EY604 already
    where = "the test's" if own is not None else "the suite's"
    ctx.add("EY604", f"with {where} 'input_files' the 'input' must be a string: the loader "
            "builds no input from files plus messages and skips the test", ctx.span(key))


def _input_file_refs(ctx: Context, node: Node, facts: SuiteFacts) -> None:
    """`input_files` become `{type: file}` content (`expandInputFilesShorthand`), resolved like
    any content file; `agentv validate` does not look, the loader warns when one is missing."""
    if not isinstance(node, Sequence):
        return
    for item in node.items:
        name = text_of(item)
        if name and isinstance(item, Scalar) and _ENV not in name and "{{" not in name:
            facts.refs.append(SuiteRef("input-file", name, ctx.span(item), item.style,
                                       item.text))


def _string_items(node: Node | None) -> bool:
    return isinstance(node, Sequence) and any(
        isinstance(item, Scalar) and isinstance(item.value, str) for item in node.items)


def _effective(ctx: Context, test: Mapping, values: dict[str, tuple[Scalar, Node]],
               facts: SuiteFacts, *, test_id: str | None,
               id_pair: tuple[Scalar, Node] | None) -> None:
    """The test as its graders see it, for hover: effective metadata, input, criteria."""
    own = values["metadata"][1] if "metadata" in values else None
    case_meta = plain(own) if isinstance(own, Mapping) else None
    metadata = merge(facts.suite_meta, case_meta) if facts.suite_meta else case_meta
    facts.current = {
        "id": test_id,
        "input": plain(values["input"][1]) if "input" in values else None,
        "expected_output": plain(values["expected_output"][1])
        if "expected_output" in values else None,
        "criteria": plain(values["criteria"][1]) if "criteria" in values else None,
        "metadata": metadata,
    }
    if test_id is not None and id_pair is not None:
        shown = pretty(metadata) if metadata else "{}"
        inherited = " (the suite's `metadata` merged in)" if facts.suite_meta else ""
        facts.cases.append(CaseSummary(
            test_id, ctx.span(test), ctx.span(id_pair[1]), detail=(
                f"AgentV test · effective metadata{inherited}, as graders and "
                f"`{{{{ metadata }}}}` receive it:\n\n```json\n{shown}\n```")))


def _expected_output(ctx: Context, key: Scalar, value: Node, facts: SuiteFacts) -> None:
    if isinstance(value, Sequence):
        first = value.items[0] if value.items else None
        if isinstance(first, Mapping) and first.get("role") is not None:
            check_messages(ctx, value, "expected_output", facts)
    elif isinstance(value, Mapping):
        return
    elif is_null(value) or (isinstance(value, Scalar) and not isinstance(value.value, str)):
        ctx.add("EY611", "Invalid 'expected_output' field (must be a string, object, or array)",
                ctx.at(key, value))


def check_messages(ctx: Context, messages: Sequence, where: str,
                   facts: SuiteFacts | None = None) -> None:
    for message in messages.items:
        if not isinstance(message, Mapping):
            ctx.add("EY609", f"each message in '{where}' must be a mapping with 'role' and "
                    "'content' (\"Message must be an object\")", ctx.span(message))
            continue
        values = {key.text: (key, value) for key, value in pairs(message)}
        role_pair = values.get("role")
        role = text_of(role_pair[1]) if role_pair else None
        if role not in rules.ROLES and role != "tool":
            ranked = rank_value(role, rules.ROLES) if role else []
            hint = f"; did you mean '{ranked[0]}'?" if ranked else ""
            span = ctx.at(*role_pair) if role_pair else ctx.span(message)
            fixes = ((ctx.rename_fix(role_pair[1], ranked[0]),)
                     if ranked and role_pair and isinstance(role_pair[1], Scalar) else ())
            ctx.add("EY609", f"Invalid role '{role if role is not None else 'undefined'}'. "
                    f"Must be one of: {', '.join(rules.ROLES)}; the loader drops the "
                    f"message{hint}", span, fixes=fixes)
        content_pair = values.get("content")
        if content_pair is None:
            if "tool_calls" not in values:
                ctx.add("EY609", "Missing or invalid 'content' field (must be a string, array, "
                        "or object)", ctx.span(role_pair[0]) if role_pair else ctx.span(message))
            continue
        key, content = content_pair
        if isinstance(content, Scalar) and isinstance(content.value, str):
            _role_markers(ctx, content)
        elif isinstance(content, Sequence):
            for part in content.items:
                _content_part(ctx, part, facts)
        elif not isinstance(content, Mapping):
            ctx.add("EY609", "Missing or invalid 'content' field (must be a string, array, or "
                    "object)", ctx.at(key, content))


def _content_part(ctx: Context, part: Node, facts: SuiteFacts | None) -> None:
    if isinstance(part, Scalar) and isinstance(part.value, str):
        _role_markers(ctx, part)
        return
    if not isinstance(part, Mapping):
        ctx.add("EY609", "Content array items must be strings or objects", ctx.span(part))
        return
    values = {key.text: (key, value) for key, value in pairs(part)}
    type_pair = values.get("type")
    type_name = text_of(type_pair[1]) if type_pair else None
    if type_name is None:
        ctx.add("EY609", "Content object must have a 'type' field",
                ctx.at(*type_pair) if type_pair else ctx.span(part))
    if type_name == "file" and facts is not None:
        value_pair = values.get("value")
        name = text_of(value_pair[1]) if value_pair else None
        if name is None or value_pair is None:
            ctx.add("EY609", "File reference must have a 'value' field with the file path",
                    ctx.at(*value_pair) if value_pair else ctx.span(part))
        elif isinstance(value_pair[1], Scalar) and _ENV not in name:
            facts.refs.append(SuiteRef("content-file", name, ctx.span(value_pair[1]),
                                       value_pair[1].style, value_pair[1].text))
    if type_name == "text":
        value_pair = values.get("value")
        if value_pair is None or text_of(value_pair[1]) is None:
            ctx.add("EY609", "Content with type 'text' must have a 'value' field",
                    ctx.at(*value_pair) if value_pair else ctx.span(type_pair[1])
                    if type_pair else ctx.span(part))
        elif isinstance(value_pair[1], Scalar):
            _role_markers(ctx, value_pair[1])


def _role_markers(ctx: Context, node: Scalar) -> None:
    lowered = str(node.value).lower()
    for marker in rules.ROLE_MARKERS:
        if marker.lower() in lowered:
            ctx.add("EY610", f"Content contains potential role marker '{marker}'. This may "
                    "confuse agentic providers or cause prompt injection.", ctx.span(node))


def check_assertions(ctx: Context, key: Scalar, value: Node, facts: SuiteFacts, *,
                     where: str) -> None:
    if not isinstance(value, Sequence):
        if not is_null(value):
            ctx.add("EY612", "'assertions' must be an array of assertion objects.",
                    ctx.at(key, value))
        return
    for item in value.items:
        if isinstance(item, Scalar) and isinstance(item.value, str):
            if not item.value.strip():
                ctx.add("EY612", "Empty string assertion item will be ignored.", ctx.span(item))
            continue
        if not isinstance(item, Mapping):
            ctx.add("EY612", "Assertion item must be a string or an object with a type field.",
                    ctx.span(item))
            continue
        check_assertion(ctx, item, facts, composite_member=False)


def check_assertion(ctx: Context, item: Mapping, facts: SuiteFacts, *,
                    composite_member: bool) -> None:
    values = {key.text: (key, value) for key, value in pairs(item)}
    type_pair = values.get("type")
    raw = text_of(type_pair[1]) if type_pair else None
    if raw is None:
        ctx.add("EY613", "Assertion item is missing a 'type' field.",
                ctx.at(*type_pair) if type_pair else ctx.span(pairs(item)[0][0])
                if item.pairs else ctx.span(item))
        return
    assert type_pair is not None
    type_node = type_pair[1]
    kind = raw.replace("_", "-")
    if composite_member and "_" in raw and kind in rules.GRADER_KINDS:
        ctx.add("EY634", f"composite members need a kebab-case type: '{raw}' is skipped inside a "
                f"composite (write '{kind}')", ctx.span(type_node),
                fixes=(ctx.rename_fix(type_node, kind),) if isinstance(type_node, Scalar) else ())
        return
    if kind in rules.DEPRECATED_GRADER_KINDS:
        new = rules.DEPRECATED_GRADER_KINDS[kind]
        ctx.add("EY635", f"assertion type '{raw}' is deprecated: the loader skips this grader; "
                f"use '{new}'",
                ctx.span(type_node), fixes=(ctx.rename_fix(type_node, new),)
                if isinstance(type_node, Scalar) else ())
        return
    if kind not in rules.GRADER_KINDS:
        if isinstance(type_node, Scalar) and _ENV not in raw:
            facts.refs.append(SuiteRef("type", kind, ctx.span(type_node), type_node.style,
                                      type_node.text))
        return
    if composite_member and "name" not in values:
        ctx.add("EY634", "a composite member needs a 'name': the loader skips it",
                ctx.span(type_pair[0]))
    if kind in rules.STRING_VALUE_TYPES:
        value_pair = values.get("value")
        text = text_of(value_pair[1]) if value_pair else None
        if text is None:
            ctx.add("EY614", f"Assertion type '{kind}' requires a 'value' field (string).",
                    ctx.at(*value_pair) if value_pair else ctx.span(type_node))
            return
        if not text and value_pair is not None:
            ctx.add("EY614", f"an empty 'value': the loader skips this {kind} grader "
                    f"(\"Skipping {kind} evaluator ...: missing value\")", ctx.span(value_pair[1]))
            return
        if kind == "regex" and value_pair is not None and _ENV not in text:
            problem = js_regex_error(text)
            if problem:
                ctx.add("EY615", f"Invalid regex pattern '{text}': not a valid regular "
                        f"expression ({problem})", ctx.span(value_pair[1]))
    if kind in rules.ARRAY_VALUE_TYPES:
        value_pair = values.get("value")
        if value_pair is None or not isinstance(value_pair[1], Sequence) or \
                not value_pair[1].items:
            ctx.add("EY614", f"Assertion type '{kind}' requires a 'value' field (non-empty "
                    "string array).", ctx.at(*value_pair) if value_pair else ctx.span(type_node))
            return
        if not any(text_of(item) is not None for item in value_pair[1].items):
            ctx.add("EY614", f"'value' holds no string: the loader skips this {kind} grader "
                    "(\"value must be a non-empty string array\")", ctx.span(value_pair[0]))
            return
    if not composite_member:
        check_grader_fields(ctx, kind, values, type_node)
    if "required" in values:
        _required(ctx, *values["required"])
    if "prompt" in values:
        rubrics = values.get("rubrics") or values.get("criteria")
        _prompt(ctx, values["prompt"][1], facts,
                rubric_items(plain(rubrics[1])) if rubrics is not None else [])
    # `type: rubrics` reads its items from `criteria:` (strings allowed); `llm-grader` and the
    # legacy `rubric` from `rubrics:` (mappings only).
    listed_name = "criteria" if kind == "rubrics" else "rubrics"
    if kind in ("llm-grader", "rubrics", "rubric") and listed_name in values:
        listed = values[listed_name][1]
        if isinstance(listed, Sequence):
            check_assertion_rubrics(ctx, listed, strings=kind == "rubrics")
    if kind == "composite":
        aggregator = values.get("aggregator")
        if aggregator is not None and isinstance(aggregator[1], Mapping):
            prompt = aggregator[1].get("prompt")
            if prompt is not None:
                _prompt(ctx, prompt, facts)
        members = values.get("assertions") or values.get("evaluators")
        if members is not None and isinstance(members[1], Sequence):
            for member in members[1].items:
                if isinstance(member, Mapping):
                    check_assertion(ctx, member, facts, composite_member=True)


def _required(ctx: Context, key: Scalar, value: Node) -> None:
    raw = value.value if isinstance(value, Scalar) else None
    if isinstance(raw, bool):
        return
    if isinstance(raw, (int, float)) and isinstance(value, Scalar):
        if raw <= 0 or raw > 1:
            ctx.add("EY616", f"Invalid 'required' value {value.text}. When a number, it must be "
                    "between 0 (exclusive) and 1 (inclusive).", ctx.span(value))
        return
    ctx.add("EY616", "Invalid 'required' value. Must be a boolean or a number between 0 "
            "(exclusive) and 1 (inclusive).", ctx.at(key, value))


def _prompt(ctx: Context, value: Node, facts: SuiteFacts,
            rubrics: list[PyValue] | None = None) -> None:
    if isinstance(value, Mapping):
        _prompt_command(ctx, value, facts)
        return
    text = text_of(value)
    if text is None or not isinstance(value, Scalar) or _ENV in text:
        return
    if text.startswith("file://"):
        context = dict(facts.current or {})
        context["rubrics"] = rubrics or []
        facts.refs.append(SuiteRef("prompt", text[len("file://"):], ctx.span(value), value.style,
                                   value.text, context))
    elif _BARE_PATH.match(text.strip()):
        facts.refs.append(SuiteRef("bare-prompt", text.strip(), ctx.span(value), value.style,
                                  value.text))


def _prompt_command(ctx: Context, value: Mapping, facts: SuiteFacts) -> None:
    """`prompt: {command: [bun, run, prompt.ts]}`: the last argument is resolved like a prompt
    file (search roots) and must exist, or the loader throws and skips the test; the script is
    never read or run here."""
    pair = value.pair("command") or value.pair("script")
    command = pair[1] if pair else None
    if not isinstance(command, Sequence) or not command.items:
        if not (isinstance(command, Scalar) and isinstance(command.value, str)
                and _ENV in command.value):
            ctx.add("EY636", "a prompt object needs a 'command' array (\"prompt object requires "
                    "command array\"): the loader refuses this grader and skips the test",
                    ctx.at(pair[0], command) if pair else ctx.span(pairs(value)[0][0])
                    if value.pairs else ctx.span(value))
        return
    last = command.items[-1]
    name = text_of(last)
    if name and isinstance(last, Scalar) and _ENV not in name:
        facts.refs.append(SuiteRef("prompt-command", name, ctx.span(last), last.style,
                                   last.text))


def _depends_on(ctx: Context, test_id: str, value: Node, facts: SuiteFacts) -> None:
    if not isinstance(value, Sequence):
        return
    for item in value.items:
        name = text_of(item)
        if name is not None and _ENV not in name:
            facts.depends.append(Dependency(test_id, name, ctx.span(item)))


def _conversation(ctx: Context, values: dict[str, tuple[Scalar, Node]]) -> None:
    mode = text_of(values["mode"][1]) if "mode" in values else None
    conversation = mode == "conversation"
    turns = values.get("turns")
    if turns is not None and not conversation:
        ctx.add("EY617", "'turns' requires mode: conversation", ctx.span(turns[0]))
    if conversation and (turns is None or not isinstance(turns[1], Sequence)
                         or not turns[1].items):
        ctx.add("EY617", "mode: conversation requires a non-empty 'turns' array",
                ctx.span(values["mode"][1]))
    if conversation and turns is not None and isinstance(turns[1], Sequence) and \
            "expected_output" in values:
        ctx.add("EY617", "Top-level 'expected_output' is not allowed with mode: conversation "
                "(use per-turn expected_output instead)", ctx.span(values["expected_output"][0]))
    for name in ("aggregation", "on_turn_failure", "window_size"):
        if name in values and not conversation:
            ctx.add("EY617", f"'{name}' requires mode: conversation", ctx.span(values[name][0]))
    if conversation and turns is not None and isinstance(turns[1], Sequence):
        for turn in turns[1].items:
            if not isinstance(turn, Mapping):
                ctx.add("EY617", "Turn must be an object", ctx.span(turn))
                continue
            pair = turn.pair("input")
            value = pair[1] if pair else None
            empty = value is None or is_null(value) or (
                isinstance(value, Scalar) and isinstance(value.value, str)
                and not value.value.strip()) or (isinstance(value, Sequence) and not value.items)
            if empty:
                span = ctx.at(pair[0], value) if pair else ctx.span(pairs(turn)[0][0]) \
                    if turn.pairs else ctx.span(turn)
                ctx.add("EY617", "Each turn must have a non-empty input", span)


_SCRIPT_SUFFIXES = (".mjs", ".cjs", ".js", ".ts", ".sh", ".bash", ".zsh", ".py", ".rb", ".pl")


def _workspace_paths(ctx: Context, value: Mapping, facts: SuiteFacts) -> None:
    """`workspace-path-validator.ts`: the template and hook scripts must exist (relative to the
    suite's folder, a hook's `cwd` first). Checked in the cross check; never run."""
    template = value.get("template")
    name = text_of(template)
    if name and isinstance(template, Scalar) and _ENV not in name and "{{" not in name:
        facts.refs.append(SuiteRef("workspace-path", name, ctx.span(template), template.style,
                                   template.text))
    hooks = value.get("hooks")
    if not isinstance(hooks, Mapping):
        return
    for hook_name in ("before_all", "before_each", "after_each", "after_all"):
        hook = hooks.get(hook_name)
        if not isinstance(hook, Mapping):
            continue
        cwd = text_of(hook.get("cwd")) or "."
        command = hook.get("command") or hook.get("script")
        if not isinstance(command, Sequence):
            continue
        for arg in command.items:
            text = text_of(arg)
            # `{{workspace_path}}` and friends are filled in when the hook runs
            # (`script-executor.ts`); `agentv validate` reports them, wrongly.
            if text is None or not isinstance(arg, Scalar) or _ENV in text or "{{" in text or \
                    "{{" in cwd or \
                    not (text.startswith(("./", "../")) or text.endswith(_SCRIPT_SUFFIXES)):
                continue
            facts.refs.append(SuiteRef("workspace-path",
                                       text if cwd == "." else os.path.join(cwd, text),
                                       ctx.span(arg), arg.style, arg.text))


def check_workspace(ctx: Context, key: Scalar | None, value: Node,
                    facts: SuiteFacts | None = None) -> None:
    if isinstance(value, Scalar) and isinstance(value.value, str) and value.value.strip():
        # `workspace: shared/workspace.yaml`: the loader throws when it is missing
        # ("Workspace file not found"), agentv validate says "Failed to load".
        if facts is not None and _ENV not in value.value:
            facts.refs.append(SuiteRef("workspace-file", value.value, ctx.span(value),
                                       value.style, value.text))
        return
    if not isinstance(value, Mapping):
        return
    if facts is not None:
        _workspace_paths(ctx, value, facts)
    docker = value.get("docker")
    repos = value.get("repos")
    if isinstance(repos, Sequence):
        for repo in repos.items:
            if not isinstance(repo, Mapping):
                continue
            source = repo.get("source")
            checkout = repo.get("checkout")
            clone = repo.get("clone")
            head = ctx.span(pairs(repo)[0][0]) if repo.pairs else ctx.span(repo)
            # `repo:` is the published 4.42 CLI's spelling of a source (after the seed commit).
            if not isinstance(source, Mapping) and not isinstance(docker, Mapping) and \
                    repo.get("repo") is None:
                ctx.add("EY618", "repos[].source is required for non-Docker workspaces. "
                        "Source-less repos are only valid when workspace.docker is configured "
                        "(repo exists inside the container).", head)
            if isinstance(source, Mapping) and isinstance(checkout, Mapping):
                resolve = checkout.pair("resolve")
                if text_of(source.get("type")) == "local" and resolve is not None and \
                        text_of(resolve[1]) is not None:
                    ctx.add("EY619", "checkout.resolve has no effect for a local source. Use "
                            "source.type to choose where the repo comes from; keep checkout.ref, "
                            "checkout.base_commit, or checkout.ancestor only when pinning a "
                            "local source.", ctx.span(resolve[0]))
            if isinstance(checkout, Mapping) and isinstance(clone, Mapping):
                ancestor = checkout.get("ancestor")
                depth = clone.get("depth")
                if isinstance(ancestor, Scalar) and isinstance(depth, Scalar):
                    a, d = ancestor.value, depth.value
                    if isinstance(a, (int, float)) and isinstance(d, (int, float)) and \
                            not isinstance(a, bool) and not isinstance(d, bool) and d < a + 1:
                        ctx.add("EY619", f"clone.depth ({depth.text}) may be insufficient for "
                                f"checkout.ancestor ({ancestor.text}). Recommend depth >= "
                                f"{int(a) + 1}.", ctx.span(depth))
    hooks = value.get("hooks")
    after_each = hooks.get("after_each") if isinstance(hooks, Mapping) else None
    isolation = text_of(value.get("isolation"))
    if isinstance(after_each, Mapping) and isolation == "per_test":
        reset = after_each.pair("reset")
        if reset is not None and isinstance(reset[1], Scalar) and reset[1].value not in (
                None, False, "", 0):
            ctx.add("EY619", "hooks.after_each.reset is redundant with isolation: per_test "
                    "(each test gets a fresh workspace).", ctx.span(reset[0]))
