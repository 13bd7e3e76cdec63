"""The pieces of the fuzz suite: hostile values and YAML fragments, mutations of the shipped files, notation
built from the grammar's tokens, and the oracle that says what counts as a failure.

The rule (issue 9): through the command line, only a clean exit 0, 1 or 2; no traceback printed; an error is ONE
line (``lv: error: ...``; ``lv move`` may add its "legal now:" and "decisions before it" lines); nothing a
terminal acts on in text output. Through the Python API, only ``LvError``. Every call runs under a time budget:
running over it is a hang.

Failures of a category another branch is fixing are listed in :data:`KNOWN` with the branch and a signature. A
test that meets one records it, goes on with its other examples, and ends as xfail naming the category; any other
failure fails the test. After a merge, delete the category's entry: the suite then fails wherever it still occurs.
"""

from __future__ import annotations

import copy
import errno
import json
import os
import re
import signal
import traceback
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

import attrs
import pytest
import yaml
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from lv import cli
import lv
from lv.errors import LvError

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
PROFILES = sorted(p for p in (ROOT / "variants").glob("*.yaml") if p.stem != "board")

# ---------------------------------------------------------------------------------------------- size of a run

_MODE = os.environ.get("LV_FUZZ", "").strip()
LONG = _MODE == "long" or _MODE.isdecimal() and _MODE.isascii() and int(_MODE) > 1
SCALE = 100 if _MODE == "long" else int(_MODE) if LONG else 1  # LV_FUZZ=long: x100; LV_FUZZ=N: xN
BUDGET = 20.0  # seconds of CPU time for one call; more is a hang
WALL_FACTOR = 10  # ... or that many times as long in wall time, computing or not


# no conftest.py here: tests/conftest.py is imported by name ("from conftest import ...") and a second one would
# shadow it
_COMMON: dict[str, Any] = dict(
    deadline=None, database=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
                           HealthCheck.function_scoped_fixture, HealthCheck.large_base_example])
settings.register_profile("lv-fuzz", derandomize=True, **_COMMON)
settings.register_profile("lv-fuzz-long", **_COMMON)


def fuzz_settings(examples: int) -> settings:
    """``examples`` cases by default, 100 times as many with LV_FUZZ=long (N times with LV_FUZZ=N). The bounded
    form is derandomized (the same cases on every run, as CI wants); the long form draws new ones each time."""
    return settings(parent=settings.get_profile("lv-fuzz-long" if LONG else "lv-fuzz"), max_examples=examples * SCALE)


# ---------------------------------------------------------------------------------------------- failures


class MultiLine(Exception):
    """An LvError whose message is more than one line."""


class Hang(BaseException):
    """A call ran over its time budget. A BaseException, so that no ``except Exception`` in lv swallows it."""


@contextmanager
def budget(seconds: float = BUDGET) -> Iterator[None]:
    """Raise Hang in the main thread if the block uses more than ``seconds`` of CPU time (SIGPROF), or waits
    more than ten times that in wall time (SIGALRM; POSIX only). CPU time, so that a loaded machine, which
    stretches wall time, does not turn a slow call into a hang (issue 28.1); the wall bound catches a call that
    waits without computing."""
    if not hasattr(signal, "setitimer"):
        yield
        return

    def cpu(_signum, _frame):
        raise Hang(f"no answer within {seconds} s of CPU time")

    def wall(_signum, _frame):
        raise Hang(f"no answer within {WALL_FACTOR * seconds} s")

    previous = signal.signal(signal.SIGPROF, cpu), signal.signal(signal.SIGALRM, wall)
    # and again every half second: a Hang raised while Python runs a __del__ or a GC callback is swallowed
    signal.setitimer(signal.ITIMER_PROF, seconds, 0.5)
    signal.setitimer(signal.ITIMER_REAL, WALL_FACTOR * seconds, 0.5)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGPROF, previous[0])
        signal.signal(signal.SIGALRM, previous[1])


@attrs.frozen
class Known:
    """A failure category another branch is fixing: why, and how to recognise it (exception, traceback text)."""

    reason: str
    matches: Callable[[BaseException, str], bool]


