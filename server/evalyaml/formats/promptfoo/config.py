"""A promptfoo config's own keys: `UnifiedConfigSchema` (`src/types/index.ts`) and what
`resolveConfigs`/`readConfig` (`src/util/config/load.ts`) and `readPrompts`
(`src/prompts/index.ts`) do with them; `../shared/FORMATS.md` §7.2-§7.10."""

from __future__ import annotations

import re

from evalyaml.formats.promptfoo import vocab
from evalyaml.formats.promptfoo.common import (
    Context,
    is_null,
    is_ref,
    pairs,
    text_of,
    zod_type,
)
from evalyaml.formats.promptfoo.facts import ConfigFacts, Prompt, Ref
from evalyaml.formats.promptfoo.paths import maybe_file_path, split_function, templated
from evalyaml.formats.promptfoo.providers import check_provider, provider_names
from evalyaml.formats.promptfoo.redteam import check_redteam
from evalyaml.formats.promptfoo.templates import analyse
from evalyaml.formats.promptfoo.tests import check_test, check_tests
from evalyaml.syntax.text import Span
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence

_ROOT_QUIET = frozenset({"$schema", *vocab.LEGACY_TOP_KEYS})
_LOCAL_REF = re.compile(r"""["']?\$ref["']?\s*:\s*["']?#/([^/"'\s]+)""")
_ANCHOR = re.compile(r"&([\w-]+)")


def check_config(ctx: Context, root: Node | None, facts: ConfigFacts, *,
                 tests_elsewhere: bool = False) -> None:
    """`tests_elsewhere`: the `tests:` list's lines are taken out (`bytest` checks them test by
    test); where their refs and tests go among the others is kept in `facts.tests_at`, and the
    rule over every test (EYPF008) is left to the caller (`no_assertion`)."""
    if root is None or is_null(root):
        return
    if not isinstance(root, Mapping):
        ctx.add("EYPF018", "a promptfoo config must be a mapping of keys (prompts, providers, "
                "tests...): promptfoo cannot load it", ctx.span(root))
        return
    items = pairs(root)
    found = {k.text: (k, v) for k, v in items}
    # A root key a `$ref: '#/key/...'` points into holds templates: it has done its work by the
    # time zod strips it.
    referenced = set(_LOCAL_REF.findall(ctx.parsed.text))
    for key, value in items:
        if key.text not in vocab.TOP_KEYS and key.text not in _ROOT_QUIET and \
                key.text not in referenced and \
                not _holds_alias_target(ctx.parsed.text, key, value):
            ctx.unknown_key(key, vocab.TOP_KEYS, "the config")
    _providers(ctx, root, found, facts)
    check_redteam(ctx, found)
    _tags(ctx, found.get("tags"))
    _extensions(ctx, found.get("extensions"))
    _derived_metrics(ctx, found.get("derivedMetrics"))
    _evaluate_options(ctx, found.get("evaluateOptions"))
    if "prompts" in found:
        _prompts(ctx, *found["prompts"], facts)
    else:
        facts.prompts_default = True
    if "defaultTest" in found:
        _default_test(ctx, *found["defaultTest"], facts)
    facts.tests_at = (len(facts.refs), len(facts.tests))
    if "tests" in found:
        check_tests(ctx, found["tests"][0], found["tests"][1], facts)
    if "scenarios" in found:
        _scenarios(ctx, *found["scenarios"], facts)
    if not tests_elsewhere:
        tests = found.get("tests")
        no_assertion(ctx, ctx.span(tests[0]) if tests is not None else None, facts)


def _tags(ctx: Context, pair: tuple[Scalar, Node] | None) -> None:
    """`tags` is `z.record(z.string(), z.string())`: a value of another type makes
    `promptfoo validate` (and eval) refuse the config, naming `tags.<key>`."""
    if pair is None or not isinstance(pair[1], Mapping):
        return
    for key, value in pairs(pair[1]):
        if isinstance(value, Scalar) and isinstance(value.value, str):
            continue
        ctx.add("EYPF018", f"tag '{key.text}' must be a string: promptfoo validate refuses the "
                f"config (\"Invalid input: expected string, received {zod_type(value)}\" at "
                f"tags.{key.text}); quote it", ctx.span(value))


_EXTENSION_FILE = re.compile(r"\.(?:py|js|cjs|mjs|ts|cts|mts)$", re.IGNORECASE)


