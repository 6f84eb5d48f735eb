"""promptfoo configs (npm `promptfoo` 0.123.1), checked as promptfoo's own code reads them.

`../shared/FORMATS.md` §7 is the contract: the zod schemas (`src/types/index.ts`), the loaders
(`src/util/config/load.ts`, `src/util/testCaseReader.ts`, `src/prompts/`), the CSV reader
(`src/csv.ts`) and the assertion handlers (`src/assertions/`). Recognition in `detect`; the
config's keys in `config`, tests in `tests`, assertions in `asserts`, providers in `providers`,
CSV tables in `table`, templates in `templates`; what needs other files (existence, globs,
variables a prompt file uses) in `cross`, through `NamedFiles` (never outside the workspace
roots). Files a config names are *adopted* (`FileAnalysis.file_refs` with a kind): tests files,
CSV tables and prompt files are checked as that, never guessed from their shape. Nothing a
config names is executed or fetched.
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
from evalyaml.formats.base import Claim, FormatBase, FormatIde, NamedFiles, Refusal
from evalyaml.formats.promptfoo import detect, scripts
from evalyaml.formats.promptfoo.codes import CODES
from evalyaml.formats.promptfoo.kinds import CONFIG, PROMPT, SCRIPTS, TABLE, TESTS

if TYPE_CHECKING:
    from evalyaml.core.incremental import CaseCache, CaseMapper

__all__ = ["CONFIG", "FORMAT", "PROMPT", "SCRIPTS", "TABLE", "TESTS", "PromptfooFormat"]


class PromptfooFormat(FormatBase):
    """What discovery needs (kinds, suffixes, codes, detection); the rules load with the first
    promptfoo file analysed (`analyze`), the completion tables when the editor first asks."""

    name = "promptfoo"
    title = "promptfoo"
    kinds: tuple[Kind, ...] = (CONFIG, TESTS, TABLE, PROMPT, SCRIPTS)
    suffixes = (".yaml", ".yml", ".json")
    named_endings = (".csv", ".jsonl", ".j2")  # tests tables and files, Jinja prompts
    codes: tuple[Code, ...] = CODES

    @property
    def ide(self) -> FormatIde:
        from evalyaml.formats.promptfoo.ide import IDE

        return IDE

    def claim(self, text: str, path: str | None, root: str | None) -> Claim | Refusal | None:
        return detect.claim(text, path) or scripts.claim(text, path)

    def analyze(self, text: str, path: str | None, kind: Kind | None, options: Options, *,
                forced: bool = False, cache: CaseCache | None = None,
                mapper: CaseMapper | None = None, whole: bool = False) -> FileAnalysis:
        """A YAML config test by test where it splits (`bytest`), unless `whole` (what that
        must equal, for the tests)."""
        from evalyaml.formats.promptfoo.analyze import analyze

        return analyze(text, path, kind, options, cache=cache, whole=whole)

    def cross_check(self, path: Path, analysis: FileAnalysis, files: NamedFiles,
                    options: Options) -> Iterable[Finding]:
        from evalyaml.formats.promptfoo.cross import cross_check

        return cross_check(path, analysis, files, options)


FORMAT = PromptfooFormat()
