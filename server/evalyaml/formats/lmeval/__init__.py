"""lm-evaluation-harness task YAML (EleutherAI/lm-evaluation-harness at 4e7e0d47, PyPI 0.4.13).

The contract is the harness's own code: the task index (`tasks/_index.py`: which files become
tasks, groups and tags, and which are dropped at DEBUG), the loader (`tasks/_yaml_loader.py`:
includes, `!function`), the config dataclasses (`config/task.py`, `config/group.py`), the
registries (`api/metrics.py`, `filters/`) and the Jinja environment (`utils.py`). Recognition
is in `detect`, one file's rules in `rules` and `jinja`, the include chain in `loader`, what
reads other files in `cross`; names (tasks, groups, tags) are `Definition`s and a group's
members `Reference`s, so the engine resolves, navigates and renames them. Nothing a task file
names is imported or run: `!function` targets are found by reading the module's text.
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
from evalyaml.formats.lmeval import detect
from evalyaml.formats.lmeval.codes import CODES
from evalyaml.formats.lmeval.kinds import GROUP, NAME, TASK, TEMPLATE

if TYPE_CHECKING:
    from evalyaml.core.incremental import CaseCache, CaseMapper

__all__ = ["FORMAT", "GROUP", "NAME", "TASK", "TEMPLATE", "LmevalFormat"]


class LmevalFormat(FormatBase):
    """What discovery needs (kinds, suffixes, codes, detection); the rules load with the first
    lm-evaluation-harness file analysed (`analyze`), the completion tables when the editor
    first asks."""

    name = "lmeval"
    title = "lm-evaluation-harness"
    kinds: tuple[Kind, ...] = (TASK, GROUP, TEMPLATE)
    suffixes = (".yaml", ".yml")
    named_endings = ("_yaml",)  # the include templates' convention: `_default_template_yaml`
    codes: tuple[Code, ...] = CODES

    @property
    def ide(self) -> FormatIde:
        from evalyaml.formats.lmeval.ide import IDE

        return IDE

    def claim(self, text: str, path: str | None, root: str | None) -> Claim | Refusal | None:
        return detect.claim(text, path)

    def analyze(self, text: str, path: str | None, kind: Kind | None, options: Options, *,
                forced: bool = False, cache: CaseCache | None = None,
                mapper: CaseMapper | None = None) -> FileAnalysis:
        from evalyaml.formats.lmeval.analyze import analyze

        return analyze(text, path, kind, options)

    def cross_check(self, path: Path, analysis: FileAnalysis, files: NamedFiles,
                    options: Options) -> Iterable[Finding]:
        from evalyaml.formats.lmeval.cross import cross_check

        return cross_check(path, analysis, files, options)


FORMAT = LmevalFormat()
