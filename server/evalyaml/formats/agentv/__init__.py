"""AgentV eval suites (seed 004: PR #1342 = e43a4d46, published as npm `agentv` 4.x).

The contract is `agentv validate` (`validation/eval-validator.ts`) and the loader
(`yaml-parser.ts`, `loaders/grader-parser.ts`), read at the seed's commit; where they disagree
the loader wins (it is what runs). Rules live in `suite` (suite and test keys, messages,
assertions, conversation mode, workspace), `rubrics`, `prompt` (grader prompt files) and
`jsregex` (JavaScript regular expressions); recognition in `detect`; the lists in `rules`.

Other files: grader prompts (`prompt: file://x.md`) and external cases files (`tests: x.yaml`,
`- file://x.jsonl`) are *adopted*: this file's analysis lists them (`FileAnalysis.file_refs`, with
AgentV's search roots as candidates) and the workspace analyses each as that kind. Whether they
exist, and whether an unknown assertion type is a custom one in an ancestor
`.agentv/assertions/`, is the cross check's (it reads through `NamedFiles`, confined to the
workspace roots). No AgentV code runs and no `.ts` file is read.

5.x (the unpublished July 2026 rewrite, `providers:`/`prompts:` suites) is recognised and left
alone with one information note: its rules are not 4.x's.
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
from evalyaml.formats.agentv import detect
from evalyaml.formats.agentv.codes import CODES
from evalyaml.formats.agentv.kinds import CASES, CONFIG, PROMPT, SUITE, TARGETS, WORKSPACE
from evalyaml.formats.base import Claim, FormatBase, FormatIde, NamedFiles, Refusal

if TYPE_CHECKING:
    from evalyaml.core.incremental import CaseCache, CaseMapper

__all__ = ["CASES", "CONFIG", "FORMAT", "PROMPT", "SUITE", "TARGETS", "WORKSPACE",
           "AgentvFormat"]


class AgentvFormat(FormatBase):
    """What discovery needs (kinds, suffixes, codes, detection); the rules load with the first
    AgentV file analysed (`analyze`), the completion tables when the editor first asks."""

    name = "agentv"
    title = "AgentV"
    kinds: tuple[Kind, ...] = (SUITE, PROMPT, CASES, CONFIG, WORKSPACE, TARGETS)
    suffixes = (".yaml", ".yml")
    codes: tuple[Code, ...] = CODES

    @property
    def ide(self) -> FormatIde:
        from evalyaml.formats.agentv.ide import IDE

        return IDE

    def claim(self, text: str, path: str | None, root: str | None) -> Claim | Refusal | None:
        return detect.claim(text, path)

    def analyze(self, text: str, path: str | None, kind: Kind | None, options: Options, *,
                forced: bool = False, cache: CaseCache | None = None,
                mapper: CaseMapper | None = None, whole: bool = False) -> FileAnalysis:
        """A suite or a YAML cases file test by test where it splits (`bytest`) and a
        document's `cache` keeps the tests for the next edit; the other kinds whole. Whole too
        when nothing will be reused (the command line, a closed file) or when `whole` asks
        (what the split must equal, for the tests): one parse of the whole file is about twice
        as fast as parsing, checking and placing 10,000 tests one by one."""
        from evalyaml.formats.agentv.analyze import analyze

        return analyze(text, path, kind, options, cache=cache, whole=whole)

    def cross_check(self, path: Path, analysis: FileAnalysis, files: NamedFiles,
                    options: Options) -> Iterable[Finding]:
        from evalyaml.formats.agentv.analyze import cross_check

        return cross_check(path, analysis, files, options)


FORMAT = AgentvFormat()
