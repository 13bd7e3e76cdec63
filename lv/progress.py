"""Progress of long work where no progress bar can be drawn: output piped or logged (``lv simulate ... > out.json``,
``| cat``, a CI log). Every few seconds one status line on stderr, as long-running command-line tools print it:

    lv: simulate: 1,200 of 4,000 games (30%), 41 games/s, about 1 min 8 s left

A run shorter than the interval prints nothing; a run that printed a status line ends with one saying it is done.
The interval is ``LV_PROGRESS_SECONDS`` (default 5) and the clock can be given, so tests need not sleep.
"""

from __future__ import annotations

import os
import time
from typing import Callable

DEFAULT_SECONDS = 5.0


def interval_from_env() -> float:
    """``LV_PROGRESS_SECONDS`` if it is a number of seconds (0: a line on every step), else 5."""
    text = os.environ.get("LV_PROGRESS_SECONDS", "")
    try:
        seconds = float(text)
    except ValueError:
        return DEFAULT_SECONDS
    return seconds if 0 <= seconds < 1e6 else DEFAULT_SECONDS


def duration(seconds: float) -> str:
    """``8 s``, ``1 min 8 s``, ``2 h 5 min``: how a person says a stretch of time."""
    s = round(seconds)
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60} s" if s % 60 else f"{s // 60} min"
    return f"{s // 3600} h {s % 3600 // 60} min"


def _rate(per_second: float) -> str:
    return f"{per_second:,.1f}" if per_second < 10 else f"{per_second:,.0f}"


class StatusLines:
    """Counts work done out of ``total`` and writes a status line through ``write`` whenever ``interval``
    seconds have passed since the last one (``advance``), then a last line at ``close`` if it wrote any."""

    def __init__(self, what: str, total: int, unit: str, write: Callable[[str], None], *,
                 interval: float | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.what, self.total, self.unit, self.write, self.clock = what, total, unit, write, clock
        self.interval = interval_from_env() if interval is None else interval
        self.done = 0
        self.lines = 0
        self.start = clock()
        self.last = self.start

    def advance(self, k: int = 1) -> None:
        self.done += k
        now = self.clock()
        if now - self.last >= self.interval and self.done < self.total:
            self.last = now
            self.lines += 1
            self.write(self.status(now))

    def status(self, now: float) -> str:
        elapsed = now - self.start
        line = f"lv: {self.what}: {self.done:,} of {self.total:,} {self.unit}"
        if self.total:
            line += f" ({100 * self.done // self.total}%)"
        if elapsed > 0 and self.done:
            rate = self.done / elapsed
            line += f", {_rate(rate)} {self.unit}/s, about {duration((self.total - self.done) / rate)} left"
        return line

    def close(self) -> None:
        """The last line, if any was written: how much was done, and in how long."""
        if self.lines:
            self.write(f"lv: {self.what}: {self.done:,} of {self.total:,} {self.unit} in "
                       f"{duration(self.clock() - self.start)}")
