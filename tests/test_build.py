"""The two builds of one source (issue 18): ``pip install .`` is pure Python, ``LV_COMPILE=1 pip install .``
compiles the core with mypyc; ``lv --version`` names the build that runs. CI runs the goldens and the core's tests
a second time against a compiled install with LV_EXPECT_COMPILED=1, where the last test here makes sure the
compiled modules are the ones imported (not a checkout's .py files)."""

from __future__ import annotations

import gc
import importlib
import os
import subprocess
import sys

import pytest

import lv
from lv.chance import Dice, HalvesStream, Stream


def test_lv_version_names_the_build_that_runs():
    proc = subprocess.run([sys.executable, "-m", "lv", "--version"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"lv {lv.__version__} ({lv.build_name()})\n"
    assert proc.stdout.endswith((" (compiled)\n", " (pure Python)\n"))


def test_the_build_is_told_by_where_the_engine_loads_from():
    from lv import rules

    compiled = rules.__file__.endswith((".so", ".pyd"))
    assert lv.build_name() == ("compiled" if compiled else "pure Python")


@pytest.mark.skipif(os.environ.get("LV_EXPECT_COMPILED") != "1", reason="only in CI's compiled stage")
def test_the_compiled_build_runs_and_a_house_rule_stays_python():
    assert lv.build_name() == "compiled"
    for name in ("lv.rules", "lv.legal", "lv.casinos", "lv.game", "lv.events", "lv.actions.build",
                 "lv.actions.gamble"):
        assert importlib.import_module(name).__file__.endswith((".so", ".pyd")), name
    # a family written in Python plugs in beside the compiled core (tests/test_house_sell.py plays it): a Python
    # subclass of the compiled base class of the families
    sell = importlib.import_module("lv.actions.sell")
    assert sell.__file__.endswith(".py")
    family = importlib.import_module("lv.actions._family")
    assert family.__file__.endswith((".so", ".pyd"))
    assert type(sell.FAMILY).__mro__[1] is family.Family
    # and its event, an attrs class, a Python subclass of the compiled (native) Event; the core's events are native
    # and acyclic (out of the cyclic collector's lists), a Python subclass's are tracked as any Python object's
    events = importlib.import_module("lv.events")
    assert sell.Sold.__mro__[1] is events.Event
    assert not gc.is_tracked(events.Paid(0, 3, "lots", ["A1"])) and gc.is_tracked(sell.Sold("B3", 0, 4))


def _played_game() -> lv.Game:
    from lv import bots

    game = lv.new_game("revised", 4, 3)
    return bots.play(game, [bots.uniform_bot] * 4, 3)


# what a played game keeps, by the classes marked acyclic (lv/board.py, casinos.py, state.py, game.py), and the dice
ACYCLIC = {
    "Lot": lambda g: g.board.lots["A1"],
    "Board": lambda g: g.board,
    "Casino": lambda g: g.state.casino_index("color").all()[0],
    "DiceFacts": lambda g: g.state.casino_index("color").with_dice()[0][1],
    "Tile": lambda g: next(iter(g.state.tiles.values())),
    "PlayerState": lambda g: g.state.players[0],
    "Result": lambda g: g.state.result,
    "Decision": lambda g: g.history[0].decisions[0],
    "Turn": lambda g: g.history[0],
    "CasinoView": lambda g: g.casinos()[0],
    # made for every decision and draw, not kept (lv/chance.py)
    "Dice": lambda g: Dice(g.seed, ("probe",)),
    "HalvesStream": lambda g: HalvesStream(1),
    "Stream": lambda g: Stream(1),
}


@pytest.mark.skipif(os.environ.get("LV_EXPECT_COMPILED") != "1", reason="only in CI's compiled stage")
@pytest.mark.parametrize("name", sorted(ACYCLIC))
def test_the_compiled_core_keeps_its_values_out_of_the_cyclic_collector(name):
    # classes that hold only plain data (and other such classes) are acyclic in the compiled build: the collector
    # does not walk them (it walked a game's record and casinos at the end of every game); the state, whose casino
    # index points back at it, is tracked as before
    game = _played_game()
    found = ACYCLIC[name](game)
    assert type(found).__name__ == name
    assert not gc.is_tracked(found)
    assert gc.is_tracked(game.state)
