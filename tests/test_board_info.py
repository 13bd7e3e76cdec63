"""What the board shows a player (issue 13, point 7): the score track with each player's place, the cards left
before the end card, the tiles left of each colour, the lot just drawn; ``lv render -o board.png`` (with the
``lv[png]`` extra, else refused); a ``Game`` shows its board in Jupyter (``_repr_svg_``); players and the winner
by name (point 10)."""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lv import cli
import lv
from lv import render, session

SVG_NS = "{http://www.w3.org/2000/svg}"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
BUSY = """\
format: lv-game/1
profile: revised
players: [red, blue, green]
seed: 5
position:
  current: blue
  phase: actions
  players: {red: {money: 20, score: 3}, blue: {money: 14, score: 1}, green: {money: 9, score: 10}}
  markers: {E3: red, B6: green, F1: blue}
  tiles: {A2: gold red 2, A5: gold blue 3, C12: silver h2 red 5, D4: aqua}
"""


def invoke(*args: str):
    return CliRunner().invoke(cli.app, list(args))


@pytest.fixture()
def new_game_file(tmp_path):
    path = tmp_path / "g.yaml"
    res = invoke("new", "--players", "red,blue,green", "--seed", "7", "-o", str(path))
    assert res.exit_code == 0, res.stderr
    return path


@pytest.fixture()
def busy(tmp_path):
    path = tmp_path / "busy.yaml"
    path.write_text(BUSY, encoding="utf-8")
    return session.open_game(path).game


def by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def test_cards_before_the_end_card_count_down_one_per_draw(new_game_file):
    """003 "Setting Up" L170-178: 48 cards, 2 dealt to each of 3 players leaves 42; the Game Over card goes on
    top of the 4th of four stacks, floor(42/4) = 10 cards under it, so 32 cards above it; the first player's
    draw takes one: 31 before the end card. Each turn's draw takes one more."""
    state = json.loads(invoke("show", str(new_game_file), "--json").stdout)
    assert state["cards_before_end"] == 31 and state["cards_left"] == 42
    assert invoke("move", str(new_game_file), "end").exit_code == 0
    state = json.loads(invoke("show", str(new_game_file), "--json").stdout)
    assert state["cards_before_end"] == 30 and state["cards_left"] == 41
    res = invoke("show", str(new_game_file))
    assert "30 cards before the end card" in res.stdout


def test_tiles_left_of_each_colour(busy):
    """003 "Casino Tiles": 9 tiles of each of 5 colours; the position has 2 gold, 1 silver, 1 aqua on the board."""
    assert busy.tiles_left() == {"aqua": 8, "brown": 9, "gold": 7, "purple": 9, "silver": 8}
    assert render.state_data(busy)["tiles_left"] == busy.tiles_left()
    text = render.supply_text(busy).plain
    assert text.endswith("tiles left: aqua 8, brown 9, gold 7, purple 9, silver 8")
    root = ET.fromstring(render.svg(busy))
    assert {e.get("data-color"): int(e.get("data-left")) for e in by_class(root, "tiles-left")} == \
        busy.tiles_left()


def test_score_track_places_each_player_on_the_highest_space_not_above_the_score(busy):
    """The track (variants/board.yaml) runs 0-8 in ones, then 10, 12, ...: 3 points stand on space 3, 10 on
    space 9 (the 10), 9 points (no such space) on the 8 at space 8, 90 on the last space, 28."""
    board = busy.board
    assert [render.track_space(board, n) for n in (0, 3, 9, 10, 11, 90, 95)] == [0, 3, 8, 9, 9, 28, 28]
    assert [p["track_space"] for p in render.players_data(busy)] == [3, 1, 9]
    root = ET.fromstring(render.svg(busy))
    tokens = {e.get("data-player"): int(e.get("data-points")) for e in by_class(root, "track-token")}
    assert tokens == {"red": 3, "blue": 1, "green": 10}
    line = render.track_text(busy).plain
    assert line.startswith("score track 0 ▕") and line.endswith("▏ 90")
    cells = line[line.index("▕") + 1:line.index("▏")]
    assert len(cells) == 29 and cells[1] == "b" and cells[3] == "r" and cells[9] == "g"
    assert cells.count("·") == 26


def test_the_lot_just_drawn_is_highlighted(new_game_file):
    game = session.open_game(new_game_file).game
    drawn = render.drawn_lots(game)
    assert len(drawn) == 1 and drawn == game.state.drawn
    root = ET.fromstring(render.svg(game))
    assert [e.get("data-lot") for e in by_class(root, "drawn")] == drawn
    text = render.board_text(game).plain
    assert f"{drawn[0]}*" in text and text.count("*") == 2  # the cell and the legend's example "A2*"


def test_render_png_without_the_extra_is_refused_in_one_line(new_game_file, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # as if lv[png] were not installed
    out = tmp_path / "board.png"
    res = invoke("render", str(new_game_file), "-o", str(out))
    assert res.exit_code == 2
    assert res.stderr.count("\n") == 1 and "lv[png]" in res.stderr and str(out) in res.stderr
    assert not out.exists()


def test_render_refuses_a_suffix_it_cannot_write(new_game_file, tmp_path):
    out = tmp_path / "board.jpg"
    res = invoke("render", str(new_game_file), "-o", str(out))
    assert res.exit_code == 2 and ".svg, .html or .png" in res.stderr and not out.exists()


def test_render_png_with_the_extra_writes_a_png(new_game_file, tmp_path):
    pytest.importorskip("cairosvg", reason="the optional extra lv[png] (cairosvg) is not installed")
    out = tmp_path / "board.png"
    res = invoke("render", str(new_game_file), "-o", str(out))
    assert res.exit_code == 0, res.stderr
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_game_shows_its_board_in_jupyter():
    game = lv.new_game("revised", ["ann", "bob", "cy"], seed=3)
    root = ET.fromstring(game._repr_svg_())
    assert root.tag == SVG_NS + "svg" and len(by_class(root, "lot")) == 48
    formatters = pytest.importorskip("IPython.core.formatters", reason="IPython is not installed")
    data, _ = formatters.DisplayFormatter().format(game)
    assert data["image/svg+xml"] == game._repr_svg_()


def test_players_and_the_winner_by_name():
    from lv.record import load_record
    from lv.replay import replay

    game = replay(load_record(EXAMPLES / "revised-4p.yaml")).game
    r = game.result
    assert r.winner_name == game.player_names[r.winner] == "blue"
    assert r.ranking_names == [game.player_names[i] for i in r.ranking]
    assert game.player("blue") is game.state.players[game.seat("blue")]
    assert game.player(r.winner).name == "blue"
    with pytest.raises(lv.LvError, match="no player is called 'pink'"):
        game.seat("pink")
