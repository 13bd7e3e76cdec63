"""Playing a game kept in a file: ``lv new``, ``lv move`` (one decision, table dice, scripts), ``lv legal``, and the
Python API behind them (lv/session.py).

The file must stay an ordinary lv-game/1 record that strict replay accepts, and a refused decision must leave it
byte for byte as it was. Rulebook: 003 = revised (shared/seeds/003_*.txt), ``L<n>`` = line.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from lv import cli
import lv
from lv import session
from lv.record import load_record
from lv.replay import replay

BOARD = lv.load_board()
ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


def lv_cmd(*args, input=None):
    return runner.invoke(cli.app, [str(a) for a in args], input=input)


def snapshot(path: Path) -> tuple[bytes, int]:
    st = os.stat(path)
    return path.read_bytes(), st.st_mtime_ns


@pytest.fixture
def game7(tmp_path):
    """``lv new --variant revised --players red,blue,green --seed 7``: the game of examples/moves.txt."""
    path = tmp_path / "game.yaml"
    res = lv_cmd("new", "--variant", "revised", "--players", "red,blue,green", "--seed", 7, "-o", path)
    assert res.exit_code == 0, res.stderr
    return path


# Two players, blue to act: red is the boss of the gold casino A2+A5 (4 beats 3), blue owns the lot B2.
DUEL = """\
format: lv-game/1
profile: revised
players: [red, blue]
seed: 1
position:
  current: blue
  phase: actions
  players: {red: {money: 20}, blue: {money: 20}}
  markers: {B2: blue}
  tiles: {A2: gold red 4, A5: gold blue 3}
