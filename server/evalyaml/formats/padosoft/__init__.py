"""Padosoft eval-harness (seed 001): golden datasets, judge-calibration files and eval sets.

eval-harness is a PHP package; its loaders are the contract (`YamlDatasetLoader`,
`CalibrationCaseLoader`, `EvalSetDefinition::fromJson`), read at padosoft/eval-harness HEAD
(bacd9a4) and, for the calibration loader, RowHash and the retrieval and trajectory metrics,
the newer commits of the search index. They stop at the first problem; this package reports
every one, located, with the loader's message. Rules live in `dataset`, `calibration`,
`eval_set` and `knobs`; recognition in `detect`; YAML is read the way symfony/yaml reads it
(`values`); `rowhash` reproduces the row identity eval-harness joins runs on.

Not checked, because the file cannot say: which metrics a dataset runs (they are registered in
PHP), so an `expected_output` shape is flagged only when no metric could use it; that a
registrar's dataset name equals the file's `name`; a JSON-encoded id list in a string; and
symfony/yaml parse errors our YAML reader does not share (it refuses `true:` and `~:` keys in
flow mappings; ours refuses `10:00:00` in a flow mapping, which symfony reads).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from evalyaml.core.codes import Code
from evalyaml.core.kinds import Kind
from evalyaml.core.model import FileAnalysis
from evalyaml.core.options import Options
from evalyaml.formats.base import Claim, FormatBase, FormatIde, NearMiss, Refusal
from evalyaml.formats.padosoft import detect
from evalyaml.formats.padosoft.codes import CODES
from evalyaml.formats.padosoft.kinds import CALIBRATION, DATASET, EVAL_SET

if TYPE_CHECKING:
    from evalyaml.core.incremental import CaseCache, CaseMapper

__all__ = ["CALIBRATION", "DATASET", "EVAL_SET", "FORMAT", "PadosoftFormat"]


class PadosoftFormat(FormatBase):
    """What discovery needs (kinds, suffixes, codes, detection); the rules load with the first
    Padosoft file analysed, the completion tables when the editor first asks."""

    name = "padosoft"
    title = "Padosoft eval-harness"
    kinds: tuple[Kind, ...] = (DATASET, CALIBRATION, EVAL_SET)
    suffixes = (".yaml", ".yml", ".json")
    codes: tuple[Code, ...] = CODES

    @property
    def ide(self) -> FormatIde:
        from evalyaml.formats.padosoft.ide import IDE

        return IDE

    def claim(self, text: str, path: str | None, root: str | None) -> Claim | Refusal | None:
        return detect.claim(text, path, root)

    def near_miss(self, text: str, path: str | None, root: str | None) -> NearMiss | None:
        return detect.near_miss(text, path, root)

    def analyze(self, text: str, path: str | None, kind: Kind | None, options: Options, *,
                forced: bool = False, cache: CaseCache | None = None,
                mapper: CaseMapper | None = None) -> FileAnalysis:
        from evalyaml.formats.padosoft.analyze import analyze

        return analyze(text, path, kind, options, cache)


FORMAT = PadosoftFormat()
