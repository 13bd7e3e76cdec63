"""Issue 32: what an action id, a chance outcome and the observation tensor MEAN, pinned on a position built by hand.

A round trip (encode then decode) passes with any consistent mistake (east and west swapped in both); these tests
instead write down, from lv/actionspace.py's table and lv/observation.py's layout, the id of each decision on a
known board and the exact values of the tensor from each seat, and check them against what the engine does."""

from __future__ import annotations

import copy

import pytest

from lv import actions as A
from lv import observation as O
from lv.actionspace import DIE, LAY_OFF, NO_LAY_OFF
from lv.explicit import ACT, BOSS, DICE, DRAW, NODES, ExplicitGame
from lv.game import Game

# revised, 3 players (black, blue, green): black to move with a one-tile gold casino on C5 (C4 west of it, C6
# east, C2 north, C8 south: all empty), blue the boss of a silver casino B2-B3 two high, green a marker on D4
# (seats 0, 1, 2 are named P0, P1, P2 here and take the profile's colours)
POSITION = {
    "current": "P0",
    "players": {"P0": {"money": 60, "score": 5}, "P1": {"money": 7, "score": 0}, "P2": {"money": 31, "score": 2}},
    "markers": {"E1": "P0", "D4": "P2"},
    "tiles": {"C5": "gold P0 4", "B2": "silver h2 P1 3", "B3": "silver h2 P1 5", "A1": "aqua"},
    "discards": ["C5", "B2", "B3", "A1", "E1", "D4", "F9"],
    "turn": 7,
}


def known(profile: str = "revised", tiles: dict | None = None) -> ExplicitGame:
    """An ExplicitGame of 3 players standing at ``POSITION`` (``tiles`` in place of its tiles), at a table."""
    eg = ExplicitGame(profile, 3)
    text = repr(dict(POSITION, tiles=tiles or POSITION["tiles"]))
    for seat, name in enumerate(eg.names):
        text = text.replace(f"P{seat}", name)
    eg.game = Game.from_position(eg.profile, eg.names, eval(text), table=True)
    return eg


def lot(eg: ExplicitGame, name: str) -> int:
    return eg.board.order.index(name)


# ---------------------------------------------------------------- action ids: the documented table, by number

def test_board_order_is_the_documented_one():
    eg = known()
    assert eg.board.order[:6] == ("A1", "A2", "A3", "A4", "A5", "A6")
    assert [lot(eg, x) for x in ("B1", "C1", "C2", "C4", "C5", "C6", "C8")] == [6, 12, 13, 15, 16, 17, 19]
    assert eg.board.colors == ("aqua", "brown", "gold", "purple", "silver")


def test_sprawl_ids_name_the_side_the_casino_lies_on():
    """241 + 4L + D, D the side of the new lot where the casino's tile lies: 0 north, 1 east, 2 south, 3 west.
    C2 lies north of C5 (the casino south of it: D=2), C4 west (casino east: 1), C6 east (casino west: 3), C8
    south (casino north: 0)."""
    eg = known()
    sprawls = {a: eg.action_text(a) for a in eg.legal() if 241 <= a < 433}
    assert sprawls == {241 + 4 * 13 + 2: "sprawl C2 from C5", 241 + 4 * 15 + 1: "sprawl C4 from C5",
                       241 + 4 * 17 + 3: "sprawl C6 from C5", 241 + 4 * 19 + 0: "sprawl C8 from C5"}
    assert sorted(sprawls) == [295, 302, 312, 317]
    for action, target in ((295, "C2"), (302, "C4"), (312, "C6"), (317, "C8")):
        twin = copy.deepcopy(eg)
        twin.apply(action)
        tile = twin.game.state.tiles[target]
        assert (tile.color, tile.owner) == ("gold", 0), (action, target)
        assert twin.game.casino_at(target).lots == frozenset({"C5", target}) or \
            set(twin.game.casino_at(target).lots) == {"C5", target}
    # C4 is in the block's west column: nothing lies west of it, and its north is C1
    with pytest.raises(Exception, match="C4 has no lot on its west side"):
        eg.space.decode(241 + 4 * 15 + 3)
    assert eg.space.decode(241 + 4 * 15 + 0) == A.Sprawl("C4", "C1")
    assert eg.space.decode(241 + 4 * 15 + 2) == A.Sprawl("C4", "C7")


