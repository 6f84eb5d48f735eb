"""Soak test: the language server under scripted editing for a long time, memory sampled.

Spawns `python -m evalyaml lsp`, opens a generated 1,000-case dataset (in a copy of the
example workspace, so its references resolve) and edits it the way a person does, only much
faster: typing and deleting words inside a case, pasting a whole new case and cutting one,
breaking the YAML and repairing it, and undoing each of those. Hover, completion, document
symbols, code lenses and definitions are requested between the edits. The server's resident
memory (`VmRSS` from /proc) is sampled every `--interval` seconds (10 by default).

At the end it prints the RSS curve and its least-squares slope in MB/min (over the whole run and
over its second half, after warm-up), checks that every request was answered without an error
(ContentModified, -32801, is counted apart: it is how a server says "ask again"), and that the
diagnostics published for the final version equal a fresh, in-process analysis of the final
text (the same engine: `evalyaml.workspace.index.Workspace`). Exit status 0 when all of that
holds and the server exits with status 0 after `shutdown` + `exit`, else 1.

    python bench/soak.py                  # 30 minutes
    python bench/soak.py --minutes 5 --rate 200 --cases 1000 --keep

Standard library and evalyaml only. This module also holds the small stdio LSP driver
(`LspProcess`), the position conversion written independently of the server's, and the
fresh-analysis oracle that the hostile tests (`tests/hostile/`) use.
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import random
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
TODAY = "2026-11-21"
MODELINE = "# yaml-language-server: $schema=https://evalyaml.dev/schemas/v1/dataset.schema.json"

Json = dict[str, Any]
CONTENT_MODIFIED = -32801


# ------------------------------------------------------------------------------- the driver
class Hang(AssertionError):
    """The server did not answer (or publish) within the bound."""


class LspProcess:
    """A language server over stdio, driven by raw JSON-RPC messages.

    A reader thread collects responses (by id), notifications and the server's own requests;
    requests from the server (`window/workDoneProgress/create`, `client/registerCapability`,
    `workspace/configuration`, the refresh requests) are answered at once, like an editor does.
    Nothing here validates what the server sends: callers assert what they care about.
    """

    def __init__(self, command: list[str] | None = None, *, cwd: Path | None = None,
                 env: dict[str, str] | None = None, stderr: Path | None = None,
                 configuration: Any = None) -> None:
        command = command or [sys.executable, "-m", "evalyaml", "lsp"]
        self._stderr_file = stderr.open("wb") if stderr is not None else None
        self.proc = subprocess.Popen(
            command, cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=self._stderr_file if self._stderr_file is not None else subprocess.DEVNULL)
        self.configuration = configuration
        self._write_lock = threading.Lock()
        self._cond = threading.Condition()
        self._ids = itertools.count(1)
        self.responses: dict[int | str, Json] = {}
        self.answered_at: dict[int | str, float] = {}  # id -> when the reader thread got it
        self.notifications: list[Json] = []
        self.server_requests: list[Json] = []
        self.orphan_errors: list[Json] = []
        self.read_error: str | None = None
        self.eof = False
        self._reader = threading.Thread(target=self._read, name="lsp-reader", daemon=True)
        self._reader.start()

    @property
    def pid(self) -> int:
        return self.proc.pid

    # -- writing ----------------------------------------------------------------------------
    def send_raw(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        with self._write_lock:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()

    def send(self, message: Json) -> None:
        body = json.dumps(message, ensure_ascii=False).encode("utf-8")
        self.send_raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method: str, params: Any = None) -> None:
        message: Json = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    def request_async(self, method: str, params: Any = None) -> int:
        msg_id = next(self._ids)
        message: Json = {"jsonrpc": "2.0", "id": msg_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return msg_id

    def response(self, msg_id: int | str, timeout: float = 20.0) -> Json:
        """The whole response message (`result` or `error`); `Hang` after `timeout`."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while msg_id not in self.responses:
                left = deadline - time.monotonic()
                if left <= 0 or self.eof:
                    raise Hang(f"no response to request {msg_id} within {timeout:.0f} s"
                               + (" (the server closed its output)" if self.eof else ""))
                self._cond.wait(min(left, 0.5))
            self.answered_at.pop(msg_id, None)
            return self.responses.pop(msg_id)

    def request(self, method: str, params: Any = None, timeout: float = 20.0) -> Json:
        return self.response(self.request_async(method, params), timeout)

    def call(self, method: str, params: Any = None, timeout: float = 20.0) -> Any:
        """The `result` of a request; AssertionError on an error response."""
        answer = self.request(method, params, timeout)
        if "error" in answer:
            raise AssertionError(f"{method} failed: {answer['error']}")
        return answer.get("result")

    # -- reading ----------------------------------------------------------------------------
    def _read(self) -> None:
        stream = self.proc.stdout
        assert stream is not None
        try:
            while True:
                length = None
                while True:
                    line = stream.readline()
                    if not line:
                        return
                    line = line.strip()
                    if not line:
                        break
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value.strip())
                if length is None:
                    self.read_error = "a message without Content-Length"
                    return
                message = json.loads(stream.read(length))
                self._dispatch(message)
        except Exception as err:  # pragma: no cover - reported through read_error
            self.read_error = f"{type(err).__name__}: {err}"
        finally:
            with self._cond:
                self.eof = True
                self._cond.notify_all()

    def _dispatch(self, message: Json) -> None:
        if "method" in message and "id" in message:
            with self._cond:
                self.server_requests.append(message)
            self._answer(message)
        elif "method" in message:
            with self._cond:
                self.notifications.append(message)
                self._cond.notify_all()
        else:
            msg_id = message.get("id")
            with self._cond:
                if isinstance(msg_id, int | str):
                    self.responses[msg_id] = message
                    self.answered_at[msg_id] = time.monotonic()
                else:  # an error about a message the server could not read
                    self.orphan_errors.append(message)
                self._cond.notify_all()

    def _answer(self, message: Json) -> None:
        result: Any = None
        if message["method"] == "workspace/configuration":
            items = message.get("params", {}).get("items", [])
            result = [self.configuration for _ in items]
        with contextlib.suppress(BrokenPipeError, ValueError, OSError):
            self.send({"jsonrpc": "2.0", "id": message["id"], "result": result})

    # -- waiting ----------------------------------------------------------------------------
    def wait_until(self, predicate: Callable[[], Any], timeout: float = 20.0,
                   what: str = "a condition") -> Any:
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                value = predicate()
                if value:
                    return value
                left = deadline - time.monotonic()
                if left <= 0:
                    raise Hang(f"{what}: not within {timeout:.0f} s")
                self._cond.wait(min(left, 0.2))

    def published(self, uri: str | None = None) -> list[Json]:
        """publishDiagnostics params so far, oldest first (for one uri, or all)."""
        with self._cond:
            return [n["params"] for n in self.notifications
                    if n["method"] == "textDocument/publishDiagnostics"
                    and (uri is None or n["params"]["uri"] == uri)]

    def last_published(self, uri: str) -> Json | None:
        with self._cond:
            for note in reversed(self.notifications):
                if note["method"] == "textDocument/publishDiagnostics" and \
                        note["params"]["uri"] == uri:
                    params: Json = note["params"]
                    return params
        return None

    def wait_publish(self, uri: str, version: int | None, timeout: float = 20.0) -> Json:
        """The latest publish for `uri` once it is for `version` (None: any, versionless)."""
        def found() -> Json | None:
            last = self.last_published(uri)
            if last is not None and (version is None or last.get("version") == version):
                return last
            return None
        result: Json = self.wait_until(found, timeout, f"diagnostics for {uri} v{version}")
        return result

    def progress_ended(self) -> bool:
        with self._cond:
            return any(n["method"] == "$/progress" and
                       isinstance(n.get("params", {}).get("value"), dict) and
                       n["params"]["value"].get("kind") == "end" for n in self.notifications)

    def drop_notifications(self, keep: Callable[[Json], bool] | None = None) -> None:
        """Forget notifications (a long run would otherwise keep every one)."""
        with self._cond:
            self.notifications = [n for n in self.notifications if keep and keep(n)]

    # -- lifecycle --------------------------------------------------------------------------
    def initialize(self, root: Path | None, *, encoding: str = "utf-16", pull: bool = False,
                   progress: bool = True, watchers: bool = False,
                   initialization_options: Any = None, timeout: float = 20.0) -> Json:
        capabilities = client_capabilities(encoding=encoding, pull=pull, progress=progress,
                                           watchers=watchers)
        params: Json = {"processId": os.getpid(), "capabilities": capabilities,
                        "clientInfo": {"name": "evalyaml-hostile"}}
        if root is not None:
            params["rootUri"] = root.as_uri()
            params["workspaceFolders"] = [{"uri": root.as_uri(), "name": root.name}]
        if initialization_options is not None:
            params["initializationOptions"] = initialization_options
        result: Json = self.call("initialize", params, timeout)
        self.notify("initialized", {})
        return result

    def open(self, uri: str, text: str, version: int = 1) -> None:
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": version, "text": text}})

    def change(self, uri: str, version: int, changes: list[Json]) -> None:
        self.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version}, "contentChanges": changes})

    def close_document(self, uri: str) -> None:
        self.notify("textDocument/didClose", {"textDocument": {"uri": uri}})

    def shutdown_and_exit(self, timeout: float = 20.0) -> int:
        """`shutdown` then `exit`; the process's exit status (Hang if it does not exit)."""
        self.call("shutdown", None, timeout)
        self.notify("exit")
        return self.wait_exit(timeout)

    def wait_exit(self, timeout: float = 20.0) -> int:
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            raise Hang(f"the server did not exit within {timeout:.0f} s") from None

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        if self._stderr_file is not None:
            self._stderr_file.close()

    def rss_mb(self) -> float:
        return rss_mb(self.pid)


