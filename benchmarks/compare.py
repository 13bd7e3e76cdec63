"""Speed against a baseline commit, side by side: prints figures, asserts nothing (not a timed test).

    python benchmarks/compare.py                       # baseline ab7c594 and this tree, pure Python
    python benchmarks/compare.py --compiled            # and this tree compiled (LV_COMPILE=1), ~3-6 min to build
    python benchmarks/compare.py --rounds 8 --games 20 --instructions 10
    python benchmarks/compare.py --venv compiled=/path/to/venv   # reuse an environment instead of making one
    python benchmarks/compare.py --base 69ba346 --compiled   # issue 31: against the round's start

Each build is installed (not editable) in its own virtual environment under ``--work`` (kept, and reused while
the build's source is unchanged): the baseline from a copy of ``--base`` (``git archive``), this tree pure, and
with ``--compiled`` this tree compiled with mypyc. Each runs in a subprocess started outside any checkout, so it
imports its own installed lv.

The reference workload (benchmarks/README.md: revised, 4 players, the uniform bot, one process) is played round
by round, the builds interleaved (A B C A B C ...) so that the machine's load falls on each alike, the same seeds
in every round and build; each child measures its CPU time (``time.process_time()``) around the games only, after
one warm-up game. Printed: games per CPU-second of each build (all rounds together; the spread of the rounds
beside it), the ratio to the baseline, the median of the rounds' ratios (each round's CPU time against the
baseline's in the same round, next to it in time), the load average before and after. Then the parse and replay of
examples/revised-4p.yaml (CPU ms, the median of ``--replays``), and, unless ``--instructions 0``, the
instructions per reference game counted by callgrind (benchmarks/instructions.py; the figure that repeats on a
busy machine), for every build; and what a search pays to try a decision (benchmarks/copies.py): a state copy, a
push/pop pair and a game copy, in instructions (``--copies`` rounds under callgrind; 0: CPU time only) and CPU us.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASE = "ab7c594"  # issue 18's baseline: every figure is a ratio against it
RECORD = ROOT / "examples" / "revised-4p.yaml"

CHILD = r"""
import json, statistics, sys, time
import lv
from lv import bots
from lv.record import parse_record
from lv.replay import replay
games, replays, record = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
profile = lv.load_profile("revised")
warm = lv.new_game(profile, 4, 1000)
bots.play(warm, [bots.uniform_bot] * 4, 1000)
out = {"build": getattr(lv, "build_name", lambda: "pure Python")()}
if games:
    t = time.process_time()
    for seed in range(games):
        game = lv.new_game(profile, 4, seed)
        bots.play(game, [bots.uniform_bot] * 4, seed)
    out["cpu"] = time.process_time() - t
if replays:
    text = open(record, encoding="utf-8").read()
    replay(parse_record(text, "warm.yaml"))
    parse, both = [], []
    for _ in range(replays):
        t = time.process_time()
        rec = parse_record(text, "revised-4p.yaml")
        t1 = time.process_time()
        replay(rec)
        t2 = time.process_time()
        parse.append(t1 - t)
        both.append(t2 - t)
    out["parse_ms"] = statistics.median(parse) * 1000
    out["both_ms"] = statistics.median(both) * 1000
