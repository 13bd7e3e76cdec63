"""The protocol's hooks for a house rule's family (lv/actions/_family.py): its own rule ids (``Family.rules``,
listed by ``lv.actions.rule_ids()``), the wording of its events (``Family.effect``, ``Family.told``, read by the
narrative), and ``lv legal``'s groups, which leave out a family whose profile section the profile does not name.
A stand-in family (``wave``) is put in the table for each test, so these do not depend on any shipped house rule."""

from __future__ import annotations

from typing import ClassVar

import attrs
import pytest

import lv
from lv import actions as A
from lv import narrative, session
from lv import profile as P
from lv.actions._family import Family
from lv.events import Event, MarkerMoved
from lv.game import Decision

NAMES = ["red", "blue"]


@attrs.frozen
class Wave:
    kind = "wave"


@attrs.define(slots=True, weakref_slot=False)
class Waved(Event):  # not registered: the hooks need no entry in lv.events
    kind: ClassVar[str] = "waved"
    player: int


class WaveRule:
    FRIENDLY: "ClassVar[str]" = "wave: a friendly wave"


@attrs.frozen
class WaveParams:
    enabled: bool = False


class WaveFamily(Family):
    """A family written in Python: a subclass of ``Family`` with the methods it needs."""

    def parse(self, w):
        return Wave()

    def format(self, a, names) -> str:
        return "wave"

    def structured(self, a, names) -> dict:
        return {"action": "wave"}

    def effect(self, ev: Event, names) -> str:
        return f"{names[ev.player]} waves"  # type: ignore[attr-defined]

    def told(self, ev: Event, names) -> str | None:
        return f"{names[ev.player]} waves at the table" if isinstance(ev, Waved) else None


WAVE = WaveFamily(name="wave", order=75, decisions=(Wave,), verbs=("wave",), main_event="waved", rules=WaveRule,
                  parameters=WaveParams)


def test_rule_ids_lists_a_familys_own(monkeypatch):
    assert not any(k.startswith("WAVE.") for k in A.rule_ids())
    monkeypatch.setattr(A, "FAMILIES", (*A.FAMILIES, WAVE))
    assert A.rule_ids()["WAVE.FRIENDLY"] == "wave: a friendly wave"


def test_the_narrative_asks_the_family_for_the_wording(monkeypatch):
    step = Decision(Wave(), events=[Waved(player=1), MarkerMoved(player=1, lot="A2")])
    monkeypatch.setitem(A.FAMILY_OF, Wave, WAVE)  # format_action finds it in the table
    before = narrative.decision_lines(step, NAMES)
    assert before[0] == "wave" and before[1].strip().startswith("waved {")  # unknown: the fallback
    monkeypatch.setattr(narrative, "_EFFECTS", {"waved": WAVE.effect})
    monkeypatch.setattr(narrative, "_TOLD", (WAVE.told,))
    lines = narrative.decision_lines(step, NAMES)
    assert lines[0] == "wave: blue waves"  # the main event's effect follows the notation
    assert lines[1].strip().startswith("blue is out of markers")  # the others are told as before
    assert narrative.describe(Waved(player=0), NAMES) == "red waves at the table"
    assert narrative.describe(MarkerMoved(player=0, lot="A2"), NAMES).startswith("red is out of markers")


@pytest.mark.parametrize("named", [False, True])
def test_legal_groups_leave_out_a_section_the_profile_does_not_name(monkeypatch, named):
    monkeypatch.setattr(A, "FAMILIES", (*A.FAMILIES, WAVE))
    monkeypatch.setattr(P, "_EXTENSIONS", {"wave": WaveParams})
    profile = lv.load_profile("revised,wave.enabled=true" if named else "revised")
    groups = session.groups_of(profile)
    assert ("wave" in groups) is named
    # the families without a section of their own: all of them, in table order (the boss's lay-off only where the
    # profile lets the boss lay off, not under the revised rules)
    assert [g for g in groups if g != "wave"] == [v for f in A.FAMILIES if f.listed and f.parameters is None
                                                  and f.name != "layoff" for v in f.verbs]
    assert groups[:4] == ("draw", "reroll", "move", "build") and groups[-1] == ("wave" if named else "end")