def rss_mb(pid: int) -> float:
    """Resident memory of one process in MB (VmRSS), 0 when it is gone."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def client_capabilities(*, encoding: str = "utf-16", pull: bool = False, progress: bool = True,
                        watchers: bool = False) -> Json:
    text_document: Json = {
        "synchronization": {"dynamicRegistration": False, "didSave": True},
        "publishDiagnostics": {"relatedInformation": True, "versionSupport": True,
                               "codeDescriptionSupport": True, "dataSupport": True},
        "completion": {"completionItem": {"snippetSupport": False}},
        "hover": {"contentFormat": ["markdown", "plaintext"]},
        "documentSymbol": {"hierarchicalDocumentSymbolSupport": True},
        "codeAction": {"codeActionLiteralSupport": {"codeActionKind": {"valueSet": [
            "quickfix"]}}},
        "definition": {"linkSupport": False},
        "rename": {"prepareSupport": True},
    }
    if pull:
        text_document["diagnostic"] = {"dynamicRegistration": False,
                                       "relatedDocumentSupport": False}
    workspace: Json = {"workspaceFolders": True, "configuration": True,
                       "workspaceEdit": {"documentChanges": True},
                       "didChangeWatchedFiles": {"dynamicRegistration": watchers}}
    if pull:
        workspace["diagnostics"] = {"refreshSupport": True}
    return {"general": {"positionEncodings": [encoding]}, "textDocument": text_document,
            "workspace": workspace, "window": {"workDoneProgress": progress}}


# ------------------------------------------------------------------------------- positions
# Written independently of evalyaml.lsp.positions: LSP lines end at LF, CRLF or CR, and a
# column counts UTF-16 code units, UTF-8 bytes or code points.
def line_starts(text: str) -> list[int]:
    starts = [0]
    i, n = 0, len(text)
    while i < n:
        char = text[i]
        if char == "\r":
            i += 2 if text[i + 1 : i + 2] == "\n" else 1
            starts.append(i)
        elif char == "\n":
            i += 1
            starts.append(i)
        else:
            next_break = min((p for p in (text.find("\n", i), text.find("\r", i)) if p >= 0),
                             default=n)
            i = next_break
    return starts


def units(text: str, encoding: str) -> int:
    if encoding == "utf-8":
        return len(text.encode("utf-8", errors="surrogatepass"))
    if encoding == "utf-16":
        return len(text.encode("utf-16-le", errors="surrogatepass")) // 2
    return len(text)


@dataclass
class Lines:
    """A text's lines as an LSP client sees them."""

    text: str
    starts: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.starts = line_starts(self.text)

    def content_end(self, line: int) -> int:
        if line + 1 < len(self.starts):
            end = self.starts[line + 1]
            return end - 2 if self.text[end - 2 : end] == "\r\n" else end - 1
        return len(self.text)

    def line(self, number: int) -> str:
        return self.text[self.starts[number] : self.content_end(number)]

    def position(self, offset: int, encoding: str) -> Json:
        """Code-point offset -> LSP position (an offset inside CRLF is the line's end)."""
        line = _bisect(self.starts, offset)
        column = min(offset, self.content_end(line)) - self.starts[line]
        return {"line": line, "character": units(self.line(line)[:column], encoding)}

    def range(self, start: int, end: int, encoding: str) -> Json:
        return {"start": self.position(start, encoding), "end": self.position(end, encoding)}

    def core_to_lsp(self, line: int, column: int, encoding: str) -> Json:
        """A core position (line, code-point column) -> LSP; no clamping."""
        text = self.line(line) if line < len(self.starts) else ""
        return {"line": line, "character": units(text[:column], encoding)
                + max(0, column - len(text))}

    def valid(self, pos: Json, encoding: str) -> str | None:
        """Why `pos` is not a position inside this text (None when it is)."""
        line, character = pos.get("line"), pos.get("character")
        if not isinstance(line, int) or not isinstance(character, int) or line < 0 or \
                character < 0:
            return f"malformed position {pos}"
        if line >= len(self.starts):
            return f"line {line} past the last line {len(self.starts) - 1}"
        text = self.line(line)
        if character > units(text, encoding):
            return f"character {character} past the end of line {line} " \
                   f"({units(text, encoding)} {encoding} units)"
        seen = 0
        for char in text:
            if seen == character:
                return None
            seen += units(char, encoding)
            if seen > character:
                return f"character {character} on line {line} splits {char!r} ({encoding})"
        return None

    def valid_range(self, rng: Json, encoding: str) -> str | None:
        for key in ("start", "end"):
            problem = self.valid(rng.get(key, {}), encoding)
            if problem is not None:
                return f"{key}: {problem}"
        start, end = rng["start"], rng["end"]
        if (start["line"], start["character"]) > (end["line"], end["character"]):
            return f"range starts after it ends: {rng}"
        return None


