"""The rules of one Apastra file beyond its schema: ids, references, digests, templates, pins.

Definitions and references go to the engine, which resolves them (EY301 unknown id with
did-you-mean and a fix, EY305 duplicates, definition, references, rename). What other files'
cross checks need travels in `FileAnalysis.facts`: an evaluator's metrics, a prompt's variables,
a dataset's input keys per case.
"""

from __future__ import annotations

import re
from pathlib import PurePath

from evalyaml.core.findings import Fix, FixSafety, TextEdit
from evalyaml.core.kinds import FormatKind
from evalyaml.core.model import Definition, FileAnalysis, FileRef, Reference
from evalyaml.formats.apastra import crosscases, digests, pins, templates
from evalyaml.formats.apastra.context import Context, string_at
from evalyaml.formats.apastra.kinds import (
    BASELINE,
    CANARY,
    CONSUMPTION,
    DATASET,
    EVALUATOR,
    PACKAGE,
    PROMPT,
    QUICK_EVAL,
    REGRESSION_POLICY,
    SUITE,
)
from evalyaml.syntax.text import Span
from evalyaml.syntax.tree import Mapping, Node, Scalar, Sequence

SELF_DIGESTED = frozenset({SUITE, EVALUATOR})
_ID_KEY = {PROMPT: "id", DATASET: "id", EVALUATOR: "id", SUITE: "id", BASELINE: "baseline_id"}
# Baseline rules a regression policy may name instead of a baseline id (regression docs).
_BASELINE_RULES = ("prod", "last-", "latest", "current")
_ID_SHAPE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_./-]*")


def define(ctx: Context, root: Node | None, kind: FormatKind, result: FileAnalysis) -> None:
    key = _ID_KEY.get(kind)
    if kind is PROMPT and not resolvable_prompt(ctx_path(result)):
        return  # the resolver never reads it: its id names nothing
    found = string_at(root, key) if key else None
    alias = file_name(ctx_path(result), kind)
    if found is None:
        if alias:
            result.definitions.append(Definition(kind if kind is not QUICK_EVAL else PROMPT,
                                                 alias, None, Span.point(0, 0), None,
                                                 alias=True))
        return
    name, node = found
    description = None
    if kind is EVALUATOR and isinstance(root, Mapping):
        metrics = _strings(root.get("metrics"))
        result.facts["metrics"] = [m for m, _ in metrics]
        described = string_at(root, "description")
        kind_text = string_at(root, "type")
        lines = [(f"{kind_text[0]} evaluator" if kind_text else "evaluator")
                 + " · metrics: " + (", ".join(f"`{m}`" for m, _ in metrics) or "none")]
        if described:
            lines.append(described[0])
        description = "\n\n".join(line for line in lines if line)
    elif isinstance(root, Mapping):
        described = string_at(root, "description")
        description = described[0] if described else None
    result.definitions.append(Definition(kind, name, None, ctx.span(node), None,
                                         description=description))
    if alias and alias != name:
        result.definitions.append(Definition(kind, alias, None, ctx.span(node), None,
                                             description=description, alias=True))


# The folder each kind's files live in, and the file names Apastra's tools find one by when a
# reference names it: `runtime/canary.py` opens `promptops/suites/<suite_ref>.yaml`;
# `runtime/mcp_server.py` `_resolve_asset` tries `<kind>/<ref>.<ext>` (and for datasets
# `<ref>/dataset.jsonl` or `<ref>/dataset-manifest.yaml`, for prompts `<ref>/prompt.yaml`)
# before it scans ids; `resolver/workspace.py` finds a pinned prompt by file name only
# (`prompts/<id>.yaml`, `prompts/<id>/prompt.yaml`, or a quick eval `evals/<id>.yaml`);
# `runs/establish_baseline.sh` writes `derived-index/baselines/<baseline_id>.json`.
_FOLDER = {SUITE: "suites", EVALUATOR: "evaluators", PROMPT: "prompts", DATASET: "datasets",
           QUICK_EVAL: "evals", BASELINE: "baselines"}
_IN_FOLDER = {"prompts": ("prompt",), "datasets": ("dataset", "dataset-manifest")}


