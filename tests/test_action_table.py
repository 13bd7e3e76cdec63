"""The action families' table (lv/actions): discovered from the package's modules, every decision found through
it, and a new family module picked up with no other change."""

from __future__ import annotations

import sys

import pytest

import lv
from lv import actions as A
from lv.notation import format_action, parse_action
from lv.record import structured

NAMES = ["red", "blue"]


def test_every_family_module_is_in_the_table_in_order():
    # sell: the house rule "sell a lot back to the bank" (lv/actions/sell.py), picked up from its module
    # layoff: the boss's answer to a gamble (lv/actions/layoff.py, 000 L194)
    assert [f.name for f in A.FAMILIES] == ["draw", "build", "sell", "sprawl", "remodel", "reorganize", "raise",
                                           "gamble", "layoff", "trade", "end"]
    assert [f.order for f in A.FAMILIES] == sorted(f.order for f in A.FAMILIES)


def test_legal_groups_and_verbs_come_from_the_table():
    # `lv legal` lists its groups in this order (tests/test_play.py pins the same from the command line)
    assert A.GROUPS == ("draw", "reroll", "move", "build", "sell", "sprawl", "remodel", "reorg", "raise", "gamble",
                        "layoff", "end")
    assert A.FAMILY_OF_VERB["reorganize"] is A.FAMILY_OF[A.Reorganize]
    assert A.CANONICAL == {"reorganize": "reorg", "reorganise": "reorg", "lay-off": "layoff", "lay_off": "layoff",
                           "no-layoff": "layoff", "no-lay-off": "layoff", "no_lay_off": "layoff", "nolayoff": "layoff"}


@pytest.mark.parametrize("text", ["build A2 gold", "sprawl A3 from A2", "remodel A2 brown", "reorg A2", "raise A2",
                                  "gamble B3 4 layoff", "end", "draw D5", "reroll C5 4", "move die C5",
                                  "trade money 5 from red to blue; as red raise A2 by red, blue"])
def test_each_decision_goes_through_its_family(text):
    action = parse_action(text, NAMES)
    family = A.FAMILY_OF[type(action)]
    assert text.split()[0] in family.verbs
    assert family.format(action, NAMES) == format_action(action, NAMES) == text
    assert family.structured(action, NAMES) == structured(action, NAMES)


def test_the_engine_checks_with_the_family_predicate():
    game = lv.new_game("revised", NAMES, seed=3)
    legal = [a for a in game.legal_actions() if A.FAMILY_OF[type(a)].applies]
    assert legal
    s = game.state
    for action in legal:
        assert game.engine.why_not(s, s.current, action) is None
    refused = A.Build("A1", "gold") if s.markers.get("A1") != s.current else A.Build("A2", "gold")
    assert game.engine.why_not(s, s.current, refused)[0] == "build: a lot you own"


FAMILY_MODULE = '''
import attrs
from lv.actions._family import Family


@attrs.frozen
class Wave:
    kind = "wave"


class WaveFamily(Family):
    def parse(self, w):
        return Wave()

    def format(self, a, names):
        return "wave"

    def structured(self, a, names):
        return {"action": "wave"}

    def generate_after(self, m, out):
        out.append(Wave())


FAMILY = WaveFamily(name="wave", order=75, decisions=(Wave,), verbs=("wave",), generates_after=True)
'''


def test_a_new_family_module_is_discovered(tmp_path, monkeypatch):
    (tmp_path / "wave.py").write_text(FAMILY_MODULE)
    monkeypatch.setattr(A, "__path__", [*A.__path__, str(tmp_path)])
    try:
        found = A.discover()
    finally:
        sys.modules.pop("lv.actions.wave", None)
    names = [f.name for f in found]
    assert names.index("trade") < names.index("wave") < names.index("end")


def test_a_module_without_a_family_is_refused(tmp_path, monkeypatch):
    (tmp_path / "stray.py").write_text("X = 1\n")
    monkeypatch.setattr(A, "__path__", [*A.__path__, str(tmp_path)])
    try:
        with pytest.raises(ImportError, match="FAMILY"):
            A.discover()
    finally:
        sys.modules.pop("lv.actions.stray", None)


def test_a_family_is_a_class_whose_methods_are_its_rules():
    """Issue 18: each family is an instance of its own subclass of ``Family`` (a native class in the compiled
    build: a method call is a C call), not a record of callables; and its flags, which the engine and the legal
    list read instead of calling, say exactly which of the optional methods its class defines."""
    from lv.actions._family import Family

    for f in A.FAMILIES:
        assert isinstance(f, Family) and type(f) is not Family, f.name
        own = vars(type(f)).keys()
        assert {"parse", "format", "structured"} <= own, f.name
        assert f.applies == ("apply" in own) == ("why_not" in own), f.name
        assert f.generates_before == ("generate_before" in own), f.name
        assert (f.casinos is not None) == ("generate_casinos" in own), f.name
        assert f.generates_after == ("generate_after" in own), f.name
        assert f.generates_waiting == ("generate_waiting" in own), f.name
        assert (f.rolls is not None) == ("table_dice" in own), f.name
        assert bool(f.record_kinds) == ("from_record" in own), f.name
        assert ("listing" in own) == ("listing_text" in own), f.name
        assert (f.main_event is not None) == ("effect" in own), f.name
    assert [f.name for f in A.FAMILIES if not f.applies] == ["draw", "layoff", "end"]
    game, end = lv.new_game("revised", NAMES, seed=3), A.FAMILY_OF[A.EndTurn]
    s = game.state
    assert end.cost(game.engine, s, A.EndTurn()) == 0 and end.why_not(game.engine, s, 0, A.EndTurn()) is None