"""


@pytest.fixture
def duel(tmp_path):
    path = tmp_path / "duel.yaml"
    path.write_text(DUEL, encoding="utf-8")
    return path


def money(path: Path) -> dict[str, int]:
    game = session.open_game(path).game
    return {p.name: p.money for p in game.state.players}


# ---------------------------------------------------------------------------------------------- lv new


def test_new_sets_up_and_draws_for_the_first_player(game7):
    """003 "Setting Up" L178-199: 2 cards each, $20 minus the two printed dice; L279-281 the highest starting roll
    starts; Step 1-2 L295-316: the first player takes a marker on the drawn lot, every lot pays its owner $1."""
    data = yaml.safe_load(game7.read_text(encoding="utf-8"))
    assert data["format"] == "lv-game/1" and data["profile"] == "revised" and data["seed"] == 7
    assert "result" not in data
    deck = data["deck"]
    assert sorted(deck) == sorted(BOARD.order)
    rolls = data["starting_rolls"][-1]
    first = max(rolls, key=lambda name: sum(rolls[name]))
    assert first == "green"  # seed 7 rolls red 4+2, blue 3+3, green 6+6
    assert data["turns"] == [{"player": "green", "cards": [deck[6]]}]  # dealt 6 cards, green draws the 7th
    game = session.open_game(game7).game
    names = ["red", "blue", "green"]
    for seat, name in enumerate(names):
        dealt = [deck[seat], deck[seat + 3]]
        lots = dealt + ([deck[6]] if name == "green" else [])
        assert sorted(game.state.markers_on_board(seat)) == sorted(lots)
        start = 20 - sum(BOARD.lots[c].die for c in dealt)
        assert game.state.players[seat].money == start + len(lots)


def test_new_refuses_to_overwrite(game7):
    before = snapshot(game7)
    res = lv_cmd("new", "--players", "red,blue", "--seed", 1, "-o", game7)
    assert res.exit_code == 2 and "exists" in res.stderr
    assert snapshot(game7) == before
    assert lv_cmd("new", "--players", "red,blue", "--seed", 1, "-o", game7, "--force").exit_code == 0
    assert yaml.safe_load(game7.read_text(encoding="utf-8"))["players"] == ["red", "blue"]


def test_new_with_a_player_count_and_json_file(tmp_path):
    path = tmp_path / "g.json"
    res = lv_cmd("new", "--variant", "original", "--players", "3", "--seed", 2, "-o", path)
    assert res.exit_code == 0, res.stderr
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["players"] == ["blue", "green", "red"]  # 000 L18: the original's colours, in order
    assert lv_cmd("move", path, "end").exit_code == 0
    assert len(json.loads(path.read_text(encoding="utf-8"))["turns"]) == 2


# ---------------------------------------------------------------------------------------------- lv move


def test_move_applies_saves_and_replays(game7):
    """003 "Action - Build" L526-540: pay the lot's price, the tile gets your die showing the lot's printed value."""
    before = money(game7)["green"]
    res = lv_cmd("move", game7, "build D6 purple")
    assert res.exit_code == 0, res.stderr
    assert "build D6 purple" in res.stdout
    game = session.open_game(game7).game
    tile = game.state.tiles["D6"]
    assert (tile.color, tile.height, tile.owner, tile.value) == ("purple", 1, 2, BOARD.lots["D6"].die)
    assert game.state.players[2].money == before - BOARD.lots["D6"].price
    data = yaml.safe_load(game7.read_text(encoding="utf-8"))
    assert data["turns"][0]["decisions"] == [{"action": "build", "lot": "D6", "color": "purple"}]
    # an ordinary record: strict replay under its own profile reaches the same state
    rep = replay(load_record(game7))
    assert session.fingerprint(rep.game) == session.fingerprint(game)


def test_end_starts_the_next_turn_with_its_draw(game7):
    deck = yaml.safe_load(game7.read_text(encoding="utf-8"))["deck"]
    res = lv_cmd("move", game7, "end")
    assert res.exit_code == 0, res.stderr
    turns = yaml.safe_load(game7.read_text(encoding="utf-8"))["turns"]
    assert turns[1] == {"player": "red", "cards": [deck[7]]}  # green started; red sits next
    assert f"Turn 2 - red draws {deck[7]}" in res.stdout
    assert session.open_game(game7).game.state.markers[deck[7]] == 0


@pytest.mark.parametrize("decision,reason,rule", [
    ("build A9 gold", "unknown lot 'A9'", "notation"),
    ("build C12 gold", "you have no marker on C12", "build: a lot you own"),  # C12 was dealt to red
    ("build D6 teal", "unknown colour 'teal'", "notation"),
    ("gamble D6 3", "has no casino", "gamble: a casino"),
    ("bild D6 gold", "unknown decision 'bild'", "notation"),
])
def test_illegal_move_exit_2_reason_and_file_untouched(game7, decision, reason, rule):
    before = snapshot(game7)
    res = lv_cmd("move", game7, decision)
    assert res.exit_code == 2
    first = res.stderr.splitlines()[0]
    assert first.startswith(f"lv: error: turn 1, green: '{decision}': ") and reason in first
    assert first.endswith(f"[{rule}]")
    assert "Traceback" not in res.stderr
    assert snapshot(game7) == before


def test_illegal_move_lists_the_nearest_legal_ones(game7):
    """Green owns D6, B3, E3 and has $18 (enough for each: $6, $9, $15): a build on a lot green does not own gets
    green's gold builds first."""
    res = lv_cmd("move", game7, "build C12 gold")
    legal = res.stderr.splitlines()[1]
    assert legal.startswith("legal now: ")
    shown = legal[len("legal now: "):].split(", ")
    assert len(shown) == 5
    assert set(shown[:3]) == {"build D6 gold", "build B3 gold", "build E3 gold"}


def test_too_little_money(game7):
    """003 L526-540: building costs the lot's price. Green spends $15 of $18 on E3, then cannot pay $9 for B3."""
    assert lv_cmd("move", game7, "build E3 gold").exit_code == 0
    before = snapshot(game7)
    res = lv_cmd("move", game7, "build B3 gold")
    assert res.exit_code == 2
    assert "building B3 costs $9, you have $3 [build: pay the lot price]" in res.stderr
    assert snapshot(game7) == before


