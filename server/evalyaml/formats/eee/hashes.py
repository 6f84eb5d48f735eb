"""`sample_hash`: the recipes real files were written with, so a hash is flagged only when it
matches none of them.

Upstream has one recipe in its conversion skill (`instance_sidecar._sample_hash`, equal to the
openeval adapter's): sha256 of `json.dumps({"raw": raw, "reference": reference}, sort_keys=True,
separators=(",", ":"))` with the reference a list of strings (verified on the corpus row). The
converters differ: lm-eval's uses the default separators, HELM's hashes the prompt and the first
reference concatenated, inspect's the prompt and every reference joined. 0.2.0 rows have a
string `reference`, for which no upstream code defines a hash, so the canonical recipe is tried
with the reference as written and wrapped in a list. `hash_algorithm` may be md5 in an aggregate,
so md5 digests are accepted too. The fix writes the canonical recipe.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator

CANONICAL = ("sha256 of the compact, key-sorted JSON of {\"raw\": input.raw, \"reference\": "
             "input.reference}")


def _payloads(raw: str, reference: str | list[str]) -> Iterator[str]:
    forms: list[str | list[str]] = [reference]
    if isinstance(reference, str):
        forms.append([reference])
    for form in forms:
        yield json.dumps({"raw": raw, "reference": form}, sort_keys=True, separators=(",", ":"))
    for form in forms:
        yield json.dumps({"raw": raw, "reference": form}, sort_keys=True)
    refs = [reference] if isinstance(reference, str) else reference
    yield raw + (refs[0] if refs else "")  # HELM
    yield raw + "".join(refs)  # inspect


def canonical(raw: str, reference: str | list[str]) -> str:
    """What the fix writes: the canonical recipe over the reference as written."""
    payload = json.dumps({"raw": raw, "reference": reference}, sort_keys=True,
                         separators=(",", ":"))
    return hashlib.sha256(payload.encode("utf-8", "surrogatepass")).hexdigest()


def matches_a_recipe(value: str, raw: str, reference: str | list[str]) -> bool:
    wanted = value.strip().lower()
    algorithm = hashlib.md5 if len(wanted) == 32 else hashlib.sha256
    for payload in _payloads(raw, reference):
        if algorithm(payload.encode("utf-8", "surrogatepass")).hexdigest() == wanted:
            return True
    return False
