"""Padosoft eval-harness's codes (EY500-EY519).

Each code's class decides its severity (`core.codes.severity_of`); its `Recovery` says how
its findings behave beside a YAML syntax error; its section in `docs/diagnostics.md` says what
triggers it and how to fix it.
"""

from __future__ import annotations

from evalyaml.core.codes import LOCAL, SAFE_FIX, UNSAFE_FIX, WHOLE, Code, CodeClass, Scope, missing

B, C, A, H = CodeClass.BROKEN, CodeClass.CONTRACT, CodeClass.ADVICE, CodeClass.HINT
SAFE_AND_UNSAFE = SAFE_FIX | UNSAFE_FIX

CODES: tuple[Code, ...] = (
    Code("EY500", "padosoft-schema-version", B,
         "eval-harness does not support the file's `schema_version`.", LOCAL, fixes=UNSAFE_FIX),
    Code("EY501", "padosoft-name", B, "The dataset or eval set `name` is missing or invalid.",
         missing(r"has no '"), fixes=UNSAFE_FIX),
    Code("EY502", "padosoft-missing-list", B,
         "`samples`, `cases` or `datasets` is missing or not a list.", missing(r"has no '"),
         fixes=UNSAFE_FIX),
    Code("EY503", "padosoft-empty-list", B, "`samples`, `cases` or `datasets` is empty.", WHOLE),
    Code("EY504", "padosoft-item-not-mapping", B, "A sample or case is not a mapping.", WHOLE),
    Code("EY505", "padosoft-missing-id", B, "A sample or case has no string `id`.",
         missing(r"has no '", scope=Scope.VALUE), fixes=SAFE_AND_UNSAFE),
    Code("EY506", "padosoft-duplicate-id", B,
         "Two samples, two cases or two eval-set entries share an id or name.", LOCAL),
    Code("EY507", "padosoft-input-not-mapping", B, "`input` is missing or not a mapping.",
         missing(r"has no '", scope=Scope.VALUE), fixes=UNSAFE_FIX),
    Code("EY508", "padosoft-missing-expected-output", B,
         "A sample has no `expected_output` key.", missing(r"has no '"), fixes=UNSAFE_FIX),
    Code("EY509", "padosoft-metadata-not-mapping", B, "`metadata` is not a mapping.",
         missing(r"has no '", scope=Scope.VALUE)),
    Code("EY510", "padosoft-calibration-text", B,
         "A calibration case's `expected` or `actual` is not a string.",
         missing(r"has no '", scope=Scope.VALUE), fixes=SAFE_AND_UNSAFE),
    Code("EY511", "padosoft-human-verdict", B, "`human_verdict` is not `pass` or `fail`.",
         missing(r"has no '", scope=Scope.VALUE), fixes=UNSAFE_FIX),
    Code("EY512", "padosoft-eval-set-dataset", B,
         "An eval-set entry is not a dataset name eval-harness accepts.",
         missing(r"has no '", scope=Scope.VALUE), fixes=UNSAFE_FIX),
    Code("EY513", "padosoft-ignored-key", C,
         "A key eval-harness ignores is close to one it reads.", LOCAL, fixes=UNSAFE_FIX),
    Code("EY514", "padosoft-retrieval-k", C, "`metadata.k` is not a positive integer.", LOCAL,
         fixes=SAFE_FIX),
    Code("EY515", "padosoft-refusal-knob", C,
         "`refusal_expected` is not a boolean, or `refusal_policy` not a string.", LOCAL,
         fixes=UNSAFE_FIX),
    Code("EY516", "padosoft-citations", C,
         "`citations` or `citation_evidence` cannot be used by citation-groundedness.", WHOLE,
         fixes=SAFE_AND_UNSAFE),
    Code("EY517", "padosoft-tags", C, "`tags` holds values the reports drop.", LOCAL,
         fixes=SAFE_FIX),
    Code("EY518", "padosoft-expected-output-shape", C,
         "An id list or gain map in `expected_output` has an entry retrieval metrics reject.",
         LOCAL),
    Code("EY519", "padosoft-trajectory", C,
         "`metadata.trajectory` holds expectations the trajectory metrics ignore.", WHOLE),
)
