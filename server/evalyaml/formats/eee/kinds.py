"""The two kinds of Every Eval Ever file: an aggregate (`<uuid4>.json`) and its samples
(`<uuid4>_samples.jsonl`, one instance-level record per line).

Kept apart from `__init__` so every module of the package imports them without a cycle. The
schema a kind names is the newest shipped version's; each file is checked against the version it
declares (`versions.py`), and the editor walks that version's schema too. Both are named by
their paths: an aggregate names its samples file by `file_path`, and each samples row leads to
the aggregate beside its file (the one upstream's validator holds it to), not to an id.
"""

from __future__ import annotations

from evalyaml.core.kinds import FormatKind

AGGREGATE = FormatKind("eee", "Every Eval Ever aggregate", "eee/aggregate-0.3.0.schema.json",
                       noun="path", named_by_path=True)
SAMPLES = FormatKind("eee", "Every Eval Ever samples file", "eee/instance-0.3.0.schema.json",
                     noun="path", named_by_path=True)
