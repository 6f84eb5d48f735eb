"""An AgentV file's analysis and cross check, loaded with the first AgentV file analysed (not
with the registry in `__init__`, which discovery imports)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from evalyaml.core.findings import Finding, FindingSink, Fix, TextEdit
from evalyaml.core.kinds import Kind
from evalyaml.core.model import FileAnalysis, FileRef
from evalyaml.core.options import Options
from evalyaml.formats.agentv import detect, rules
from evalyaml.formats.agentv.common import Context, pairs, rank_value
from evalyaml.formats.agentv.config import check_config
from evalyaml.formats.agentv.filerefs import file_refs_of
from evalyaml.formats.agentv.kinds import CASES, CONFIG, PROMPT, SUITE, TARGETS, WORKSPACE
from evalyaml.formats.agentv.prompt import check_prompt
from evalyaml.formats.agentv.suite import (
    SuiteFacts,
    SuiteRef,
    check_suite,
    check_tests,
    check_workspace,
)
from evalyaml.formats.agentv.suitefacts import (
    DEPENDS,
    REF_KEYS,
    REFS,
    TEST_IDS,
    RefKey,
    distinct_keys,
    ref_key,
)
from evalyaml.formats.agentv.targetrefs import check_target
from evalyaml.formats.agentv.targets import KNOWN_PROVIDERS, PROVIDER_ALIASES, check_targets
from evalyaml.formats.base import Claim, NamedFiles
from evalyaml.syntax.text import LineIndex, Span
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence
from evalyaml.syntax.yaml.parse import parse_text

if TYPE_CHECKING:
    from evalyaml.core.incremental import CaseCache, CaseMapper

_NOWHERE = Span.point(0, 0)  # a reference looked up aside: its findings are not kept

KINDS: tuple[Kind, ...] = (SUITE, PROMPT, CASES, CONFIG, WORKSPACE, TARGETS)


def analyze(text: str, path: str | None, kind: Kind | None, options: Options, *,
            forced: bool = False, cache: CaseCache | None = None,
            mapper: CaseMapper | None = None, whole: bool = False) -> FileAnalysis:
    """A suite or a YAML cases file test by test where it splits (`bytest`) and a document's
    `cache` keeps the tests for the next edit; the other kinds whole (`AgentvFormat.analyze`)."""
    if kind not in KINDS:
        claimed = detect.claim(text, path)
        kind = claimed.kind if isinstance(claimed, Claim) else SUITE
    sink = FindingSink(strict=options.strict)
    result = FileAnalysis(path, kind)
    if kind is PROMPT:
        check_prompt(text, sink)
    elif kind is CASES and path is not None and path.lower().endswith(".jsonl"):
        from evalyaml.formats.agentv.byrow import cases_jsonl
        cases_jsonl(text, sink, result, cache, whole=whole)
    elif kind in (SUITE, CASES) and not whole and cache is not None and \
            (by_test := _suite_by_test(text, path, options, cache, kind is CASES)):
        findings, facts, file_refs = by_test
        sink.findings.extend(findings)
        _record(result, facts, path, options, file_refs)
    else:
        parsed = parse_text(text, sink)
        if parsed.usable:  # recovered around a syntax error too
            root = parsed.documents[0] if parsed.documents else None
            facts = SuiteFacts()
            ctx = Context(parsed, sink)
            five_x = _five_x_file(root, kind)
            if five_x is not None:
                key, what = five_x
                sink.add("EY633", f"an AgentV 5.x {what}: evalyaml checks the 4.x format "
                         "(npm agentv 4.x) and leaves this file unchecked", ctx.span(key))
            elif kind is CONFIG:
                check_config(ctx, root, path)
            elif kind is TARGETS:
                check_targets(ctx, root, facts)
            elif kind is WORKSPACE:
                _workspace_file(ctx, root, facts)
            elif kind is CASES:
                if isinstance(root, Sequence):
                    check_tests(ctx, root.items, facts, cases_file=True)
                elif root is not None and not (isinstance(root, Scalar) and
                                               root.value is None):
                    # `parseYamlCases`: anything but an array fails the whole suite.
                    ctx.add("EY605", "a cases file must hold a YAML list of tests "
                            "(\"External test file must contain a YAML array\"): agentv "
                            "cannot load the suite", ctx.span(_first_key(root)))
            elif _five_x(root):
                sink.add("EY633", "an AgentV 5.x suite (providers/prompts): evalyaml checks "
                         "the 4.x format (npm agentv 4.x) and leaves this file unchecked",
                         ctx.span(_five_x_key(root)))
            else:
                check_suite(ctx, root, facts)
            _record(result, facts, path, options)
    result.findings = list(dict.fromkeys(sink.findings))
    return result


def cross_check(path: Path, analysis: FileAnalysis, files: NamedFiles,
                options: Options) -> Iterable[Finding]:
    refs = analysis.facts.get(REFS)
    if not isinstance(refs, list) or not refs or not isinstance(refs[0], SuiteRef):
        return ()  # a list of SuiteRef, as `_record` leaves it
    sink = FindingSink(strict=options.strict)
    roots = _search_roots(path, files)
    # A suite of 10,000 tests names one grader prompt 10,000 times: a reference found clean is
    # clean wherever the same words stand (its span only places a finding). So each distinct
    # words are checked once aside (`REF_KEYS`, kept test by test), and only the references
    # whose words are not clean are checked in place, in order.
    keys = analysis.facts.get(REF_KEYS)
    dirty: set[RefKey] = set()
    for key in keys if isinstance(keys, tuple) else distinct_keys(refs):
        trial = FindingSink(strict=options.strict)
        _check_ref(SuiteRef(key[0], key[1], _NOWHERE, key[2], key[3]), path, roots, files,
                   trial, refs=refs)
        if trial.findings:
            dirty.add(key)
    for ref in refs if dirty else ():
        if ref_key(ref) in dirty:
            _check_ref(ref, path, roots, files, sink, refs=refs)
    return sink.findings


def _suite_by_test(text: str, path: str | None, options: Options, cache: CaseCache,
                   cases_file: bool) -> tuple[list[Finding], SuiteFacts, list[FileRef]] | None:
    from evalyaml.core.items import ItemState
    from evalyaml.formats.agentv.bytest import STATE, analyze_suite_by_test

    return analyze_suite_by_test(text, path, options, cache.format_state(STATE, ItemState),
                                 cases_file=cases_file)


def _workspace_file(ctx: Context, root: Node | None, facts: SuiteFacts) -> None:
    """A suite's external workspace file: `agentv validate` applies the repo rules to it, and
    its template and hook paths are relative to its own folder."""
    if isinstance(root, Mapping):
        check_workspace(ctx, None, root, facts)
    elif root is not None and not (isinstance(root, Scalar) and root.value is None):
        ctx.add("EY600", "a workspace file must hold a YAML mapping (\"External workspace file "
                "must contain a YAML object\"): agentv cannot set up the workspace",
                ctx.span(_first_key(root)))


def _five_x_file(root: Node | None, kind: Kind) -> tuple[Node, str] | None:
    """A 5.x config (keys only 5.x's `config-validator.ts` allows: `providers`, `defaults`,
    `tests`, ...) or a 5.x providers file (`providers:` and no `targets:`, kept under the 4.x
    `$schema: agentv-targets-v2.2`): the key that shows it, and what the file is."""
    if not isinstance(root, Mapping):
        return None
    keys = [k for k, _ in pairs(root)]
    if kind is CONFIG:
        found = next((k for k in keys if k.text in rules.FIVE_X_CONFIG_KEYS), None)
        return (found, "config (providers/defaults/tests)") if found is not None else None
    if kind is TARGETS and not any(k.text == "targets" for k in keys):
        found = next((k for k in keys if k.text == "providers"), None)
        return (found, "providers file (providers:, under the 4.x $schema id)") \
            if found is not None else None
    return None


def _first_key(root: Node) -> Node:
    if isinstance(root, Mapping) and root.pairs:
        return root.pairs[0][0]
    return root


def _five_x(root: object) -> bool:
    return isinstance(root, Mapping) and any(k.text in rules.FIVE_X_KEYS for k, _ in pairs(root))


def _five_x_key(root: object) -> Mapping:
    assert isinstance(root, Mapping)
    return next(k for k, _ in pairs(root) if k.text in rules.FIVE_X_KEYS)  # type: ignore[return-value]


def _record(result: FileAnalysis, facts: SuiteFacts, path: str | None, options: Options,
            file_refs: list[FileRef] | None = None) -> None:
    """`file_refs`: those of `facts.refs`, when the caller has them (`bytest`)."""
    result.facts[REFS] = facts.refs
    result.facts[REF_KEYS] = facts.ref_keys if facts.ref_keys is not None else \
        distinct_keys(facts.refs)
    # For go to definition from a `depends_on` name to the test it names (`ide.definition`).
    result.facts[TEST_IDS] = list(facts.test_ids)
    result.facts[DEPENDS] = [(d.on, d.span) for d in facts.depends]
    result.cases = facts.cases
    if path is None:
        return
    result.file_refs.extend(file_refs if file_refs is not None
                            else file_refs_of(facts.refs, path, options.root))


def _search_roots(path: Path, files: NamedFiles) -> list[Path]:
    """The suite's folder and each ancestor still inside the workspace roots."""
    roots: list[Path] = []
    current = path.parent
    while files.resolve(current, ".") is not None:
        roots.append(current)
        if current.parent == current:
            break
        current = current.parent
    return roots or [path.parent]


