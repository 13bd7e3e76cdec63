"""What a search pays to try a decision and go back: a state copy (``GameState.copy``), a push/pop pair
(``Game.push`` then ``Game.pop``) and a game copy (``Game.copy``), at a fixed position, in instructions
(callgrind: repeats on a busy machine) and in CPU microseconds. Since round 10 a state copy copies its casino index on
its first use, so a fourth figure, a used copy, is a copy and that first use (``casino_index``): what a search's
playout state pays (the state copy alone is what a copy dropped unused, a trial or a saved state, pays).

    python benchmarks/copies.py                  # instructions (needs valgrind) and CPU time, this checkout's lv
    python benchmarks/copies.py --installed      # the lv installed here (a compiled build)
    python benchmarks/copies.py --root CHECKOUT  # another checkout's lv (benchmarks/compare.py: the baseline's)
    python benchmarks/copies.py --no-instructions

The position: a 4-player revised game, seed 7, after 60 decisions drawn by ``random.Random(7)`` from
``Game.random_legal`` (turn 15, 26 legal decisions, builds, remodels and reorganizations among them). A round is
as many operations as the position has legal decisions: a push/pop round is one push and one pop of each of them
in turn; a copy round that many copies (so that the cyclic collector's passes, one every ~700 containers made,
are averaged over hundreds of copies, not caught or missed by ten). The figures are per operation. Instructions are
the difference between runs with and without the operations, so start-up cancels out.

An operation the build lacks (ab7c594 has no ``Game.push``/``pop`` nor ``Game.copy``) is left out of the figures
(``--json``: absent from both dicts); ``--json`` also gives the position (``turn``, ``legal``), so that builds whose
``random_legal`` draws differently can be seen to measure another position.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LV_ROOT = "LV_BENCH_ROOT"  # the checkout whose lv is used ('' = the installed lv), passed on to the children
OPS = ("copy", "pushpop", "gamecopy", "usedcopy")


def position() -> Any:
    root = os.environ.get(LV_ROOT, str(ROOT))
    if root:
        sys.path.insert(0, root)
    import lv

    game = lv.new_game("revised", 4, 7)
    rng = random.Random(7)
    for _ in range(60):
        game.apply(game.random_legal(rng))
    game.legal_actions()  # the casino index current
    return game


def has(game: Any, op: str) -> bool:
    """Whether this build has ``op`` (push/pop and the game copy came after ab7c594)."""
    if op == "usedcopy":
        return hasattr(game.state, "casino_index")
    return op == "copy" or hasattr(game, "push" if op == "pushpop" else "copy")


def run(game: Any, op: str, n: int) -> int:
    """``n`` rounds of ``op`` (a round: as many operations as the position has legal decisions); the number of
    operations made."""
    legal = game.legal_actions()
    if op == "copy":
        s = game.state
        for _ in range(n * len(legal)):
            s.copy()
        return n * len(legal)
    if op == "usedcopy":
        s, rule = game.state, game.profile.casino.join_rule
        for _ in range(n * len(legal)):
            s.copy().casino_index(rule)
        return n * len(legal)
    if op == "gamecopy":
        for _ in range(n * len(legal)):
            game.copy()
        return n * len(legal)
    for _ in range(n):
        for a in legal:
            game.push(a)
            game.pop()
    return n * len(legal)


def child(op: str, n: int) -> None:
    game = position()
    for warm in OPS:  # first use: lazy loads and caches outside the difference
        if has(game, warm):
            run(game, warm, 1)
    run(game, op, n)


def count(op: str, n: int) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={tmp}/cg.out", sys.executable, __file__,
             "--child", op, str(n)],
            capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"}, check=True, cwd=tmp)
    found = re.search(r"Collected : (\d+)", out.stderr)
    if not found:
        sys.exit(f"copies.py: callgrind printed no count:\n{out.stderr[-2000:]}")
    return int(found.group(1))


def instructions(rounds: int) -> dict[str, float]:
    """Instructions per operation of each kind."""
    game = position()
    per = {op: run(game, op, 1) for op in OPS if has(game, op)}  # operations in one round
    base = count("copy", 0)
    return {op: (count(op, rounds) - base) / (rounds * k) for op, k in per.items()}


def cpu(rounds: int) -> dict[str, float]:
    """CPU microseconds per operation of each kind (the best of 5 runs)."""
    game = position()
    ops = [op for op in OPS if has(game, op)]
    for op in ops:
        run(game, op, 1)
    out = {}
    for op in ops:
        best = float("inf")
        for _ in range(5):
            t = time.process_time()
            k = run(game, op, rounds)
            best = min(best, (time.process_time() - t) / k)
        out[op] = best * 1e6
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, help="use the lv of this checkout (default: this script's)")
    ap.add_argument("--installed", action="store_true", help="use the lv installed here (e.g. a compiled build)")
    ap.add_argument("--rounds", type=int, default=40, help="rounds under callgrind (default 40)")
    ap.add_argument("--no-instructions", action="store_true", help="CPU time only (no valgrind)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--child", nargs=2, help=argparse.SUPPRESS)  # the run under callgrind: OP N
    args = ap.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]))
        return
    if args.installed or args.root is not None:
        os.environ[LV_ROOT] = "" if args.installed else str(args.root.resolve())
    figures: dict[str, Any] = {"cpu_us": cpu(max(args.rounds, 20))}
    if not args.no_instructions:
        if shutil.which("valgrind") is None:
            ap.exit(2, "copies.py: needs valgrind on PATH (or --no-instructions)\n")
        figures["instructions"] = instructions(args.rounds)
    game = position()
    figures["position"] = {"turn": game.state.turn, "legal": len(game.legal_actions())}
    if args.json:
        print(json.dumps(figures))
        return
    names = {"copy": "state copy", "pushpop": "push/pop pair", "gamecopy": "game copy", "usedcopy": "used copy"}
    print(f"position: turn {figures['position']['turn']}, {figures['position']['legal']} legal decisions")
    for op in figures["cpu_us"]:
        line = f"{names[op]:<14} {figures['cpu_us'][op]:8.1f} us CPU"
        if "instructions" in figures:
            line += f"  {figures['instructions'][op]:10,.0f} instructions"
        print(line)


if __name__ == "__main__":
    main()
