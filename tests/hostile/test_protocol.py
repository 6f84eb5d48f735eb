"""Hostile protocol: odd URIs and positions, stale and repeated versions, notifications out of
order, cancellation, malformed messages, bursts of edits, and shutdown/exit at awkward times.

Every request must be answered within the bound, the server must stay up (a request answered
afterwards), the diagnostics left behind must be those of a fresh analysis, and the exit status
must be 0 after `shutdown` + `exit` (1 after `exit` alone, as the specification says).
"""

from __future__ import annotations

import os
import time
import uuid
from pathlib import Path
from typing import Any

import pytest
from tests.hostile.harness import (
    BOUND,
    EXAMPLES,
    LspProcess,
    assert_alive,
    compare,
    copy_examples,
    expected_keys,
    finish,
    fresh_findings,
    ranges_in,
    server_env,
    soak,
    start_server,
    stderr_of,
)

FAQ = "datasets/support_faq.yaml"
TYPING = 5.0  # seconds of nonstop typing within which a request must be answered

URIS = ["untitled:Untitled-1", "http://example.com/x.yaml", "file:///does/not/exist.yaml",
        "file://%zz", "not a uri", "", "file:///etc/passwd", "file:///tmp/../../etc/shadow",
        "file:///" + "a/" * 2000 + "x.yaml"]


def document_requests(uri: str, line: int = 0, character: int = 0) -> list[tuple[str, Any]]:
    doc = {"uri": uri}
    pos = {"line": line, "character": character}
    rng = {"start": pos, "end": pos}
    return [
        ("textDocument/hover", {"textDocument": doc, "position": pos}),
        ("textDocument/completion", {"textDocument": doc, "position": pos}),
        ("textDocument/definition", {"textDocument": doc, "position": pos}),
        ("textDocument/references", {"textDocument": doc, "position": pos,
                                     "context": {"includeDeclaration": True}}),
        ("textDocument/documentSymbol", {"textDocument": doc}),
        ("textDocument/codeLens", {"textDocument": doc}),
        ("textDocument/documentLink", {"textDocument": doc}),
        ("textDocument/codeAction", {"textDocument": doc, "range": rng,
                                     "context": {"diagnostics": []}}),
        ("textDocument/prepareRename", {"textDocument": doc, "position": pos}),
        ("textDocument/rename", {"textDocument": doc, "position": pos, "newName": "abc"}),
        ("textDocument/diagnostic", {"textDocument": doc}),
    ]


EMPTY: tuple[Any, ...] = (None, [], {"isIncomplete": False, "items": []},
                          {"kind": "full", "items": []})


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Any:
    tmp = tmp_path_factory.mktemp("protocol")
    root = copy_examples(tmp / "ws")
    server = start_server(root, tmp)
    yield server, root, tmp
    finish(server, tmp, allow_tracebacks=True)


def test_unknown_uris_get_empty_answers(served: Any) -> None:
    server, root, _ = served
    unopened = (root / "datasets" / "agent_tasks.yaml").as_uri()
    for uri in [*URIS, unopened]:
        for method, params in document_requests(uri, 3, 4):
            answer = server.request(method, params, BOUND)
            assert answer.get("result", "error") in EMPTY, (uri[:60], method, answer)
    assert_alive(server)


def test_positions_past_the_end(served: Any) -> None:
    server, root, _ = served
    uri = (root / FAQ).as_uri()
    text = (root / FAQ).read_text("utf-8") + "  - id: emoji\n    input: 😀😀 done\n"
    server.open(uri, text, 1)
    lines = soak.Lines(text)
    last = len(lines.starts) - 1
    inside_emoji = {"line": last - 1, "character": len("    input: ") + 1}  # half a surrogate
    try:
        for line, character in [(10**6, 0), (0, 10**6), (last, 10**6), (2**31 - 1, 2**31 - 1),
                                (inside_emoji["line"], inside_emoji["character"])]:
            for method, params in document_requests(uri, line, character):
                answer = server.request(method, params, BOUND)
                assert "error" not in answer, (line, character, method, answer)
                for rng in ranges_in(answer.get("result"), uri):
                    problem = lines.valid_range(rng, "utf-16")
                    assert problem is None, (method, line, character, problem)
        published = server.wait_publish(uri, 1, BOUND)
        assert compare(expected_keys(fresh_findings(root, {root / FAQ: text})[root / FAQ],
                                     text, uri, "utf-16"), published["diagnostics"]) is None
    finally:
        server.close_document(uri)
    assert_alive(server)


