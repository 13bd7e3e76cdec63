"""CPU time of two builds of lv measured in pairs: steady figures on a machine whose speed changes.

    python benchmarks/paired.py --tree base=/tmp/b69pure --tree tip=.          # two checkouts, pure, this Python
    python benchmarks/paired.py --venv base=/tmp/b69/venv --venv tip=/tmp/m21b/venv --bot greedy
    python benchmarks/paired.py --tree base=/tmp/b69pure --tree tip=. --rounds 80 --games 10 --json

Each build plays in a process of its own, started and warmed up once (``--warm`` games of each bot, default 1;
compare.py and instructions.py warm up with 10, the engine's process-wide caches full), so no start-up is timed.
The two are then asked in turn for ``--games`` games of the workload (revised, 4 players, seeds 0 to games - 1;
``--new-seeds``: others each round, below), ``--rounds`` times, the order swapped each round. Each round's ratio
(the first build's CPU time over the second's: how many times faster the second is) compares two runs next to each
other in time, so a change in the machine's speed that lasts longer than a round falls on both sides of it. The
median of the ratios and its middle half are printed, and each build's fastest and median round (ms a game): the
machine's slow spells lengthen some rounds, never shorten one, so the two fastest rounds are the two builds at the
machine's full speed.

By default every round plays the same seeds, so from the second round on a build's process-wide caches (values
made once by lot, colour, mask...) hold every value those games ask for; a long simulation's new games find only
some. ``--new-seeds`` gives each round seeds of its own (round r: r * games to (r + 1) * games - 1, the same for
both builds), as a long run does. Round 25, the pure tip against 69ba346 (40 rounds of 60 games, --warm 10, in
turn): 1.35x and 1.31x with the same seeds, 1.29x, 1.35x and 1.33x with new ones: no difference beyond the noise.

Round 21 used it when ``compare.py``'s fresh processes gave CPU-time ratios of 1.05x-1.96x for the same two builds:
in pairs, 1.15x (middle half 1.12-1.19x), as the instruction counts said (benchmarks/README.md).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

BOTS = ("greedy", "uniform")  # the workloads: the bot in every seat (its WORKER's seats)

WORKER = """
import sys, time
root, warm_games = sys.argv[1], int(sys.argv[2])
if root:
    sys.path.insert(0, root)
import lv
from lv import bots
profile = lv.load_profile("revised")
seats = {"uniform": [bots.uniform_bot] * 4, "greedy": [bots.greedy_bot] * 4}
for seed in range(10**9, 10**9 + warm_games):  # warm-up games, on seeds no round plays
    for each in seats.values():
        bots.play(lv.new_game(profile, 4, seed), each, seed)
print("ready", flush=True)
for line in sys.stdin:  # "BOT GAMES FIRST-SEED": the CPU seconds of those games, and their decisions
    bot, n, first = line.split()
    each = seats[bot]
    spent = 0.0
    decisions = 0
    for seed in range(int(first), int(first) + int(n)):
        t = time.process_time()
        game = lv.new_game(profile, 4, seed)
        bots.play(game, each, seed)
        spent += time.process_time() - t
        decisions += sum(len(turn.decisions) for turn in game.history)  # (not timed)
    print(spent, decisions, flush=True)
