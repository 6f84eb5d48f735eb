"""A Padosoft file's analysis, loaded with the first Padosoft file analysed (not with the
registry in `__init__`, which discovery imports): the rules, the YAML and JSON readers."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from evalyaml.core.findings import FindingSink
from evalyaml.core.kinds import Kind
from evalyaml.core.model import FileAnalysis
from evalyaml.core.options import Options
from evalyaml.formats.base import Claim
from evalyaml.formats.padosoft import detect
from evalyaml.formats.padosoft.calibration import check_calibration
from evalyaml.formats.padosoft.common import Context
from evalyaml.formats.padosoft.dataset import check_dataset
from evalyaml.formats.padosoft.eval_set import check_eval_set
from evalyaml.formats.padosoft.kinds import CALIBRATION, DATASET, EVAL_SET
from evalyaml.syntax.lazyre import lazy_re
from evalyaml.syntax.parsed import ParsedText
from evalyaml.syntax.record import replace
from evalyaml.syntax.yaml.parse import parse_text

if TYPE_CHECKING:
    from evalyaml.core.incremental import CaseCache

KINDS: tuple[Kind, ...] = (DATASET, CALIBRATION, EVAL_SET)

_DUPLICATE = lazy_re(r"^duplicate key '(?P<key>.*)': only the first")
_DOCUMENT_START = lazy_re(r"^---(?=[ \t]|\r?$)", re.MULTILINE)


def analyze(text: str, path: str | None, kind: Kind | None, options: Options,
            cache: CaseCache | None) -> FileAnalysis:
    """A dataset sample by sample and a calibration file case by case where they split
    (`samples`, `calcases`); the rest whole."""
    if kind not in KINDS:
        claimed = detect.claim(text, path, options.root)
        kind = claimed.kind if isinstance(claimed, Claim) else DATASET
    if kind is DATASET:
        from evalyaml.core.items import ItemState
        from evalyaml.formats.padosoft.samples import (
            STATE,
            SampleRules,
            analyze_dataset_by_sample,
        )
        state = cache.format_state(STATE, ItemState) if cache is not None else None
        by_sample = analyze_dataset_by_sample(text, path, options, state,
                                              SampleRules(_symfony_duplicates))
        if by_sample is not None:
            return by_sample
    if kind is CALIBRATION:
        from evalyaml.core.items import ItemState
        from evalyaml.formats.padosoft.calcases import (
            STATE,
            CaseRules,
            analyze_calibration_by_case,
        )
        state = cache.format_state(STATE, ItemState) if cache is not None else None
        by_case = analyze_calibration_by_case(text, path, options, state,
                                              CaseRules(_symfony_duplicates))
        if by_case is not None:
            return by_case
    return analyze_whole(text, path, kind, options)


def analyze_whole(text: str, path: str | None, kind: Kind, options: Options) -> FileAnalysis:
    """One parse of the whole file: what a dataset's sample-by-sample analysis must equal."""
    sink = FindingSink(strict=options.strict)
    result = FileAnalysis(path, kind)
    if kind is EVAL_SET:
        from evalyaml.syntax.json import parse_json  # an eval set, not a YAML dataset

        parsed = parse_json(text, sink)
    else:
        parsed = parse_text(text, sink)
        _symfony_duplicates(sink)
    if not parsed.usable:
        result.findings = sink.findings
        return result
    ctx = Context(parsed, sink)
    if kind is not EVAL_SET and len(parsed.documents) > 1:
        _several_documents(ctx, kind)
    root = parsed.documents[0] if parsed.documents else None
    if kind is DATASET:
        result.definitions, result.cases = check_dataset(ctx, root)
    elif kind is CALIBRATION:
        result.cases = check_calibration(ctx, root)
    else:
        result.references = check_eval_set(ctx, root)
    # A rule met through a merge key reports the same place twice: say it once.
    result.findings = list(dict.fromkeys(sink.findings))
    return result


def _symfony_duplicates(sink: FindingSink) -> None:
    """Our YAML reader keeps the first of two equal keys; symfony/yaml refuses the file."""
    for index, finding in enumerate(sink.findings):
        match = _DUPLICATE.match(finding.message) if finding.code == "EY102" else None
        if match:
            key = match.group("key")
            sink.findings[index] = replace(
                finding, message=f"duplicate key '{key}': symfony/yaml refuses the whole file "
                f"(\"Duplicate key \"{key}\" detected\"), so eval-harness does not load it")


def _several_documents(ctx: Context, kind: Kind) -> None:
    parsed: ParsedText = ctx.parsed
    second = parsed.documents[1]
    limit = second.start if second is not None else len(parsed.text)
    starts = [m for m in _DOCUMENT_START.finditer(parsed.text) if m.start() <= limit]
    first = parsed.documents[0]
    after_first = [m for m in starts if first is None or m.start() >= first.end]
    marker = after_first[-1] if after_first else (starts[-1] if starts else None)
    span = (parsed.lines.span(marker.start(), marker.end()) if marker is not None
            else ctx.first_line())
    noun = "dataset" if kind is DATASET else "calibration file"
    ctx.add("EY101", f"eval-harness refuses to load the {noun}: symfony/yaml reads one document "
            "per file (\"Multiple documents are not supported\"); move what follows this '---' "
            "to its own file", span)
