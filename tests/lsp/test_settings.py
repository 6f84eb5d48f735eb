"""Settings (workspace/configuration, didChangeConfiguration), the config file, watched files
and the initial indexing's progress."""

from __future__ import annotations

import pytest
from lsprotocol import types
from tests.lsp.conftest import Session

pytestmark = pytest.mark.asyncio(loop_scope="module")

# The editor turns strict mode on; examples/evalyaml.toml says strict = false.
SETTINGS = {"strict": True}

TYPO = "mistakes/datasets/EY205-typo-expected_tool.yaml"
HELPFULNESS = (
    "id: helpfulness\n"
    'version: "1.0.0"\n'
    "checks:\n"
    "  - kind: format\n"
    "    format: text\n"
    "scoring:\n"
    "  combine: all_pass\n"
)


def severities(diagnostics: list[types.Diagnostic]) -> list[tuple[str, int]]:
    return [(str(d.code), int(d.severity or 0)) for d in diagnostics]


async def test_progress_and_watchers(session: Session) -> None:
    reports = session.client.progress_reports
    values = [v for token_values in reports.values() for v in token_values]
    assert isinstance(values[0], types.WorkDoneProgressBegin)
    assert values[0].title == "Indexing eval files"
    assert isinstance(values[-1], types.WorkDoneProgressEnd)
    registrations = session.client.registrations  # type: ignore[attr-defined]
    if session.name == "vscode":  # dynamic registration of watched files
        assert [r.method for r in registrations] == ["workspace/didChangeWatchedFiles"]
        globs = [w["globPattern"] for w in registrations[0].register_options["watchers"]]
        assert globs == ["**/*.{json,jsonl,yaml,yml}", "**/*.{markdown,md,txt}", "**/evalyaml.toml",
                         "**/pyproject.toml"]
    else:
        assert registrations == []


async def test_editor_setting_wins_over_the_file(session: Session) -> None:
    uri = session.open(TYPO)
    assert severities(await session.diagnostics(uri)) == [("EY205", 1)]


async def test_did_change_configuration(session: Session) -> None:
    uri = session.uri(TYPO)
    judge = session.open("judges/accuracy.yaml")  # validated 19 days before TODAY
    assert await session.diagnostics(judge) == []
    settings = {"strict": False, "freshnessDays": 10}
    session.client.set_configuration({"evalyaml": settings})
    session.client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"evalyaml": settings}))
    assert severities(await session.until(uri, lambda d: d and d[0].severity == 2)) == [
        ("EY205", 2)]
    stale = await session.until(judge, lambda d: len(d) == 1)
    assert severities(stale) == [("EY403", 2)]
    assert stale[0].message.startswith("this judge was validated 19 days ago (2026-11-02)")
    session.close(judge)


async def test_editor_rules_replace_the_files(session: Session) -> None:
    """The rule keys mirror the configuration file's (camelCase): each one the editor sets
    replaces the file's, and the longest prefix decides as in the file."""
    uri = session.uri(TYPO)
    for settings, expected in (
            ({"ignore": ["EY205"]}, []),
            ({"severity": {"EY205": "hint"}}, [("EY205", 4)]),
            ({"perFileIgnores": {"mistakes/**": ["EY2"]}}, []),
            ({"ignore": ["EY"], "extendSelect": ["EY2"]}, [("EY205", 2)]),
            ({"extend-ignore": ["EY205"]}, [])):
        session.client.set_configuration({"evalyaml": settings})
        session.client.workspace_did_change_configuration(
            types.DidChangeConfigurationParams(settings={"evalyaml": settings}))
        found = await session.until(uri, lambda d, want=expected: severities(d) == want)
        assert severities(found) == expected, settings


async def test_config_file_applies_when_the_editor_is_silent(session: Session) -> None:
    uri = session.uri(TYPO)
    session.client.set_configuration({"evalyaml": {}})
    session.client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"evalyaml": {}}))
    config = session.root / "evalyaml.toml"
    config.write_text(config.read_text("utf-8").replace("strict = false", "strict = true"))
    session.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        [types.FileEvent(config.as_uri(), types.FileChangeType.Changed)]))
    assert severities(await session.until(uri, lambda d: d and d[0].severity == 1)) == [
        ("EY205", 1)]
    session.close(uri)


async def test_watched_files_keep_the_index_current(session: Session) -> None:
    uri = session.open("mistakes/datasets/EY301-dangling-rubric-ref.yaml")
    assert [d.code for d in await session.until(uri, lambda d: len(d) == 1)] == ["EY301"]
    created = session.root / "rubrics" / "helpfulness.yaml"
    created.write_text(HELPFULNESS)
    session.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        [types.FileEvent(created.as_uri(), types.FileChangeType.Created)]))
    assert await session.until(uri, lambda d: not d) == []
    created.unlink()
    session.client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        [types.FileEvent(created.as_uri(), types.FileChangeType.Deleted)]))
    assert [d.code for d in await session.until(uri, lambda d: len(d) == 1)] == ["EY301"]
    session.close(uri)
