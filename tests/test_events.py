"""Events are one class per kind: the registry, the factory, and the JSON they give (field order, flags left out
when False), which the goldens hash byte for byte."""

from __future__ import annotations

import ast
import copy
import inspect
import pickle
import re
import sys
from pathlib import Path

import attrs
import pytest

from lv import actions as A
from lv import events as E
from lv.actions.gamble import Gambled


def _documented(doc: str | None, start: str) -> dict[str, list[str]]:
    """kind -> fields, as a docstring lists them in its paragraph that starts with ``start`` (``[flag]`` marks a
    flag)."""
    text = " ".join(next(p for p in (doc or "").split("\n\n") if p.startswith(start)).split())
    return {kind: [f.strip(" []") for f in fields.split(",") if f.strip()]
            for kind, fields in re.findall(r"(\w+)\(([^)]*)\)", text)}


def _docstring(module) -> str | None:
    """A module's docstring, from its source where it is compiled (mypyc keeps no module docstrings; the .py
    file is installed beside the compiled one)."""
    if module.__doc__ is not None or module.__file__.endswith(".py"):
        return module.__doc__
    source = Path(module.__file__).with_name(module.__name__.rsplit(".", 1)[-1] + ".py")
    return ast.get_docstring(ast.parse(source.read_text(encoding="utf-8")), clean=False)


def _where_documented() -> dict[str, tuple[str, list[str]]]:
    """kind -> (the module that documents it, its fields): lv/events.py's docstring lists the core's kinds, each
    action family module's the kinds of its own events (after ``Events:``)."""
    out = {kind: (E.__name__, fields) for kind, fields in _documented(_docstring(E), "setup:").items()}
    for family in A.FAMILIES:
        module = sys.modules[type(family).__module__]
        doc = _docstring(module)
        if "\n\nEvents:" in (doc or ""):
            for kind, fields in _documented(doc, "Events:").items():
                assert kind not in out, kind
                out[kind] = (module.__name__, fields)
    return out


def test_every_documented_kind_is_a_class_with_those_fields_in_that_order() -> None:
    documented = _where_documented()
    # a house rule's action (a family with a profile section of its own) may document its events elsewhere
    # (docs/house-rules.md); the core's and the built-in families' are listed where they are defined
    house = {type(f).__module__ for f in A.FAMILIES if f.parameters is not None}
    elsewhere = {kind for kind in E.EVENTS if kind not in documented}
    assert all(E.EVENTS[kind].__module__ in house for kind in elsewhere), elsewhere
    assert set(documented) <= set(E.EVENTS)
    for kind in documented:
        cls = E.EVENTS[kind]
        assert cls.kind == kind
        module, fields = documented[kind]
        assert list(cls._keys) == fields, kind
        assert cls.__module__ == module, f"{kind} is documented in {module}, defined in {cls.__module__}"


def test_an_actions_events_are_defined_in_its_family_module_and_worded_there() -> None:
    """lv/events.py holds only the core's events: every action's main event comes from its family module, and
    the family tells it (Family.told) where the narrative does not."""
    for family in A.FAMILIES:
        if family.main_event is None:
            continue
        cls = E.EVENTS[family.main_event]
        assert cls.__module__ == type(family).__module__, family.name
        assert {"effect", "told"} <= vars(type(family)).keys(), family.name  # its own wording


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
    gamble = Gambled(0, "B3", 1, 4, [1, 2], 3, "win", False, 4, -4)
    assert gamble.to_dict()["lay_off"] is False


def test_events_are_slotted_compare_by_kind_and_data_and_pickle() -> None:
    a, b = E.MarkerMoved(0, "A2"), E.DieMoved(0, "A2")
    assert not hasattr(a, "__dict__")
    assert a != b and a == E.MarkerMoved(0, "A2") and a != E.MarkerMoved(1, "A2")
    assert not a != E.MarkerMoved(0, "A2") and a != (0, "A2")
    assert pickle.loads(pickle.dumps(a)) == a
    drawn = E.CardDrawn(2, "F2", "silver", f_block=True)
    assert pickle.loads(pickle.dumps(drawn)) == drawn and copy.deepcopy(drawn) == drawn
    assert E.GameEnded("end_card", 0, [0, 1], [40, 30], [5, 9]) != E.GameEnded("end_card", 0, [0, 1], [40, 31], [5, 9])
    with pytest.raises(TypeError):  # changeable, so not hashable (as attrs made them)
        hash(a)