def _check_ref(ref: SuiteRef, path: Path, roots: list[Path], files: NamedFiles,
               sink: FindingSink, *, refs: list[SuiteRef]) -> None:
    if ref.role == "type":
        _custom_type(ref, roots, files, sink)
        return
    if ref.role == "target":
        local = {r.name for r in refs if r.role == "target-def"}
        if ref.name not in local:
            check_target(ref.name, ref.span, ref.quote, roots, files, sink=sink,
                         root=roots[-1] if roots else None)
        return
    if ref.role == "target-def":
        return
    if ref.role == "tests-glob":
        return
    if ref.role == "provider":
        _custom_provider(ref, roots, files, sink)
        return
    if ref.role == "prompt-command":
        if _first_existing(ref.name, roots, files) is None:
            sink.add("EY621", f"prompt command file not found: {ref.name} (searched from the "
                     "suite's folder up to the workspace root); the loader refuses the grader "
                     "and skips the test", ref.span)
        return
    if ref.role == "input-file":
        if _first_existing(ref.name, roots, files) is None:
            sink.add("EY640", f"File not found: {ref.name} (searched from the suite's folder up "
                     "to the workspace root): the loader warns and sends the input without it",
                     ref.span)
        return
    if ref.role == "content-file":
        if _first_existing(ref.name, roots, files) is None:
            sink.add("EY621", f"Referenced file not found: {ref.name} (searched from the "
                     "suite's folder up to the workspace root)", ref.span)
        return
    if ref.role == "workspace-file":
        target = files.resolve(path.parent, ref.name)
        if target is None or files.exists(target):
            return  # outside the workspace roots: not ours to say
        sink.add("EY621", f"Workspace file not found: {ref.name} (relative to the suite's "
                 "folder); the loader cannot set up the workspace", ref.span)
        return
    if ref.role == "workspace-path":
        target = files.resolve(path.parent, ref.name)
        if target is None or files.exists(target) or target.is_dir():
            return  # outside the workspace roots: not ours to say
        sink.add("EY621", f"workspace path not found: {ref.name} (relative to the folder of "
                 "the file naming it); the workspace cannot be set up", ref.span)
        return
    if ref.role in ("prompt", "bare-prompt"):
        found = _first_existing(ref.name, roots, files)
        if ref.role == "prompt" and found is None:
            sink.add("EY621", f"grader prompt file not found: '{ref.name}' (searched from the "
                     "suite's folder up to the workspace root); the grader cannot load it",
                     ref.span)
        elif ref.role == "bare-prompt" and found is not None:
            new = "file://" + ref.name
            text = f'"{new}"' if ref.quote == '"' else f"'{new}'" if ref.quote == "'" else new
            sink.add("EY622", f"'{ref.name}' is sent to the grader as inline text, not read as "
                     f"a file: write '{new}' to use the prompt file", ref.span,
                     fixes=(Fix("Add 'file://'", (TextEdit(ref.span, text),), preferred=True),))
        return
    target = files.resolve(path.parent, ref.name)
    if target is None:
        sink.add("EY621", f"'{ref.name}' leads outside the workspace: evalyaml does not follow "
                 "it", ref.span)
        return
    if files.exists(target) or target.is_dir():
        return
    sink.add("EY621", f"cases file not found: '{ref.name}' (relative to the suite's folder); "
             "agentv cannot load the tests", ref.span)


