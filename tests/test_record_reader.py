"""Issue 32: what the record reader accepts (lower case, a tie's reroll as one number, every shorthand of a
decision) reads as the canonical form does, a choice of which die moves is kept and replayed, and every refusal a
strict replay owes is made (an explicit draw naming the wrong card), with the replay JSON naming a take-over's
previous owner and an OpenSpiel-style clone in the middle of a step's dice independent of its original."""

from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest
import yaml

import lv
from lv import actions as A
from lv import record
from lv.actionspace import DIE
from lv.errors import RecordError
from lv.explicit import DICE, ExplicitGame
from lv.replay import replay, replay_dict

ROOT = Path(__file__).resolve().parent.parent


def facts(game: lv.Game) -> tuple:
    s = game.state
    return ([(p.name, p.money, p.score) for p in s.players], dict(s.markers), dict(s.tiles), s.turn, s.current,
            list(s.discards), s.result)


def replayed(data: dict) -> lv.Game:
    return replay(record.parse_record(yaml.safe_dump(data), "g.yaml")).game


def lower(value):
    """Every lot name in a record's data in lower case (keys and values)."""
    if isinstance(value, dict):
        return {lower(k): lower(v) for k, v in value.items()}
    if isinstance(value, list):
        return [lower(v) for v in value]
    if isinstance(value, str) and len(value) <= 3 and value[:1] in "ABCDEF" and value[1:].isdigit():
        return value.lower()
    return value


@pytest.mark.parametrize("name", ["original-4p.yaml", "revised-2p.yaml", "question-tie-reroll.yaml"])
def test_lot_names_in_lower_case_read_as_upper_case(name):
    """The deck, the cards drawn, dice.reorg and dice.ties keys, the decisions' lots, the position's lots."""
    data = yaml.safe_load((ROOT / "examples" / name).read_text())
    low = lower(data)
    text = yaml.safe_dump(low)
    assert "c7:" in text or "deck: [" not in text or "- c" in text  # the change reached the record
    assert facts(replayed(low)) == facts(replayed(data))
    rec = record.parse_record(text, "g.yaml")
    if rec.deck is not None:
        assert rec.deck == data["deck"]
    dice = [t.dice for t in rec.turns if t.dice] + [d.dice for t in rec.turns for d in t.decisions if d.dice]
    assert all(k == k.upper() for m in dice for key in ("reorg", "ties") for k in m.get(key, {}))


def test_a_tie_reroll_given_as_one_number_is_a_list_of_one():
    """``ties: {E1: 2}`` is ``ties: {E1: [2]}``: the question's recorded rerolls make Yellow the boss."""
    data = yaml.safe_load((ROOT / "examples" / "question-tie-reroll.yaml").read_text())
    data["turns"][0]["dice"] = {"ties": {"E1": 2, "E2": 6}}
    rec = record.parse_record(yaml.safe_dump(data), "g.yaml")
    assert rec.turns[0].dice == {"ties": {"E1": [2], "E2": [6]}}
    game = replayed(data)
    assert (game.state.tiles["E1"].value, game.state.tiles["E2"].value) == (2, 6)
    assert {p.name: p.score for p in game.state.players}["yellow"] == 2
    # the numbers matter: 6 and 2 the other way round make Red the boss
    data["turns"][0]["dice"] = {"ties": {"E1": 6, "E2": 2}}
    assert {p.name: p.score for p in replayed(data).state.players}["yellow"] == 0


BASE = ("format: lv-game/1\nprofile: revised\nplayers: [red, blue]\nposition: {current: red}\nturns:\n"
        "- player: red\n  decisions:\n  - ")

