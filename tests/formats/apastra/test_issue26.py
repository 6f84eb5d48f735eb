"""Issue #26 for Apastra: a placeholder nothing supplies is shown at the placeholder itself
(the suite's finding links to it), and a byte-order mark is reported where Apastra's own
Python readers (`runtime/digest.py`, `hooks/agent_hook.py`) reject it."""

from __future__ import annotations

from pathlib import Path

from evalyaml.workspace.index import Workspace


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_an_unsupplied_placeholder_links_to_the_placeholder(tmp_path: Path) -> None:
    _write(tmp_path, {
        "promptops/suites/s.yaml": "id: s\nname: S\nprompt: tone\ndatasets: [faq]\n"
                                   "evaluators: [em]\nmodel_matrix: [m]\n",
        "promptops/prompts/tone.yaml": "id: tone\nvariables: {text: {type: string}, "
                                       "lang: {type: string}}\n"
                                       "template: \"{{text}} then {{text}} in {{lang}}\"\n",
        "promptops/datasets/faq.jsonl": '{"case_id": "c1", "inputs": {"text": "hi"}}\n',
        "promptops/evaluators/em.yaml": "id: em\ntype: deterministic\nmetrics: [m]\n",
    })
    workspace = Workspace([tmp_path])
    workspace.index_all()
    found = [f for f in workspace.findings(tmp_path / "promptops/suites/s.yaml")
             if f.code == "EY809"]
    assert len(found) == 1
    (related,) = found[0].related
    assert related.path == str(tmp_path / "promptops/prompts/tone.yaml")
    # `{{lang}}` on line 2 (0-based), columns 37-45 of `template: "{{text}} then ...`
    assert tuple(related.span) == ((2, 37), (2, 45))
    assert related.message == "'{{lang}}' in the prompt"


def test_an_unsupplied_placeholder_close_to_a_given_input_says_which(tmp_path: Path) -> None:
    _write(tmp_path, {
        "promptops/suites/s.yaml": "id: s\nname: S\nprompt: tone\ndatasets: [faq]\n"
                                   "evaluators: [em]\nmodel_matrix: [m]\n",
        "promptops/prompts/tone.yaml": "id: tone\nvariables: {text: {type: string}, "
                                       "lang: {type: string}}\n"
                                       "template: \"{{text}} in {{lnag}}\"\n",
        "promptops/datasets/faq.jsonl": '{"case_id": "c1", "inputs": {"text": "hi", '
                                        '"lang": "fr"}}\n',
        "promptops/evaluators/em.yaml": "id: em\ntype: deterministic\nmetrics: [m]\n",
    })
    workspace = Workspace([tmp_path])
    workspace.index_all()
    found = [f.message for f in workspace.findings(tmp_path / "promptops/suites/s.yaml")
             if f.code == "EY809"]
    assert found == ["prompt 'tone' uses '{{lnag}}' but dataset 'faq' gives no input 'lnag' "
                     "(case 'c1'): Apastra leaves it in the prompt as written; did you mean "
                     "'{{lang}}'?"]