def test_invalid_params_get_an_error_answer(served: Any) -> None:
    """Params that do not deserialize (a negative position, a string id): an InvalidParams
    error with the request's id; a notification like that is dropped; the server stays up."""
    server, root, _ = served
    uri = (root / FAQ).as_uri()
    answer = server.request("textDocument/hover", {
        "textDocument": {"uri": uri}, "position": {"line": -1, "character": 0}}, 3)
    assert answer.get("error", {}).get("code") == -32602
    server.send({"jsonrpc": "2.0", "id": "bad-params", "method": "textDocument/definition",
                 "params": {"textDocument": {"uri": uri}, "position": {"line": "x"}}})
    assert server.response("bad-params", 3)["error"]["code"] == -32602
    server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": -5},
                                             "contentChanges": [{"range": 7, "text": 1}]})
    assert_alive(server)


def test_malformed_messages_are_survived(served: Any) -> None:
    server, _, _ = served
    for body in [b"{{{{{", b"[]", b"42", b"null", b'"text"', b'{"jsonrpc": "2.0"}',
                 b'{"jsonrpc": "1.0", "id": 5, "method": "shutdown"}',
                 b'{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": 7}',
                 b'{"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {}}',
                 b'{"jsonrpc": "2.0", "method": "$/unknownNotification", "params": {}}',
                 b'{"jsonrpc": "2.0", "id": "str-id", "result": null}',
                 b"{\"jsonrpc\": \"2.0\", \"method\": \"x\", \"params\": \"\\udc80\"}"]:
        server.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    unknown = server.request("evalyaml/noSuchMethod", {}, BOUND)
    assert unknown["error"]["code"] == -32601
    string_id = {"jsonrpc": "2.0", "id": "req-1", "method": "workspace/symbol",
                 "params": {"query": "safety"}}
    server.send(string_id)
    assert "result" in server.response("req-1", BOUND)
    assert_alive(server)


def test_junk_settings_and_commands(served: Any) -> None:
    """Settings of the wrong types and commands with junk arguments: answered, survived, and
    diagnostics still arrive afterwards."""
    server, root, _ = served
    for settings in [{"evalyaml": {"strict": "maybe", "freshnessDays": "9" * 5000,
                                   "include": 5, "exclude": {"a": 1}}},
                     {"evalyaml": None}, [], "x", {"evalyaml": {"freshnessDays": -10**30}}]:
        server.notify("workspace/didChangeConfiguration", {"settings": settings})
    for command, arguments in [("evalyaml.showReferences", [None, 5, {"x": []}]),
                               ("evalyaml.noSuchCommand", []), ("", None)]:
        params: dict[str, Any] = {"command": command}
        if arguments is not None:
            params["arguments"] = arguments
        answer = server.request("workspace/executeCommand", params, BOUND)
        assert "result" in answer or "error" in answer
    server.notify("workspace/didChangeWorkspaceFolders", {"event": {
        "added": [{"uri": "file:///does/not/exist", "name": "x"}], "removed": []}})
    server.notify("workspace/didChangeWorkspaceFolders", {"event": {
        "added": [], "removed": [{"uri": "file:///does/not/exist", "name": "x"}]}})
    server.notify("workspace/didChangeConfiguration", {"settings": {"evalyaml": {}}})
    path = root / "datasets" / "after_junk.yaml"
    text = soak.MODELINE + "\nquestions:\n  - id: a\n    expecteed_facts: [x]\n"
    server.open(path.as_uri(), text, 1)
    published = server.wait_publish(path.as_uri(), 1, BOUND)
    assert [d["code"] for d in published["diagnostics"]] == ["EY201", "EY205"]
    server.close_document(path.as_uri())
    assert_alive(server)


