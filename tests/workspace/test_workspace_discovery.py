"""Discovery: roots, include/exclude, skipped folders, symlinks, unreadable things."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from wshelpers import TODAY, Tree, codes, dataset, rubric

from evalyaml.config import load_config
from evalyaml.workspace.discovery import discover, in_scope
from evalyaml.workspace.index import Workspace


def _names(workspace: Workspace, root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in workspace.paths()}


def test_skips_vendored_generated_and_virtualenv_folders(tree: Tree) -> None:
    tree.write("rubrics/keep.yaml", rubric("keep"))
    for folder in (".git", "node_modules", ".venv", "build", "dist", "__pycache__"):
        tree.write(f"{folder}/rubrics/x.yaml", rubric("x"))
    tree.write("myenv/pyvenv.cfg", "home = /usr\n")
    tree.write("myenv/lib/rubrics/y.yaml", rubric("y"))
    assert _names(tree.workspace(), tree.root) == {"rubrics/keep.yaml"}


def test_include_and_exclude_from_the_config(tree: Tree) -> None:
    tree.config('include = ["evals/**/*.yaml"]\nexclude = ["evals/old/**"]\n')
    tree.write("evals/rubrics/a.yaml", rubric("a"))
    tree.write("evals/old/rubrics/b.yaml", rubric("b"))
    tree.write("other/rubrics/c.yaml", rubric("c"))
    tree.write("evals/rubrics/d.yml.txt", "not yaml")
    assert _names(tree.workspace(), tree.root) == {"evals/rubrics/a.yaml"}


def test_several_roots(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    Tree(one).write("rubrics/f.yaml", rubric("f"))
    user = Tree(two).write("datasets/d.yaml", dataset("rubric/f@1"))
    workspace = Workspace([one, two], today=TODAY)
    workspace.index_all()
    assert workspace.findings(user) == []  # resolved across roots
    assert {r.path for r in workspace.roots} == {one, two}


def test_nested_root_uses_its_own_config(tmp_path: Path) -> None:
    outer = Tree(tmp_path)
    outer.config("freshness_days = 10\n")
    inner = Tree(tmp_path / "inner")
    inner.config("freshness_days = 500\n")
    workspace = Workspace([tmp_path, tmp_path / "inner"], today=TODAY)
    assert workspace.options(tmp_path / "inner" / "x.yaml").freshness_days == 500
    assert workspace.options(tmp_path / "x.yaml").freshness_days == 10
    del outer, inner


def test_symlinked_folder_loop_is_not_followed(tree: Tree) -> None:
    tree.write("rubrics/a.yaml", rubric("a"))
    (tree.root / "rubrics" / "loop").symlink_to(tree.root, target_is_directory=True)
    assert _names(tree.workspace(), tree.root) == {"rubrics/a.yaml"}


def test_symlink_to_a_file_outside_the_root_is_not_read(tree: Tree, tmp_path_factory
                                                        ) -> None:  # type: ignore[no-untyped-def]
    outside = tmp_path_factory.mktemp("outside") / "secret.yaml"
    outside.write_text(rubric("secret"), "utf-8")
    (tree.root / "rubrics").mkdir()
    (tree.root / "rubrics" / "secret.yaml").symlink_to(outside)
    inside = tree.write("rubrics/real.yaml", rubric("real"))
    (tree.root / "rubrics" / "alias.yaml").symlink_to(inside)
    assert _names(tree.workspace(), tree.root) == {"rubrics/real.yaml", "rubrics/alias.yaml"}


@pytest.mark.skipif(os.geteuid() == 0, reason="root lists every folder")
def test_unreadable_folder_is_reported_once(tree: Tree) -> None:
    tree.write("rubrics/a.yaml", rubric("a"))
    locked = tree.root / "locked"
    locked.mkdir()
    locked.chmod(0)
    try:
        workspace = tree.workspace()
        assert codes(workspace.findings(locked)) == ["EY311"]
    finally:
        locked.chmod(0o755)


def test_walk_errors_go_to_the_callback(tmp_path: Path) -> None:
    config = load_config(tmp_path)
    errors: list[Path] = []
    assert list(discover(tmp_path / "missing", config, lambda p, e: errors.append(p))) == []
    assert errors == [tmp_path / "missing"]


def test_in_scope_matches_discovery(tree: Tree) -> None:
    tree.config('exclude = ["drafts/**"]\n')
    config = load_config(tree.root)
    assert in_scope(tree.root / "rubrics" / "a.yaml", tree.root, config)
    assert not in_scope(tree.root / "drafts" / "a.yaml", tree.root, config)
    assert not in_scope(tree.root / "node_modules" / "a.yaml", tree.root, config)
    assert not in_scope(tree.root / "rubrics" / "a.txt", tree.root, config)
    assert in_scope(tree.root / "eval" / "sets" / "a.json", tree.root, config)  # a format's
    assert not in_scope(tree.root.parent / "a.yaml", tree.root, config)
    # a folder named explicitly is in scope even when excluded
    assert in_scope(tree.root / "drafts" / "a.yaml", tree.root / "drafts", config)


def test_explicit_paths_are_indexed_even_when_excluded(tree: Tree) -> None:
    tree.config('exclude = ["mistakes/**"]\n')
    tree.write("rubrics/f.yaml", rubric("f"))
    user = tree.write("mistakes/datasets/d.yaml", dataset("rubric/g@1"))
    workspace = Workspace([tree.root], today=TODAY, include_paths=[tree.root / "mistakes"])
    workspace.index_all()
    assert workspace.included_files() == [user]
    assert codes(workspace.findings(user)) == ["EY301"]
    plain = tree.workspace()
    assert user not in plain.paths()
