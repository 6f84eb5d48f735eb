"""Recognising Every Eval Ever files from their path and text, without a parse.

- DIRECTIVE: a `"schema_version": "<x.y.z>"` member beside the format's own keys: in a `.json`
  file `"evaluation_results"` or `"model_info"` (an aggregate), in the first row of a `.jsonl`
  file `"evaluation_id"` with `"sample_id"` or `"interaction_type"` (a samples file). A bare
  `schema_version` is too common to claim on.
- PATH: the datastore convention, `data/<collection>/<developer>/<model>/<uuid4>.json` and
  `<uuid4>_samples.jsonl`, for a file that is a JSON object (starts with `{`).
"""

from __future__ import annotations

from pathlib import PurePath

from evalyaml.formats.base import Claim, Tier
from evalyaml.formats.eee import paths
from evalyaml.formats.eee.kinds import AGGREGATE, SAMPLES
from evalyaml.syntax.lazyre import lazy_re

_WINDOW = 65536
_VERSION = lazy_re(r'"schema_version"\s*:\s*"[0-9]+\.[0-9]+(?:\.[0-9]+)?[^"\\]{0,20}"')
_AGGREGATE_KEYS = lazy_re(r'"(?:evaluation_results|model_info)"\s*:')
_ROW_ID = lazy_re(r'"evaluation_id"\s*:')
_ROW_KEYS = lazy_re(r'"(?:sample_id|interaction_type)"\s*:')


def claim(text: str, path: str | None, root: str | None) -> Claim | None:
    suffix = PurePath(path).suffix.lower() if path else ""
    head = text[:_WINDOW].lstrip("\ufeff \t\r\n")
    if suffix == ".jsonl":
        first = head.split("\n", 1)[0]
        if "schema_version" in first and _VERSION.search(first) and _ROW_ID.search(first) \
                and _ROW_KEYS.search(first):
            return Claim(SAMPLES, Tier.DIRECTIVE, "its first row's schema_version and keys "
                         "name an Every Eval Ever samples file")
        parts = paths.datastore_parts(path)
        if parts is not None and (paths.SAMPLES_NAME.match(parts[-1]) or (
                parts[-1].endswith("_samples.jsonl") and head.startswith("{"))):
            return Claim(SAMPLES, Tier.PATH, "the datastore path convention names it")
        return None
    if suffix != ".json":
        return None
    if "schema_version" in head and _VERSION.search(head) and _AGGREGATE_KEYS.search(head):
        return Claim(AGGREGATE, Tier.DIRECTIVE, "its schema_version and keys name an Every "
                     "Eval Ever aggregate")
    parts = paths.datastore_parts(path)
    if parts is not None and paths.ANY_UUID.match(parts[-1]) and head.startswith("{"):
        return Claim(AGGREGATE, Tier.PATH, "the datastore path convention names it")
    return None