def test_stale_and_out_of_order_notifications(served: Any) -> None:
    server, root, _ = served
    uri = (root / "datasets" / "scratch.yaml").as_uri()
    path = root / "datasets" / "scratch.yaml"
    broken = soak.MODELINE + "\nquestions:\n  - id: a\n    expecteed_facts: [x]\n"
    fixed = soak.MODELINE + "\nquestions:\n  - id: a\n    input: b\n"
    # Changes and closes for a document never opened are ignored.
    server.change(uri, 3, [{"text": broken}])
    server.close_document(uri)
    server.close_document(uri)
    # Opened, then changed with versions that go backwards and then repeat.
    server.open(uri, fixed, 10)
    server.change(uri, 11, [{"text": broken}])
    server.change(uri, 5, [{"text": fixed + "    criteria: c\n"}])
    server.change(uri, 12, [{"text": broken}])
    published = server.wait_publish(uri, 12, BOUND)
    expected = expected_keys(fresh_findings(root, {path: broken})[path], broken, uri, "utf-16")
    assert expected and compare(expected, published["diagnostics"]) is None
    time.sleep(1.0)
    assert server.last_published(uri)["version"] == 12  # nothing older published later
    # Opened again while open: the new text wins.
    server.open(uri, fixed, 13)
    published = server.wait_publish(uri, 13, BOUND)
    assert published["diagnostics"] == []
    server.close_document(uri)
    # A change after the close is ignored and leaves no diagnostics behind.
    server.change(uri, 14, [{"text": broken}])
    time.sleep(0.5)
    assert server.last_published(uri)["diagnostics"] == []
    assert_alive(server)


def test_a_repeated_version_is_still_analysed(served: Any) -> None:
    server, root, _ = served
    path = root / "datasets" / "repeat.yaml"
    uri = path.as_uri()
    clean = soak.MODELINE + "\nquestions:\n  - id: a\n    input: b\n"
    broken = soak.MODELINE + "\nquestions:\n  - id: a\n    expecteed_facts: [x]\n"
    server.open(uri, clean, 1)
    server.wait_publish(uri, 1, BOUND)
    server.change(uri, 2, [{"text": clean + "    criteria: c\n"}])
    server.wait_publish(uri, 2, BOUND)
    server.change(uri, 2, [{"text": broken}])  # a buggy client reuses the version number
    try:
        expected = expected_keys(fresh_findings(root, {path: broken})[path], broken, uri,
                                 "utf-16")
        server.wait_until(lambda: compare(expected, server.last_published(uri)["diagnostics"])
                          is None, 3, "diagnostics of the re-used version")
    finally:
        server.close_document(uri)


def test_cancel_requests(served: Any) -> None:
    """Cancelled requests are still answered (a result or RequestCancelled), never dropped."""
    server, root, _ = served
    path = root / FAQ
    uri = path.as_uri()
    text = path.read_text("utf-8")
    server.open(uri, text, 1)
    server.notify("$/cancelRequest", {"id": 987654})  # an id never used
    ids = []
    for version in range(2, 60):
        text = text.replace("reset_password", f"reset_password{version}", 1) \
            if version % 2 else text.replace(f"reset_password{version - 1}", "reset_password")
        server.change(uri, version, [{"text": text}])
        for method, params in document_requests(uri, 5, 8)[:7]:
            msg_id = server.request_async(method, params)
            server.notify("$/cancelRequest", {"id": msg_id})
            ids.append(msg_id)
    cancelled = 0
    for msg_id in ids:
        answer = server.response(msg_id, BOUND)
        if "error" in answer:
            assert answer["error"]["code"] == -32800, answer
            cancelled += 1
    server.notify("$/cancelRequest", {"id": ids[0]})  # already answered
    published = server.wait_publish(uri, 59, BOUND)
    expected = expected_keys(fresh_findings(root, {path: text})[path], text, uri, "utf-16")
    assert compare(expected, published["diagnostics"]) is None
    server.close_document(uri)
    assert_alive(server)


