"""What a game keeps per decision and per turn, kept compactly (round 18, branch game18; issue 31 item 2).

Most decisions cause one event and most turns draw one card: a game keeps that event and that card without a list
(``Decision._one``, ``Turn._card``), so a finished game holds far fewer containers for the cyclic collector to walk
and for its end to free. ``Decision.events`` and ``Turn.cards`` still read as lists (made when first read, then
kept: changed, they keep the change, as fields did), equal to what ``apply`` returned and the draw drew; copies,
push and pop, ``Game.events()`` and a replay's snapshots see the same events and cards either way.
"""

from __future__ import annotations

import random
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

import lv
from lv import bots, record
from lv.chance import Dice, generated_of
from lv.events import Event, TurnEnded
from lv.game import Decision, Turn, _decided
from lv.record import parse_record
from lv.replay import replay

ROOT = Path(__file__).resolve().parent.parent


def _played(seed: int = 11) -> lv.Game:
    game = lv.new_game("revised", 4, seed)
    return bots.play(game, [bots.uniform_bot] * 4, seed)


def test_a_played_game_keeps_one_event_and_one_card_without_a_list() -> None:
    game = _played()
    decisions = [d for t in game.history for d in t.decisions]
    ones = [d for d in decisions if d._events is None]
    assert ones and all(d._one is not None for d in ones)  # every decision caused an event: the one kept alone
    assert all(d._one is None and len(d._events) > 1 for d in decisions if d._events is not None)
    assert len(ones) > len(decisions) // 2
    drew = [t for t in game.history if t._cards is None]
    assert drew and all(t._card is not None for t in drew)
    everything = game.events()  # read without making any list
    assert all(d._events is None for d in ones) and all(t._cards is None for t in drew)
    # then read as lists: the events in order, the same as ``events()`` gave
    flat = list(game.setup_events)
    for t in game.history:
        flat += t.draw_events
        for d in t.decisions:
            flat += d.events
    assert flat == everything
    assert all(len(d.events) == 1 and d._one is None for d in ones)
    assert all(len(t.cards) == 1 and t._card is None for t in drew)


def test_the_events_kept_are_those_apply_returned_and_the_cards_those_drawn() -> None:
    game = lv.new_game("revised", 3, 5)
    rng = random.Random(2)
    returned: list[list[Event]] = []
    drawn: list[list[str]] = [list(game.state.drawn)]
    while not game.over and len(returned) < 150:
        action = game.random_legal(rng)
        assert action is not None
        events = game.apply(action)
        if isinstance(action, lv.actions.EndTurn):
            assert isinstance(events[0], TurnEnded)
            returned.append(events[:1])  # the end's own; the rest is the next turn's draw
            assert events[1:] == game.current_turn.draw_events
            drawn.append(list(game.state.drawn))
        else:
            returned.append(list(events))
    kept = [d.events for t in game.history for d in t.decisions]
    assert kept == returned
    assert [t.cards for t in game.history] == drawn


def test_events_and_cards_read_and_changed_keep_the_change() -> None:
    game = _played(4)
    turn = next(t for t in game.history if t._cards is None and t._card is not None)
    d = next(d for t in game.history for d in t.decisions if d._events is None)
    one, card = d._one, turn._card
    d.events.append(TurnEnded(0))
    turn.cards.append("A1")
    assert d.events == [one, TurnEnded(0)] and turn.cards == [card, "A1"]
    d.events = []
    turn.cards = ["B2"]
    assert d.events == [] and turn.cards == ["B2"] and d._one is None and turn._card is None
    fresh, bare = Decision("x"), Turn(1, 0)
    assert fresh.events == [] and bare.cards == [] and Turn(1, 0, ["C3"]).cards == ["C3"]


def test_a_decision_kept_compactly_equals_its_plain_form_and_copies_share_nothing() -> None:
    event = TurnEnded(2)
    none = Dice(0, ("x",))
    compact, plain = _decided("end", none, None, [event]), Decision("end", events=[event])
    assert compact._events is None and compact == plain and repr(compact) == repr(plain)
    several: list[Event] = [TurnEnded(1), TurnEnded(2)]
    assert _decided("x", none, None, several)._events is several  # more than one: the list itself
    assert _decided("x", none, None, [])._events == []
    twin = compact.copy()
    assert twin._one is event and twin == plain
    twin.events.append(TurnEnded(3))
    assert compact.events == [event]
    turn = Turn(2, 1, None, decisions=[_decided("end", none, None, [event])])
    turn._card = "D4"
    copied = turn.copy()
    assert copied._card == "D4" and copied == turn and copied.cards == ["D4"]
    copied.cards.append("E5")
    assert turn.cards == ["D4"]
    saved = turn.copy()
    turn.cards = ["F1", "F2"]
    turn.restore(saved)
    assert turn.cards == ["D4"] and turn == saved


