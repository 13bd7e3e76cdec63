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
    assert [f.name for f in A.FAMILIES] == ["draw", "build", "sell", "sprawl", "remodel", "reorganize", "raise",
                                           "gamble", "trade", "end"]
    assert [f.order for f in A.FAMILIES] == sorted(f.order for f in A.FAMILIES)


def test_legal_groups_and_verbs_come_from_the_table():
    # `lv legal` lists its groups in this order (tests/test_play.py pins the same from the command line)
    assert A.GROUPS == ("draw", "reroll", "move", "build", "sell", "sprawl", "remodel", "reorg", "raise", "gamble",
                        "end")
    assert A.FAMILY_OF_VERB["reorganize"] is A.FAMILY_OF[A.Reorganize]
    assert A.CANONICAL == {"reorganize": "reorg", "reorganise": "reorg"}


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
    legal = [a for a in game.legal_actions() if A.FAMILY_OF[type(a)].why_not is not None]
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


def generate(m, out):
    out.append(Wave())


FAMILY = Family(name="wave", order=75, decisions=(Wave,), verbs=("wave",), parse=lambda w: Wave(),
                format=lambda a, names: "wave", structured=lambda a, names: {"action": "wave"},
                generate_after=generate)
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
