"""How the core's decisions are made in the pure build (lv/actions/_values.py, issue 31): a core class's
``__init__`` sets its fields at C speed while the decision's class is a stand-in, and the class is put back after,
so that a field assigned later still meets ``set_once``. What a decision is (==, hash, repr, pickle, the refusals)
is pinned for both builds in tests/test_arguments.py; these tests look at the pure build's way of making one, and
skip in the compiled build (mypyc sets a native class's fields directly; it refuses Python subclasses)."""

from __future__ import annotations

import gc

import attrs
import pytest

import lv
from lv.actions import build as build_module
from lv.actions._values import set_once
from lv.arguments import ArgumentError

pytestmark = pytest.mark.skipif(lv.build_name() == "compiled", reason="the pure build's construction")

Build = build_module.Build


def test_a_core_decision_is_made_without_its_setattr_and_frozen_after(monkeypatch):
    """Making a decision calls no ``set_once`` (each call was two Python frames and an AttributeError raised
    inside, 3% of a game); assigning a field after still goes through it and is refused."""
    calls = []

    def noting(made, name, value):
        calls.append(name)
        set_once(made, name, value)

    monkeypatch.setattr(build_module, "set_once", noting)
    made = Build("A2", "gold")
    assert calls == [] and type(made) is Build and (made.lot, made.color) == ("A2", "gold")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        made.lot = "A3"
    assert calls == ["lot"] and made.lot == "A2"


def test_a_refused_field_leaves_no_stand_in_behind():
    """The class is put back even when ``__init__`` raises (a second ``__init__`` on a made decision: Python
    code only), and the refusal names the public class, not the stand-in."""
    made = Build("A2", "gold")
    with pytest.raises(ArgumentError, match=r"^Build\.lot 1\.5: a text$"):
        Build.__init__(made, 1.5, "gold")
    assert type(made) is Build
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        made.color = "ruby"


def test_the_stand_ins_are_private_and_never_escape():
    """The stand-ins are subclasses named ``_...`` (tests/test_arguments.py lists the core's classes by their
    public names); what ``Build(...)`` returns is a ``Build``, with the signature it was written with."""
    import inspect

    assert type(Build(lot="A2", color="gold")) is Build
    stand_ins = [c for c in Build.__subclasses__() if c.__name__.startswith("_")]
    assert len(stand_ins) == 1 and stand_ins[0].__slots__ == ()
    assert tuple(inspect.signature(Build).parameters) == ("lot", "color")


def test_a_python_subclass_of_a_core_decision_is_made_as_written():
    """Pure build only (the compiled build refuses to make one): a subclass, with or without its own
    ``__init__``, sets its fields through its ``__setattr__`` as written, and is frozen."""

    class Plain(Build):
        __slots__ = ()

    class Marked(Build):
        __slots__ = ("mark",)

        def __init__(self, lot: str, color: str, mark: int) -> None:
            super().__init__(lot, color)
            self.mark = mark

        def __setattr__(self, name: str, value: object) -> None:
            set_once(self, name, value)

    plain, marked = Plain("A2", "gold"), Marked("A2", "gold", 3)
    assert type(plain) is Plain and plain.color == "gold"
    assert type(marked) is Marked and (marked.lot, marked.mark) == ("A2", 3)
    for made in (plain, marked):
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            made.lot = "A3"
    del Plain, Marked, plain, marked, made
    gc.collect()  # gone, with their stand-ins: tests/test_arguments.py lists the core's classes by __subclasses__
    assert [c for c in Build.__subclasses__() if "Plain" in c.__name__ or "Marked" in c.__name__] == []


def test_every_core_decision_is_made_without_its_setattr(monkeypatch):
    """Every core class, GiveMoney and the other steps of a trade (which inherit their ``__init__``) included."""
    import sys

    from test_arguments import EXAMPLES, _core_decisions

    calls = []

    def noting(made, name, value):
        calls.append((type(made).__name__, name))
        set_once(made, name, value)

    classes = [c for c in _core_decisions() if c.__module__.startswith("lv.")]
    assert sorted(c.__name__ for c in classes) == sorted(EXAMPLES)
    for cls in classes:
        monkeypatch.setattr(sys.modules[cls.__module__], "set_once", noting)
    for cls in classes:
        made = cls(*EXAMPLES[cls.__name__])
        assert type(made) is cls and made._values() == EXAMPLES[cls.__name__]
    assert calls == []