def quick_position(text: str, offset: int, encoding: str) -> Json:
    """`Lines(text).position(offset)` without building the line table (C-speed searches)."""
    if "\r" in text:
        return Lines(text).position(offset, encoding)
    line_start = text.rfind("\n", 0, offset) + 1
    return {"line": text.count("\n", 0, offset),
            "character": units(text[line_start:offset], encoding)}


def _bisect(starts: list[int], offset: int) -> int:
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= offset:
            lo = mid
        else:
            hi = mid - 1
    return lo


# ------------------------------------------------------------------------------- the oracle
SEVERITY = {"error": 1, "warning": 2, "information": 3, "hint": 4}


def fresh_workspace(root: Path, today: str = TODAY) -> Any:
    """The workspace at `root` indexed from nothing, by the same engine the server runs."""
    from evalyaml.workspace.index import Workspace

    workspace = Workspace([root], today=date.fromisoformat(today), workers=1)
    workspace.index_all()
    return workspace


def fresh_findings(root: Path, texts: dict[Path, str], today: str = TODAY) -> dict[Path, Any]:
    """A fresh analysis of the workspace at `root`, with `texts` as the editor's buffers:
    path -> its findings."""
    workspace = fresh_workspace(root, today)
    for path, text in texts.items():
        workspace.set_text(path, text)
    return {path: workspace.findings(path) for path in texts}


