"""Editor data the schemas cannot give, for the generic features of `ide/`.

Keys and enum values come from each kind's schema (the generic walk, which follows the quick
eval's `$ref` to the case schema by its `$id`). Here: the keys Apastra's code reads outside its
schemas, the places a value names another file by id (completion offers the index's ids), and
the assertion types, which the case schema writes as one pattern rather than an enum.
"""

from __future__ import annotations

import re

from evalyaml.core.kinds import Kind
from evalyaml.formats.apastra.kinds import (
    BASELINE,
    CANARY,
    CASES,
    DATASET,
    EVALUATOR,
    PROMPT,
    QUICK_EVAL,
    REGRESSION_POLICY,
    SUITE,
)
from evalyaml.formats.apastra.schemas import schema
from evalyaml.formats.base import FormatIde, KeyDoc

_TYPE_DOCS = {
    "equals": "The output equals `value` exactly.",
    "contains": "The output contains `value`.",
    "icontains": "The output contains `value`, ignoring case.",
    "contains-any": "The output contains at least one of the strings in `value`.",
    "contains-all": "The output contains every string in `value`.",
    "regex": "The output matches the regular expression `value`.",
    "starts-with": "The output starts with `value`.",
    "is-json": "The output parses as JSON.",
    "contains-json": "The output contains a JSON value.",
    "is-valid-json-schema": "The output is JSON valid against the schema in `value`.",
    "similar": "The output is semantically similar to `value`.",
    "llm-rubric": "A judge model grades the output against the rubric in `value`.",
    "factuality": "A judge model checks the output's facts against `value`.",
    "answer-relevance": "A judge model rates how relevant the output is to the input.",
    "latency": "The call finishes within `value` milliseconds.",
    "cost": "The call costs at most `value` dollars.",
}


def assertion_types() -> tuple[KeyDoc, ...]:
    """The assertion types, read from dataset-case.schema.json's pattern; `not-` variants last."""
    node = schema("dataset-case")["properties"]["assert"]["items"]["properties"]["type"]
    found = re.fullmatch(r"\^(\(not-\)\?)?\(([\w|-]+)\)\$", str(node.get("pattern", "")))
    words = found.group(2).split("|") if found else list(_TYPE_DOCS)
    docs = [KeyDoc(w, _TYPE_DOCS.get(w, "")) for w in words]
    if found and found.group(1):
        docs += [KeyDoc(f"not-{w}", f"Negated: {_TYPE_DOCS.get(w, w)}") for w in words]
    return tuple(docs)


_REFERENCES: dict[tuple[str, tuple[str, ...]], Kind] = {
    (SUITE.value, ("datasets", "*")): DATASET,
    (SUITE.value, ("evaluators", "*")): EVALUATOR,
    (SUITE.value, ("prompt",)): PROMPT,
    (CANARY.value, ("suite_ref",)): SUITE,
    (REGRESSION_POLICY.value, ("baseline",)): BASELINE,
}

IDE = FormatIde(
    extra_keys={
        (SUITE.value, ()): (
            KeyDoc("prompt", "The id of the prompt this suite evaluates (read by the MCP "
                   "server's `run_evaluation`; not in suite.schema.json).", "prompt: "),),
        (REGRESSION_POLICY.value, ()): (
            KeyDoc("missing_report", "What the regression gate does when no regression report "
                   "exists: `warn` (default) or `block` (not in regression-policy.schema.json).",
                   "missing_report: warn"),),
    },
    references=_REFERENCES,
    values={
        (QUICK_EVAL.value, ("cases", "*", "assert", "*", "type")): assertion_types(),
        (CASES.value, ("assert", "*", "type")): assertion_types(),
    },
)
