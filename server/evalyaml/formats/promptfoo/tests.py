"""Test cases as promptfoo reads them: `TestCaseSchema` (`src/types/index.ts`), `readTest`
(`src/util/testCaseReader.ts`) and the `defaultTest`/scenario merges (`src/evaluator.ts`);
`../shared/FORMATS.md` §7.7-§7.11."""

from __future__ import annotations

import math

from evalyaml.formats.promptfoo import vocab
from evalyaml.formats.promptfoo.asserts import check_asserts
from evalyaml.formats.promptfoo.common import (
    Context,
    is_null,
    is_number,
    is_ref,
    pairs,
    text_of,
)
from evalyaml.formats.promptfoo.facts import ConfigFacts, Ref, TestFacts
from evalyaml.formats.promptfoo.paths import is_glob, split_function, templated
from evalyaml.formats.promptfoo.providers import check_provider
from evalyaml.syntax.text import Span
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence

# Keys that make a test a test (`readTest`); the other test keys, written under `vars`, are the
# mis-indentation promptfoo itself warns about for `assert` (PR #1259).
_DEDENT = frozenset({"assert", "options", "providerOutput", "assertScoringFunction",
                     "threshold"})
DEFAULT_TEST_KEYS = tuple(k for k in vocab.TEST_KEYS if k != "description")


def check_test(ctx: Context, node: Node, facts: ConfigFacts, index: int, *,
               default: bool = False, partial: bool = False,
               collect: bool = True) -> TestFacts | None:
    """One test (or `defaultTest`, or a scenario `config` entry when `partial`)."""
    where = "defaultTest" if default else f"tests[{index}]"
    if is_ref(node):
        return None
    if isinstance(node, Scalar) and text_of(node) is not None and not default:
        _test_file(ctx, node, facts)
        return None
    if not isinstance(node, Mapping):
        ctx.add("EYPF018", f"{where} must be a mapping of test keys (or a file path): promptfoo "
                "validate refuses the config", ctx.span(node))
        return None
    items = pairs(node)
    allowed = DEFAULT_TEST_KEYS if default else vocab.TEST_KEYS
    found = {k.text: (k, v) for k, v in items}
    for key, _ in items:
        if key.text not in allowed:
            what = "defaultTest (which takes no 'description')" if default and \
                key.text == "description" else "defaultTest" if default else "a test"
            ctx.unknown_key(key, allowed, what)
    label = f"test {index + 1}"
    description = text_of(found["description"][1]) if "description" in found else None
    first = items[0][0] if items else node
    if description:
        label = f"test '{description}'"
    if not default and not partial and collect:
        name_node = found["description"][1] if description else first
        facts.cases.append((description or label, ctx.span(node), ctx.span(name_node)))
    empty = not any(k in found for k in vocab.MUST_HAVE_ONE_OF)
    if not default and not partial and empty:
        ctx.add("EYPF016", f"{label} has none of {', '.join(vocab.MUST_HAVE_ONE_OF)}: promptfoo "
                "refuses it (\"Test case must contain one of the following properties\")",
                ctx.span(first))
    test_vars: dict[str, Span] | None = {}
    vars_pair = found.get("vars")
    if vars_pair is not None:
        test_vars = _vars(ctx, vars_pair[0], vars_pair[1], facts)
    asserted = False
    assert_pair = found.get("assert")
    if assert_pair is not None:
        asserted = check_asserts(ctx, assert_pair[0], assert_pair[1], where,
                                 lambda value, kind: _script(ctx, value, facts)) > 0
    threshold = found.get("threshold")
    if threshold is not None and not is_number(threshold[1]) and not is_null(threshold[1]):
        ctx.add("EYPF018", f"'threshold' of {label} must be a number: promptfoo validate refuses "
                "the config", ctx.span(threshold[1]))
    provider = found.get("provider")
    if provider is not None:
        check_provider(ctx, provider[1], facts)
    options = found.get("options")
    disabled = transformed = False
    if options is not None and isinstance(options[1], Mapping):
        flag = options[1].get("disableDefaultAsserts")
        disabled = isinstance(flag, Scalar) and flag.value is True
        transformed = not is_null(options[1].get("transformVars"))
        _repeat(ctx, options[1].get("repeat"), "defaultTest" if default else label, where)
    if not disabled:
        asserted = asserted or facts.default_asserted or facts.default_unknown
    scoring = found.get("assertScoringFunction")
    if scoring is not None and isinstance(scoring[1], Scalar):
        _script(ctx, scoring[1], facts)
    if default:
        facts.default_vars = test_vars
        facts.default_asserted = assert_pair is not None and asserted
        facts.default_transformed = transformed
        facts.default_prompt_refs = _prompt_refs(ctx, found.get("prompts"))
        facts.default_provider_refs = _prompt_refs(ctx, found.get("providers"))
        return None
    span = ctx.span(first)
    result = TestFacts(span, label, test_vars, asserted, prompt_filter="prompts" in found,
                       empty=empty, transformed=transformed,
                       prompt_refs=_prompt_refs(ctx, found.get("prompts")),
                       provider_refs=_prompt_refs(ctx, found.get("providers")))
    if collect and not partial:
        facts.tests.append(result)
    return result


