"""Apastra rules that read other files: a dataset manifest's digest against its JSONL, a suite's
thresholds against its evaluators' metrics, its datasets' inputs against its prompt's variables.

Every read goes through `NamedFiles` (open buffers first, confined to the workspace roots, each
read watched so an edit to the JSONL re-checks the manifest). An id the index cannot resolve is
the engine's EY301 and is skipped here.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from evalyaml.core.findings import Finding, FindingSink, Related
from evalyaml.core.model import Definition, FileAnalysis
from evalyaml.core.options import Options
from evalyaml.core.suggest import best
from evalyaml.formats.apastra import digests, rules
from evalyaml.formats.apastra.context import Context
from evalyaml.formats.apastra.kinds import DATASET, EVALUATOR, PROMPT, SUITE
from evalyaml.formats.base import NamedFiles
from evalyaml.syntax.text import LineIndex, Span
from evalyaml.syntax.tree import Scalar


def cross_check(path: Path, analysis: FileAnalysis, files: NamedFiles,
                options: Options) -> Iterable[Finding]:
    sink = FindingSink(strict=options.strict)
    try:
        _byte_order_mark(path, files, sink)
        if analysis.kind is DATASET:
            _manifest_digest(path, analysis, files, sink)
        elif analysis.kind is SUITE:
            _thresholds(analysis, files, sink)
            _inputs(analysis, files, sink)
    except (OSError, ValueError):
        return ()
    return sink.findings


def _byte_order_mark(path: Path, files: NamedFiles, sink: FindingSink) -> None:
    """A UTF-8 byte-order mark on a JSON or JSONL file: Apastra's Python readers open files as
    plain `utf-8` and hand the text to `json.load`/`json.loads` (`runtime/digest.py`,
    `validators/compute-digest.sh`, `hooks/agent_hook.py`, `resolver/workspace.py`), which
    refuse it ("Unexpected UTF-8 BOM"). YAML is spared: PyYAML skips the mark. The engine
    drops the mark before analysis, so it is looked for in the file's first bytes."""
    suffix = path.suffix.lower()
    if suffix not in (".json", ".jsonl"):
        return
    stream = files.open_binary(path)
    if stream is None:
        return
    with stream:
        head = stream.read(3)
    if head != b"\xef\xbb\xbf":
        return
    tool = "json.loads of its first line" if suffix == ".jsonl" else "json.load"
    sink.add("EY814", f"the file starts with a UTF-8 byte-order mark, which Apastra's readers "
             f"reject ({tool} in runtime/digest.py and hooks/agent_hook.py: \"Unexpected "
             "UTF-8 BOM\"): save it as UTF-8 without a BOM", Span.point(0, 0))


def dataset_lines(manifest: Path, dataset_id: str | None, files: NamedFiles) -> Path | None:
    """The JSONL a manifest describes: `dataset.jsonl` beside it (the repo's layout), or
    `<id>.jsonl` beside it or in the folder above (the docs' flat layout)."""
    names = ["dataset.jsonl"]
    if dataset_id:
        names += [f"{dataset_id}.jsonl", f"../{dataset_id}.jsonl"]
    for name in names:
        found = files.resolve(manifest.parent, name)
        if found is not None and files.exists(found):
            return found
    return None


def _manifest_digest(path: Path, analysis: FileAnalysis, files: NamedFiles,
                     sink: FindingSink) -> None:
    fact = analysis.facts.get("digest")
    if not isinstance(fact, tuple):
        return
    stored, span, style = fact
    ids = [d.id for d in analysis.definitions]
    jsonl = dataset_lines(path, ids[0] if ids else None, files)
    if jsonl is None:
        return
    text = files.read_text(jsonl)
    if text is None:
        return
    computed = digests.of_jsonl(text)
    if computed is None or stored == digests.EMPTY or not digests.WELL_FORMED.fullmatch(stored):
        return
    # A one-scalar context: `report` needs the value's span and quoting only.
    value = Scalar("tag:yaml.org,2002:str", 0, 0, stored, style)
    ctx = _SpanContext(sink, span)
    rules.report(ctx, value, stored, computed, f"{jsonl.name} (its lines, canonicalised)")


class _SpanContext(Context):
    """A context whose every node is at one known span (the manifest's digest value)."""

    def __init__(self, sink: FindingSink, span: Span) -> None:
        super().__init__("", LineIndex(""), sink)
        self._at = span

    def span(self, node: object) -> Span:
        return self._at


