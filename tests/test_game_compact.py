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

import lv
from lv import bots, record
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
    compact, plain = _decided("end", None, None, None, [event]), Decision("end", events=[event])
    assert compact._events is None and compact == plain and repr(compact) == repr(plain)
    several: list[Event] = [TurnEnded(1), TurnEnded(2)]
    assert _decided("x", None, None, None, several)._events is several  # more than one: the list itself
    assert _decided("x", None, None, None, [])._events == []
    twin = compact.copy()
    assert twin._one is event and twin == plain
    twin.events.append(TurnEnded(3))
    assert compact.events == [event]
    turn = Turn(2, 1, None, decisions=[_decided("end", None, None, None, [event])])
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
