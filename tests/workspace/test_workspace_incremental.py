"""One file at a time: updates return exactly the files whose findings may change."""

from __future__ import annotations

from pathlib import Path

from wshelpers import Tree, codes, dataset, judge, rubric

from evalyaml.core.kinds import FileKind
from evalyaml.workspace.index import Workspace


def _many(tree: Tree) -> tuple[Path, list[Path], list[Path]]:
    """Two rubrics; ten datasets use `f`, ten use `g`."""
    f = tree.write("rubrics/f.yaml", rubric("f", "1.0.0"))
    tree.write("rubrics/g.yaml", rubric("g", "1.0.0"))
    users_f = [tree.write(f"datasets/f{n}.yaml", dataset("rubric/f@1")) for n in range(10)]
    users_g = [tree.write(f"datasets/g{n}.yaml", dataset("rubric/g@1")) for n in range(10)]
    return f, users_f, users_g


def _check_all(workspace: Workspace) -> None:
    for path in workspace.eval_files():
        workspace.findings(path)


def test_editing_a_rubric_reresolves_only_its_dependents(tree: Tree) -> None:
    f, users_f, _ = _many(tree)
    workspace = tree.workspace()
    _check_all(workspace)
    before = workspace.stats_cross_computed
    touched = workspace.set_text(f, rubric("f", "2.0.0"))
    assert touched == {f, *users_f}
    _check_all(workspace)  # only the touched files are computed again
    assert workspace.stats_cross_computed - before == len(touched) == 11
    assert all(codes(workspace.findings(p)) == ["EY302"] for p in users_f)


def test_an_edit_that_keeps_the_identity_touches_only_the_file(tree: Tree) -> None:
    f, _, _ = _many(tree)
    workspace = tree.workspace()
    _check_all(workspace)
    before = workspace.stats_cross_computed
    touched = workspace.set_text(f, rubric("f", "1.0.0").replace("format: json", "format: text"))
    assert touched == {f}
    _check_all(workspace)
    assert workspace.stats_cross_computed - before == 1


def test_editing_a_dataset_touches_only_itself(tree: Tree) -> None:
    _, users_f, _ = _many(tree)
    workspace = tree.workspace()
    assert workspace.set_text(users_f[0], dataset("rubric/g@1")) == {users_f[0]}
    assert workspace.referrers(FileKind.RUBRIC, "g") >= {users_f[0]}
    assert users_f[0] not in workspace.referrers(FileKind.RUBRIC, "f")


def test_new_version_in_a_new_file(tree: Tree) -> None:
    _f, users_f, _ = _many(tree)
    workspace = tree.workspace()
    newer = tree.write("rubrics/f-1.1.yaml", rubric("f", "1.1.0"))
    assert workspace.refresh(newer) == {newer, *users_f}  # f's own findings cannot change
    resolution = workspace.resolve(workspace.analysis(users_f[0]).references[0])  # type: ignore[union-attr]
    assert resolution.path == newer


def test_duplicate_appears_and_goes(tree: Tree) -> None:
    f, users_f, _ = _many(tree)
    workspace = tree.workspace()
    copy = tree.write("rubrics/f-copy.yaml", rubric("f", "1.0.0"))
    assert workspace.refresh(copy) == {copy, f, *users_f}
    assert codes(workspace.findings(f)) == ["EY305"]
    copy.unlink()
    assert workspace.refresh(copy) == {copy, f, *users_f}
    assert workspace.findings(f) == []
    assert copy not in workspace.paths()


def test_deleting_a_rubric_makes_references_dangle(tree: Tree) -> None:
    f, users_f, _ = _many(tree)
    workspace = tree.workspace()
    _check_all(workspace)
    assert workspace.remove(f) == {f, *users_f}
    assert codes(workspace.findings(users_f[0])) == ["EY301"]
    assert workspace.findings(f) == []


def test_new_id_refreshes_did_you_mean_of_unresolved_references(tree: Tree) -> None:
    user = tree.write("datasets/d.yaml", dataset("rubric/factualty@1"))
    far = tree.write("datasets/e.yaml", dataset("rubric/zzzzzzzz@1"))
    workspace = tree.workspace()
    assert "did you mean" not in workspace.findings(user)[0].message
    touched = workspace.set_text(tree.root / "rubrics" / "factuality.yaml", rubric("factuality"))
    assert user in touched and far not in touched
    assert "did you mean 'factuality'?" in workspace.findings(user)[0].message


