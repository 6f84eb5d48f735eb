"""Every Eval Ever's codes (EY700-EY799).

Each code's class decides its severity (`core.codes.severity_of`); its `Recovery` says how
its findings behave beside a YAML syntax error; its section in `docs/diagnostics.md` says what
triggers it and how to fix it.
"""

from __future__ import annotations

from evalyaml.core.codes import KEY, LOCAL, SAFE_FIX, UNSAFE_FIX, WHOLE, Code, CodeClass

B, C, A, H = CodeClass.BROKEN, CodeClass.CONTRACT, CodeClass.ADVICE, CodeClass.HINT

CODES: tuple[Code, ...] = (
    Code("EY700", "eee-unknown-version", C,
         "`schema_version` names a version evalyaml has no schema for.", LOCAL),
    Code("EY701", "eee-missing-key", B, "A key the declared version requires is missing.", WHOLE),
    Code("EY702", "eee-wrong-type", B, "A value has the wrong JSON type.", LOCAL),
    Code("EY703", "eee-invalid-enum", B, "A value is not one of the allowed values.", LOCAL,
         fixes=UNSAFE_FIX),
    Code("EY704", "eee-unknown-key", B, "A key is not allowed in a closed object.", LOCAL,
         fixes=UNSAFE_FIX),
    Code("EY705", "eee-misspelt-key", B, "A key is a misspelling of a required key.", KEY,
         fixes=UNSAFE_FIX),
    Code("EY706", "eee-likely-typo", C, "An extra key in an open object is close to a known one.",
         KEY, fixes=UNSAFE_FIX),
    Code("EY707", "eee-constraint", B,
         "A value breaks a constraint (range, pattern, length, `not`).", WHOLE),
    Code("EY708", "eee-conditional", B,
         "A requirement of `interaction_type` (or `score_type`) is not met.", WHOLE),
    Code("EY709", "eee-token-usage", B, "`token_usage` has some of its three counts, not all.",
         WHOLE),
    Code("EY710", "eee-row-not-object", B, "A samples line is not a JSON object.", WHOLE),
    Code("EY711", "eee-no-rows", B, "A samples file has no row.", WHOLE),
    Code("EY712", "eee-row-too-long", B,
         "A row of a streamed samples file is too long to check.", WHOLE),
    Code("EY720", "eee-samples-file-missing", B,
         "`detailed_evaluation_results.file_path` names no file.", WHOLE),
    Code("EY721", "eee-checksum", B, "`checksum` is not the digest of the samples file.", WHOLE,
         fixes=SAFE_FIX),
    Code("EY722", "eee-total-rows", B,
         "`total_rows` is not the samples file's number of non-blank lines.", WHOLE,
         fixes=SAFE_FIX),
    Code("EY723", "eee-evaluation-id", B, "A row's `evaluation_id` is not its aggregate's.",
         WHOLE, fixes=UNSAFE_FIX),
    Code("EY724", "eee-model-id", B, "A row's `model_id` is not its aggregate's `model_info.id`.",
         WHOLE, fixes=UNSAFE_FIX),
    Code("EY725", "eee-sample-hash", C, "`sample_hash` matches no known recipe.", WHOLE,
         fixes=SAFE_FIX),
    Code("EY726", "eee-path-convention", C, "A datastore path breaks the naming convention.",
         LOCAL),
    Code("EY727", "eee-score-range", B,
         "A metric's `min_score` is above its `max_score`, or a score is outside them.", WHOLE),
    Code("EY728", "eee-companion", B,
         "An aggregate and its samples file do not name each other as upstream requires.",
         WHOLE, fixes=UNSAFE_FIX),
    Code("EY729", "eee-byte-order-mark", B,
         "The file starts with a byte-order mark, which upstream's JSON reader refuses.", WHOLE),
    Code("EY730", "eee-model-path", C,
         "`model_info.id` files under other datastore folders than the file's.", WHOLE),
)
