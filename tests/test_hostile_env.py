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


def test_move_from_a_closed_stdin_is_one_line(game):
    """``lv move game.yaml --from - <&-`` was an AttributeError traceback; the game is left as it was."""
    before = game.read_bytes()
    proc = run(["move", game, "--from", "-"], close=(0,), stdin=None)
    err = proc.stderr.decode()
    assert proc.returncode == 2 and err.count("\n") == 1 and "standard input is closed" in err, err
    assert game.read_bytes() == before
