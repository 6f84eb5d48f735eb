"""The VS Code extension's bundled dependencies (vscode-client/bundled/requirements.txt) keep
within pyproject.toml's `dependencies`, so the bundled server runs on what the wheel promises.

Every dependency is pinned there except the compiled ones the bundle leaves out on purpose,
each with its pure-Python stand-in pinned instead. No network: the files are only read.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

REPO = Path(__file__).resolve().parents[1]
BUNDLE = REPO / "vscode-client" / "bundled" / "requirements.txt"
LEFT_OUT = {"ruamel-yaml-clib": "ruamel.yaml's pure-Python parser"}
STAND_INS = {"rpds-py": ("pyrsistent-as-rpds-py", "pyrsistent")}


def pins() -> dict[str, str]:
    out: dict[str, str] = {}
    for raw in BUNDLE.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        name, sep, version = line.partition("==")
        assert sep, f"{BUNDLE.name}: '{line}' is not pinned with =="
        out[canonicalize_name(name)] = version.strip()
    return out


def test_every_dependency_is_pinned_within_its_range() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pinned = pins()
    for spec in project["dependencies"]:
        req = Requirement(spec)
        name = canonicalize_name(req.name)
        if name in LEFT_OUT:
            assert name not in pinned, f"{name} is compiled and must stay out of the bundle"
            continue
        assert name in pinned, f"{name} ({spec}) is not in {BUNDLE.name}"
        assert req.specifier.contains(pinned[name], prereleases=True), (
            f"{BUNDLE.name} pins {name}=={pinned[name]}, outside pyproject.toml's {spec}"
        )


def test_compiled_packages_are_replaced_by_their_stand_ins() -> None:
    pinned = pins()
    for compiled, stand_ins in STAND_INS.items():
        assert compiled not in pinned
        for name in stand_ins:
            assert name in pinned, f"{compiled} is replaced by {name}, which is not pinned"
