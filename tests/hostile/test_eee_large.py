"""Every Eval Ever at hostile sizes: 10^6 streamed rows (opt-in: HYPOTHESIS_PROFILE=long, about
four minutes), and, in every run, a row nested 10,000 deep, invalid UTF-8 and a 1 GB line in a
samples file through the CLI's stream, and an aggregate nested as deep."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from tests.formats.eee.test_eee_stream import ROWS, streamed_peak
from tests.hostile.harness import LONG

from evalyaml.formats.eee.rows import check_row, check_stream
from evalyaml.workspace.index import Workspace

SAMPLES = "0b6f4d2a-8c1e-4f3a-9d5b-2e7c6a1f0b3d_samples.jsonl"


@pytest.mark.skipif(not LONG, reason="10^6 rows take minutes: HYPOTHESIS_PROFILE=long")
def test_a_million_rows_stream_in_bounded_memory() -> None:
    row = ROWS[0].encode() + b"\n\n"
    result, peak = streamed_peak(row, 1_000_000)
    assert result.rows == 1_000_000 and result.findings == []
    assert peak < 150 * 1024 * 1024 < len(row) * 1_000_000 / 4  # ids: 48 bytes a row


def test_a_row_nested_ten_thousand_deep_is_one_finding() -> None:
    deep = '{"schema_version": "0.3.0", "x": ' + "[" * 10_000 + "]" * 10_000 + "}"
    result = check_stream(io.BytesIO((ROWS[0] + "\n" + deep + "\n" + ROWS[0]).encode()),
                          strict=False)
    assert result.rows == 3
    lines = {f.span.start.line for f in result.findings}
    assert lines == {1}
    direct = check_row(deep, strict=False)
    assert direct.findings and all(f.span.start.line == 0 for f in direct.findings)


def test_an_aggregate_nested_ten_thousand_deep(tmp_path: Path) -> None:
    folder = tmp_path / "data" / "c" / "d" / "m"
    folder.mkdir(parents=True)
    body = ('{"schema_version": "0.3.0", "evaluation_id": "x", "model_info": '
            + '{"a": ' * 10_000 + "1" + "}" * 10_000 + "}")
    path = folder / "0b6f4d2a-8c1e-4f3a-9d5b-2e7c6a1f0b3d.json"
    path.write_text(body)
    workspace = Workspace([tmp_path])
    workspace.index_all()
    findings = workspace.findings(path)
    assert findings
    assert all(0 <= f.span.start.character <= len(body) for f in findings)


def test_invalid_utf8_and_a_long_line_in_a_streamed_workspace(tmp_path: Path) -> None:
    """Over max_file_mb the index streams: a bad byte costs its line, a 20 MB line one EY712."""
    (tmp_path / "evalyaml.toml").write_text("max_file_mb = 1\n")
    folder = tmp_path / "data" / "c" / "d" / "m"
    folder.mkdir(parents=True)
    path = folder / SAMPLES
    with path.open("wb") as out:
        out.write(ROWS[0].encode() + b"\n")
        out.write(b'{"schema_version": "0.3.0", "sample_id": "\xc3\x28"}\n')
        out.write(b'{"x": "' + b"y" * (20 * 1024 * 1024) + b'"}\n')
        out.write(ROWS[0].encode() + b"\n")
    workspace = Workspace([tmp_path])
    workspace.index_all()
    placed = sorted((f.code, f.span.start.line, f.span.start.character)
                    for f in workspace.findings(path))
    # EY728: a samples file with no aggregate beside it, as every_eval_ever validate says too.
    assert placed == [("EY100", 1, 42), ("EY712", 2, 0), ("EY728", 0, 0)], placed


def test_an_aggregate_over_the_size_limit_is_refused_not_read(tmp_path: Path) -> None:
    """Aggregates are not streamed: one over `max_file_mb` (here a 3 MB line) is one EY107, and
    its samples file's rows are still checked."""
    (tmp_path / "evalyaml.toml").write_text("max_file_mb = 1\n")
    folder = tmp_path / "data" / "c" / "d" / "m"
    folder.mkdir(parents=True)
    aggregate = folder / "0b6f4d2a-8c1e-4f3a-9d5b-2e7c6a1f0b3d.json"
    aggregate.write_text('{"schema_version": "0.3.0", "evaluation_id": "'
                         + "x" * (3 * 1024 * 1024) + '"}')
    samples = folder / SAMPLES
    samples.write_text(ROWS[0] + "\n")
    workspace = Workspace([tmp_path])
    workspace.index_all()
    assert [f.code for f in workspace.findings(aggregate)] == ["EY107"]
    assert workspace.findings(samples) == []
