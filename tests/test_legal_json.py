"""``lv legal --json`` (issue 13, point 4): every decision is an object of one form, its ``notation`` is what
``lv move`` takes and its ``cost`` is what applying it charges; the README's shell loop plays a game to the end.

The full loop from ``lv new`` takes a few hundred commands (minutes on a busy machine): it runs with
``LV_SLOW_TESTS=1``; by default the same loop runs from the last turn before the end card.
"""

from __future__ import annotations

import copy
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from lv import cli
import lv
from lv import bots, session
from lv.board import END_CARD
from lv.notation import parse_action

ROOT = Path(__file__).resolve().parent.parent
COMMON = {"notation", "kind", "cost"}


def legal_json(path: Path) -> dict:
    res = CliRunner().invoke(cli.app, ["legal", str(path), "--json"])
    assert res.exit_code == 0, res.stderr
    return json.loads(res.stdout)


def test_every_decision_has_the_same_form(tmp_path):
    """Blue may gamble at red's casino: $5 per tile (revised "Action - Gamble"), one tile, capped at $5."""
    s = session.create(tmp_path / "g.yaml", "revised", ["red", "blue"], seed=2, first_player="red")
    s.play("build " + next(iter(sorted(s.game.state.markers))) + " gold")
    s.play("end")
    s.save()
    data = legal_json(tmp_path / "g.yaml")
    assert set(data) == {"turn", "player", "over", "money", "decisions"}
    assert data["player"] == "blue" and data["over"] is False
    decisions = data["decisions"]
    kinds = [d["kind"] for d in decisions]
    assert kinds[-1] == "end" and decisions[-1] == {"notation": "end", "kind": "end", "cost": 0}
    for d in decisions:
        assert COMMON <= set(d), d
        assert set(d) - COMMON <= {"lot", "color", "from", "min", "max", "lay_off"}
    gambles = [d for d in decisions if d["kind"] == "gamble"]
    assert len(gambles) == 1
    g = gambles[0]
    assert g == {"notation": f"gamble {g['lot']} 5", "kind": "gamble", "cost": 5, "lot": g["lot"], "min": 1,
                 "max": 5, "lay_off": False}
    builds = [d for d in decisions if d["kind"] == "build"]
    lot = lv.load_board().lots[builds[0]["lot"]]
    assert builds[0] == {"notation": f"build {lot.id} aqua", "kind": "build", "cost": lot.price, "lot": lot.id,
                         "color": "aqua"}


def test_at_a_table_every_card_not_seen_is_a_draw_lv_move_takes(tmp_path):
    """At a table the deck's order is unknown: 'lv legal --json' once offered {"notation": "draw"}, which 'lv move'
    refuses ("name the card turned over at the table"). Now one draw per card not seen yet, each one playable; in
    a 2-player revised game a card on the closed F block says the next card is named too ("2-Player Rules")."""
    deal = {"red": ["A1", "C4"], "blue": ["B2", "D3"]}
    s = session.create(tmp_path / "t.yaml", "revised", ["red", "blue"], 1, table=True, deal=deal, first_player="red")
    s.save()
    data = legal_json(tmp_path / "t.yaml")
    draws = data["decisions"]
    assert {d["kind"] for d in draws} == {"draw"} and len(draws) == 48 + 1 - 4
    assert [d["cards"] for d in draws] == [[d["notation"].split()[1]] for d in draws]
    assert draws[0] == {"notation": "draw A2", "kind": "draw", "cost": 0, "cards": ["A2"]}
    assert draws[-1] == {"notation": f"draw {END_CARD}", "kind": "draw", "cost": 0, "cards": [END_CARD]}
    assert [d["cards"][0] for d in draws if d.get("then_card")] == [f"F{i}" for i in range(1, 10)]
    for d in draws[:3] + draws[-1:]:
        game = tmp_path / "t.yaml"
        copy_ = tmp_path / f"c-{d['cards'][0]}.yaml"
        copy_.write_bytes(game.read_bytes())
        res = CliRunner().invoke(cli.app, ["move", str(copy_), d["notation"]])
        assert res.exit_code == 0, res.stderr
    f = next(d for d in draws if d.get("then_card"))
    copy_ = tmp_path / "f.yaml"
    copy_.write_bytes((tmp_path / "t.yaml").read_bytes())
    res = CliRunner().invoke(cli.app, ["move", str(copy_), f"{f['notation']} A2"])
    assert res.exit_code == 0, res.stderr


def test_a_finished_game_lists_no_decisions(tmp_path):
    path = tmp_path / "done.yaml"
    path.write_text((ROOT / "examples" / "revised-2p.yaml").read_text())
    data = legal_json(path)
    assert data["over"] is True and data["decisions"] == []


