"""Greedy's pick from ``bots.play`` (no plan given) lists only the families of the kinds it values
(``bots.GREEDY_TAKES``), the draw and the end of the turn: a remodel or a house rule's decision is worth 0 to it and
never drawn, so it is not made (the same pick as from the whole list: tests/test_search_cost.py and
tests/test_bots.py compare them)."""

import lv
from lv import actions as A
from lv import bots as B


def test_greedys_own_plan_is_its_kinds_families_kept_with_the_profiles_tables():
    for spec in ("revised", "original", "house-sell-back"):
        engine = lv.new_game(spec, 3, 1).engine
        plan = B._greedy_plan(engine)
        assert B._greedy_plan(engine) is plan  # kept, not made again at each pick
        profile = engine.profile
        expected = {f.name for f in A.FAMILIES if f.active(profile) and (not f.applies or f.name in B.GREEDY_TAKES)}
        assert plan.names == expected
        assert "remodel" not in plan.names and {"build", "end"} <= plan.names
        assert "sell" not in plan.names  # the house rule's family (house-sell-back), worth 0 to greedy
        assert [f.name for f in plan.casinos] == [f.name for f in lv.legal.whole_plan(engine).casinos
                                                  if f.name in plan.names]  # the whole list's order
