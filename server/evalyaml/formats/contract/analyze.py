"""The core contract's analysis of one text: datasets, rubrics and judges.

`evalyaml.dispatch` decides that a file is the contract's (or that nobody else claimed it) and
calls `analyze_contract`; this module then detects the kind per document as DESIGN §2 says
(modeline, root `$schema`, folder, shape) and runs the kind's rules. Large datasets take the
per-case path (`formats.contract.dataset`), everything else is parsed whole.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from evalyaml.core.findings import Finding, FindingSink, Related
from evalyaml.core.kinds import FileKind
from evalyaml.core.model import FileAnalysis
from evalyaml.core.options import Options
from evalyaml.formats.contract.dataset import analyze_dataset, analyze_dataset_whole
from evalyaml.formats.contract.detect import (
    NotOurs,
    detect_kind,
    detect_kind_without_tree,
    named_by_folder,
)
from evalyaml.formats.contract.judge import analyze_judge
from evalyaml.formats.contract.rubric import analyze_rubric
from evalyaml.syntax.record import replace
from evalyaml.syntax.tree import Budget, ExpansionLimit, Mapping
from evalyaml.syntax.yaml.parse import parse_text
from evalyaml.syntax.yaml.segments import has_questions_line, has_root_schema_key

if TYPE_CHECKING:
    from evalyaml.core.incremental import CaseCache, CaseMapper


def analyze_contract(text: str, path: str | None, options: Options,
                     cache: CaseCache | None = None, *,
                     forced_kind: FileKind | None = None,
                     mapper: CaseMapper | None = None) -> FileAnalysis:
    """`cache` reuses unchanged cases of a dataset across calls (the language server keeps one
    per open document); `mapper` spreads a dataset's cases over processes (the CLI). Returns
    kind None when the text turns out not to be the contract's (no kind by shape either)."""
    hint = forced_kind or detect_kind_without_tree(text, path, options.root)
    if isinstance(hint, NotOurs):
        return FileAnalysis(path, None)
    if hint in (None, FileKind.DATASET) and has_questions_line(text) and \
            not has_root_schema_key(text):  # `$schema` decides: the whole-file parse reads it
        dataset = analyze_dataset(text, options, cache, mapper)
        if dataset is not None:
            return FileAnalysis(path, FileKind.DATASET, dataset.findings,
                                references=dataset.references, cases=dataset.cases)
    sink = FindingSink(strict=options.strict)
    parsed = parse_text(text, sink)
    if not parsed.usable:
        kind = hint if isinstance(hint, FileKind) else (
            FileKind.DATASET if has_questions_line(text) else None)
        if kind is None:
            return FileAnalysis(path, None)  # broken YAML that is not ours: not our business
        return FileAnalysis(path, kind, sink.findings)
    result = FileAnalysis(path, None)
    by_folder: set[int] = set()  # the sink's indexes of findings on a document the folder named
    budget = Budget(max(100_000, len(text)))
    for root in parsed.documents:
        kind = forced_kind or detect_kind(text, path, root, options.root)
        if kind is None:
            continue
        first = len(sink.findings)
        result.kind = result.kind or kind
        if not isinstance(root, Mapping):
            line_end = parsed.lines.line_end(parsed.lines.position(root.start).line) \
                if root is not None else 0
            sink.add("EY200", f"a {kind.value} file must be a mapping of keys at its top level",
                     parsed.lines.span(root.start if root is not None else 0, line_end))
            continue
        try:
            if kind is FileKind.DATASET:
                cases, references = analyze_dataset_whole(parsed, root, options, sink)
                result.cases.extend(cases)
                result.references.extend(references)
            elif kind is FileKind.RUBRIC:
                definition, references = analyze_rubric(parsed, root, budget, sink)
                result.references.extend(references)
                if definition is not None:
                    result.definitions.append(definition)
            else:
                definition = analyze_judge(parsed, root, budget, options, sink)
                if definition is not None:
                    result.definitions.append(definition)
        except ExpansionLimit as limit:
            line = parsed.lines.position(limit.node.start).line
            sink.add("EY104", "aliases here expand to more nodes than evalyaml allows (an alias "
                     "bomb?); the rest of this document is not checked",
                     parsed.lines.span(limit.node.start,
                                       max(limit.node.start, parsed.lines.line_end(line))))
        if not forced_kind and named_by_folder(text, path, root, options.root):
            by_folder.update(range(first, len(sink.findings)))
    if result.kind is None and isinstance(hint, FileKind) and not any(parsed.documents):
        # Named as ours (modeline, folder, forced) but empty: say what the file needs.
        required = {FileKind.DATASET: "a 'questions' list", FileKind.RUBRIC:
                    "'id', 'version', 'checks' and 'scoring'", FileKind.JUDGE:
                    "'id', 'version' and 'template'"}[hint]
        result.kind = hint
        sink.add("EY200", f"the {hint.value} file is empty; it needs {required}",
                 parsed.lines.span(0, parsed.lines.line_end(0)))
    if result.kind is None:
        return result  # YAML, but not ours: findings such as duplicate keys are not ours to give
    # Checks merged in from one anchor report the same mistake at the same place: say it once.
    result.findings = list(dict.fromkeys(
        folder_note(f, kind_word(result.kind)) if n in by_folder and f.code == "EY201" else f
        for n, f in enumerate(sink.findings)))
    return result


def kind_word(kind: object) -> str:
    return kind.value if isinstance(kind, FileKind) else "file"


def folder_note(finding: Finding, kind: str) -> Finding:
    """A missing key of a file taken for a rubric or judge by its folder alone says so: the
    file may be another tool's, and the folder rule is why it is checked at all."""
    note = Related(None, finding.span,
                   f"taken for a {kind} by its {kind}s/ folder (evalyaml check --show-kinds)")
    return replace(finding, related=(*finding.related, note))
