"""What the editor clients now send besides YAML, over real LSP (stdio, each client's encoding):
Markdown, JSON and JSON Lines documents.

Editors send every Markdown buffer (a grader prompt is Markdown, and only the server knows
which `.md` a suite adopts), so a `.md` nothing adopts must cost nothing visible: no
diagnostics, and completion and hover answer null even on text that would be findings in an
adopted prompt. An adopted prompt edited, deleted or created *on disk* re-checks through the
file watchers, which therefore cover `.md` files too. JSON and JSON Lines opened with their own
language ids (not `yaml`) get the findings the CLI gives.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import pytest
from lsprotocol import types
from tests.lsp.conftest import TIMEOUT, TODAY, Session

pytestmark = pytest.mark.asyncio(loop_scope="module")

SUITE = "agentv/evals/support.eval.yaml"
PROMPT = "agentv/evals/prompts/support-grader.md"
# Text that the AgentV prompt checker would flag (EY623 no {{ output }}... , EY624 {{ ouput }})
# if anything adopted the file.
NOT_A_PROMPT = "# Notes 中文 😀\n\nGrade {{ ouput }} and {{ ou\n"
EEE_JSON = ("eee/mistakes/EY700-unknown-version/data/arith-demo/acme/tiny-model/"
            "5c4b3a29-1807-4f6e-9d5c-4b3a29180706.json")
EEE_JSONL = ("eee/mistakes/EY704-unknown-row-key/data/arith-demo/acme/tiny-model/"
             "5c4b3a29-1807-4f6e-9d5c-4b3a29180706_samples.jsonl")
APASTRA_JSON = "apastra/mistakes/derived-index/baselines/EY804-malformed-digest.json"


def doc(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri)


def open_as(session: Session, rel: str, language: str, text: str | None = None) -> str:
    """`Session.open` says `yaml`; editors say `markdown`, `json`, `jsonl`."""
    uri = session.uri(rel)
    if text is None:
        text = (session.root / rel).read_text("utf-8")
    session.texts[uri] = text
    session.versions[uri] = 1
    session.client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=uri, language_id=language, version=1, text=text)))
    return uri


def watched(session: Session, rel: str, change: types.FileChangeType) -> None:
    session.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        [types.FileEvent(session.uri(rel), change)]))


async def published_for(session: Session, uri: str) -> list[list[types.Diagnostic]]:
    """Every push for `uri` so far, once the server has answered a request sent after the
    open (requests and notifications are handled in order)."""
    await asyncio.wait_for(session.client.text_document_hover_async(
        types.HoverParams(doc(uri), types.Position(0, 0))), TIMEOUT)
    await asyncio.sleep(0.3)
    published: list[types.PublishDiagnosticsParams] = session.client.published  # type: ignore[attr-defined]
    return [list(p.diagnostics) for p in published if p.uri == uri]


async def no_diagnostics(session: Session, uri: str) -> None:
    if session.pull:
        assert await session.diagnostics(uri) == []
    assert all(d == [] for d in await published_for(session, uri))


async def test_watchers_cover_markdown_prompts(session: Session) -> None:
    registrations = session.client.registrations  # type: ignore[attr-defined]
    if session.name != "vscode":
        pytest.skip("this client does not register watchers dynamically")
    globs = [w["globPattern"] for r in registrations for w in r.register_options["watchers"]]
    assert globs == ["**/*.{json,jsonl,yaml,yml}", "**/*.{markdown,md,txt}", "**/evalyaml.toml",
                     "**/pyproject.toml"]


@pytest.mark.parametrize("rel", ["notes/ideas.md", "agentv/evals/prompts/unused.md",
                                 "README.md"])
async def test_a_markdown_file_nothing_adopts_gets_nothing(session: Session, rel: str) -> None:
    text = NOT_A_PROMPT if rel != "README.md" else None
    uri = open_as(session, rel, "markdown", text)
    await no_diagnostics(session, uri)
    line = 2 if text is not None else 0
    column = len(session.line_text(uri, line))
    completion = await asyncio.wait_for(session.client.text_document_completion_async(
        types.CompletionParams(doc(uri), session.pos(uri, line, column))), TIMEOUT)
    # Nothing to offer: null, or the empty list the server answers for any file not its own.
    assert completion is None or list(completion.items if isinstance(
        completion, types.CompletionList) else completion) == []
    hover = await asyncio.wait_for(session.client.text_document_hover_async(
        types.HoverParams(doc(uri), session.pos(uri, line, 8))), TIMEOUT)
    assert hover is None
    # Edits are no different: still nothing.
    session.replace(uri, session.texts[uri][:1], "#")
    await no_diagnostics(session, uri)
    session.close(uri)


# A Markdown page documenting eval files: its fenced YAML has a rubric's and a Padosoft
# dataset's first lines at column 0, which the formats' claims and the contract's shapes would
# take for the file's own if the file were YAML.
DOC_PAGE = (
    "# Writing a rubric 中文\n\n```yaml\nschema_version: eval-harness.dataset.v1\n"
    "id: helpfulness\nchecks:\n  - kind: \n```\n"
)


async def test_fenced_yaml_in_markdown_is_not_an_eval_file(session: Session) -> None:
    uri = open_as(session, "docs/writing-rubrics.md", "markdown", DOC_PAGE)
    await no_diagnostics(session, uri)
    completion = await asyncio.wait_for(session.client.text_document_completion_async(
        types.CompletionParams(doc(uri), session.pos(uri, 6, 10))), TIMEOUT)
    assert completion is None or list(completion.items if isinstance(
        completion, types.CompletionList) else completion) == []
    for line, column in ((3, 3), (5, 2), (6, 6)):
        hover = await asyncio.wait_for(session.client.text_document_hover_async(
            types.HoverParams(doc(uri), session.pos(uri, line, column))), TIMEOUT)
        assert hover is None, (line, column, hover)
    session.close(uri)


async def test_the_adopted_prompt_rechecks_when_edited_on_disk(session: Session) -> None:
    prompt = session.root / PROMPT
    original = prompt.read_text("utf-8")
    uri = session.uri(PROMPT)
    try:
        prompt.write_text(original.replace("{{ output }}", "{{ ouput }}"), "utf-8")
        watched(session, PROMPT, types.FileChangeType.Changed)
        found = await session.closed_diagnostics(
            uri, lambda d: sorted(str(x.code) for x in d) == ["EY623", "EY624"])
        assert sorted(str(d.code) for d in found) == ["EY623", "EY624"]
    finally:
        prompt.write_text(original, "utf-8")
        watched(session, PROMPT, types.FileChangeType.Changed)
    assert await session.closed_diagnostics(uri, lambda d: d == []) == []


async def test_a_prompt_deleted_and_created_on_disk_rechecks_the_suite(session: Session) -> None:
    prompt = session.root / PROMPT
    original = prompt.read_bytes()
    suite = session.open(SUITE)
    assert await session.diagnostics(suite) == []
    try:
        prompt.unlink()
        watched(session, PROMPT, types.FileChangeType.Deleted)
        found = await session.until(suite, lambda d: len(d) == 1)
        assert [str(d.code) for d in found] == ["EY621"]
        assert found[0].range.start == session.find(suite, "file://prompts/support-grader.md")
    finally:
        prompt.write_bytes(original)
        watched(session, PROMPT, types.FileChangeType.Created)
    assert await session.until(suite, lambda d: d == []) == []
    session.close(suite)


def cli_findings(session: Session, rel: str) -> list[tuple[str, int, int, int, int, str]]:
    """What `evalyaml check` says about the file, in code points."""
    proc = subprocess.run(
        [sys.executable, "-m", "evalyaml", "check", "--format", "json", "--today", TODAY, rel],
        cwd=session.root, capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode in (0, 1), proc.stderr
    out = []
    for f in json.loads(proc.stdout):
        r = f["range"]
        out.append((f["code"], r["start"]["line"], r["start"]["character"],
                    r["end"]["line"], r["end"]["character"], f["message"]))
    return out


@pytest.mark.parametrize(("rel", "language"), [
    (EEE_JSON, "json"), (EEE_JSONL, "jsonl"), (APASTRA_JSON, "json")])
async def test_json_and_jsonl_get_what_the_cli_gives(session: Session, rel: str,
                                                     language: str) -> None:
    expected = cli_findings(session, rel)
    assert expected, f"{rel} is a mistake file: the CLI finds something"
    uri = open_as(session, rel, language)
    found = await session.until(uri, lambda d: len(d) == len(expected))
    assert sorted((str(d.code), d.range, d.message) for d in found) == sorted(
        (code, session.rng(uri, sl, sc, ec, el), message)
        for code, sl, sc, el, ec, message in expected)
    session.close(uri)
