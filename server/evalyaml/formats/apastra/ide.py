"""Editor data the schemas cannot give: the keys Apastra's code reads outside its schemas.

Completion and hover of schema keys and enum values come from each kind's schema (the generic
walk in `ide/`); ids where a reference is written come from the index.
"""

from __future__ import annotations

from evalyaml.formats.apastra.kinds import REGRESSION_POLICY, SUITE
from evalyaml.formats.base import FormatIde, KeyDoc

IDE = FormatIde(extra_keys={
    (SUITE.value, ()): (
        KeyDoc("prompt", "The id of the prompt this suite evaluates (read by the MCP server's "
               "`run_evaluation`; not in suite.schema.json).", "prompt: "),),
    (REGRESSION_POLICY.value, ()): (
        KeyDoc("missing_report", "What the regression gate does when no regression report "
               "exists: `warn` (default) or `block` (not in regression-policy.schema.json).",
               "missing_report: warn"),),
})
