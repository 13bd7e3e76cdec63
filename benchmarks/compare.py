"""Issue 31's benchmark: this tree against baseline commits, every figure and every target in one run. It prints
figures and asserts nothing (not a timed test).

    python benchmarks/compare.py --compiled          # against 69ba346 and ab7c594, pure and compiled builds
    python benchmarks/compare.py --compiled --rounds 5 --games 10 --fresh 1 --instructions 2 --copies 5  # a look
    python benchmarks/compare.py --base ab7c594      # one baseline (repeat --base for several), pure builds only
    python benchmarks/compare.py --compiled --venv compiled=/path/to/venv --venv 69ba346-compiled=/other/venv
    python benchmarks/compare.py --compiled --json figures.json   # every figure as JSON as well

The builds, each lv installed (not editable) in a venv of its own, named by a label: ``pure`` and ``compiled``
(this tree, the checkout this script is in, as it is on disk), ``BASE-pure`` and ``BASE-compiled`` for each
``--base`` (default 69ba346, the start of issue 31's round, and ab7c594, issue 18's baseline; a commit as given,
e.g. ``69ba346-compiled``). The compiled builds (LV_COMPILE=1, mypyc) only with ``--compiled``, and a baseline's
only if it has hatch_build.py (ab7c594 predates the compiled build: pure only). Venvs are made under ``--work``
(kept, and reused while the build's source is unchanged: a compiled build takes ~4 min of both cores);
``--venv LABEL=PATH`` measures the lv installed in the venv at PATH instead (nothing installed; each build's own
name, ``lv.build_name()``, is printed first, so a wrong venv shows). Every child process starts outside any
checkout, without PYTHONPATH, so it imports its own installed lv.

What is measured, for every build:

- games per CPU-second on the reference workload (revised, 4 players, the uniform bot in every seat) and on the
  greedy workload (the greedy bot in every seat: ``lv simulate``'s default bot), two ways:

  - **the long run**: a process per build for the whole run, a program that plays game after game with
    ``bots.play``; ``--rounds`` rounds, in each ``--games`` games of each workload per build on new seeds (round r:
    seeds r*games to (r+1)*games-1, the same for every build), the builds interleaved and their order turned each
    round so that the machine's load falls on each alike. By default 100 x 100: 10,000 games of each workload, as
    many as issue 11's simulation (benchmarks/simulate.py) plays a profile. 69ba346 slows as such a process ages:
    its games leave objects in reference cycles (193 a reference game), so its collector has more to walk as the
    heap grows, and ``bots.play`` puts the collector's threshold back after each game. The tip's games leave none
    (tests/test_no_cycles.py). So the ratio grows with the run: round 27, pure reference, 1.31x over 2,000 games,
    1.39-1.40x over 10,000. (``lv simulate`` and ``lv explain`` play their whole batch with the collector's threshold
    raised, where 69ba346's cycles cost it less: round 27, pure reference, 1.29x in such a loop and 1.23x for
    ``lv simulate --bot uniform``, benchmarks/README.md);
  - **a fresh process's games**: ``--fresh`` rounds, in each a new process per build plays ``--fresh-games`` games
    of each workload (seeds 0 to N-1, the same every round), as compare.py measured until round 27.

  A games-per-CPU-second target is met only if it is met both ways (the long run alone with ``--fresh 0``, which
  the target then says).

  Each process times its CPU (``time.process_time()``) around the games only, after ``--warm`` untimed games of each
  bot (default 10, seeds no round plays). Printed: all rounds together, the rounds' range, and the median of the
  paired ratios (each round against the same baseline's run in the same round, next to it in time);
- parse + replay of examples/revised-4p.yaml in CPU ms: in every fresh round, in a process of its own, the median
  of ``--replays``; printed, the median of the rounds';
- callgrind instructions per game of each workload (benchmarks/instructions.py, ``--instructions`` games; 0: skip):
  the figure that repeats on a busy machine (``--jobs N``: N builds counted at once, for the wall time);
- what a search pays to try a decision (benchmarks/copies.py): a state copy, a push/pop pair and a game copy, in
  instructions (``--copies`` rounds under callgrind; 0: CPU time only) and CPU microseconds. ab7c594 has no
  push/pop and no game copy ("-"); its ``random_legal`` draws another position (the "position" row).

Then this tree against each baseline build (the ratios, "x" better: more games, fewer instructions, cheaper), and
issue 31's targets against the 69ba346 builds (``TARGET_BASE``), each "met" or "NOT met": compiled 2x fewer
instructions and >= 1.8x the games per CPU-second on both workloads; pure >= 1.3x on both (each both ways: over the
long run and in a fresh process's games); a state copy and a
push/pop pair each >= 3x cheaper compiled (instructions when counted, else CPU time); parse + replay <= 1.5 ms CPU
compiled; and, for information, compiled against ab7c594 (the issue: "about 10x"). A target whose builds are not in
the run says so. The load average before and after the rounds is printed: put it beside the figures.

``--json FILE`` writes the same figures: ``{"builds": {LABEL: {"name", "build", "rate": {"reference", "greedy"},
"cpu": {workload: [seconds per round]}, "decisions": {workload: the long run's}, "rate_fresh", "cpu_fresh" (the
same, fresh processes), "replay_ms", "parse_ms", "instructions": {workload: per game},
"copies": copies.py's JSON}}, "targets": [{"target", "measured", "fresh" (a rate target's fresh ratio), "met"}],
"load": [before, after]}``.
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
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from paired import WORKER  # the long run's worker: paired.py's (this script's folder is on the path)

ROOT = Path(__file__).resolve().parent.parent
BASES = ["69ba346", "ab7c594"]  # issue 31's round start, issue 18's baseline
TARGET_BASE = "69ba346"  # issue 31's targets are ratios against this commit's builds
WORKLOADS = {"reference": "uniform", "greedy": "greedy"}  # workload -> the bot in every seat
RECORD = ROOT / "examples" / "revised-4p.yaml"
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # children import their venv's lv, not a checkout

CHILD = r"""
import json, statistics, sys, time
import lv
from lv import bots
from lv.record import parse_record
from lv.replay import replay
games, replays, record, warm = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
out = {"build": getattr(lv, "build_name", lambda: "pure Python")()}
profile = lv.load_profile("revised")
if games:
    for seed in range(1000, 1000 + warm):  # (as instructions.py: lazy loads, the engine's caches full)
        for bot in (bots.uniform_bot, bots.greedy_bot):
            bots.play(lv.new_game(profile, 4, seed), [bot] * 4, seed)
    for workload, bot in (("reference", bots.uniform_bot), ("greedy", bots.greedy_bot)):
        t = time.process_time()
        for seed in range(games):
            game = lv.new_game(profile, 4, seed)
            bots.play(game, [bot] * 4, seed)
        out[workload] = time.process_time() - t
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
    out["replay_ms"] = statistics.median(both) * 1000