def _first_existing(name: str, roots: list[Path], files: NamedFiles) -> Path | None:
    trimmed = name.lstrip("/\\") or name
    for root in roots:
        target = files.resolve(root, trimmed)
        if target is not None and files.exists(target):
            return target
    return None


_PROVIDER_EXTENSIONS = (".ts", ".js", ".mts", ".mjs")


def _custom_provider(ref: SuiteRef, roots: list[Path], files: NamedFiles,
                     sink: FindingSink) -> None:
    for root in roots:
        for ext in _PROVIDER_EXTENSIONS:
            target = files.resolve(root, f".agentv/providers/{ref.name}{ext}")
            if target is not None and files.exists(target):
                return
    known = (*KNOWN_PROVIDERS, *PROVIDER_ALIASES, *_custom_stems(roots, "providers"))
    ranked = rank_value(ref.name, known)
    hint = f"; did you mean '{ranked[0]}'?" if ranked else \
        f" (known: {', '.join(KNOWN_PROVIDERS)})"
    sink.add("EY642", f"Unknown provider '{ref.name}': no built-in provider and no custom "
             f"provider .agentv/providers/{ref.name}.ts (or .js) above the file{hint}", ref.span,
             fixes=tuple(Fix(f"Replace with '{r}'", (TextEdit(ref.span, r),), preferred=i == 0)
                         for i, r in enumerate(ranked[:3])))


