"""Configuration: `evalyaml.toml`, or `[tool.evalyaml]` in `pyproject.toml`, at the root."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from evalyaml.checker import check_paths
from evalyaml.config import Config, find_root, load_config, parse_config
from evalyaml.core.codes import Severity

TODAY = date(2026, 11, 21)
RUBRIC = 'id: r\nversion: "1.0.0"\nchecks: [{kind: php_lint}]\nscoring: {combine: all_pass}\n'
STALE_JUDGE = ('id: j\nversion: "1.0.0"\nscore_type: binary\ntemplate: "{{ output }}"\n'
               "validation:\n  validated_at: 2026-10-01\n")  # 51 days before TODAY


def rows(config: Config) -> list[tuple[str, tuple[int, int, int, int], str, str]]:
    return [(f.code, (f.span.start.line, f.span.start.character, f.span.end.line,
                      f.span.end.character), f.severity.label, f.message)
            for f in config.findings]


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_defaults_without_a_config_file(tmp_path: Path) -> None:
    config = load_config(tmp_path)
    assert (config.source, config.strict, config.freshness_days, config.findings) == (
        None, False, 90, ())
    # every format's suffixes
    assert config.include == ("**/*.json", "**/*.jsonl", "**/*.yaml", "**/*.yml")
    assert config.exclude == ()
    options = config.options(today=TODAY)
    assert (options.strict, options.freshness_days, options.today) == (False, 90, TODAY)
    assert options.max_file_bytes == 20 * 1024 * 1024


def test_evalyaml_toml_values(tmp_path: Path) -> None:
    write(tmp_path, {"evalyaml.toml": 'strict = true\nfreshness_days = 30\ninclude = ["evals/**"]'
                     '\nexclude = ["drafts/**", "*.tmp.yaml"]\nmax_file_mb = 2.5\n'})
    config = load_config(tmp_path)
    assert config.source == tmp_path / "evalyaml.toml"
    assert (config.strict, config.freshness_days, config.include, config.exclude,
            config.max_file_mb, config.findings) == (
        True, 30, ("evals/**",), ("drafts/**", "*.tmp.yaml"), 2.5, ())
    options = config.options(today=TODAY)
    assert options.strict and options.freshness_days == 30
    assert options.max_file_bytes == int(2.5 * 1024 * 1024)
    assert not config.options(today=TODAY, strict=False).strict  # the CLI/editor override


def test_pyproject_tool_table(tmp_path: Path) -> None:
    write(tmp_path, {"pyproject.toml": '[project]\nname = "x"\n\n[tool.evalyaml]\nstrict = true\n'
                     "freshness_days = 45\n"})
    config = load_config(tmp_path)
    assert config.source == tmp_path / "pyproject.toml"
    assert (config.strict, config.freshness_days, config.findings) == (True, 45, ())


def test_evalyaml_toml_wins_over_pyproject(tmp_path: Path) -> None:
    write(tmp_path, {"pyproject.toml": "[tool.evalyaml]\nfreshness_days = 45\n",
                     "evalyaml.toml": "freshness_days = 10\n"})
    assert load_config(tmp_path).freshness_days == 10


def test_find_root_walks_up_to_the_nearest_config(tmp_path: Path) -> None:
    write(tmp_path, {"evalyaml.toml": "", "a/pyproject.toml": '[project]\nname = "x"\n',
                     "a/b/rubrics/r.yaml": RUBRIC})
    assert find_root(tmp_path / "a/b/rubrics/r.yaml") == tmp_path  # pyproject without the table
    write(tmp_path, {"a/pyproject.toml": "[tool.evalyaml]\nstrict = false\n"})
    assert find_root(tmp_path / "a/b/rubrics/r.yaml") == tmp_path / "a"
    assert find_root(tmp_path / "a/b") == tmp_path / "a"


@pytest.mark.parametrize(("text", "expected"), [
    ("freshnes_days = 30\n", [("EY320", (0, 0, 0, 13), "warning",
                               "unknown configuration key 'freshnes_days'; did you mean "
                               "'freshness_days'?")]),
    ("strict = false\n  exclud = []\n", [("EY320", (1, 2, 1, 8), "warning",
                                          "unknown configuration key 'exclud'; did you mean "
                                          "'exclude'?")]),
    ("colour = 'red'\n", [("EY320", (0, 0, 0, 6), "warning",
                          "unknown configuration key 'colour'")]),
    ('strict = "yes"\n', [("EY321", (0, 0, 0, 6), "error", "'strict' must be true or false")]),
    ('freshness_days = "90"\n', [("EY321", (0, 0, 0, 14), "error",
                                  "'freshness_days' must be a whole number of days")]),
    ("freshness_days = true\n", [("EY321", (0, 0, 0, 14), "error",
                                  "'freshness_days' must be a whole number of days")]),
    ("freshness_days = 7.5\n", [("EY321", (0, 0, 0, 14), "error",
                                 "'freshness_days' must be a whole number of days")]),
    ('exclude = "drafts/**"\n', [("EY321", (0, 0, 0, 7), "error",
                                  "'exclude' must be a list of glob patterns")]),
    ("include = [1, 2]\n", [("EY321", (0, 0, 0, 7), "error",
                             "'include' must be a list of glob patterns (strings)")]),
])
def test_config_problems_are_located_findings(text: str, expected: list[object]) -> None:
    config = parse_config(text, Path("/ws"), Path("/ws/evalyaml.toml"))
    assert rows(config) == expected
    assert (config.strict, config.freshness_days) == (False, 90)  # bad values fall back


def test_invalid_toml_is_ey321_on_its_line() -> None:
    """tomllib's message says where ("at line 2, column 18"); the finding must be there too."""
    config = parse_config("strict = true\nfreshness_days = \n", Path("/ws"), None)
    assert [(code, where[0]) for code, where, *_ in rows(config)] == [("EY321", 1)]
    assert rows(config)[0][3].startswith("invalid TOML: ")