@pytest.mark.slow
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 60))
def test_notation_parses_back_and_cost_is_what_applying_charges(seed, steps):
    """Random positions: each listed decision's notation parses to the legal action, and applying it on a copy
    takes exactly ``cost`` from the player (a gamble's cost is its bet: the stake at risk, not a charge)."""
    game = lv.new_game("original" if seed % 2 else "revised", 3, seed)
    bot, rng = bots.bot_named("random-kind"), random.Random(seed)
    for _ in range(steps):
        if game.over:
            break
        game.apply(bot(game, game.legal_actions(), rng))
    if game.over:
        return
    actions = game.legal_actions()
    decisions = session.legal_decisions(game)
    assert len(actions) == len(decisions)
    me = game.state.current
    for action, d in zip(actions, decisions):
        assert parse_action(d["notation"], game.player_names, game.board) == action
        if d["kind"] in ("gamble", "end"):
            continue
        twin = copy.deepcopy(game)
        before = twin.state.players[me].money
        twin.apply(action)
        assert before - twin.state.players[me].money == d["cost"], d


# ---------------------------------------------------------------------------------------------- the README loop


def readme_loop() -> list[str]:
    """The lines of the README's shell loop block (the block under 'A whole game from the shell')."""
    text = (ROOT / "README.md").read_text()
    section = text.split("## A whole game from the shell", 1)[1]
    block = re.search(r"```bash\n(.*?)```", section, re.S).group(1)
    return block.splitlines()


def lv_on_path(tmp_path: Path) -> dict:
    """An environment where ``lv`` is this checkout's command line, as after ``pip install .``."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    script = bin_dir / "lv"
    script.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{ROOT / "cli.py"}" "$@"\n')
    script.chmod(0o755)
    return dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{Path(sys.executable).parent}{os.pathsep}"
                f"{os.environ.get('PATH', '')}", PYTHONPATH=str(ROOT))


def near_the_end(path: Path) -> None:
    """The README's game (ann, bob, seed 1) played in-process by the loop's rule (the first legal decision)
    up to the end of the last turn but one; the loop then ends that turn, which draws the end card."""

    def first_decisions(stop_at_turn: int | None):
        s = session.create(None, "revised", ["ann", "bob"], seed=1)
        while not s.game.over:
            first = session.legal_decisions(s.game)[0]["notation"]
            if s.game.state.turn == stop_at_turn and first == "end":
                break
            s.play(first)
        return s

    last = first_decisions(None).game.state.turn
    first_decisions(last - 1).save(path)


def run_loop(lines: list[str], tmp_path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-e", "-c", "\n".join(lines)], cwd=tmp_path, env=lv_on_path(tmp_path),
                          capture_output=True, text=True, timeout=1800)


@pytest.mark.slow
def test_the_readme_loop_plays_the_last_turn_to_the_end(tmp_path):
    lines = readme_loop()
    assert lines[0] == "lv new --players ann,bob --seed 1 -o duel.yaml" and lines[1].startswith("while move=$(")
    near_the_end(tmp_path / "duel.yaml")
    before = len(lv.record.load_record(tmp_path / "duel.yaml").turns)
    res = run_loop(lines[1:], tmp_path)
    assert res.returncode == 0, res.stderr
    rec = lv.record.load_record(tmp_path / "duel.yaml")
    assert rec.result is not None and rec.result["reason"] == "end_card" and len(rec.turns) == before + 1
    assert res.stdout.splitlines()[-1] == "Result verified: it matches the record."


@pytest.mark.skipif(not os.environ.get("LV_SLOW_TESTS"), reason="a whole game through the shell takes minutes; "
                                                                 "set LV_SLOW_TESTS=1")
def test_the_readme_loop_plays_a_whole_game(tmp_path):
    res = run_loop(readme_loop(), tmp_path)
    assert res.returncode == 0, res.stderr
    rec = lv.record.load_record(tmp_path / "duel.yaml")
    assert rec.result is not None and res.stdout.splitlines()[-1] == "Result verified: it matches the record."


def test_the_docs_example_is_what_lv_legal_prints(tmp_path):
    """docs/cli.md shows three of the decisions after the commands it names; they are printed as shown."""
    page = (ROOT / "docs" / "cli.md").read_text()
    shown = json.loads(re.search(r"```json\n(.*?)```", page, re.S).group(1))
    path = tmp_path / "g.yaml"
    runner = CliRunner()
    for args in (["new", "--players", "red,blue", "--seed", "2", "--first", "red", "-o", str(path)],
                 ["move", str(path), "build A1 gold"], ["move", str(path), "end"]):
        assert runner.invoke(cli.app, args).exit_code == 0
    data = legal_json(path)
    assert {k: v for k, v in data.items() if k != "decisions"} == {k: v for k, v in shown.items() if k != "decisions"}
    assert all(d in data["decisions"] for d in shown["decisions"])
    assert data["decisions"][0] == shown["decisions"][0] and data["decisions"][-1] == shown["decisions"][-1]