def test_every_sprawl_id_is_the_board_s_geometry():
    """For each lot and side, 241 + 4L + D is the sprawl from the lot one step that way (rows grow south, columns
    east: board.yaml), or no decision at all where the block has no lot there."""
    eg = known()
    board = eg.board
    steps = {0: (-1, 0), 1: (0, 1), 2: (1, 0), 3: (0, -1)}
    names = {0: "north", 1: "east", 2: "south", 3: "west"}
    sprawls = 0
    for i, name in enumerate(board.order):
        here = board.lots[name]
        for side, (dr, dc) in steps.items():
            there = [n for n in here.neighbours
                     if (board.lots[n].row - here.row, board.lots[n].col - here.col) == (dr, dc)]
            action = 241 + 4 * i + side
            if there:
                assert eg.space.decode(action) == A.Sprawl(name, there[0]), action
                sprawls += 1
            else:
                with pytest.raises(Exception, match=f"action {action}: {name} has no lot on its {names[side]} side"):
                    eg.space.decode(action)
    assert sprawls == sum(len(board.lots[x].neighbours) for x in board.order)
    assert eg.space.decode(433 - 1) == A.Sprawl("F9", "F8") and eg.space.decode(433) == A.Remodel("A1", "aqua")


def test_the_ids_end_where_the_largest_stake_ends():
    """revised, 3 players: $5 a tile, casinos up to 3 high, the largest block 12 lots: stakes to $180, so the ids
    run from 0 to 819 + 48 * 180 - 1; the last is gamble F9 180; one more is no id."""
    eg = known()
    assert eg.space.max_stake == 180 and eg.space.size == 819 + 48 * 180
    assert eg.space.decode(eg.space.size - 1) == A.Gamble("F9", 180)
    with pytest.raises(Exception, match=f"action {eg.space.size} is not an action id \\(0 to {eg.space.size - 1}\\)"):
        eg.space.decode(eg.space.size)
    with pytest.raises(Exception, match="action -1 is not an action id"):
        eg.space.decode(-1)


def test_build_remodel_reorganize_raise_gamble_end_ids_do_what_the_table_says():
    eg = known()
    e1 = lot(eg, "E1")
    legal = eg.legal()
    # build E1 <colour>: 1 + 5L + C
    assert [a for a in legal if 1 <= a < 241] == [1 + 5 * e1 + c for c in range(5)]
    twin = copy.deepcopy(eg)
    twin.apply(1 + 5 * e1 + 3)
    assert twin.game.state.tiles["E1"].color == "purple" and twin.game.state.tiles["E1"].owner == 0
    # remodel C5 <colour>: 433 + 5*16 + C; every colour but its own (gold, 2)
    assert [a for a in legal if 433 <= a < 673] == [513, 514, 516, 517]
    twin = copy.deepcopy(eg)
    twin.apply(513)
    assert twin.game.state.tiles["C5"].color == "aqua"
    # reorg C5: 673 + 16; it waits for C5's die, the lot marked pending
    assert 689 in legal and eg.action_text(689) == "reorg C5"
    twin = copy.deepcopy(eg)
    twin.apply(689)
    assert twin.node == DICE and twin.step == A.Reorganize("C5")
    # raise C5: 721 + 16
    assert 737 in legal and eg.action_text(737) == "raise C5"
    twin = copy.deepcopy(eg)
    twin.apply(737)
    while twin.node == DICE:
        twin.apply(DIE + 5)
    assert twin.game.state.tiles["C5"].height == 2
    # gamble B2 S: 819 + 48 (S - 1) + 7
    assert eg.space.decode(819 + 48 * 2 + 7) == A.Gamble("B2", 3)
    assert 819 + 48 * 2 + 7 in legal and eg.action_text(819 + 7) == "gamble B2 1"
    # end: 0, and the next player (blue, seat 1) draws
    twin = copy.deepcopy(eg)
    twin.apply(0)
    assert twin.node == DRAW and twin.game.state.current == 1