def finding_key(finding: Any, lines: Lines, uri: str, encoding: str,
                other: Callable[[Path], Lines]) -> tuple[Any, ...]:
    """A finding as the client should see it: (code, range, message, severity, related)."""
    def rng(span: Any, in_lines: Lines) -> tuple[int, int, int, int]:
        start = in_lines.core_to_lsp(span.start.line, span.start.character, encoding)
        end = in_lines.core_to_lsp(span.end.line, span.end.character, encoding)
        return (start["line"], start["character"], end["line"], end["character"])

    related = []
    for item in finding.related:
        if item.path is None:
            related.append((uri, rng(item.span, lines), item.message))
        else:
            path = Path(item.path)
            related.append((path.as_uri(), rng(item.span, other(path)), item.message))
    return (finding.code, rng(finding.span, lines), finding.message,
            int(finding.severity), tuple(related))


def diagnostic_key(diagnostic: Json) -> tuple[Any, ...]:
    rng = diagnostic["range"]
    related = tuple(
        (item["location"]["uri"],
         (item["location"]["range"]["start"]["line"],
          item["location"]["range"]["start"]["character"],
          item["location"]["range"]["end"]["line"],
          item["location"]["range"]["end"]["character"]),
         item["message"])
        for item in diagnostic.get("relatedInformation") or ())
    return (diagnostic.get("code"),
            (rng["start"]["line"], rng["start"]["character"], rng["end"]["line"],
             rng["end"]["character"]),
            diagnostic["message"], diagnostic.get("severity"), related)


