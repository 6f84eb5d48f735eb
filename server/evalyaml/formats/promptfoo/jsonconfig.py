"""A promptfoo config written in JSON (`promptfooconfig.json`) test by test: the YAML config's
scheme (`bytest`), with the `tests` array cut out of the object by `syntax.jsonsplit` instead
of by lines. The root is read with the tests' lines taken out (`"tests": [` then `]`) and checked
as the YAML skeleton is; each test is read from its own text (the whole parse's tree the first
time); then EYPF008 over every test. A file that does not cut (a parse with a finding, tests
sharing a line, no `tests` array) is analysed whole by the caller.
"""

from __future__ import annotations

from evalyaml.core.findings import Finding
from evalyaml.core.items import ItemState
from evalyaml.core.model import CaseSummary
from evalyaml.core.options import Options
from evalyaml.formats.promptfoo.bytest import TestRules, analyze_config_by_test
from evalyaml.formats.promptfoo.facts import ConfigFacts
from evalyaml.syntax.jsonsplit import JsonItems, JsonReading

STATE = "promptfoo-config-json"


class JsonTestRules(JsonReading, TestRules):
    """`TestRules` reading JSON: the skeleton and each test must read with no finding (a
    finding of the parser is the whole file's to report, in its order)."""

    def __init__(self, items: JsonItems) -> None:
        self.items = items


def analyze_json_config_by_test(text: str, options: Options, state: ItemState | None
                                ) -> tuple[list[Finding], ConfigFacts,
                                           list[CaseSummary]] | None:
    """As `bytest.analyze_config_by_test` for a YAML config; None: check the file whole."""
    items = JsonItems(TestRules.key)
    return analyze_config_by_test(text, options, state, JsonTestRules(items), items)