def test_lay_off_ids_are_no_then_yes_and_the_boss_answers():
    """817 no lay-off, 818 lay off; the boss (blue) is the player to move at that node (000 L194)."""
    eg = known("original", {"C5": "gold P0 4", "B2": "silver P1 3", "B3": "silver P1 5"})
    bet = 819 + 48 * 1 + lot(eg, "B2")  # gamble B2 2
    assert bet in eg.legal()
    eg.apply(bet)
    assert eg.node == BOSS and eg.current_player == 1 and eg.legal() == [NO_LAY_OFF, LAY_OFF] == [817, 818]
    assert (eg.action_text(817), eg.action_text(818)) == ("no lay-off", "lay off")
    yes, no = copy.deepcopy(eg), copy.deepcopy(eg)
    yes.apply(818)
    no.apply(817)
    assert yes.step == A.Gamble("B2", 2, True) and no.step == A.Gamble("B2", 2, False)


def test_chance_outcome_text_and_meaning():
    eg = known()
    assert [eg.outcome_text(DIE + k) for k in range(6)] == [f"die {f}" for f in range(1, 7)]
    assert (eg.outcome_text(0), eg.outcome_text(47), eg.outcome_text(48)) == ("card A1", "card F9", "card END")
    # the outcome 49 is a die showing 1: the starting roll records it so
    fresh = ExplicitGame("revised", 2)
    for card in ("C5", "D4", "C6", "E1"):
        fresh.apply(lot(fresh, card))
    for outcome in (DIE + 0, DIE + 5):
        fresh.apply(outcome)
    assert fresh.faces == [1, 6]
    assert [o for o, _ in fresh.chance_outcomes()] == list(range(49, 55))


# ---------------------------------------------------------------- the observation: exact values from each seat

def planes(eg: ExplicitGame, seat: int) -> dict[str, list[float]]:
    n = len(eg.names)
    flat = O.tensor(eg, seat)
    out, at = {}, 0
    for name, count in O.layout(n, eg.profile.max_height(n)):
        out[name] = flat[at:at + count]
        at += count
    assert at == len(flat)
    return out


def on(values: list[float], plane: int, lot_index: int) -> float:
    return values[plane * 48 + lot_index]


def lit(values: list[float]) -> dict[tuple[int, int], float]:
    """{(plane, lot): value} of the non-zero cells of a per-lot part."""
    return {divmod(i, 48): v for i, v in enumerate(values) if v}


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_observation_of_a_known_position_from_each_seat(seat):
    eg = known()
    eg.pile, eg.depths, eg.drawn = 40, (9, 10, 11), 3
    p = planes(eg, seat)
    rel = {owner: (owner - seat) % 3 for owner in range(3)}  # black 0, blue 1, green 2, from the observer
    b2, b3, c5, a1, d4, e1 = (lot(eg, x) for x in ("B2", "B3", "C5", "A1", "D4", "E1"))
    assert lit(p["marker"]) == {(rel[0], e1): 1, (rel[2], d4): 1}
    assert lit(p["color"]) == {(4, b2): 1, (4, b3): 1, (2, c5): 1, (0, a1): 1}  # silver 4, gold 2, aqua 0
    assert lit(p["height"]) == {(1, b2): 1, (1, b3): 1, (0, c5): 1, (0, a1): 1}  # plane h-1: B2, B3 two high
    assert len(p["height"]) == 3 * 48  # revised, 3 players: risers up to 3 high
    assert lit(p["die_owner"]) == {(rel[1], b2): 1, (rel[1], b3): 1, (rel[0], c5): 1}  # A1 has no die
    assert lit(p["die"]) == {(2, b2): 1, (4, b3): 1, (3, c5): 1}  # faces 3, 5, 4 at planes face-1
    assert lit(p["boss"]) == {(rel[1], b2): 1, (rel[1], b3): 1, (rel[0], c5): 1}
    assert {i for (_, i) in lit(p["seen"])} == {b2, b3, c5, a1, e1, d4, 47}
    assert lit(p["reorganized"]) == {} and lit(p["pending"]) == {} and lit(p["drawn"]) == {}

    def by_seat(values: tuple[float, float, float]) -> list[float]:
        out = [0.0] * 3
        for owner, v in enumerate(values):
            out[rel[owner]] = v
        return out

    assert p["money"] == by_seat((60, 7, 31))
    assert p["points"] == by_seat((5, 0, 2))
    assert p["to_move"] == by_seat((1, 0, 0))
    assert p["node"] == [1.0 if name == ACT else 0.0 for name in NODES]
    assert p["tiles_left"] == [8, 9, 8, 9, 7]  # 9 each; aqua A1, gold C5, silver B2 B3 on the board
    assert p["pile"] == [3, 26, 28]  # 3 turned over; the end card after 40-11-3 = 26 to 40-9-3 = 28 more
    assert p["turn"] == [7, 0] and p["stake"] == [0] and p["faces"] == [0] * 6
    assert p["markers_left"] == by_seat(tuple(
        eg.game.pieces(owner)["markers_in_hand"] for owner in range(3)))
    assert p["dice_left"] == by_seat((eg.profile.components.dice_per_player - 1,
                                      eg.profile.components.dice_per_player - 2,
                                      eg.profile.components.dice_per_player))