def disk_lines(path: Path) -> Lines:
    """A file's lines as the server maps them (never opening a FIFO: that would block)."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            return Lines("")
        return Lines(path.read_bytes().decode("utf-8", errors="replace"))
    except OSError:
        return Lines("")


def expected_keys(findings: Iterable[Any], text: str, uri: str, encoding: str
                  ) -> list[tuple[Any, ...]]:
    lines = Lines(text)
    return sorted(finding_key(f, lines, uri, encoding, disk_lines) for f in findings)


def compare(expected: list[tuple[Any, ...]], diagnostics: list[Json]) -> str | None:
    """None when the diagnostics are exactly the expected ones, else a readable difference."""
    got = sorted(diagnostic_key(d) for d in diagnostics)
    if got == expected:
        return None
    missing = [e for e in expected if e not in got]
    extra = [g for g in got if g not in expected]
    return f"missing {missing[:5]} extra {extra[:5]} ({len(expected)} expected, {len(got)} got)"


# ------------------------------------------------------------------------------- the soak
TOPICS = [
    ("refund", "How long do I have to return a product I bought online?",
     "States the 30-day return window.", ["Returns are accepted within 30 days."]),
    ("password", "I forgot my dashboard password and the reset email never arrived.",
     "Explains the reset flow and suggests checking spam.",
     ["The reset link is on the sign-in page.", "The reset email expires after 30 minutes."]),
    ("order", "Where is order ORD-{n:06d}? The tracking page still says label created.",
     "Gives the carrier status and a realistic delivery window.",
     ["Orders ship within two business days."]),
]
WORDS = ["please", "refund", "order", "tracking", "invoice", "naïve", "café", "数据", "🙂",
         "password", "status", "quickly", "customer", "shipping"]


def case_text(n: int, tag: str = "") -> str:
    topic, question, criteria, facts = TOPICS[n % len(TOPICS)]
    ref = "rubric/factuality@1.2" if n % 2 else "rubric/support_quality@1.0.0"
    lines = [
        f"  - id: {topic}_{n:06d}{tag}",
        f"    input: {question.format(n=n)}",
        f"    criteria: {criteria}",
        "    expected_facts:",
        *[f"      - {fact}" for fact in facts],
        "    expected_tools: [lookup_order]",
        f"    rubric_ref: {ref}",
    ]
    return "\n".join(lines) + "\n"


def write_workspace(root: Path, cases: int) -> Path:
    """A copy of the examples (rubrics and judges resolve) plus a generated dataset."""
    shutil.copytree(EXAMPLES, root, ignore=shutil.ignore_patterns("mistakes"))
    path = root / "datasets" / "soak.yaml"
    body = "".join(case_text(n) for n in range(cases))
    path.write_text(f"{MODELINE}\nname: soak ({cases} cases)\nquestions:\n{body}",
                    encoding="utf-8")
    return path


@dataclass
class Editor:
    """The client's copy of the document and the edits it sends."""

    server: LspProcess
    uri: str
    text: str
    encoding: str
    version: int = 1
    edits: int = 0
    undo: list[tuple[int, int, str]] = field(default_factory=list)

    def replace(self, start: int, end: int, new: str, *, record: bool = True) -> None:
        rng = {"start": quick_position(self.text, start, self.encoding),
               "end": quick_position(self.text, end, self.encoding)}
        removed = self.text[start:end]
        self.text = self.text[:start] + new + self.text[end:]
        self.version += 1
        self.edits += 1
        if record:
            self.undo.append((start, start + len(new), removed))
        self.server.change(self.uri, self.version, [{"range": rng, "text": new}])

    def undo_last(self, count: int) -> None:
        for _ in range(min(count, len(self.undo))):
            start, end, old = self.undo.pop()
            self.replace(start, end, old, record=False)