def _extension_problem(text: str) -> str | None:
    """The first of `TestSuiteSchema`'s refinements of an `extensions` entry that fails (its
    message), None when all pass: `file://`, three non-blank parts split on `:`, and a Python
    or JavaScript file in the middle one."""
    parts = text.split(":")
    if not text.startswith("file://"):
        return "Extension must start with file://"
    if len(parts) != 3 or any(not part.strip() for part in parts):
        return "Extension must be of the form file://path/to/file.py:function_name"
    if _EXTENSION_FILE.search(parts[1]) is None:
        return ("Extension must be a python (.py) or javascript (.js, .ts, .mjs, .cjs, etc.) "
                "file followed by a colon and function name")
    return None


def _extensions(ctx: Context, pair: tuple[Scalar, Node] | None) -> None:
    """Each `extensions` entry as `TestSuiteSchema` refines it: a failed one makes promptfoo
    refuse the suite ("Test suite validation error") before any test runs."""
    if pair is None or not isinstance(pair[1], Sequence):
        return
    for index, item in enumerate(pair[1].items):
        text = text_of(item)
        if text is None or not isinstance(item, Scalar) or templated(text):
            continue
        problem = _extension_problem(text)
        if problem is not None:
            ctx.add("EYPF018", f"extension '{text}' is refused: promptfoo fails with "
                    f"\"{problem}\" (at extensions[{index}])", ctx.span(item))


def _derived_metrics(ctx: Context, pair: tuple[Scalar, Node] | None) -> None:
    """`derivedMetrics` entries are `{name: string, value: string}` (`DerivedMetricSchema`;
    `value` may be a function only in a JavaScript config): anything else makes promptfoo
    validate refuse the config, and other keys are dropped."""
    if pair is None or not isinstance(pair[1], Sequence):
        return
    for index, item in enumerate(pair[1].items):
        if not isinstance(item, Mapping) or is_ref(item):
            continue
        found = {key.text: (key, value) for key, value in pairs(item)}
        for key in found.values():
            if key[0].text not in ("name", "value"):
                ctx.unknown_key(key[0], ("name", "value"), "a derived metric")
        for name in ("name", "value"):
            value = found.get(name)
            if value is not None and isinstance(value[1], Scalar) and \
                    isinstance(value[1].value, str):
                continue
            at = ctx.span(value[1]) if value is not None else \
                ctx.span(next(iter(found.values()))[0] if found else item)
            # `value` is a union (a string or a function): zod says only "Invalid input".
            problem = "Invalid input" if name == "value" else "Invalid input: expected " \
                f"string, received {zod_type(value[1]) if value is not None else 'undefined'}"
            ctx.add("EYPF018", f"derivedMetrics[{index}] needs a string '{name}': promptfoo "
                    f"validate refuses the config (\"{problem}\" at "
                    f"derivedMetrics[{index}].{name})", at)


def _evaluate_options(ctx: Context, pair: tuple[Scalar, Node] | None) -> None:
    """`evaluateOptions` keys outside `EvaluateOptionsSchema`: nothing reads them (validate
    does not warn), so a misspelt option silently keeps its default."""
    if pair is None or not isinstance(pair[1], Mapping):
        return
    for key, _ in pairs(pair[1]):
        if key.text not in vocab.EVALUATE_OPTION_KEYS:
            ctx.unknown_key(key, vocab.EVALUATE_OPTION_KEYS, "evaluateOptions",
                            effect="promptfoo passes it to the evaluator, which reads no option "
                            "of that name (validate does not warn)")


def read_prompts(ctx: Context, root: Mapping, facts: ConfigFacts) -> None:
    """Only the config's prompts (inline ones and the files named), for the editor's hover."""
    found = root.pair("prompts")
    if found is None:
        facts.prompts_default = True
    elif isinstance(found[0], Scalar):
        _prompts(ctx, found[0], found[1], facts)