def test_observation_at_the_boss_node_marks_the_boss_to_move_and_the_stake():
    """original: seat 0 gambles $2 at seat 1's casino B2-B3; blue (the boss) is to move, B2 pending, stake 2."""
    eg = known("original", {"C5": "gold P0 4", "B2": "silver P1 3", "B3": "silver P1 5"})
    eg.apply(819 + 48 + lot(eg, "B2"))
    for seat in range(3):
        p = planes(eg, seat)
        assert p["to_move"] == [1.0 if (1 - seat) % 3 == k else 0.0 for k in range(3)], seat
        assert p["node"] == [1.0 if name == BOSS else 0.0 for name in NODES]
        assert lit(p["pending"]) == {(0, lot(eg, "B2")): 1} and p["stake"] == [2]
        assert len(p["height"]) == 48  # original: no risers, one height plane


def test_observation_counts_the_faces_rolled_so_far():
    """A reorganize of a three-dice casino waits for its dice; two 4s rolled so far are counted 2 at face 4."""
    eg = known("revised", {"C4": "gold P0 1", "C5": "gold P0 4", "C6": "gold P0 6"})
    eg.apply(673 + lot(eg, "C4"))
    eg.apply(DIE + 3)
    eg.apply(DIE + 3)
    assert eg.node == DICE and eg.faces == [4, 4]
    p = planes(eg, 1)
    assert p["faces"] == [0, 0, 0, 2, 0, 0]
    assert p["to_move"] == [0, 0, 0] and p["node"] == [1.0 if name == DICE else 0.0 for name in NODES]
    assert lit(p["pending"]) == {(0, lot(eg, "C4")): 1}


# ---------------------------------------------------------------- OpenSpiel's calls

def test_openspiel_legal_actions_of_a_player_not_to_move_are_empty():
    pyspiel = pytest.importorskip("pyspiel")
    import lv.openspiel

    game = pyspiel.load_game("python_lords_of_vegas", {"profile": "revised", "players": 3})
    state = game.new_initial_state()
    # (at a chance node OpenSpiel's own binding answers every player with the outcomes: not lv's to change)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 0) == "card A1"
    state.lv = known()
    assert state.current_player() == 0
    assert state.legal_actions(0) == state.lv.legal() and 302 in state.legal_actions(0)
    assert state.legal_actions(1) == [] and state.legal_actions(2) == []
    assert state.action_to_string(0, 302) == "sprawl C4 from C5"
    assert [state.action_to_string(pyspiel.PlayerId.CHANCE, DIE + k) for k in range(6)] == \
        ["die 1", "die 2", "die 3", "die 4", "die 5", "die 6"]
    assert isinstance(state, lv.openspiel.LordsOfVegasState)
    # the boss's answer: seat 1 decides, the gambler (seat 0) has nothing to choose
    state.lv = known("original", {"C5": "gold P0 4", "B2": "silver P1 3", "B3": "silver P1 5"})
    state.apply_action(819 + 7)
    assert state.current_player() == 1 and state.legal_actions(1) == [817, 818]
    assert state.legal_actions(0) == [] and state.legal_actions(2) == []
    # OpenSpiel's binding asks lv only for the player to move today; lv's own answer is empty too
    assert state._legal_actions(0) == [] and state._legal_actions(2) == []


# ---------------------------------------------------------------- PettingZoo's calls