print(json.dumps(out))
"""


class Build:
    """One build in the run: its label, what it is, and the Python of its venv."""

    def __init__(self, label: str, name: str, python: Path) -> None:
        self.label, self.name, self.python = label, name, python
        self.build = ""  # lv.build_name() as the build says it
        self.cpu: dict[str, list[float]] = {w: [] for w in WORKLOADS}  # the long run's rounds, CPU seconds
        self.decisions: dict[str, int] = {w: 0 for w in WORKLOADS}  # the long run's games' decisions
        self.rate: dict[str, float] = {}
        self.cpu_fresh: dict[str, list[float]] = {w: [] for w in WORKLOADS}  # a fresh process's games, by round
        self.rate_fresh: dict[str, float] = {}
        self.records: dict[str, float] = {}
        self.record_runs: dict[str, list[float]] = {"parse_ms": [], "replay_ms": []}  # each round's median
        self.instructions: dict[str, float] = {}
        self.copies: dict[str, Any] = {}


def run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    return subprocess.run(cmd, check=True, text=True, capture_output=True, cwd=str(cwd), env=env or ENV).stdout


def source_stamp(tree: Path) -> str:
    """A digest of what a build is made from (lv/, pyproject.toml, hatch_build.py): a kept venv is reused only
    while it is unchanged."""
    h = hashlib.sha256()
    for path in sorted([*tree.glob("lv/**/*.py"), *tree.glob("lv/variants/*"), *tree.glob("variants/*"),
                        tree / "pyproject.toml", tree / "hatch_build.py"]):
        if path.is_file():
            h.update(str(path.relative_to(tree)).encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def make_venv(label: str, tree: Path, work: Path, compiled: bool) -> Path:
    """A venv under ``work`` with ``tree`` installed (compiled or not); reused while the source is the same."""
    venv = work / label
    stamp = source_stamp(tree) + (" compiled" if compiled else "")
    if (venv / "stamp").is_file() and (venv / "stamp").read_text() == stamp:
        return venv / "bin" / "python"
    print(f"[{label}] installing {tree} ({'compiled' if compiled else 'pure Python'}) into {venv} ...", flush=True)
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
    env = {**ENV, "LV_COMPILE": "1" if compiled else ""}
    pip = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(tree)], env=env,
                         cwd=str(work), capture_output=True, text=True)
    if pip.returncode:
        sys.exit(f"compare.py: pip install {tree} failed:\n{pip.stdout[-3000:]}{pip.stderr[-3000:]}")
    (venv / "stamp").write_text(stamp)
    return venv / "bin" / "python"


def base_tree(commit: str, work: Path) -> Path:
    """The files of ``commit`` under ``work`` (git archive: no worktree to clean up after)."""
    tree = work / f"tree-{commit}"
    if not (tree / "lv").is_dir():
        tree.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit], check=True, capture_output=True)
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
    return tree


def builds_of(args: argparse.Namespace) -> list[Build]:
    """The builds of the run, baselines first, each with its venv (given with --venv, or made)."""
    given = dict(v.split("=", 1) for v in args.venv)
    wanted: list[tuple[str, str, Path | None, bool]] = []  # (label, name, tree, compiled)
    for base in args.base:
        tree = base_tree(base, args.work) if not all(f"{base}-{k}" in given for k in ("pure", "compiled")) else None
        wanted.append((f"{base}-pure", f"{base}, pure", tree, False))
        if args.compiled and (f"{base}-compiled" in given or (tree is not None
                                                              and (tree / "hatch_build.py").is_file())):
            wanted.append((f"{base}-compiled", f"{base}, compiled", tree, True))
    wanted.append(("pure", "this tree, pure", ROOT, False))
    if args.compiled:
        wanted.append(("compiled", "this tree, compiled", ROOT, True))
    unknown = set(given) - {label for label, _, _, _ in wanted}
    if unknown:
        sys.exit(f"compare.py: --venv {sorted(unknown)[0]}=...: no such build in this run; the builds are "
                 + ", ".join(label for label, _, _, _ in wanted))
    out = []
    for label, name, tree, compiled in wanted:
        if label in given:
            python = Path(given[label]) / "bin" / "python"
        else:
            assert tree is not None
            python = make_venv(label, tree, args.work, compiled)
        out.append(Build(label, name, python))
    return out


def child(build: Build, games: int, replays: int, cwd: Path, warm: int = 1) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(run([str(build.python), "-c", CHILD, str(games), str(replays), str(RECORD),
                                          str(warm)], cwd).strip().splitlines()[-1])
    return out


class Worker:
    """A build's long-lived process (``WORKER``): asked for games round after round, a program playing game after
    game with ``bots.play``."""

    def __init__(self, build: Build, warm: int, cwd: Path) -> None:
        self.build = build
        self.proc = subprocess.Popen([str(build.python), "-c", WORKER, "", str(warm)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, env=ENV, cwd=str(cwd))
        if self.read() != "ready":
            sys.exit(f"compare.py: {build.label}: the build's games did not start (run its venv's lv to see why)")

    def read(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().strip()
        if not line:
            sys.exit(f"compare.py: {self.build.label}: the build's games stopped (run its venv's lv to see why)")
        return line

    def games(self, workload: str, games: int, first: int) -> tuple[float, int]:
        """The CPU seconds of ``games`` games of ``workload``, seeds ``first`` on, and the decisions they made (the
        same games make as many in every build that plays them alike)."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{WORKLOADS[workload]} {games} {first}\n")
        self.proc.stdin.flush()
        seconds, decisions = self.read().split()
        return float(seconds), int(decisions)

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait()


