"""Navigation asked for right after start-up, while the workspace is still being indexed.

An editor sends `textDocument/definition` as soon as the user presses F12, often before the
index of a large workspace is in. The answer must be the target, not an empty list that makes
the user think the reference is broken.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient
from tests.lsp.conftest import SERVER, Session, make_workspace, start

FAQ = "datasets/support_faq.yaml"
FACTUALITY = "rubrics/factuality.yaml"
# Enough files that the first index takes a noticeable while (it runs in worker processes).
FILLER = {f"rubrics/filler/r{n:04d}.yaml": (
    f"id: filler_{n}\nversion: \"1.0.0\"\nchecks:\n  - kind: format\n    format: text\n"
    "scoring:\n  combine: all_pass\n") for n in range(1500)}


@pytest_lsp.fixture(config=SERVER, params=["vscode", "neovim"])
async def started(lsp_client: LanguageClient, request: pytest.FixtureRequest
                  ) -> AsyncIterator[None]:
    root = make_workspace(request.getfixturevalue("tmp_path_factory"), request.param, FILLER)
    # Deliberately not waiting for the index, unlike the other modules' sessions.
    lsp_client.session = await start(lsp_client, request.param, root)  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def fresh(started: LanguageClient) -> Session:
    session: Session = started.session  # type: ignore[attr-defined]
    return session


async def test_definition_before_the_index_is_in(fresh: Session) -> None:
    uri = fresh.open(FAQ)
    target = fresh.uri(FACTUALITY)
    result = await fresh.client.text_document_definition_async(types.DefinitionParams(
        types.TextDocumentIdentifier(uri), fresh.pos(uri, 84 - 1, 30)))
    assert list(result or []) == [types.Location(target, fresh.rng(target, 2, 4, 14))]
