"""An aggregate analysed result by result (`formats/eee/byresult.py`) says exactly what the whole
file says: every aggregate of the fixtures, the examples and the corpus, lax and strict, as
written, with CRLF line ends, and after a result is inserted at the top of `evaluation_results`
(every result below moved and renumbered). A file that cannot be cut (a parser finding, results
sharing a line, no `evaluation_results` array, an unknown version) is read whole, and says what
the whole file says too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evalyaml.core.incremental import CaseCache
from evalyaml.core.items import ItemState
from evalyaml.core.model import FileAnalysis
from evalyaml.core.options import Options
from evalyaml.formats.eee import AGGREGATE, FORMAT
from evalyaml.formats.eee.byresult import STATE
from harness.workspace_fixture import parse_workspace_fixture

HERE = Path(__file__).parent
REPO = HERE.parents[2]
CORPUS = REPO.parent / "shared" / "corpus" / "every_eval_ever"
OPENING = '"evaluation_results": [\n'


def _aggregates() -> list[tuple[str, str, str]]:
    """(test id, path relative to the workspace root, text) of every aggregate we have."""
    found: list[tuple[str, str, str]] = []
    for fixture in sorted(HERE.glob("*.fixture")):
        for rel, text in parse_workspace_fixture(fixture.read_text("utf-8")).files.items():
            if rel.endswith(".json") and '"evaluation_results"' in text:
                found.append((f"{fixture.name}:{rel}", rel, text))
    for base in (REPO / "examples" / "eee", CORPUS):
        for file in sorted(base.rglob("*.json")):
            if file.is_file() and not file.name.endswith(".schema.json") and \
                    '"evaluation_results"' in (text := file.read_text("utf-8")):
                rel = file.relative_to(base).as_posix()
                found.append((f"{base.name}:{rel}", rel, text))
    return found


AGGREGATES = _aggregates()


def _said(analysis: FileAnalysis) -> tuple[object, ...]:
    return (sorted(map(repr, analysis.findings)), repr(analysis.definitions),
            repr(analysis.references), repr(analysis.facts), repr(analysis.cases))


def _inserted(text: str) -> str:
    """A result with two findings (a missing key, a wrong type) at the top of the array."""
    at = text.find(OPENING)
    if at < 0:
        return text
    at += len(OPENING)
    return text[:at] + '    {"evaluation_name": "new 📦 订单", "score_details": 1},\n' + text[at:]


def _both(text: str, rel: str, options: Options, cache: CaseCache) -> FileAnalysis:
    path = f"/ws/{rel}"
    by_result = FORMAT.analyze(text, path, AGGREGATE, options, cache=cache)
    whole = FORMAT.analyze(text, path, AGGREGATE, options, cache=None, whole=True)
    assert _said(by_result) == _said(whole)
    return by_result


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize(("name", "rel", "text"), AGGREGATES, ids=[n for n, _, _ in AGGREGATES])
def test_each_aggregate_result_by_result_equals_the_whole_file(name: str, rel: str, text: str,
                                                               strict: bool) -> None:
    options = Options(root="/ws", strict=strict)
    cache = CaseCache()
    for current in (text, _inserted(text), text.replace("\n", "\r\n"),
                    _inserted(text).replace("\n", "\r\n")):
        _both(current, rel, options, cache)


def test_most_aggregates_are_cut() -> None:
    """The test above compares the cut with the whole file: most of our aggregates do cut (the
    others put their results on one line, or are not JSON as written)."""
    cut = 0
    for _, rel, text in AGGREGATES:
        cache = CaseCache()
        FORMAT.analyze(text, f"/ws/{rel}", AGGREGATE, Options(root="/ws"), cache=cache)
        cut += cache.format_state(STATE, ItemState)._last is not None
    assert len(AGGREGATES) >= 20
    assert cut >= len(AGGREGATES) // 2, (cut, len(AGGREGATES))


def _aggregate(results: int = 3) -> str:
    return json.dumps({
        "schema_version": "0.3.0", "evaluation_id": "demo/acme_tiny/1",
        "retrieved_timestamp": "1767225601",
        "source_metadata": {"source_type": "evaluation_run", "source_organization_name": "Acme",
                            "evaluator_relationship": "first_party"},
        "eval_library": {"name": "inspect_ai", "version": "0.3.130"},
        "model_info": {"name": "tiny", "id": "acme/tiny", "developer": "acme"},
        "evaluation_results": [{
            "evaluation_name": f"r{i}",
            "source_data": {"dataset_name": "demo", "source_type": "url",
                            "url": ["https://example.invalid/demo"]},
            "metric_config": {"lower_is_better": False, "score_type": "continuous",
                              "min_score": 0, "max_score": 1},
            "score_details": {"score": 0.5}} for i in range(results)],
        "detailed_evaluation_results": {
            "format": "jsonl", "file_path": "data/demo/acme/tiny/x_samples.jsonl",
            "hash_algorithm": "sha256", "checksum": "0" * 64, "total_rows": 2}},
        indent=2) + "\n"


REL = "data/demo/acme/tiny/1a2b3c4d-5e6f-4a1b-8c2d-3e4f5a6b7c8d.json"


def test_an_edit_inside_one_result_checks_that_result_and_moves_the_facts_below() -> None:
    """Lines added inside the first result: that result alone is checked again (its new
    finding names its index), the facts below the results (`file_path`, `checksum`, the
    samples reference) move down with them, and the file says what one pass says."""
    options = Options(root="/ws")
    cache = CaseCache()
    text = _aggregate()
    first = _both(text, REL, options, cache)
    state = cache.format_state(STATE, ItemState)
    edited = text.replace('"score": 0.5', '"score": 0.5,\n        "details": 3', 1)
    after = _both(edited, REL, options, cache)
    assert state.incremental == 1
    assert [(f.code, f.span.start.line, f.message) for f in after.findings
            if "evaluation_results[" in f.message] == [
        ("EY702", 36, "'evaluation_results[0].score_details.details' must be an object, not "
                      "an integer")]
    file_path = [f.span.start.line for f in after.findings if f.code == "EY707"]
    assert file_path == [f.span.start.line + 1 for f in first.findings if f.code == "EY707"]
    before, moved = first.facts["checksum"], after.facts["checksum"]
    assert isinstance(before, tuple) and isinstance(moved, tuple)
    assert moved[1].start.line == before[1].start.line + 1
    assert [r.span.start.line for r in after.references] == \
        [r.span.start.line + 1 for r in first.references]
    assert [c.span.start.line for c in after.cases] == \
        [line + (i > 0) for i, line in enumerate(c.span.start.line for c in first.cases)]


@pytest.mark.parametrize(("why", "edit"), [
    ("a syntax error in a result", ('"evaluation_name": "r1"', '"evaluation_name": "r1')),
    ("a duplicate key in a result (a parser finding)",
     ('"evaluation_name": "r1",', '"evaluation_name": "r1", "evaluation_name": "r1",')),
    ("two results on one line", ('    },\n    {\n      "evaluation_name": "r2"',
                                 '    }, {\n      "evaluation_name": "r2"')),
    ("no evaluation_results array", ('"evaluation_results": [', '"evaluation_result": [')),
    ("an unknown version (results read as unchecked)",
     ('"schema_version": "0.3.0"', '"schema_version": "9.9.9"')),
])
def test_a_file_that_does_not_cut_is_read_whole(why: str, edit: tuple[str, str]) -> None:
    """Each falls back to the whole file (but the unknown version, whose results are cut and
    not checked), which is what it then says; the next good text is cut again."""
    options = Options(root="/ws")
    cache = CaseCache()
    text = _aggregate()
    _both(text, REL, options, cache)
    state = cache.format_state(STATE, ItemState)
    assert edit[0] in text, why
    bad = text.replace(*edit, 1)
    said = _both(bad, REL, options, cache)
    assert (state._last is not None) == ("version" in why)
    assert said.findings
    _both(text, REL, options, cache)
    assert state._last is not None


def test_a_result_the_fast_predicate_passes_is_one_the_walk_finds_nothing_in() -> None:
    """`byresult` skips the schema walk for a result `fastpath.compile_valid(..., at=)` passes:
    over every result of every aggregate we have (and each with a key misspelt, a number made a
    string), the predicate passes only results the walk finds nothing in, and it does pass most
    of the clean ones (else it would be no shortcut)."""
    from evalyaml.core.findings import FindingSink
    from evalyaml.formats.eee import fastpath, versions
    from evalyaml.formats.eee.byresult import result_schema
    from evalyaml.formats.eee.schemacheck import SchemaCheck
    from evalyaml.syntax.json import parse_json

    passed = clean = 0
    for _, _, text in AGGREGATES:
        try:
            data = json.loads(text)
        except ValueError:
            continue
        schema = versions.schema_for(AGGREGATE, data.get("schema_version")) \
            if isinstance(data, dict) else None
        results = data.get("evaluation_results") if isinstance(data, dict) else None
        if schema is None or not isinstance(results, list):
            continue
        item = result_schema(schema)
        assert item is not None
        valid = fastpath.compile_valid(schema, at=item)
        for index, result in enumerate(results):
            variants = [result]
            if isinstance(result, dict):
                variants += [{("evaluaton_name" if k == "evaluation_name" else k): v
                              for k, v in result.items()},
                             {**result, "score_details": {"score": "1"}}]
            for value in variants:
                body = json.dumps(value, indent=2)
                parsed = parse_json(body, FindingSink(strict=False))
                sink = FindingSink(strict=False)
                SchemaCheck(schema, sink, lambda n, p=parsed: p.lines.span(n.start, n.end),
                            what="the aggregate").check_at(
                    parsed.documents[0], item, ("evaluation_results", index))
                said = valid(value)
                assert not (said and sink.findings), (body, sink.findings)
                clean += not sink.findings
                passed += said
    assert clean > 100 and passed >= clean * 0.9, (passed, clean)
