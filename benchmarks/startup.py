"""Start-up cost of the command line: import time (``python -X importtime``) and wall time of a few commands.

    python benchmarks/startup.py              # this checkout
    python benchmarks/startup.py --repeat 15  # more runs; the best one is reported (the least disturbed)

Import time: what ``import lv.cli`` costs, and every import a whole ``lv replay`` makes (the sum of the
top-level imports in its ``-X importtime`` report, so the engine, YAML and cattrs count too). Wall time: the
whole process, interpreter start included, output to /dev/null. Figures move with the machine's load: compare
two versions on the same machine, one run after the other.
"""

from __future__ import annotations

import argparse
import os
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


def best(fn, repeat: int) -> float:
    return min(fn() for _ in range(repeat))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7, help="runs per figure; the best is reported")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to measure (default: this one)")
    args = parser.parse_args()
    root, n = args.root.resolve(), args.repeat
    entry = "cli.py"
    module = "lv.cli" if (root / "lv" / "cli.py").exists() else "cli"  # before the move, the CLI was cli.py
    rows = [
        (f"import {module} (import time)", best(lambda: import_ms(root, ["-c", f"import {module}"]), n)),
        ("lv replay: all imports (import time)", best(lambda: import_ms(root, [entry, *REPLAY]), n)),
        ("python -c pass (wall)", best(lambda: wall_ms(root, ["-c", "pass"]), n)),
        ("lv --help (wall)", best(lambda: wall_ms(root, [entry, "--help"]), n)),
        ("lv --version (wall)", best(lambda: wall_ms(root, [entry, "--version"]), n)),
        ("lv replay examples/revised-4p.yaml (wall)", best(lambda: wall_ms(root, [entry, *REPLAY]), n)),
    ]
    print(f"{root}  (best of {n}, milliseconds)")
    for label, ms in rows:
        print(f"  {label:<44} {ms:7.1f}")


if __name__ == "__main__":
    main()
