"""``Game.push`` / ``Game.pop`` / ``Game.copy`` (issue 20, point 9): python-chess's names for trying a decision and
taking it back, and for an independent game in the same position. A game pushed and popped is the game it was,
byte for byte in its record; a copy plays on without touching the original."""

from __future__ import annotations

import random

import pytest

import lv
from lv import record
from lv.errors import IllegalAction


def _text(game: lv.Game) -> str:
    """The game's whole record: state, history, dice and events all show in it."""
    return record.dumps(record.record_of(game, game.profile.name), "yaml")


def _fingerprint(game: lv.Game) -> tuple:
    s = game.state
    return (_text(game), s.turn, s.current, s.phase, [(p.money, p.score) for p in s.players],
            [str(a) for a in game.legal_actions()], len(game.history), len(game.current_turn.decisions))


def test_push_then_pop_gives_back_the_game_byte_for_byte():
    game = lv.new_game("revised", 3, seed=7)
    rng = random.Random(1)
    for _ in range(40):  # into the game, across several turns
        game.apply(rng.choice(game.legal_actions()))
    before = _fingerprint(game)
    pushed = []
    for _ in range(25):  # builds, gambles, ends of turn (each with the next player's draw)
        action = rng.choice(game.legal_actions())
        game.push(action)
        pushed.append(action)
    assert game.pushed == pushed
    assert game.state.turn > before[1]
    for action in reversed(pushed):
        assert game.pop() is action
    assert _fingerprint(game) == before
    assert game.pushed == []


def test_a_popped_game_plays_on_as_if_nothing_was_tried():
    tried, plain = lv.new_game("original", 4, seed=3), lv.new_game("original", 4, seed=3)
    rng_a, rng_b = random.Random(5), random.Random(5)
    for _ in range(30):
        for _ in range(3):  # look ahead three decisions, then take them back
            tried.push(tried.legal_actions()[0])
        for _ in range(3):
            tried.pop()
        tried.apply(rng_a.choice(tried.legal_actions()))
        plain.apply(rng_b.choice(plain.legal_actions()))
    assert _text(tried) == _text(plain)


def test_a_refused_push_leaves_nothing_to_pop():
    game = lv.new_game("revised", 2, seed=2)
    before = _fingerprint(game)
    mine = game.state.markers_on_board(game.state.current)
    theirs = next(lot for lot in game.board.order if lot not in mine and game.casino_at(lot) is None)
    with pytest.raises(IllegalAction):
        game.push(lv.parse_action(f"build {theirs} gold", game.player_names))
    assert game.pushed == [] and _fingerprint(game) == before
    with pytest.raises(IndexError, match="no decision was pushed"):
        game.pop()


def test_a_copy_is_independent():
    game = lv.new_game("revised", 4, seed=11)
    rng = random.Random(2)
    for _ in range(20):
        game.apply(rng.choice(game.legal_actions()))
    game.push(game.legal_actions()[0])
    twin = game.copy()
    assert _text(twin) == _text(game) and twin.pushed == game.pushed
    original = _fingerprint(game)
    for _ in range(30):
        twin.apply(rng.choice(twin.legal_actions()))
    assert _fingerprint(game) == original
    twin.pop()  # the copy takes back its push (and the 30 decisions since) without touching the original's
    assert _fingerprint(game) == original and game.pushed != []
    game.pop()
    assert _fingerprint(twin) == _fingerprint(game)


def test_a_copy_plays_the_same_game_as_the_original():
    game = lv.new_game("original+f-block", 2, seed=4)
    twin = game.copy()
    rng_a, rng_b = random.Random(9), random.Random(9)
    while not game.over:
        game.apply(rng_a.choice(game.legal_actions()))
        twin.apply(rng_b.choice(twin.legal_actions()))
    assert twin.over and _text(twin) == _text(game)


@pytest.mark.parametrize("given", [{"choices": 5}, {"dice": [3, 5]}, {"next_draw_dice": "4,2"},
                                   {"next_draw_choices": ["B3"]}])
def test_dice_or_choices_that_are_no_dict_are_a_type_error_and_change_nothing(given):
    """Game.apply's dice and choices are dicts keyed by meaning: anything else is a TypeError naming the argument
    (it was an AttributeError from deep inside the pure build; the compiled build's own check at the call says
    "dict or None object expected"), and the game is as it was."""
    game = lv.new_game("revised", 3, seed=7)
    before = _fingerprint(game)
    decision = game.legal_actions()[0]
    said = "dict or None object expected" if lv.build_name() == "compiled" else f"{next(iter(given))} must be a dict"
    for call in (game.push, game.apply):
        with pytest.raises(TypeError, match=said):
            call(decision, **given)
    assert _fingerprint(game) == before and game.pushed == []


@pytest.mark.skipif(lv.build_name() == "compiled", reason="the compiled core reads check_action natively: not patched")
def test_a_push_checks_its_decision_once(monkeypatch):
    """Guards push's one check of the decision's types (``check_action``: Python code in both builds, about 3,700
    instructions compiled): the ``apply`` it calls does not check the same object again; any other decision
    given to ``apply`` still is."""
    import lv.game as game_module

    calls = []
    real = game_module.check_action

    def counted(call, action):
        calls.append(call)
        return real(call, action)

    monkeypatch.setattr(game_module, "check_action", counted)
    game = lv.new_game("revised", 3, seed=7)
    legal = game.legal_actions()
    game.push(legal[0])
    assert calls == ["push"]
    game.pop()
    game.apply(legal[0])
    assert calls == ["push", "apply"]