def test_pyproject_findings_point_into_the_evalyaml_table(tmp_path: Path) -> None:
    """`strict` and `freshness_days` also exist in [tool.mypy]; the finding belongs on the
    [tool.evalyaml] line that is wrong, not on mypy's."""
    write(tmp_path, {"pyproject.toml": '[tool.mypy]\nstrict = true\nfreshness_days = 1\n\n'
                     '[tool.evalyaml]\nfreshness_days = "90"\n'})
    config = load_config(tmp_path)
    assert rows(config) == [("EY321", (5, 0, 5, 14), "error",
                             "'freshness_days' must be a whole number of days")]


# -- the configuration drives a check -----------------------------------------------------------

def test_freshness_days_from_config_drives_ey403(tmp_path: Path) -> None:
    write(tmp_path, {"judges/j.yaml": STALE_JUDGE})
    assert [f.code for _, f in check_paths([tmp_path], today=TODAY).all_findings()] == []
    write(tmp_path, {"evalyaml.toml": "freshness_days = 30\n"})
    found = [(f.code, f.message) for _, f in check_paths([tmp_path], today=TODAY).all_findings()]
    assert found == [("EY403", "this judge was validated 51 days ago (2026-10-01), more than the "
                      "30-day limit; re-validate it and update validated_at")]


def test_strict_from_config_and_its_override(tmp_path: Path) -> None:
    write(tmp_path, {"evalyaml.toml": "strict = true\n", "judges/j.yaml": STALE_JUDGE,
                     "evals/d.yaml": "questions:\n  - id: a\n    inptu: b\n  - id: c\n"})

    def severities(strict: bool | None) -> list[str]:
        result = check_paths([tmp_path], today=TODAY, strict=strict)
        return sorted(f"{f.code}:{f.severity.label}" for _, f in result.all_findings())

    assert severities(None) == ["EY201:error", "EY205:error"]
    assert severities(False) == ["EY201:warning", "EY205:warning"]
    write(tmp_path, {"evalyaml.toml": "strict = false\n"})
    assert severities(None) == ["EY201:warning", "EY205:warning"]
    assert severities(True) == ["EY201:error", "EY205:error"]


def test_config_findings_follow_strict_mode(tmp_path: Path) -> None:
    """Strict mode makes every contract finding an error, EY320 in the config included: a typo
    in the config must fail a strict CI run."""
    write(tmp_path, {"evalyaml.toml": "strict = true\nfreshnes_days = 30\n",
                     "rubrics/r.yaml": RUBRIC})
    found = [(f.code, f.severity) for _, f in check_paths([tmp_path], today=TODAY).all_findings()]
    assert found == [("EY320", Severity.ERROR)]


def test_include_and_exclude(tmp_path: Path) -> None:
    bad = "questions:\n  - id: a\n    inptu: b\n"
    write(tmp_path, {"evals/a.yaml": bad, "evals/drafts/b.yaml": bad, "other/c.yml": bad,
                     "evals/d.tmp.yaml": bad, "node_modules/pkg/e.yaml": bad})

    def checked(*names: str) -> list[str]:
        paths = [tmp_path / n for n in names] or [tmp_path]
        result = check_paths(paths, today=TODAY)
        return sorted({r.path.relative_to(tmp_path).as_posix() for r in result.reports
                       if r.path.suffix in (".yaml", ".yml")})

    assert checked() == ["evals/a.yaml", "evals/d.tmp.yaml", "evals/drafts/b.yaml",
                         "other/c.yml"]
    write(tmp_path, {"evalyaml.toml": 'include = ["evals/**"]\n'
                     'exclude = ["evals/drafts/**", "*.tmp.yaml"]\n'})
    assert checked() == ["evals/a.yaml"]
    # A folder or file named explicitly is checked even when excluded.
    assert checked("evals/drafts") == ["evals/drafts/b.yaml"]
    assert checked("evals/d.tmp.yaml") == ["evals/d.tmp.yaml"]
