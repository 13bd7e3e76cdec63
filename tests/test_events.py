"""Events are one class per kind: the registry, the factory, and the JSON they give (field order, flags left out
when False), which the goldens hash byte for byte."""

from __future__ import annotations

import re
import pickle

import attrs
import pytest

from lv import events as E


def _documented() -> dict[str, list[str]]:
    """kind -> fields, as the module's docstring lists them (``[flag]`` marks a flag)."""
    text = " ".join(next(p for p in (E.__doc__ or "").split("\n\n") if p.startswith("setup:")).split())
    return {kind: [f.strip(" []") for f in fields.split(",") if f.strip()]
            for kind, fields in re.findall(r"(\w+)\(([^)]*)\)", text)}


def test_every_documented_kind_is_a_class_with_those_fields_in_that_order() -> None:
    documented = _documented()
    # the kinds of lv/events.py; an action family's own kinds (a house rule's) are documented in its module
    own = {kind: cls for kind, cls in E.EVENTS.items() if cls.__module__ == E.__name__}
    assert all(cls.__module__.startswith("lv.actions.") for k, cls in E.EVENTS.items() if k not in own)
    assert set(documented) == set(own)
    for kind, cls in own.items():
        assert cls.kind == kind
        assert [a.name for a in attrs.fields(cls)] == documented[kind], kind


def test_the_factory_builds_the_class_of_the_kind() -> None:
    ev = E.event("paid", player=1, amount=6, why="casino", lots=["D1", "D4"])
    assert type(ev) is E.Paid and ev == E.Paid(1, 6, "casino", ["D1", "D4"])
    assert (ev.player, ev.amount, ev.why, ev.lots) == (1, 6, "casino", ["D1", "D4"])
    with pytest.raises(KeyError):
        E.event("no_such_kind", player=0)
    with pytest.raises(TypeError):  # a field the kind does not have
        E.event("turn_ended", player=0, lot="A1")


def test_to_dict_gives_the_kind_then_the_fields_in_order_and_leaves_out_false_flags() -> None:
    drawn = E.CardDrawn(player=2, card="F2", pays="silver")
    assert list(drawn.to_dict().items()) == [("kind", "card_drawn"), ("player", 2), ("card", "F2"), ("pays", "silver")]
    assert E.CardDrawn(2, "F2", "silver", f_block=True).to_dict()["f_block"] is True
    ended = E.GameEnded("end_card", 0, [0, 1], [40, 30], [5, 9])
    assert "instant_win" not in ended.to_dict()
    assert list(E.GameEnded("instant_win", 0, [0, 1], [90, 30], [5, 9], instant_win=True).to_dict())[-1] == "instant_win"
    # a False that is data, not a flag, stays: a gamble that was not laid off says so
    gamble = E.Gambled(0, "B3", 1, 4, [1, 2], 3, "win", False, 4, -4)
    assert gamble.to_dict()["lay_off"] is False


def test_events_are_slotted_compare_by_kind_and_data_and_pickle() -> None:
    a, b = E.MarkerMoved(0, "A2"), E.DieMoved(0, "A2")
    assert not hasattr(a, "__dict__")
    assert a != b and a == E.MarkerMoved(0, "A2") and a != E.MarkerMoved(1, "A2")
    assert pickle.loads(pickle.dumps(a)) == a


def test_a_kind_is_registered_once() -> None:
    with pytest.raises(ValueError, match="taken"):
        @E.register
        @attrs.define(slots=True, weakref_slot=False)
        class Again(E.Event):
            kind = "paid"
    assert E.EVENTS["paid"] is E.Paid