def test_a_burst_of_a_thousand_edits_a_second(served: Any) -> None:
    """1,000 keystrokes sent as fast as the pipe takes them (three times): the last version's
    diagnostics equal a fresh analysis, every request in between is answered, and memory
    stays bounded."""
    server, root, _ = served
    path = root / FAQ
    uri = path.as_uri()
    text = path.read_text("utf-8")
    version = 100
    server.open(uri, text, version)
    server.wait_publish(uri, version, BOUND)
    rss = []
    for burst in range(3):
        started = time.monotonic()
        at = text.index("How do I get back in?")
        pending = []
        for index in range(1000):
            version += 1
            if index % 2 == 0:  # type a character
                char = "é😀a:\" #"[index % 7]
                server.change(uri, version, [{"range": soak.Lines(text).range(at, at, "utf-16"),
                                              "text": char}])
                text = text[:at] + char + text[at:]
                at += 1
            else:  # and sometimes delete the one before it
                server.change(uri, version, [{
                    "range": soak.Lines(text).range(at - 1, at, "utf-16"), "text": ""}])
                text = text[: at - 1] + text[at:]
                at -= 1
                if index % 3 == 0:
                    server.change(uri, version, [{"range": soak.Lines(text).range(
                        at, at, "utf-16"), "text": "x"}])
                    text = text[:at] + "x" + text[at:]
                    at += 1
            if index % 100 == 0:
                pending.append(server.request_async("textDocument/hover", {
                    "textDocument": {"uri": uri}, "position": {"line": 6, "character": 8}}))
        sent = time.monotonic() - started
        for msg_id in pending:
            assert "result" in server.response(msg_id, BOUND)
        published = server.wait_publish(uri, version, BOUND)
        expected = expected_keys(fresh_findings(root, {path: text})[path], text, uri, "utf-16")
        assert compare(expected, published["diagnostics"]) is None, f"burst {burst}"
        rss.append(server.rss_mb())
        print(f"burst {burst}: 1,000 edits sent in {sent:.1f} s; RSS {rss[-1]:.0f} MB")
    assert rss[-1] - rss[0] < 30, rss
    server.close_document(uri)
    assert_alive(server)


def test_requests_after_shutdown_get_an_error(tmp_path: Path) -> None:
    server = start_server(None, tmp_path, wait_index=False)
    try:
        server.call("shutdown", None, BOUND)
        answer = server.request("workspace/symbol", {"query": "x"}, 3)
        assert answer["error"]["code"] == -32600
        answer = server.request("textDocument/hover", {
            "textDocument": {"uri": "file:///x.yaml"}, "position": {"line": -1, "character": 0}},
            3)
        assert answer["error"]["code"] == -32600
        server.notify("exit")
        assert server.wait_exit(BOUND) == 0
    finally:
        server.kill()


def test_exit_without_shutdown_is_status_1(tmp_path: Path) -> None:
    server = start_server(None, tmp_path, wait_index=False)
    server.notify("exit")
    try:
        assert server.wait_exit(BOUND) == 1
    finally:
        server.kill()


def test_requests_before_initialize_are_answered(tmp_path: Path) -> None:
    server = LspProcess(cwd=tmp_path, env=server_env(), stderr=tmp_path / "server.err")
    try:
        for method, params in document_requests("file:///x.yaml"):
            answer = server.request(method, params, BOUND)
            assert answer.get("result", "error") in EMPTY or "error" in answer
        server.initialize(None)
        assert_alive(server)
    finally:
        finish(server, tmp_path, allow_tracebacks=True)


# ------------------------------------------------------------------------ shutdown while indexing
def big_workspace(root: Path, files: int) -> None:
    """`files` rubrics and datasets: enough for the index to use worker processes."""
    root.mkdir(parents=True)
    (root / "evalyaml.toml").write_bytes(b"")
    rubric = (EXAMPLES / "rubrics" / "support_quality.yaml").read_text("utf-8")
    dataset = (EXAMPLES / "datasets" / "support_faq.yaml").read_text("utf-8")
    for folder in ("rubrics", "datasets"):
        (root / folder).mkdir()
    for index in range(files):
        if index % 2:
            (root / "rubrics" / f"r{index}.yaml").write_text(
                rubric.replace("id: support_quality", f"id: r{index}"), "utf-8")
        else:
            (root / "datasets" / f"d{index}.yaml").write_text(dataset, "utf-8")