def test_repr_is_the_class_and_every_field_as_attrs_wrote_it() -> None:
    """lv explain's per-turn digests hash the events' repr: it stays what attrs gave."""
    assert repr(E.Paid(0, 3, "lots", ["A1", "A2"])) == "Paid(player=0, amount=3, why='lots', lots=['A1', 'A2'])"
    assert repr(E.CardDrawn(1, "B2", "strip")) == "CardDrawn(player=1, card='B2', pays='strip', f_block=False)"
    assert repr(E.BossChanged(["C1"], None, 2)) == "BossChanged(lots=['C1'], previous=None, boss=2)"
    assert repr(Gambled(0, "B3", 1, 4, [1, 2], 3, "win", False, 4, -4)) == (
        "Gambled(player=0, lot='B3', boss=1, bet=4, dice=[1, 2], total=3, outcome='win', lay_off=False, "
        "gambler_gets=4, boss_gets=-4)")


@pytest.mark.parametrize("kind", sorted(E.EVENTS))
def test_a_kind_takes_its_fields_in_order_and_its_flags_default_to_false(kind: str) -> None:
    """``_keys`` (what items(), == and repr read) is the order ``__init__`` takes: positional construction in
    the engine and the JSON's field order agree. Read from the source's signature (the pure build; mypyc may
    keep none)."""
    cls = E.EVENTS[kind]
    try:
        params = inspect.signature(cls).parameters
    except ValueError:
        pytest.skip("no signature in this build (the pure build checks the same source)")
    assert list(params) == list(cls._keys), kind
    assert {n for n, p in params.items() if p.default is not inspect.Parameter.empty} == cls._flags, kind
    assert all(params[n].default is False for n in cls._flags), kind


def test_an_attrs_event_is_registered_with_its_fields() -> None:
    """A house rule's module may write its event as an attrs class (lv/actions/sell.py): ``register`` takes its
    fields from attrs; attrs gives it ``==`` and ``repr``; a plain class must say its fields."""
    from lv.actions.sell import Sold

    assert Sold._keys == ("lot", "player", "amount") and E.EVENTS["sold"] is Sold
    sold = Sold("B3", 0, 4)
    assert sold.items() == [("lot", "B3"), ("player", 0), ("amount", 4)] and sold == Sold("B3", 0, 4)
    assert repr(sold) == "Sold(lot='B3', player=0, amount=4)" and isinstance(sold, E.Event)
    with pytest.raises(ValueError, match="_keys"):
        class Bare(E.Event):
            kind = "bare_no_keys"

            def __init__(self, player: int) -> None:
                self.player = player

        E.register(Bare)
    assert "bare_no_keys" not in E.EVENTS


def test_a_kind_is_registered_once() -> None:
    with pytest.raises(ValueError, match="taken"):
        @E.register
        @attrs.define(slots=True, weakref_slot=False)
        class Again(E.Event):
            kind = "paid"
    assert E.EVENTS["paid"] is E.Paid


def _told_from_bosses(s, before: tuple, after: tuple) -> list:
    """The merges and boss changes from the bosses by mask of each block before and after (``boss_blocks``), worked
    out as the engine did before it compared its blocks' casinos (``Engine._tell`` on ``pair_blocks``): a reference."""
    board, out = s.board, []
    for was, now in zip(before, after):
        for mask, b in now.items():
            if was.get(mask, -1) == b:
                continue
            prior, rest = [], mask
            while rest:
                low = rest & -rest
                rest ^= low
                for old in was:
                    if old & low:
                        prior.append(old)
                        rest &= ~old
                        break
            if not prior:
                continue
            lots = board.lots_of(mask)
            if len(prior) >= 2:
                i = (mask & -mask).bit_length() - 1
                out.append(E.Merged(list(lots), s.tile_colors[i], s.tile_heights[i]))
            main = max(prior, key=lambda m: (m.bit_count(), -prior.index(m)))
            if was[main] != b:
                out.append(E.BossChanged(list(lots), was[main], b))
    return out


