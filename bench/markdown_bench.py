"""What a Markdown file nothing adopts costs the server, now that editors send every Markdown
buffer (a grader prompt is Markdown, and only the server knows which `.md` a suite names).

One evalyaml session over a copy of `examples/` (push client, UTF-16, like Neovim); for each
kind of file, at two sizes, the median over the edits of:

- open: `didOpen` until the answer to a hover sent right after it (the server handles messages
  in order, so the hover's answer means the open was handled);
- edit: a one-character `didChange` until the answer to a hover sent right after it;
- completion at the end of the file.

Kinds: a Markdown file nothing names (`notes/*.md`), for comparison a YAML file that is not an
eval file (Kubernetes-like), and the adopted AgentV grader prompt with the same text appended
(what an adopted prompt of that size costs). Also the server's peak RSS (`VmHWM`) before and
after opening the unadopted Markdown files. No upstream tool answers for these files, so the
baseline is the non-eval YAML row.

Run: `python bench/markdown_bench.py [--sizes 10 1000] [--edits 30]` (sizes in KB).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lsp_bench import Client, evalyaml_server, initialize, wait_ready

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
PROMPT = "agentv/evals/prompts/support-grader.md"


def markdown(kb: int) -> str:
    para = ("Grade the answer against {{ expected_output }} and cite the rubric. "
            "Notes on tone, 中文 and emoji 😀 are fine.\n\n")
    return "# Notes\n\n" + para * max(1, kb * 1024 // len(para.encode()))


def yaml_text(kb: int) -> str:
    item = "  - name: web\n    port: 80\n    labels: {tier: frontend}\n"
    return "apiVersion: v1\nkind: List\nitems:\n" + item * max(1, kb * 1024 // len(item))


def measure(client: Client, uri: str, text: str, edits: int) -> tuple[float, float, float]:
    lines = text.split("\n")
    end = {"line": len(lines) - 1, "character": len(lines[-1])}
    sent = client.notify("textDocument/didOpen", {"textDocument": {
        "uri": uri, "languageId": "markdown", "version": 1, "text": text}})
    client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                          "position": {"line": 0, "character": 2}})
    opened = (time.perf_counter() - sent) * 1000
    edit_ms: list[float] = []
    for version in range(2, edits + 2):
        sent = client.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": {"line": 2, "character": 0},
                                          "end": {"line": 2, "character": 1}},
                                "text": "G" if version % 2 else "g"}]})
        client.request("textDocument/hover", {"textDocument": {"uri": uri},
                                              "position": {"line": 2, "character": 3}})
        edit_ms.append((time.perf_counter() - sent) * 1000)
    completion_ms, _ = client.request("textDocument/completion", {
        "textDocument": {"uri": uri}, "position": end})
    client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    return opened, statistics.median(edit_ms), completion_ms


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 1000], help="KB")
    parser.add_argument("--edits", type=int, default=30)
    args = parser.parse_args(argv)
    base = Path(tempfile.mkdtemp(prefix="evalyaml-mdbench-"))
    try:
        root = base / "ws"
        shutil.copytree(EXAMPLES, root)
        (root / "notes").mkdir()
        server = evalyaml_server()
        client = Client(server.command, server.settings, root, server.env)
        initialize(client, root)
        wait_ready(client, server)
        rss_before = client.peak_rss_mb()
        rows = []
        prompt = (root / PROMPT).read_text("utf-8")
        for kb in args.sizes:
            body = markdown(kb)
            rows.append((f"Markdown nothing names, {kb} KB",
                         measure(client, (root / f"notes/n{kb}.md").as_uri(), body, args.edits)))
            rows.append((f"YAML, not an eval file, {kb} KB",
                         measure(client, (root / f"deploy/k{kb}.yaml").as_uri(), yaml_text(kb),
                                 args.edits)))
            rows.append((f"adopted grader prompt + {kb} KB",
                         measure(client, (root / PROMPT).as_uri(), prompt + body, args.edits)))
        rss_after = client.peak_rss_mb()
        client.close()
    finally:
        shutil.rmtree(base, ignore_errors=True)
    print(f"{'file':<38} {'open ms':>9} {'edit ms (median)':>17} {'completion ms':>14}")
    for name, (opened, edit, completion) in rows:
        print(f"{name:<38} {opened:>9.1f} {edit:>17.1f} {completion:>14.1f}")
    baseline = {kb: rows[i * 3 + 1][1][1] for i, kb in enumerate(args.sizes)}
    for i, kb in enumerate(args.sizes):
        md_edit = rows[i * 3][1][1]
        print(f"{kb} KB: unadopted Markdown edit / non-eval YAML edit = "
              f"{md_edit / baseline[kb]:.2f}x")
    print(f"server peak RSS: {rss_before:.0f} MB after indexing, {rss_after:.0f} MB at the end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
