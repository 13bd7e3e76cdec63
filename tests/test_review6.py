"""Review of issue 29/30's surfaces (ladder, restricted bots, balance, explain): odd input refused in one line
before any work, and statistics checked against hand computations."""

from __future__ import annotations

import subprocess
import sys

import pytest


def lv(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "lv", *args], capture_output=True, text=True, timeout=timeout)


@pytest.mark.parametrize("count", ["99999999999", "-2", "0", "5"])
def test_explain_refuses_a_player_count_no_profile_allows_before_planning(count: str) -> None:
    # a huge count hung in --metric's check (it listed a seat metric per player); -2 blamed --bot
    done = lv("explain", "original", "revised", "--players", f"2,{count}", "--games", "2", "-q", timeout=30)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines()[-1] == \
        f"lv: error: --players {count}: profile 'original' allows 2 to 4"
    assert "profiles x" not in done.stderr  # refused before the cost note and any planning
