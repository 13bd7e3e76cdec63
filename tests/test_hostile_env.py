"""A hostile environment rather than hostile input: an output that cannot encode the board's characters
(PYTHONIOENCODING=ascii, a latin-1 locale), standard output, error or input closed by the shell (``>&-``,
``<&-``), standard output on a full disk (/dev/full). Each is one line on stderr and exit code 2, or readable
output, never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = str(ROOT / "examples" / "revised-4p.yaml")


def run(args, env=None, close=(), stdout=subprocess.PIPE, stdin=subprocess.DEVNULL):
    """``python -m lv ARGS`` from the worktree, the file descriptors in ``close`` closed as by ``>&-``."""
    environ = {k: v for k, v in os.environ.items() if k != "PYTHONIOENCODING"}
    environ.update({"PYTHONPATH": str(ROOT), **(env or {})})

    def closing() -> None:
        for fd in close:
            os.close(fd)

    return subprocess.run([sys.executable, "-m", "lv", *map(str, args)], cwd=ROOT, env=environ, stdin=stdin,
                          stdout=stdout, stderr=subprocess.PIPE, preexec_fn=closing, timeout=120)


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    path = tmp_path_factory.mktemp("env") / "game.yaml"
    assert run(["new", "--players", "rød,blå", "--seed", 7, "-o", path]).returncode == 0
    return path


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
@pytest.mark.parametrize("command", [["show"], ["legal"], ["replay"], ["show", "--wide"]])
def test_an_output_that_cannot_encode_the_board_gets_ascii_stand_ins(game, encoding, command):
    """``PYTHONIOENCODING=ascii lv show game.yaml`` was a UnicodeEncodeError traceback at the first '·'."""
    proc = run([command[0], game, *command[1:]], env={"PYTHONIOENCODING": encoding})
    assert proc.returncode == 0, proc.stderr.decode()
    assert b"Traceback" not in proc.stderr
    proc.stdout.decode(encoding)  # what the terminal was said to take
    if encoding == "ascii" and command[0] == "show":
        assert b"score track 0 |" in proc.stdout and b" . " in proc.stdout  # stand-ins, not '?'


def test_json_on_an_ascii_output_is_the_same_data(game):
    """--json on an ASCII output is written with \\uXXXX escapes: the same JSON, the names exact."""
    ascii_out = run(["legal", game, "--json"], env={"PYTHONIOENCODING": "ascii"})
    utf8_out = run(["legal", game, "--json"], env={"PYTHONIOENCODING": "utf-8"})
    assert ascii_out.returncode == 0 and ascii_out.stdout.isascii()
    assert json.loads(ascii_out.stdout) == json.loads(utf8_out.stdout)
    assert json.loads(ascii_out.stdout)["player"] in ("rød", "blå")


@pytest.mark.parametrize("args", [["show", "GAME"], ["replay", EXAMPLE, "--json"], ["--help"], ["--version"],
                                  ["move", "--help"]])
def test_a_closed_stdout_drops_the_output_with_one_warning(game, args):
    """``lv show game.yaml >&-`` was an AttributeError traceback ('NoneType' object has no attribute ...)."""
    proc = run([game if a == "GAME" else a for a in args], close=(1,), stdout=None)
    err = proc.stderr.decode()
    assert proc.returncode == 0, err
    assert err == "lv: warning: standard output is closed (>&-): what lv prints there is dropped\n", err


def test_a_move_with_stdout_closed_is_saved_and_says_so(tmp_path):
    """The move is saved before lv prints what happened: an error (exit 2) would say it had not been."""
    path = tmp_path / "g.yaml"
    assert run(["new", "-p", 2, "--seed", 1, "-o", path]).returncode == 0
    before = path.read_bytes()
    proc = run(["move", path, "end"], close=(1,), stdout=None)
    err = proc.stderr.decode()
    assert proc.returncode == 0 and "lv: saved " in err and err.count("\n") == 2, err
    assert path.read_bytes() != before
    assert run(["move", path, "nonsense"], close=(1,), stdout=None).returncode == 2  # bad input still is


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("args", [["--help"], ["--version"], ["show", "--help"], ["replay", EXAMPLE]])
def test_a_full_stdout_is_one_line(args):
    """``lv --help >/dev/full`` was an OSError traceback: the help is written by the last flush."""
    with open("/dev/full", "w") as full:
        proc = run(args, stdout=full)
    err = proc.stderr.decode()
    assert proc.returncode == 2, err
    assert err.startswith("lv: error: ") and "No space left on device" in err and err.count("\n") == 1, err


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("unbuffered", ["", "1"])
def test_a_move_printed_to_a_full_stdout_says_the_move_is_saved(tmp_path, unbuffered):
    """``lv move g.yaml end >/dev/full`` saved the move and said only 'No space left on device': a script that
    took it for a refused move would play it again. The error names standard output and says the file is
    written; one line, exit 2, whether Python buffers stdout or not (PYTHONUNBUFFERED, as some CI runners set)."""
    path = tmp_path / "g.yaml"
    assert run(["new", "--players", "ann,bob", "--seed", 1, "-o", path]).returncode == 0
    with open("/dev/full", "w") as full:
        proc = run(["move", path, "end"], stdout=full, env={"PYTHONUNBUFFERED": unbuffered})
    err = proc.stderr.decode()
    assert proc.returncode == 2 and err.count("\n") == 1, err
    assert err.startswith("lv: error: standard output: No space left on device: what lv printed there is lost"), err
    assert "bob to play" in run(["show", path]).stdout.decode()  # the move was saved


def test_a_closed_stderr_keeps_errors_off_stdout(tmp_path):
    """With stderr closed, ``print(..., file=sys.stderr)`` printed the error on stdout, among the data."""
    proc = subprocess.run([sys.executable, "-m", "lv", "show", str(tmp_path / "missing.yaml")], cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE,
                          preexec_fn=lambda: os.close(2), timeout=120)
    assert proc.returncode == 2 and proc.stdout == b""


def test_move_from_a_closed_stdin_is_one_line(game):
    """``lv move game.yaml --from - <&-`` was an AttributeError traceback; the game is left as it was."""
    before = game.read_bytes()
    proc = run(["move", game, "--from", "-"], close=(0,), stdin=None)
    err = proc.stderr.decode()
    assert proc.returncode == 2 and err.count("\n") == 1 and "standard input is closed" in err, err
    assert game.read_bytes() == before


def test_a_file_on_stdout_is_utf8_whatever_the_terminal_takes(game):
    """'lv render g.yaml > board.svg' (and 'lv selfplay > g.yaml') on an ASCII stdout: the file's own bytes,
    UTF-8, the names whole; written through the terminal's stand-ins, 'rød' was saved as 'r?d'."""
    ascii_svg = run(["render", game], env={"PYTHONIOENCODING": "ascii"})
    utf8_svg = run(["render", game], env={"PYTHONIOENCODING": "utf-8"})
    assert ascii_svg.returncode == 0 and ascii_svg.stdout == utf8_svg.stdout
    assert "rød".encode() in ascii_svg.stdout
    records = [run(["selfplay", "-p", 2, "--seed", 3], env={"PYTHONIOENCODING": e}).stdout for e in ("ascii", "utf-8")]
    assert records[0] == records[1] and records[0].startswith(b"format: lv-game/1")