def instructions(build: Build, games: int, cwd: Path) -> dict[str, float]:
    """Callgrind's instructions per game of each workload (benchmarks/instructions.py of this tree, ``--bot all``:
    a line per bot, in WORKLOADS' order) for the lv installed in the build's venv."""
    lines = run([str(build.python), str(ROOT / "benchmarks" / "instructions.py"), "--installed", "--games",
                 str(games), "--bot", "all"], cwd).splitlines()
    assert len(lines) == len(WORKLOADS) and "uniform bot" in lines[0] and "greedy bot" in lines[1], lines
    return {w: float(line.split()[0]) * 1e6 for w, line in zip(WORKLOADS, lines)}


def copies(build: Build, rounds: int, cwd: Path) -> dict[str, Any]:
    """benchmarks/copies.py (of this tree) for the build's installed lv."""
    extra = ["--rounds", str(rounds)] if rounds else ["--no-instructions"]
    figures: dict[str, Any] = json.loads(run([str(build.python), str(ROOT / "benchmarks" / "copies.py"), "--json",
                                              "--installed", *extra], cwd))
    return figures


def load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def table(head: list[str], rows: list[list[str]]) -> None:
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print()


# ---- the figures of one build, and the ratios of two: None where a build lacks the figure


def figure(b: Build, key: str) -> float | None:
    """A figure of ``b`` by key: ``rate:W`` (the long run), ``fresh:W`` (a fresh process's games),
    ``instructions:W``, ``copy:OP`` (instructions), ``cpu_us:OP``, ``replay_ms``, ``parse_ms``."""
    kind, _, what = key.partition(":")
    if kind == "rate":
        return b.rate.get(what)
    if kind == "fresh":
        return b.rate_fresh.get(what)
    if kind == "instructions":
        return b.instructions.get(what)
    if kind == "copy":
        found: float | None = b.copies.get("instructions", {}).get(what)
        return found
    if kind == "cpu_us":
        cpu: float | None = b.copies.get("cpu_us", {}).get(what)
        return cpu
    return b.records.get(kind)