def test_pettingzoo_observes_from_each_agent_s_seat_and_masks_by_id():
    pytest.importorskip("pettingzoo")
    import numpy as np

    import lv.pettingzoo

    env = lv.pettingzoo.raw_env("revised", players=3)
    env.reset(seed=1)
    env.game = known()
    env.agent_selection = "player_0"
    for seat in range(3):
        seen = env.observe(f"player_{seat}")
        assert seen["observation"].tolist() == pytest.approx(O.tensor(env.game, seat)), seat
        ids = np.flatnonzero(seen["action_mask"]).tolist()
        assert ids == (known().legal() if seat == 0 else []), seat
    assert {295, 302, 312, 317} <= set(np.flatnonzero(env.observe("player_0")["action_mask"]).tolist())
    env.step(302)  # sprawl C4 from C5: no dice, the same player still to move
    assert env.game.game.state.tiles["C4"].color == "gold" and env.agent_selection == "player_0"


def test_observation_counts_the_turn_s_gambles_and_an_end_card_that_may_come_next():
    """A position one gamble into the turn: ``turn`` holds (7, 1), the stake stays 0. The end card may lie 3, 4 or
    5 cards down (pile 40, depths 35 to 37) and 4 are turned over: it may come next (0 more) or after 1; the
    depth 37 (3 down) has passed."""
    eg = known()
    eg.game.state.gambles = 1
    eg.pile, eg.depths, eg.drawn = 40, (35, 36, 37), 4
    p = planes(eg, 2)
    assert p["turn"] == [7, 1] and p["stake"] == [0]
    assert p["pile"] == [4, 0, 1]


def test_the_observation_string_of_the_known_position():
    """OpenSpiel's observation string: the observer, the node, who is to move (seat 0 too), the position (a tile
    without a die shows '-'), and the step under way with its faces."""
    eg = known()
    assert O.text(eg, 1) == (
        "blue sees | act | black to move | turn 7 gambles 0 | black:$60:5pt blue:$7:0pt green:$31:2pt | markers "
        "D4=2 E1=0 | tiles A1=aq1/- B2=si2/1:3 B3=si2/1:5 C5=go1/0:4 | reorganized  | drawn  | seen "
        "A1,B2,B3,C5,D4,E1,F9 | pile 0/0")
    eg = known("revised", {"C4": "gold P0 1", "C5": "gold P0 4", "C6": "gold P0 6"})
    eg.apply(673 + lot(eg, "C4"))
    eg.apply(DIE + 3)
    assert O.text(eg, 2).endswith("| dice | turn 7 gambles 0 | black:$60:5pt blue:$7:0pt green:$31:2pt | markers "
                                  "D4=2 E1=0 | tiles C4=go1/0:1 C5=go1/0:4 C6=go1/0:6 | reorganized  | drawn  | "
                                  "seen A1,B2,B3,C5,D4,E1,F9 | pile 0/0 | step Reorganize(lot='C4') | faces [4]")
    assert O.text(eg, 2).startswith("green sees | dice | turn")  # nobody to move at a chance node


def test_openspiel_observer_planes_by_name_and_the_information_state_is_the_history():
    """The observer's ``dict``: each per-lot part as (planes, 48), each number part flat; the tensor as
    ``observation.tensor`` writes it; the information state (perfect recall) is the history of ids."""
    pyspiel = pytest.importorskip("pyspiel")
    import lv.openspiel  # noqa: F401

    game = pyspiel.load_game("python_lords_of_vegas", {"profile": "original", "players": 3})
    state = game.new_initial_state()
    for card in ("C5", "D4", "A1", "C6", "E1", "A2"):
        state.apply_action(state.lv.board.order.index(card))
    observer = game.make_py_observer()
    observer.set_from(state, 1)
    shapes = {name: tuple(view.shape) for name, view in observer.dict.items()}
    assert shapes["marker"] == (3, 48) and shapes["height"] == (1, 48) and shapes["seen"] == (1, 48)
    assert shapes["die"] == (6, 48) and shapes["money"] == (3,) and shapes["node"] == (7,) and shapes["pile"] == (3,)
    assert observer.tensor.tolist() == O.tensor(state.lv, 1)
    assert observer.dict["marker"][1][state.lv.board.order.index("A1")] == 1  # seat 2 seen from 1
    recall = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    ids = " ".join(str(state.lv.board.order.index(c)) for c in ("C5", "D4", "A1", "C6", "E1", "A2"))
    assert recall.string_from(state, 1) == f"green: {ids}" == f"{state.lv.names[1]}: {ids}"
    assert state.information_state_string(1) == f"green: {ids}"
    assert state.observation_string(1).startswith("green sees | roll")