def test_closing_the_cycle_from_the_third_file(tree: Tree) -> None:
    a = tree.write("rubrics/a.yaml", rubric("a", composite=["rubric/b@1"]))
    b = tree.write("rubrics/b.yaml", rubric("b", composite=["rubric/c@1"]))
    c = tree.write("rubrics/c.yaml", rubric("c"))
    workspace = tree.workspace()
    assert codes(workspace.findings(a)) == ["EY306"]  # b is a composite
    assert workspace.findings(b) == []
    # c now includes a: a cycle of three. a's reference resolves to b, not c, but a's cycle
    # search walked through c, so a is re-checked too.
    touched = workspace.set_text(c, rubric("c", composite=["rubric/a@1"]))
    assert {a, b, c} <= touched
    assert [codes(workspace.findings(p)) for p in (a, b, c)] == [["EY307"]] * 3
    # and back
    touched = workspace.set_text(c, rubric("c"))
    assert {a, b, c} <= touched
    assert codes(workspace.findings(a)) == ["EY306"]
    assert workspace.findings(b) == []


def test_judge_validation_change_reaches_the_rubrics(tree: Tree) -> None:
    j = tree.write("judges/j.yaml", judge("j"))
    r = tree.write("rubrics/r.yaml", rubric("r", judge="judge/j@1.0.0"))
    other = tree.write("rubrics/s.yaml", rubric("s"))
    workspace = tree.workspace()
    assert workspace.findings(r) == []
    touched = workspace.set_text(j, judge("j", validated_at=None))
    assert touched == {j, r} and other not in touched
    assert codes(workspace.findings(r)) == ["EY308"]


def test_open_buffer_wins_over_the_disk(tree: Tree) -> None:
    f, users_f, _ = _many(tree)
    workspace = tree.workspace()
    workspace.set_text(f, rubric("f", "2.0.0"))
    assert workspace.is_open(f)
    f.write_text(rubric("f", "3.0.0"), "utf-8")
    assert workspace.refresh(f) == set()  # the editor's buffer is what counts
    workspace.index_all()  # a re-index keeps it too
    assert workspace.analysis(f).definitions[0].version == "2.0.0"  # type: ignore[union-attr]
    touched = workspace.close(f)
    assert touched == {f, *users_f}
    assert workspace.analysis(f).definitions[0].version == "3.0.0"  # type: ignore[union-attr]
    assert not workspace.is_open(f)


def test_closing_a_file_outside_the_workspace_drops_it(tree: Tree, tmp_path_factory) -> None:  # type: ignore[no-untyped-def]
    _many(tree)
    workspace = tree.workspace()
    elsewhere = tmp_path_factory.mktemp("elsewhere") / "d.yaml"
    elsewhere.write_text(dataset("rubric/f@1"), "utf-8")
    workspace.set_text(elsewhere, dataset("rubric/f@1"))
    assert workspace.findings(elsewhere) == []  # resolved against the workspace all the same
    assert workspace.close(elsewhere) == {elsewhere}
    assert workspace.analysis(elsewhere) is None


def test_excluded_file_is_dropped_on_close(tree: Tree) -> None:
    tree.config('exclude = ["drafts/**"]\n')
    draft = tree.write("drafts/rubrics/x.yaml", rubric("x"))
    workspace = tree.workspace()
    assert draft not in workspace.paths()
    workspace.set_text(draft, rubric("x"))
    assert workspace.analysis(draft) is not None
    workspace.close(draft)
    assert workspace.analysis(draft) is None


def test_references_to_and_dependents(tree: Tree) -> None:
    f, users_f, _ = _many(tree)
    composite = tree.write("rubrics/h.yaml", rubric("h", composite=["rubric/f@1.0.0"]))
    workspace = tree.workspace()
    definition = workspace.analysis(f).definitions[0]  # type: ignore[union-attr]
    holders = {p for p, _ in workspace.references_to(f, definition)}
    assert holders == {*users_f, composite}
    assert workspace.dependents(f) == {*users_f, composite}


def test_update_text_or_disk(tree: Tree) -> None:
    f, _, _ = _many(tree)
    workspace = tree.workspace()
    assert f in workspace.update(f, rubric("f", "1.0.1"))
    workspace.close(f)
    assert workspace.update(f, None) == {f}  # unchanged on disk: only itself