def marked_processes(marker: str) -> list[int]:
    """Processes whose environment carries `marker` (the server and anything it started)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as env:
                if marker.encode() in env.read():
                    found.append(int(entry))
        except OSError:
            continue
    return found


@pytest.fixture(scope="module")
def big_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("big") / "ws"
    big_workspace(root, 3000)
    return root


@pytest.mark.parametrize("how", [
    "shutdown+exit", "exit", "eof"])
def test_leaving_during_indexing(big_root: Path, tmp_path: Path, how: str) -> None:
    """Shutdown and exit (or exit alone, or the client vanishing) while a 3,000-file index is
    being built in worker processes: the server exits within the bound, with status 0 after
    shutdown, and leaves no process behind."""
    marker = f"EVALYAML_HOSTILE_RUN={uuid.uuid4()}"
    name, _, value = marker.partition("=")
    server = LspProcess(cwd=tmp_path, env=server_env(**{name: value}),
                        stderr=tmp_path / "server.err")
    try:
        server.initialize(big_root)
        time.sleep(1.0)  # the indexer has started (and with it, the workers)
        assert not server.progress_ended(), "indexing finished too early to test this"
        started = time.monotonic()
        if how == "shutdown+exit":
            server.call("shutdown", None, BOUND)
            server.notify("exit")
        elif how == "exit":
            server.notify("exit")
        else:
            assert server.proc.stdin is not None
            server.proc.stdin.close()
        code = server.wait_exit(BOUND)
        took = time.monotonic() - started
        deadline = time.monotonic() + BOUND
        while marked_processes(marker) and time.monotonic() < deadline:
            time.sleep(0.2)
        left = marked_processes(marker)
        assert not left, f"processes left behind: {left}"
        assert code == (0 if how == "shutdown+exit" else 1) or how == "eof", code
        print(f"{how}: exited with {code} after {took:.1f} s")
    finally:
        server.kill()
    errors = stderr_of(tmp_path)
    assert "Fatal Python error" not in errors


class TypingAbove:
    """A 2,000-case dataset with a comment line typed above its cases every 3 ms: version v
    holds v - 1 such lines, so every case line of the original moved down by v - 1."""

    def __init__(self, tmp_path: Path) -> None:
        root = tmp_path / "ws"
        self.path = soak.write_workspace(root, 2000)
        self.root = root
        self.uri = self.path.as_uri()
        self.text = self.path.read_text("utf-8")
        self.lines = self.text.split("\n")
        self.typing_at = self.lines.index("questions:")
        self.version = 1
        self.server = start_server(root, tmp_path)
        self.server.open(self.uri, self.text, 1)
        self.server.wait_publish(self.uri, 1, BOUND)

    def keystroke(self) -> None:
        self.version += 1
        here = {"line": self.typing_at, "character": 0}
        self.server.change(self.uri, self.version, [{"range": {"start": here, "end": here},
                                                     "text": f"# {self.version}\n"}])
        time.sleep(0.003)

    def original_line(self, line: int, version: int) -> str:
        """Line `line` of version `version`, as the original line it is (typed lines: '')."""
        moved = version - 1
        if line < self.typing_at:
            return self.lines[line]
        return "" if line < self.typing_at + moved else self.lines[line - moved]


def test_requests_are_answered_while_typing_goes_on(tmp_path: Path) -> None:
    """A request that needs the analysis (document symbols) is answered while the user keeps
    typing, not when typing pauses: every analysis reads the newest text, so the request's own
    text may never be analysed, and an analysis of a newer text must answer it. The symbols
    returned must then all belong to one text, no older than the request's."""
    typing = TypingAbove(tmp_path)  # above the cases: each keystroke re-reads them all
    server = typing.server
    ids = [line.removeprefix("  - id: ") for line in typing.lines
           if line.startswith("  - id: ")]
    asked_at = 20
    msg_id = -1
    answered_at, asked, waited = None, 0.0, 0.0
    typing_until = time.monotonic() + TYPING
    while time.monotonic() < typing_until:
        typing.keystroke()
        if typing.version == asked_at:
            msg_id = server.request_async("textDocument/documentSymbol",
                                          {"textDocument": {"uri": typing.uri}})
            asked = time.monotonic()
        elif msg_id in server.responses:
            answered_at, waited = typing.version, time.monotonic() - asked
            break
    assert answered_at is not None, f"no answer during {TYPING:.0f} s of typing"
    symbols = server.response(msg_id, BOUND)["result"]
    assert [s["name"] for s in symbols] == ids
    # Version v has v - 1 comment lines above the cases: every case moved down as many.
    first = typing.lines.index(f"  - id: {ids[0]}")
    answered_from = symbols[0]["selectionRange"]["start"]["line"] - first + 1
    assert asked_at <= answered_from <= answered_at
    for symbol in symbols:
        line = typing.original_line(symbol["selectionRange"]["start"]["line"], answered_from)
        assert line == f"  - id: {symbol['name']}", symbol
    print(f"asked at version {asked_at}, answered from version {answered_from} after "
          f"{waited * 1000:.0f} ms, while version {answered_at} was being typed")
    finish(server, tmp_path)


