"""The code catalogue is a public interface: documented, classed, and stable in severity."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from evalyaml.core.codes import (
    CODE_PATTERN,
    CODES,
    ENGINE_CODES,
    OWNERS,
    Code,
    CodeClass,
    Severity,
    register,
    severity_of,
    sort_key,
)
from evalyaml.formats import FORMATS

DOCS = Path(__file__).resolve().parents[2] / "docs" / "diagnostics.md"
CLASS_NAMES = {"BROKEN": CodeClass.BROKEN, "CONTRACT": CodeClass.CONTRACT,
               "ADVICE": CodeClass.ADVICE, "HINT": CodeClass.HINT}


def test_codes_are_well_formed_and_grouped() -> None:
    """The catalogue is the engine's codes and every registered format's, each declared once by
    its owner; a tagged format's codes all carry its one tag, which no other format uses."""
    assert list(CODES) == sorted(CODES, key=sort_key)
    declared = [c.code for c in ENGINE_CODES] + [c.code for f in FORMATS for c in f.codes]
    assert sorted(declared, key=sort_key) == list(CODES)
    assert {c.code: "engine" for c in ENGINE_CODES} | {
        c.code: f.name for f in FORMATS for c in f.codes} == OWNERS
    tags: dict[str, str] = {}
    for code_id, code in CODES.items():
        assert CODE_PATTERN.fullmatch(code_id), code_id
        assert code.code == code_id
        assert not code_id.startswith("EY9"), "EY9xx stays free (docs/diagnostics.md)"
        if not code_id[2].isdigit():
            assert tags.setdefault(code_id[2:4], OWNERS[code_id]) == OWNERS[code_id], code_id
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", code.name), code.name
        assert code.summary.endswith(".")
        assert code.doc_url.endswith(f"diagnostics.md#{code_id.lower()}")
    assert len({c.name for c in CODES.values()}) == len(CODES)


def test_a_code_is_declared_once_and_well_formed() -> None:
    """A second owner for a code, a reused name or a malformed id is refused at registration,
    and the catalogue is left as it was."""
    before = dict(CODES)
    taken = CODES["EY601"]
    with pytest.raises(ValueError, match="EY601 is already agentv's"):
        register("other", [Code("EY601", "other-unknown-key", taken.code_class, "x.",
                                taken.recovery)])
    with pytest.raises(ValueError, match="name 'yaml-syntax' is already EY101's"):
        register("other", [Code("EYZZ001", "yaml-syntax", taken.code_class, "x.",
                                taken.recovery)])
    for malformed in ("EY9", "EY1000", "EYP001", "EYpf001", "XY100"):
        with pytest.raises(ValueError, match="malformed code"):
            register("other", [Code(malformed, "x", taken.code_class, "x.", taken.recovery)])
    assert before == CODES


def test_a_code_without_recovery_does_not_construct() -> None:
    """Forgetting how a code behaves beside a syntax error is an error, not silence."""
    with pytest.raises(TypeError):
        Code("EYZZ001", "zz", CodeClass.CONTRACT, "x.")  # type: ignore[call-arg]


def test_contents_table_matches_the_catalogue() -> None:
    docs = DOCS.read_text(encoding="utf-8")
    table = re.findall(r"^\| \[(EY(?:\d{3}|[A-Z]{2}\d{3}))\]\(#(ey(?:\d{3}|[a-z]{2}\d{3}))\) "
                       r"\| ([a-z0-9-]+) \| ([A-Z]+) \|$", docs,
                       re.MULTILINE)
    assert [(code, anchor) for code, anchor, _, _ in table] == [
        (c, c.lower()) for c in CODES]
    for code_id, _, name, class_name in table:
        assert (name, CLASS_NAMES[class_name]) == (CODES[code_id].name, CODES[code_id].code_class)


@pytest.mark.parametrize("code_id", sorted(CODES))
def test_every_code_has_a_section_with_its_class(code_id: str) -> None:
    docs = DOCS.read_text(encoding="utf-8")
    code = CODES[code_id]
    section = re.search(rf'<a id="{code_id.lower()}"></a>\n## {code_id} {code.name}\n\n'
                        r"\*\*Class:\*\* ([A-Z]+) .*?\n(.*?)(?=\n<a id=|\Z)", docs, re.DOTALL)
    assert section, f"docs/diagnostics.md has no section for {code_id} {code.name}"
    assert CLASS_NAMES[section.group(1)] is code.code_class
    body = section.group(2)
    assert "**Triggers:**" in body and "**Fix:**" in body


@pytest.mark.parametrize(("code_class", "soft", "strict"), [
    (CodeClass.BROKEN, Severity.ERROR, Severity.ERROR),
    (CodeClass.CONTRACT, Severity.WARNING, Severity.ERROR),
    (CodeClass.ADVICE, Severity.INFORMATION, Severity.INFORMATION),
    (CodeClass.HINT, Severity.HINT, Severity.HINT),
])
def test_severity_follows_class_and_mode(code_class: CodeClass, soft: Severity,
                                         strict: Severity) -> None:
    members = [c for c, code in CODES.items() if code.code_class is code_class]
    assert members
    for code_id in members:
        assert severity_of(code_id, strict=False) is soft
        assert severity_of(code_id, strict=True) is strict


def test_design_severity_decisions() -> None:
    """DESIGN §3: YAML syntax and unresolvable references are errors in every mode; contract
    findings (schema, unpinned, stale judge) are warnings in soft mode."""
    for code_id in ("EY100", "EY101", "EY102", "EY103", "EY104", "EY105", "EY106", "EY107",
                    "EY214", "EY300", "EY301", "EY302", "EY305", "EY306", "EY307"):
        assert CODES[code_id].code_class is CodeClass.BROKEN, code_id
    for code_id in ("EY201", "EY202", "EY203", "EY204", "EY205", "EY206", "EY303", "EY308",
                    "EY403"):
        assert CODES[code_id].code_class is CodeClass.CONTRACT, code_id
    assert Severity.ERROR.label == "error" and int(Severity.HINT) == 4  # LSP numbering