def file_name(path: str, kind: FormatKind) -> str | None:
    """The name a reference may use for this file instead of its id (None: none)."""
    folder = _FOLDER.get(kind)
    if folder is None or not path:
        return None
    parts = PurePath(path).parts
    stem, suffix = PurePath(path).stem, PurePath(path).suffix.lower()
    if suffix not in (".yaml", ".yml", ".json", ".jsonl"):
        return None
    if len(parts) >= 2 and parts[-2] == folder:
        return stem
    if len(parts) >= 3 and parts[-3] == folder and stem in _IN_FOLDER.get(folder, ()):
        return parts[-2]
    return None


def ctx_path(result: FileAnalysis) -> str:
    return result.path or ""


def resolvable_prompt(path: str) -> bool:
    """Whether Apastra's tools can find a prompt at this path (`resolver/workspace.py`,
    `runtime/mcp_server.py`): `prompts/<id>.yaml`, `.yml`, `.json`, or
    `prompts/<id>/prompt.yaml`, `.yml`, `.json` (not `prompt-spec.json`, not a file directly in
    `promptops/`)."""
    parts = PurePath(path).parts
    if len(parts) >= 2 and parts[-2] == "prompts":
        return PurePath(path).suffix.lower() in (".yaml", ".yml", ".json")
    return (len(parts) >= 3 and parts[-3] == "prompts"
            and parts[-1] in ("prompt.yaml", "prompt.yml", "prompt.json"))


def _strings(node: Node | None) -> list[tuple[str, Scalar]]:
    if not isinstance(node, Sequence):
        return []
    return [(item.text, item) for item in node.items
            if isinstance(item, Scalar) and isinstance(item.value, str)]


def _ref(ctx: Context, target: FormatKind, name: str, node: Scalar, *, origin: str,
         owner: str) -> Reference:
    return Reference(target, ctx.source(node), ctx.span(node), origin, owner, name, None)


def refer(ctx: Context, root: Node | None, kind: FormatKind, result: FileAnalysis) -> None:
    if not isinstance(root, Mapping):
        return
    own = string_at(root, "id")
    owner = own[0] if own else ""
    refs = result.references
    if kind is SUITE:
        for name, node in _strings(root.get("datasets")):
            refs.append(_ref(ctx, DATASET, name, node, origin="datasets", owner=owner))
        for name, node in _strings(root.get("evaluators")):
            refs.append(_ref(ctx, EVALUATOR, name, node, origin="evaluators", owner=owner))
        prompt = string_at(root, "prompt")
        if prompt:
            refs.append(_ref(ctx, PROMPT, prompt[0], prompt[1], origin="prompt", owner=owner))
    elif kind is CANARY:
        for key in ("suite_ref", "suite", "suite_id"):
            found = string_at(root, key)
            if found:
                refs.append(_ref(ctx, SUITE, found[0], found[1], origin=key, owner=owner))
    elif kind is QUICK_EVAL:
        # quick-eval.schema.json's `prompt` is "the prompt template"; only a value shaped like
        # a prompt id (`summarize-v1`, `team/summarize`) names one, never a one-word template.
        prompt = string_at(root, "prompt")
        if prompt and _ID_SHAPE.fullmatch(prompt[0]) and any(c in prompt[0] for c in "-_/"):
            refs.append(_ref(ctx, PROMPT, prompt[0], prompt[1], origin="prompt", owner=owner))
    elif kind is REGRESSION_POLICY:
        found = string_at(root, "baseline")
        # a "baseline reference rule" (`prod current`) or a baseline's id (file name)
        if found and _ID_SHAPE.fullmatch(found[0]) and any(c in found[0] for c in "-_") \
                and not found[0].startswith(_BASELINE_RULES):
            refs.append(_ref(ctx, BASELINE, found[0], found[1], origin="baseline", owner=owner))
    elif kind is CONSUMPTION:
        _consumption(ctx, root, result)


def _is_id(text: str) -> bool:
    return bool(text) and not any(c.isspace() for c in text) and "{{" not in text