def no_assertion(ctx: Context, tests: Span | None, facts: ConfigFacts) -> None:
    """A test with nothing asserted passes whatever the output. When no test of the config
    asserts anything, it is a comparison run (outputs side by side): said once, on `tests`."""
    bare = [t for t in facts.tests if not t.asserted and not t.empty]
    if not bare or not ctx.parsed.ok:  # recovered: an assertion may sit on the blanked lines
        return
    if len(bare) == len([t for t in facts.tests if not t.empty]) and tests is not None:
        ctx.add("EYPF008", "no test in this config has an assertion (none of their own, none "
                "from defaultTest): promptfoo only records the outputs, and every test passes",
                tests)
        return
    for test in bare:
        ctx.add("EYPF008", f"{test.label} has no assertion (none of its own"
                + ("" if test.scenario_vars else ", none from defaultTest") + "), unlike the "
                "other tests: promptfoo runs it and it passes whatever the output", test.span)


def _holds_alias_target(text: str, key: Scalar, value: Node) -> bool:
    """`x-defaults: &defaults ...` read by `<<: *defaults` elsewhere, or an anchor further in
    (`x-defs: {asserts: &asserts [...]}` read by `assert: *asserts`): the key is there to hold
    anchors (as in Compose files), and has done its work when js-yaml resolves the aliases."""
    return any(re.search(rf"\*{re.escape(name)}(?![\w-])", text) is not None
               for name in _ANCHOR.findall(text, key.end, max(value.end, key.end)))


def _providers(ctx: Context, root: Mapping, found: dict[str, tuple[Scalar, Node]],
               facts: ConfigFacts) -> None:
    providers, targets = found.get("providers"), found.get("targets")
    # A root key whose lines a syntax error blanked (recovery's `Hole.key`) was written.
    blanked = {hole.key for hole in ctx.parsed.holes if hole.column == 0}
    if targets is not None and (providers is not None or "providers" in blanked):
        ctx.add("EYPF002", "both 'providers' and 'targets' are set: promptfoo warns \"Exactly one "
                "of 'targets' or 'providers' must be provided, but not both\" and runs only "
                "'targets' (the providers are silently replaced)", ctx.span(targets[0]))
    chosen = targets or providers
    if chosen is None and blanked & {"providers", "targets"}:
        return  # the provider list is on the blanked lines
    if chosen is None:
        first = root.pairs[0][0] if root.pairs else root
        _alone(ctx, facts, "EYPF003", "the config has no 'providers' (or 'targets'): promptfoo "
               "fails with \"You must specify at least 1 provider\"", ctx.span(first))
        return
    key, value = chosen
    facts.provider_names = provider_names(value)
    if isinstance(value, Sequence):
        if not value.items:
            _alone(ctx, facts, "EYPF003", f"'{key.text}' is empty: promptfoo fails with \"You "
                   "must specify at least 1 provider\"", ctx.span(value))
        for item in value.items:
            check_provider(ctx, item, facts)
    elif is_null(value):
        _alone(ctx, facts, "EYPF003", f"'{key.text}' is empty: promptfoo fails with \"You "
               "must specify at least 1 provider\"", ctx.span(key))
    else:
        check_provider(ctx, value, facts)
    if targets is not None and providers is not None and isinstance(providers[1], Sequence):
        for item in providers[1].items:
            check_provider(ctx, item, facts)


def _alone(ctx: Context, facts: ConfigFacts, code: str, message: str, span: Span) -> None:
    """A finding true of this config alone, kept for the cross check (`ConfigFacts.alone`),
    unless a recovered parse's mask hides it (the providers may be on a blanked line), as
    `ctx.add` would."""
    mask = ctx.sink.mask
    if mask is None or not mask(code, message, span):
        facts.alone.append((code, message, span))


def _prompts(ctx: Context, key: Scalar, node: Node, facts: ConfigFacts) -> None:
    if isinstance(node, Scalar):
        _prompt_string(ctx, node, facts, None, (text_of(node) or "",))
    elif isinstance(node, Sequence):
        if not node.items:
            ctx.add("EYPF018", "'prompts' is empty: promptfoo fails with \"Invalid input "
                    "prompt\"", ctx.span(node))
        for item in node.items:
            if isinstance(item, Mapping):
                _prompt_object(ctx, item, facts)
            else:
                _prompt_string(ctx, item, facts, None, (text_of(item) or "",))
    elif isinstance(node, Mapping):
        for name, label in pairs(node):
            text = text_of(label)
            _prompt_string(ctx, name, facts, text, (text,) if text else None)
    else:
        ctx.add("EYPF018", "'prompts' must be a string, a list or a map of prompts: promptfoo "
                "fails with \"Invalid input prompt\"", ctx.span(key))