@pytest.mark.parametrize("spec,seed", [("revised", 3), ("original", 4), ("revised,casino.join_rule=color", 5)])
def test_merges_and_boss_changes_are_those_of_the_bosses_by_mask_before_and_after(spec: str, seed: int) -> None:
    """``Engine.apply`` and the draw tell the merges and boss changes from the blocks' casinos with their dice facts
    (``CasinoIndex.pair_blocks``, no bosses by mask made): in random games (a "color" join mixing heights among
    them), each decision (but a tie's) tells exactly those a comparison of the bosses by mask before and after finds,
    in that order. Planted and caught: a casino on the same lots taken as unchanged whatever its boss."""
    import random

    import lv
    from lv.actions import EndTurn
    from lv.events import BossChanged, Merged, TieRerolled

    game = lv.new_game(spec, 4, seed)
    rng = random.Random(seed)
    join_rule = game.profile.casino.join_rule
    told = 0
    for _ in range(400):
        if game.over:
            break
        s = game.state
        before = s.casino_index(join_rule).boss_blocks()
        action = game.random_legal(rng)
        events = game.apply(action)
        if any(isinstance(e, TieRerolled) for e in events):
            continue  # (the bosses between the tie and its reroll are not compared)
        if isinstance(action, EndTurn):  # the draw: bosses from the take-over's card on (after the turn's start)
            continue
        after = s.casino_index(join_rule).boss_blocks()
        got = [e for e in events if isinstance(e, (Merged, BossChanged))]
        assert got == _told_from_bosses(s, before, after), (spec, action)
        told += len(got)
    assert told >= 5, told  # the games told some (the test reads something)


def _lots_events() -> list[type[E.Event]]:
    """The event classes with ``lots`` (the core's and the families')."""
    return [cls for cls in E.EVENTS.values() if "lots" in cls._keys]


def test_lots_read_as_a_new_list_each_time_and_the_event_keeps_a_tuple() -> None:
    """An event's ``lots`` (lv/events.py's docstring): a list at each read, equal to the lots given whatever sequence
    they came as, a new one each time (changing it changes no event); the event keeps them as a tuple, the very one
    it was given if it was given one (the engine hands it the casino's own). The dice of a gamble, the same."""
    kinds = _lots_events()
    assert {cls.kind for cls in kinds} >= {"dealt", "paid", "scored", "tie_rerolled", "merged", "boss_changed",
                                           "raised", "remodeled", "reorganized"}
    given = ("C4", "C5")
    for lots in (["C4", "C5"], given):
        ev = E.Paid(1, 6, "casino", lots)
        first, second = ev.lots, ev.lots
        assert type(first) is list and first == ["C4", "C5"] and first is not second
        first.append("C6")
        assert ev.lots == ["C4", "C5"] and ev == E.Paid(1, 6, "casino", ["C4", "C5"])
        assert type(ev._lots) is tuple
        assert ev.to_dict() == {"kind": "paid", "player": 1, "amount": 6, "why": "casino", "lots": ["C4", "C5"]}
        assert repr(ev) == "Paid(player=1, amount=6, why='casino', lots=['C4', 'C5'])"
        assert pickle.loads(pickle.dumps(ev)) == ev and copy.deepcopy(ev).lots == ["C4", "C5"]
    assert E.Paid(1, 6, "casino", given)._lots is given
    gambled = Gambled(0, "B3", 1, 4, (1, 2), 3, "win", False, 4, -4)
    assert type(gambled.dice) is list and gambled.dice == [1, 2] and gambled.dice is not gambled.dice
    assert gambled == Gambled(0, "B3", 1, 4, [1, 2], 3, "win", False, 4, -4)
    assert gambled.to_dict()["dice"] == [1, 2]


@pytest.mark.parametrize("spec,seed", [("revised", 11), ("original", 12)])
def test_a_played_games_events_keep_no_list_of_lots(spec: str, seed: int) -> None:
    """Over a played game (every kind of decision, payouts, merges, a dealt hand), every event with lots keeps them as
    a tuple of strings, which the cyclic collector leaves untracked once it has seen it (a list it walks at every
    pass, as long as the game is kept); a gamble's dice too. Each reads as the list of the lots it names."""
    import gc
    import random

    import lv

    game = lv.new_game(spec, 4, seed)
    rng = random.Random(seed)
    while not game.over:
        game.apply(game.random_legal(rng))
    events = list(game.events())
    with_lots = [ev for ev in events if isinstance(ev, E.LotsEvent)]
    assert {type(ev).kind for ev in with_lots} >= {"dealt", "paid", "scored"}
    gc.collect()
    for ev in with_lots:
        kept = ev._lots
        assert type(kept) is tuple and all(type(lot) is str for lot in kept), ev
        assert not gc.is_tracked(kept), ev
        assert ev.lots == list(kept) and type(ev.lots) is list
    for ev in events:
        if isinstance(ev, Gambled):
            assert type(ev._dice) is tuple and not gc.is_tracked(ev._dice)