def test_a_position_means_the_place_it_named_in_its_own_text(tmp_path: Path) -> None:
    """References asked while lines are typed above the position: the answer is about the
    reference that was at the position in the request's text, or ContentModified (-32801)
    when that cannot be known; never about whatever a newer text has there."""
    typing = TypingAbove(tmp_path)
    server, uri = typing.server, typing.uri
    target = next(i for i, line in enumerate(typing.lines)
                  if line.endswith("rubric_ref: rubric/factuality@1.2"))
    column = typing.lines[target].index("factuality")

    def ask() -> int:
        return server.request_async("textDocument/references", {
            "textDocument": {"uri": uri}, "context": {"includeDeclaration": True},
            "position": {"line": target + typing.version - 1, "character": column}})

    asked = []
    while len(asked) < 20:
        typing.keystroke()
        if typing.version % 10 == 0:
            asked.append(ask())
    answers = [server.response(msg_id, BOUND) for msg_id in asked]
    final = server.response(ask(), BOUND)  # typing has stopped: this one has its answer
    for answer in [*answers, final]:
        if "error" in answer:
            assert answer["error"]["code"] == -32801, answer
            continue
        files = {location["uri"].rsplit("/", 1)[-1] for location in answer["result"]}
        assert "factuality.yaml" in files, answer["result"][:3]
    assert "result" in final
    modified = sum("error" in answer for answer in answers)
    print(f"{len(answers)} references asked while typing: {modified} ContentModified, "
          f"{len(answers) - modified} answered about the right reference")
    finish(server, tmp_path)


def test_a_rename_names_the_version_its_edits_are_for(tmp_path: Path) -> None:
    """A rename asked while another open file is being typed in: every edit it returns lies
    on the renamed reference in the version it names, or the answer is ContentModified."""
    typing = TypingAbove(tmp_path)
    server = typing.server
    rubric = typing.root / "rubrics" / "factuality.yaml"
    rubric_text = rubric.read_text("utf-8")
    server.open(rubric.as_uri(), rubric_text, 1)
    id_line = rubric_text.split("\n").index("id: factuality")

    def ask() -> int:
        return server.request_async("textDocument/rename", {
            "textDocument": {"uri": rubric.as_uri()}, "newName": "factual",
            "position": {"line": id_line, "character": 5}})

    asked = []
    while len(asked) < 10:
        typing.keystroke()
        if typing.version % 10 == 0:
            asked.append(ask())
    server.wait_publish(typing.uri, typing.version, BOUND)
    asked.append(ask())  # typing has stopped: this one has its edits
    checked = modified = 0
    for msg_id in asked:
        answer = server.response(msg_id, BOUND)
        if "error" in answer:
            assert answer["error"]["code"] == -32801, answer
            modified += 1
            continue
        for change in answer["result"]["documentChanges"]:
            if change["textDocument"]["uri"] != typing.uri:
                continue
            version = change["textDocument"]["version"]
            for edit in change["edits"]:
                start, end = edit["range"]["start"], edit["range"]["end"]
                line = typing.original_line(start["line"], version)
                assert line[start["character"]:end["character"]] == "factuality", (version, edit)
                checked += 1
    assert modified < len(asked) and checked >= 1000  # half the 2,000 cases name factuality
    print(f"{len(asked)} renames asked, the last after typing: {modified} ContentModified; "
          f"{checked} dataset edits checked")
    finish(server, tmp_path)
