"""lm-evaluation-harness's codes (EYLM001...).

Each code's class decides its severity (`core.codes.severity_of`): BROKEN when the harness
drops the file from its index or raises (at LOAD, REQUESTS or SCORING), CONTRACT when it warns
or silently does something else than written, ADVICE for what it cannot see wrong. The
`Recovery` says how a finding behaves beside a YAML syntax error.
"""

from __future__ import annotations

from evalyaml.core.codes import (
    LOCAL,
    SAFE_FIX,
    UNSAFE_FIX,
    WHOLE,
    Code,
    CodeClass,
    Scope,
    missing,
    reads,
)

B, C, A = CodeClass.BROKEN, CodeClass.CONTRACT, CodeClass.ADVICE

CODES: tuple[Code, ...] = (
    Code("EYLM001", "lmeval-index-drop", B,
         "The task index drops this file (logged at DEBUG only): `lm-eval` says "
         "\"Tasks not found\".", WHOLE),
    Code("EYLM002", "lmeval-yml-never-indexed", A,
         "A `.yml` task file: the index reads only `*.yaml`.", LOCAL),
    Code("EYLM003", "lmeval-include", B,
         "An `include:` is not a file name, is missing, is not a mapping, or is reached twice "
         "(a cycle or a diamond).",
         WHOLE),
    Code("EYLM004", "lmeval-function", B,
         "A `!function` names no module path, or its module beside the YAML has no such "
         "top-level function.", WHOLE),
    Code("EYLM005", "lmeval-function-module", A,
         "A `!function` module is not beside the YAML: the harness imports it by name.", WHOLE),
    Code("EYLM006", "lmeval-unknown-key", B,
         "A key TaskConfig, GroupConfig or FewshotConfig does not have: `TypeError ... "
         "unexpected keyword argument` at LOAD.", LOCAL, fixes=UNSAFE_FIX),
    Code("EYLM007", "lmeval-output-type", B, "`output_type` is not one of the four types.",
         LOCAL, fixes=UNSAFE_FIX),
    Code("EYLM008", "lmeval-choices", B,
         "A `multiple_choice` task has no `doc_to_choice`, or an integer target indexes "
         "past its literal choices.", WHOLE),
    Code("EYLM009", "lmeval-generation", C,
         "`generation_kwargs` on a task that does not generate: ignored with a warning.", WHOLE),
    Code("EYLM010", "lmeval-metric", B,
         "A `metric_list` entry has no `metric`, names no registered metric, or a metric "
         "that scores no generated answer on a generate_until task.", WHOLE),
    Code("EYLM011", "lmeval-metric-argument", B,
         "A keyword `exact_match` does not take: both calls fail at SCORING.",
         reads("metric")),
    Code("EYLM012", "lmeval-aggregation", B,
         "An aggregation the registry (or a group's `aggregate_metric_list`) does not have, "
         "or none for a metric without a registered default.", WHOLE, fixes=UNSAFE_FIX),
    Code("EYLM013", "lmeval-group-members", C,
         "A group whose `task:` is not a list (it has no members), or whose `task_alias` "
         "renames every member.", LOCAL, fixes=UNSAFE_FIX),
    Code("EYLM014", "lmeval-filter", B,
         "A `filter_list` (or a pipeline or step) is malformed, names no registered filter, passes "
         "an argument the filter does not take, or an invalid regex.", WHOLE),
    Code("EYLM015", "lmeval-template-syntax", B,
         "A Jinja template has a syntax error: `TemplateSyntaxError` at LOAD.", LOCAL),
    Code("EYLM016", "lmeval-single-brace", C,
         "`{field}` in a template is not Jinja: it is rendered literally.", LOCAL),
    Code("EYLM017", "lmeval-template-filter", B,
         "A Jinja filter or test the harness's environment does not have.", LOCAL),
    Code("EYLM018", "lmeval-value", B,
         "A value of the wrong shape for its field (fewshot sampler, metadata, lists), or no "
         "doc_to_text.", missing(r"has no doc_to_text", "doc_to_text", scope=Scope.LOCAL),
         fixes=UNSAFE_FIX),
    Code("EYLM019", "lmeval-generation-defaults", A,
         "A generate_until task leaves `generation_kwargs` or `until` to the harness's "
         "defaults.", WHOLE),
    Code("EYLM020", "lmeval-template-field", C,
         "A template reads a name the other templates of its include chain spell differently.",
         WHOLE),
    Code("EYLM021", "lmeval-choice-not-text", B,
         "A literal `doc_to_choice` option PyYAML does not read as text (a YAML 1.1 boolean "
         "such as `yes`, a number, null): TypeError at LOAD.", LOCAL, fixes=SAFE_FIX),
    Code("EYLM022", "lmeval-tag-clash", B,
         "A tag that is also a task's or group's name: the index keeps whichever it reads "
         "first, and the other is skipped or adds nothing.", WHOLE),
    Code("EYLM023", "lmeval-group-tag", C,
         "A `tag:` in a group file: the index never registers it, so the tag does not reach "
         "the group.", LOCAL),
)