def _prompt_object(ctx: Context, node: Mapping, facts: ConfigFacts) -> None:
    items = pairs(node)
    found = {k.text: (k, v) for k, v in items}
    for key, _ in items:
        if key.text not in vocab.PROMPT_OBJECT_KEYS:
            ctx.unknown_key(key, ("id", "label", "raw", "config"), "a prompt")
    raw = found.get("raw") or found.get("id")
    raw_text, label, id_text = (text_of(found[k][1]) if k in found else None
                                for k in ("raw", "label", "id"))
    first = ctx.span(items[0][0] if items else node)
    if raw_text is None and label is None:
        ctx.add("EYPF018", "a prompt object needs a string 'raw' or 'label' (\"Invariant failed: "
                "Invalid prompt ... Prompts must be either a string or an object with a 'raw' "
                "or 'label' string property\")", first)
        return
    if not id_text and (raw_text is None or label is None):
        # `combineConfigs` keeps an object with an `id` as it is, else only what `PromptSchema`
        # (a string `raw` and a string `label`) accepts.
        ctx.add("EYPF018", "a prompt object needs both 'raw' and 'label' unless it has an 'id': "
                "promptfoo refuses the config (\"Invalid input\", or \"Invalid prompt object\" "
                "once loaded)", first)
        return
    if raw is not None:
        # What a test's `prompts` may name: the label, and the id when it is not the path or
        # text promptfoo reads (`{raw, id}` without a label: not known here).
        names = tuple(n for n in (label, id_text) if n) if label else None
        spans = tuple(ctx.span(found[k][1]) for k in ("label", "id") if k in found)
        _prompt_string(ctx, raw[1], facts, label, names, spans=spans)


def _prompt_string(ctx: Context, node: Node, facts: ConfigFacts, label: str | None,
                   names: tuple[str, ...] | None, *, spans: tuple[Span, ...] = ()) -> None:
    text = text_of(node)
    if text is None or not isinstance(node, Scalar):
        ctx.add("EYPF018", "a prompt must be a string: promptfoo fails with \"Invalid input "
                "prompt\"", ctx.span(node))
        return
    if text.startswith("exec:") or ("://" in text and not text.startswith("file://")):
        facts.prompts_unknown = True
        return
    if maybe_file_path(text):
        if templated(text) and (text.startswith("file://") or "env" in text):
            facts.prompts_unknown = True
            return
        raw = text[7:] if text.startswith("file://") else text
        name, function = split_function(raw)
        if function is not None or name.lower().endswith(
                (".py", ".js", ".ts", ".mjs", ".cjs", ".mts", ".cts", ".sh", ".rb")):
            facts.prompts_unknown = True
        role = "prompt" if text.startswith("file://") else "bare-prompt"
        facts.refs.append(Ref(role, name, ctx.span(node), function))
        return
    _template_syntax(ctx, node, text)
    facts.prompts.append(Prompt(text, ctx.span(node), label or _short(text), names,
                                (ctx.span(node), *spans)))


def _template_syntax(ctx: Context, node: Scalar, text: str) -> None:
    """An inline prompt's Nunjucks mistakes, at the character when the scalar is written as it
    reads (plain, quoted without escapes, or a literal block `|`), else on the whole value."""
    _, problems = analyse(text)
    if not problems:
        return
    source = ctx.parsed.text[ctx.base + node.start:ctx.base + node.end]
    inner = 0 if source == text else 1 if source[1:-1] == text and node.style in "'\"" \
        else None
    starts = _literal_lines(source, text) if inner is None and node.style == "|" else None
    for problem in problems:
        if inner is not None:
            span = ctx.offsets(node.start + inner + problem.start,
                               node.start + inner + problem.end)
        elif starts is not None:
            span = ctx.offsets(node.start + _in_block(starts, problem.start),
                               node.start + _in_block(starts, problem.end))
        else:
            span = ctx.span(node)
        ctx.add("EYPF013", problem.message, span)