def test_progress_is_reported(tree: Tree) -> None:
    _many(tree)
    seen: list[tuple[int, int]] = []
    workspace = Workspace([tree.root])
    workspace.index_all(lambda done, total: seen.append((done, total)))
    assert seen[-1] == (22, 22)
    assert len(workspace.eval_files()) == 22


def test_parallel_and_serial_index_agree(tree: Tree) -> None:
    _many(tree)
    tree.write("datasets/bad.yaml", dataset("rubric/nope@1"))
    serial = Workspace([tree.root], workers=1)
    serial.index_all()
    parallel = Workspace([tree.root], workers=2)
    parallel.index_all()
    assert serial.eval_files() == parallel.eval_files()
    for path in serial.eval_files():
        assert serial.findings(path) == parallel.findings(path)


def test_refreshing_a_folder(tree: Tree) -> None:
    f, users_f, _ = _many(tree)
    workspace = tree.workspace()
    # a folder of rubrics appears at once (a checkout, a copy)
    newer = tree.write("more/rubrics/f-2.yaml", rubric("f", "1.5.0"))
    touched = workspace.refresh(tree.root / "more")
    assert newer in touched and set(users_f) <= touched
    # and the whole rubrics folder goes away
    import shutil

    shutil.rmtree(tree.root / "rubrics")
    touched = workspace.refresh(tree.root / "rubrics")
    assert f in touched and f not in workspace.paths()
    assert workspace.resolve(workspace.analysis(users_f[0]).references[0]).path == newer  # type: ignore[union-attr]
    shutil.rmtree(tree.root / "more")
    workspace.refresh(tree.root / "more")
    assert codes(workspace.findings(users_f[0])) == ["EY301"]


def test_refreshing_an_excluded_folder_indexes_nothing(tree: Tree) -> None:
    tree.config('exclude = ["drafts/**"]\n')
    workspace = tree.workspace()
    tree.write("drafts/rubrics/x.yaml", rubric("x"))
    assert workspace.refresh(tree.root / "drafts") == set()
    assert workspace.paths() == []


def test_configure_and_reload_config(tree: Tree) -> None:
    j = tree.write("judges/j.yaml", judge("j", validated_at="2026-06-01"))
    r = tree.write("rubrics/r.yaml", rubric("r", judge="judge/j@1.0.0"))
    d = tree.write("datasets/d.yaml", dataset("rubric/r"))
    workspace = tree.workspace()
    workspace.set_text(d, dataset("rubric/r"))  # open in the editor
    assert codes(workspace.findings(r)) == ["EY308"]  # 173 days > 90
    assert workspace.findings(d)[0].severity.label == "warning"
    touched = workspace.configure(today=workspace.options(r).today, strict=True,
                                  freshness_days=365)
    assert touched >= {j, r, d}
    assert workspace.findings(r) == []
    assert workspace.findings(d)[0].severity.label == "error"  # the open buffer too
    tree.config("freshness_days = 30\n")
    workspace.configure(today=workspace.options(r).today)
    workspace.reload_config()
    assert codes(workspace.findings(r)) == ["EY308"]  # 173 days > 30
    assert codes(workspace.findings(j)) == ["EY403"]


def test_a_buffer_equal_to_the_disk_text_takes_the_indexed_analysis(tree: Tree) -> None:
    """`open_unchanged`: the same text the index read (BOM dropped as the decoder does) is
    adopted as the open buffer, analysis and findings as they were; any other text is not."""
    tree.write("rubrics/f.yaml", rubric("f", "1.0.0"))
    text = dataset("rubric/f@1") + "  - id: second\n    input: hi\n"
    path = tree.write("datasets/d.yaml", text)
    bom = tree.root / "datasets" / "bom.yaml"
    bom.write_bytes(b"\xef\xbb\xbf" + text.encode())
    workspace = tree.workspace()
    before, findings = workspace.analysis(path), workspace.findings(path)
    assert not workspace.open_unchanged(path, text + " ")
    assert not workspace.open_unchanged(path, "\ufeff" + text)
    assert not workspace.is_open(path)
    assert workspace.open_unchanged(path, text)
    assert workspace.is_open(path) and workspace.analysis(path) is before
    assert workspace.findings(path) == findings
    assert not workspace.open_unchanged(path, text)  # already open: set_text's business
    assert workspace.open_unchanged(bom, text)
    # back to the disk copy on close; then a fresh analysis equals the adopted one
    workspace.close(path)
    fresh = workspace.set_text(path, text)
    assert path in fresh and workspace.findings(path) == findings