def test_move_refused_after_the_game_ended(tmp_path):
    """003 "Winning" L908-916: the Game Over card ends the game; nothing can be played after it."""
    path = tmp_path / "over.yaml"
    path.write_text(DUEL + "  deck: [END]\n", encoding="utf-8")
    assert lv_cmd("move", path, "end").exit_code == 0
    assert yaml.safe_load(path.read_text(encoding="utf-8"))["result"]["reason"] == "end_card"
    before = snapshot(path)
    res = lv_cmd("move", path, "end")
    assert res.exit_code == 2 and "the game is over" in res.stderr
    assert snapshot(path) == before


def test_a_move_keeps_the_comment_and_the_position(duel):
    text = DUEL.replace("seed: 1\n", "seed: 1\ncomment: |\n  A rules question.\n  Two lines of it.\n")
    duel.write_text(text, encoding="utf-8")
    assert lv_cmd("move", duel, "end").exit_code == 0
    after = duel.read_text(encoding="utf-8")
    assert "comment: |\n  A rules question.\n  Two lines of it.\n" in after
    assert yaml.safe_load(after)["position"] == yaml.safe_load(DUEL)["position"]


def test_a_broken_file_is_refused_with_its_line(game7):
    text = game7.read_text(encoding="utf-8")
    drawn = yaml.safe_load(text)["turns"][0]["cards"][0]
    other = next(c for c in BOARD.order if c != drawn)
    game7.write_text(text.replace(f"cards: [{drawn}]", f"cards: [{other}]"), encoding="utf-8")
    before = snapshot(game7)
    res = lv_cmd("move", game7, "end")
    assert res.exit_code == 2 and "turn 1" in res.stderr and f"{game7}:" in res.stderr
    assert snapshot(game7) == before


# ---------------------------------------------------------------------------------------------- table dice


def test_gamble_with_table_dice_double(duel):
    """003 "Action - Gamble" L783-800: up to $5 per tile (2 tiles: $10); a roll of 2 pays twice the bet."""
    res = lv_cmd("move", duel, "gamble A2 10", "--dice", "1,1")
    assert res.exit_code == 0, res.stderr
    assert money(duel) == {"red": 0, "blue": 40}
    decisions = yaml.safe_load(duel.read_text(encoding="utf-8"))["turns"][0]["decisions"]
    assert decisions == [{"action": "gamble", "lot": "A2", "bet": 10, "dice": {"gamble": [1, 1]}}]


def test_gamble_with_table_dice_lose(duel):
    """003 L741-742: 5, 6, 7 or 8 loses, and the boss takes the bet."""
    assert lv_cmd("move", duel, "gamble A5 10", "--dice", "3,4").exit_code == 0
    assert money(duel) == {"red": 30, "blue": 10}


@pytest.mark.parametrize("decision,dice,reason", [
    ("gamble A2 10", "4", "a gamble rolls two dice, 1 given"),
    ("gamble A2 10", "4,5,6", "3 dice given, the decision rolls 2"),
    ("build B2 gold", "4", "1 die given, the decision rolls 0 (no dice at all)"),
    ("reorg A5", "6", "reorganizing rerolls 2 dice (A2, A5, in that order), 1 given"),
    ("gamble A2 10", "4,7", "--dice '4,7'"),
])
def test_wrong_table_dice_are_refused(duel, decision, dice, reason):
    before = snapshot(duel)
    res = lv_cmd("move", duel, decision, "--dice", dice)
    assert res.exit_code == 2 and reason in res.stderr, res.stderr
    assert snapshot(duel) == before


def test_reorganize_with_table_dice_in_board_order(duel):
    """003 "Action - Reorganize" L592-631: pay $1 per pip in the casino (4 + 3), reroll every die in it; the new
    top die's owner is the boss."""
    res = lv_cmd("move", duel, "reorg A5", "--dice", "1,6")
    assert res.exit_code == 0, res.stderr
    game = session.open_game(duel).game
    assert (game.state.tiles["A2"].value, game.state.tiles["A5"].value) == (1, 6)
    assert game.state.players[1].money == 20 - 7
    assert game.casinos()[0].boss == 1


