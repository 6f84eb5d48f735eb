"""Hostile files: truncated examples and hand-made nasties, as (relative path, bytes).

The relative path decides the kind where the content cannot (`rubrics/`, `judges/`), and a
dataset modeline is added where a file would otherwise not be ours. Large inputs are built on
demand so that importing this module costs nothing.
"""

from __future__ import annotations

from collections.abc import Iterator

from tests.hostile.harness import EXAMPLES, LONG

DATASET = b"# yaml-language-server: $schema=https://evalyaml.dev/schemas/v1/dataset.schema.json\n"
RUBRIC_HEAD = b'id: hostile\nversion: "1.0.0"\nscoring:\n  combine: all_pass\nchecks:\n'
JUDGE_HEAD = b'id: hostile_judge\nversion: "1.0.0"\nscore_type: binary\n'


def example_files() -> list[tuple[str, bytes]]:
    return [(p.relative_to(EXAMPLES).as_posix(), p.read_bytes())
            for p in sorted(EXAMPLES.rglob("*.yaml"))]


def truncation_points(size: int, data: bytes) -> list[int]:
    """Evenly spread cut points, plus cuts just before and after line breaks and quotes and
    inside multi-byte characters where the file has any."""
    spread = 13 if LONG else 4
    points = {size * i // spread for i in range(1, spread)}
    for needle in (b"\n", b": ", b'"', b"'", b"- ") if LONG else (b": ", b'"'):
        at = data.find(needle, size // 3)
        if at > 0:
            points.update((at, at + 1))
    for index, byte in enumerate(data):
        if byte >= 0xC0:  # the lead byte of a multi-byte character: cut after it
            points.add(index + 1)
            break
    return sorted(p for p in points if 0 < p < size)


def truncations() -> list[tuple[str, bytes]]:
    """Every example file, cut at many points (same folder, so the same kind rules apply)."""
    out = []
    for rel, data in example_files():
        folder, _, name = rel.rpartition("/")
        stem = name.removesuffix(".yaml")
        for point in truncation_points(len(data), data):
            out.append((f"{folder}/{stem}--cut{point}.yaml", data[:point]))
    return out


def _nest_flow(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


def _alias_bomb(levels: int = 10) -> bytes:
    lines = [b'a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, levels):
        refs = b", ".join(b"*a%d" % (i - 1) for _ in range(9))
        lines.append(b"a%d: &a%d [%s]" % (i, i, refs))
    return b"\n".join(lines) + b"\n"


def special_files() -> Iterator[tuple[str, bytes]]:
    """The hand-made hostile files; some are large (built lazily)."""
    case = b"questions:\n  - id: a\n    input: hello\n"
    # -- encodings
    yield "datasets/invalid_utf8.yaml", DATASET + b"questions:\n  - id: \xff\xfe\xc3\x28\n"
    yield "rubrics/invalid_utf8.yaml", RUBRIC_HEAD + b"  - kind: regex\n    pattern: \xe2\x82\n"
    yield "datasets/overlong_utf8.yaml", DATASET + case + b"    criteria: \xc0\xaf\xed\xa0\x80\n"
    yield "datasets/nul_bytes.yaml", DATASET + case.replace(b"hello", b"he\x00llo") + b"\x00\n"
    yield "rubrics/nul_first.yaml", b"\x00" + RUBRIC_HEAD
    yield "datasets/bom_utf8.yaml", b"\xef\xbb\xbf" + DATASET + case + b"    rubric_ref: x\n"
    yield "datasets/bom_twice.yaml", b"\xef\xbb\xbf\xef\xbb\xbf" + DATASET + case
    yield "datasets/bom_inside.yaml", DATASET + case + b"    criteria: a\xef\xbb\xbfb\n"
    yield "datasets/utf16le_bom.yaml", b"\xff\xfe" + (DATASET + case).decode().encode("utf-16-le")
    yield "datasets/utf16be_bom.yaml", b"\xfe\xff" + (DATASET + case).decode().encode("utf-16-be")
    yield "rubrics/utf32.yaml", RUBRIC_HEAD.decode().encode("utf-32")
    yield "datasets/binary_noise.yaml", bytes(range(256)) * 64
    # -- line ends and Unicode line separators
    yield "datasets/crlf.yaml", (DATASET + case + b"    expecteed_facts: [x]\n").replace(
        b"\n", b"\r\n")
    yield "datasets/cr_only.yaml", (DATASET + case + b"    expecteed_facts: [x]\n").replace(
        b"\n", b"\r")
    yield "datasets/mixed_line_ends.yaml", (
        DATASET + b"questions:\r\n  - id: a\r    input: b\n  - id: a\r\n    input: c\r"
        b"    expecteed_facts: [x]\n\r\n")
    yield "rubrics/mixed_line_ends.yaml", (
        b'id: mixed\r\nversion: 1.10\rchecks:\n  - kind: regx\r\n    pattern: "("\r'
        b"scoring:\r\n  combine: weighted_avg\n")
    yield "datasets/u2028.yaml", (
        DATASET + "questions:\n  - id: a\u2028b\n    input: \"x\u2028y\u2029z\"\n"
        "    criteria: plain\u2028value\u0085more\n    expecteed_facts: [\u2028]\n".encode())
    yield "judges/u2028.yaml", (
        JUDGE_HEAD + "template: \"{{ input }}\u2028{{ outptu }}\u2029\"\n".encode())
    yield "datasets/emoji_columns.yaml", (
        DATASET + "questions:\n  - id: 😀😀\n    input: \U0001d518\U0001d52b 中文 e\u0301\n"
        "    expecteed_facts: [😀]\n    rubric_ref: rubric/😀@1\n".encode())
    # -- tags: nothing may ever be constructed
    yield "datasets/python_tags.yaml", DATASET + (
        b"questions:\n  - id: a\n"
        b"    input: !!python/object/apply:os.system [\"touch /tmp/pwned\"]\n"
        b"  - id: b\n"
        b"    input: !!python/object/new:subprocess.Popen [[\"touch\", \"/tmp/pwned\"]]\n"
        b"  - id: c\n    input: !!python/name:os.system\n"
        b"  - id: d\n    input: !!python/module:os\n")
    yield "rubrics/python_tags.yaml", RUBRIC_HEAD + (
        b"  - kind: !!python/object/apply:os.system [\"touch /tmp/pwned\"]\n"
        b"  - kind: regex\n    pattern: !<tag:yaml.org,2002:python/object/apply:os.system> [x]\n")
    yield "judges/other_tags.yaml", JUDGE_HEAD + (
        b"template: !!binary aGVsbG8=\napplicable_to: !!set {a, b}\n"
        b"validation: !!omap [tpr: 0.9]\nlevel_names: !custom [a]\nx: !!timestamp 2001-12-14\n")
    yield "datasets/tag_directive.yaml", (
        b"%TAG !p! tag:yaml.org,2002:python/\n---\nquestions:\n  - id: a\n"
        b"    input: !p!object/apply:os.system [\"touch /tmp/pwned\"]\n")
    # -- structure bombs
    yield "datasets/alias_bomb.yaml", DATASET + _alias_bomb() + (
        b"questions:\n  - id: a\n    input: hello\n    extra: *a9\n")
    yield "rubrics/alias_bomb.yaml", _alias_bomb() + RUBRIC_HEAD + (
        b"  - kind: must_contain_any\n    values: *a9\n")
    yield "datasets/self_merge.yaml", DATASET + (
        b"base: &b {x: 1}\nquestions:\n  - &c\n    <<: [*b, *b, *b]\n    id: a\n    input: b\n"
        b"  - *c\n")
    yield "datasets/nest_flow_10000.yaml", DATASET + b"questions: " + _nest_flow(10_000) + b"\n"
    yield "rubrics/nest_flow_map_10000.yaml", RUBRIC_HEAD + b"  - kind: json_schema\n    schema: " \
        + b"{a: " * 10_000 + b"1" + b"}" * 10_000 + b"\n"
    # Block nesting needs one more column per level: 3,000 levels is already 4.5 MB.
    yield "datasets/nest_block_3000.yaml", DATASET + case + b"    extra:\n" + b"".join(
        b"     " + b" " * i + b"k:\n" for i in range(3_000))
    yield "datasets/nest_dash_10000.yaml", DATASET + b"questions:\n" + b"- " * 10_000 + b"x\n"
    yield "datasets/keys_100000.yaml", DATASET + case + b"    extra:\n" + b"".join(
        b"      k%d: v\n" % i for i in range(100_000))
    yield "rubrics/keys_100000.yaml", RUBRIC_HEAD + b"".join(
        b"x%d: 1\n" % i for i in range(100_000))
    yield "datasets/duplicate_keys.yaml", DATASET + case + b"    input: again\n" * 1_000 + (
        b"  - id: a\n    id: a\n    input: x\n")
    yield "rubrics/duplicate_keys.yaml", RUBRIC_HEAD.replace(b"id: hostile\n", b"id: a\n" * 50)
    yield "datasets/documents_1000.yaml", DATASET + (b"---\n" + case) * 1_000
    # -- sizes
    yield "datasets/line_10mb_flow.yaml", DATASET + b'{"questions": [{"id": "a", "input": "' \
        + b"x" * (10 * 1024 * 1024) + b'"}]}'
    yield "datasets/line_10mb_plain.yaml", DATASET + b"questions:\n  - id: a\n    input: " \
        + b"word " * (2 * 1024 * 1024) + b"\n"
    yield "rubrics/line_10mb_comment.yaml", RUBRIC_HEAD + b"#" + b"c" * (10 * 1024 * 1024) + b"\n"
    yield "datasets/long_key.yaml", DATASET + case + b"    " + b"k" * 100_000 + b": v\n"
    yield "datasets/many_cases_tiny.yaml", DATASET + b"questions:\n" + b"".join(
        b"  - {id: c%d, input: x}\n" % i for i in range(5_000))
    # -- values that are odd as Python values
    yield "rubrics/huge_numbers.yaml", (
        b"id: huge\nversion: " + b"9" * 5_000 + b"\nchecks:\n  - kind: fact_match\n"
        b"    threshold: 1e400\n    weight: 0x" + b"f" * 5_000 + b"\n  - kind: format\n"
        b"    format: json\n    weight: .nan\nscoring:\n  combine: weighted_avg\n")
    yield "datasets/huge_pins.yaml", DATASET + (
        b"questions:\n  - id: a\n    input: b\n    rubric_ref: rubric/x@" + b"9" * 5_000 +
        b"\n  - id: c\n    input: d\n    rubric_ref: rubric/x@1." + b"9" * 5_000 + b"\n")
    yield "judges/bad_dates.yaml", JUDGE_HEAD + (
        b"template: \"{{ input }}\"\nvalidation:\n  tpr: .nan\n  tnr: -.inf\n"
        b"  validated_at: 0000-02-30\n  sample_size: 1e400\n")
    yield "rubrics/regex_bombs.yaml", RUBRIC_HEAD + (
        b'  - kind: regex\n    pattern: "(a+)+$"\n'
        b'  - kind: regex\n    pattern: "' + b"(" * 5_000 + b")" * 5_000 + b'"\n'
        b'  - kind: regex\n    pattern: "a{4294967296}"\n'
        b'  - kind: regex\n    pattern: "(?:' + b"a|" * 10_000 + b'a)*$"\n')
    yield "rubrics/regex_brackets.yaml", RUBRIC_HEAD + (
        b"  - kind: regex\n    pattern: '" + b"[" * 50_000 + b"'\n")
    yield "rubrics/schema_refs.yaml", RUBRIC_HEAD + (
        b"  - kind: json_schema\n    schema:\n      $ref: \"http://127.0.0.1:9/x.json\"\n"
        b"  - kind: json_schema\n    schema:\n      $schema: \"http://127.0.0.1:9/meta\"\n"
        b"      $id: \"http://127.0.0.1:9/root\"\n      $dynamicRef: \"#meta\"\n"
        b"  - kind: json_schema\n    schema: {$ref: \"file:///etc/passwd\"}\n")
    # -- degenerate
    yield "rubrics/empty.yaml", b""
    yield "datasets/only_modeline.yaml", DATASET
    yield "rubrics/whitespace.yaml", b"   \n\t\n \r\n"
    yield "rubrics/just_document_markers.yaml", b"---\n...\n---\n...\n"
    yield "judges/scalar_root.yaml", b"just a string\n"
    yield "datasets/json_not_yaml.yaml", b'{"questions": [{"id": 1, "input": null}], }'
    yield "rubrics/markdown.yaml", b"# Title\n\n* item\n* item\n\n```yaml\nid: x\n```\n"
    yield "rubrics/python_code.yaml", b"import os\nos.system('touch /tmp/pwned')\n"
    yield "datasets/png_bytes.yaml", b"\x89PNG\r\n\x1a\n" + bytes(range(200))


def all_hostile() -> list[tuple[str, bytes]]:
    return [*special_files(), *truncations()]