"""  # (compare.py's long run plays in it too)


def side(text: str, venv: bool) -> tuple[str, str, str]:
    """``LABEL=PATH`` as (label, python, root): a checkout run with this Python, or the lv installed in a venv."""
    label, sep, path = text.partition("=")
    if not sep or not label or not path:
        raise SystemExit(f"paired.py: give LABEL=PATH, not {text!r}")
    where = Path(path).resolve()
    if venv:
        python = where / "bin" / "python"
        if not python.exists():
            raise SystemExit(f"paired.py: {label}: no Python at {python}")
        return label, str(python), ""
    if not (where / "lv" / "__init__.py").exists():
        raise SystemExit(f"paired.py: {label}: {where} is not a checkout of lv (no lv/__init__.py)")
    return label, sys.executable, str(where)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tree", action="append", default=[], metavar="LABEL=DIR", help="a checkout, run pure")
    ap.add_argument("--venv", action="append", default=[], metavar="LABEL=DIR", help="a venv with lv installed")
    ap.add_argument("--bot", choices=sorted(BOTS), default="uniform", help="the workload's bot (default uniform)")
    ap.add_argument("--rounds", type=int, default=80, help="rounds (default 80)")
    ap.add_argument("--games", type=int, default=10, help="games a build a round (default 10)")
    ap.add_argument("--warm", type=int, default=1, help="untimed games of each bot first (default 1)")
    ap.add_argument("--new-seeds", action="store_true",
                    help="each round new seeds (round r: r*games ... ), not seeds 0 to games-1 again")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = ap.parse_args()
    sides = [side(t, False) for t in args.tree] + [side(v, True) for v in args.venv]
    if len(sides) != 2 or args.rounds < 1 or args.games < 1 or args.warm < 1:
        raise SystemExit("paired.py: give exactly two builds (--tree/--venv), --rounds, --games and --warm of 1 or "
                         "more")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    workers = [subprocess.Popen([python, "-c", WORKER, root, str(args.warm)], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, text=True, env=env, cwd=Path(__file__).resolve().parent)
               for _, python, root in sides]
    try:
        for (label, _, _), w in zip(sides, workers):
            assert w.stdin is not None and w.stdout is not None
            if w.stdout.readline().strip() != "ready":
                raise SystemExit(f"paired.py: {label}: the build did not start (run it alone to see why)")
        ratios: list[float] = []
        each_time: list[list[float]] = [[], []]  # by build, its rounds' CPU seconds
        for r in range(args.rounds):
            times = [0.0, 0.0]
            for k in ((0, 1) if r % 2 == 0 else (1, 0)):
                w = workers[k]
                assert w.stdin is not None and w.stdout is not None
                w.stdin.write(f"{args.bot} {args.games} {r * args.games if args.new_seeds else 0}\n")
                w.stdin.flush()
                times[k] = float(w.stdout.readline().split()[0])
                each_time[k].append(times[k])
            ratios.append(times[0] / times[1])
    finally:
        for w in workers:
            if w.stdin is not None:
                w.stdin.close()
            w.wait()
    each = [round(r, 4) for r in ratios]  # in the order of the rounds
    ratios.sort()
    q = len(ratios) // 4
    out = {"first": sides[0][0], "second": sides[1][0], "bot": args.bot, "rounds": args.rounds, "games": args.games,
           "median": round(statistics.median(ratios), 4), "middle_half": [round(ratios[q], 4),
                                                                          round(ratios[-q - 1], 4)],
           "range": [round(ratios[0], 4), round(ratios[-1], 4)], "rounds_ratios": each, "warm": args.warm,
           "new_seeds": args.new_seeds,
           "fastest_ms": [round(min(t) / args.games * 1e3, 4) for t in each_time],
           "median_ms": [round(statistics.median(t) / args.games * 1e3, 4) for t in each_time]}
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{out['second']} against {out['first']}, {args.bot} bots, {args.rounds} rounds of {args.games} games: "
              f"{out['median']:.2f}x the speed (CPU time {out['first']} / {out['second']}, the median of the rounds; "
              f"middle half {out['middle_half'][0]:.2f}-{out['middle_half'][1]:.2f}x, range "
              f"{out['range'][0]:.2f}-{out['range'][1]:.2f}x); ms a game, fastest round / median round: "
              f"{out['first']} {out['fastest_ms'][0]:.3f} / {out['median_ms'][0]:.3f}, "
              f"{out['second']} {out['fastest_ms'][1]:.3f} / {out['median_ms'][1]:.3f}")


if __name__ == "__main__":
    main()
