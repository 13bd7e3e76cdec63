"""Progress of long work where no progress bar can be drawn: output piped or logged (``lv simulate ... > out.json``,
``| cat``, a CI log). Every few seconds one status line on stderr, as long-running command-line tools print it:

    lv: simulate: 1,200 of 4,000 games (30%), 41 games/s, about 1 min 8 s left

A run shorter than the interval prints nothing; a run that printed a status line ends with one saying it is done.
The interval is ``LV_PROGRESS_SECONDS`` (default 5, the first line after 2) and the clock can be given, so tests
need not sleep.

A slow game must not silence the run (issue 28.2: a batch of searched games is minutes long): the games, in this
process or in the pool's, ``tick`` shared counters (games finished, decisions made) that the status lines read
between batches, and ``StatusLines.start`` writes them from a thread: the first line after ``FIRST_SECONDS``,
then one every interval, whether or not a batch came back. Before the first game ends, the time left is guessed
from the decisions made and ``DECISIONS_PER_GAME`` (what greedy games of 2 to 5 players take, 80 to 100); after,
from the games' own count.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from typing import Any, Callable

DEFAULT_SECONDS = 5.0
FIRST_SECONDS = 2.0  # the first status line: "within a few seconds of the start"
DECISIONS_PER_GAME = 100  # a prior for the time left until a game has ended (greedy games: 80 to 100)
FLUSH_SECONDS = 0.5  # a game's ticks reach the shared counters at most this late

# ---------------------------------------------------------------------------------------------- shared counters

GAMES, DECISIONS, FINISHED_DECISIONS = 0, 1, 2
_shared: Any = None  # this process's view of the run's counters (a multiprocessing Array), None: nobody listens
_pending = [0, 0, 0]
_flushed = 0.0


def counters() -> Any:
    """New counters for a run (games finished, decisions made, decisions of finished games), shared with the
    pool's processes through ``share`` (a pool's ``initializer``), and listened to in this process too."""
    made = multiprocessing.Array("q", 3)
    share(made)
    return made


def shared() -> Any:
    """The counters this process ticks (None if no run listens): what a pool's initializer passes on."""
    return _shared


def share(made: Any) -> None:
    """Tick ``made`` from now on (None: stop); a pool's ``initializer``."""
    global _shared, _flushed
    _shared = made
    _pending[:] = [0, 0, 0]
    _flushed = time.monotonic()


def listening() -> bool:
    return _shared is not None


def tick(games: int = 0, decisions: int = 0, finished_decisions: int = 0) -> None:
    """Count work done (nothing if no run listens); the counts reach the shared counters at the end of a game
    or every ``FLUSH_SECONDS``, so that a fast game does not take a lock per decision."""
    global _flushed
    if _shared is None:
        return
    _pending[GAMES] += games
    _pending[DECISIONS] += decisions
    _pending[FINISHED_DECISIONS] += finished_decisions
    now = time.monotonic()
    if games or now - _flushed >= FLUSH_SECONDS:
        _flushed = now
        with _shared.get_lock():
            for i in (GAMES, DECISIONS, FINISHED_DECISIONS):
                _shared[i] += _pending[i]
        _pending[:] = [0, 0, 0]


def counted(bot: Callable[..., Any]) -> Callable[..., Any]:
    """``bot``, ticking a decision for each of its answers (a searched decision can take seconds)."""
    def deciding(game: Any, legal: Any, rng: Any) -> Any:
        decision = bot(game, legal, rng)
        tick(decisions=1)
        return decision
    return deciding


def interval_from_env() -> float:
    """``LV_PROGRESS_SECONDS`` if it is a number of seconds (0: a line on every step), else 5."""
    text = os.environ.get("LV_PROGRESS_SECONDS", "")
    try:
        seconds = float(text)
    except ValueError:
        return DEFAULT_SECONDS
    return seconds if 0 <= seconds < 1e6 else DEFAULT_SECONDS


def first_from_env() -> float:
    """When the first status line is due: ``FIRST_SECONDS``, or the interval if ``LV_PROGRESS_SECONDS`` is set."""
    return interval_from_env() if os.environ.get("LV_PROGRESS_SECONDS") else min(FIRST_SECONDS, DEFAULT_SECONDS)


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
    seconds have passed since the last one (``advance``, or ``poll`` from the thread ``start`` starts; the first
    after ``first`` seconds), then a last line at ``close`` if it wrote any. ``ticks``: the run's shared
    counters (``counters``), which tell of games and decisions done before their batch comes back."""

    def __init__(self, what: str, total: int, unit: str, write: Callable[[str], None], *,
                 interval: float | None = None, clock: Callable[[], float] = time.monotonic,
                 ticks: Any = None, first: float | None = None) -> None:
        self.what, self.total, self.unit, self.write, self.clock = what, total, unit, write, clock
        self.interval = interval_from_env() if interval is None else interval
        self.first = self.interval if first is None else min(first, self.interval)
        self.ticks = ticks
        self.done = 0
        self.lines = 0
        self.start_time = clock()
        self.last = self.start_time
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def advance(self, k: int = 1) -> None:
        with self._lock:
            self.done += k
            self._maybe_write()

    def poll(self) -> None:
        """A status line if one is due, whether or not work came back since the last."""
        with self._lock:
            self._maybe_write()

    def _maybe_write(self) -> None:
        now = self.clock()
        due = self.first if self.lines == 0 else self.interval
        if now - self.last >= due and self.done < self.total:
            self.last = now
            self.lines += 1
            self.write(self.status(now))

    def games_done(self) -> int:
        return self._counts()[0]

    def _counts(self) -> tuple[int, int, int]:
        """(games done, decisions made, decisions of the games done) as far as known."""
        if self.ticks is None:
            return self.done, 0, 0
        with self.ticks.get_lock():
            games, decisions, finished = self.ticks[GAMES], self.ticks[DECISIONS], self.ticks[FINISHED_DECISIONS]
        return max(self.done, min(games, self.total)), decisions, finished

    def status(self, now: float) -> str:
        elapsed = now - self.start_time
        done, decisions, finished = self._counts()
        line = f"lv: {self.what}: {done:,} of {self.total:,} {self.unit}"
        if self.total:
            line += f" ({100 * done // self.total}%)"
        if decisions:
            line += f", {decisions:,} decisions"
        per_game = finished / done if done and finished else DECISIONS_PER_GAME
        fraction = done + max(0, decisions - finished) / per_game if decisions else done
        if elapsed > 0 and fraction:
            left = (self.total - fraction) * elapsed / fraction
            if done:
                rate = done / elapsed
                line += f", {_rate(rate)} {self.unit}/s" if rate >= 0.1 else f", {_rate(60 * rate)} {self.unit}/min"
            line += f", about {duration(max(0.0, left))} left"
        elif elapsed > 0:
            line += f", {duration(elapsed)} so far"
        return line

    def start(self) -> StatusLines:
        """Write due status lines from a thread until ``close``, so that a slow batch does not silence the run."""
        def run() -> None:
            while not self._stop.wait(min(1.0, max(0.05, self.first / 2))):
                self.poll()
        self._thread = threading.Thread(target=run, name="lv-progress", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        """The last line, if any was written: how much was done, and in how long."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if self.lines:  # the count the status lines gave: stopped (Ctrl-C), games ended before their batch came
            # back are done, and a last line of fewer ("673 of 7,300 games ..." then "0 of 7,300 games in 15 s")
            # read as work lost
            self.write(f"lv: {self.what}: {self.games_done():,} of {self.total:,} {self.unit} in "
                       f"{duration(self.clock() - self.start_time)}")