@dataclass
class SoakStats:
    requests: int = 0
    unanswered: int = 0
    errors: int = 0
    modified: int = 0  # ContentModified (-32801): the text changed under the request, ask again
    latencies: dict[str, list[float]] = field(default_factory=dict)  # method -> seconds
    samples: list[tuple[float, float]] = field(default_factory=list)


def case_starts(text: str) -> list[int]:
    out = []
    at = text.find("\n  - id: ")
    while at >= 0:
        out.append(at + 1)
        at = text.find("\n  - id: ", at + 1)
    return out


def one_operation(editor: Editor, rng: random.Random, pace: Callable[[], None],
                  target_cases: int, serial: Iterator[int]) -> None:
    """One scripted editing operation, its keystrokes paced by `pace`."""
    text = editor.text
    starts = case_starts(text)
    choice = rng.random()
    if choice < 0.45 and starts:  # type a word into an input, then maybe delete it again
        case = rng.choice(starts)
        at = text.find("\n", text.find("    input: ", case)) if "    input: " in text else -1
        if at < 0:
            return
        word = " " + rng.choice(WORDS)
        for index, char in enumerate(word):
            editor.replace(at + index, at + index, char, record=False)
            pace()
        if rng.random() < 0.7:
            for index in range(len(word), 0, -1):  # backspace it away
                editor.replace(at + index - 1, at + index, "", record=False)
                pace()
    elif choice < 0.6:  # paste a new case, or cut one to keep the size steady
        if len(starts) >= target_cases and starts:
            index = rng.randrange(len(starts))
            end = starts[index + 1] if index + 1 < len(starts) else len(text)
            editor.replace(starts[index], end, "")
        else:
            at = rng.choice(starts) if starts else len(text)
            editor.replace(at, at, case_text(rng.randrange(10**6), f"_p{next(serial)}"))
        pace()
    elif choice < 0.75 and starts:  # break the YAML, then repair it (undo)
        case = rng.choice(starts)
        broken = rng.choice(["    input: \"unclosed\n", "    expecteed_facts: [x]\n",
                             "    rubric_ref: rubric/nope@9\n", "\t- bad: [\n"])
        line_end = text.find("\n", case) + 1
        editor.replace(line_end, line_end, broken)
        pace()
        editor.undo_last(1)
        pace()
    elif choice < 0.85 and starts:  # change an id to a duplicate, then undo
        case = rng.choice(starts)
        id_at = case + len("  - id: ")
        id_end = text.find("\n", id_at)
        other = rng.choice(starts)
        other_id = text[other + len("  - id: ") : text.find("\n", other)]
        editor.replace(id_at, id_end, other_id)
        pace()
        editor.undo_last(1)
        pace()
    else:  # select-all-and-retype of one line: delete it, retype it in chunks
        if not starts:
            return
        case = rng.choice(starts)
        line_start = text.find("\n", case) + 1
        line_end = text.find("\n", line_start)
        line = text[line_start:line_end]
        editor.replace(line_start, line_end, "", record=False)
        pace()
        for index in range(0, len(line), 8):
            editor.replace(line_start + index, line_start + index, line[index : index + 8],
                           record=False)
            pace()


