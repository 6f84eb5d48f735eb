"""Editor help the schemas cannot give: the metadata knobs, offered with a snippet each, and the
dataset names an eval set can list.

`samples[].metadata` is an open mapping in the dataset schema (authors keep their own keys
there), so completion would otherwise offer nothing; these are the keys eval-harness's metrics
read, documented from the metric code.
"""

from __future__ import annotations

from evalyaml.formats.base import FormatIde, KeyDoc
from evalyaml.formats.padosoft.kinds import DATASET, EVAL_SET

METADATA_KEYS = (
    KeyDoc("tags", "Cohorts for the report: a string or a list of strings. Reports break every "
           "aggregate down by tag; untagged samples fall in an explicit untagged cohort. "
           "Non-strings and blank tags are dropped.", "tags: [${1:tag}]"),
    KeyDoc("k", "Retrieval cutoff for this sample (retrieval metrics). Used only when it is an "
           "integer above 0; otherwise the metric's own k, then "
           "eval-harness.metrics.retrieval.default_k, then 5.", "k: ${1:10}"),
    KeyDoc("refusal_expected", "Required by refusal-quality: whether refusing is the correct "
           "behaviour. Must be the boolean true or false (yes/no are strings in YAML 1.2).",
           "refusal_expected: ${1|true,false|}"),
    KeyDoc("refusal_policy", "Optional policy text refusal-quality gives its judge; used only "
           "when it is a string.", "refusal_policy: ${1}"),
    KeyDoc("citations", "Baseline citation-groundedness: the citation markers (a string or a "
           "list of strings) the answer must contain. Ignored when citation_evidence is set.",
           "citations: [\"${1:[doc:id]}\"]"),
    KeyDoc("citation_evidence", "Strict citation-groundedness: a non-empty list of spans, each "
           "a citation marker with the quote (or quotes) that must appear with it in the answer. "
           "Quotes match after lower-casing and collapsing whitespace.",
           "citation_evidence:\n  - citation: \"${1:[doc:id]}\"\n    quote: \"${2}\""),
    KeyDoc("trajectory", "Expectations for the trajectory metrics: tools, forbidden_tools, "
           "order, tool_arguments, max_steps, requires_approval.",
           "trajectory:\n  tools: [${1:tool}]"),
)

TRAJECTORY_KEYS = (
    KeyDoc("tools", "Tools the agent must call (tool-called): a name or a list of names.",
           "tools: [${1:tool}]"),
    KeyDoc("forbidden_tools", "Tools the agent must not call (tool-not-called).",
           "forbidden_tools: [${1:tool}]"),
    KeyDoc("order", "Tools that must be called in this order (tool-call-order).",
           "order: [${1:first}, ${2:second}]"),
    KeyDoc("tool_arguments", "Calls that must happen with these arguments (tool-called-with); "
           "arguments match as a subset, and 7 matches \"7\".",
           "tool_arguments:\n  - tool: ${1:tool}\n    arguments: {${2}}"),
    KeyDoc("max_steps", "The most steps the agent may take (steps-below): a whole number.",
           "max_steps: ${1:6}"),
    KeyDoc("requires_approval", "Actions that must have been approved first (approval-gated).",
           "requires_approval: [${1:action}]"),
)

IDE = FormatIde(extra_keys={
    (DATASET.value, ("samples", "*", "metadata")): METADATA_KEYS,
    (DATASET.value, ("samples", "*", "metadata", "trajectory")): TRAJECTORY_KEYS,
}, references={
    # An eval set's `datasets` names registered datasets by their `name`: offer the names the
    # workspace defines, inside the JSON strings.
    (EVAL_SET.value, ("datasets", "*")): DATASET,
})