def test_push_and_pop_and_a_copy_give_back_the_cards_and_events_kept_compactly() -> None:
    game = lv.new_game("revised", 4, 9)
    rng = random.Random(3)
    for _ in range(30):
        game.apply(game.random_legal(rng))
    kept = [(t._drawn(), [d._listed() for d in t.decisions]) for t in game.history]  # (no list made)
    twin = game.copy()
    for _ in range(12):  # past ends of turns: new turns drawn, then taken back
        game.push(game.random_legal(rng))
    copied = game.copy()
    for t in game.history:  # read meanwhile: their lists made (a pop gives back the turns as they were kept)
        t.cards, [d.events for d in t.decisions]
    for _ in range(12):
        game.pop()
    assert [(tuple(t.cards), [d.events for d in t.decisions]) for t in game.history] == kept
    before = record.dumps(record.record_of(twin, twin.profile.name), "yaml")
    assert record.dumps(record.record_of(game, game.profile.name), "yaml") == before
    for _ in range(12):
        copied.pop()
    assert record.dumps(record.record_of(copied, copied.profile.name), "yaml") == before


def test_a_replay_reads_the_cards_and_dice_generated_without_making_lists() -> None:
    text = (ROOT / "examples" / "revised-4p.yaml").read_text(encoding="utf-8")
    rep = replay(parse_record(text, "revised-4p.yaml"))
    history = rep.game.history
    assert [snap.cards for snap in rep.snapshots] == [tuple(play.turn.cards) for play in rep.turns]
    assert any(len(snap.cards) == 1 for snap in rep.snapshots)
    fresh = replay(parse_record(text, "revised-4p.yaml")).game.history
    assert all(t._draw_generated is None for t in fresh)
    assert sum(t._cards is None and t._card is not None for t in fresh) == sum(len(t.cards) == 1 for t in history)
    assert all(d._generated is None or d._generated for t in fresh for d in t.decisions)


def test_a_played_games_gambles_keep_their_dice_and_what_was_generated_as_numbers() -> None:
    game = _played(6)
    gambles = [(t, i, d) for t in game.history for i, d in enumerate(t.decisions)
               if isinstance(d.action, lv.actions.Gamble)]
    assert gambles
    others = [d for t in game.history for d in t.decisions if not isinstance(d.action, lv.actions.Gamble)]
    assert all(d._pair == 0 for d in others)  # (one Dice a game: nothing of a gamble left to the next decision)
    assert all("gamble" not in d.generated for d in others)
    for t, i, d in gambles:
        assert d._dice is None and d._generated is None and d._pair and d._gen  # no dict, no list
        pair = Dice(game.seed, ("turn", t.number, "decision", i)).gamble()  # the step's own dice, made again
        assert d._noted() == ("gamble",) and d._dice is None
        assert repr(d.dice) == repr({"gamble": list(pair)}) and d.generated == ["gamble"]
        assert d._pair == 0 and d.dice is d.dice  # made once, then kept


_OP = st.sampled_from(["gamble", "reorg", "tie", "read"])


@given(st.lists(_OP, max_size=7), st.sampled_from([None, {"reorg": {"A1": 6}}, {"gamble": [2, 5]},
                                                   {"ties": {"B2": [3]}}]), st.integers(min_value=0, max_value=99))
def test_a_steps_dice_kept_as_numbers_read_as_the_dict_and_list_written_in_order(ops: list[str],
                                                                                  recorded: dict[str, object] | None,
                                                                                  seed: int) -> None:
    """Whatever a step rolls in whatever order (a trade's steps: gambles, reorganizations, tie rounds), and
    whenever its dice are read meanwhile, ``used`` and ``generated`` are the plain dict and list of what was rolled,
    keyed in the order first rolled, and a decision made of the dice (``_decided``) reads the same."""
    dice = Dice(seed, ("turn", 3, "decision", 1), recorded)
    want: dict[str, object] = {}
    made: list[list[int]] = []
    names: list[str] = []
    rec = recorded or {}

    def note(name: str) -> None:
        if name not in names:
            names.append(name)

    for op in ops:
        if op == "gamble":
            pair = list(dice.gamble())
            if len(made) >= (1 if "gamble" in rec else 0):  # past the one pair recorded (if any): generated
                note("gamble")
            made.append(pair)
            want["gamble"] = made[0] if len(made) == 1 else made
        elif op == "reorg":
            out = dice.reorg({0: ["A1", "C3"]})
            note("reorg")  # (C3's die is never recorded: generated)
            reorg = want.setdefault("reorg", {})
            assert isinstance(reorg, dict)
            reorg.update(out)
        elif op == "tie":
            rolled = dice.tie(["B2"])
            ties = want.setdefault("ties", {})
            assert isinstance(ties, dict)
            ties.setdefault("B2", []).append(rolled["B2"])
            if len(ties["B2"]) > (1 if "ties" in rec else 0):  # past the one reroll recorded (if any): generated
                note("ties")
        else:
            assert repr(dice.used) == repr(want) and dice.generated == names
    decision = _decided("x", dice, None, [])
    assert repr(decision.dice) == repr(want) and decision.generated == names
    assert repr(dice.used) == repr(want) and dice.generated == names
    assert repr(decision.copy().dice) == repr(want)


def test_generated_of_reads_the_digits_first_generated_first() -> None:
    dice = Dice(1, ("turn", 1, "decision", 0))
    dice.reorg({0: ["A1"]})
    dice.gamble()
    dice.gamble()
    dice.tie(["B2"])
    dice.reorg({1: ["A2"]})
    assert generated_of(dice._gen) == ["reorg", "gamble", "ties"] == dice.generated
    assert generated_of(0) == []