def _lv_frame(exc: BaseException) -> traceback.FrameSummary | None:
    """The innermost frame of ``exc``'s traceback that is in the lv package."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if "/lv/" in f.filename.replace("\\", "/")]
    return frames[-1] if frames else None


def _raised_in(exc: BaseException, *modules: str) -> bool:
    frame = _lv_frame(exc)
    return frame is not None and Path(frame.filename).stem in modules


KNOWN: dict[str, Known] = {}  # every category the suite found is fixed; its reproducer is in test_known_failures


class Tally:
    """The known failures one test met: it goes on with its examples, then ends as xfail naming them."""

    def __init__(self, strict: bool = False) -> None:
        self.strict = strict  # no category is known: every failure fails (the reproducers of test_known_failures)
        self.seen: dict[tuple[str, str], str] = {}  # (category, exception at its innermost lv line) -> an example

    def absorb(self, exc: BaseException, what: str) -> None:
        """Record ``exc`` if it is of a known category, else raise it (the test fails)."""
        tb = "".join(traceback.format_exception(exc))
        for category, known in ({} if self.strict else KNOWN).items():
            if known.matches(exc, tb):
                frame = _lv_frame(exc)
                where = f"{Path(frame.filename).name}:{frame.lineno}" if frame else "?"
                self.seen.setdefault((category, f"{type(exc).__name__} at {where}"), f"{what[:160]}: {exc!s:.100}")
                return
        raise AssertionError(f"{what}: {type(exc).__name__}: {exc}\n{tb}") from exc

    def settle(self) -> None:
        if self.seen:
            cats = sorted({c for c, _ in self.seen})
            sites = "; ".join(f"[{c}] {site}" for c, site in sorted(self.seen))
            pytest.xfail(" / ".join(KNOWN[c].reason for c in cats) + f" -- {sites}")


@pytest.fixture()
def tally() -> Tally:
    """Known failures met by one test; the test calls ``tally.settle()`` at its end. Test modules import it."""
    return Tally()


# ---------------------------------------------------------------------------------------------- the oracle


# what a terminal acts on (newline and tab aside); written apart from lv/printable.py
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
ERROR_FOLLOWERS = ("legal now: ", "lv: ")  # lv move's lines after its one-line refusal


def run_cli(tally: Tally, args: list[str], stdin: str | None = None, seconds: float = BUDGET) -> Any:
    """Run ``lv ARGS`` in this process and hold it to the rule; return the click Result (None after a known
    failure)."""
    what = "lv " + " ".join(args)[:300]
    with budget(seconds):
        res = CliRunner().invoke(cli.app, args, input=stdin)
    exc = res.exception
    if exc is not None and not isinstance(exc, SystemExit):
        tally.absorb(exc, what)
        return None
    code, out, err = res.exit_code, res.stdout, res.stderr
    assert code in (0, 1, 2), f"{what}: exit code {code}"
    assert "Traceback" not in out + err, f"{what}: a traceback\n{err}"
    if code == 2 and args[0] == "check" and not err:
        # lv check reports a broken record on its own FAIL line (stdout) and exits 2 after checking every file
        if "--json" in args:
            assert any(f.get("broken") for f in json.loads(out)["files"]), f"{what}: exit 2, no broken file"
        else:
            fails = [line for line in out.splitlines() if line.startswith("FAIL ")]
            assert fails, f"{what}: exit code 2 without an error line or a FAIL line: {out!r}"
    elif code == 2:
        lines = err.splitlines()
        assert lines and lines[0].startswith("lv: error: "), f"{what}: not an 'lv: error:' line: {err!r}"
        assert all(line.startswith(ERROR_FOLLOWERS) for line in lines[1:]), f"{what}: a multi-line error: {err!r}"
    if "--json" in args and code in (0, 1, 2) and out:
        json.loads(out)
    bad = RAW.search(out if "--json" not in args else "") or RAW.search(err)
    assert bad is None, f"{what}: raw {bad.group()!r} printed"
    return res


def call(tally: Tally, fn: Callable, *args: Any, **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)`` through the Python API: it returns or raises LvError, nothing else."""
    with budget():
        try:
            return fn(*args, **kwargs)
        except LvError as exc:
            if "\n" in str(exc) or "\r" in str(exc):  # the CLI would escape it, but the message is two lines
                tally.absorb(MultiLine(str(exc)), f"{getattr(fn, '__qualname__', fn)}{args!r:.300}")
            return None
        except Exception as exc:  # noqa: BLE001 - the point: any other exception is a finding
            tally.absorb(exc, f"{getattr(fn, '__qualname__', fn)}{args!r:.300}")
            return None


# ---------------------------------------------------------------------------------------------- hostile values