def better(ours: Build, theirs: Build, key: str) -> float | None:
    """How many times better ``ours`` is than ``theirs`` on ``key``: more games per CPU-second, or fewer
    instructions, microseconds or milliseconds."""
    a, b = figure(ours, key), figure(theirs, key)
    if a is None or b is None or not a or not b:
        return None
    return a / b if key.startswith(("rate:", "fresh:")) else b / a


def paired(ours: Build, theirs: Build, workload: str, fresh: bool = False) -> str:
    """The median (and range) of the per-round speed ratios: a build against the baseline's run in the same round,
    next to it in time, so a load that changes between rounds falls on both sides of each ratio."""
    mine, base = (ours.cpu_fresh, theirs.cpu_fresh) if fresh else (ours.cpu, theirs.cpu)
    ratios = [t / o for t, o in zip(base[workload], mine[workload])]
    return f"{statistics.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f})" if ratios else "-"


ROWS = [  # (key, what it is, how a value prints)
    ("rate:reference", "reference games per CPU-second (uniform bots), the long run", "{:.1f}"),
    ("rate:greedy", "greedy games per CPU-second (lv simulate's bot), the long run", "{:.1f}"),
    ("fresh:reference", "  a fresh process's games, reference", "{:.1f}"),
    ("fresh:greedy", "  a fresh process's games, greedy", "{:.1f}"),
    ("replay_ms", "parse + replay of examples/revised-4p.yaml, CPU ms", "{:.2f}"),
    ("parse_ms", "  of which the parse, CPU ms", "{:.2f}"),
    ("instructions:reference", "instructions per reference game (callgrind)", "M"),
    ("instructions:greedy", "instructions per greedy game (callgrind)", "M"),
    ("copy:copy", "a state copy (copies.py), instructions", "{:,.0f}"),
    ("copy:pushpop", "a push/pop pair, instructions", "{:,.0f}"),
    ("copy:gamecopy", "a game copy, instructions", "{:,.0f}"),
    ("cpu_us:copy", "a state copy, CPU us (best of 5)", "{:.1f}"),
    ("cpu_us:pushpop", "a push/pop pair, CPU us", "{:.1f}"),
    ("cpu_us:gamecopy", "a game copy, CPU us", "{:.1f}"),
]


def show(value: float | None, fmt: str) -> str:
    """``value`` as ``fmt`` says ("M": in millions, as instructions.py prints them), "-" if there is none."""
    if value is None:
        return "-"
    return f"{value / 1e6:.2f} M" if fmt == "M" else fmt.format(value)


