"""The rule ids refusals carry come from one table (lv/ruleids.py), and those a profile parameter decides are
named by that parameter, so a refusal tells a designer which key to change."""

from __future__ import annotations

import ast
from pathlib import Path

import lv
from lv.profile import parameter_names
from lv.actions import rule_ids
from lv.ruleids import Rule

from conftest import at, illegal

LV = Path(lv.__file__).resolve().parent
# the modules whose refusals must name their rule through the table
RULE_MODULES = [LV / "rules.py", *sorted((LV / "actions").glob("*.py"))]


def test_every_dotted_rule_id_is_a_profile_parameter():
    params = set(parameter_names())
    dotted = {name: rid for name, rid in rule_ids().items() if "." in rid and " " not in rid}
    assert dotted, "the table names no parameter at all"
    assert {name: rid for name, rid in dotted.items() if rid not in params} == {}


def test_rule_ids_differ():
    ids = list(rule_ids().values())
    assert len(ids) == len(set(ids))


def _literal_rules(path: Path) -> list[str]:
    """Rule ids written as literals: ``IllegalAction(msg, "rule")`` and ``return ("rule", msg)``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalAction" and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant)):
            found.append(f"{path.name}:{node.lineno}: {node.args[1].value!r}")
        if (isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple) and len(node.value.elts) == 2
                and isinstance(node.value.elts[0], ast.Constant) and isinstance(node.value.elts[0].value, str)):
            found.append(f"{path.name}:{node.lineno}: {node.value.elts[0].value!r}")
    return found


def test_the_rules_and_the_action_families_name_rules_through_the_table():
    assert len(RULE_MODULES) > 5
    assert [hit for path in RULE_MODULES for hit in _literal_rules(path)] == []


def test_the_literal_check_finds_a_literal(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text('def f():\n    raise IllegalAction("no", "sprawl.cost_multiplier")\n\n'
                   'def g():\n    return ("build: a lot you own", "no")\n')
    assert len(_literal_rules(bad)) == 2


def test_a_refusal_carries_the_table_id():
    # 003 "Action - Reorganize" L624-627: a die reorganized this turn cannot be reorganized again
    game = at("revised", ["red", "blue"], current="red", players={"red": {"money": 50}},
              tiles={"A1": "gold red 1"})
    game.apply(lv.Reorganize("A1"), dice={"reorg": {"A1": 2}})
    err = illegal(game, lv.Reorganize("A1"))
    assert err.rule == Rule.REORGANIZE_ONCE == "reorganize: each die once a turn"