CONTROL_TEXT = ["\x1b[2J", "a\x00b", "\u202eevil", "x\ny", "\x9b31m", "\x1b]52;c;aGk=\x07", "tab\there", "\r"]
UNICODE_DIGITS = ["²", "٣", "١٢", "𝟓", "five", "3.0", "-2", "+4", "0x10", "1_000", " 7 ", "$5", "Ⅷ", "৭"]
# scalars as Python values: wrong types at any key
VALUES: list[Any] = [0, 1, -1, 7, 2**31, 2**63, 10**30, -10**20, True, False, None, 1.5, -0.0, "", "x", "A2", "END",
                     "red", "gold", [], {}, [1, 2], {"a": 1}, [None], {"": None}, *CONTROL_TEXT, *UNICODE_DIGITS]
# YAML written into the text as it is: what a Python value cannot say
FRAGMENTS = [".nan", ".inf", "-.inf", "~", "yes", "off", "2001-12-14", "2001-12-14t21:59:43.10-05:00", "12:30:00",
             "0o17", "0x1F", "!!binary aGk=", "!!set {a, b}", "!!str 5", "!!int '12'", "!!float '1e400'",
             "{<<: {money: 5}, score: 0}", "[&fz1 x, *fz1]", "&fz2 {a: *fz2x}", "*nowhere", "? [a, b]",
             "{? [a]: b}", "!!python/object/apply:os.system ['true']", "!custom 5", "'\\e[2J'", '"\\e[2J\\u202e"',
             "[" * 40 + "]" * 40, "{a: " * 30 + "1" + "}" * 30, "[" * 1200 + "]" * 1200,
             "[&fz3 [x, x, x, x, x, x, x, x, x, x], "
             "&fz4 [*fz3, *fz3, *fz3, *fz3, *fz3, *fz3, *fz3, *fz3, *fz3, *fz3], [*fz4, *fz4, *fz4, *fz4, *fz4]]",
             "9" * 300, "-" + "9" * 60, "1e309", "0b101", "+12", "١٢", '"\\ud800"', "|\n  a\n  b"]


def hostile_value() -> st.SearchStrategy:
    """A wrong value: a scalar or container of another type, hostile text, or a raw YAML fragment (as Frag)."""
    return st.one_of(st.sampled_from(VALUES), st.sampled_from(FRAGMENTS).map(Frag),
                     st.integers(min_value=-10**40, max_value=10**40), st.text(max_size=12),
                     st.lists(st.sampled_from(VALUES[:24]), max_size=3)).map(copy.deepcopy)  # VALUES stay as they are


@attrs.frozen
class Frag:
    """Raw YAML text to put in place of a value."""

    text: str


# ---------------------------------------------------------------------------------------------- mutated files


