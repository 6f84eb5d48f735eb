"""Apastra PromptOps's codes (EY800-EY899).

Each code's class decides its severity (`core.codes.severity_of`); its `Recovery` says how
its findings behave beside a YAML syntax error; its section in `docs/diagnostics.md` says what
triggers it and how to fix it.
"""

from __future__ import annotations

import re

from evalyaml.core.codes import (
    EDITOR_FIX,
    KEY,
    LOCAL,
    SAFE_FIX,
    UNSAFE_FIX,
    WHOLE,
    Code,
    CodeClass,
    Recovery,
    Scope,
)

B, C, A, H = CodeClass.BROKEN, CodeClass.CONTRACT, CodeClass.ADVICE, CodeClass.HINT

CODES: tuple[Code, ...] = (
    Code("EY800", "apastra-schema", B,
         "A file breaks the Apastra schema its place names (ajv rejects it).",
         Recovery(Scope.WHOLE,
                  # one value's type, enum or pattern, or a key its object does not allow;
                  # a missing key, too few items or a failed `oneOf` stays withheld
                  local_when=re.compile(r" must be one of | must be [^:]+, not "
                                        r"| is not one of the types | does not match "
                                        r"| does not allow '"),
                  missing=re.compile(r" is a required property$")), fixes=UNSAFE_FIX),
    Code("EY801", "apastra-ignored-key", C,
         "A key outside an open schema object is close to a key the schema defines.", KEY,
         fixes=UNSAFE_FIX),
    Code("EY802", "apastra-stale-digest", C,
         "A digest does not match what Apastra computes for the content it names.", WHOLE,
         fixes=SAFE_FIX),
    Code("EY803", "apastra-placeholder-digest", C,
         "A digest is the sha256 of the empty string: a placeholder.", LOCAL),
    Code("EY804", "apastra-malformed-digest", C,
         "A digest is not `sha256:` and 64 lowercase hex digits.", LOCAL),
    Code("EY805", "apastra-digest-implementation", A,
         "A digest matches only one of Apastra's two digest implementations (non-ASCII text).",
         WHOLE, fixes=EDITOR_FIX),
    Code("EY806", "apastra-digest-unreadable", C,
         "Apastra's digest tools cannot hash the file (an unquoted YAML date).", WHOLE),
    Code("EY807", "apastra-threshold-metric", C,
         "A suite threshold names a metric no evaluator of the suite produces.", WHOLE),
    Code("EY808", "apastra-input-not-variable", C,
         "A dataset's case gives an input the suite's prompt has no variable for.", WHOLE),
    Code("EY809", "apastra-unsupplied-placeholder", C,
         "A `{{name}}` placeholder of a quick eval that a case gives no input for.", WHOLE),
    Code("EY810", "apastra-spaced-placeholder", C,
         "`{{ name }}` with spaces, which Apastra never substitutes.", LOCAL, fixes=SAFE_FIX),
    Code("EY811", "apastra-duplicate-case-id", C,
         "Two lines of a dataset (or cases of a quick eval) share a `case_id`.", LOCAL),
    Code("EY812", "apastra-malformed-pin", B,
         "A consumption-manifest pin Apastra's resolver cannot resolve as written.", LOCAL),
    Code("EY813", "apastra-unsafe-prompt-id", B,
         "A prompt id Apastra's resolver refuses (backslash, absolute, `.`/`..` segments).",
         LOCAL),
    Code("EY814", "apastra-byte-order-mark", C,
         "A JSON or JSONL file starts with a byte-order mark Apastra's Python readers reject.",
         LOCAL),
)
