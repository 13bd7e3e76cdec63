"""Instructions per reference game, counted by valgrind's callgrind: a figure that, unlike wall time, does not
move with whatever else the machine is doing, so two versions of the engine can be compared on a busy machine.

    python benchmarks/instructions.py            # needs valgrind on PATH; about a minute
    python benchmarks/instructions.py --games 10
    python benchmarks/instructions.py --bot greedy   # the greedy workload (lv simulate's default bot) instead
    python benchmarks/instructions.py --bot all      # both workloads, a line each (one run without games for both)
    python benchmarks/instructions.py --records 10   # parse and replay of examples/revised-4p.yaml instead

It runs the reference workload of bench.py (revised profile, 4 players, uniform bot; ``--bot greedy``: the greedy
bot, ``lv simulate``'s default, in every seat) twice under callgrind, once with no games and once with ``--games``
games after the same warm-up (``--warm`` games of each bot, default 10), and prints the difference per game, so
start-up and imports cancel out. PYTHONHASHSEED is fixed, so the count repeats to within a few thousand.

The warm-up fills (most of) the engine's process-wide caches of values (casinos by shape, decisions made once by
lot and colour, reaches, ...: bounded by the board, they keep filling slowly over hundreds of games), so the figure
is nearer the per-game cost of a long run (a simulation, an explanation, a ladder) and moves less with ``--games``.
Pure, 8 games: 69ba346 23.41 M after 1 game of each bot, 22.01 M after 10; round 21's tip 19.67 M, 18.18 M, and
17.68 M after 30. ``--warm 1`` gives the count as rounds 11-21 measured it.

``--caches``: the same difference under cachegrind's cache and branch simulation instead, a line per workload:
instructions, branches mispredicted (conditional and indirect), first-level instruction and data cache misses a game.
Round 25 found CPU time following the mispredicts and the instruction-cache misses rather than the instructions:
round 24's pure tip against 69ba346, 1.34x fewer instructions, 1.24x fewer mispredicts, 1.10x fewer I1 misses,
and 1.23x the speed measured in pairs (benchmarks/README.md). The simulated caches are valgrind's model, not this
machine's.

``--root CHECKOUT`` counts another checkout's lv (benchmarks/compare.py: the baseline's); ``--installed`` the lv
installed in the running interpreter's environment (a compiled build) instead of a checkout's.

``--records N``: the instructions to parse examples/revised-4p.yaml (a complete 4-player record) and to replay
it, each apart (issue 11's target: both in 5 ms or less; bench.py times them): runs with no record, with N
parses, and with N parses each followed by its replay, after one untimed parse and replay.
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
LV_ROOT = "LV_BENCH_ROOT"  # the checkout whose lv is counted ('' = the installed lv), passed on to the children


def _lv_path() -> None:
    root = os.environ.get(LV_ROOT, str(ROOT))
    if root:
        sys.path.insert(0, root)


BOTS = {"uniform": "uniform_bot", "greedy": "greedy_bot"}  # --bot: the workload's bot, lv.bots' name for it
WARM = 10  # --warm: games of each bot before the counted ones (the engine's caches full after them)


def play(games: int, bot: str = "uniform", warm: int = WARM) -> None:
    _lv_path()
    import lv
    from lv import bots

    profile = lv.load_profile("revised")
    for seed in range(1000, 1000 + warm):  # first use: lazy loads and caches filled outside the difference
        for each in BOTS.values():  # (whichever bot is counted)
            game = lv.new_game(profile, 4, seed)
            bots.play(game, [getattr(bots, each)] * 4, seed)
    seats = [getattr(bots, BOTS[bot])] * 4
    for seed in range(games):
        game = lv.new_game(profile, 4, seed)
        bots.play(game, seats, seed)


def records(parses: int, replays: int) -> None:
    _lv_path()
    from lv.record import parse_record
    from lv.replay import replay

    text = (ROOT / "examples" / "revised-4p.yaml").read_text(encoding="utf-8")
    replay(parse_record(text, "warm.yaml"))  # first use: lazy loads stay outside the difference
    for i in range(parses):
        record = parse_record(text, "revised-4p.yaml")
        if i < replays:
            replay(record)


def count(games: int, child: tuple[str, ...] = (), bot: str = "uniform", warm: int = WARM) -> int:
    out = _valgrind(["--tool=callgrind", "--callgrind-out-file=cg.out"], games, child, bot, warm)
    found = re.search(r"Collected : (\d+)", out)
    if not found:
        sys.exit(f"instructions.py: callgrind printed no count:\n{out[-2000:]}")
    return int(found.group(1))


# --caches: cachegrind's summary lines read, by the figures' names there (valgrind 3.19's wording)
CACHE_FIGURES = {"instructions": ("I   refs", 0), "mispredicts": ("Mispredicts", 0),
                 "conditional": ("Mispredicts", 1), "indirect": ("Mispredicts", 2), "I1 misses": ("I1  misses", 0),
                 "D1 misses": ("D1  misses", 0)}


def cache_figures(summary: str) -> dict[str, int]:
    """The figures of CACHE_FIGURES from cachegrind's summary (its stderr): ``Mispredicts: 33,797,754 (19,064,859
    cond + 14,732,895 ind)`` gives mispredicts, conditional and indirect."""
    figures = {}
    for name, (label, i) in CACHE_FIGURES.items():
        line = re.search(rf"^==\d+== {re.escape(label)}:\s*(.*)$", summary, re.MULTILINE)
        numbers = re.findall(r"\d[\d,]*", line.group(1)) if line else []
        if len(numbers) <= i:
            sys.exit(f"instructions.py: cachegrind printed no {name!r} figure:\n{summary[-2000:]}")
        figures[name] = int(numbers[i].replace(",", ""))
    return figures


def cache_count(games: int, bot: str = "uniform", warm: int = WARM) -> dict[str, int]:
    return cache_figures(_valgrind(["--tool=cachegrind", "--cache-sim=yes", "--branch-sim=yes",
                                    "--cachegrind-out-file=cg.out"], games, (), bot, warm))


def _valgrind(tool: list[str], games: int, child: tuple[str, ...], bot: str, warm: int) -> str:
    """valgrind's stderr for a child run (``child``, else ``games`` games of ``bot`` after ``warm`` of each)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            ["valgrind", *tool, sys.executable, __file__,
             *(child or ("--play", str(games), "--bot", bot, "--warm", str(warm)))],
            capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"}, check=True, cwd=tmp)
    return out.stderr


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20, help="games in the measured run (default 20)")
    ap.add_argument("--records", type=int, help="count the parse and the replay of a record instead (N of each)")
    ap.add_argument("--bot", choices=[*sorted(BOTS), "all"], default="uniform",
                    help="the workload's bot in every seat (default uniform: the reference workload; all: each)")
    ap.add_argument("--warm", type=int, default=WARM,
                    help=f"games of each bot played before the counted ones (default {WARM}: the caches full)")
    ap.add_argument("--caches", action="store_true",
                    help="cachegrind's mispredicts and cache misses a game too (what CPU time followed: slower)")
    ap.add_argument("--root", type=Path, help="count the lv of this checkout (default: this script's)")
    ap.add_argument("--installed", action="store_true", help="count the lv installed here (e.g. a compiled build)")
    ap.add_argument("--play", type=int, help=argparse.SUPPRESS)  # the child run under callgrind
    ap.add_argument("--parse", type=int, nargs=2, help=argparse.SUPPRESS)  # the child: parses, replays
    args = ap.parse_args()
    if args.play is not None:
        play(args.play, args.bot, args.warm)
        return
    if args.parse is not None:
        records(*args.parse)
        return
    if args.installed or args.root is not None:
        os.environ[LV_ROOT] = "" if args.installed else str(args.root.resolve())
    if shutil.which("valgrind") is None:
        ap.exit(2, "instructions.py: needs valgrind on PATH (Debian: apt-get install valgrind)\n")
    # once without callgrind: a module changed since its bytecode was cached is compiled (and cached) here, not
    # in the first counted run, whose count it would swell
    for warm in (("--parse", "1", "1"), ("--play", "0", "--warm", "1")):
        subprocess.run([sys.executable, __file__, *warm], check=True, capture_output=True, cwd=tempfile.gettempdir())
    if args.records is not None:
        n = args.records
        if n < 1:
            ap.error("--records: give at least 1")
        base, parsed, replayed = (count(0, ("--parse", str(p), str(r))) for p, r in ((0, 0), (n, 0), (n, n)))
        parse, replay = (parsed - base) / n / 1e6, (replayed - parsed) / n / 1e6
        print(f"{parse:.2f} M instructions to parse examples/revised-4p.yaml, {replay:.2f} M to replay it, "
              f"{parse + replay:.2f} M in all ({n} of each under callgrind)")
        return
    if args.games < 1:
        ap.error("--games: give at least 1")
    if args.warm < 1:
        ap.error("--warm: give at least 1 (the first game of each bot loads what the engine loads lazily)")
    if args.caches:
        empty = cache_count(0, warm=args.warm)
        for bot in BOTS if args.bot == "all" else [args.bot]:
            full = cache_count(args.games, bot=bot, warm=args.warm)
            each = {name: (full[name] - empty[name]) / args.games / 1e6 for name in CACHE_FIGURES}
            print(f"{bot} bot, a game ({args.games} under cachegrind): {each['instructions']:.2f} M instructions, "
                  f"{each['mispredicts']:.3f} M branches mispredicted ({each['conditional']:.3f} M conditional, "
                  f"{each['indirect']:.3f} M indirect), {each['I1 misses']:.3f} M I1 misses, "
                  f"{each['D1 misses']:.3f} M D1 misses")
        return
    base = count(0, warm=args.warm)
    for bot in BOTS if args.bot == "all" else [args.bot]:
        measured = count(args.games, bot=bot, warm=args.warm)
        what = "reference game (revised, 4 players, uniform bot" if bot == "uniform" else \
            f"game of the {bot} workload (revised, 4 players, {bot} bot"
        print(f"{(measured - base) / args.games / 1e6:.2f} M instructions per {what}; {args.games} games under "
              "callgrind)")


if __name__ == "__main__":
    main()