def test_tie_rerolls_take_the_next_table_dice(duel):
    """003 "Settling Who's the Boss" L426-440: tied top dice of different players are rerolled at once, until one
    player has the largest. The reorganize rolls 5 and 5: a tie; the next dice, 2 (A2) and 6 (A5), settle it."""
    before = snapshot(duel)
    res = lv_cmd("move", duel, "reorg A5", "--dice", "5,5")
    assert res.exit_code == 2 and "tie reroll on A2 needs another die" in res.stderr
    assert snapshot(duel) == before
    res = lv_cmd("move", duel, "reorg A5", "--dice", "5,5,2,6")
    assert res.exit_code == 0, res.stderr
    game = session.open_game(duel).game
    assert (game.state.tiles["A2"].value, game.state.tiles["A5"].value) == (2, 6)
    assert game.state.players[1].money == 13  # the tie reroll is free
    decision = yaml.safe_load(duel.read_text(encoding="utf-8"))["turns"][0]["decisions"][0]
    assert decision["dice"] == {"reorg": {"A2": 5, "A5": 5}, "ties": {"A2": [2], "A5": [6]}}


def test_end_with_table_dice_for_the_next_draws_tie(tmp_path):
    """003 Step 1 L295-307 and L426-440: yellow draws E2 and takes over red's die there (a 5), tying red's 5 on E1;
    the tie is rerolled at once, with the table's dice in the order of the tied lots: E1 2, E2 6."""
    path = tmp_path / "tie.yaml"
    path.write_text(DUEL.replace("[red, blue]", "[red, yellow]").replace("current: blue", "current: red")
                    .replace("blue: {money: 20}", "yellow: {money: 20}").replace("{B2: blue}", "{}")
                    .replace("{A2: gold red 4, A5: gold blue 3}", "{E1: purple red 5, E2: purple red 5}")
                    + "  deck: [E2, C1, END]\n", encoding="utf-8")
    res = lv_cmd("move", path, "end", "--dice", "2,6")
    assert res.exit_code == 0, res.stderr
    game = session.open_game(path).game
    e1, e2 = game.state.tiles["E1"], game.state.tiles["E2"]
    assert (e1.owner, e1.value, e2.owner, e2.value) == (0, 2, 1, 6)
    turn = yaml.safe_load(path.read_text(encoding="utf-8"))["turns"][1]
    assert turn == {"player": "yellow", "cards": ["E2"], "dice": {"ties": {"E1": [2], "E2": [6]}}}


def test_marker_from_chooses_the_marker_that_moves(tmp_path):
    """003 "Available Player Markers" L266-271: with all 10 markers on the board, drawing a new lot moves one of
    your markers there; --marker-from says which (here B1, not the cheapest)."""
    lots = ["A1", "A2", "A3", "A4", "A5", "A6", "B1", "B2", "B3", "B4"]
    markers = ", ".join(f"{lot}: red" for lot in lots)
    path = tmp_path / "markers.yaml"
    path.write_text(DUEL.replace("{B2: blue}", "{" + markers + "}").replace("{A2: gold red 4, A5: gold blue 3}", "{}")
                    .replace("current: blue", "current: blue") + "  deck: [C1, C2, END]\n", encoding="utf-8")
    res = lv_cmd("move", path, "end", "--marker-from", "b1")
    assert res.exit_code == 0, res.stderr
    game = session.open_game(path).game
    assert sorted(game.state.markers) == sorted(set(lots) - {"B1"} | {"C1"})
    assert yaml.safe_load(path.read_text(encoding="utf-8"))["turns"][1]["choices"] == {"marker_from": "B1"}