def rate_target(target: str, ours: Build | None, theirs: Build | None, workload: str,
                at_least: float) -> dict[str, Any]:
    """A games-per-CPU-second target: met only if met both ways, over the long run and in a fresh process's games
    (the long run alone where the run had no fresh rounds, and it says so); both ratios shown, with their rounds'
    medians."""
    if ours is None or theirs is None:
        return {"target": target, "measured": None, "shown": "not in this run", "met": None}
    long = better(ours, theirs, f"rate:{workload}")
    fresh = better(ours, theirs, f"fresh:{workload}")
    shown = f"{long:.2f}x over the long run (rounds' median {paired(ours, theirs, workload)})" if long else "-"
    shown += ("; no fresh rounds in this run" if fresh is None else
              f"; {fresh:.2f}x in a fresh process's games (rounds' median {paired(ours, theirs, workload, True)})")
    met = None if long is None else long >= at_least and (fresh is None or fresh >= at_least)
    return {"target": target, "measured": None if long is None else round(long, 3),
            "fresh": None if fresh is None else round(fresh, 3), "shown": shown, "met": met}


def targets(by: dict[str, Build]) -> list[dict[str, Any]]:
    """Issue 31's targets: (what, the measured figure, met or not) for each whose builds are in the run."""
    base_c, base_p = by.get(f"{TARGET_BASE}-compiled"), by.get(f"{TARGET_BASE}-pure")
    ours_c, ours_p = by.get("compiled"), by.get("pure")
    out: list[dict[str, Any]] = []

    def ratio(target: str, ours: Build | None, theirs: Build | None, key: str, at_least: float) -> None:
        r = better(ours, theirs, key) if ours is not None and theirs is not None else None
        out.append({"target": target, "measured": None if r is None else round(r, 3),
                    "shown": "not in this run" if r is None else f"{r:.2f}x",
                    "met": None if r is None else r >= at_least})

    for w in WORKLOADS:
        ratio(f"compiled, {w}: 2x fewer instructions than {TARGET_BASE} compiled", ours_c, base_c,
              f"instructions:{w}", 2.0)
        out.append(rate_target(f"compiled, {w}: >= 1.8x the games per CPU-second of {TARGET_BASE} compiled",
                               ours_c, base_c, w, 1.8))
    for w in WORKLOADS:
        out.append(rate_target(f"pure, {w}: >= 1.3x the games per CPU-second of {TARGET_BASE} pure", ours_p, base_p,
                               w, 1.3))
    counted = ours_c is not None and "instructions" in ours_c.copies
    unit, kind = ("instructions", "copy") if counted else ("CPU time", "cpu_us")
    ratio(f"compiled: a state copy >= 3x cheaper than {TARGET_BASE} compiled ({unit})", ours_c, base_c,
          f"{kind}:copy", 3.0)
    ratio(f"compiled: a push/pop pair >= 3x cheaper than {TARGET_BASE} compiled ({unit})", ours_c, base_c,
          f"{kind}:pushpop", 3.0)
    ms = None if ours_c is None else figure(ours_c, "replay_ms")
    out.append({"target": "compiled: parse + replay of examples/revised-4p.yaml <= 1.5 ms CPU", "measured": ms,
                "shown": "not in this run" if ms is None else f"{ms:.2f} ms", "met": None if ms is None else ms <= 1.5})
    for key, what in (("rate:reference", "reference games per CPU-second"), ("instructions:reference",
                                                                             "instructions per reference game")):
        r = better(ours_c, by["ab7c594-pure"], key) if ours_c and "ab7c594-pure" in by else None
        out.append({"target": f"(for information) compiled against ab7c594 pure, {what}: about 10x",
                    "measured": r, "shown": "not in this run" if r is None else f"{r:.2f}x", "met": None})
    return out


