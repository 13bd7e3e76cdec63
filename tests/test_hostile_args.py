"""Arguments a script gets wrong: an empty file or folder name (an unset shell variable, ``-o "$OUT"``) is one
line naming the argument, exit 2; it was silently ignored (``--games-out ""``: the run went on and wrote
nothing), read as the current folder (``lv check ""`` checked every record under it) or said as ": no such file"."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

import lv
from lv import cli

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()


@pytest.fixture
def folder(tmp_path):
    """A folder holding a game and a record, the working directory while the command runs."""
    shutil.copy(ROOT / "examples" / "revised-2p.yaml", tmp_path / "record.yaml")
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        assert runner.invoke(cli.app, ["new", "-p", "2", "--seed", "1", "-o", "game.yaml"]).exit_code == 0
        yield tmp_path
    finally:
        os.chdir(here)


@pytest.mark.parametrize("args, named", [
    (["check", ""], "'FILE...'"),
    (["check", "record.yaml", ""], "'FILE...'"),
    (["replay", ""], "'FILE'"),
    (["show", ""], "'FILE'"),
    (["legal", ""], "'FILE'"),
    (["move", "", "end"], "'FILE'"),
    (["move", "game.yaml", "--from", ""], "'--from'"),
    (["new", "-p", "2", "-o", ""], "'--output'"),
    (["selfplay", "-o", ""], "'--output'"),
    (["render", "game.yaml", "-o", ""], "'--output'"),
    (["view", "record.yaml", "-o", ""], "'--output'"),
    (["diff", "record.yaml", "-v", "original", "--html", ""], "'--html'"),
    (["simulate", "-v", "revised", "--games", "2", "--games-out", ""], "'--games-out'"),
    (["simulate", "-v", "revised", "--games", "2", "--plot", ""], "'--plot'"),
    (["simulate", "-v", "revised", "--games", "2", "--save-dir", ""], "'--save-dir'"),
    (["explain", "original", "revised", "--games", "1", "--examples", ""], "'--examples'"),
    (["explain", "original", "revised", "--games", "1", "--games-out", ""], "'--games-out'"),
    (["ladder", "random", "greedy", "--games", "2", "--journal", ""], "'--journal'"),
    (["train", "revised", "-o", ""], "'--output'"),
])
def test_an_empty_file_or_folder_name_is_one_line_naming_the_argument(folder, args, named):
    before = sorted(p.name for p in folder.iterdir())
    res = runner.invoke(cli.app, args)
    assert res.exit_code == 2, (res.exit_code, res.stdout[-300:], res.stderr[-300:])
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("lv: error: "), res.stderr
    assert named in lines[0] and "'' is no name" in lines[0], lines[0]
    assert res.stdout == "" and sorted(p.name for p in folder.iterdir()) == before


@pytest.mark.parametrize("args, named", [
    (["replay", "-"], "'FILE'"),
    (["check", "-"], "'FILE...'"),
    (["show", "-"], "'FILE'"),
    (["move", "-", "end"], "'FILE'"),
    (["ladder", "random", "greedy", "--games", "2", "--journal", "-"], "'--journal'"),
    (["simulate", "-v", "revised", "--games", "2", "--plot", "-"], "'--plot'"),
    (["simulate", "-v", "revised", "--games", "2", "--save-dir", "-"], "'--save-dir'"),
])
def test_a_dash_where_no_standard_stream_is_read_or_written_is_refused(folder, args, named):
    """'lv ladder --journal -' wrote a file named '-' (--plot -, --save-dir -: a folder); 'lv replay -' said
    "-: no such file" (or read a file named '-'). Only lv move --from - reads standard input."""
    before = sorted(p.name for p in folder.iterdir())
    res = runner.invoke(cli.app, args)
    assert res.exit_code == 2, (res.exit_code, res.stdout[-300:], res.stderr[-300:])
    assert named in res.stderr and "'-' (standard input or output) is not taken here" in res.stderr, res.stderr
    assert len(res.stderr.splitlines()) == 1 and sorted(p.name for p in folder.iterdir()) == before


def test_a_file_named_dash_is_read_as_dot_slash_dash_and_move_from_dash_reads_stdin(folder):
    shutil.copy(folder / "game.yaml", folder / "-")
    assert runner.invoke(cli.app, ["show", "./-"]).exit_code == 0
    res = runner.invoke(cli.app, ["move", "game.yaml", "--from", "-"], input="end\n")
    assert res.exit_code == 0 and "1 decisions applied" in res.stderr, res.stderr


def test_a_file_named_by_a_space_is_still_a_name(folder):
    """Only the empty name is refused: ' ' is a name a file may have."""
    shutil.copy(folder / "game.yaml", folder / " ")
    assert runner.invoke(cli.app, ["show", " "]).exit_code == 0


@pytest.mark.parametrize("output, message", [("nodir/m.model", "no such folder: nodir"),
                                             ("sub", "not a regular file"), ("record.yaml", "the file exists")])
def test_train_refuses_its_output_before_the_self_play(folder, monkeypatch, output, message):
    """``lv train revised -o nodir/m.model`` played its 2,000 self-play games (40 s) and then failed to write;
    ``-o FOLDER`` said "the file exists (use --force ...)", and --force did not help."""
    from lv import learn

    def no_training(*args, **kwargs):
        raise AssertionError("trained before the output was checked")

    monkeypatch.setattr(learn, "train", no_training)
    (folder / "sub").mkdir()
    for force in ([], ["--force"]) if output != "record.yaml" else ([],):
        res = runner.invoke(cli.app, ["train", "revised", "-o", output, "--quiet", *force])
        assert res.exit_code == 2, repr(res.exception)
        assert len(res.stderr.splitlines()) == 1 and message in res.stderr, res.stderr


@pytest.mark.parametrize("names, message", [
    ("ann lee,bob", "player name 'ann lee': one word without ' '"),
    ("ann\u00a0lee,bob", "one word without '\\xa0'"),
    ("a=b,c", "one word without '='"),
    ("e\u0301,\u00e9", "player names must differ (also in case and accents): 'e\\u0301' and '\\xe9'"),
    ("ann,ANN", "player names must differ (also in case and accents): 'ann' and 'ANN'"),
    ("a" * 41 + ",bob", f"player name '{'a' * 40}'...: at most 40 characters, not 41"),
    ("a" * 5000 + ",bob", "at most 40 characters, not 5000"),
])
def test_a_name_the_notation_cannot_name_is_refused(folder, names, message):
    """'ann lee' was a player no trade could name ('from ann lee to bob' is refused); 'é' as one character and
    as e + accent were two players who look the same, whom no one could tell apart in a trade."""
    res = runner.invoke(cli.app, ["new", "-p", names, "-o", "x.yaml"])
    assert res.exit_code == 2 and message in res.stderr and len(res.stderr.splitlines()) == 1, res.stderr
    assert not (folder / "x.yaml").exists()


def test_a_record_made_before_the_one_word_rule_still_loads_and_plays(folder):
    # the rule is for new games: a game file whose player is 'ann lee' (lv new took it before) is not lost
    assert runner.invoke(cli.app, ["new", "-p", "ann,bob", "--seed", "1", "-o", "r.yaml"]).exit_code == 0
    text = (folder / "r.yaml").read_text()
    (folder / "r.yaml").write_text(re.sub(r"\bann\b", '"ann lee"', text))  # the players, the rolls, the turns
    res = runner.invoke(cli.app, ["show", "r.yaml"])
    assert res.exit_code == 0 and "ann lee" in res.stdout, res.stderr
    assert runner.invoke(cli.app, ["move", "r.yaml", "end"]).exit_code == 0
    assert lv.new_game("revised", ["ann", "bob"], 1).state.players[0].name == "ann"
    with pytest.raises(lv.RecordError, match="'ann lee': one word without ' '"):
        lv.new_game("revised", ["ann lee", "bob"], 1)


def test_a_name_of_40_characters_is_taken_and_a_record_with_a_longer_one_still_loads(folder):
    # the limit is for new games: 40 characters make a game; a game file made before with a longer name still loads
    forty = "a" * 40
    assert lv.new_game("revised", [forty, "bob"], 1).state.players[0].name == forty
    assert runner.invoke(cli.app, ["new", "-p", "ann,bob", "--seed", "1", "-o", "r.yaml"]).exit_code == 0
    text = (folder / "r.yaml").read_text()
    (folder / "r.yaml").write_text(re.sub(r"\bann\b", "b" * 300, text))
    res = runner.invoke(cli.app, ["show", "r.yaml"])
    assert res.exit_code == 0 and "b" * 40 in res.stdout, res.stderr
    with pytest.raises(lv.RecordError, match="at most 40 characters, not 41"):
        lv.new_game("revised", [forty + "a", "bob"], 1)


def test_a_record_with_names_that_look_the_same_is_refused_on_load_at_its_line(folder):
    assert runner.invoke(cli.app, ["new", "-p", "ann,bob", "--seed", "1", "-o", "r.yaml"]).exit_code == 0
    data = yaml.safe_load((folder / "r.yaml").read_text())
    data["players"] = ["e\u0301", "\u00e9"]
    (folder / "r.yaml").write_text(yaml.safe_dump(data))
    res = runner.invoke(cli.app, ["show", "r.yaml"])
    assert res.exit_code == 2 and "r.yaml:" in res.stderr and "must differ" in res.stderr, res.stderr


@pytest.mark.parametrize("names", ["ann,,bob", "ann,bob,", ",ann,bob", "ann, ,bob"])
def test_an_empty_name_in_the_list_is_refused(folder, names):
    # 'ann,,bob' made a game of two players without a word: the third player was lost to a typo
    res = runner.invoke(cli.app, ["new", "-p", names, "-o", "x.yaml"])
    assert res.exit_code == 2 and "an empty name (two commas in a row, or one at an end)" in res.stderr, res.stderr
    assert len(res.stderr.splitlines()) == 1 and not (folder / "x.yaml").exists()


def test_names_of_one_word_in_any_script_are_taken(folder):
    assert runner.invoke(cli.app, ["new", "-p", "Zoë,李雷,o'neil", "-o", "z.yaml"]).exit_code == 0
    res = runner.invoke(cli.app, ["move", "z.yaml", "trade money 1 from 李雷 to Zoë by 李雷, Zoë"])
    assert res.exit_code == 0, res.stderr


@pytest.mark.parametrize("spec, message", [
    ("revised,gamble.per_turn=", "gamble.per_turn: expected int, got no value"),
    ("revised,players.colors=", "players.colors: expected a list of str, got no value"),
])
def test_a_spec_value_left_empty_says_so_in_words(spec, message):
    """'revised,gamble.per_turn=' said "expected int, got NoneType None": Python's words for YAML's null."""
    res = runner.invoke(cli.app, ["variants", "show", spec])
    assert res.exit_code == 2 and res.stderr.rstrip().endswith(message), res.stderr
    assert "NoneType" not in res.stderr


@pytest.mark.parametrize("key, message", [("seed", "seed with no value: a whole number or a string"),
                                          ("format", "no 'format' line: this lv reads 'lv-game/1'")])
def test_a_record_key_left_empty_says_so_in_words(folder, key, message):
    text = (folder / "game.yaml").read_text()
    (folder / "e.yaml").write_text("".join(f"{key}:\n" if line.startswith(f"{key}:") else line
                                           for line in text.splitlines(keepends=True)))
    res = runner.invoke(cli.app, ["replay", "e.yaml"])
    assert res.exit_code == 2 and message in res.stderr and "None" not in res.stderr, res.stderr


@pytest.mark.parametrize("char", ["\u200b", "\u2060", "\ufeff"])
def test_an_invisible_character_in_a_refused_decision_is_shown(folder, char):
    """A decision pasted with a zero-width space was refused as "unknown colour 'gold'": the character printed
    as nothing. It is shown as its escape now (lv/printable.py)."""
    res = runner.invoke(cli.app, ["move", "game.yaml", f"build E4 gold{char}"])
    assert res.exit_code == 2 and f"'gold\\u{ord(char):04x}'" in res.stderr, res.stderr


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_a_moves_file_with_a_byte_order_mark_is_read(folder, newline):
    """Windows Notepad saves moves.txt with a byte-order mark: the first line read '\\ufeffend', refused as an
    unknown decision. The mark is dropped, as YAML drops it from a record."""
    (folder / "moves.txt").write_bytes(b"\xef\xbb\xbf" + f"end{newline}".encode())
    res = runner.invoke(cli.app, ["move", "game.yaml", "--from", "moves.txt"])
    assert res.exit_code == 0 and "1 decisions applied" in res.stderr, res.stderr
    res = runner.invoke(cli.app, ["move", "game.yaml", "--from", "-"], input=b"\xef\xbb\xbfend\n")
    assert res.exit_code == 0 and "1 decisions applied" in res.stderr, res.stderr


def test_a_byte_that_is_no_utf8_after_a_byte_order_mark_is_placed_in_the_file():
    from lv.errors import LvError
    from lv.yamlsource import decode

    with pytest.raises(LvError, match="byte 0xff at offset 4$"):
        decode(b"\xef\xbb\xbfa\xff", "f.txt")
    assert decode(b"\xef\xbb\xbfa", "f.txt") == "a" and decode(b"a\xef\xbb\xbf", "f.txt") == "a\ufeff"


@pytest.mark.parametrize("spec, message", [
    ("./nope.yaml", "profile file './nope.yaml': no such file"),
    ("nope.yml", "profile file 'nope.yml': no such file"),
    ("revised+nope.yaml", "profile file 'nope.yaml': no such file"),
    ("sub.yaml", "profile file 'sub.yaml': a folder, not a file"),
])
def test_a_profile_path_that_is_no_file_says_what_it_is(folder, spec, message):
    """'lv variants show ./nope.yaml' said "unknown profile './nope.yaml' (known: ..., or a path to a .yaml
    file)": it was a path to a .yaml file, one that is not there."""
    (folder / "sub.yaml").mkdir()
    for args in (["variants", "show", spec], ["new", "-p", "2", "-v", spec, "-o", "x.yaml"]):
        res = runner.invoke(cli.app, args)
        assert res.exit_code == 2 and res.stderr == f"lv: error: {message}\n", res.stderr


