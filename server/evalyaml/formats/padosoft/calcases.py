"""A judge-calibration file case by case (`core.items`), as a dataset goes sample by sample
(`samples.py`): a keystroke in one case of a 10,000-case file re-checks that case, then the
duplicate ids (EY506) over every case's id, reported as the whole-file rules report them.

The root is checked with its `cases:` list's lines taken out (`check_calibration(...,
cases_elsewhere=True)`); each case with `check_case`, which quotes the case's index in its
messages (`uses_index`). A file that does not split, or a case that does not parse as written,
is analysed whole by the caller.
"""

from __future__ import annotations

from evalyaml.core.findings import Finding
from evalyaml.core.items import Item, ItemState, analyze_items
from evalyaml.core.model import CaseSummary, FileAnalysis
from evalyaml.core.options import Options
from evalyaml.formats.padosoft.calibration import check_calibration, check_case, duplicate_case
from evalyaml.formats.padosoft.common import Context
from evalyaml.formats.padosoft.kinds import CALIBRATION
from evalyaml.formats.padosoft.samples import Tidy, checked_item, checked_root, join_items
from evalyaml.syntax.tree import Mapping

STATE = "padosoft-calibration-cases"


class CaseRules:
    key = "cases"
    uses_index = True

    def __init__(self, tidy: Tidy) -> None:
        """`tidy`: the format's rewording of the parser's findings (`samples.SampleRules`)."""
        self._tidy = tidy

    def root(self, text: str, options: Options) -> tuple[tuple[Finding, ...], None] | None:
        def check(ctx: Context, root: Mapping) -> None:
            check_calibration(ctx, root, cases_elsewhere=True)  # its cases are the items'

        return checked_root(text, options, self._tidy, check)

    def fingerprint(self, root: None) -> str:
        return ""  # a case's rules read nothing of the root

    def item(self, text: str, index: int, root: None, options: Options
             ) -> Item[CaseSummary | None] | None:
        return checked_item(text, options, self._tidy,
                            lambda ctx, item: check_case(ctx, item, index, {}))

    def shift(self, facts: CaseSummary | None, lines: int) -> CaseSummary | None:
        return facts.shifted(lines) if facts is not None else None

    def shift_root(self, root: None, first_line: int, lines: int) -> None:
        return None


def analyze_calibration_by_case(text: str, path: str | None, options: Options,
                                state: ItemState | None, rules: CaseRules
                                ) -> FileAnalysis | None:
    done = analyze_items(text, rules, options, state)
    if done is None or not done.items:
        return None
    result = FileAnalysis(path, CALIBRATION)
    result.findings, result.cases = join_items(done, options, duplicate_case)
    return result
