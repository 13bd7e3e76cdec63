"""Wall time of the issue's simulation command: prints figures, asserts nothing (not a timed test). Run from the
repository root:

    python benchmarks/simulate.py            # 1,000 games a profile, the 10,000 extrapolated (about 20 s)
    python benchmarks/simulate.py --full     # the command as the issue writes it: 10,000 games (minutes)
    python benchmarks/simulate.py --games 2000

The command (issue 11's target: under 60 s on the project's 2-core machine)::

    lv simulate --variant original --variant revised --players 4 --games 10000 --seed 1 --workers 2

It runs in a fresh interpreter (``python -m lv simulate ... --json``, the start-up included), its output thrown
away. Printed: the wall time, the CPU time of the command and its worker processes (near twice the wall time when
both cores are lv's alone), the time of the report after the last game (the bootstrap intervals: the command is
run again with a probe that times ``simulate.report``), and the load average before and after: on a shared
machine the wall time moves with it. With fewer games than 10,000 the 10,000-game figure is extrapolated, and
flagged as such: the play scaled linearly, the report timed on the run's games repeated to 10,000 a profile (its
bootstrap resamples every game; its fixed part would not scale).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FULL = 10_000

# the command in a fresh interpreter, with simulate.report timed from inside (the rest of the command unchanged)
PROBE = """
import json, sys, time
sys.path.insert(0, {root!r})
from lv import cli, simulate
report = simulate.report
took, captured = [], []
def timed(*args, **kwargs):
    captured.append(args[0])
    start = time.perf_counter()
    try:
        return report(*args, **kwargs)
    finally:
        took.append(time.perf_counter() - start)
simulate.report = timed
sys.argv = ["lv", *{args!r}]
try:
    cli.main()
except SystemExit:
    pass
extra, extra_cpu = time.perf_counter(), time.process_time()
# a run of {full} games a profile has a dearer report (its bootstrap resamples every game): time it on this run's
# winning seats and game lengths repeated to {full} games (the rest of the report hardly depends on the games)
full_s = None
if captured and captured[0].games < {full} and hasattr(captured[0], "seats") and hasattr(captured[0], "spreads"):
    agg = captured[0]
    times = -(-{full} // max(1, agg.games))
    for p in agg.profiles:
        agg.seats[p] = (agg.seats[p] * times)[:{full}]
        for name in agg.spreads[p]:
            agg.spreads[p][name] = (agg.spreads[p][name] * times)[:{full}]
    start = time.perf_counter()
    report(agg, 1, ["greedy"] * 4)
    full_s = time.perf_counter() - start
print(json.dumps({{"report_s": sum(took), "report_full_s": full_s, "extra_s": time.perf_counter() - extra,
                  "extra_cpu_s": time.process_time() - extra_cpu}}),
      file=sys.stderr)
"""


def command(games: int, workers: int) -> list[str]:
    return ["simulate", "--variant", "original", "--variant", "revised", "--players", "4", "--games", str(games),
            "--seed", "1", "--workers", str(workers), "--json"]


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def run(games: int, workers: int) -> dict[str, Any]:
    """Wall and CPU seconds of one run of the command, and of its report."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    code = PROBE.format(root=str(ROOT), args=command(games, workers), full=FULL)
    done = subprocess.run([sys.executable, "-c", code],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"simulate.py: the command failed:\n{done.stderr[-2000:]}")
    probe = json.loads(done.stderr.strip().splitlines()[-1])
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    # the probe's own work after the command (the report of the repeated games) is not the command's
    return {"wall": wall - probe["extra_s"], "cpu": cpu - probe["extra_cpu_s"], "report": probe["report_s"],
            "report_full": probe["report_full_s"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1_000, help="games a profile (default 1,000; 10,000 extrapolated)")
    ap.add_argument("--full", action="store_true", help=f"run the command as written: {FULL:,} games a profile")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    games = FULL if args.full else args.games
    if games < 1:
        ap.error("--games: give at least 1")
    print(f"lv {' '.join(command(games, args.workers))}")
    print(f"load average before: {load()}")
    r = run(games, args.workers)
    print(f"load average after:  {load()}")
    print(f"{games:,} games a profile: {r['wall']:.1f} s wall, {r['cpu']:.1f} s CPU (command and workers), "
          f"report {r['report']:.1f} s of it")
    if games != FULL:
        scale = FULL / games
        played = r["wall"] - r["report"]
        full_report = r["report_full"] if r["report_full"] is not None else r["report"] * scale
        print(f"{FULL:,} games a profile, EXTRAPOLATED from {games:,} (--full to run it): about "
              f"{played * scale + full_report:.0f} s wall: {played * scale:.0f} s to play (x{scale:g}, the "
              f"start-up scaled too: a slight overestimate) and {full_report:.1f} s of report (timed on this run's "
              f"games repeated to {FULL:,})")


if __name__ == "__main__":
    main()