def _literal_lines(source: str, text: str) -> list[tuple[int, int]] | None:
    """A literal block's lines as (offset in the value, offset in the source): None unless
    the value is exactly its lines with the indentation taken off."""
    written = source.splitlines(keepends=True)  # CRLF and CR kept: offsets are the source's
    lines = [line.rstrip("\r\n") for line in written]
    body = [line for line in lines[1:] if line.strip()]
    if not body:
        return None
    indent = len(body[0]) - len(body[0].lstrip(" "))
    out: list[tuple[int, int]] = []
    pieces: list[str] = []
    value_at, source_at = 0, len(written[0])
    for line, whole in zip(lines[1:], written[1:], strict=True):
        piece = line[indent:] if line.strip() else ""
        out.append((value_at, source_at + min(indent, len(line))))
        pieces.append(piece)
        value_at += len(piece) + 1
        source_at += len(whole)
    return out if "\n".join(pieces).rstrip("\n") == text.rstrip("\n") else None


def _in_block(starts: list[tuple[int, int]], offset: int) -> int:
    value_at, source_at = next((s for s in reversed(starts) if s[0] <= offset), starts[0])
    return source_at + offset - value_at


def _short(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= 40 else line[:37] + "..."


def _default_test(ctx: Context, key: Scalar, node: Node, facts: ConfigFacts) -> None:
    text = text_of(node)
    if text is not None and isinstance(node, Scalar):
        if not text.startswith("file://"):
            ctx.add("EYPF017", "defaultTest is a path without 'file://': promptfoo warns "
                    "\"defaultTest string must start with file://\" and ignores it at run time "
                    f"(none of its vars, asserts or options apply); write 'file://{text}'",
                    ctx.span(node))
            return
        facts.default_unknown = True
        facts.default_vars = None
        raw = text[7:]
        if not templated(raw):
            facts.refs.append(Ref("default-test", raw, ctx.span(node)))
        return
    check_test(ctx, node, facts, 0, default=True)


def _scenarios(ctx: Context, key: Scalar, node: Node, facts: ConfigFacts) -> None:
    if not isinstance(node, Sequence):
        if not is_null(node):
            ctx.add("EYPF018", "'scenarios' must be a list: promptfoo validate refuses the "
                    "config", ctx.span(key))
        return
    for index, item in enumerate(node.items):
        text = text_of(item)
        if text is not None and isinstance(item, Scalar):
            if text.startswith("file://") and not templated(text):
                facts.refs.append(Ref("scenario", text[7:], ctx.span(item)))
            continue
        if not isinstance(item, Mapping):
            ctx.add("EYPF018", f"scenarios[{index}] must be a mapping with 'config' and 'tests'",
                    ctx.span(item))
            continue
        _scenario(ctx, item, index, facts)


def _scenario(ctx: Context, node: Mapping, index: int, facts: ConfigFacts) -> None:
    if is_ref(node):
        return
    items = pairs(node)
    found = {k.text: (k, v) for k, v in items}
    for key, _ in items:
        if key.text not in vocab.SCENARIO_KEYS:
            ctx.unknown_key(key, vocab.SCENARIO_KEYS, "a scenario")
    if "config" not in found:
        first = items[0][0] if items else node
        ctx.add("EYPF018", f"scenarios[{index}] has no 'config' (\"Invalid input → at "
                f"scenarios[{index}]\"): promptfoo validate refuses it, and eval crashes with "
                "\"scenario.config is not iterable\"", ctx.span(first))
    configs: list[dict[str, Span] | None] = []
    config_asserted = False
    config = found.get("config")
    if config is not None and isinstance(config[1], Sequence):
        for i, entry in enumerate(config[1].items):
            part = check_test(ctx, entry, facts, i, partial=True)
            configs.append(None if part is None or part.vars is None or part.transformed
                           else dict(part.vars))
            config_asserted = config_asserted or (part is not None and part.asserted)
    tests = found.get("tests")
    if tests is None:
        return
    value = tests[1]
    if isinstance(value, Scalar):
        text = text_of(value) or ""
        if not text.startswith("file://"):
            ctx.add("EYPF018", f"scenarios[{index}].tests as a string must start with 'file://': "
                    "promptfoo crashes with \"scenario.tests.forEach is not a function\"",
                    ctx.span(value))
        elif not templated(text):
            facts.refs.append(Ref("tests", text[7:], ctx.span(value)))
        return
    if isinstance(value, Sequence):
        for i, entry in enumerate(value.items):
            result = check_test(ctx, entry, facts, i, collect=False)
            if result is not None:
                result.scenario_vars = configs or [{}]
                result.asserted = result.asserted or config_asserted
                facts.tests.append(result)