def _definition_facts(files: NamedFiles, kind: object, name: str
                      ) -> tuple[Path, FileAnalysis] | None:
    from evalyaml.core.kinds import FormatKind
    assert isinstance(kind, FormatKind)
    where = _one_file(files.definitions_of(kind, name))
    if where is None:
        return None
    other = files.analysis(where)
    return (where, other) if other is not None else None


def _one_file(found: list[tuple[Path, Definition]]) -> Path | None:
    """The file a reference resolves to: the one file defining it (by id, by file name or
    both), else the one named by file name, which `runtime/mcp_server.py` tries before it scans
    ids; None when that is ambiguous (the engine's EY305) or nothing defines it."""
    paths = list(dict.fromkeys(p for p, _ in found))
    if len(paths) == 1:
        return paths[0]
    by_name = list(dict.fromkeys(p for p, d in found if d.alias))
    return by_name[0] if len(by_name) == 1 else None


def _thresholds(analysis: FileAnalysis, files: NamedFiles, sink: FindingSink) -> None:
    thresholds = analysis.facts.get("thresholds")
    if not isinstance(thresholds, list) or not thresholds:
        return
    evaluator_ids = [r.id for r in analysis.references if r.target is EVALUATOR and r.id]
    metrics: set[str] = set()
    for evaluator in evaluator_ids:
        found = _definition_facts(files, EVALUATOR, evaluator)
        if found is None:
            return  # unknown or ambiguous: the engine says so
        produced = found[1].facts.get("metrics")
        if not isinstance(produced, list):
            return
        metrics.update(str(m) for m in produced)
    for name, span in thresholds:
        if name in metrics or name == "pass_rate":
            continue
        from evalyaml.core.suggest import did_you_mean
        listed = ", ".join(sorted(metrics)) or "none"
        sink.add("EY807", f"no evaluator of this suite produces the metric '{name}' (they "
                 f"produce {listed}){did_you_mean(name, metrics)}", span)


def _inputs(analysis: FileAnalysis, files: NamedFiles, sink: FindingSink) -> None:
    prompt_id = analysis.facts.get("prompt")
    if not isinstance(prompt_id, str):
        return
    prompt = _definition_facts(files, PROMPT, prompt_id)
    if prompt is None:
        return
    variables = prompt[1].facts.get("variables")
    used = prompt[1].facts.get("placeholders")
    if not isinstance(variables, list) or not isinstance(used, list):
        return
    for ref in analysis.references:
        if ref.target is not DATASET or not ref.id:
            continue
        where = _one_file(files.definitions_of(DATASET, ref.id))
        if where is None:
            continue
        jsonl = where if where.suffix == ".jsonl" else dataset_lines(where, ref.id, files)
        cases = files.analysis(jsonl) if jsonl is not None else None
        inputs = cases.facts.get("inputs") if cases is not None else None
        if not isinstance(inputs, dict):
            continue
        extra: dict[str, list[str]] = {}
        unsupplied: dict[str, list[str]] = {}
        for case_id, keys in inputs.items():
            for key in keys:
                if key not in variables:
                    extra.setdefault(key, []).append(case_id)
            for name in used:
                if name not in keys:
                    unsupplied.setdefault(name, []).append(case_id)
        for name, case_ids in sorted(unsupplied.items()):
            shown = ", ".join(f"'{c}'" for c in case_ids[:3])
            more = f" and {len(case_ids) - 3} more" if len(case_ids) > 3 else ""
            spans = prompt[1].facts.get("placeholder_spans")
            at = spans.get(name) if isinstance(spans, dict) else None
            near = best(name, {k for c in case_ids for k in inputs.get(c, ())} - set(used))
            hint = f"; did you mean '{{{{{near}}}}}'?" if near else ""
            sink.add("EY809", f"prompt '{prompt_id}' uses '{{{{{name}}}}}' but dataset "
                     f"'{ref.id}' gives no input '{name}' (case {shown}{more}): Apastra leaves "
                     f"it in the prompt as written{hint}", ref.span,
                     related=(Related(str(prompt[0]), at if isinstance(at, Span)
                                      else Span.point(0, 0),
                                      f"'{{{{{name}}}}}' in the prompt"),))
        for key, case_ids in sorted(extra.items()):
            shown = ", ".join(f"'{c}'" for c in case_ids[:3])
            more = f" and {len(case_ids) - 3} more" if len(case_ids) > 3 else ""
            sink.add("EY808", f"dataset '{ref.id}' gives the input '{key}' (case {shown}{more}) "
                     f"but prompt '{prompt_id}' has no variable '{key}' "
                     f"(its variables: {', '.join(variables) or 'none'})", ref.span,
                     related=(Related(str(prompt[0]), Span.point(0, 0), "the prompt"),))
