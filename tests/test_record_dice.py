"""The dice a record keeps: every roll of every step of a decision, in order, so that every game lv writes replays
to the same state and verifies (issue 17.2). A trade may reorganize several casinos and, where ``gamble.per_turn``
allows, gamble more than once; a decision's tie rerolls are kept per tile in order.

``LV_RECORD_EXAMPLES`` sets how many random games the property plays (default 12, a few seconds; try 300).
"""

from __future__ import annotations

import os
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lv
from lv import EndTurn
from lv.actions import ActAs, Gamble, Reorganize, Trade
from lv.chance import gambles, unused_dice
from lv.errors import RecordError
from lv.record import dumps, parse_record, record_of
from lv.replay import check_file, replay

from conftest import random_trade

POS = dict(current="red", phase="actions", players={"red": {"money": 60}, "blue": {"money": 60}},
           tiles={"A2": "gold red 3", "A3": "gold blue 4", "D1": "silver red 2", "D2": "silver blue 5",
                  "B3": "brown blue 6", "B4": "brown red 1"})


def state_of(game):
    s = game.state
    return ([(p.name, p.money, p.score) for p in s.players], dict(s.markers),
            {lot: (t.color, t.height, t.owner, t.value) for lot, t in s.tiles.items()}, list(s.deck), list(s.discards),
            s.turn, s.phase, s.current, game.result)


def at_position(spec="revised", seed=3):
    return lv.Game.from_position(lv.load_profile(spec), ["red", "blue"], POS, seed)


def written(game, spec=None, position=None):
    return dumps(record_of(game, spec, position=position))


def replays_the_same(game, text):
    rep = replay(parse_record(text, "<game>"))
    assert state_of(rep.game) == state_of(game)
    assert [[d.dice for d in t.decisions] for t in rep.game.history] == \
        [[d.dice for d in t.decisions] for t in game.history]
    assert rep.verified is not False and rep.illegal == [] and rep.generated == [] or not rep.strict
    return rep


def test_a_trade_with_two_reorganizations_keeps_the_dice_of_both():
    game = at_position()
    game.apply(lv.parse_action("trade reorg A2; reorg D1", game.player_names),
               dice={"reorg": {"A2": 6, "A3": 5, "D1": 4, "D2": 3}})
    assert game.current_turn.decisions[-1].dice == {"reorg": {"A2": 6, "A3": 5, "D1": 4, "D2": 3}}
    text = written(game, position=POS)
    assert "dice: {reorg: {A2: 6, A3: 5, D1: 4, D2: 3}}" in text
    rep = replays_the_same(game, text)
    assert rep.strict and rep.generated == []
    assert written(rep.game, position=POS) == text


def test_the_correct_record_of_two_reorganizations_checks(tmp_path):
    """`lv check` refused it ("does not roll the recorded dice reorg A2, reorg A3") when the first step's dice
    were forgotten."""
    game = at_position()
    game.apply(lv.parse_action("trade reorg A2; reorg D1", game.player_names))
    path = tmp_path / "g.yaml"
    path.write_text(written(game, position=POS))
    assert check_file(str(path)).ok, check_file(str(path)).message


def test_two_gambles_in_one_trade_keep_both_pairs_in_order():
    spec = "revised,gamble.per_turn=2"
    game = at_position(spec)
    game.apply(lv.parse_action("trade gamble A2 3; gamble D1 2", game.player_names),
               dice={"gamble": [[6, 6], [1, 1]]})
    d = game.current_turn.decisions[-1]
    assert d.dice == {"gamble": [[6, 6], [1, 1]]}
    assert [e.dice for e in d.events if e.kind == "gambled"] == [[6, 6], [1, 1]]
    text = written(game, spec, position=POS)
    assert "dice: {gamble: [[6, 6], [1, 1]]}" in text
    replays_the_same(game, text)


def test_one_gamble_is_still_written_and_read_as_one_pair():
    """Old records (and every record with one gamble in a decision) keep ``gamble: [a, b]``."""
    game = at_position()
    game.apply(lv.parse_action("gamble A3 2", game.player_names), dice={"gamble": [2, 5]})
    assert game.current_turn.decisions[-1].dice == {"gamble": [2, 5]}
    text = written(game, position=POS)
    assert "dice: {gamble: [2, 5]}" in text
    replays_the_same(game, text)


def test_a_recorded_pair_the_decision_does_not_roll_is_refused():
    game = at_position("revised,gamble.per_turn=2")
    game.apply(lv.parse_action("trade gamble A2 3; gamble D1 2", game.player_names), dice={"gamble": [[6, 6], [1, 1]]})
    text = written(game, "revised,gamble.per_turn=2", position=POS).replace("[[6, 6], [1, 1]]",
                                                                            "[[6, 6], [1, 1], [2, 2]]")
    with pytest.raises(RecordError, match=r"does not roll the recorded dice gamble 3$"):
        replay(parse_record(text))