SHORTHANDS = [  # (the decision as written, the canonical text)
    ("build A2 gold", "build A2 gold"),
    ("{do: build a2 gold}", "build A2 gold"),
    ("{action: build, lot: a2, color: gold}", "build A2 gold"),
    ("{action: sprawl, lot: A3, from: a2}", "sprawl A3 from A2"),
    ("{action: remodel, lot: A2, color: aqua}", "remodel A2 aqua"),
    ("{action: reorganize, lot: A2}", "reorg A2"),
    ("{action: raise, lot: A2}", "raise A2"),
    ("{action: gamble, lot: B3, bet: 4}", "gamble B3 4"),
    ("{action: gamble, lot: B3, bet: 4, lay_off: true}", "gamble B3 4 layoff"),
    ("gamble B3 4 layoff", "gamble B3 4 layoff"),
    ("{action: draw, cards: [d5, F2]}", "draw D5 F2"),
    ("{action: trade, steps: ['money 7 from red to blue']}", "trade money 7 from red to blue"),
    ("{action: trade, steps: [{do: 'lot a2 from blue to red'}]}", "trade lot A2 from blue to red"),
    ("{action: trade, steps: [{money: 7, from: red, to: blue}]}", "trade money 7 from red to blue"),
    ("{action: trade, steps: [{lot: a2, from: blue, to: red}]}", "trade lot A2 from blue to red"),
    ("{action: trade, steps: [{die: b3, from: blue, to: red}]}", "trade die B3 from blue to red"),
]


@pytest.mark.parametrize("written,canonical", SHORTHANDS)
def test_every_shorthand_reads_as_its_canonical_decision(written, canonical):
    decision = record.parse_record(BASE + written, "x.yaml").turns[0].decisions[0]
    assert decision.text == canonical
    assert decision.action == lv.parse_action(canonical, ["red", "blue"])


def test_a_trade_step_as_another_player_and_the_trade_s_parties():
    text = BASE + "{action: trade, by: [blue, red], steps: [{as: blue, action: build, lot: A2, color: gold}]}"
    action = record.parse_record(text, "x.yaml").turns[0].decisions[0].action
    assert action == A.Trade((A.ActAs(1, A.Build("A2", "gold")),), (1, 0))


# ---------------------------------------------------------------- choices that are not the default

def _out_of_dice() -> tuple[dict, lv.Game]:
    """Red has all 12 dice on the board and builds A2: which die moves is Red's choice (000 L124)."""
    tiles = {f"C{i}": "brown red 1" for i in range(1, 10)}
    tiles.update({"D1": "aqua red 6", "E1": "gold red 5", "E2": "gold blue 4", "E6": "silver red 3"})
    position = {"current": "red", "players": {"red": {"money": 20}}, "markers": {"A2": "red"}, "tiles": tiles,
                "deck": ["F9", "END"]}
    return position, lv.Game.from_position(lv.load_profile("revised"), ["red", "blue"], position)


@pytest.mark.parametrize("lot", ["E1", "D1", "E6", "C5"])
def test_a_record_keeps_which_die_moved_and_its_replay_moves_the_same(lot):
    position, game = _out_of_dice()
    game.apply(A.Build("A2", "purple"), choices={"die_from": lot})
    data = record.record_of(game, "revised", position=position)
    assert data["turns"][0]["decisions"][0]["choices"] == {"die_from": lot}
    again = replayed(data)
    assert facts(again) == facts(game)
    assert (again.state.tiles[lot].owner, again.state.tiles[lot].value) == (None, None)
    # and the choice matters: dropped, the replay is not the game
    del data["turns"][0]["decisions"][0]["choices"]
    try:
        other = replayed(data)
    except RecordError:
        return  # a strict replay asks for the choice: as good
    assert facts(other) != facts(game)


@pytest.mark.parametrize("lot", ["A1", "B1", "B4"])
def test_a_record_keeps_which_marker_moved_at_the_draw_and_its_replay_moves_the_same(lot):
    """Red has all 10 markers on the board and draws D4: which marker moves there is Red's choice (003 L266-269)."""
    lots = ["A1", "A2", "A3", "A4", "A5", "A6", "B1", "B2", "B3", "B4"]
    position = {"current": "red", "phase": "draw", "players": {"red": {"money": 20}},
                "markers": {x: "red" for x in lots}, "deck": ["D4", "END"]}
    game = lv.Game.from_position(lv.load_profile("revised"), ["red", "blue"], position,
                                 draw_choices={"marker_from": lot})
    assert lot not in game.state.markers and game.state.markers["D4"] == 0
    data = record.record_of(game, "revised", position=position)
    assert data["turns"][0]["choices"] == {"marker_from": lot}
    data["turns"][0]["choices"] = {"marker_from": lot.lower()}  # read in lower case too
    again = replayed(data)
    assert facts(again) == facts(game)
    del data["turns"][0]["choices"]
    try:
        other = replayed(data)
    except RecordError:
        return
    assert facts(other) != facts(game)