print(json.dumps(out))
"""


def run(cmd: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, check=True, text=True, **kw)  # type: ignore[call-overload, no-any-return]


def source_stamp(tree: Path) -> str:
    """A digest of what a build is made from (lv/, pyproject.toml, hatch_build.py): a kept venv is reused only
    while it is unchanged."""
    h = hashlib.sha256()
    for path in sorted([*tree.glob("lv/**/*.py"), *tree.glob("lv/variants/*"), *tree.glob("variants/*"),
                        tree / "pyproject.toml", tree / "hatch_build.py"]):
        if path.is_file():
            h.update(str(path.relative_to(tree)).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def make_venv(name: str, tree: Path, work: Path, compiled: bool) -> Path:
    """A venv under ``work`` with ``tree`` installed (compiled or not); reused while the source is the same."""
    venv = work / name
    stamp = source_stamp(tree) + (" compiled" if compiled else "")
    if (venv / "stamp").is_file() and (venv / "stamp").read_text() == stamp:
        return venv / "bin" / "python"
    print(f"[{name}] installing {tree} ({'compiled' if compiled else 'pure Python'}) into {venv} ...", flush=True)
    run([sys.executable, "-m", "venv", "--clear", str(venv)])
    env = {**os.environ, "LV_COMPILE": "1" if compiled else ""}
    pip = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(tree)], env=env,
                         cwd=str(work), capture_output=True, text=True)
    if pip.returncode:
        sys.exit(f"compare.py: pip install {tree} failed:\n{pip.stdout[-3000:]}{pip.stderr[-3000:]}")
    (venv / "stamp").write_text(stamp)
    return venv / "bin" / "python"


def child(python: Path, games: int, replays: int, cwd: Path) -> dict[str, float | str]:
    proc = run([str(python), "-c", CHILD, str(games), str(replays), str(RECORD)], capture_output=True,
               cwd=str(cwd), env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    result: dict[str, float | str] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def instructions(python: Path, tree: Path | None, games: int, cwd: Path) -> float:
    """Callgrind's instructions per reference game (benchmarks/instructions.py of this tree), of ``tree``'s
    checkout, or of the lv installed for ``python`` when ``tree`` is None."""
    where = ["--installed"] if tree is None else ["--root", str(tree)]
    proc = run([str(python), str(ROOT / "benchmarks" / "instructions.py"), "--games", str(games), *where],
               capture_output=True, cwd=str(cwd))
    return float(proc.stdout.split()[0])


def copies(python: Path, tree: Path | None, rounds: int, cwd: Path) -> dict[str, dict[str, float]]:
    """benchmarks/copies.py (of this tree) for a build: a state copy, a push/pop pair and a game copy, in
    instructions (callgrind, unless ``rounds`` is 0) and CPU microseconds."""
    where = ["--installed"] if tree is None else ["--root", str(tree)]
    extra = ["--rounds", str(rounds)] if rounds else ["--no-instructions"]
    proc = run([str(python), str(ROOT / "benchmarks" / "copies.py"), "--json", *where, *extra], capture_output=True,
               cwd=str(cwd))
    figures: dict[str, dict[str, float]] = json.loads(proc.stdout)
    return figures


def paired(base: list[float], other: list[float]) -> str:
    """The median (and range) of the per-round speed ratios: a build against the baseline's run in the same round,
    next to it in time, so a load that changes between rounds falls on both sides of each ratio."""
    ratios = [b / o for b, o in zip(base, other)]
    return f"{statistics.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f})"


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default=BASE, help=f"the baseline commit (default {BASE})")
    ap.add_argument("--compiled", action="store_true", help="also this tree compiled with mypyc (LV_COMPILE=1)")
    ap.add_argument("--rounds", type=int, default=6, help="interleaved rounds (default 6)")
    ap.add_argument("--games", type=int, default=20, help="games per build and round (default 20)")
    ap.add_argument("--replays", type=int, default=30, help="parses and replays of the record (default 30)")
    ap.add_argument("--instructions", type=int, default=10, metavar="GAMES",
                    help="games under callgrind per build (default 10; 0: skip)")
    ap.add_argument("--copies", type=int, default=20, metavar="ROUNDS",
                    help="rounds of benchmarks/copies.py under callgrind per build (default 20; 0: CPU time only)")
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "lv-compare",
                    help="where the venvs are kept (default: a folder in the temporary directory)")
    ap.add_argument("--venv", action="append", default=[], metavar="BUILD=PATH",
                    help="use this venv for BUILD (base, pure or compiled) instead of making one")
    args = ap.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    given = dict(v.split("=", 1) for v in args.venv)

    base_commit = run(["git", "-C", str(ROOT), "rev-parse", "--short", args.base], capture_output=True).stdout.strip()
    base_tree = args.work / f"tree-{base_commit}"
    if not (base_tree / "lv").is_dir():  # the baseline's files (git archive: no worktree to clean up after)
        base_tree.mkdir()
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", base_commit], check=True, capture_output=True)
        subprocess.run(["tar", "-x", "-C", str(base_tree)], input=archive.stdout, check=True)
    builds: list[tuple[str, Path, Path]] = []  # (label, python, checkout)
    for label, tree, compiled in (("base", base_tree, False), ("pure", ROOT, False), ("compiled", ROOT, True)):
        if label == "compiled" and not (args.compiled or "compiled" in given):
            continue
        python = Path(given[label]) / "bin" / "python" if label in given else make_venv(label, tree, args.work,
                                                                                           compiled)
        builds.append((label, python, tree))
    names = {"base": f"{base_commit} (pure)", "pure": "this tree, pure", "compiled": "this tree, compiled"}
    outside = args.work  # children start here: no checkout on their path

    for label, python, _ in builds:  # each says which build it is
        print(f"{names[label]:<22} {child(python, 0, 0, outside)['build']}: {python}")
    print(f"\nload before: {load()}; {args.rounds} rounds of {args.games} games a build, interleaved")
    cpu: dict[str, list[float]] = {label: [] for label, _, _ in builds}
    for r in range(args.rounds):
        for label, python, _ in builds:
            cpu[label].append(float(child(python, args.games, 0, outside)["cpu"]))
        print(f"  round {r + 1}: " + ", ".join(f"{label} {args.games / cpu[label][-1]:.1f}" for label in cpu)
              + " games/CPU-s", flush=True)
    print(f"load after: {load()}\n")
    rate = {label: args.games * len(c) / sum(c) for label, c in cpu.items()}
    records = {label: child(python, 0, args.replays, outside) for label, python, _ in builds}
    counts: dict[str, float] = {}
    if args.instructions:
        for label, python, tree in builds:
            counts[label] = instructions(python, None if label == "compiled" else tree, args.instructions, outside)

    copied = {label: copies(python, None if label == "compiled" else tree, args.copies, outside)
              for label, python, tree in builds}
    head = ["figure", *(names[label] for label, _, _ in builds)]
    rows = [
        ["reference games per CPU-second"]
        + [f"{rate[label]:.1f} ({rate[label] / rate['base']:.2f}x)" for label in cpu],
        ["the rounds' range (games per CPU-second)"]
        + [f"{args.games / max(c):.0f}-{args.games / min(c):.0f}" for c in cpu.values()],
        ["each round's ratio to the baseline's same round: median (range)"]
        + [paired(cpu["base"], c) for c in cpu.values()],
        ["parse + replay of examples/revised-4p.yaml, CPU ms"]
        + [f"{float(records[label]['both_ms']):.1f} (parse {float(records[label]['parse_ms']):.1f})"
           for label in cpu],
    ]
    if counts:
        rows.append(["instructions per reference game (callgrind)"]
                    + [f"{counts[label]:.2f} M ({counts['base'] / counts[label]:.2f}x fewer)" for label in cpu])
    for op, what in (("copy", "a state copy"), ("pushpop", "a push/pop pair"), ("gamecopy", "a game copy")):
        if "instructions" in copied["base"]:
            rows.append([f"{what} (benchmarks/copies.py), instructions"]
                        + [f"{copied[label]['instructions'][op]:,.0f} "
                           f"({copied['base']['instructions'][op] / copied[label]['instructions'][op]:.2f}x fewer)"
                           for label in cpu])
        rows.append([f"{what}, CPU us (best of 5)"] + [f"{copied[label]['cpu_us'][op]:.1f}" for label in cpu])
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print(f"\nPython {sys.version.split()[0]}, {os.cpu_count()} CPUs; {args.rounds} rounds x {args.games} games "
          f"(seeds 0-{args.games - 1}) a build; CPU time inside each child around the games only")


if __name__ == "__main__":
    main()
