"""Peak memory of ``lv simulate`` against the number of games: prints figures, asserts nothing. Run from the
repository root:

    python benchmarks/memory.py                       # 10^3, 10^4 and 10^5 games, about half an hour
    python benchmarks/memory.py --games 1000 10000    # fewer

Each size runs in a fresh process (so its peak is its own): ``lv simulate --variant original --variant revised
--players 4 --bot random:1`` (a cheap bot: it always ends its turn, so a game is its 31 draws) with
``--workers W``, the report made as with ``--json``. The parent's peak resident memory (``ru_maxrss`` of the
process itself) is what the running sums keep flat; the workers' peak is shown beside it.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

ONE_RUN = """
import json, resource, sys, time
sys.path.insert(0, {root!r})
from lv import simulate
games, workers = {games}, {workers}
start = time.perf_counter()
agg = simulate.play(["original", "revised"], 4, games, seed=1, bots=["random:1"], workers=workers)
played = time.perf_counter() - start
result = simulate.report(agg, 1, ["random:1"] * 4)
print(json.dumps({{"games": games, "played_s": played, "total_s": time.perf_counter() - start,
                  "parent_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                  "workers_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}}))
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    print(f"{'games per profile':>18} {'parent peak RSS':>16} {'workers peak RSS':>17} {'played':>9} {'total':>9}")
    for games in args.games:
        code = ONE_RUN.format(root=str(ROOT), games=games, workers=args.workers)
        out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
        r = json.loads(out)
        print(f"{r['games']:>18,} {r['parent_kb'] / 1024:>13.1f} MB {r['workers_kb'] / 1024:>14.1f} MB "
              f"{r['played_s']:>8.0f}s {r['total_s']:>8.0f}s", flush=True)


if __name__ == "__main__":
    start = time.perf_counter()
    main()
    print(f"({time.perf_counter() - start:.0f} s)")