def test_dice_from_the_seed_are_recorded_and_deterministic(duel, tmp_path):
    other = tmp_path / "again.yaml"
    other.write_text(DUEL, encoding="utf-8")
    for path in (duel, other):
        assert lv_cmd("move", path, "gamble A2 4").exit_code == 0
    assert duel.read_bytes() == other.read_bytes()
    dice = yaml.safe_load(duel.read_text(encoding="utf-8"))["turns"][0]["decisions"][0]["dice"]["gamble"]
    assert len(dice) == 2 and all(1 <= d <= 6 for d in dice)


def test_trade_is_a_decision(duel):
    """003 "Trading" L803-836: money and lots change hands in the order agreed."""
    res = lv_cmd("move", duel, "trade money 5 from blue to red; lot B2 from blue to red")
    assert res.exit_code == 0, res.stderr
    game = session.open_game(duel).game
    assert {p.name: p.money for p in game.state.players} == {"red": 25, "blue": 15}
    assert game.state.markers == {"B2": 0}


# ---------------------------------------------------------------------------------------------- scripts


def test_from_file_stops_at_the_first_refused_line_and_keeps_the_rest(game7, tmp_path):
    script = tmp_path / "moves.txt"
    script.write_text("# turn 1\nbuild D6 purple\n\nend   # red's turn next\nbuild C12 gold\nbuild Z1 gold\nend\n",
                      encoding="utf-8")
    res = lv_cmd("move", game7, "--from", script)
    assert res.exit_code == 2
    assert f"lv: error: {script}:6: turn 2, red: 'build Z1 gold': unknown lot 'Z1'" in res.stderr
    assert "3 decisions before it applied and saved" in res.stderr
    game = session.open_game(game7).game
    assert (game.state.turn, game.state.current) == (2, 0)
    assert set(game.state.tiles) == {"D6", "C12"}


def test_from_file_first_line_refused_leaves_the_file(game7, tmp_path):
    script = tmp_path / "moves.txt"
    script.write_text("build C12 gold\nend\n", encoding="utf-8")  # C12 is red's, green is to play
    before = snapshot(game7)
    res = lv_cmd("move", game7, "--from", script)
    assert res.exit_code == 2 and f"{script}:1:" in res.stderr
    assert snapshot(game7) == before


def test_from_stdin(game7):
    res = lv_cmd("move", game7, "--from", "-", input="end\nend\nend\n")
    assert res.exit_code == 0, res.stderr
    game = session.open_game(game7).game
    assert (game.state.turn, game.player_names[game.state.current]) == (4, "green")  # green, red, blue, green


def test_shipped_moves_script(game7):
    """examples/moves.txt on the seed-7 game it documents: six turns, with table dice, a trade and a sprawl."""
    res = lv_cmd("move", game7, "--from", ROOT / "examples" / "moves.txt")
    assert res.exit_code == 0, res.stderr
    game = session.open_game(game7).game
    assert (game.state.turn, game.player_names[game.state.current]) == (7, "green")
    assert game.state.markers["E1"] == 1  # red traded E1 to blue
    assert game.state.tiles["F8"].value == 6  # blue's reorganize rolled a 6 at the table
    d5 = game.state.tiles["D5"]
    assert (d5.color, d5.owner, d5.value) == ("purple", 2, BOARD.lots["D5"].die)  # green sprawled from D6
    assert [p.money for p in game.state.players] == [8, 14, 16]
    turns = yaml.safe_load(game7.read_text(encoding="utf-8"))["turns"]
    assert turns[2]["decisions"][0] == {"action": "gamble", "lot": "C12", "bet": 4, "dice": {"gamble": [5, 6]}}


# ---------------------------------------------------------------------------------------------- lv legal