def test_a_malformed_second_pair_is_named():
    game = at_position("revised,gamble.per_turn=2")
    with pytest.raises(RecordError, match=r"gamble dice \[1\]: give two die faces"):
        game.apply(lv.parse_action("trade gamble A2 3; gamble D1 2", game.player_names), dice={"gamble": [[6, 6], [1]]})


@pytest.mark.parametrize("value,pairs", [(None, []), ([3, 4], [[3, 4]]), ([[3, 4]], [[3, 4]]),
                                         ([[3, 4], [5, 6]], [[3, 4], [5, 6]]), ([], [[]]), (7, [7])])
def test_gamble_dice_read_as_pairs(value, pairs):
    assert gambles(value) == pairs


def test_unused_dice_names_each_pair_lot_and_tie():
    recorded = {"gamble": [[1, 2], [3, 4]], "reorg": {"A2": 1, "A3": 2}, "ties": {"B1": [1, 2], "B2": [3]}}
    assert unused_dice(recorded, {}) == ["gamble", "gamble 2", "reorg A2", "reorg A3", "ties B1", "ties B2"]
    assert unused_dice(recorded, {"gamble": [1, 2], "reorg": {"A2": 1}, "ties": {"B1": [1]}}) == \
        ["gamble 2", "reorg A3", "ties B1", "ties B2"]
    assert unused_dice(recorded, recorded) == []


# ---------------------------------------------------------------------------------------------- the property

SPECS = ["revised", "original", "revised,gamble.per_turn=3", "original+f-block,gamble.per_turn=2"]
EXAMPLES = int(os.environ.get("LV_RECORD_EXAMPLES", "12"))


def table_dice(rng: random.Random, game) -> dict:
    """Dice as a table would give them, for any decision: a die for every lot, several gambles, tie rerolls."""
    out: dict = {}
    if rng.random() < 0.7:
        out["reorg"] = {lot: rng.randint(1, 6) for lot in game.board.order}
    if rng.random() < 0.7:
        pairs = [[rng.randint(1, 6), rng.randint(1, 6)] for _ in range(rng.randint(1, 3))]
        out["gamble"] = pairs[0] if len(pairs) == 1 and rng.random() < 0.5 else pairs
    if rng.random() < 0.5:
        out["ties"] = {lot: [rng.randint(1, 6) for _ in range(rng.randint(1, 3))] for lot in game.board.order}
    return out


def rolling_trade(game, rng: random.Random) -> Trade:
    """Several rolling steps at once: reorganizations and gambles the current player may make now (some fail
    once an earlier step has changed the board), mixed with random transfers."""
    legal = [a for a in game.legal_actions() if isinstance(a, (Reorganize, Gamble))]
    steps = list(rng.sample(legal, min(len(legal), rng.randint(1, 4))))
    steps = [Gamble(a.lot, rng.randint(1, a.bet)) if isinstance(a, Gamble) else a for a in steps]
    steps = [ActAs(game.state.current, a) if rng.random() < 0.2 else a for a in steps]
    steps += list(random_trade(game, rng, lambda g, r: r.choice(g.legal_actions())).steps)
    rng.shuffle(steps)
    return Trade(tuple(steps))


def play(spec: str, players: int, seed: int, explicit: bool, turns: int):
    game = lv.new_game(spec, players, seed=seed, draw_first=not explicit)
    rng = random.Random(seed)
    while not game.over and game.state.turn <= turns:
        if game.state.phase == "draw":
            game.apply(lv.actions.Draw(), dice=table_dice(rng, game) if rng.random() < 0.5 else None)
            continue
        r = rng.random()
        if r < 0.25:
            action = rolling_trade(game, rng)
        elif r < 0.32:
            action = random_trade(game, rng, lambda g, r: r.choice(g.legal_actions()), overdraw=5)
        else:
            action = rng.choice(game.legal_actions())
            if isinstance(action, Gamble):
                action = Gamble(action.lot, rng.randint(1, action.bet))
        dice = table_dice(rng, game) if rng.random() < 0.6 else None
        try:
            if isinstance(action, EndTurn):
                game.apply(action, next_draw_dice=dice, draw=not explicit)
            else:
                game.apply(action, dice=dice)
        except lv.IllegalAction:
            pass
    return game


@pytest.mark.slow
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(spec=st.sampled_from(SPECS), players=st.integers(2, 4), seed=st.integers(0, 2**31),
       explicit=st.booleans(), turns=st.sampled_from([6, 20, 200]))
