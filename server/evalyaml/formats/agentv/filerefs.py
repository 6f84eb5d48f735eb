"""The other files a suite's references name (`FileAnalysis.file_refs`): the candidates AgentV
searches for each, and the kind the workspace adopts the file as."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path, PurePath

from evalyaml.core.model import FileRef
from evalyaml.formats.agentv import rules, targetrefs
from evalyaml.formats.agentv.kinds import CASES, PROMPT, WORKSPACE
from evalyaml.formats.agentv.paths import prompt_candidates
from evalyaml.formats.agentv.suite import SuiteRef


def file_refs_of(refs: Iterable[SuiteRef], path: str, root: str | None) -> list[FileRef]:
    folder = PurePath(path).parent
    # A suite of 10,000 tests names one grader prompt 10,000 times: resolve each name once.
    candidates: dict[str, tuple[str, ...]] = {}
    out: list[FileRef] = []
    for ref in refs:
        if ref.role in ("prompt", "bare-prompt", "content-file", "input-file",
                        "prompt-command"):
            # A bare path is not adopted (AgentV sends it as text); it links, for the fix.
            found = candidates.get(ref.name)
            if found is None:
                found = candidates[ref.name] = prompt_candidates(folder, ref.name, root)
            out.append(FileRef(ref.span, found, PROMPT if ref.role == "prompt" else None))
        elif ref.role == "workspace-path":
            out.append(FileRef(ref.span, (os.path.normpath(folder / ref.name),)))
        elif ref.role == "workspace-file":
            out.append(FileRef(ref.span, (os.path.normpath(folder / ref.name),), WORKSPACE))
        elif ref.role in ("tests", "tests-entry"):
            adopt = PurePath(ref.name).suffix.lower() in rules.TEST_FILE_EXTENSIONS
            out.append(FileRef(ref.span, (os.path.normpath(folder / ref.name),),
                               CASES if adopt else None))
        elif ref.role == "target":
            # The name links to the targets file the CLI would read (its first candidate).
            bases = candidates.get("\0.")
            if bases is None:
                bases = candidates["\0."] = prompt_candidates(folder, ".", root)
            out.append(FileRef(ref.span, targetrefs.candidates([Path(b) for b in bases])))
        elif ref.role == "type":
            # A custom assertion links to its script; the script is never read or run.
            bases = candidates.get("\0.")
            if bases is None:
                bases = candidates["\0."] = prompt_candidates(folder, ".", root)
            out.append(FileRef(ref.span, tuple(
                os.path.normpath(PurePath(base) / ".agentv" / "assertions" / (ref.name + ext))
                for base in bases for ext in rules.ASSERTION_SCRIPT_EXTENSIONS)))
    return out

