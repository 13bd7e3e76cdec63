"""Mutants on the lines a change added: does a test notice each planted mistake? Prints figures, asserts nothing.

    python tools/mutate_diff.py 1a4c300                 # every mutant of the lines added since 1a4c300 in lv/
    python tools/mutate_diff.py 1a4c300 --every 3       # every third one
    python tools/mutate_diff.py 1a4c300 --tests tests/test_goldens.py tests/test_legal_agrees.py
    python tools/mutate_diff.py --lines lv/bounds.py lv/record.py:114-540 --tests tests/test_bound_table.py
                                                        # every code line of those files (or line ranges)

mutmut (docs/testing.md) mutates whole files and takes hours on the core; this takes only the code lines a change
added (``git diff BASE HEAD -- lv/``, docstrings left out) and plants one mistake in each, the first of these that
fits: a comparison turned (``<`` / ``<=``, ``>`` / ``>=``, ``==`` / ``!=``, ``is None`` / ``is not None``), ``and`` /
``or`` swapped, an ``if not`` made ``if``, ``+ 1`` / ``- 1`` made 2, a bare ``return``, ``break`` or ``continue``
made ``pass``. Each mutant runs in a clone of HEAD made for the run (the checkout is never touched), with the
tests given (``-x``: the first failure kills it; hypothesis without deadlines, the ``mutation`` profile of
tests/conftest.py, so that a loaded machine's slow example is not taken for a kill; the failing test printed). A survivor is a mistake no test saw, or a change that cannot
change behaviour (a loop's early stop, a table one longer): read each.
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ["tests/test_goldens.py", "tests/test_legal_agrees.py", "tests/test_fast_path.py", "tests/test_legal_caches.py",
         "tests/test_casino_index.py", "tests/test_state_bits.py", "tests/test_payouts_agree.py",
         "tests/test_legal_tables.py", "tests/test_dice_stream.py", "tests/test_bots.py",
         "tests/test_fast_path_adversary.py", "tests/test_rule_points.py"]
MISTAKES = [(r" <= ", " < "), (r" < ", " <= "), (r" >= ", " > "), (r" > ", " >= "), (r" == ", " != "),
            (r" != ", " == "), (r" is None", " is not None"), (r" is not None", " is None"), (r" and ", " or "),
            (r" or ", " and "), (r" \+ 1", " + 2"), (r" - 1", " - 2"), (r"if not ", "if "), (r"\breturn$", "pass"),
            (r"\bbreak$", "pass"), (r"\bcontinue$", "pass")]


def added_lines(tree: Path, base: str) -> list[tuple[str, int]]:
    diff = subprocess.run(["git", "-C", str(tree), "diff", "-U0", base, "HEAD", "--", "lv/"], capture_output=True,
                          text=True, check=True).stdout
    out: list[tuple[str, int]] = []
    name, line = "", 0
    for text in diff.splitlines():
        if text.startswith("+++ "):
            name = text[6:]
        elif text.startswith("@@"):
            found = re.search(r"\+(\d+)", text)
            line = int(found.group(1)) if found else 0
        elif text.startswith("+") and name:
            out.append((name, line))
            line += 1
    return out


def file_lines(tree: Path, specs: list[str]) -> list[tuple[str, int]]:
    """Every line of each ``FILE`` or ``FILE:START-END`` (a whole file's mutants, not only a change's)."""
    out: list[tuple[str, int]] = []
    for spec in specs:
        name, _, span = spec.partition(":")
        count = len((tree / name).read_text(encoding="utf-8").splitlines())
        start, _, end = span.partition("-")
        out += [(name, line) for line in range(int(start or 1), min(int(end or count), count) + 1)]
    return out


def string_lines(path: Path) -> set[int]:
    """The lines inside multi-line strings (docstrings): no code to mutate there."""
    lines: set[int] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and (node.end_lineno or 0) > node.lineno:
            lines.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return lines


def mutants(tree: Path, base: str, lines: list[str] | None = None) -> list[tuple[str, int, str, str]]:
    out = []
    strings: dict[str, set[int]] = {}
    for name, line in (file_lines(tree, lines) if lines else added_lines(tree, base)):
        path = tree / name
        if name not in strings:
            strings[name] = string_lines(path)
        if line in strings[name]:
            continue
        text = path.read_text(encoding="utf-8").splitlines()[line - 1]
        code, _, comment = text.partition("#")
        if not code.strip() or code.strip().startswith(("'", '"')):
            continue
        for pattern, mistake in MISTAKES:
            if re.search(pattern, code.rstrip()):
                out.append((name, line, text, re.sub(pattern, mistake, code.rstrip(), count=1)
                            + ("  #" + comment if comment else "")))
                break
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("base", nargs="?", default="", help="the commit the change starts from")
    ap.add_argument("--lines", nargs="+", help="mutate every code line of these FILE or FILE:START-END instead")
    ap.add_argument("-k", dest="select", help="pytest's -k: only the tests it selects")
    ap.add_argument("--every", type=int, default=1, help="take every Nth mutant (default: all)")
    ap.add_argument("--tests", nargs="+", default=TESTS, help="the test files run on each mutant")
    args = ap.parse_args()
    if not args.base and not args.lines:
        ap.error("give the commit the change starts from, or --lines")
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(tree)], check=True)
        planned = mutants(tree, args.base, args.lines)[::args.every]
        print(f"{len(planned)} mutants of " + (" ".join(args.lines) if args.lines else
                                              f"the lines added since {args.base}"), flush=True)
        survivors = 0
        for name, line, before, after in planned:
            path = tree / name
            original = path.read_text(encoding="utf-8")
            lines = original.splitlines(keepends=True)
            lines[line - 1] = after + "\n"
            path.write_text("".join(lines), encoding="utf-8")
            try:
                run = subprocess.run([sys.executable, "-m", "pytest", "-n", "0", "-p", "no:cacheprovider", "-x", "-q", "-rf",
                                      "--hypothesis-profile=mutation", *(["-k", args.select] if args.select else []),
                                      *args.tests], cwd=tree, capture_output=True,
                                     text=True, timeout=600, env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"})
                # a test failed, or the test process died (OpenSpiel aborts when a planted mistake raises inside
                # its C++ calls); 2-5: the run itself went wrong (a collection error, shown: read it)
                died = run.returncode < 0 or run.returncode >= 128
                killed = run.returncode == 1 or died
                why = next((t for t in run.stdout.splitlines() if t.startswith("FAILED")),
                           f"exit {run.returncode}" + (": the test process died" if died else ""))
            except subprocess.TimeoutExpired:
                killed, why = False, "timed out: counted as a survivor, look at it"
            finally:
                path.write_text(original, encoding="utf-8")
            survivors += not killed
            print(f"{'killed  ' if killed else 'SURVIVED'} {name}:{line}: {before.strip()}  ->  {after.strip()}",
                  flush=True)
            print(f"    {why[:150] if killed or not why.startswith('FAILED') else ''}", flush=True)
        print(f"{len(planned) - survivors} of {len(planned)} killed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