# ---------------------------------------------------------------- issue 29-31: pins by number, written by hand
# Board order (board-data.yaml, blocks of 6, 6, 12, 9, 6, 9 lots): A1 0, A2 1, A4 3, B2 7, B3 8, C5 16, D4 27,
# E1 33, F6 44, F8 46, F9 47. Colours: aqua 0, brown 1, gold 2, purple 3, silver 4.

@pytest.mark.parametrize("action, text", [
    (0, "end"),
    (1, "build A1 aqua"), (2, "build A1 brown"), (6, "build A2 aqua"), (240, "build F9 silver"),
    (433, "remodel A1 aqua"), (672, "remodel F9 silver"),
    (673, "reorg A1"), (720, "reorg F9"),
    (721, "raise A1"), (768, "raise F9"),
    (817, "no lay-off"), (818, "lay off"),
    (819, "gamble A1 1"), (866, "gamble F9 1"), (867, "gamble A1 2"), (819 + 48 * 179 + 33, "gamble E1 180"),
])
def test_each_family_s_first_and_last_id_by_number(action, text):
    """The table of lv/actionspace.py read at each family's edges: a family's first id is its lot A1 (and colour
    aqua), its last F9 (silver); gamble's stake runs last, so 867 is A1 again at $2."""
    assert known().action_text(action) == text


def test_sprawl_ids_at_the_board_s_first_and_last_lot():
    """241 + 4L + D at A1 (row 1, col 1: A2 east of it, A4 south) and F9 (row 3, col 3: F6 north, F8 west)."""
    space = known().space
    assert space.decode(242) == A.Sprawl("A1", "A2") and space.decode(243) == A.Sprawl("A1", "A4")
    assert space.decode(429) == A.Sprawl("F9", "F6") and space.decode(432) == A.Sprawl("F9", "F8")
    for action, side in ((241, "north"), (244, "west"), (430, "east"), (431, "south")):
        with pytest.raises(Exception, match=f"action {action}: .. has no lot on its {side} side"):
            space.decode(action)


def test_sell_ids_sell_the_parking_lot():
    """769 + L under the house rule (variants/house-sell-back.yaml): 769 sell A1, 816 sell F9; black's parking lot
    E1 (33) is 802, and selling it pays half E1's price of $9, rounded down: $4 (lv/actions/sell.py)."""
    eg = known("house-sell-back")
    assert (eg.action_text(769), eg.action_text(816)) == ("sell A1", "sell F9")
    assert [a for a in eg.legal() if 769 <= a < 817] == [802]
    eg.apply(802)
    assert "E1" not in eg.game.state.markers and eg.game.state.players[0].money == 64


@pytest.mark.parametrize("profile, players, stake", [
    ("original", 2, 60), ("original", 4, 60),  # $5 a tile, no risers: the 12-lot block C, $60
    ("revised", 2, 120), ("revised", 4, 240), ("revised", 6, 360),  # risers to the player count: 12 x N tiles
    ("revised+f-block", 2, 120),  # the F block closed at 2 players; C is still the largest block
])
def test_the_number_of_ids_by_profile_and_players(profile, players, stake):
    """819 + 48 x the largest stake: $5 (gamble.bet_per_tile) a tile of the largest casino."""
    from lv.actionspace import ActionSpace
    from lv.board import load_board
    from lv.profile import load_profile

    space = ActionSpace(load_profile(profile), players, load_board())
    assert (space.max_stake, space.size) == (stake, 819 + 48 * stake)
    assert space.decode(space.size - 1) == A.Gamble("F9", stake)


