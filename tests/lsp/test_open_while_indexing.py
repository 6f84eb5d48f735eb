"""A document opened while the workspace is still being indexed, and a document opened again.

VS Code restores its open tabs right after `initialized`, long before the index of a large
workspace is in. The tab's own findings must come at once (issue #27), the findings that need
the other files once the index is complete, and nothing stale may stay behind. Closing a file
and opening it again gives the very same diagnostics (the index keeps the buffer's analysis when
the disk holds that text; the engine takes back the cache the document left: `lsp/reopen.py`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient
from tests.lsp.conftest import SERVER, Session, make_workspace, start

RESTORED = "datasets/restored.yaml"
TEXT = """\
name: Restored tab
questions:
  - id: q1
    input: Where is my order?
    criteria: Gives the tracking link.
    rubric_ref: rubric/factuality@1.2
  - id: q2
    input: Can I return it?
    critera: States the return window.
    rubric_ref: rubric/no_such_rubric@1.0.0
"""
# Enough files that the first index takes a while (it runs in worker processes).
FILLER = {f"rubrics/filler/r{n:04d}.yaml": (
    f"id: filler_{n}\nversion: \"1.0.0\"\nchecks:\n  - kind: format\n    format: text\n"
    "scoring:\n  combine: all_pass\n") for n in range(800)}
LOCAL = ("EY205", (8, 4, 8, 11), "unknown key 'critera' in case 'q2'; did you mean 'criteria'? "
         "(an unknown key is ignored, so its value has no effect)")
CROSS = ("EY301", (9, 16, 9, 43), "no rubric with id 'no_such_rubric' in the workspace")


@pytest_lsp.fixture(config=SERVER, params=["vscode", "neovim"])
async def started(lsp_client: LanguageClient, request: pytest.FixtureRequest
                  ) -> AsyncIterator[None]:
    root = make_workspace(request.getfixturevalue("tmp_path_factory"), request.param,
                          {**FILLER, RESTORED: TEXT})
    # Not waiting for the index: the point is what happens before it is in.
    lsp_client.session = await start(lsp_client, request.param, root)  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def fresh(started: LanguageClient) -> Session:
    session: Session = started.session  # type: ignore[attr-defined]
    return session


async def until(session: Session, uri: str, predicate: Any) -> list[types.Diagnostic]:
    """`Session.until` with room for a slow, shared machine: the first index of this
    workspace may take longer than one `TIMEOUT` there."""
    for _ in range(3):
        try:
            return await session.until(uri, predicate)
        except AssertionError:
            pass
    return await session.until(uri, predicate)


def indexed(session: Session) -> bool:
    return any(any(isinstance(v, types.WorkDoneProgressEnd) for v in values)
               for values in session.client.progress_reports.values())


def shown(found: list[types.Diagnostic]) -> list[tuple[str, tuple[int, int, int, int], str]]:
    """(code, range, message) of each diagnostic, in the order given (the text is ASCII, so
    a range is the same in every position encoding)."""
    return [(str(d.code), (d.range.start.line, d.range.start.character, d.range.end.line,
                           d.range.end.character), d.message) for d in found]


async def test_own_findings_at_once_then_the_cross_file_ones(fresh: Session) -> None:
    uri = fresh.open(RESTORED, TEXT)
    first = await until(fresh, uri, bool)
    assert not indexed(fresh), "the index was in before the first diagnostics: too small"
    assert shown(first) == [LOCAL]  # not EY301: the rubrics are not all read
    final = await until(fresh, uri, lambda found: any(d.code == "EY301" for d in found))
    assert shown(final) == [LOCAL, CROSS]
    if not fresh.pull:  # every publish of the open document was for its version 1
        published = [p for p in fresh.client.published  # type: ignore[attr-defined]
                     if p.uri == uri]
        assert {p.version for p in published} == {1}
        assert [shown(list(p.diagnostics)) for p in published][-1] == \
            [LOCAL, CROSS]


async def test_an_edit_made_while_indexing_is_not_lost(fresh: Session) -> None:
    uri = fresh.open(RESTORED, TEXT)
    await until(fresh, uri, bool)
    fresh.replace(uri, "critera:", "criteria:")  # fixes EY205 before the index is in
    fixed = await until(fresh, uri, lambda found: not found or found[0].code != "EY205")
    assert shown(fixed) in ([], [CROSS])
    final = await until(fresh, uri, lambda found: any(d.code == "EY301" for d in found))
    assert shown(final) == [CROSS]  # no stale EY205 from the index's disk copy
    await fresh.ready()
    assert shown(await fresh.diagnostics(uri)) == [CROSS]


async def test_reopened_document_gets_the_same_diagnostics(fresh: Session) -> None:
    await fresh.ready()
    uri = fresh.open(RESTORED, TEXT)
    before = await until(fresh, uri, lambda found: len(found) == 2)
    assert shown(before) == [LOCAL, CROSS]
    for _ in range(2):  # closed and opened again, twice: the kept cache is taken back
        fresh.close(uri)
        closed = await fresh.closed_diagnostics(uri, lambda found: len(found) == 2)
        assert shown(closed) == [LOCAL, CROSS]  # the disk copy's, as before
        uri = fresh.open(RESTORED, TEXT)
        again = await until(fresh, uri, lambda found: len(found) == 2)
        assert again == before
    # the re-opened document edits like any other: one case changed, the rest kept
    fresh.replace(uri, "critera:", "criteria:")
    fixed = await until(fresh, uri, lambda found: len(found) == 1)
    assert shown(fixed) == [CROSS]
    fresh.replace(uri, "criteria: States", "critera: States")
    assert await until(fresh, uri, lambda found: len(found) == 2) == before
    fresh.close(uri)
    await fresh.closed_diagnostics(uri, lambda found: len(found) == 2)


async def test_reopened_with_other_text_is_analysed_afresh(fresh: Session) -> None:
    await fresh.ready()
    uri = fresh.open(RESTORED, TEXT)
    await until(fresh, uri, lambda found: len(found) == 2)
    fresh.close(uri)
    await fresh.closed_diagnostics(uri, lambda found: len(found) == 2)
    uri = fresh.open(RESTORED, TEXT.replace("critera:", "criteria:"))  # unsaved text differs
    found = await until(fresh, uri, lambda found: len(found) == 1)
    assert shown(found) == [CROSS]
    fresh.close(uri)


LARGE = "datasets/large_restored.yaml"
PAD = "lorem ipsum " * 36


def large_dataset(cases: int) -> str:
    lines = ["name: A large restored tab", "questions:"]
    for n in range(cases):
        lines += [f"  - id: q{n}", f"    input: \"{n}: {PAD}\"", "    critera: Says so.",
                  "    rubric_ref: rubric/factuality@1.2"]
    return "\n".join(lines) + "\n"


async def test_a_large_tab_restored_at_start_gets_every_case_s_findings(
        started: LanguageClient) -> None:
    """A tab large enough for the case worker, opened right after `initialize` while the server
    is still being imported: its cases are sent to the worker ahead (`lsp.early`), and what
    comes back is each case's own finding, in place, once."""
    session: Session = started.session  # type: ignore[attr-defined]
    text = large_dataset(2_400)
    assert len(text) > 1_000_000  # `early.LARGE_TEXT`: the worker takes part
    uri = session.open(LARGE, text)
    found = await until(session, uri, bool)
    message = ("unknown key 'critera' in case 'q{n}'; did you mean 'criteria'? (an unknown key "
               "is ignored, so its value has no effect)")
    assert shown(found) == [("EY205", (4 + 4 * n, 4, 4 + 4 * n, 11), message.format(n=n))
                            for n in range(2_400)]