def progress(r: int, games: int, cpus: list[dict[str, list[float]]], builds: list[Build]) -> None:
    """Round ``r``'s games per CPU-second of each build (``cpus``: each build's CPU seconds by workload and round)."""
    print(f"  round {r + 1}: " + ", ".join(f"{b.label} {games / cpu['reference'][-1]:.0f}/"
                                           f"{games / cpu['greedy'][-1]:.0f}" for b, cpu in zip(builds, cpus))
          + " reference/greedy games per CPU-s", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", action="append", metavar="COMMIT",
                    help=f"a baseline commit; repeat for several (default: {' and '.join(BASES)})")
    ap.add_argument("--compiled", action="store_true", help="the compiled builds too (LV_COMPILE=1, mypyc)")
    ap.add_argument("--rounds", type=int, default=100,
                    help="interleaved rounds of the long run, a process per build for all of them (default 100)")
    ap.add_argument("--games", type=int, default=100,
                    help="games of each workload per build and round of the long run, new seeds each round "
                         "(default 100: 10,000 games in all, as many as issue 11's simulation plays a profile)")
    ap.add_argument("--fresh", type=int, default=6,
                    help="interleaved rounds of fresh processes, a new one per build and round (default 6; 0: none)")
    ap.add_argument("--fresh-games", type=int, default=20,
                    help="games of each workload a fresh process plays, seeds 0 to N-1 (default 20)")
    ap.add_argument("--warm", type=int, default=10,
                    help="untimed games of each bot a process plays first (default 10: as instructions.py, the caches "
                         "full)")
    ap.add_argument("--replays", type=int, default=30,
                    help="parses and replays of the record in each fresh round (default 30; 0: none)")
    ap.add_argument("--instructions", type=int, default=10, metavar="GAMES",
                    help="games of each workload under callgrind per build (default 10; 0: skip)")
    ap.add_argument("--copies", type=int, default=20, metavar="ROUNDS",
                    help="rounds of benchmarks/copies.py under callgrind per build (default 20; 0: CPU time only)")
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "lv-compare",
                    help="where the venvs and the baselines' files are kept (default: a folder in the temporary "
                         "directory)")
    ap.add_argument("--venv", action="append", default=[], metavar="LABEL=PATH",
                    help="use the venv at PATH for the build LABEL (pure, compiled, BASE-pure, BASE-compiled)")
    ap.add_argument("--jobs", type=int, default=1, help="callgrind runs at once (default 1; the counts do not "
                                                         "depend on the load, only the wall time does)")
    ap.add_argument("--json", type=Path, metavar="FILE", help="also write every figure to FILE as JSON")
    args = ap.parse_args()
    if args.rounds < 1 or args.games < 1 or args.jobs < 1 or args.warm < 1 or args.fresh_games < 1:
        ap.error("--rounds, --games, --fresh-games, --warm and --jobs: at least 1")
    if args.fresh < 0 or args.replays < 0:
        ap.error("--fresh and --replays: 0 or more")
    bad = [v for v in args.venv if "=" not in v]
    if bad:
        ap.error(f"--venv {bad[0]}: give LABEL=PATH")
    args.work = args.work.resolve()
    args.work.mkdir(parents=True, exist_ok=True)
    args.base = [run(["git", "-C", str(ROOT), "rev-parse", "--short", b], ROOT, dict(os.environ)).strip()
                 for b in (args.base or BASES)]
    builds = builds_of(args)
    by = {b.label: b for b in builds}
    outside = args.work  # children start here: no checkout on their path

    for b in builds:  # each says which build it is
        b.build = child(b, 0, 0, outside)["build"]
        print(f"{b.name:<22} {b.build}: {b.python}")
    before = load()
    print(f"\nload before: {before}; the long run: {args.rounds} rounds of {args.games} games of each workload a "
          "build, interleaved, a process per build", flush=True)
    workers = [Worker(b, args.warm, outside) for b in builds]
    try:
        for r in range(args.rounds):
            for step in range(len(workers)):  # the order turned each round: no build always first or last
                worker = workers[(r + step) % len(workers)]
                for workload in WORKLOADS:
                    seconds, decisions = worker.games(workload, args.games, r * args.games)
                    worker.build.cpu[workload].append(seconds)
                    worker.build.decisions[workload] += decisions
            if r % 10 == 9 or r == args.rounds - 1:
                progress(r, args.games, [b.cpu for b in builds], builds)
    finally:
        for worker in workers:
            worker.close()
    if args.fresh:
        print(f"fresh processes: {args.fresh} rounds, a new process per build and round ({args.warm} warm-up games of "
              f"each bot, then {args.fresh_games} of each workload, seeds 0-{args.fresh_games - 1})", flush=True)
    for r in range(args.fresh):
        for b in builds:
            out = child(b, args.fresh_games, 0, outside, args.warm)
            for w in WORKLOADS:
                b.cpu_fresh[w].append(float(out[w]))
            if args.replays:  # in a process of their own, in every round like the games (one sample misled)
                rec = child(b, 0, args.replays, outside)
                for k, runs in b.record_runs.items():
                    runs.append(float(rec[k]))
        progress(r, args.fresh_games, [b.cpu_fresh for b in builds], builds)
    after = load()
    print(f"load after: {after}\n", flush=True)
    for b in builds:
        b.rate = {w: args.games * len(c) / sum(c) for w, c in b.cpu.items()}
        b.rate_fresh = {w: args.fresh_games * len(c) / sum(c) for w, c in b.cpu_fresh.items() if c}
        b.records = {k: statistics.median(runs) for k, runs in b.record_runs.items() if runs}

    def count(b: Build) -> None:  # callgrind's counts do not move with the load: --jobs of them at once
        if args.instructions:
            b.instructions = instructions(b, args.instructions, outside)
        b.copies = copies(b, args.copies, outside)
        print(f"  [{b.label}] instructions and copies counted", flush=True)

    with ThreadPoolExecutor(args.jobs) as pool:
        list(pool.map(count, builds))
    print()

    rows = [[what] + [show(figure(b, key), fmt) for b in builds] for key, what, fmt in ROWS
            if any(figure(b, key) is not None for b in builds)]
    rows.insert(2, ["the rounds' range, reference / greedy"] + [
        f"{args.games / max(b.cpu['reference']):.0f}-{args.games / min(b.cpu['reference']):.0f} / "
        f"{args.games / max(b.cpu['greedy']):.0f}-{args.games / min(b.cpu['greedy']):.0f}" for b in builds])
    rows.insert(3, ["decisions in the long run's games, reference / greedy (the same games, as many)"] + [
        f"{b.decisions['reference']:,} / {b.decisions['greedy']:,}" for b in builds])
    rows.append(["copies.py's position (turn, legal decisions)"] + [
        f"{b.copies['position']['turn']}, {b.copies['position']['legal']}" if "position" in b.copies else "-"
        for b in builds])
    table(["figure", *(b.name for b in builds)], rows)

    pairs = [(ours, theirs) for ours in builds if ours.label in ("pure", "compiled")
             for theirs in builds if theirs.label not in ("pure", "compiled")
             and (ours.label == "compiled" or theirs.label.endswith("-pure"))]
    print("This tree against each baseline (x better: more games per CPU-second; fewer instructions, CPU us, ms):\n")
    keys = [(key, what) for key, what, _ in ROWS if any(better(o, t, key) for o, t in pairs)]
    ratio_rows = []
    for key, what in keys:
        ratio_rows.append([what.strip()] + [show(better(o, t, key), "{:.2f}x") for o, t in pairs])
        if key.startswith(("rate:", "fresh:")):  # the same, round by round
            kind, _, workload = key.partition(":")
            ratio_rows.append(["  the rounds' median ratio (range)"] + [paired(o, t, workload, kind == "fresh")
                                                                        for o, t in pairs])
    table(["figure", *(f"{o.label} / {t.label}" for o, t in pairs)], ratio_rows)

    goals = targets(by)
    print(f"Issue 31's targets (against the {TARGET_BASE} builds):\n")
    table(["target", "measured", "met"], [[g["target"], g["shown"], {True: "met", False: "NOT met", None: "-"}[
        g["met"]]] for g in goals])
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs; load {before} before the rounds, {after} after; "
          f"the long run: {args.rounds} rounds x {args.games} games of each workload a build in one process (seeds "
          f"0-{args.rounds * args.games - 1}, after {args.warm} warm-up games of each bot); fresh processes: "
          f"{args.fresh} rounds x {args.fresh_games} games (seeds 0-{args.fresh_games - 1}); CPU time inside each "
          f"process around the games only; callgrind: {args.instructions} games, copies {args.copies} rounds")
    if args.json:
        args.json.write_text(json.dumps({
            "builds": {b.label: {"name": b.name, "build": b.build, "rate": b.rate, "cpu": b.cpu,
                                 "rate_fresh": b.rate_fresh, "cpu_fresh": b.cpu_fresh, "decisions": b.decisions,
                                 **b.records, "instructions": b.instructions, "copies": b.copies} for b in builds},
            "targets": [{k: g[k] for k in ("target", "measured", "fresh", "met") if k in g} for g in goals],
            "load": [before, after]}, indent=1) + "\n")


if __name__ == "__main__":
    main()