def ask_something(editor: Editor, rng: random.Random, stats: SoakStats,
                  pending: dict[int, tuple[str, float]]) -> None:
    lines = Lines(editor.text)
    line = rng.randrange(len(lines.starts))
    column = rng.randrange(len(lines.line(line)) + 1)
    position = lines.core_to_lsp(line, column, editor.encoding)
    document = {"uri": editor.uri}
    method, params = rng.choice([
        ("textDocument/hover", {"textDocument": document, "position": position}),
        ("textDocument/completion", {"textDocument": document, "position": position}),
        ("textDocument/definition", {"textDocument": document, "position": position}),
        ("textDocument/documentSymbol", {"textDocument": document}),
        ("textDocument/codeLens", {"textDocument": document}),
    ])
    msg_id = editor.server.request_async(method, params)
    pending[msg_id] = (method, time.monotonic())
    stats.requests += 1


def collect(server: LspProcess, pending: dict[int, tuple[str, float]], stats: SoakStats,
            timeout: float) -> None:
    """Take the answers that have arrived; a request older than `timeout` counts as a hang.
    Latency runs to the answer's arrival (the reader thread's clock), not to this call."""
    now = time.monotonic()
    for msg_id, (method, sent) in list(pending.items()):
        with server._cond:
            answer = server.responses.pop(msg_id, None)
            arrived = server.answered_at.pop(msg_id, now)
        if answer is not None:
            del pending[msg_id]
            stats.latencies.setdefault(method, []).append(arrived - sent)
            if "error" in answer and answer["error"].get("code") == CONTENT_MODIFIED:
                stats.modified += 1
            elif "error" in answer:
                stats.errors += 1
                print(f"  error answer to {method}: {answer['error']}", flush=True)
        elif now - sent > timeout:
            del pending[msg_id]
            stats.unanswered += 1
            print(f"  no answer to {method} after {timeout:.0f} s", flush=True)


def slope(points: list[tuple[float, float]]) -> float:
    """Least-squares slope of (seconds, MB) points, in MB per minute."""
    if len(points) < 2:
        return 0.0
    n = len(points)
    mean_x = sum(p[0] for p in points) / n
    mean_y = sum(p[1] for p in points) / n
    var = sum((p[0] - mean_x) ** 2 for p in points)
    if var == 0:
        return 0.0
    cov = sum((p[0] - mean_x) * (p[1] - mean_y) for p in points)
    return cov / var * 60


def print_curve(samples: list[tuple[float, float]]) -> None:
    if not samples:
        return
    peak = max(mb for _, mb in samples)
    print(f"{'t (s)':>8} {'RSS MB':>8}")
    for seconds, mb in samples:
        bar = "#" * max(1, round(50 * mb / peak)) if peak else ""
        print(f"{seconds:8.0f} {mb:8.1f} {bar}")


