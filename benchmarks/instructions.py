"""Instructions per reference game, counted by valgrind's callgrind: a figure that, unlike wall time, does not
move with whatever else the machine is doing, so two versions of the engine can be compared on a busy machine.

    python benchmarks/instructions.py            # needs valgrind on PATH; about a minute
    python benchmarks/instructions.py --games 10

It runs the reference workload of bench.py (revised profile, 4 players, uniform bot) twice under callgrind,
once with no games and once with ``--games`` games after the same warm-up, and prints the difference per game,
so start-up and imports cancel out. PYTHONHASHSEED is fixed, so the count repeats to within a few thousand.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def play(games: int) -> None:
    sys.path.insert(0, str(ROOT))
    import lv
    from lv import bots

    profile = lv.load_profile("revised")
    warm = lv.new_game(profile, 4, 1000)  # first use: lazy loads stay outside the difference
    bots.play(warm, [bots.uniform_bot] * 4, 1000)
    for seed in range(games):
        game = lv.new_game(profile, 4, seed)
        bots.play(game, [bots.uniform_bot] * 4, seed)


def count(games: int) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out", sys.executable, __file__,
             "--play", str(games)],
            capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"}, check=True)
    found = re.search(r"Collected : (\d+)", out.stderr)
    if not found:
        sys.exit(f"instructions.py: callgrind printed no count:\n{out.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="games in the measured run (default 20)")
    ap.add_argument("--play", type=int, help=argparse.SUPPRESS)  # the child run under callgrind
    args = ap.parse_args()
    if args.play is not None:
        play(args.play)
        return
    if args.games < 1:
        ap.error("--games: give at least 1")
    if shutil.which("valgrind") is None:
        ap.exit(2, "instructions.py: needs valgrind on PATH (Debian: apt-get install valgrind)\n")
    base, measured = count(0), count(args.games)
    print(f"{(measured - base) / args.games / 1e6:.2f} M instructions per reference game "
          f"(revised, 4 players, uniform bot; {args.games} games under callgrind)")


if __name__ == "__main__":
    main()