SHORT = "revised,components.dice_per_player=2,components.markers_per_player=2"  # pieces run out every few turns


def play_choosing(seed: int, players: int = 3, turns: int = 40) -> lv.Game:
    """A random game whose players, when a piece must move, choose which at random (any die or marker of theirs,
    on every build, sprawl and draw: the default one only by chance); explicit draws, so the draw's choice is its
    own decision's."""
    game = lv.new_game(SHORT, players, seed=seed, draw_first=False)
    rng = random.Random(seed)
    while not game.over and game.state.turn <= turns:
        s = game.state
        choices = {}
        dice = [lot for lot, t in s.tiles.items() if t.owner == s.current]
        markers = [lot for lot, owner in s.markers.items() if owner == s.current]
        if dice:
            choices["die_from"] = rng.choice(dice)
        if markers:
            choices["marker_from"] = rng.choice(markers)
        action = A.Draw() if s.phase == "draw" else rng.choice(game.legal_actions())
        if isinstance(action, A.EndTurn):
            game.apply(action, draw=False)
            continue
        try:
            game.apply(action, choices=choices)
        except lv.IllegalAction:  # a choice naming a piece that may not move there: the decision without it
            game.apply(action)
    return game


def _without_choices(value):
    if isinstance(value, dict):
        return {k: _without_choices(v) for k, v in value.items() if k != "choices"}
    if isinstance(value, list):
        return [_without_choices(v) for v in value]
    return value


@pytest.mark.parametrize("seed", range(4))
def test_the_record_property_with_choices_of_which_piece_moves(seed):
    """The record of a game with chosen pieces replays strictly to the same state and the same text; without its
    choices it does not (the choices are not the defaults)."""
    game = play_choosing(seed)
    data = record.record_of(game, SHORT)
    text = record.dumps(data)
    assert "die_from" in text and "marker_from" in text
    rep = replay(record.parse_record(text, "g.yaml"))
    assert rep.strict and rep.generated == [] and rep.illegal == []
    assert facts(rep.game) == facts(game)
    assert record.dumps(record.record_of(rep.game, SHORT)) == text
    try:
        other = replayed(_without_choices(data))
    except RecordError:
        return
    assert facts(other) != facts(game)


# ---------------------------------------------------------------- what a strict replay must refuse

def _explicit_draws() -> dict:
    game = lv.new_game("original", 2, seed=3, draw_first=False)
    rng = random.Random(1)
    for _ in range(12):
        game.apply(game.random_legal(rng))
    return record.record_of(game, "original")


def test_an_explicit_draw_naming_the_wrong_card_is_refused():
    data = _explicit_draws()
    assert data["draws"] == "explicit"
    replayed(data)  # as written: verified
    turn = data["turns"][1]
    drawn = turn["decisions"][0]
    assert drawn["action"] == "draw"
    other = next(c for c in data["deck"] if c not in drawn["cards"])
    drawn["cards"] = [other]
    with pytest.raises(RecordError, match=r"turn 2"):
        replayed(data)


def test_the_replay_json_names_the_previous_owner_of_a_die_taken_over():
    """The question's Yellow draws E2 and takes over Red's 5 there (000 L71 / 003 L300-304)."""
    rep = replay(record.load_record(ROOT / "examples" / "question-tie-reroll.yaml"))
    events = replay_dict(rep)["turns"][0]["events"]
    taken = [e for e in events if e["kind"] == "die_taken_over"]
    assert taken == [{"kind": "die_taken_over", "player": "yellow", "lot": "E2", "value": 5, "previous": "red",
                      "moved_from": None}]


