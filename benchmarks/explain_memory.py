"""Peak memory of one ``lv explain`` worker against the games it plays: prints figures, asserts nothing. Run from
the repository root:

    python benchmarks/explain_memory.py                  # original -> revised, 4 players, 100 games (~3 min CPU)
    python benchmarks/explain_memory.py --games 20 --players 2

It plays, in this one process, the tasks a worker of ``lv explain original revised --games N --workers 2`` gets
(one game under each of the plan's 146 profiles a task: ``explain_batch``, with the decision counts and digests),
and prints after each task the process's peak resident memory (``ru_maxrss``) and its CPU seconds. A worker's
memory used to grow with every task (each profile's prepared tables were kept for good: 690 MiB at 100 games);
now the tables go with their profiles and a task reuses the last task's (``simulate.task_profiles``).
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from lv import explain, simulate  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("a", nargs="?", default="original")
    ap.add_argument("b", nargs="?", default="revised")
    args = ap.parse_args()
    p = explain.plan(args.a, args.b)
    labels = list(p.labels.values())
    info = {"k": len(p.changes), "masks": list(p.labels), "method": p.method, "orders": [list(o) for o in p.orders],
            "all": False}
    start = time.process_time()
    for task in simulate.batches(labels, args.players, args.games, 0, ["greedy"] * args.players, None, 1):
        explain.explain_batch({**task, "digests": True, "decisions": True, "explain": info})
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
        print(f"game {task['start'] + 1:4d}: peak {peak} MiB, {time.process_time() - start:.1f} s CPU "
              f"({len(labels)} profiles)", flush=True)


if __name__ == "__main__":
    main()