@pytest.mark.parametrize("extra, message", [
    (["--deal", "red=A1,C4", "--deal", "red=B2,D3", "--first", "red"], "--deal: 'red' is given twice"),
    (["--deal", "red=A1,C4", "--deal", "blue=B2,D3", "--rolls", "red=6+5,blue=2+2,red=1+1"],
     "--rolls: 'red' is given twice"),
    (["--deal", "red=A1,C4", "--deal", "blue=B2,D3", "--first", "red", "--tag", "round=1", "--tag", "round=2"],
     "--tag: 'round' is given twice"),
])
def test_a_player_or_tag_given_twice_in_one_option_is_refused(folder, extra, message):
    """'--rolls red=6+5,blue=2+2,red=1+1' kept red's last roll without a word, and blue started; a second --deal
    for red replaced the first; a second --tag round the first."""
    res = runner.invoke(cli.app, ["new", "--table", "-p", "red,blue", "-o", "t.yaml", *extra])
    assert res.exit_code == 2 and res.stderr == f"lv: error: {message}\n", res.stderr
    assert not (folder / "t.yaml").exists()


def test_first_and_rolls_together_are_refused(folder):
    """'--rolls red=1+1,blue=6+6 --first red' made red start and dropped the rolls without a word (a record with
    both first_player and starting_rolls is refused on load)."""
    res = runner.invoke(cli.app, ["new", "--table", "-p", "red,blue", "-o", "t.yaml", "--deal", "red=A1,C4",
                                  "--deal", "blue=B2,D3", "--rolls", "red=1+1,blue=6+6", "--first", "red"])
    assert res.exit_code == 2 and "--first" in res.stderr and "not both" in res.stderr, res.stderr
    assert not (folder / "t.yaml").exists()
