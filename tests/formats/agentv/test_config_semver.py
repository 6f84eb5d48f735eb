"""`required_version` as node-semver's `validRange` (strict) reads it, which `version-check.ts`
calls before `agentv eval` runs: a range it rejects makes agentv exit."""

from __future__ import annotations

import pytest

from evalyaml.formats.agentv.config import valid_range

VALID = [">=3.1.0", "^2.11.0", "~1.2", "1.x", "*", "x", ">= 1.2.3 < 2", "1.2.3 - 2.0.0",
         "^1 || ^2", "4.2.0-beta.1", "v4", "=4.1.0", "~>1.2", "^4.2.0 || >=5.0.0-beta.1",
         "1.2.3+build.5", "<=4"]
INVALID = ["latest", ">=3.1.0 latest", "1.2.3.4", ">", "01.2.3", "4.2.0 beta", "^^1", "1.2.3-"]


@pytest.mark.parametrize("text", VALID)
def test_valid(text: str) -> None:
    assert valid_range(text)


@pytest.mark.parametrize("text", INVALID)
def test_invalid(text: str) -> None:
    assert not valid_range(text)