def soak(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    workdir = Path(tempfile.mkdtemp(prefix="evalyaml-soak-"))
    root = workdir / "ws"
    path = write_workspace(root, args.cases)
    env = {**os.environ, "EVALYAML_TODAY": TODAY}
    stderr = workdir / "server.stderr"
    server = LspProcess(cwd=root, env=env, stderr=stderr)
    failures: list[str] = []
    stats = SoakStats()
    try:
        server.initialize(root, encoding=args.encoding)
        server.wait_until(server.progress_ended, 120, "initial indexing")
        uri = path.as_uri()
        editor = Editor(server, uri, path.read_text("utf-8"), args.encoding)
        server.open(uri, editor.text, 1)
        server.wait_publish(uri, 1, 60)
        started = time.monotonic()
        deadline = started + args.minutes * 60
        stats.samples.append((0.0, server.rss_mb()))
        print(f"server pid {server.pid}; {args.cases} cases, {len(editor.text) / 1e6:.2f} MB; "
              f"{args.minutes:g} min at up to {args.rate} edits/s; RSS every "
              f"{args.interval:g} s", flush=True)
        next_sample = started + args.interval
        interval = 1.0 / args.rate
        pending: dict[int, tuple[str, float]] = {}
        serial = itertools.count()
        last_request = 0.0
        next_edit = time.monotonic()

        def pace() -> None:
            nonlocal next_edit, next_sample, last_request
            next_edit += interval
            now = time.monotonic()
            if next_edit > now:
                time.sleep(next_edit - now)
            elif now - next_edit > 1:
                next_edit = now  # the client fell behind; do not burst to catch up
            now = time.monotonic()
            if now - last_request >= args.request_every:
                last_request = now
                ask_something(editor, rng, stats, pending)
                collect(server, pending, stats, 20)
            if now >= next_sample:
                stats.samples.append((now - started, server.rss_mb()))
                print(f"  t={now - started:6.0f} s  RSS {stats.samples[-1][1]:7.1f} MB  "
                      f"edits {editor.edits}  requests {stats.requests}", flush=True)
                next_sample += args.interval
                # Keep the client's own memory flat: only the last publish matters.
                server.drop_notifications(
                    lambda n: n["method"] == "textDocument/publishDiagnostics"
                    and n["params"].get("version") == editor.version)
            if not server.alive():
                raise AssertionError(f"the server died (exit {server.proc.returncode})")

        while time.monotonic() < deadline:
            one_operation(editor, rng, pace, args.cases, serial)
        if editor.undo:
            editor.undo_last(len(editor.undo))
        final_sample = (time.monotonic() - started, server.rss_mb())
        # Settle: answers to the last requests, then the final version's diagnostics.
        settle = time.monotonic() + 25
        while pending and time.monotonic() < settle:
            collect(server, pending, stats, 20)
            time.sleep(0.05)
        collect(server, pending, stats, 0)
        published = server.wait_publish(uri, editor.version, 60)
        expected = fresh_findings(root, {path: editor.text})[path]
        difference = compare(expected_keys(expected, editor.text, uri, args.encoding),
                             published["diagnostics"])
        if difference is not None:
            failures.append(f"final diagnostics differ from a fresh analysis: {difference}")
        stats.samples.append(final_sample)
        code = server.shutdown_and_exit(30)
        if code != 0:
            failures.append(f"exit status {code} after shutdown + exit")
    except AssertionError as err:
        failures.append(str(err))
    finally:
        server.kill()
    report(args, stats, editor_edits=editor.edits if "editor" in locals() else 0)
    if stats.unanswered:
        failures.append(f"{stats.unanswered} requests unanswered")
    if stats.errors:
        failures.append(f"{stats.errors} requests answered with an error")
    errors_text = stderr.read_text("utf-8", errors="replace") if stderr.exists() else ""
    if "Traceback" in errors_text:
        failures.append("the server logged a traceback:\n" + errors_text[-3000:])
    for failure in failures:
        print("FAIL:", failure)
    if args.keep:
        print(f"workspace kept in {workdir}")
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    print("soak: " + ("OK" if not failures else "FAILED"))
    return 0 if not failures else 1


def report(args: argparse.Namespace, stats: SoakStats, editor_edits: int) -> None:
    samples = stats.samples
    print()
    print_curve(samples)
    if samples:
        half = [s for s in samples if s[0] >= samples[-1][0] / 2]
        peak = max(mb for _, mb in samples)
        print(f"peak RSS {peak:.1f} MB; first {samples[0][1]:.1f} MB, last {samples[-1][1]:.1f} "
              f"MB; slope {slope(samples):+.3f} MB/min overall, {slope(half):+.3f} MB/min over "
              "the second half")
    latencies = sorted(t for times in stats.latencies.values() for t in times)
    duration = samples[-1][0] if samples else 0.0
    rate = editor_edits / duration if duration else 0.0
    print(f"edits sent {editor_edits} ({rate:.0f}/s achieved); requests {stats.requests} "
          f"(unanswered {stats.unanswered}, errors {stats.errors}, content modified "
          f"{stats.modified}); request latency "
          f"{_latency(latencies)}")
    for method, times in sorted(stats.latencies.items()):
        print(f"  {method:28} {len(times):6} answered, {_latency(sorted(times))}")


def _latency(ordered: list[float]) -> str:
    if not ordered:
        return "-"

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000
    return f"median {at(0.5):.0f} ms, p95 {at(0.95):.0f} ms, max {ordered[-1] * 1000:.0f} ms"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--interval", type=float, default=10.0, help="RSS sampling period (s)")
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=50.0, help="edits per second, at most")
    parser.add_argument("--request-every", type=float, default=0.25,
                        help="seconds between requests")
    parser.add_argument("--encoding", choices=["utf-16", "utf-8"], default="utf-16")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the temporary workspace")
    return soak(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