def _custom_stems(roots: list[Path], folder: str = "assertions") -> list[str]:
    """The custom assertion (or provider) names above the file, for the did-you-mean only (which
    name exists is decided through `NamedFiles`, so a new script re-checks the file)."""
    stems: list[str] = []
    for root in roots:
        try:
            with os.scandir(root / ".agentv" / folder) as entries:
                for entry in entries:
                    stem, ext = os.path.splitext(entry.name)
                    if ext.lower() in rules.ASSERTION_SCRIPT_EXTENSIONS and \
                            stem not in stems and entry.is_file():
                        stems.append(stem)
        except OSError:
            continue
    return stems


def _custom_type(ref: SuiteRef, roots: list[Path], files: NamedFiles, sink: FindingSink) -> None:
    for root in roots:
        for ext in rules.ASSERTION_SCRIPT_EXTENSIONS:
            target = files.resolve(root, f".agentv/assertions/{ref.name}{ext}")
            if target is not None and files.exists(target):
                return
    ranked = rank_value(ref.name, (*rules.GRADER_KINDS, *_custom_stems(roots)))
    hint = f"; did you mean '{ranked[0]}'?" if ranked else ""
    sink.add("EY613", f"Unknown assertion type '{ref.raw}': no grader kind and no custom "
             f"assertion .agentv/assertions/{ref.name}.ts (or .js) above the suite{hint}",
             ref.span, fixes=tuple(Fix(f"Replace with '{r}'", (TextEdit(ref.span, r),),
                                       preferred=i == 0) for i, r in enumerate(ranked[:3])))


def line_index(text: str) -> LineIndex:
    return LineIndex(text)
