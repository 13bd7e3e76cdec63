"""The benchmark scripts that docs/simulation.md quotes still run (they are not timed tests: only their shape is
checked here, on a few cheap games)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_strength_compares_a_bot_with_the_reference_over_the_same_seeds(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "strength.py"), "--bot", "greedy", "--against",
                          "random", "--games", "4", "--seed", "1", "--json"], capture_output=True, text=True,
                         cwd=tmp_path, timeout=300)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert (data["bot"], data["against"], data["reference"], data["games"]) == ("greedy", "random", "random", 4)
    for key in ("win_rate", "reference_win_rate"):
        assert 0 <= data[key]["mean"] <= 1 and data[key]["mean"] * 4 == round(data[key]["mean"] * 4)
    diff = data["difference"]["mean"]
    assert diff == data["win_rate"]["mean"] - data["reference_win_rate"]["mean"]
