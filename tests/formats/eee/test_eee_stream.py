"""Large samples files: the streamed check equals the text check, a 1 GB line is not read
whole, invalid UTF-8 costs one line, and the fast path for valid rows agrees with the walk."""

from __future__ import annotations

import copy
import io
import json
import random
import tracemalloc
from pathlib import Path

import pytest

from evalyaml.formats.eee import rows, spread
from evalyaml.formats.eee.rows import check_row, check_samples, check_stream
from evalyaml.syntax import bytelines
from evalyaml.syntax.lines import LineCache
from evalyaml.workspace.index import Workspace

EXAMPLE = (Path(__file__).resolve().parents[3] / "examples" / "eee" / "data" / "arith-demo" /
           "acme" / "tiny-model" / "3b1f6c2e-7a4d-4e8b-9c5f-2d1e0a9b8c7d_samples.jsonl")
FIXTURES = Path(__file__).parent


def _fixture_rows() -> list[str]:
    out = []
    for path in sorted(FIXTURES.glob("*.fixture")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("{") and '"sample_id"' in line and "$0" not in line:
                out.append(line)
    return out


ROWS = [*EXAMPLE.read_text(encoding="utf-8").splitlines(), *_fixture_rows()]


def _summary(result: rows.SamplesResult) -> tuple[object, ...]:
    return (sorted((f.span.start.line, f.span.start.character, f.span.end.line,
                    f.span.end.character, f.code, f.message) for f in result.findings),
            result.rows,
            {k: list(v) for k, v in result.evaluation_ids.items()},
            {k: list(v) for k, v in result.model_ids.items()}, result.first_row)


@pytest.mark.parametrize("newline", ["\n", "\r\n", "\r"])
@pytest.mark.parametrize("chunk", [1, 5, 64, 1 << 20])
def test_the_stream_equals_the_text(newline: str, chunk: int,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    lines = [*ROWS, "", "   ", '["x"]', "{broken", *ROWS[:2]]
    text = "\ufeff" + newline.join(lines) + newline
    monkeypatch.setattr(bytelines, "CHUNK", chunk)
    streamed = check_stream(io.BytesIO(text.encode("utf-8")), strict=False)
    assert _summary(streamed) == _summary(check_samples(text, strict=False, cache=None))


@pytest.mark.parametrize("count", [1, 2])
def test_rows_checked_on_every_core_equal_one_core(count: int,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI checks batches of rows in forked workers (`spread`): in batches of three, across
    rows with findings, blank lines, a line over the limit and one that is not UTF-8, the result
    is the one-process result, in the same order."""
    lines = [row.encode() for row in [*ROWS, "", "   ", '["x"]', "{broken", *ROWS[:2]]]
    lines[3:3] = [b'{"a": "\xff"}', b"x" * 5000]
    data = b"\n".join(lines) + b"\n"
    monkeypatch.setattr(spread, "workers", lambda: 1)
    alone = check_stream(io.BytesIO(data), strict=False, max_line=4096)
    monkeypatch.setattr(spread, "workers", lambda: count + 1)
    monkeypatch.setattr(spread, "BATCH_ROWS", 3)
    spread_out = check_stream(io.BytesIO(data), strict=False, max_line=4096)
    assert _summary(spread_out) == _summary(alone)
    assert [f.code for f in alone.findings if f.code in ("EY100", "EY712")] == ["EY100", "EY712"]
    assert [f.span.start.line for f in spread_out.findings] == \
        [f.span.start.line for f in alone.findings]


class _OneHugeLine(io.RawIOBase):
    """A valid row, then a line of `size` bytes that is never held at once, then a row."""

    def __init__(self, size: int, row: bytes) -> None:
        self.left = size
        self.head = row + b"\n"
        self.tail = b"\n" + row + b"\n"
        self.block = b"x" * (1 << 20)

    def read(self, n: int = -1) -> bytes:
        if self.head:
            out, self.head = self.head, b""
            return out
        if self.left > 0:
            take = min(self.left, len(self.block), n if n > 0 else len(self.block))
            self.left -= take
            return self.block[:take]
        out, self.tail = self.tail, b""
        return out


def test_a_one_gigabyte_line_is_not_read_whole() -> None:
    row = ROWS[0].encode()
    tracemalloc.start()
    result = check_stream(_OneHugeLine(1 << 30, row), strict=False)  # type: ignore[arg-type]
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 64 * 1024 * 1024
    assert [(f.code, f.span.start.line) for f in result.findings] == [("EY712", 1)]
    assert result.rows == 3


def test_invalid_utf8_costs_its_line_only() -> None:
    data = ROWS[0].encode() + b"\n" + b'{"a": "\xff\xfe"}\n' + ROWS[0].encode() + b"\n"
    result = check_stream(io.BytesIO(data), strict=False)
    assert [(f.code, f.span.start.line, f.span.start.character) for f in result.findings] == \
        [("EY100", 1, 7)]
    assert result.rows == 3


class RowStream(io.RawIOBase):
    """`count` copies of `row`, a hundred per read: the file is generated, never held."""

    def __init__(self, row: bytes, count: int) -> None:
        self.row = row
        self.left = count

    def read(self, n: int = -1) -> bytes:
        count = min(self.left, 100)
        self.left -= count
        return self.row * count


def streamed_peak(row: bytes, count: int) -> tuple[rows.SamplesResult, int]:
    tracemalloc.start()
    try:
        result = check_stream(RowStream(row, count), strict=False)  # type: ignore[arg-type]
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("workers", [1, 2])
def test_rows_stream_in_bounded_memory(workers: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Memory grows by the rows' id positions (two arrays of three 8-byte integers a row), not
    by their bytes: 8,000 rows of 700 bytes (5.6 MB) peak under a quarter of their bytes, and
    7,000 more rows than 1,000 cost under 100 bytes each. On every core (the CLI) at most two
    batches a worker are in flight (here of 50 rows); their buffers and the pool's pipes are a
    constant of about 0.7 MB, measured even for 100 rows, which is why the bound is a share of
    the bytes rather than a round 1 MiB. The 10^6-row run is in tests/hostile (opt-in)."""
    monkeypatch.setattr(spread, "workers", lambda: workers)
    monkeypatch.setattr(spread, "BATCH_ROWS", 50)
    row = ROWS[0].encode() + b"\n\n"  # blank lines between rows cost nothing
    streamed_peak(row, 100)  # once first: what a first run loads or caches is not the rows' cost
    small, small_peak = streamed_peak(row, 1000)
    large, large_peak = streamed_peak(row, 8000)
    assert (small.rows, large.rows) == (1000, 8000)
    assert small.findings == [] and large.findings == []
    assert large_peak < len(row) * 8000 / 4
    assert (large_peak - small_peak) / 7000 < 100


def _mutants(value: object, seed: int) -> list[object]:
    rng = random.Random(seed)
    out = []
    for _ in range(40):
        copied = copy.deepcopy(value)
        target = copied
        while isinstance(target, dict) and target and rng.random() < 0.6:
            key = rng.choice(list(target))
            if not isinstance(target[key], (dict, list)) or rng.random() < 0.3:
                choice = rng.random()
                if choice < 0.25:
                    del target[key]
                elif choice < 0.5:
                    target[key] = rng.choice([7, 1.5, "x", None, True, [], {}])
                elif choice < 0.75:
                    target[key[:-1] + "z"] = target.pop(key)
                else:
                    target["extra_" + key] = 1
                break
            target = target[key] if isinstance(target[key], dict) else target
        out.append(copied)
    return out


@pytest.mark.parametrize("index", range(len(ROWS)))
def test_the_fast_path_agrees_with_the_walk(index: int, monkeypatch: pytest.MonkeyPatch) -> None:
    try:
        value = json.loads(ROWS[index])
    except ValueError:
        return
    for mutant in [value, *_mutants(value, index)]:
        text = json.dumps(mutant)
        fast = rows._fast(text)
        monkeypatch.setattr(rows, "_fast", lambda _text: None)
        slow = check_row(text, strict=False)
        monkeypatch.undo()
        if fast is not None:
            assert slow.findings == (), (text, slow.findings)
            assert fast.facts == slow.facts, text


def test_a_streamed_samples_file_in_a_workspace(tmp_path: Path) -> None:
    """Over `max_file_mb`, the index streams the file instead of refusing it (EY107)."""
    (tmp_path / "evalyaml.toml").write_text("max_file_mb = 0.001\n")
    folder = tmp_path / "data" / "c" / "d" / "m"
    folder.mkdir(parents=True)
    body = "\n".join(ROWS[:1] * 5 + ['{"schema_version": "0.3.0", "sample_id": 1}']) + "\n"
    path = folder / "0b6f4d2a-8c1e-4f3a-9d5b-2e7c6a1f0b3d_samples.jsonl"
    path.write_text(body)
    workspace = Workspace([tmp_path])
    workspace.index_all()
    codes = sorted(f.code for f in workspace.findings(path))
    assert "EY107" not in codes
    # The rows' own findings, and EY728: no aggregate beside the file declares it.
    assert codes == sorted([*(f.code for f in check_samples(body, strict=False, cache=None)
                              .findings), "EY728"])


def test_edits_in_place_equal_a_fresh_analysis() -> None:
    """The editor's short way (`EditState`: a few rows changed in place, the rest copied) and
    its whole walk, over random edits, always equal a fresh analysis: findings, cases, ids."""
    rng = random.Random(13)
    # A row of an unknown version turns the short way off for the whole file (by design), so
    # the walk starts from, and draws, rows of known versions: the short way stays reachable
    # however many rows the fixtures add.
    known = [r for r in ROWS if not check_samples(r + "\n", strict=False, cache=None).unknown]
    lines = [*known, "", *known[:3], "  ", known[0].replace('"single_turn"', '"single-turn"')]
    cache: LineCache[rows.RowFacts] = LineCache()
    state = rows.EditState()
    for step in range(300):
        index = rng.randrange(len(lines))
        choice = rng.random()
        if choice < 0.5 and lines[index].startswith("{"):  # one character in a row
            at = rng.randrange(1, len(lines[index]))
            lines[index] = lines[index][:at] + rng.choice(["x", "", "1", '"', "😀"]) + \
                lines[index][at + 1:]
        elif choice < 0.7:
            lines[index] = rng.choice(known)
        elif choice < 0.8:
            lines[index] = rng.choice(["", "\ufeff" + known[0], known[0].replace(
                '"evaluation_id": "', '"evaluation_id": "z')])
        elif choice < 0.9:
            lines.insert(index, rng.choice(["", known[1]]))
        elif len(lines) > 2:
            del lines[index]
        if step % 7 == 0:  # several edits between two analyses
            continue
        text = "\n".join(lines) + "\n"
        kept = check_samples(text, strict=False, cache=cache, state=state)
        fresh = check_samples(text, strict=False, cache=None)
        assert _summary(kept) == _summary(fresh), step
        assert kept.cases == fresh.cases, step
    assert state.in_place > 20  # the short way was taken, and checked, many times