def _consumption(ctx: Context, root: Mapping, result: FileAnalysis) -> None:
    prompts = root.get("prompts")
    if not isinstance(prompts, Mapping):
        return
    for local, entry in prompts.pairs:
        if not isinstance(entry, Mapping) or not isinstance(local, Scalar):
            continue
        found = string_at(entry, "id")
        pin = string_at(entry, "pin")
        if found:
            name, node = found
            unsafe = pins.unsafe_prompt_id(name)
            if unsafe:
                ctx.sink.add("EY813", f"Apastra's resolver refuses the prompt id '{name}' "
                             f"(\"Unsafe prompt_id\"): it has {unsafe}", ctx.span(node))
            elif entry.get("override") is None and pin is None:
                # Only the workspace can resolve it (a pin or an override resolves elsewhere).
                result.references.append(_ref(ctx, PROMPT, name, node, origin="prompts",
                                              owner=local.text))
            elif entry.get("override") is None:
                _pinned_prompt_files(ctx, name, node, result)
        if pin:
            text, node = pin
            found_problem = pins.problem(text)
            if found_problem:
                message, start, end = found_problem
                offset = 1 if node.style in ('"', "'") else 0
                raw = ctx.source(node)
                span = (ctx.sub(node.start + offset + start, node.start + offset + end)
                        if raw[offset:offset + len(text)] == text else ctx.span(node))
                ctx.sink.add("EY812", f"malformed pin '{text}': {message}", span)


# `resolver/workspace.py` `WorkspaceResolver.resolve`: the paths it tries, in order, from the
# folder holding `promptops/` (its working directory).
_WORKSPACE_PROMPT_PATHS = ("promptops/prompts/{}.yaml", "promptops/prompts/{}.json",
                           "promptops/prompts/{}/prompt.yaml", "promptops/prompts/{}/prompt.json",
                           "promptops/evals/{}.yaml", "promptops/evals/{}.json")


def _pinned_prompt_files(ctx: Context, name: str, node: Scalar, result: FileAnalysis) -> None:
    """A pinned entry still resolves to the workspace's file first (`resolver/chain.py`:
    override > workspace > pin), so its id links to the file the resolver would open. A link,
    not a reference: when the workspace has no such file the pin resolves it, which is no
    mistake."""
    if result.path is None:
        return
    folder = PurePath(result.path).parent
    while folder.name != "promptops" and folder != folder.parent:
        folder = folder.parent
    if folder.name != "promptops":
        return
    base = folder.parent
    result.file_refs.append(FileRef(ctx.span(node), tuple(
        str(base / pattern.format(name)) for pattern in _WORKSPACE_PROMPT_PATHS)))


def check_digests(ctx: Context, root: Node | None, kind: FormatKind, flagged: set[int],
                  path: str | None) -> None:
    """Placeholder and malformed digests anywhere; self-digests of suites and evaluators."""
    for key, value in _digest_fields(root):
        if not isinstance(value, Scalar) or not isinstance(value.value, str):
            continue
        text = value.text
        if text == digests.EMPTY:
            ctx.sink.add("EY803", f"'{key.text}' is the sha256 of nothing (an empty input): a "
                         "placeholder, not the digest of anything", ctx.span(value))
        elif value.start not in flagged and text.startswith("sha256:") and not \
                digests.WELL_FORMED.fullmatch(text):
            ctx.sink.add("EY804", f"malformed digest '{text}': Apastra's digest convention "
                         "is 'sha256:' and 64 lowercase hex digits", ctx.span(value))
    if kind in SELF_DIGESTED and isinstance(root, Mapping) and (path or "").lower().endswith(
            (".yaml", ".yml", ".json")):
        _self_digest(ctx, root, (path or "").lower().endswith(".json"))


def _digest_fields(root: Node | None) -> list[tuple[Scalar, Node]]:
    out: list[tuple[Scalar, Node]] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, Mapping):
            for key, value in node.pairs:
                if isinstance(key, Scalar) and (key.text == "digest" or
                                                key.text.endswith("_digest")):
                    out.append((key, value))
                stack.append(value)
        elif isinstance(node, Sequence):
            stack.extend(node.items)
    return out


