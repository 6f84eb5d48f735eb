"""The core contract (seed 000): datasets of cases, rubrics and judges, as `evalyaml` defines them.

It is the first format and the fallback one: a rubric or a judge is recognised by its shape, which
needs a parse, so a YAML file no format claims from its path and text is still offered to the
contract (`analyze` with no kind) before it is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from evalyaml.core.codes import Code
from evalyaml.core.findings import Finding
from evalyaml.core.kinds import FileKind, Kind
from evalyaml.core.model import FileAnalysis
from evalyaml.core.options import Options
from evalyaml.formats.base import (
    HEAD_BYTES,
    Claim,
    FormatBase,
    FormatIde,
    NearMiss,
    ReferenceGraph,
    Refusal,
    Resolved,
    Tier,
)
from evalyaml.formats.contract.codes import CODES
from evalyaml.formats.contract.detect import NotOurs, folder_kind_of_text, modeline_kind
from evalyaml.syntax.lazyre import lazy_re
from evalyaml.syntax.text import LineIndex
from evalyaml.syntax.yaml.segments import has_questions_line

if TYPE_CHECKING:
    from evalyaml.core.incremental import CaseCache, CaseMapper

# A root key one or two letters away from `questions` whose first item is a case (`- id:` then
# an `input:` key): a dataset whose cases would otherwise never be checked. Narrow on purpose:
# quizzes and surveys have `Questions:` lists of their own.
_NEAR_QUESTIONS = lazy_re(
    r"^(?P<key>questons|qestions|quesitons|questiosn|qustions|questins|quetions|questionss"
    r"|quesstions|questoins)[ \t]*:[ \t]*(?:#.*)?\r?$", re.MULTILINE)
_FIRST_ITEM_IS_A_CASE = lazy_re(
    r"\n(?:[ \t]*(?:#[^\n]*)?\r?\n)*[ \t]*-[ \t]+id[ \t]*:[^\n]*\n"
    r"(?:[ \t]+[^\n]*\n){0,20}?[ \t]+input[ \t]*:")


class ContractFormat(FormatBase):
    name = "contract"
    title = "evalyaml contract"
    kinds: tuple[Kind, ...] = (FileKind.DATASET, FileKind.RUBRIC, FileKind.JUDGE)
    suffixes = (".yaml", ".yml")
    codes: tuple[Code, ...] = CODES

    @property
    def ide(self) -> FormatIde:
        from evalyaml.formats.contract.ide import IDE

        return IDE

    def claim(self, text: str, path: str | None, root: str | None) -> Claim | Refusal | None:
        verdict = modeline_kind(text)
        if isinstance(verdict, NotOurs):
            return Refusal(f"its modeline {verdict.value}")
        if verdict is not None:
            return Claim(verdict, Tier.DIRECTIVE, "its yaml-language-server modeline names it")
        folder = folder_kind_of_text(text, path, root)
        if folder is not None:
            return Claim(folder, Tier.PATH, f"it is in a {folder.value}s/ folder")
        # A root `$schema` beside it is read by the analysis (it may name somebody else's).
        if has_questions_line(text):
            return Claim(FileKind.DATASET, Tier.SHAPE, "it has a root 'questions' list")
        return None

    def reference_findings(self, path: Path, analysis: FileAnalysis, resolved: list[Resolved],
                           graph: ReferenceGraph, options: Options) -> Iterable[Finding]:
        from evalyaml.formats.contract.cross import reference_findings

        return reference_findings(path, analysis, resolved, graph, options)

    def near_miss(self, text: str, path: str | None, root: str | None) -> NearMiss | None:
        match = _NEAR_QUESTIONS.search(text, 0, HEAD_BYTES)
        if match is None or not _FIRST_ITEM_IS_A_CASE.match(text, match.end(),
                                                            match.end() + 4096):
            return None
        lines = LineIndex(text)
        key = match.group("key")
        return NearMiss(
            FileKind.DATASET,
            f"this looks like an evalyaml dataset, but its root key is '{key}', not "
            "'questions', so it was not recognised and none of its cases were checked",
            lines.span(match.start("key"), match.end("key")))

    def analyze(self, text: str, path: str | None, kind: Kind | None, options: Options, *,
                forced: bool = False, cache: CaseCache | None = None,
                mapper: CaseMapper | None = None) -> FileAnalysis:
        # The contract detects per document itself (a file may hold several); only a forced
        # kind (`evalyaml validate-rubric`) overrides that.
        forced_kind = kind if forced and isinstance(kind, FileKind) else None
        from evalyaml.formats.contract.analyze import analyze_contract  # with its schemas

        return analyze_contract(text, path, options, cache, forced_kind=forced_kind,
                                mapper=mapper)


FORMAT = ContractFormat()