def test_every_game_lv_writes_replays_to_the_same_state_and_verifies(spec, players, seed, explicit, turns):
    game = play(spec, players, seed, explicit, turns)
    for fmt in ("yaml", "json"):
        text = dumps(record_of(game, spec), fmt)
        rep = replay(parse_record(text, f"<{fmt}>"))
        assert rep.strict and rep.illegal == [] and rep.card_mismatches == [] and rep.generated == []
        assert rep.verified is (True if game.over else None)
        assert state_of(rep.game) == state_of(game)
        assert dumps(record_of(rep.game, spec), fmt) == text
        with tempfile.TemporaryDirectory() as folder:  # lv check's API, on the file as written
            path = Path(folder) / f"g.{fmt}"
            path.write_text(text, encoding="utf-8")
            check = check_file(str(path))
            assert check.ok, check.message
            assert check.verified is (True if game.over else None)


# ---------------------------------------------------------------------------------------------- at a table


def table_session(spec="revised"):
    from lv import session
    from lv.game import Game

    g = Game.from_position(lv.load_profile(spec), ["red", "blue"], POS, 4, table=True, draw_first=False)
    g.ask = True
    return g, session.Session(game=g, spec=spec, position=POS)


def test_at_a_table_each_reorganization_of_a_trade_takes_its_faces_in_order():
    """lv rolls no die at a table: the second casino's dice come from the table too, after the first's."""
    g, s = table_session()
    s.play("trade reorg A2; reorg D1", dice=[6, 5, 4, 3])
    d = g.current_turn.decisions[-1]
    assert d.dice == {"reorg": {"A2": 6, "A3": 5, "D1": 4, "D2": 3}} and d.generated == []
    text = s.text()
    rep = replay(parse_record(text, "t.yaml"))
    assert rep.strict and rep.generated == [] and state_of(rep.game) == state_of(g)


def test_at_a_table_two_gambles_take_a_pair_each():
    g, s = table_session("revised,gamble.per_turn=2")
    s.play("trade gamble A2 3; gamble D1 2", dice=[6, 6, 1, 1])
    assert g.current_turn.decisions[-1].dice == {"gamble": [[6, 6], [1, 1]]}
    assert [e.dice for e in g.current_turn.decisions[-1].events if e.kind == "gambled"] == [[6, 6], [1, 1]]


def test_at_a_table_too_few_faces_for_the_second_step_are_refused():
    from lv import session

    g, s = table_session()
    with pytest.raises(session.MoveError, match=r"reorganizing rerolls 2 dice \(D1, D2, in that order\), 0 given"):
        s.play("trade reorg A2; reorg D1", dice=[6, 5])
    assert g.current_turn.decisions == []


def test_at_a_table_a_step_that_fails_takes_no_faces_after_it():
    """trade.failed_step: stop_rest: after the money red does not have, the second reorganization never happens."""
    g, s = table_session()
    s.play("trade reorg A2; money 100 from red to blue; reorg D1", dice=[6, 5])
    d = g.current_turn.decisions[-1]
    assert d.dice == {"reorg": {"A2": 6, "A3": 5}} and [e.kind for e in d.events][-1] == "trade_step_failed"


# ---------------------------------------------------------------------------------------------- sound dice, no copy
DIE = st.one_of(st.integers(0, 7), st.booleans(), st.none(), st.text(max_size=1))
DIE_LISTS = st.lists(DIE, max_size=3) | st.tuples(DIE, DIE) | DIE
LOTS = st.sampled_from(["A2", "A3", "D1"])
RECORDED = st.fixed_dictionaries({}, optional={
    "gamble": DIE_LISTS | st.lists(st.lists(DIE, max_size=3), max_size=3),
    "reorg": st.dictionaries(LOTS, DIE, max_size=3) | DIE_LISTS,
    "ties": st.dictionaries(LOTS, DIE_LISTS, max_size=3) | DIE_LISTS})


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(recorded=RECORDED)
def test_dice_game_apply_calls_sound_are_read_without_an_error(recorded):
    """``Game.apply`` keeps no copy of the state for recorded dice ``_sound`` passes: ``Dice`` must read every one of
    them without a RecordError (each gamble pair, each reorganized die, each tie reroll)."""
    from lv.chance import Dice
    from lv.game import _sound

    if not _sound(recorded):
        return
    dice = Dice(0, ("test",), recorded)
    for _ in gambles(recorded.get("gamble")):
        dice.gamble()
    dice.reorg({0: list(recorded.get("reorg") or {})})
    for lot, values in (recorded.get("ties") or {}).items():
        for _ in values:
            dice.tie([lot])
