"""Each Apastra quick fix, applied, leaves a file without the finding it fixed: the spaced
placeholder (EY810), a stale self-digest (EY802, quoted either way or plain), the digest the
other implementation computes (EY805: the file then carries runtime/digest.py's), a misspelt
key in a closed object, an enum typo (EY800), a near miss in an open one (EY801)."""

from __future__ import annotations

import pytest

from evalyaml.core.options import Options
from evalyaml.formats.apastra import FORMAT
from evalyaml.syntax.text import LineIndex

D0 = "sha256:" + "0" * 64
CASES = [
    ("promptops/prompts/p.yaml", "id: p\nvariables: {text: {}}\ntemplate: \"Say {{ text }}!\"\n",
     "EY810", "{{text}}"),
    ("promptops/evaluators/e.yaml", f"id: e\ntype: judge\nmetrics: [m]\ndigest: \"{D0}\"\n",
     "EY802", "digest: \"sha256:"),
    ("promptops/evaluators/e.yaml", f"id: e\ntype: judge\nmetrics: [m]\ndigest: '{D0}'\n",
     "EY802", "digest: 'sha256:"),
    ("promptops/evaluators/e.yaml", f"id: e\ntype: judge\nmetrics: [m]\ndigest: {D0}\n",
     "EY802", "digest: sha256:"),
    ("promptops/evaluators/e.yaml", "id: e\ntype: judge\nmetrics: [m]\ndescription: Café\n"
     "digest: sha256:34203da3490c53b69ba696b98932d2cb11c8bbcd0cbef4016b6adb81be913d3d\n",
     "EY805", "digest: sha256:"),
    ("promptops/evals/q.yaml", "id: q\nprompt: p\ncases:\n  - id: a\n    inputs: {}\n",
     "EY800", "  - case_id: a\n"),
    ("promptops/suites/s.yaml", "id: s\nname: S\ndatasets: [d]\nevaluators: [e]\n"
     "model_matrix: [m]\ntier: smok\n", "EY800", "tier: smoke\n"),
    ("promptops/suites/s.yaml", "id: s\nname: S\ndatasets: [d]\nevaluators: [e]\n"
     "model_matrix: [m]\nbudgets: {cost: 1}\n", "EY801", "budgets: {cost_budget: 1}"),
]


def _apply(text: str, edits: list[tuple[object, str]]) -> str:
    lines = LineIndex(text)
    for span, new in sorted(edits, key=lambda e: lines.offset(e[0].start),  # type: ignore[attr-defined]
                            reverse=True):
        start = lines.offset(span.start)  # type: ignore[attr-defined]
        end = lines.offset(span.end)  # type: ignore[attr-defined]
        text = text[:start] + new + text[end:]
    return text


@pytest.mark.parametrize(("path", "text", "code", "after"), CASES,
                         ids=[f"{c[2]}-{i}" for i, c in enumerate(CASES)])
def test_the_fix_removes_the_finding(path: str, text: str, code: str, after: str) -> None:
    options = Options()
    kind = FORMAT.claim(text, path, None).kind  # type: ignore[union-attr]
    found = [f for f in FORMAT.analyze(text, path, kind, options).findings if f.code == code]
    assert len(found) == 1 and found[0].fixes, found
    fix = next(f for f in found[0].fixes if f.preferred)
    fixed = _apply(text, [(e.span, e.new_text) for e in fix.edits])
    assert after in fixed
    again = FORMAT.analyze(fixed, path, kind, options).findings
    if code == "EY805":  # the fix writes the other implementation's digest, which it now is
        assert [f.message[:39] for f in again] == ["this digest is runtime/digest.py's (non"]
        return
    assert [f for f in again if f.code in (code, "EY802", "EY805")] == []
