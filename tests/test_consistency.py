"""Consistency (issue 13, point 11): ``lv check`` and ``lv replay`` exit alike for the same broken file; ``lv diff``
says when money broke a tie on points; the README's "What you can do" block runs top to bottom as written.

The README block's ``lv simulate`` line (2000 paired games, a minute on a busy machine) runs as written with
``LV_SLOW_TESTS=1``; by default it runs with ``--games 20`` (``lv explain``'s with ``--games 2``), everything else
exactly as written.
"""

from __future__ import annotations

import glob
import json
import os
import re
import shlex
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lv import cli
from lv import bots, new_game, load_profile
from lv.narrative import decided_by
from lv.record import dumps, record_of

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def run(*args: str):
    return CliRunner().invoke(cli.app, list(args))


def broken_files(tmp_path: Path) -> dict[str, tuple[Path, int]]:
    """name -> (file, the exit code both commands must give)."""
    raise_text = (EXAMPLES / "question-raise.yaml").read_text()
    game_text = (EXAMPLES / "revised-2p.yaml").read_text()
    files = {
        "missing": ("", 2),
        "not YAML": ("format: lv-game/1\nplayers: [a, b\n", 2),
        "not a record": ("- just\n- a list\n", 2),
        "unknown profile": (raise_text.replace("profile: revised", "profile: revized"), 2),
        "cards the deck does not give": (raise_text.replace("cards: [D8]", "cards: [A1]"), 2),
        "an illegal decision": (raise_text.replace("profile: revised", "profile: original"), 2),
        "a result that does not verify": (game_text.replace("reason: end_card", "reason: instant_win"), 1),
        "a good record": (game_text, 0),
    }
    out = {}
    for i, (name, (text, code)) in enumerate(files.items()):
        path = tmp_path / f"f{i}.yaml"
        if name != "missing":
            path.write_text(text)
        out[name] = (path, code)
    return out


def test_check_and_replay_give_the_same_exit_code_for_the_same_file(tmp_path):
    for name, (path, code) in broken_files(tmp_path).items():
        replayed, checked = run("replay", str(path)), run("check", str(path))
        assert (replayed.exit_code, checked.exit_code) == (code, code), name
        if code == 2:
            assert replayed.stderr.startswith(f"lv: error: {path}") and replayed.stderr.count("\n") == 1, name
            assert f"FAIL {path}" in checked.stdout, name


def test_check_goes_through_every_file_and_exits_with_the_worst(tmp_path):
    files = broken_files(tmp_path)
    mismatch, good = files["a result that does not verify"][0], files["a good record"][0]
    res = run("check", str(good), str(mismatch))
    assert res.exit_code == 1 and res.stdout.rstrip().endswith("2 records: 1 ok, 1 failed")
    illegal = files["an illegal decision"][0]
    res = run("check", str(illegal), str(mismatch), str(good), "--json")
    assert res.exit_code == 2
    data = json.loads(res.stdout)
    assert [(f["ok"], f["broken"], f["verified"]) for f in data["files"]] == [
        (False, True, None), (False, False, False), (True, False, True)]


def test_diff_says_when_money_broke_a_tie_on_points(tmp_path):
    """Seed 2, greedy bots, 2 players: 36 points each under the revised rules; black wins on money, $40 to $39
    (revised "Winning": "money is a tiebreaker")."""
    game = new_game(load_profile("revised"), 2, 2)
    bots.play(game, [bots.bot_named("greedy")] * 2, 2)
    scores, money = [p.score for p in game.state.players], [p.money for p in game.state.players]
    assert (scores, money, decided_by(game.result, scores, money)) == ([36, 36], [40, 39], "money")
    path = tmp_path / "tie.yaml"
    path.write_text(dumps(record_of(game, "revised")))
    res = run("diff", str(path), "--variant", "original")
    assert res.exit_code == 0, res.stderr
    assert "Under revised, black wins on money: tied with blue on 36 points, $40 to $39." in res.stdout
    data = json.loads(run("diff", str(path), "--variant", "original", "--json").stdout)
    assert data["a"]["winner_decided_by"] == "money"
    example = str(EXAMPLES / "revised-4p.yaml")  # blue wins on points in the record, purple on money under the other
    sides = json.loads(run("diff", example, "-v", "original+f-block", "--json").stdout)
    assert (sides["a"]["winner_decided_by"], sides["b"]["winner_decided_by"]) == ("points", "money")
    lines = run("diff", example, "-v", "original+f-block").stdout.splitlines()  # its reorg of D2 rolls dice
    assert lines[-2:] == ["The winner changes: blue under revised, purple under original+f-block.",
                          "Under original+f-block, purple wins on money: tied with black on 18 points, $121 to $52."]


