"""Apastra's 55 schemas as shipped: byte for byte Apastra's own (17667b57), each validated with
the draft it declares, all in one registry where every `$id` form the schemas use resolves, and
nothing is ever fetched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft7Validator, Draft202012Validator
from referencing.exceptions import Unresolvable

from evalyaml.formats.apastra import schemas
from evalyaml.formats.apastra.kinds import SCHEMA_NAMES

REPO = Path(__file__).resolve().parents[3]
UPSTREAM = REPO.parent / "shared" / "corpus" / "apastra" / "promptops" / "schemas"

# FORMATS.md section 2: the 18 schemas that declare draft-07.
DRAFT_07 = {
    "automated-scan-record", "canary-suite", "comparison-scorecard", "drift-report",
    "flake-quarantine-record", "mcp-tool-definition", "namespace-claim-record",
    "ownership-dispute-record", "policy-exception-record", "prompt-optimization-report",
    "promptops-config", "provenance-attestation", "reject-record", "release-descriptor",
    "takedown-appeal-record", "trusted-publisher-provenance", "vulnerability-flag-record",
    "community-report-record",
}


def test_55_schemas_37_of_2020_12_and_18_of_draft_07() -> None:
    assert len(SCHEMA_NAMES) == 55
    assert {n for n in SCHEMA_NAMES if schemas.is_draft7(n)} == DRAFT_07
    for name in SCHEMA_NAMES:
        expected = Draft7Validator if name in DRAFT_07 else Draft202012Validator
        assert type(schemas.validator(name)) is expected, name


@pytest.mark.skipif(not UPSTREAM.is_dir(), reason="the shared corpus is not next to this tree")
def test_the_shipped_schemas_are_apastras_unchanged() -> None:
    shipped = REPO / "schemas" / "apastra"
    for name in SCHEMA_NAMES:
        file = f"{name}.schema.json"
        assert (shipped / file).read_bytes() == (UPSTREAM / file).read_bytes(), file


def test_every_id_form_resolves_to_its_schema() -> None:
    registry = schemas.registry()
    declared = {name: schemas.schema(name).get("$id") for name in SCHEMA_NAMES}
    styles = {str(v).split("/schemas/")[0] if isinstance(v, str) and "/" in v else
              ("bare" if v else "none") for v in declared.values()}
    # The inconsistent styles FORMATS.md lists are all present and all registered.
    assert {"https://promptops.apastra.com", "https://apastra.com", "bare", "none"} <= styles
    for name in SCHEMA_NAMES:
        for uri in schemas.id_forms(name):
            assert registry.contents(uri) == schemas.schema(name), (name, uri)


def test_the_quick_eval_ref_by_id_reaches_the_case_schema() -> None:
    validator = schemas.validator("quick-eval")
    errors = list(validator.iter_errors(
        {"id": "q", "prompt": "p", "cases": [{"case_id": "c", "inputs": {}, "extra": 1}]}))
    assert [(list(e.absolute_path), e.validator) for e in errors] == [
        (["cases", 0], "additionalProperties")]


def test_an_unknown_ref_fails_closed_without_fetching() -> None:
    with pytest.raises(Unresolvable):
        schemas.registry().resolver().lookup("https://example.com/never-fetched.schema.json")


def test_each_schema_is_valid_under_its_own_draft() -> None:
    for name in SCHEMA_NAMES:
        cls = Draft7Validator if name in DRAFT_07 else Draft202012Validator
        cls.check_schema(json.loads(json.dumps(schemas.schema(name))))
