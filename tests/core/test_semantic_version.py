"""A full version is read without the `semver` package (`core/semantic_version.py`); it must
read exactly what `semver.Version.parse` reads, or a pin that resolves today would be
reported malformed (EY300) or a declared version rejected (EY209)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from semver import Version

from evalyaml.core.semantic_version import FullVersion, parse_full_version

PIECES = ["0", "1", "01", "10", "1.", ".", "-", "+", "a", "Z", "-0", "rc", "٣", "\n", " ",
          "00", "x-y", "999999999999999999999"]


def _semver(text: str) -> FullVersion | None:
    try:
        version = Version.parse(text)
    except (ValueError, TypeError):
        return None
    return FullVersion(version.major, version.minor, version.patch, version.prerelease,
                       version.build)


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=9).map("".join))
def test_it_reads_what_semver_reads(text: str) -> None:
    assert parse_full_version(text) == _semver(text)


@pytest.mark.parametrize("text", [
    "1.2.0", "0.0.0", "1.0.0-rc.1", "1.0.0-0.3.7", "1.0.0-x.7.z.92", "1.0.0+20130313144700",
    "1.0.0-beta+exp.sha.5114f85", "1.0.0-x-y-z.--", "01.2.0", "1.2", "1.2.3.4", "1.2.3-01",
    "1.2.3-", "1.2.3+", "1.2.3\n", " 1.2.3", "1.2.3-\u03b1", "\u0661.2.3", "1.2.3-rc..1", "v1.2.3",
    "9" * 5000 + ".0.0",
])
def test_the_grammar_s_edges_read_as_semver_reads_them(text: str) -> None:
    assert parse_full_version(text) == _semver(text)
