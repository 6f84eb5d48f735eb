"""Language-server benchmark: evalyaml vs yaml-language-server on the same files, same run.

A standard-library LSP client (Content-Length framing over stdio) drives each server through
one session per dataset size (10, 1,000 and 10,000 generated cases) and measures:

- spawn -> initialize result (median of several spawns);
- open -> diagnostics: `didOpen` of the dataset until `publishDiagnostics` for version 1;
- edit -> diagnostics: a one-character edit inside one case (toggling a key typo) until the
  diagnostics for that version arrive; also an edit that inserts a line (every case below
  moves), reported separately. A message has arrived when its frame has been read from the
  pipe: what this Python client's `json.loads` then takes (40-60 ms for 17,000 diagnostics)
  is the client's cost, printed on its own row;
- completion: `rubric_ref: rubric/` value completion, and key completion in a case;
- hover on a key;
- peak RSS of the server process (`VmHWM` from /proc/<pid>/status, Linux), and apart from it
  the largest of its child processes (evalyaml's case worker for big datasets).

Three workloads, each at every size:

- `clean`: generated support cases, each in a workspace with the rubrics it names, so the file
  has (almost) no findings; the edit toggles `expected_facts` <-> `expected_factz`.
- `heavy`: the shared findings-heavy corpus (`../shared/bench/gen_corpus.py`,
  `datasets/cases.yaml` of `ws_N`): every case carries a finding and most rubric references are
  malformed, about 17,000 findings at 10,000 cases, what a user meets after a schema change or a
  rubric rename; the edit toggles `    criteria:` <-> `    critera:` in one case.
- `broken`: the clean workload with a YAML syntax error in the middle case (issue #15: the
  recovery around it must leave editing elsewhere as fast as in the clean file).

For the clean workload yaml-language-server gets `yaml.schemas` mapping the shipped
`schemas/dataset.schema.json` to the datasets (no modeline, so nothing is fetched); for the
heavy one, the settings the corpus writes for it (`.lspbench/yamlls.settings.json`, its own
schemas). The clients are push-only (like Neovim), UTF-16 positions; `--pull` makes the
evalyaml client a pull client instead (like VS Code: `textDocument/diagnostic` right after each
`didOpen`/`didChange`, timed from that notification to the answer's frame; yaml-language-server
is left out, since it does not answer pulls).

yaml-language-server comes from npm at bench time:
`npm install --prefix bench/.yls yaml-language-server@2 node@24` (done for you when npm is
present; skipped with a note when it is not); it runs on that Node 24 when present, else on the
`node` on PATH. Run: `python bench/lsp_bench.py [--sizes 10 1000 10000]
[--workloads clean heavy broken]`.
`--opening` runs only the open-while-indexing scenario of issue #27 (`open_bench.py`: the
heavy 10,000-case dataset opened `--open-delay` s after `initialized`, then closed and opened
again; `--runs` fresh sessions per figure).
`--evalyaml-path DIR` runs another checkout's `server/` folder (PYTHONPATH) as evalyaml, for
before/after comparisons: `--label` names it in the table.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import queue
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
YLS_DIR = REPO / "bench" / ".yls"
YLS_BIN = YLS_DIR / "node_modules" / "yaml-language-server" / "bin" / "yaml-language-server"
YLS_NODE = YLS_DIR / "node_modules" / ".bin" / "node"
GEN_CORPUS = REPO.parent / "shared" / "bench" / "gen_corpus.py"
GEN_FORMATS = REPO.parent / "shared" / "bench" / "gen_formats.py"
TODAY = "2026-11-21"

TARGETS = {  # medians, milliseconds (RSS in MB), per workload
    "clean": {"edit 10": 30, "edit 1000": 50, "edit 10000": 100, "open 10000": 1500,
              "completion": 20, "rss 10000": 300, "initialize": 400},
    "heavy": {"edit 10000": 100, "open 10000": 1000, "rss 10000": 250},
    "broken": {"edit 10000": 100, "open 10000": 1500, "rss 10000": 300},
    # issue #27: every format's clean 10,000-item file, one item edited (and <= 2x the
    # contract's figure of the same run, which the table prints as `x contract`)
    **{name: {"edit 1000": 20, "edit 10000": 100}
       for name in ("contract-items", "padosoft", "agentv", "promptfoo")},
}
FORMAT_TOPICS = ["refund", "shipping", "warranty", "invoice", "password", "billing", "account",
                 "delivery"]

TOPICS = [
    ("refund", "How long do I have to return a product I bought online, and who pays shipping?",
     "States the 30-day return window and links the returns form.",
     ["Returns are accepted within 30 days of delivery.",
      "Return shipping is free when the item is defective."]),
    ("password", "I forgot my dashboard password 😀 and the reset email never arrived.",
     "Explains the reset flow, suggests checking spam, and offers manual verification.",
     ["The reset link is on the sign-in page.", "The reset email expires after 30 minutes."]),
    ("order", "Where is order ORD-{n:06d}? 追跡ページ still says label created.",
     "Looks up the order and gives a realistic delivery window.",
     ["Orders ship within two business days.", "Tracking can lag 24 hours behind pickup."]),
]


def case_text(n: int) -> str:
    topic, question, criteria, facts = TOPICS[n % len(TOPICS)]
    lines = [
        f"  - id: {topic}_{n:06d}",
        f"    input: {question.format(n=n)}",
        f"    criteria: {criteria}",
        "    expected_facts:",
        *[f"      - {fact}" for fact in facts],
        "    expected:",
        "      format: text",
        f"    rubric_ref: rubric/{'factuality@1.2' if n % 3 else 'tone@1.0.0'}",
    ]
    return "\n".join(lines) + "\n"


def write_workspace(root: Path, count: int) -> Path:
    root.mkdir(parents=True)
    (root / "evalyaml.toml").write_text("", encoding="utf-8")
    (root / "rubrics").mkdir()
    (root / "rubrics" / "factuality.yaml").write_text(
        'id: factuality\nversion: "1.2.0"\ndescription: Facts are right.\nchecks:\n'
        "  - kind: fact_match\n    threshold: 0.8\nscoring:\n  combine: all_pass\n")
    (root / "rubrics" / "tone.yaml").write_text(
        'id: tone\nversion: "1.0.0"\nchecks:\n  - kind: must_not_contain\n    values: [As an AI]\n'
        "scoring:\n  combine: all_pass\n")
    (root / "datasets").mkdir()
    path = root / "datasets" / f"dataset_{count}.yaml"
    with path.open("w", encoding="utf-8", newline="\n") as out:
        out.write(f"name: Generated support cases ({count})\nquestions:\n")
        for n in range(count):
            out.write(case_text(n))
    return path


# ------------------------------------------------------------------------------ LSP client
class Client:
    """Just enough LSP over stdio: requests, notifications, and answers to server requests."""

    def __init__(self, command: list[str], settings: dict[str, Any], cwd: Path,
                 env: dict[str, str] | None = None) -> None:
        self.started = time.perf_counter()
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, cwd=cwd, env=env)
        self.settings = settings
        self.next_id = 0
        self.responses: dict[int, queue.Queue[dict[str, Any]]] = {}
        # (frame read, frame parsed, params): latency counts to the frame read; what this
        # client's json.loads then takes is the client's own cost, reported apart
        self.diagnostics: queue.Queue[tuple[float, float, dict[str, Any]]] = queue.Queue()
        self.last_parse_ms = 0.0
        self.progress_ended = threading.Event()
        self.lock = threading.Lock()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = 0
            while True:
                line = stream.readline()
                if not line:
                    return
                if line in (b"\r\n", b"\n"):
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            body = stream.read(length)
            arrived = time.perf_counter()
            message = json.loads(body)
            parsed = time.perf_counter()
            if "method" in message and "id" in message:
                self._answer(message)
            elif "method" in message:
                if message["method"] == "textDocument/publishDiagnostics":
                    self.diagnostics.put((arrived, parsed, message["params"]))
                elif message["method"] == "$/progress" and \
                        (message["params"].get("value") or {}).get("kind") == "end":
                    self.progress_ended.set()
            elif "id" in message:
                waiting = self.responses.get(message["id"])
                if waiting is not None:
                    message["_arrived"] = arrived
                    message["_parsed"] = parsed
                    waiting.put(message)

    def _answer(self, message: dict[str, Any]) -> None:
        result: Any = None
        if message["method"] == "workspace/configuration":
            result = [self.settings.get(item.get("section", ""), None)
                      for item in message["params"]["items"]]
        self._send({"jsonrpc": "2.0", "id": message["id"], "result": result})

    def _send(self, payload: dict[str, Any]) -> None:
        body = json.dumps(payload).encode()
        with self.lock:
            assert self.process.stdin is not None
            self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.process.stdin.flush()

    def request(self, method: str, params: Any, timeout: float = 120) -> tuple[float, Any]:
        """(latency in ms, result)."""
        self.next_id += 1
        ident = self.next_id
        box: queue.Queue[dict[str, Any]] = queue.Queue()
        self.responses[ident] = box
        sent = time.perf_counter()
        self._send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        reply = box.get(timeout=timeout)
        del self.responses[ident]
        return (reply["_arrived"] - sent) * 1000, reply.get("result")

    def pull_diagnostics(self, uri: str, after: float, timeout: float = 300) -> float:
        """ms from `after` (the didOpen/didChange just sent) to the answer of a
        `textDocument/diagnostic` pull sent right after it, as VS Code does."""
        self.next_id += 1
        ident = self.next_id
        box: queue.Queue[dict[str, Any]] = queue.Queue()
        self.responses[ident] = box
        self._send({"jsonrpc": "2.0", "id": ident, "method": "textDocument/diagnostic",
                    "params": {"textDocument": {"uri": uri}}})
        reply = box.get(timeout=timeout)
        del self.responses[ident]
        if reply.get("result", {}).get("kind") != "full":
            raise TimeoutError(f"pull for {uri} answered {str(reply)[:200]}")
        self.last_parse_ms = (reply["_parsed"] - reply["_arrived"]) * 1000
        return (float(reply["_arrived"]) - after) * 1000

    def notify(self, method: str, params: Any) -> float:
        sent = time.perf_counter()
        self._send({"jsonrpc": "2.0", "method": method, "params": params})
        return sent

    def wait_diagnostics(self, uri: str, version: int | None, after: float,
                         timeout: float = 300, *, versioned: bool = False) -> float:
        """ms from `after` to the first diagnostics for `uri` (at `version`, when the server
        says which version they are for) read from the pipe; `last_parse_ms` is what parsing
        their JSON then took this client."""
        deadline = time.perf_counter() + timeout
        while True:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise TimeoutError(f"no diagnostics for {uri} v{version}")
            arrived, parsed, params = self.diagnostics.get(timeout=remaining)
            if params["uri"] != uri or arrived < after:
                continue
            got = params.get("version")
            if (got is not None or versioned) and version is not None and got != version:
                continue
            self.last_parse_ms = (parsed - arrived) * 1000
            return (arrived - after) * 1000

    def drain(self) -> None:
        while not self.diagnostics.empty():
            self.diagnostics.get_nowait()

    def peak_rss_mb(self) -> float:
        try:
            status = Path(f"/proc/{self.process.pid}/status").read_text()
        except OSError:
            return float("nan")
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def children_peak_rss_mb(self) -> float:
        """The largest peak RSS among the server's child processes (the case worker that
        analyses big datasets), reported apart from the server's own, as issue #16 asks;
        0 when the server has none."""
        peak = 0.0
        try:
            tasks = list(Path(f"/proc/{self.process.pid}/task").iterdir())
        except OSError:
            return float("nan")
        for task in tasks:
            try:
                children = (task / "children").read_text().split()
            except OSError:
                continue
            for child in children:
                try:
                    status = Path(f"/proc/{child}/status").read_text()
                except OSError:
                    continue
                for line in status.splitlines():
                    if line.startswith("VmHWM:"):
                        peak = max(peak, int(line.split()[1]) / 1024)
        return peak

    def close(self) -> None:
        try:
            self.request("shutdown", None, timeout=10)
            self.notify("exit", None)
            self.process.wait(timeout=10)
        except Exception:
            self.process.kill()
            self.process.wait()


CAPABILITIES: dict[str, Any] = {
    "textDocument": {
        "synchronization": {"dynamicRegistration": False, "didSave": False},
        "publishDiagnostics": {"relatedInformation": True, "versionSupport": True},
        "completion": {"completionItem": {"snippetSupport": True,
                                          "documentationFormat": ["markdown", "plaintext"]}},
        "hover": {"contentFormat": ["markdown", "plaintext"]},
        "definition": {}, "documentSymbol": {"hierarchicalDocumentSymbolSupport": True},
    },
    "workspace": {"configuration": True, "didChangeConfiguration": {},
                  "workspaceFolders": True},
    "window": {"workDoneProgress": True},
}


@dataclass
class Server:
    name: str
    command: list[str]
    settings: dict[str, Any]
    env: dict[str, str] | None = None
    notes: list[str] = field(default_factory=list)
    evalyaml: bool = False  # reports indexing with $/progress; versions every open publish
    pull: bool = False  # a pull client (`--pull`), for evalyaml only


def diagnostics_after(client: Client, server: Server, uri: str, version: int,
                      sent: float) -> float:
    """ms from the notification sent at `sent` to the diagnostics of `version`."""
    if server.pull:
        return client.pull_diagnostics(uri, sent)
    return client.wait_diagnostics(uri, version, sent, versioned=server.evalyaml)


def evalyaml_server(path: Path | None = None, label: str = "evalyaml") -> Server:
    env = {**os.environ, "EVALYAML_TODAY": TODAY}
    if path is not None:  # another checkout's server/ folder, ahead of the installed one
        env["PYTHONPATH"] = os.pathsep.join(
            [str(path.resolve()), *filter(None, [os.environ.get("PYTHONPATH")])])
    return Server(label, [sys.executable, "-m", "evalyaml", "lsp"], {"evalyaml": {}}, env,
                  evalyaml=True)


def yls_server(schema_dir: Path) -> Server | None:
    if not YLS_BIN.exists():
        npm = shutil.which("npm")
        if npm is None:
            print("note: npm is not available; yaml-language-server is skipped")
            return None
        print("installing yaml-language-server@2 and node@24 into bench/.yls ...", flush=True)
        done = subprocess.run([npm, "install", "--prefix", str(YLS_DIR),
                               "yaml-language-server@2", "node@24"], capture_output=True,
                              text=True, check=False)
        if done.returncode != 0 or not YLS_BIN.exists():
            print("note: npm install of yaml-language-server failed; it is skipped\n"
                  + done.stderr[-500:])
            return None
    node = str(YLS_NODE) if YLS_NODE.exists() else shutil.which("node")
    if node is None:
        print("note: node is not available; yaml-language-server is skipped")
        return None
    schemas = {(schema_dir / "dataset.schema.json").as_uri(): ["**/datasets/*.yaml"],
               (schema_dir / "rubric.schema.json").as_uri(): ["**/rubrics/*.yaml"]}
    settings = {"yaml": {"schemas": schemas, "validate": True, "completion": True,
                         "hover": True, "schemaStore": {"enable": False}}}
    return Server("yaml-language-server", [node, str(YLS_BIN), "--stdio"], settings)


def versions(servers: list[Server]) -> list[str]:
    out = []
    for server in servers:
        if server.name == "yaml-language-server":
            package = json.loads((YLS_BIN.parents[1] / "package.json").read_text())
            node = subprocess.run([server.command[0], "--version"], capture_output=True,
                                  text=True, check=False).stdout.strip()
            out.append(f"yaml-language-server {package['version']} on Node {node}")
    return out


@dataclass
class Workload:
    """The file a session opens and edits, and how to find things in it."""

    root: Path
    path: Path
    marker: Callable[[int], str]  # the text that ends the line naming case n
    cases: range  # the case numbers in the file
    good: str  # the edit turns this line start into `bad` in one case, or back
    bad: str
    anchor: str  # a new line is inserted after the line holding this, in one case
    settings: dict[str, Any] | None = None  # yaml-language-server's, when not the default
    queries: bool = True  # completion and hover at the contract's `rubric_ref`


def clean_workload(base: Path, server: Server, size: int) -> Workload:
    root = base / f"{server.name}-{size}"
    path = write_workspace(root, size)
    return Workload(root, path, lambda n: f"_{n:06d}\n", range(size), "    expected_facts:",
                    "    expected_factz:", "    criteria:")


def heavy_workload(base: Path, server: Server, size: int) -> Workload:
    """The shared findings-heavy corpus; generated once, shared by both servers (nothing is
    written to it: edits stay in the editor buffer)."""
    root = base / "heavy" / f"ws_{size}"
    if not root.exists():
        subprocess.run([sys.executable, str(GEN_CORPUS), "--out", str(base / "heavy"),
                        "--cases", str(size)], check=True, capture_output=True)
    raw = (root / ".lspbench" / "yamlls.settings.json").read_text("utf-8")
    settings = json.loads(raw.replace("${workspaceUri}", root.as_uri()))
    del server
    return Workload(root, root / "datasets" / "cases.yaml", lambda n: f"q-{n:06d}\n",
                    range(1, size + 1), "    criteria:", "    critera:", "    expected_tools:",
                    settings)


def broken_workload(base: Path, server: Server, size: int) -> Workload:
    """The clean workload with a YAML syntax error in its middle case (an unquoted ': ' in
    its criteria): recovery must keep edits elsewhere as fast as in the clean file (issue #15).
    """
    root = base / f"{server.name}-{size}-broken"
    work = Workload(root, write_workspace(root, size), lambda n: f"_{n:06d}\n", range(size),
                    "    expected_facts:", "    expected_factz:", "    criteria:")
    text = work.path.read_text("utf-8")
    middle = text.index(work.marker(size // 2))
    line_at = text.index("\n    criteria: ", middle) + 1
    end = text.index("\n", line_at)
    work.path.write_text(text[:line_at] + "    criteria: Note: this line does not parse" +
                         text[end:], encoding="utf-8", newline="\n")
    return work


def format_workload(name: str) -> Callable[[Path, Server, int], Workload]:
    """`../shared/bench/gen_formats.py`'s clean file of one format (`.lspbench.json` names it
    and its edit), generated once per size and shared by both servers (edits stay in the
    editor buffer). Items are found by their ids; a new line goes after `input:`."""
    folder = {"contract-items": "contract"}.get(name, name)
    separator = "_" if folder == "contract" else "-"

    def make(base: Path, server: Server, size: int) -> Workload:
        out = base / "formats" / str(size)
        if not (out / folder).exists():
            subprocess.run([sys.executable, str(GEN_FORMATS), str(out), str(size)], check=True,
                           capture_output=True)
        meta = json.loads((out / folder / ".lspbench.json").read_text("utf-8"))
        good, bad = meta["edit"].split("=>")
        del server
        return Workload(out / folder, out / folder / meta["file"],
                        lambda n: f"id: {FORMAT_TOPICS[n % 8]}{separator}{n}\n", range(size),
                        good, bad, "    input:", {"yaml": {"validate": True}}, queries=False)
    return make


def promptfoo_workload(base: Path, server: Server, size: int) -> Workload:
    """`promptfoo_items.promptfoo_config`: a config with `size` tests (a description, one
    variable, two assertions each), generated once per size and shared by both servers; the
    edit is `vars:` <-> `varz:` in one test."""
    from promptfoo_items import promptfoo_config  # a sibling script: bench/ is sys.path[0]

    out = base / "formats" / str(size) / "promptfoo"
    path = out / "promptfooconfig.yaml"
    if not path.exists():
        out.mkdir(parents=True, exist_ok=True)
        path.write_text(promptfoo_config(size), encoding="utf-8", newline="\n")
    del server
    return Workload(out, path, lambda n: f"description: {FORMAT_TOPICS[n % 8]}-{n}\n",
                    range(size), "    vars:", "    varz:", "    assert:",
                    {"yaml": {"validate": True}}, queries=False)


WORKLOADS: dict[str, Callable[[Path, Server, int], Workload]] = {
    "clean": clean_workload, "heavy": heavy_workload, "broken": broken_workload,
    **{name: format_workload(name) for name in ("contract-items", "padosoft", "agentv")},
    "promptfoo": promptfoo_workload}


# ------------------------------------------------------------------------------ measuring
def wait_ready(client: Client, server: Server) -> None:
    """Until the server is loaded, its initial indexing is done (evalyaml reports it with
    `$/progress`; for the other server, a round trip) and it has stopped publishing: evalyaml
    reports every indexed file once the index is in, and a publish for the dataset (closed, no
    version) still on its way must not be taken for the answer to `didOpen`."""
    client.request("workspace/symbol", {"query": "zzz"})
    if server.evalyaml:
        client.progress_ended.wait(120)
    time.sleep(0.3)
    deadline = time.perf_counter() + 60
    while time.perf_counter() < deadline:
        try:
            client.diagnostics.get(timeout=1.0)
        except queue.Empty:
            break


def initialize(client: Client, root: Path, pull: bool = False) -> float:
    capabilities = CAPABILITIES if not pull else {**CAPABILITIES, "textDocument": {
        **CAPABILITIES["textDocument"], "diagnostic": {"relatedDocumentSupport": False}}}
    latency, _ = client.request("initialize", {
        "processId": os.getpid(), "rootUri": root.as_uri(), "capabilities": capabilities,
        "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
        "clientInfo": {"name": "lsp_bench"}})
    spawn_to_result = (time.perf_counter() - client.started) * 1000
    client.notify("initialized", {})
    client.notify("workspace/didChangeConfiguration", {"settings": client.settings})
    del latency
    return spawn_to_result


def common(a: str, b: str) -> int:
    """Length of the common prefix of two strings."""
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def locate(text: str, needle: str, start: int = 0) -> tuple[int, int]:
    """(line, code-point column) of the first `needle` at or after offset `start`."""
    at = text.index(needle, start)
    return text.count("\n", 0, at), at - (text.rfind("\n", 0, at) + 1)


@dataclass
class Result:
    initialize: list[float] = field(default_factory=list)
    first: list[float] = field(default_factory=list)
    open: dict[int, float] = field(default_factory=dict)
    edit: dict[int, list[float]] = field(default_factory=dict)
    edit_line: dict[int, list[float]] = field(default_factory=dict)
    completion_ref: dict[int, list[float]] = field(default_factory=dict)
    completion_key: dict[int, list[float]] = field(default_factory=dict)
    hover: dict[int, list[float]] = field(default_factory=dict)
    rss: dict[int, float] = field(default_factory=dict)
    worker_rss: dict[int, float] = field(default_factory=dict)
    parse: dict[int, list[float]] = field(default_factory=dict)  # client json.loads, per edit
    ref_items: dict[int, int] = field(default_factory=dict)


def run_size(server: Server, workload: Workload, result: Result, *, edits: int,
             queries: int) -> None:
    root, path, size = workload.root, workload.path, len(workload.cases)
    text = path.read_text("utf-8")
    uri = path.as_uri()
    settings = workload.settings if workload.settings is not None and \
        server.name == "yaml-language-server" else server.settings
    client = Client(server.command, settings, root, server.env)
    try:
        result.initialize.append(initialize(client, root, server.pull))
        wait_ready(client, server)
        client.drain()
        sent = client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": 1, "text": text}})
        result.open[size] = diagnostics_after(client, server, uri, 1, sent)
        time.sleep(0.3)
        version = 1
        rng = random.Random(size)

        def change(make: Callable[[str], tuple[int, int, int, int, str, str]]) -> float:
            nonlocal version, text
            line, start, end_line, end, new, new_text = make(text)
            version += 1
            text = new_text
            client.drain()
            sent = client.notify("textDocument/didChange", {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"range": {"start": {"line": line, "character": start},
                                              "end": {"line": end_line, "character": end}},
                                    "text": new}]})
            latency = diagnostics_after(client, server, uri, version, sent)
            result.parse.setdefault(size, []).append(client.last_parse_ms)
            return latency

        def typo(current: str) -> tuple[int, int, int, int, str, str]:
            """`good` -> `bad` (or back) in a random case: the differing middle replaced."""
            at = current.index(workload.marker(rng.choice(workload.cases)))
            good_at = current.find("\n" + workload.good, at)
            bad_at = current.find("\n" + workload.bad, at)
            old, new = (workload.good, workload.bad) if bad_at < 0 or 0 <= good_at < bad_at \
                else (workload.bad, workload.good)
            key_at = (good_at if old is workload.good else bad_at) + 1
            prefix = common(old, new)
            suffix = common(old[prefix:][::-1], new[prefix:][::-1])
            start, end = key_at + prefix, key_at + len(old) - suffix
            inserted = new[prefix:len(new) - suffix]
            line = current.count("\n", 0, start)
            col = start - (current.rfind("\n", 0, start) + 1)
            return line, col, line, col + (end - start), inserted, \
                current[:start] + inserted + current[end:]

        def newline(current: str) -> tuple[int, int, int, int, str, str]:
            """Insert an empty line after the anchor line of a random case (every case below
            moves)."""
            at = current.index(workload.marker(rng.choice(workload.cases)))
            crit = current.index("\n", current.index(workload.anchor, at))
            line = current.count("\n", 0, crit)
            col = crit - (current.rfind("\n", 0, crit) + 1)
            return line, col, line, col, "\n", current[:crit] + "\n" + current[crit:]

        result.edit[size] = [change(typo) for _ in range(edits)]
        result.edit_line[size] = [change(newline) for _ in range(max(3, edits // 3))]
        if not workload.queries:
            result.rss[size] = client.peak_rss_mb()
            result.worker_rss[size] = client.children_peak_rss_mb()
            return

        # completion at `rubric_ref: rubric/|` in the middle case; key completion and hover
        # on `criteria` of that case
        case_at = text.index(workload.marker(workload.cases[size // 2]))
        ref_line, _ = locate(text, "    rubric_ref: ", case_at)
        crit_line, _ = locate(text, "    criteria:", case_at)
        client.drain()
        refs, keys, hovers = [], [], []
        for _ in range(queries):
            ms, answer = client.request("textDocument/completion", {
                "textDocument": {"uri": uri},
                "position": {"line": ref_line, "character": len("    rubric_ref: rubric/")}})
            refs.append(ms)
            items = answer.get("items", []) if isinstance(answer, dict) else answer or []
            result.ref_items[size] = len(items)
        for _ in range(queries):
            ms, _ = client.request("textDocument/completion", {
                "textDocument": {"uri": uri}, "position": {"line": crit_line, "character": 6}})
            keys.append(ms)
            ms, _ = client.request("textDocument/hover", {
                "textDocument": {"uri": uri}, "position": {"line": crit_line, "character": 6}})
            hovers.append(ms)
        result.completion_ref[size] = refs
        result.completion_key[size] = keys
        result.hover[size] = hovers
        result.rss[size] = client.peak_rss_mb()
        result.worker_rss[size] = client.children_peak_rss_mb()
    finally:
        client.close()


def spawn_initialize(server: Server, base: Path, runs: int, result: Result) -> None:
    """Fresh processes: spawn -> initialize result, and spawn -> first diagnostics of a
    10-case file opened right after `initialized` (what an editor does at start)."""
    root = base / f"{server.name}-init"
    if not root.exists():
        write_workspace(root, 10)
    path = root / "datasets" / "dataset_10.yaml"
    for _ in range(runs):
        client = Client(server.command, server.settings, root, server.env)
        try:
            result.initialize.append(initialize(client, root, server.pull))
            client.notify("textDocument/didOpen", {"textDocument": {
                "uri": path.as_uri(), "languageId": "yaml", "version": 1,
                "text": path.read_text("utf-8")}})
            client.wait_diagnostics(path.as_uri(), 1, client.started)
            result.first.append((time.perf_counter() - client.started) * 1000)
        finally:
            client.close()


# ------------------------------------------------------------------------------ report
def med(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


def fmt(value: float, unit: str = "ms") -> str:
    if math.isnan(value):
        return "-"
    return f"{value:,.0f} {unit}" if value >= 10 else f"{value:.1f} {unit}"


def table(sizes: list[int], results: dict[str, Result], workload: str
          ) -> tuple[str, list[str]]:
    """The rows of one workload: each server's median, each evalyaml column's ratio to
    yaml-language-server (when it ran), and the targets, checked on every evalyaml column."""
    names = list(results)
    goals = TARGETS[workload]
    rows: list[tuple[str, list[float], str, str]] = []  # label, values, unit, target
    failures: list[str] = []
    ours = [i for i, n in enumerate(names) if n != "yaml-language-server"]
    other = names.index("yaml-language-server") if "yaml-language-server" in names else None

    def target(key: str, values: list[float]) -> str:
        if key not in goals:
            return ""
        limit = goals[key]
        verdicts = []
        for i in ours:
            if math.isnan(values[i]):
                continue
            ok = values[i] <= limit
            if not ok:
                failures.append(f"{workload} {names[i]} {key}: {values[i]:.0f} > {limit}")
            verdicts.append("ok" if ok else "MISSED")
        return "/".join(verdicts) + f" (<= {limit:g})" if verdicts else ""

    def row(label: str, values: list[float], key: str, unit: str = "ms") -> None:
        rows.append((label, values, unit, target(key, values)))

    if workload == "clean":
        row("spawn -> initialize result", [med(results[n].initialize) for n in names],
            "initialize")
        row("spawn -> first diagnostics, 10 cases", [med(results[n].first) for n in names], "")
    for size in sizes:
        row(f"open -> diagnostics, {size:,} cases",
            [results[n].open.get(size, float("nan")) for n in names], f"open {size}")
    for size in sizes:
        row(f"edit -> diagnostics, {size:,} cases",
            [med(results[n].edit.get(size, [])) for n in names], f"edit {size}")
    for size in sizes:
        row(f"new line -> diagnostics, {size:,}",
            [med(results[n].edit_line.get(size, [])) for n in names], "")
    for size in sizes:
        row(f"(client JSON parse of those, {size:,})",
            [med(results[n].parse.get(size, [])) for n in names], "")
    for size in sizes:
        row(f"completion rubric_ref, {size:,}",
            [med(results[n].completion_ref.get(size, [])) for n in names], "completion")
    for size in sizes:
        row(f"completion key, {size:,} cases",
            [med(results[n].completion_key.get(size, [])) for n in names], "completion")
    for size in sizes:
        row(f"hover key, {size:,} cases", [med(results[n].hover.get(size, [])) for n in names],
            "")
    for size in sizes:
        row(f"peak RSS, {size:,} cases", [results[n].rss.get(size, float("nan")) for n in names],
            f"rss {size}", "MB")
    for size in sizes:
        row(f"(its child processes, {size:,})",
            [results[n].worker_rss.get(size, float("nan")) for n in names], "", "MB")
    ratios = [i for i in ours if other is not None]
    header = [workload, *names, *(f"{names[i]}/yls" for i in ratios), "target"]
    cells = []
    for label, values, unit, goal in rows:
        shown = [fmt(v, unit) for v in values]
        for i in ratios:
            a, b = values[i], values[other] if other is not None else float("nan")
            shown.append("-" if math.isnan(a) or math.isnan(b) or b == 0 else f"{a / b:.2f}")
        cells.append([label, *shown, goal])
    widths = [max(len(str(c[i])) for c in [header, *cells]) for i in range(len(header))]
    lines = ["  ".join([header[0].ljust(widths[0]),
                        *(h.rjust(w) for h, w in zip(header[1:-1], widths[1:-1], strict=True)),
                        header[-1]])]
    for c in cells:
        lines.append("  ".join([c[0].ljust(widths[0]),
                                *(v.rjust(w) for v, w in zip(c[1:-1], widths[1:-1], strict=True)),
                                c[-1]]))
    return "\n".join(lines), failures


def format_summary(sizes: list[int], results: dict[str, dict[str, Result]],
                   formats: list[str], failures: list[str]) -> str:
    """Issue #27's table: each format's edit -> diagnostics beside yaml-language-server's and
    as a multiple of the contract's in the same run (target: <= 2x)."""
    lines = ["edit -> diagnostics (median) | " + " | ".join(
        f"{server} | x contract" for server in results["contract-items"])]
    for workload in formats:
        for size in sizes:
            cells = []
            for server, result in results[workload].items():
                value = med(result.edit.get(size, []))
                base = med(results["contract-items"].get(server, Result()).edit.get(size, []))
                ratio = value / base if base and not math.isnan(base) else float("nan")
                cells += [fmt(value), "-" if math.isnan(ratio) else f"{ratio:.1f}"]
                if server != "yaml-language-server" and ratio > 2:
                    failures.append(f"{workload} {server} edit {size}: {ratio:.1f}x contract")
            lines.append(f"{workload}, {size:,} items | " + " | ".join(cells))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 1000, 10_000])
    parser.add_argument("--workloads", nargs="+", choices=list(WORKLOADS),
                        default=list(WORKLOADS))
    parser.add_argument("--edits", type=int, default=15, help="edits per size")
    parser.add_argument("--queries", type=int, default=15, help="completions/hovers per size")
    parser.add_argument("--spawns", type=int, default=5, help="spawns for initialize time")
    parser.add_argument("--no-yls", action="store_true", help="evalyaml only")
    parser.add_argument("--pull", action="store_true",
                        help="evalyaml as a pull client (VS Code); yaml-language-server left out")
    parser.add_argument("--opening", action="store_true",
                        help="only the open-while-indexing scenario (open_bench.py)")
    parser.add_argument("--runs", type=int, default=3, help="sessions per --opening figure")
    parser.add_argument("--open-delay", type=float, default=0.3,
                        help="--opening: seconds between `initialized` and `didOpen`")
    parser.add_argument("--evalyaml-path", type=Path, action="append", default=[],
                        help="a checkout's server/ folder to run as evalyaml (repeatable: "
                        "each is one more column, named by --label)")
    parser.add_argument("--label", action="append", default=[],
                        help="the name of each --evalyaml-path column")
    args = parser.parse_args(argv)
    servers = [evalyaml_server()] if not args.evalyaml_path else [
        evalyaml_server(path, args.label[i] if i < len(args.label) else f"evalyaml-{i + 1}")
        for i, path in enumerate(args.evalyaml_path)]
    for server in servers:
        server.pull = args.pull
    if not args.no_yls and not args.pull:
        yls = yls_server(REPO / "schemas")
        if yls is not None:
            servers.append(yls)
    for line in versions(servers):
        print(line)
    if args.opening:
        from open_bench import run  # a sibling script: bench/ is sys.path[0]

        with tempfile.TemporaryDirectory(prefix="lsp-bench-") as tmp:
            report, missed = run(servers, Path(tmp), args.runs, args.open_delay)
        print()
        print(report)
        load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
        print(f"medians of {args.runs} runs; load average {load}")
        if missed:
            print("targets missed: " + "; ".join(missed))
        return 1 if missed else 0
    results: dict[str, dict[str, Result]] = {w: {} for w in args.workloads}
    with tempfile.TemporaryDirectory(prefix="lsp-bench-") as tmp:
        base = Path(tmp)
        for workload in args.workloads:
            for size in args.sizes:
                # the servers take turns at each size, so a noisy minute hurts both alike
                for server in servers:
                    result = results[workload].setdefault(server.name, Result())
                    print(f"{workload} {server.name}: {size:,} cases ...", flush=True)
                    try:
                        run_size(server, WORKLOADS[workload](base, server, size), result,
                                 edits=args.edits, queries=args.queries)
                    except (TimeoutError, queue.Empty) as err:
                        print(f"  {server.name} at {size:,} cases: timed out ({err})")
        if "clean" in results:
            for server in servers:
                result = results["clean"][server.name]
                result.initialize = []
                spawn_initialize(server, base, args.spawns, result)
    failures: list[str] = []
    for workload, by_server in results.items():
        report, missed = table(args.sizes, by_server, workload)
        failures += missed
        print()
        print(report)
    formats = [w for w in ("contract-items", "padosoft", "agentv", "promptfoo") if w in results]
    if "contract-items" in results and len(formats) > 1:
        print()
        print(format_summary(args.sizes, results, formats, failures))
    print()
    print("medians; edit = one line start changed inside one case; new line = a line break "
          "inserted in one case (every case below it moves); X/yls = X / yaml-language-server")
    if failures:
        print("targets missed: " + "; ".join(failures))
        return 1
    print("all targets met")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