def test_observation_by_flat_index_from_seat_1():
    """The tensor of the known position seen by blue (seat 1), each cell by its number, written from the layout in
    lv/observation.py's docstring (revised, 3 players, H = 3: 3n + H + 15 = 27 planes of 48, then 5n + 24 = 39
    numbers): marker planes 0-2, colour 3-7, height 8-10, die owner 11-13, die 14-19, boss 20-22, seen 23,
    reorganized 24, pending 25, drawn 26; then from 1296: money, points, markers left, dice left, to move (3 each),
    node (7), tiles left (5), pile (3), turn (2), stake, faces (6). From blue, blue is plane 0, green 1, black 2."""
    eg = known()
    eg.pile, eg.depths, eg.drawn = 40, (9, 10, 11), 3
    flat = O.tensor(eg, 1)
    assert len(flat) == 1335 == 48 * 27 + 39
    expected = {
        2 * 48 + 33: 1, 1 * 48 + 27: 1,  # markers: black's E1, green's D4
        7 * 48 + 7: 1, 7 * 48 + 8: 1, 5 * 48 + 16: 1, 3 * 48 + 0: 1,  # silver B2 B3, gold C5, aqua A1
        9 * 48 + 7: 1, 9 * 48 + 8: 1, 8 * 48 + 16: 1, 8 * 48 + 0: 1,  # B2 B3 two high, C5 A1 one
        11 * 48 + 7: 1, 11 * 48 + 8: 1, 13 * 48 + 16: 1,  # blue's dice on B2 B3, black's on C5
        16 * 48 + 7: 1, 18 * 48 + 8: 1, 17 * 48 + 16: 1,  # faces 3, 5, 4
        20 * 48 + 7: 1, 20 * 48 + 8: 1, 22 * 48 + 16: 1,  # blue the boss of B2-B3, black of C5
        **{23 * 48 + i: 1 for i in (16, 7, 8, 0, 33, 27, 47)},  # seen: the discards C5 B2 B3 A1 E1 D4 F9
        1296: 7, 1297: 31, 1298: 60,  # money: blue, green, black
        1300: 2, 1301: 5,  # points: blue 0, green 2, black 5
        1305: 10, 1306: 12, 1307: 11,  # dice left of 12 each: blue 2 on the board, black 1
        1310: 1,  # black to move
        1316: 1,  # node 'act', the 6th of deal, roll, draw, dice, boss, act, over
        1318: 8, 1319: 9, 1320: 8, 1321: 9, 1322: 7,  # tiles left of 9 each
        1323: 3, 1324: 26, 1325: 28,  # pile: 3 turned over, then 26 to 28 more before the end card
        1326: 7,  # turn 7, no gamble yet
    }
    markers_left = {1302 + k: eg.game.pieces((k + 1) % 3)["markers_in_hand"] for k in range(3)}
    lit_cells = {i: v for i, v in enumerate(flat) if v and i not in markers_left}
    assert lit_cells == expected
    assert [flat[i] for i in markers_left] == [10 - 0, 10 - 1, 10 - 1]  # of 10: green's D4, black's E1 out


def test_reorganized_and_drawn_planes_light_up():
    """Plane 24 (reorganized) after black reorganizes C5 and its die is rolled (revised, 3 players, seat 0's view);
    the drawn plane, the last of 3n + H + 15, holds the card turned over this turn: B2 (7) in a 2-player revised
    game (H = 2: 23 planes, drawn is plane 22), and the marker it places is seat 0's (plane 0)."""
    eg = known()
    assert not any(O.tensor(eg, 0)[24 * 48:25 * 48]) and not any(O.tensor(eg, 0)[26 * 48:27 * 48])
    eg.apply(673 + 16)  # reorg C5
    eg.apply(DIE + 0)  # its die shows 1
    flat = O.tensor(eg, 0)
    assert [i for i in range(48) if flat[24 * 48 + i]] == [16]
    assert flat[14 * 48 + 16] == 1  # C5's die now shows 1: die plane 14 (face 1)
    two = ExplicitGame("revised", 2)
    for card in ("C5", "D4", "C6", "E1"):  # the deal: C5, C6 to seat 0, D4, E1 to seat 1
        two.apply(lot(two, card))
    for face in (6, 5, 1, 2):  # the starting roll: seat 0 11, seat 1 3
        two.apply(DIE + face - 1)
    assert two.node == DRAW and not any(O.tensor(two, 0)[22 * 48:23 * 48])
    two.apply(7)  # seat 0 draws B2
    flat = O.tensor(two, 0)
    assert len(flat) == 48 * 23 + 5 * 2 + 24
    assert [i for i in range(48) if flat[22 * 48 + i]] == [7]
    assert [i for i in range(48) if flat[i]] == [7, 16, 17]  # seat 0's markers: B2, C5, C6