def load_data(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def paths_of(data: Any, prefix: tuple = ()) -> list[tuple]:
    """Every key path in ``data`` (the root is ``()``)."""
    out = [prefix]
    if isinstance(data, dict):
        for k, v in data.items():
            out += paths_of(v, prefix + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += paths_of(v, prefix + (i,))
    return out


def _get(data: Any, path: tuple) -> Any:
    for key in path:
        data = data[key]
    return data


@st.composite
def mutated(draw, base: Any, max_changes: int = 3) -> Any:
    """``base`` (a parsed shipped file) with 1-``max_changes`` changes: a value replaced by a hostile one, a key
    deleted, an unknown key added, a list item repeated or dropped. Frag values stand for raw YAML text."""
    data = copy.deepcopy(base)
    for _ in range(draw(st.integers(1, max_changes))):
        path = draw(st.sampled_from(paths_of(data)))
        op = draw(st.sampled_from(["replace", "replace", "replace", "delete", "add", "repeat"]))
        if not path:
            if op == "replace":
                data = draw(hostile_value())
            continue
        parent, key = _get(data, path[:-1]), path[-1]
        if op == "replace":
            parent[key] = draw(hostile_value())
        elif op == "delete":
            del parent[key]
        elif op == "add" and isinstance(parent[key], dict):
            parent[key][draw(st.sampled_from(["zz", "<<", "1", "", "\x1b[2J", "players", "value"]))] = \
                draw(hostile_value())
        elif op == "repeat" and isinstance(parent[key], list) and parent[key]:
            parent[key].append(copy.deepcopy(parent[key][draw(st.integers(0, len(parent[key]) - 1))]))
    return data


_SENTINEL = re.compile(r"""["']?FRAG(\d+)ZZ["']?""")


def to_text(data: Any, as_json: bool) -> str:
    """``data`` as YAML (block style) or JSON (YAML's flow subset), Frag values written in raw."""
    frags: list[str] = []

    def swap(v: Any) -> Any:
        if isinstance(v, Frag):
            frags.append(v.text)
            return f"FRAG{len(frags) - 1}ZZ"
        if isinstance(v, dict):
            return {(swap(k) if isinstance(k, Frag) else k): swap(x) for k, x in v.items()}
        if isinstance(v, list):
            return [swap(x) for x in v]
        return v

    plain = swap(data)
    text = (json.dumps(plain, ensure_ascii=False, indent=1) if as_json
            else yaml.safe_dump(plain, sort_keys=False, allow_unicode=True, width=10**6))
    # a fragment spanning lines (a block scalar) only fits block YAML; in JSON it goes on one line
    return _SENTINEL.sub(lambda m: frags[int(m.group(1))] if not as_json else
                         frags[int(m.group(1))].replace("|\n  a\n  b", '"a\\nb"'), text)


# ---------------------------------------------------------------------------------------------- notation

BOARD = lv.load_board()
LOTS = list(BOARD.order)
VERBS = ["build", "sprawl", "remodel", "reorg", "reorganize", "raise", "gamble", "end", "trade", "money", "lot",
         "die", "from", "to", "layoff", ";"]
_LOT = st.sampled_from(LOTS + [lot.lower() for lot in LOTS] + ["A0", "G1", "Z", "C13"])
_COLOR = st.sampled_from(list(BOARD.colors) + ["GOLD", "pink"])
_PLAYER = st.sampled_from(["red", "blue", "green", "RED", "black", "nobody"])
_AMOUNT = st.sampled_from(UNICODE_DIGITS + ["0", "1", "4", "12", "$3", "-1", "9" * 40])
WORDS = st.one_of(st.sampled_from(VERBS), _LOT, _COLOR, _PLAYER, _AMOUNT, st.sampled_from(CONTROL_TEXT),
                  st.text(max_size=6))
# the grammar's shapes (lv/notation.py): each slot is mostly a token of its kind
_SLOTS = {"L": _LOT, "C": _COLOR, "P": _PLAYER, "N": _AMOUNT}
TEMPLATES = ["build L C", "sprawl L from L", "remodel L C", "reorg L", "raise L", "gamble L N", "gamble L N layoff",
             "end", "money N from P to P", "lot L from P to P", "die L from P to P"]


@st.composite
def _decision_words(draw, trade_step: bool = False) -> list[str]:
    template = draw(st.sampled_from(TEMPLATES))
    words = []
    for word in template.split():
        slot = _SLOTS.get(word)
        words.append(word if slot is None else draw(st.one_of(slot, slot, slot, WORDS)))
    if not trade_step and words[0] in ("money", "lot", "die"):
        words.insert(0, "trade")
    return words


@st.composite
def notation(draw) -> str:
    """A decision line: a real decision's shape with odd tokens in its slots (or a trade of several), then perhaps
    a word inserted, dropped or replaced; or any words at all."""
    shape = draw(st.integers(0, 5))
    if shape == 0:
        words = draw(st.lists(WORDS, max_size=9))
    elif shape == 1:
        steps = draw(st.lists(_decision_words(trade_step=True), min_size=1, max_size=3))
        words = ["trade"] + [w for step in steps for w in step + [";"]][:-1]
    else:
        words = draw(_decision_words())
    if words and draw(st.integers(0, 3)) == 0:
        i = draw(st.integers(0, len(words) - 1))
        change = draw(st.sampled_from(["insert", "drop", "replace"]))
        if change == "insert":
            words.insert(i, draw(WORDS))
        elif change == "drop":
            del words[i]
        else:
            words[i] = draw(WORDS)
    return draw(st.sampled_from([" ", " ", "  ", "\t"])).join(words)


def play_some(tally: "Tally", game: Any, data: Any, most: int) -> int:
    """Up to ``most`` random legal decisions (hypothesis ``data`` chooses), each through ``call``; how many were
    applied."""
    applied = 0
    for _ in range(data.draw(st.integers(0, most)) if game is not None else 0):
        legal = call(tally, game.legal_actions)
        if not legal or game.over:
            break
        applied += call(tally, game.apply, data.draw(st.sampled_from(legal))) is not None
    return applied
