"""Issue 17.9: an empty --die-from/--marker-from is refused; a --set grid is capped before anything is built; a
closed output pipe ends lv quietly; a binary file is "not a text file (UTF-8)" with the byte's offset."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lv import cli, simulate
from lv.errors import LvError
from lv.yamlsource import decode

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def lv_cmd(*args):
    return runner.invoke(cli.app, [str(a) for a in args])


@pytest.mark.parametrize("option", ["--die-from", "--marker-from"])
@pytest.mark.parametrize("value", ["", "  "])
def test_an_empty_lot_to_take_a_piece_from_is_refused(tmp_path, option, value):
    game = tmp_path / "g.yaml"
    assert lv_cmd("new", "--players", 2, "--seed", 1, "-o", game).exit_code == 0
    before = game.read_bytes()
    res = lv_cmd("move", game, "end", option, value)
    assert res.exit_code == 2
    assert res.stderr == f"lv: error: {option} {value!r}: give the lot to take it from, e.g. {option} A3\n"
    assert game.read_bytes() == before


def test_empty_dice_with_from_are_refused_not_ignored(tmp_path):
    game = tmp_path / "g.yaml"
    assert lv_cmd("new", "--players", 2, "--seed", 1, "-o", game).exit_code == 0
    res = lv_cmd("move", game, "--from", "-", "--dice", "")
    assert res.exit_code == 2 and "go with a single decision" in res.stderr


def test_a_grid_past_the_cap_is_refused_before_any_profile_is_built(monkeypatch):
    """Counted, not enumerated: no value is read and no combination made (two --set of 20,000 values each would be
    400 million), whatever the machine's speed."""
    values = ",".join(str(v) for v in range(20_000))
    monkeypatch.setattr(simulate, "parse_value", lambda *a: pytest.fail("a value was read"))
    monkeypatch.setattr(simulate.itertools, "product", lambda *a: pytest.fail("the combinations were made"))
    with pytest.raises(LvError) as info:
        simulate.grid(["revised"], [f"raise.cost_per_space={values}"])
    assert str(info.value) == ("--set: 20,000 profiles (1 variant x 20000 raise.cost_per_space); a run takes at most "
                               "1,000: give fewer values, or --force-grid to play them all")
    with pytest.raises(LvError, match=r"^--set: 400,000,000 profiles \(1 variant x 20000 raise.cost_per_space x "
                                      r"20000 sprawl.riser_cost\)"):
        simulate.grid(["revised"], [f"raise.cost_per_space={values}", f"sprawl.riser_cost={values}"])


def test_the_cap_counts_every_variant_and_combination():
    tens = ",".join(str(v) for v in range(10))
    assert len(simulate.grid(["revised"], [f"raise.cost_per_space={tens}"] * 1 + [f"sprawl.riser_cost={tens}",
                                                                                  f"gamble.bet_per_tile={tens[2:]}"])
               .labels()) == 900
    with pytest.raises(LvError, match=r"--set: 1,800 profiles \(2 variants x 10 raise.cost_per_space x 10 "
                                      r"sprawl.riser_cost x 9 gamble.bet_per_tile\)"):
        simulate.grid(["revised", "original"], [f"raise.cost_per_space={tens}", f"sprawl.riser_cost={tens}",
                                                f"gamble.bet_per_tile={tens[2:]}"])
    assert len(simulate.grid(["revised", "original"], [f"raise.cost_per_space={tens}", f"sprawl.riser_cost={tens}",
                                                       f"gamble.bet_per_tile={tens[2:]}"], limit=None).labels()) == 1800


def test_the_command_line_refuses_a_large_grid_unless_forced():
    values = ",".join(str(v) for v in range(1001))
    res = lv_cmd("simulate", "-v", "revised", "--set", f"raise.cost_per_space={values}", "--games", 1)
    assert res.exit_code == 2 and "--force-grid" in res.stderr and res.stderr.count("\n") == 1
    res = lv_cmd("simulate", "-v", "revised", "--set", f"raise.cost_per_space={values}", "--games", 0,
                 "--force-grid")
    assert res.exit_code == 2 and "--games 0" in res.stderr  # past the cap: refused for another reason only


@pytest.mark.parametrize("args", [["replay", "examples/revised-4p.yaml", "--json"],
                                  ["replay", "examples/revised-4p.yaml"],
                                  ["variants", "list"]])  # printed through rich, whose own answer is exit 1
def test_a_closed_output_pipe_ends_lv_quietly(args):
    """``lv replay x --json | head``: the reader has gone before lv writes; lv says nothing and exits as ``yes``
    does under ``head`` (141 = 128 + SIGPIPE), never "lv: error: Broken pipe" with code 2."""
    proc = subprocess.Popen([sys.executable, "-m", "lv", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader goes away before the first line
    err = proc.stderr.read()
    assert proc.wait(timeout=300) == 141  # (a hang guard only: no test waits on the machine's speed)
    assert err == b""


@pytest.mark.parametrize("data, offset, byte", [(b"\x89PNG\r\n\x1a\n", 0, 0x89), (b"format: lv-game/1\n\xff", 18, 0xff),
                                                (b"name: caf\xe9\n", 9, 0xe9)])
def test_a_binary_file_is_not_a_text_file_with_where(data, offset, byte):
    with pytest.raises(LvError) as info:
        decode(data, "g.yaml")
    assert str(info.value) == f"g.yaml: not a text file (UTF-8): byte 0x{byte:02x} at offset {offset}"


def test_replaying_a_picture_says_it_is_not_a_text_file(tmp_path):
    path = tmp_path / "board.yaml"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    res = lv_cmd("replay", path)
    assert res.exit_code == 2
    assert res.stderr == f"lv: error: {path}: not a text file (UTF-8): byte 0x89 at offset 0\n"
