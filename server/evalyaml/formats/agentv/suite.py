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

import re
from operator import itemgetter
from pathlib import PurePath

from evalyaml.core.context import quoted_like
from evalyaml.core.findings import Fix, TextEdit
from evalyaml.core.model import CaseSummary
from evalyaml.core.suggest import rank
from evalyaml.formats.agentv import rules
from evalyaml.formats.agentv.assertions import check_assertions
from evalyaml.formats.agentv.common import Context, is_null, pairs, text_of
from evalyaml.formats.agentv.depends import Dependency, check_dependencies
from evalyaml.formats.agentv.execution import ignored_values_and_targets, suite_targets
from evalyaml.formats.agentv.messages import check_messages
from evalyaml.formats.agentv.meta import merge, plain, pretty, suite_payload
from evalyaml.formats.agentv.rubrics import check_inline_rubrics
from evalyaml.formats.agentv.suitefacts import ENV, SuiteFacts, SuiteRef
from evalyaml.formats.agentv.testvars import check_vars
from evalyaml.formats.agentv.workspaces import check_workspace
from evalyaml.syntax.text import Span
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence

__all__ = ["SuiteFacts", "SuiteRef", "check_item", "check_suite", "check_test", "check_tests",
           "check_workspace", "cross_test_rules", "duplicate_ids"]

_NAME = re.compile(r"^[a-z0-9-]+$")


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
    if not facts.depends:
        return  # nothing depends on anything: no finding (spares two passes over 10,000 tests)
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
    if len(set(map(_first, facts.test_ids))) == len(facts.test_ids):
        return  # every id once (the usual case, counted at C speed on every keystroke)
    seen: dict[str, Span] = {}
    for test_id, span in facts.test_ids:
        if test_id in seen:
            first = seen[test_id]
            ctx.add("EY607", f"Duplicate test ID '{test_id}' (first at line "
                    f"{first.start.line + 1}): agentv eval stops before running any test "
                    "(each test must have a unique ID)", span)
        else:
            seen[test_id] = span


_first = itemgetter(0)


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
        if name is not None and ENV not in name and not _NAME.match(name):
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
        if name and isinstance(item, Scalar) and ENV not in name and "{{" not in name:
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


def _depends_on(ctx: Context, test_id: str, value: Node, facts: SuiteFacts) -> None:
    if not isinstance(value, Sequence):
        return
    for item in value.items:
        name = text_of(item)
        if name is not None and ENV not in name:
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
