"""Safety: no network, no process started, nothing a file names is executed, constructed,
fetched or read from outside the workspace root, and user regexes are compiled, never run.

The CLI and the server run under a Python audit hook (a `sitecustomize.py` put first on
PYTHONPATH) that records every network and process event (socket connect/resolve, subprocess,
os.system/exec/spawn/fork, posix_spawn, urllib, webbrowser) and every open, listing or scan of a
path containing "evalyaml-canary" (a folder next to the root, which files point at in every
way we could think of) or /etc/passwd. The record must stay empty. The workspaces are small, so
the index never starts worker processes (it does from 400 files).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

import pytest
from tests.hostile.corpus import DATASET
from tests.hostile.harness import (
    BOUND,
    TODAY,
    Lines,
    LspProcess,
    assert_alive,
    copy_examples,
    finish,
    server_env,
)

SITECUSTOMIZE = '''
import os
import sys

_LOG = os.environ.get("EVALYAML_AUDIT_LOG")
_WATCHED = ("evalyaml-canary", "/etc/passwd", "/etc/shadow")
_EVENTS = {
    "socket.connect", "socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr",
    "socket.sendto", "socket.sendmsg", "socket.bind", "subprocess.Popen", "os.system",
    "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty", "pty.spawn",
    "urllib.Request", "http.client.connect", "ftplib.connect", "smtplib.connect",
    "webbrowser.open", "ctypes.dlopen", "os.startfile",
}
_busy = []


def _hook(event, args):
    if _busy:
        return
    hit = event in _EVENTS
    if not hit and event in ("open", "os.listdir", "os.scandir", "os.walk") and args:
        target = args[0]
        if isinstance(target, (str, bytes, os.PathLike)):
            name = os.fsdecode(target)
            hit = any(watched in name for watched in _WATCHED)
    if hit:
        _busy.append(1)
        try:
            fd = os.open(_LOG, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            os.write(fd, (f"{os.getpid()} {event} {args!r}"[:500] + "\\n").encode())
            os.close(fd)
        finally:
            _busy.pop()


if _LOG:
    sys.addaudithook(_hook)
'''


@pytest.fixture(scope="module")
def hostile_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("safety")
    canary = base / "evalyaml-canary"
    canary.mkdir()
    (canary / "schema.json").write_text('{"type": "object"}', "utf-8")
    (canary / "rubric.yaml").write_bytes(b'id: canary\nversion: "1.0.0"\nchecks:\n'
                                         b"  - kind: format\n    format: json\n"
                                         b"scoring:\n  combine: all_pass\n")
    root = copy_examples(base / "ws", mistakes=False)
    (root / "evalyaml.toml").write_text(
        'exclude = ["mistakes/**"]\nbundles_dir = "../evalyaml-canary"\n[bundles]\n'
        'evil = "../evalyaml-canary/schema.json"\n'
        'passwd = "../../../../../../../../etc/passwd"\n'
        f'absolute = "{canary / "schema.json"}"\n'
        'remote = "bundles/remote.schema.json"\n', "utf-8")
    (root / "bundles").mkdir()
    (root / "bundles" / "remote.schema.json").write_text(
        '{"properties": {"x": {"$ref": "http://127.0.0.1:9/remote.json"}}}', "utf-8")
    pwned = base / "pwned"
    (root / "datasets" / "pwn.yaml").write_bytes(DATASET + (
        b"questions:\n  - id: a\n    input: !!python/object/apply:os.system [\"touch %s\"]\n"
        b"  - id: b\n    input: !!python/object/apply:subprocess.check_output "
        b"[[\"touch\", \"%s\"]]\n  - id: c\n    input: !!python/name:os.system\n"
        b"  - id: d\n    input: hi\n    rubric_ref: rubric/../../evalyaml-canary/rubric\n"
        b"  - id: e\n    input: hi\n    rubric_ref: \"rubric/..%%2F..%%2Fetc%%2Fpasswd\"\n"
        b"  - id: f\n    input: hi\n    bundle: ../../evalyaml-canary\n"
        b"  - id: g\n    input: \"$(touch %s)\"\n    expected_tools: [os.system, \"`id`\"]\n"
        % (str(pwned).encode(), str(pwned).encode(), str(pwned).encode())))
    (root / "rubrics" / "foreign_modeline.yaml").write_bytes(
        b"# yaml-language-server: $schema=http://127.0.0.1:9/evil.json\nid: x\n")
    (root / "rubrics" / "refs.yaml").write_bytes(
        b'id: refs\nversion: "1.0.0"\nscoring:\n  combine: all_pass\nchecks:\n'
        b"  - kind: json_schema\n    schema:\n      $ref: \"http://127.0.0.1:9/x.json\"\n"
        b"  - kind: json_schema\n    schema:\n      $schema: \"http://127.0.0.1:9/meta\"\n"
        b"      $id: \"http://127.0.0.1:9/root\"\n      $dynamicRef: \"#meta\"\n"
        b"  - kind: json_schema\n    schema:\n      $ref: \"file://"
        + str(canary / "schema.json").encode() + b"\"\n"
        b"  - kind: json_schema\n    schema:\n      $ref: \"../evalyaml-canary/schema.json\"\n"
        b"  - kind: llm_judge\n    judge_prompt_ref: judge/../../../etc/passwd\n"
        b"  - kind: composite\n    rubric_ref: rubric/../evalyaml-canary/rubric@1\n"
        b'  - kind: regex\n    pattern: "(a+)+$"\n'
        b'  - kind: regex\n    pattern: "^(([a-z])+.)+[A-Z]([a-z])+$"\n')
    (root / "judges" / "schema_key.yaml").write_bytes(
        b"$schema: ../evalyaml-canary/schema.json\n" + b'id: jj\nversion: "1.0.0"\n'
        b'score_type: binary\ntemplate: "{{ input }}"\n')
    (root / "datasets" / "modeline_file.yaml").write_bytes(
        b"# yaml-language-server: $schema=file://" + str(canary / "schema.json").encode()
        + b"\nquestions:\n  - id: a\n    input: b\n")
    (root / "datasets" / "regex_victim.yaml").write_bytes(
        DATASET + b"questions:\n  - id: long\n    input: " + b"a" * 100_000 + b"!\n"
        b"    rubric_ref: rubric/refs@1.0.0\n")
    os.symlink(canary / "rubric.yaml", root / "rubrics" / "link_out.yaml")
    os.symlink(canary, root / "rubrics" / "folder_out")
    (root / "datasets" / "$(touch pwned);rm -rf x;.yaml").write_bytes(
        DATASET + b"questions:\n  - id: shell\n    input: x\n")
    return root


def audited_env(tmp: Path) -> tuple[dict[str, str], Path]:
    hooks = tmp / "audit"
    hooks.mkdir(exist_ok=True)
    (hooks / "sitecustomize.py").write_text(SITECUSTOMIZE, "utf-8")
    log = tmp / "audit.log"
    log.write_text("", "utf-8")
    path = os.pathsep.join(p for p in (str(hooks), os.environ.get("PYTHONPATH", "")) if p)
    return server_env(PYTHONPATH=path, EVALYAML_AUDIT_LOG=str(log)), log


def test_the_hook_catches_what_it_should(tmp_path: Path) -> None:
    """The audit hook itself works: a process that connects and spawns is caught."""
    env, log = audited_env(tmp_path)
    subprocess.run([sys.executable, "-c",
                    "import socket, subprocess\n"
                    "try:\n    socket.create_connection(('127.0.0.1', 9), timeout=1)\n"
                    "except OSError:\n    pass\n"
                    "subprocess.run(['true'])\nopen('/etc/passwd').close()"],
                   env=env, check=True, timeout=BOUND)
    found = log.read_text("utf-8")
    assert "socket.connect" in found and "subprocess.Popen" in found and "open" in found


def test_the_cli_touches_nothing_it_must_not(hostile_root: Path, tmp_path: Path) -> None:
    env, log = audited_env(tmp_path)
    done = subprocess.run([sys.executable, "-m", "evalyaml", "check", "--today", TODAY, "."],
                          cwd=hostile_root, capture_output=True, text=True, timeout=60,
                          check=False, env=env)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == 1
    assert log.read_text("utf-8") == ""
    assert not (hostile_root.parent / "pwned").exists()
    out = done.stdout
    for expected in [
        "datasets/pwn.yaml:4:12: warning EY108 tag '!!python/object/apply:os.system' is "
        "ignored: evalyaml never constructs objects from tags; remove the tag",
        "datasets/pwn.yaml:8:12: warning EY108 tag '!!python/name:os.system' is ignored",
        "datasets/pwn.yaml:11:17: error EY300 malformed reference "
        "'rubric/../../evalyaml-canary/rubric'",
        "datasets/pwn.yaml:14:17: error EY300 malformed reference "
        "'rubric/..%2F..%2Fetc%2Fpasswd'",
        "evalyaml.toml:2:1: error EY321 bundles_dir '../evalyaml-canary' is outside the "
        "workspace root",
        "evalyaml.toml:5:1: error EY321 bundle 'passwd': '../../../../../../../../etc/passwd' "
        "is outside the workspace root",
        "evalyaml.toml:6:1: error EY321 bundle 'absolute':",
        "evalyaml.toml:7:1: error EY321 bundle 'remote': bundles/remote.schema.json uses $ref "
        "'http://127.0.0.1:9/remote.json', which points outside the file",
        "rubrics/refs.yaml:",
    ]:
        assert expected in out, (expected, out)
    assert "canary" not in out.replace("evalyaml-canary/", "").replace(
        "../evalyaml-canary", "")  # no definition from outside


def test_regexes_are_compiled_not_run(hostile_root: Path) -> None:
    """A catastrophic pattern next to a 100,000-character input costs nothing: patterns are
    only compiled."""
    from evalyaml.workspace.index import Workspace

    started = time.perf_counter()
    workspace = Workspace([hostile_root], today=date.fromisoformat(TODAY), workers=1)
    workspace.index_all()
    findings = workspace.findings(hostile_root / "rubrics" / "refs.yaml")
    findings += workspace.findings(hostile_root / "datasets" / "regex_victim.yaml")
    assert time.perf_counter() - started < 10
    assert not any(f.code == "EY212" for f in findings)  # both patterns compile


def test_the_server_touches_nothing_it_must_not(hostile_root: Path, tmp_path: Path) -> None:
    """Index the workspace, open every file, and ask hover, completion, definition, links,
    code lenses and code actions all over each: no network, no process, no canary read."""
    env, log = audited_env(tmp_path)
    server = LspProcess(cwd=tmp_path, env=env, stderr=tmp_path / "server.err")
    try:
        server.initialize(hostile_root)
        server.wait_until(server.progress_ended, 60, "indexing")
        version = 0
        for path in sorted(hostile_root.rglob("*.yaml")):
            if path.is_symlink() or "evalyaml-canary" in str(path.resolve()):
                continue
            text = path.read_text("utf-8")
            version += 1
            uri = path.as_uri()
            server.open(uri, text, version)
            server.wait_publish(uri, version, BOUND)
            lines = Lines(text)
            for line in range(0, len(lines.starts), 3):
                length = len(lines.line(line))
                for character in {0, length // 2, max(0, length - 2)}:
                    pos = {"line": line, "character": character}
                    for method in ("textDocument/hover", "textDocument/completion",
                                   "textDocument/definition"):
                        server.request(method, {"textDocument": {"uri": uri}, "position": pos},
                                       BOUND)
            for method in ("textDocument/documentLink", "textDocument/codeLens",
                           "textDocument/documentSymbol"):
                server.request(method, {"textDocument": {"uri": uri}}, BOUND)
            server.close_document(uri)
        assert_alive(server)
    finally:
        finish(server, tmp_path)
    assert log.read_text("utf-8") == ""
    assert not (hostile_root.parent / "pwned").exists()
    assert not (Path.cwd() / "pwned").exists()