def test_a_clone_in_the_middle_of_a_step_s_dice_goes_its_own_way():
    """A reorganize of three dice after one die: the clone and the original take different dice; neither sees the
    other's, and the record waits for the step to end."""
    eg = ExplicitGame("revised", 2)
    for card in ("C5", "D4", "C6", "E1"):
        eg.apply(eg.board.order.index(card))
    for face in (6, 6, 1, 1):
        eg.apply(DIE + face - 1)
    eg.apply(eg.board.order.index("C4"))  # the draw
    eg.game = lv.Game.from_position(eg.profile, eg.names, {
        "current": eg.names[0], "players": {eg.names[0]: {"money": 40}},
        "tiles": {"C4": f"gold {eg.names[0]} 1", "C5": f"gold {eg.names[0]} 2", "C6": f"gold {eg.names[0]} 3"}},
        table=True)
    eg.apply(673 + eg.board.order.index("C4"))
    eg.apply(DIE + 4)
    assert eg.node == DICE and eg.faces == [5]
    with pytest.raises(lv.LvError, match="under way"):
        eg.to_record()
    twin = copy.deepcopy(eg)
    twin.apply(DIE + 0)
    assert eg.faces == [5] and twin.faces == [5, 1]
    for a, b in ((eg, 1), (eg, 2), (twin, 0)):
        a.apply(DIE + b)
    assert sorted(t.value for t in eg.game.state.tiles.values()) == [2, 3, 5]
    assert sorted(t.value for t in twin.game.state.tiles.values()) == [1, 1, 5]
    assert eg.log[:-2] == twin.log[:-2] and eg.log[-2:] != twin.log[-2:]


def test_an_openspiel_clone_and_pickle_in_the_middle_of_a_gamble_s_dice():
    """OpenSpiel's ``clone`` (and a pickled state) with one of a gamble's two dice rolled: the same node, step and
    faces; each goes its own way after; the record is refused until the step ends, then both replay strictly."""
    pyspiel = pytest.importorskip("pyspiel")
    import pickle

    import lv.openspiel  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_lords_of_vegas", {"profile": "revised", "players": 3})
    state = game.new_initial_state()
    rng = random.Random(4)
    while not (state.is_chance_node() and state.lv.node == DICE and state.lv.faces and state.lv.game is not None):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert type(state.lv.step) is A.Gamble and len(state.lv.faces) == 1
    twin, thawed = state.clone(), pickle.loads(pickle.dumps(state.lv))
    for other in (twin.lv, thawed):
        assert (other.node, other.step, other.faces, other.log) == (state.lv.node, state.lv.step, state.lv.faces,
                                                                    state.lv.log)
    with pytest.raises(lv.LvError, match="under way"):
        twin.to_record()
    state.apply_action(DIE + 5)
    twin.apply_action(DIE + 0)
    thawed.apply(DIE + 5)
    assert twin.lv.faces == [] and state.lv.faces == [] and twin.history()[:-1] == state.history()[:-1]
    assert str(thawed.game.state.players) == str(state.lv.game.state.players)
    assert str(twin.lv.game.state.players) != str(state.lv.game.state.players)  # 6+x against 1+x: not the same
    for s in (state, twin):
        rec = record.parse_record(record.dumps(s.to_record()), "g.yaml")
        assert facts(replay(rec).game) == facts(s.lv.game)


@pytest.mark.parametrize("header,where", [("event: [a, b]", "event"), ("site: true", "site"),
                                          ("tags: {white_box: {a: 1}}", "tags.white_box")])
def test_a_tag_that_is_not_text_is_refused_naming_it_and_an_example(header, where):
    text = f"format: lv-game/1\nprofile: revised\nplayers: [red, blue]\n{header}\nposition: {{current: red}}\n"
    with pytest.raises(RecordError) as info:
        record.parse_record(text, "t.yaml")
    assert str(info.value) == f"t.yaml:4: {where}: text, e.g. '2026-11-23' or 'Essen club night'"


def test_tags_as_dates_and_numbers_read_back_as_text():
    text = ("format: lv-game/1\nprofile: revised\nplayers: [red, blue]\ndate: 2026-11-23\nround: 3\n"
            "tags: {table: 7}\nposition: {current: red}\n")
    assert record.parse_record(text, "t.yaml").tags == {"date": "2026-11-23", "round": "3", "table": "7"}
