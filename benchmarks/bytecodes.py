"""Bytecodes the interpreter dispatches per reference game, counted with ``sys.settrace``'s opcode events: a figure
that repeats exactly (the same games, the same count on any machine with the same Python), for the pure build.

    python benchmarks/bytecodes.py                    # revised, 4 players, uniform bots; 10 games; a few seconds
    python benchmarks/bytecodes.py --bot greedy       # the greedy workload (``lv simulate``'s default bot)
    python benchmarks/bytecodes.py --lines legal.py   # and the bytecodes a game at each line of lv's legal.py
    python benchmarks/bytecodes.py --root ../base --json

Round 27 found the pure build's CPU time following the bytecodes it dispatches more closely than the instructions
(69ba346: 471 k a reference game, round 27's tip 375 k: 1.26x, its CPU time 1.23-1.28x, its instructions 1.38x), so
round 28 worked by this count. It is a guide, not a target: a bytecode that allocates, hashes or calls into C costs
more than one that reads a local, so a change is confirmed with ``instructions.py --caches`` and ``paired.py``.

The games (seeds 0 to N-1) are played after 5 untraced ones (seeds 1000-1004) that fill the engine's caches; the
count is split by phase (``random_pick``: the uniform pick; ``_apply_own``/``apply``: applying decisions; ``pick``:
greedy's; ``play``: the loop itself; ``outside``: making the game) and by function. ``--root CHECKOUT`` counts
another checkout's lv. Tracing makes the games ~50x slower; the count does not move with that.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
from pathlib import Path
from types import FrameType
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
LV_ROOT = "LV_BYTECODES_ROOT"  # (set for the child that counts another checkout)


def count(games: int, bot_name: str, lines_of: str | None) -> dict[str, Any]:
    """Play the workload's games under a tracer; the bytecodes a game, by phase, function and (``lines_of``) line."""
    import lv
    from lv import bots

    bot = bots.greedy_bot if bot_name == "greedy" else bots.uniform_bot
    profile = lv.load_profile("revised")
    for seed in range(1000, 1005):  # (untraced: the process-wide caches filled)
        bots.play(lv.new_game(profile, 4, seed), [bot] * 4, seed)
    phases: collections.Counter[str] = collections.Counter()
    functions: collections.Counter[tuple[str, str]] = collections.Counter()
    lines: collections.Counter[int] = collections.Counter()

    def phase_of(frame: FrameType) -> str:
        """The function ``bots.play`` called on the way to ``frame`` ("play": the loop's own; "outside": none)."""
        f: FrameType | None = frame
        below: FrameType | None = None
        while f is not None:
            if f.f_code.co_name == "play" and f.f_code.co_filename.endswith("bots.py"):
                return below.f_code.co_name if below is not None else "play"
            below, f = f, f.f_back
        return "outside"

    def tracer(frame: FrameType, event: str, arg: object) -> Callable[..., Any]:
        frame.f_trace_opcodes = True
        frame.f_trace_lines = False
        phase = phase_of(frame)
        name = frame.f_code.co_filename.replace("\\", "/").split("/")[-1]
        key = (phase, f"{name}:{frame.f_code.co_name}")
        mine = name == lines_of

        def local(frame: FrameType, event: str, arg: object) -> Callable[..., Any]:
            if event == "opcode":
                phases[phase] += 1
                functions[key] += 1
                if mine:  # (line 0: an instruction of no line, an exception's clean-up)
                    lines[frame.f_lineno or 0] += 1
            return local

        return local

    sys.settrace(tracer)
    try:
        for seed in range(games):
            bots.play(lv.new_game(profile, 4, seed), [bot] * 4, seed)
    finally:
        sys.settrace(None)
    return {"bot": bot_name, "games": games, "lv": lv.__file__,
            "total": sum(phases.values()) / games,
            "phases": {k: v / games for k, v in phases.most_common()},
            "functions": [{"phase": p, "function": f, "bytecodes": v / games} for (p, f), v in functions.most_common()],
            "lines": {str(k): v / games for k, v in sorted(lines.items())}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 1)[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=10, help="games counted (default 10)")
    ap.add_argument("--bot", choices=["uniform", "greedy"], default="uniform", help="the bot in every seat")
    ap.add_argument("--lines", metavar="FILE.py", help="also the bytecodes a game at each line of this lv module")
    ap.add_argument("--top", type=int, default=30, help="functions shown (default 30)")
    ap.add_argument("--root", type=Path, help="count the lv of this checkout (default: this script's)")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()
    if args.games < 1:
        ap.error("--games: at least 1")
    if args.root is not None and os.environ.get(LV_ROOT) is None:  # counted in a child that imports that lv
        root = args.root.resolve()
        if not (root / "lv" / "__init__.py").is_file():
            ap.error(f"--root {args.root}: no lv/ checkout there")
        env = dict(os.environ, PYTHONPATH=str(root), **{LV_ROOT: str(root)})
        sys.exit(subprocess.run([sys.executable, str(Path(__file__).resolve()), *sys.argv[1:]], env=env,
                                cwd=root).returncode)
    sys.path.insert(0, os.environ.get(LV_ROOT) or str(ROOT))
    if args.lines is not None:
        import lv

        if not any(p.name == args.lines for p in Path(lv.__file__).parent.rglob("*.py")):
            ap.error(f"--lines {args.lines}: no module of that name in {Path(lv.__file__).parent}")
    data = count(args.games, args.bot, args.lines)
    if args.json:
        print(json.dumps(data))
        return
    print(f"{data['total']:,.0f} bytecodes per reference game (revised, 4 players, {args.bot} bot; {args.games} "
          f"games; lv from {Path(data['lv']).parent})")
    for phase, n in data["phases"].items():
        print(f"  {n:>10,.0f}  {phase}")
    print("by function:")
    for row in data["functions"][:args.top]:
        print(f"  {row['bytecodes']:>10,.0f}  {row['phase']:<14} {row['function']}")
    if args.lines:
        print(f"by line of {args.lines}:")
        for line, n in data["lines"].items():
            print(f"  {line:>5}  {n:>9,.0f}")


if __name__ == "__main__":
    main()