def _repeat(ctx: Context, node: Node | None, who: str, where: str) -> None:
    """`options.repeat` is `z.number().int().positive()`: anything else makes `promptfoo
    validate` (and eval) refuse the config. zod names the field only for a number below 1
    alone; otherwise the test's union fails as a whole ("Invalid input" at tests)."""
    if node is None or is_null(node):
        return
    value = node.value if isinstance(node, Scalar) else None
    if isinstance(value, int | float) and not isinstance(value, bool) and (
            not math.isfinite(value) or (float(value).is_integer() and value > 0)):
        return  # `.inf`, `.nan`: zod's verdict on those is not pinned here
    union = where.split("[", 1)[0]
    ctx.add("EYPF018", f"'options.repeat' of {who} must be a whole number above 0: promptfoo "
            f"validate refuses the config (\"Too small: expected number to be >0\" at "
            f"{where}.options.repeat, or \"Invalid input\" at {union})", ctx.span(node))


def _prompt_refs(ctx: Context, pair: tuple[Scalar, Node] | None
                 ) -> tuple[tuple[str, Span], ...]:
    """The strings of a test's `prompts` (or `providers`) list, which
    `validateTestPromptReferences` (`validateTestProviderReferences`) matches against the
    config's prompts (providers); anything else there is the schema's to refuse."""
    if pair is None or not isinstance(pair[1], Sequence):
        return ()
    return tuple((text, ctx.span(item)) for item in pair[1].items
                 if isinstance(item, Scalar) and isinstance(text := item.value, str))


def _vars(ctx: Context, key: Scalar, node: Node, facts: ConfigFacts) -> dict[str, Span] | None:
    """The variables a test gives, None when they are not known here: a file's, or a
    `{$ref: ...}` mapping's, which promptfoo replaces by its target before it reads a name."""
    if is_ref(node):
        return None
    if isinstance(node, Scalar) and text_of(node) is not None:
        if not ctx.external:
            _vars_files_inline(ctx, node, "a file path")
        _add_ref(ctx, "vars", node, facts, holder=True)
        return None
    if isinstance(node, Sequence):
        if not ctx.external:
            _vars_files_inline(ctx, node, "a list of files")
        for item in node.items:
            if isinstance(item, Scalar) and text_of(item):
                _add_ref(ctx, "vars", item, facts, holder=True)
        return None
    if not isinstance(node, Mapping):
        if not is_null(node):
            ctx.add("EYPF018", "'vars' must be a mapping of variables: promptfoo validate "
                    "refuses the config", ctx.span(node))
        return {}
    out: dict[str, Span] = {}
    for name, value in pairs(node):
        out[name.text] = ctx.span(name)
        if name.text in _DEDENT and _test_like(name.text, value):
            ctx.add("EYPF007", f"'{name.text}' is indented under 'vars', so it is a variable, not "
                    f"the test's '{name.text}'" + (" (every assertion in it is skipped and the "
                    "test passes)" if name.text == "assert" else "") + ": did you mean to "
                    "dedent it?", ctx.span(name))
        elif is_null(value) and isinstance(value, Scalar):
            ctx.add("EYPF018", f"variable '{name.text}' has no value (null): promptfoo validate "
                    "refuses it (\"Invalid input → at tests\")", ctx.span(name))
        else:
            text = text_of(value)
            if text is not None and text.startswith("file://") and isinstance(value, Scalar):
                _add_ref(ctx, "var-value", value, facts)
    return out