def _self_digest(ctx: Context, root: Mapping, is_json: bool) -> None:
    field = root.pair("digest")
    if field is None or not isinstance(field[1], Scalar):
        return
    value = field[1]
    stored = value.text
    if stored == digests.EMPTY or not digests.WELL_FORMED.fullmatch(stored):
        return
    try:
        from evalyaml.syntax.tree import Budget, to_python
        loaded = (to_python(root, Budget(1_000_000)) if is_json else digests.value_11(root))
    except digests.Unreadable as unreadable:
        ctx.sink.add("EY806", "Apastra's digest tools cannot hash this file, so its digest "
                     f"cannot be checked: {unreadable.why}",
                     ctx.span(unreadable.node))
        return
    if not isinstance(loaded, dict):
        return
    loaded.pop("digest", None)
    computed = digests.of_value(loaded)
    report(ctx, value, stored, computed, "the document without its 'digest' key")


def report(ctx: Context, value: Scalar, stored: str, computed: digests.Digests,
           what: str) -> None:
    """A digest compared with what Apastra's two implementations compute."""
    span = ctx.span(value)
    quote = '"' if value.style == '"' else ("'" if value.style == "'" else "")
    if computed.agree:
        if stored != computed.script:
            ctx.sink.add("EY802", f"stale digest: {what} hashes to {computed.script}",
                         span, fixes=(_fix(span, quote, computed.script),))
        return
    if stored == computed.script:
        ctx.sink.add("EY805", f"this digest is compute-digest.sh's (non-ASCII text kept); "
                     f"runtime/digest.py escapes it and computes {computed.runtime}", span,
                     fixes=(_fix(span, quote, computed.runtime, choice=True),))
    elif stored == computed.runtime:
        ctx.sink.add("EY805", f"this digest is runtime/digest.py's (non-ASCII text escaped); "
                     f"compute-digest.sh keeps it and computes {computed.script}", span,
                     fixes=(_fix(span, quote, computed.script, choice=True),))
    else:
        ctx.sink.add("EY802", f"stale digest: {what} hashes to {computed.script} "
                     f"(compute-digest.sh) or {computed.runtime} (runtime/digest.py)", span,
                     fixes=(_fix(span, quote, computed.script),
                            _fix(span, quote, computed.runtime, "runtime/digest.py's ")))


def _fix(span: object, quote: str, digest: str, whose: str = "", *,
         choice: bool = False) -> Fix:
    """`choice`: both digests are right for one of Apastra's two implementations (EY805), so
    only the author may swap them; `--fix` would swap them back and forth."""
    from evalyaml.syntax.text import Span
    assert isinstance(span, Span)
    return Fix(f"Replace with {whose}{digest[:15]}…", (TextEdit(span, f"{quote}{digest}{quote}"),),
               preferred=not whose, safety=FixSafety.NEVER if choice else FixSafety.BY_TITLE)


def check_templates(ctx: Context, root: Node | None, kind: FormatKind,
                    result: FileAnalysis, *, blanked: frozenset[int] = frozenset()) -> None:
    """Spaced placeholders in prompt templates and quick evals; a quick eval's placeholders
    that no case supplies (a case with a line `blanked` by syntax error recovery is not
    asked: the input may sit on the broken line); a prompt's variables for other files'
    checks."""
    if not isinstance(root, Mapping):
        return
    found: list[tuple[templates.Placeholder, Scalar]] = []
    first_at: dict[str, Span] = {}  # each placeholder's first place, for other files' findings
    for node in _template_strings(root, kind):
        for index, placeholder in enumerate(templates.placeholders(node.text)):
            found.append((placeholder, node))
            if not placeholder.spaced and placeholder.name not in first_at:
                literal = node.text[placeholder.start:placeholder.end]
                first_at[placeholder.name] = ctx.inner(
                    node, placeholder.start, placeholder.end, literal,
                    node.text[:placeholder.start].count(literal))
            if placeholder.spaced:
                literal = node.text[placeholder.start:placeholder.end]
                nth = node.text[:placeholder.start].count(literal)
                span = ctx.inner(node, placeholder.start, placeholder.end, literal, nth)
                tight = "{{" + placeholder.name + "}}"
                fixes = (Fix(f"Write {tight}", (TextEdit(span, tight),), preferred=True),) \
                    if span != ctx.span(node) else ()
                ctx.sink.add("EY810", f"'{literal}' is never substituted: Apastra replaces "
                             f"'{tight}' literally, with no spaces inside the braces", span,
                             fixes=fixes)
            del index
    names = sorted({p.name for p, _ in found if not p.spaced})
    if kind is PROMPT:
        variables = root.get("variables")
        declared = [k.text for k, _ in variables.pairs if isinstance(k, Scalar)] \
            if isinstance(variables, Mapping) else []
        result.facts["variables"] = sorted(set(declared) | set(names))
        result.facts["placeholders"] = names
        result.facts["placeholder_spans"] = first_at
    if kind is QUICK_EVAL:
        _quick_eval_inputs(ctx, root, found, blanked)


