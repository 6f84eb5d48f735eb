"""Apastra PromptOps (seed 002): prompts, datasets, evaluators, suites, quick evals, policies,
manifests and run artefacts under `promptops/`, against Apastra's own 55 schemas.

Apastra validates one file at a time with ajv (`validators/*.sh`), stopping at the first error
and naming a JSON pointer; what ties the files together (ids, digests, placeholders) is left to
an agent. Here each file is validated against the schema its place names, with the draft that
schema declares (`schemas`), every error located (`report`); near misses in open objects are
flagged (`openkeys`); digests are recomputed the way Apastra computes them (`digests`); ids are
definitions and references the engine resolves (`rules`); pins follow the resolver's grammar
(`pins`); placeholders its literal renderer (`templates`). Recognition is in `detect`. Nothing a
file names is fetched or run. The checks load with the first Apastra file (`analyze`).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from evalyaml.core.codes import Code
from evalyaml.core.findings import Finding
from evalyaml.core.kinds import Kind
from evalyaml.core.model import FileAnalysis
from evalyaml.core.options import Options
from evalyaml.formats.apastra import detect
from evalyaml.formats.apastra.codes import CODES
from evalyaml.formats.apastra.kinds import CASES, DATASET, EVALUATOR, KINDS, PROMPT, SUITE
from evalyaml.formats.base import Claim, FormatBase, FormatIde, NamedFiles, Refusal

if TYPE_CHECKING:
    from evalyaml.core.incremental import CaseCache, CaseMapper

__all__ = ["CASES", "DATASET", "EVALUATOR", "FORMAT", "PROMPT", "SUITE", "ApastraFormat"]


class ApastraFormat(FormatBase):
    name = "apastra"
    title = "Apastra PromptOps"
    kinds: tuple[Kind, ...] = KINDS
    suffixes = detect.SUFFIXES
    codes: tuple[Code, ...] = CODES

    @property
    def ide(self) -> FormatIde:
        from evalyaml.formats.apastra.ide import IDE

        return IDE

    def claim(self, text: str, path: str | None, root: str | None) -> Claim | Refusal | None:
        return detect.claim(text, path, root)

    def cross_check(self, path: Path, analysis: FileAnalysis, files: NamedFiles,
                    options: Options) -> Iterable[Finding]:
        from evalyaml.formats.apastra.cross import cross_check

        return cross_check(path, analysis, files, options)

    def analyze(self, text: str, path: str | None, kind: Kind | None, options: Options, *,
                forced: bool = False, cache: CaseCache | None = None,
                mapper: CaseMapper | None = None) -> FileAnalysis:
        from evalyaml.formats.apastra.analyze import analyze  # rules and schemas, on first use

        return analyze(text, path, kind, options, cache)


FORMAT = ApastraFormat()
