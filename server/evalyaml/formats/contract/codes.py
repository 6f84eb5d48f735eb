"""The contract's codes: its datasets, rubrics and judges (EY2xx, EY300, EY306-EY309, EY4xx).

Each code's class decides its severity (`core.codes.severity_of`); its `Recovery` says how
its findings behave beside a YAML syntax error; its section in `docs/diagnostics.md` says what
triggers it and how to fix it.
"""

from __future__ import annotations

import re

from evalyaml.core.codes import (
    EDITOR_FIX,
    LOCAL,
    SAFE_FIX,
    UNSAFE_FIX,
    WHOLE,
    Code,
    CodeClass,
    Recovery,
    Scope,
    missing,
    reads,
)

B, C, A, H = CodeClass.BROKEN, CodeClass.CONTRACT, CodeClass.ADVICE, CodeClass.HINT

CODES: tuple[Code, ...] = (
    Code("EY200", "wrong-root", C, "The document root is not a mapping.", WHOLE),
    Code("EY201", "missing-key", C, "A required key is missing.",
         missing(r"missing required key '|needs one of '", "kind", "score_type"), fixes=EDITOR_FIX),
    Code("EY202", "wrong-type", C, "A value has the wrong type.",
         Recovery(Scope.LOCAL, hide_empty=True)),
    Code("EY203", "invalid-enum", C, "A value is not one of the allowed values.", LOCAL,
         fixes=UNSAFE_FIX),
    Code("EY204", "unknown-key", C, "A key is not allowed in a closed object.", LOCAL,
         fixes=UNSAFE_FIX),
    Code("EY205", "likely-typo", C, "An unknown key is close to a known one.", LOCAL,
         fixes=UNSAFE_FIX),
    Code("EY206", "unknown-check-kind", C, "A check `kind` is not one of the known kinds.", LOCAL,
         fixes=UNSAFE_FIX),
    Code("EY207", "constraint", C, "A value breaks a constraint (length, range, pattern).",
         Recovery(Scope.LOCAL,
                  missing=re.compile(r" only applies together with '"),
                  hidden_when=re.compile(r'needs at least|only applies together with'))),
    Code("EY208", "numeric-version", C, "A version is a YAML number, not a string.", LOCAL,
         fixes=SAFE_FIX),
    Code("EY209", "invalid-version", C, "A version is not a semantic version.", LOCAL,
         fixes=UNSAFE_FIX),
    Code("EY210", "duplicate-case-id", C, "Two cases in one dataset share an id.", LOCAL),
    Code("EY211", "duplicate-check-id", C, "Two checks in one rubric share an id.", LOCAL),
    Code("EY212", "invalid-regex", C, "A `regex` check's pattern does not compile.",
         reads("kind", "pattern", "flags")),
    Code("EY213", "invalid-json-schema", C,
         "A `json_schema` check's schema is not a valid schema.", reads("kind", "schema")),
    Code("EY214", "zero-weights", B, "`weighted_avg` scoring with all weights zero.", WHOLE),
    Code("EY300", "malformed-reference", B, "A reference does not have the form kind/id@pin.",
         LOCAL),
    Code("EY306", "nested-composite", B, "A composite check points at a composite rubric.", WHOLE),
    Code("EY307", "composite-cycle", B, "Composite rubrics reference each other in a cycle.",
         WHOLE),
    Code("EY308", "unvalidated-judge", C, "A referenced judge has no or stale validation.", WHOLE),
    Code("EY309", "unknown-bundle", C, "A case names a bundle that is not configured.", LOCAL),
    Code("EY400", "unknown-template-variable", C, "A judge template uses an unknown variable.",
         WHOLE, fixes=UNSAFE_FIX),
    Code("EY401", "levels-without-names", C, "`score_type: levels` without `level_names`.",
         reads("score_type", "level_names")),
    Code("EY402", "rate-out-of-range", C, "`tpr` or `tnr` is outside 0 to 1.", LOCAL),
    Code("EY403", "stale-validation", C, "The judge was validated too long ago.", LOCAL),
    Code("EY404", "future-validation", C, "`validated_at` is in the future.", LOCAL),
    Code("EY405", "invalid-date", C, "`validated_at` is not a date.", LOCAL),
    Code("EY406", "unclosed-template-tag", C, "A `{{` in a template is never closed.", LOCAL),
)