def test_decided_by_names_the_seat_when_money_is_tied_too():
    class R:
        reason, winner = "end_card", 1
    assert decided_by(R, [40, 40, 12], [9, 9, 50]) == "seat"
    assert decided_by(R, [30, 40, 40], [9, 9, 5]) == "money"
    assert decided_by(R, [30, 41, 40], [9, 9, 50]) == "points"
    R.reason = "instant_win"
    assert decided_by(R, [90, 90], [1, 2]) is None


# ---------------------------------------------------------------------------------------------- the README block


def readme_block() -> list[str]:
    text = (ROOT / "README.md").read_text()
    section = text.split("## What you can do", 1)[1]
    block = re.search(r"```bash\n(.*?)```", section, re.S).group(1)
    block = block.replace("\\\n", " ")  # a command continued on the next line
    return [line for line in block.splitlines() if line.strip() and not line.lstrip().startswith("#")]


@pytest.mark.slow
def test_the_readme_block_runs_top_to_bottom_as_written(tmp_path, monkeypatch):
    """Each line in a fresh folder holding what a clone holds (examples/), with a shell's glob expansion."""
    shutil.copytree(EXAMPLES, tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    lines = readme_block()
    assert len(lines) >= 15 and all(line.startswith("lv ") for line in lines)
    for line in lines:
        args = shlex.split(line, comments=True)[1:]
        args = [x for a in args for x in (sorted(glob.glob(a)) if "*" in a else [a])]
        if args[0] in ("simulate", "explain", "balance", "ladder", "train") and not os.environ.get("LV_SLOW_TESTS"):
            # the same command, fewer games (a searching bot: 2 games, 4 playouts a decision; lv explain plays
            # every game under 146 profiles, lv balance every line-up: 2 games; the ladder 8, training 4)
            if "--games" not in args:
                args += ["--games", "4"]
            searching = any(a.startswith("mcts") or ",mcts" in a for a in args) or args[0] in ("explain", "balance")
            few = {"ladder": "8", "train": "4"}.get(args[0], "2" if searching else "20")
            args[args.index("--games") + 1] = few
            args = [re.sub(r"mcts:\d+", "mcts:4", a) for a in args]
        res = run(*args)
        assert res.exit_code == 0, f"{line}\n{res.stderr}"
    made = Path("selfplay.yaml").read_text()  # a complete game whose result verifies (that it is the shipped
    assert "seed: 7\n" in made and "\nresult:" in made  # examples/revised-4p.yaml: the test below)
    assert run("check", "selfplay.yaml").exit_code == 0
    assert Path("board.svg").read_text().startswith("<svg")
    assert run("replay", "game.yaml").stdout.count("\nTurn ") == 2  # the build, the end, the next draw


@pytest.mark.parametrize("name", ["original-4p", "revised-4p", "revised-2p", "original-f-block-2p"])
def test_the_self_played_examples_are_what_their_comment_makes(name, tmp_path):
    """README: "complete self-played games (`lv selfplay`, seeds in their `comment`)"; the README's block makes
    examples/revised-4p.yaml with `lv selfplay --variant revised --players 4 --seed 7`."""
    text = (EXAMPLES / f"{name}.yaml").read_text()
    made_by = re.search(r"^comment: 'made by: lv (selfplay .*)'$", text, re.M).group(1)
    out = tmp_path / "made.yaml"
    assert run(*shlex.split(made_by), "-o", str(out)).exit_code == 0
    assert out.read_text() == text
