"""Start-up cost of the command line: import time (``python -X importtime``) and wall time of a few commands.

    python benchmarks/startup.py              # this checkout
    python benchmarks/startup.py --repeat 15  # more runs; the best and the median are reported

Import time: what ``import lv.cli`` costs, and every import a whole ``lv replay`` makes (the sum of the
top-level imports in its ``-X importtime`` report, so the engine, YAML and cattrs count too). Wall time: the
whole process, interpreter start included, output to /dev/null. Figures move with the machine's load: compare
two versions on the same machine, one run after the other. The checkout's modules are byte-compiled first, as an
installed package's are (with PYTHONDONTWRITEBYTECODE set, every run would otherwise compile them again).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REPLAY = ["replay", "examples/revised-4p.yaml"]


def _env(root: Path) -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(root))


def _top_level_imports(root: Path, args: list[str]) -> dict[str, int]:
    """Microseconds of each top-level import in one run of ``python -X importtime ARGS``."""
    proc = subprocess.run([sys.executable, "-X", "importtime", *args], cwd=root, env=_env(root),
                          capture_output=True, text=True)
    out: dict[str, int] = {}
    for line in proc.stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        _, cumulative, name = line.split("|")
        if not name.startswith("  "):  # one space after '|' for top-level imports, more for nested ones
            out[name.strip()] = out.get(name.strip(), 0) + int(cumulative)
    return out


def import_ms(root: Path, args: list[str]) -> float:
    """Milliseconds of the imports ARGS makes beyond the interpreter's own start (site, encodings, ...)."""
    interpreter = set(_top_level_imports(root, ["-c", "pass"]))
    return sum(us for name, us in _top_level_imports(root, args).items() if name not in interpreter) / 1000


def wall_ms(root: Path, args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], cwd=root, env=_env(root), stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, check=False)
    return (time.perf_counter() - start) * 1000


def best_and_median(fn, repeat: int) -> tuple[float, float]:
    runs = [fn() for _ in range(repeat)]
    return min(runs), statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=10, help="runs per figure; the best and the median are reported")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to measure (default: this one)")
    args = parser.parse_args()
    root, n = args.root.resolve(), args.repeat
    subprocess.run([sys.executable, "-m", "compileall", "-q", "lv", "cli.py"], cwd=root, check=True,
                   stdout=subprocess.DEVNULL)
    entry = "cli.py"
    module = "lv.cli" if (root / "lv" / "cli.py").exists() else "cli"  # before the move, the CLI was cli.py
    rows = [
        (f"import {module} (import time)", best_and_median(lambda: import_ms(root, ["-c", f"import {module}"]), n)),
        ("lv --help: all imports (import time)", best_and_median(lambda: import_ms(root, [entry, "--help"]), n)),
        ("lv replay: all imports (import time)", best_and_median(lambda: import_ms(root, [entry, *REPLAY]), n)),
        ("python -c pass (wall)", best_and_median(lambda: wall_ms(root, ["-c", "pass"]), n)),
        ("lv --help (wall)", best_and_median(lambda: wall_ms(root, [entry, "--help"]), n)),
        ("lv --version (wall)", best_and_median(lambda: wall_ms(root, [entry, "--version"]), n)),
        ("lv replay examples/revised-4p.yaml (wall)", best_and_median(lambda: wall_ms(root, [entry, *REPLAY]), n)),
    ]
    print(f"{root}  (milliseconds over {n} runs; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")
    print(f"  {'':<44} {'best':>7} {'median':>7}")
    for label, (low, median) in rows:
        print(f"  {label:<44} {low:7.1f} {median:7.1f}")


if __name__ == "__main__":
    main()
