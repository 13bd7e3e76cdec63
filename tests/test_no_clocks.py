"""No test reads a clock (issue 28.1: no test may depend on the machine's speed). A bound on CPU or wall time fails
on a loaded machine (CI, mutation testing, a shared workstation) and says nothing about the work done; a test of
"stays small" or "refused before it is built" bounds memory (conftest.peak_memory), counts calls, or makes the
expensive step fail (monkeypatch). What stops a hang is a subprocess ``timeout=`` or the fuzz suite's budget
(tests/fuzz/hostile.py, a signal timer: no clock read), which fail only if the code never answers."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
CLOCKS = {"process_time", "monotonic", "perf_counter", "time", "thread_time", "getrusage", "process_time_ns",
          "monotonic_ns", "perf_counter_ns", "time_ns", "clock_gettime"}


def clock_reads(source: str) -> list[str]:
    """``module.function`` of each clock read in ``source``: a call of one of CLOCKS through the ``time`` or
    ``resource`` module, or imported from it by name."""
    tree = ast.parse(source)
    named = {alias.asname or alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
             and node.module in ("time", "resource") for alias in node.names if alias.name in CLOCKS}
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if (isinstance(f, ast.Attribute) and f.attr in CLOCKS and isinstance(f.value, ast.Name)
                and f.value.id in ("time", "resource")):
            found.append(f"{f.value.id}.{f.attr} (line {node.lineno})")
        elif isinstance(f, ast.Name) and f.id in named:
            found.append(f"{f.id} (line {node.lineno})")
    return found


def test_the_finder_sees_a_clock():
    assert clock_reads("import time\nstart = time.process_time()\n") == ["time.process_time (line 2)"]
    assert clock_reads("from time import monotonic as now\nnow()\n") == ["now (line 2)"]
    assert clock_reads("import resource\nresource.getrusage(resource.RUSAGE_SELF)\n") == [
        "resource.getrusage (line 2)"]
    assert clock_reads("r = {'cpu_seconds': 1}\ntime.sleep(0)\n") == []


def test_no_test_reads_a_clock():
    found = {str(p.relative_to(TESTS)): reads for p in sorted(TESTS.rglob("*.py"))
             if (reads := clock_reads(p.read_text()))}
    assert found == {}