def _vars_files_inline(ctx: Context, node: Node, what: str) -> None:
    """`vars` naming files in a config's own test: `VarsSchema` takes only a mapping there
    (`readTest` reads a path or a list of them only in a tests file's tests)."""
    ctx.add("EYPF018", f"'vars' as {what} is refused by promptfoo validate in a config "
            "(\"Invalid input → at tests\"); write the variables inline, or move the test to a "
            "tests file, whose tests may name vars files (as paths without file://, which "
            "promptfoo resolves as a glob)", ctx.span(node))


def _test_like(name: str, value: Node) -> bool:
    if name == "assert":
        return isinstance(value, Sequence) and any(
            isinstance(item, Mapping) and item.get("type") is not None for item in value.items)
    if name == "options":
        return isinstance(value, Mapping) and bool(value.pairs) and all(
            isinstance(k, Scalar) and k.text in vocab.TEST_OPTION_KEYS for k, _ in value.pairs)
    return False


def _test_file(ctx: Context, node: Scalar, facts: ConfigFacts) -> None:
    _add_ref(ctx, "tests", node, facts)


def _script(ctx: Context, value: Scalar, facts: ConfigFacts) -> None:
    text = text_of(value)
    if text is not None and text.startswith("file://"):
        _add_ref(ctx, "script", value, facts)


def _add_ref(ctx: Context, role: str, node: Scalar, facts: ConfigFacts, *,
             holder: bool = False) -> None:
    text = text_of(node) or ""
    raw = text[7:] if text.startswith("file://") else text
    if not raw or templated(raw) or "://" in raw:
        return
    name, function = split_function(raw)
    facts.refs.append(Ref(role, name, ctx.span(node), function,
                          from_holder=holder and ctx.external))


def check_tests(ctx: Context, key: Scalar | None, node: Node, facts: ConfigFacts) -> None:
    """The `tests` value (§7.7.1)."""
    if isinstance(node, Scalar):
        text = text_of(node)
        if text and not _unglobbed(ctx, node, text):
            _add_ref(ctx, "tests", node, facts)
        return
    if isinstance(node, Mapping) and node.get("path") is not None:
        _generator(ctx, node, facts)
        return
    if not isinstance(node, Sequence):
        ctx.add("EYPF018", "'tests' must be a list of tests or a file path: promptfoo warns "
                "\"Unsupported 'tests' format\" and runs no tests", ctx.span(key or node))
        return
    for index, item in enumerate(node.items):
        check_tests_item(ctx, item, facts, index)


def _unglobbed(ctx: Context, node: Scalar, text: str) -> bool:
    """A `tests:` string with a glob that does not end in yaml/yml: `readTests` globs such a
    string only for YAML, and hands any other to `readStandaloneTestsFile`, which opens the
    pattern as one file name (ENOENT); as a list item it is globbed (`loadTestsFromGlob`)."""
    raw = text[7:] if text.startswith("file://") else text
    if templated(raw) or not is_glob(raw) or text.endswith(("yaml", "yml")) or \
            ("://" in raw and not text.startswith("file://")):
        return False  # a URL (huggingface://datasets/..., a Sheets link) is not a file name
    ctx.add("EYPF009", f"tests file not found: '{raw}' is opened as one file name, not "
            "expanded: promptfoo globs a 'tests' string only when it ends in .yaml or .yml, and "
            f"fails with \"ENOENT: no such file or directory, open '.../{raw}'\"; write it as a "
            f"list item (tests: [{text}]) to glob it", ctx.span(node))
    return True


def check_tests_item(ctx: Context, item: Node, facts: ConfigFacts, index: int) -> None:
    """One item of the `tests` list: a test, a tests file, or a generator (`path:`)."""
    if isinstance(item, Mapping) and item.get("path") is not None and \
            item.get("vars") is None and item.get("assert") is None:
        _generator(ctx, item, facts)
    else:
        check_test(ctx, item, facts, index)


def _generator(ctx: Context, node: Mapping, facts: ConfigFacts) -> None:
    for key, value in pairs(node):
        if key.text not in ("path", "config"):
            ctx.unknown_key(key, ("path", "config"), "a tests generator")
        elif key.text == "path" and isinstance(value, Scalar):
            _add_ref(ctx, "tests", value, facts)

