"""The soak script runs in CI for half a minute (`python bench/soak.py` runs 30 minutes): it
must end with status 0, which means every request was answered, the final diagnostics equal a
fresh analysis, and the server exited with status 0 after shutdown + exit."""

from __future__ import annotations

import subprocess
import sys

from tests.hostile.harness import REPO, server_env


def test_a_short_soak() -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "bench" / "soak.py"), "--minutes", "0.25", "--interval", "3",
         "--cases", "1000", "--rate", "100"],
        capture_output=True, text=True, timeout=180, check=False, env=server_env())
    print(done.stdout)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-4000:]
    assert "soak: OK" in done.stdout
    assert "unanswered 0" in done.stdout
    assert "peak RSS" in done.stdout and "MB/min" in done.stdout