def template_placeholders(root: Mapping, kind: FormatKind
                          ) -> list[tuple[templates.Placeholder, Scalar]]:
    """Every placeholder of the file's template strings, and its string, in order."""
    return [(placeholder, node) for node in _template_strings(root, kind)
            for placeholder in templates.placeholders(node.text)]


def _template_strings(root: Mapping, kind: FormatKind) -> list[Scalar]:
    key = "template" if kind is PROMPT else ("prompt" if kind is QUICK_EVAL else None)
    if key is None:
        return []
    node = root.get(key)
    out: list[Scalar] = []
    stack: list[Node | None] = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Scalar) and isinstance(item.value, str):
            out.append(item)
        elif isinstance(item, Sequence):
            stack.extend(reversed(item.items))
        elif isinstance(item, Mapping):  # render.py renders every value of a mapping
            stack.extend(reversed([value for _, value in item.pairs]))
    return out


def _quick_eval_inputs(ctx: Context, root: Mapping,
                       found: list[tuple[templates.Placeholder, Scalar]],
                       blanked: frozenset[int]) -> None:
    cases = root.get("cases")
    if not isinstance(cases, Sequence):
        return
    placeholders = crosscases.placeholder_spans(ctx, found)
    names = {name for name, _ in placeholders}
    asked = [crosscases.case_inputs(ctx, case, names) for case in cases.items
             if not (blanked and _lost_a_line(ctx, cases, case, blanked))]
    crosscases.missing_inputs(ctx.sink, placeholders, frozenset(p.name for p, _ in found),
                              asked)


def _lost_a_line(ctx: Context, cases: Sequence, case: Node, blanked: frozenset[int]) -> bool:
    """Whether recovery blanked a line from this case's first line up to the next case's
    (to the end of the file for the last one: a blank line at a case's end may have been its
    own)."""
    first = ctx.span(case).start.line
    later = [ctx.span(c).start.line for c in cases.items if c is not None and c.start > case.start]
    stop = min(later, default=ctx.lines.line_count)
    return any(first <= n < stop for n in blanked)


def check_cases(ctx_rows: list[tuple[Context, Node]], result: FileAnalysis,
                path: str | None, *, where: str = "dataset") -> None:
    """A dataset's JSONL: duplicate case ids across lines; each case's input keys as facts."""
    inputs: dict[str, list[str]] = {}
    ids: list[tuple[str, Span] | None] = []
    sink = ctx_rows[0][0].sink if ctx_rows else None
    for ctx, row in ctx_rows:
        found = string_at(row, "case_id")
        if found is None:
            continue
        name, node = found
        row_inputs = row.get("inputs") if isinstance(row, Mapping) else None
        if isinstance(row_inputs, Mapping):
            inputs[name] = [k.text for k, _ in row_inputs.pairs if isinstance(k, Scalar)]
        ids.append((name, ctx.span(node)))
    if sink is not None:
        crosscases.duplicate_ids(ids, sink, where)
    result.facts["inputs"] = inputs
    alias = file_name(path or "", DATASET)
    if alias:
        result.definitions.append(Definition(DATASET, alias, None, Span.point(0, 0), None,
                                             alias=True))


__all__ = ["PACKAGE", "check_cases", "check_digests", "check_templates", "define", "refer",
           "report"]