def test_legal_groups_by_verb(duel):
    """Blue may gamble at red's casino: $5 per tile, 2 tiles (revised "Action - Gamble"), both players have $20.
    (The --json form, one object per decision, is tested in test_legal_json.py.)"""
    res = lv_cmd("legal", duel, "--json")
    assert res.exit_code == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["turn"] == 1 and data["player"] == "blue"
    legal = session.legal_groups(session.open_game(duel).game)
    assert [d["notation"] for d in data["decisions"] if d["kind"] == "build"] == legal["build"]
    assert list(legal) == ["draw", "reroll", "move", "build", "sprawl", "remodel", "reorg", "raise", "gamble", "end"]
    assert legal["draw"] == []  # drawn already: the draw is offered only while the game rests before it
    assert legal["build"] == [f"build B2 {c}" for c in BOARD.colors]
    assert legal["gamble"] == [{"lot": "A2", "min": 1, "max": 10, "lay_off": False}]
    assert legal["reorg"] == ["reorg A2"] and legal["end"] == ["end"]
    assert legal["sprawl"] == legal["remodel"] == legal["raise"] == []  # blue is nobody's boss
    game = session.open_game(duel).game
    assert sum(len(v) for v in legal.values()) == len(game.legal_actions())


def test_legal_text(duel):
    res = lv_cmd("legal", duel)
    assert res.exit_code == 0
    assert "gamble A2 1..10" in res.stdout and "build B2 gold" in res.stdout and "reorg A2" in res.stdout
    assert res.stdout.splitlines()[0].startswith("Turn 1 · blue to play")


def test_legal_text_gives_each_decision_its_cost_as_json_does(duel):
    """Every decision listed with the dollars it costs, the same as ``cost`` in --json (issue 20, point 9): a
    build its lot's price, a reorganize its pips, a gamble its bet range, end nothing."""
    data = json.loads(lv_cmd("legal", duel, "--json").stdout)
    text = lv_cmd("legal", duel).stdout
    listed = [item.strip() for line in text.splitlines() if line.startswith("  ") for item in line.split(", ")]
    expected = []
    for d in data["decisions"]:
        if d["kind"] == "gamble":
            expected.append(f"gamble {d['lot']} {d['min']}..{d['max']} ${d['min']}-{d['max']}")
        else:
            expected.append(d["notation"] + (f" ${d['cost']}" if d["cost"] else ""))
    assert listed == expected
    assert "build B2 gold $" in text and "gamble A2 1..10 $1-10" in text and "\n  end\n" in text
    assert {d["cost"] for d in data["decisions"] if d["kind"] == "build"} - {0} != set()


# ---------------------------------------------------------------------------------------------- the Python API


def test_session_api_round_trip(tmp_path):
    path = tmp_path / "api.yaml"
    s = session.create(path, "revised", ["ann", "bo"], seed=3)
    played = s.play("end")
    assert played.text == "end" and played.lines[0] == "end"
    with pytest.raises(session.MoveError) as err:
        s.play("raise Q1")
    assert err.value.rule == "notation" and err.value.turn == 2
    s.save()
    again = session.open_game(path)
    assert session.fingerprint(again.game) == session.fingerprint(s.game)


@pytest.mark.slow
def test_drive_game_example_runs(tmp_path):
    res = subprocess.run([sys.executable, str(ROOT / "examples" / "drive_game.py"), str(tmp_path)],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert "refused: turn 1, green: 'build A1 gold'" in res.stdout
    assert session.open_game(tmp_path / "game.yaml").game.state.turn == 10
    root = ET.fromstring((tmp_path / "board.svg").read_text(encoding="utf-8"))
    assert sum(1 for e in root.iter() if e.get("class") == "lot") == 48


def test_a_look_back_is_never_saved_over_the_file(game7):
    assert lv_cmd("move", game7, "--from", "-", input="end\nend\n").exit_code == 0
    before = snapshot(game7)
    earlier = session.open_game(game7, until=1)
    assert earlier.game.state.turn == 1
    with pytest.raises(lv.LvError, match="up to turn 1 only"):
        earlier.save()
    assert snapshot(game7) == before


def test_the_session_modules_example_runs_as_written(tmp_path, monkeypatch):
    """lv/session.py's docstring is the play-by-email API's first example: run it as a doctest (seed 7's game)."""
    import doctest

    from lv import session

    monkeypatch.chdir(tmp_path)
    result = doctest.testmod(session, verbose=False, report=False)
    assert result.attempted >= 6 and result.failed == 0
