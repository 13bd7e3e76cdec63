"""The fuzz suite's oracle fails where it should: a crash, a multi-line error, raw control characters, a hang,
and a known category ends as xfail only while it is listed."""

from __future__ import annotations

import time

import pytest

import lv
from hostile import EXAMPLES, KNOWN, Hang, Known, Tally, budget, call, run_cli
from lv import replay

RECORD = str(EXAMPLES[0])


def test_a_crash_through_the_cli_fails(monkeypatch):
    monkeypatch.setattr(replay, "check_file", lambda path: [][1])
    with pytest.raises(AssertionError, match="IndexError"):
        run_cli(Tally(), ["check", RECORD])


def test_a_multi_line_error_fails(monkeypatch):
    def two_lines(path):
        raise lv.RecordError("first\nsecond")

    monkeypatch.setattr(replay, "check_file", two_lines)
    monkeypatch.setattr("lv.cli.error", lambda message: print(f"lv: error: {message}", file=__import__("sys").stderr))
    with pytest.raises(AssertionError, match="multi-line error"):
        run_cli(Tally(), ["check", RECORD])


def test_raw_control_characters_fail(monkeypatch):
    monkeypatch.setattr("lv.cli._lines", lambda lines: print("\x1b[2J"))
    with pytest.raises(AssertionError, match="raw"):
        run_cli(Tally(), ["check", RECORD])


@pytest.mark.slow
def test_a_hang_fails():
    """A call that waits: the wall-clock bound (ten times the CPU budget) stops it."""
    with pytest.raises(Hang, match="within 2.0 s$"):
        with budget(0.2):
            time.sleep(5)


def test_a_busy_hang_fails():
    """A call that computes forever is stopped (by the CPU budget, or on a machine so loaded that 0.2 s of CPU
    takes over 2 s, by the wall bound)."""
    with pytest.raises(Hang):
        with budget(0.2):
            while True:
                pass


def test_only_lv_errors_pass_through_the_api():
    assert call(Tally(), lv.parse_action, "fly A2", ["red", "blue"]) is None
    with pytest.raises(AssertionError, match="ZeroDivisionError"):
        call(Tally(), lambda: 1 / 0)


def test_a_known_category_is_tallied_only_while_listed(monkeypatch):
    monkeypatch.setitem(KNOWN, "huge-int", Known("fixed elsewhere: huge ints",
                                                 lambda e, tb: isinstance(e, ValueError) and "digits" in str(e)))
    tally = Tally()
    call(tally, lambda: int("9" * 5000))  # the huge-int signature
    assert [c for c, _ in tally.seen] == ["huge-int"]
    with pytest.raises(pytest.xfail.Exception, match="huge ints"):
        tally.settle()
    with pytest.raises(AssertionError):
        call(Tally(strict=True), lambda: int("9" * 5000))
