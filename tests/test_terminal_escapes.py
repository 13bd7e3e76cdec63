"""Terminal escape injection (issue 9, point 7): text from a file never reaches the terminal raw.

A player name or a comment holding ``ESC ] 0 ;`` (window title), ``ESC ] 52 ;`` (clipboard), ``ESC [ 2 J``
(clear screen), a C1 CSI (U+009B), a bidi override (U+202E) or Rich markup is shown escaped by every command
that prints it, and every error message stays on one line. JSON output keeps the exact values.

Every way in refuses a control character in a player name, so the commands are held to that refusal with such
a name, and to printing as text a name with Rich markup (allowed) and a comment with control characters
(allowed, shown escaped); the output edges themselves are held with the name set in the state afterwards.
"""

from __future__ import annotations

import io
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from lv import cli
import lv
from lv import narrative, record, render, session
from lv.printable import json_text, printable, printable_lines

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
# written independently of lv/printable.py: what must never reach a terminal raw (newline aside)
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")

NAME = "eve\x1b]0;PWNED\x07[bold]X[/bold]\u202e"
NAME_SHOWN = "eve\\x1b]0;PWNED\\x07[bold]X[/bold]\\u202e"
COMMENT = "\x1b[2Jcleared\x1b]52;c;aGk=\x07\nsecond \x9b31m line"
COMMENT_SHOWN = ["\\x1b[2Jcleared\\x1b]52;c;aGk=\\x07", "second \\x9b31m line"]


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli.app, list(args), input=input)


def safe(res, codes=(0,)):
    """The command ended with one of ``codes`` and printed nothing a terminal would act on."""
    assert res.exit_code in codes, (res.exit_code, res.stdout, res.stderr)
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    for stream in (res.stdout, res.stderr):
        assert not RAW.search(stream), RAW.search(stream)
    return res


def hostile_text(players: list[str], seed: int) -> str:
    """A game's record whose first player's name is ``NAME`` and whose comment is ``COMMENT``: made under
    placeholders (the API refuses such a name), then the placeholders replaced by YAML double-quoted escapes."""
    text = session.create(None, "revised", ["evename", *players], seed=seed, first_player="evename",
                          comment="commentplaceholder").text()
    assert "evename" in text and "commentplaceholder" in text
    return text.replace("evename", json.dumps(NAME)).replace("commentplaceholder", json.dumps(COMMENT))


@pytest.fixture()
def game_file(tmp_path):
    """A revised 3-player game, turn 1, whose first player's name is hostile (the loader refuses it)."""
    path = tmp_path / "g.yaml"
    path.write_text(hostile_text(["red", "blue"], 3), encoding="utf-8")
    return path


MARKUP = "[bold]X[/bold]"  # printable text: a name the loader takes, and Rich must show as written


@pytest.fixture()
def markup_file(tmp_path):
    """The same game with a Rich-markup name (allowed: no control character) and the hostile comment."""
    path = tmp_path / "m.yaml"
    text = hostile_text(["red", "blue"], 3).replace(json.dumps(NAME), json.dumps(MARKUP))
    path.write_text(text, encoding="utf-8")
    return path


# ---------------------------------------------------------------------------------------------- the helper


def test_printable_escapes_controls_bidi_and_separators_and_keeps_the_rest():
    assert printable("red\x1b[2J") == "red\\x1b[2J"
    assert printable("a\nb\rc\td") == "a\\nb\\rc\td"  # one line; a tab is harmless
    assert printable("\x00\x7f\x85\x9b") == "\\x00\\x7f\\x85\\x9b"
    assert printable("\u202etxt\u2066\u2028\u200f\ud800") == "\\u202etxt\\u2066\\u2028\\u200f\\ud800"
    assert printable("Zoë 日本 ♠ → ─ 🎲 C:\\x") == "Zoë 日本 ♠ → ─ 🎲 C:\\x"
    assert printable_lines("a\x1b\nb") == "a\\x1b\nb"


def test_json_text_escapes_what_json_dumps_leaves_raw_and_keeps_the_values():
    value = {"n": "a\x1b\x7f\x9b\u202e\u2028\ud800é"}
    text = json_text(json.dumps(value, ensure_ascii=False))
    assert text == '{"n": "a\\u001b\\u007f\\u009b\\u202e\\u2028\\ud800é"}'
    assert json.loads(text) == value


# ---------------------------------------------------------------------------------------------- each command


@pytest.mark.parametrize("args", [["replay"], ["replay", "--json"], ["show"], ["show", "--json"], ["legal"],
                                  ["legal", "--json"], ["move", "end"], ["diff", "--variant", "original"]])
def test_every_command_refuses_a_hostile_name_from_a_file_in_one_escaped_line(game_file, args):
    """The loader refuses a control character in a player name (issue 9 point 7), whatever the command: exit 2,
    one line naming the file and line, the name escaped; ``move`` leaves the file as it was."""
    before = game_file.read_bytes()
    res = safe(run(args[0], str(game_file), *args[1:]), codes=(2,))
    assert res.stderr == (f"lv: error: {game_file}:4: players: player name '{NAME_SHOWN}': control character "
                          f"U+001B is not allowed\n")
    assert res.stdout == "" and game_file.read_bytes() == before


def test_replay_shows_the_comment_escaped_and_markup_as_text(markup_file):
    out = safe(run("replay", str(markup_file))).stdout.splitlines()
    assert out[0] == f"{markup_file}: revised, 3 players ({MARKUP}, red, blue), seed 3"
    assert out[2:4] == COMMENT_SHOWN
    assert f"Turn 1 - {MARKUP} draws D8 (gold)" in out


def test_replay_json_keeps_the_exact_values(markup_file):
    data = json.loads(safe(run("replay", str(markup_file), "--json")).stdout)
    assert data["header"]["players"][0] == MARKUP and data["turns"][0]["player"] == MARKUP


def test_show_and_legal_print_markup_as_text(markup_file):
    out = safe(run("show", str(markup_file))).stdout.splitlines()
    assert out[0] == f"Turn 1 · {MARKUP} to play · drew D8 (pays gold)"
    assert any(line.startswith(f"▶  {MARKUP}  $16") for line in out)  # the players table
    out = safe(run("legal", str(markup_file))).stdout
    assert out.startswith(f"Turn 1 · {MARKUP} to play · drew D8 (pays gold) · $16\n")
    assert f"from red to {MARKUP}; lot C8 from {MARKUP} to red" in out
    assert json.loads(safe(run("legal", str(markup_file), "--json")).stdout)["player"] == MARKUP


def test_move_narrates_markup_as_text(markup_file):
    res = safe(run("move", str(markup_file), "end"))
    assert res.stdout.splitlines()[:4] == ["end", "Turn 2 - red draws B3 (purple)", "  red puts a marker on B3",
                                           f"  lots pay: {MARKUP} $3, red $3, blue $2"]
    assert res.stderr == f"lv: saved {markup_file}: Turn 2 · red to play · drew B3 (pays purple)\n"


def test_diff_prints_markup_as_text(markup_file):
    out = safe(run("diff", str(markup_file), "--variant", "original")).stdout.splitlines()
    assert out[0] == f"{markup_file}: revised (recorded) vs original, 3 players ({MARKUP}, red, blue)"


def test_move_refusal_of_hostile_text_is_one_escaped_line(tmp_path):
    game_file = tmp_path / "g.yaml"
    session.create(game_file, "revised", ["red", "blue", "green"], seed=3)
    res = safe(run("move", str(game_file), "build \x1b[2J\x1b]52;c;aGk=\x07 gold"), codes=(2,))
    first = res.stderr.splitlines()[0]
    assert first.startswith("lv: error: ") and "\\x1b[2J\\x1b]52;c;aGk=\\x07" in first
    res = safe(run("move", str(game_file), "--from", "-", input="end\nbuild \x1b[2J\u202e gold\n"), codes=(2,))
    assert "\\x1b[2J\\u202e" in res.stderr


@pytest.fixture()
def bad_record(tmp_path):
    """An example record whose first turn names a hostile, unknown player."""
    data = yaml.safe_load((EXAMPLES / "question-raise.yaml").read_text(encoding="utf-8"))
    data["turns"][0]["player"] = "\x1b[2J\x1b]0;PWNED\x07\nX"
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(data), encoding="utf-8")
    return bad


def test_check_escapes_the_file_message(bad_record):
    bad = bad_record
    res = safe(run("check", str(bad)), codes=(2,))
    fail = [line for line in res.stdout.splitlines() if line.startswith("FAIL")]
    assert len(fail) == 1 and "\\x1b[2J\\x1b]0;PWNED\\x07\\nX" in fail[0]


def test_an_error_message_from_a_file_is_one_escaped_line(bad_record):
    bad = bad_record
    for command in ("replay", "show", "legal"):
        res = safe(run(command, str(bad)), codes=(2,))
        assert len(res.stderr.splitlines()) == 1, res.stderr
        assert res.stderr.startswith(f"lv: error: {bad}:") and "\\x1b[2J\\x1b]0;PWNED\\x07\\nX" in res.stderr


def test_new_refuses_hostile_names_given_on_the_command_line_in_one_escaped_line(tmp_path):
    res = safe(run("new", "--players", f"{NAME},red", "--seed", "1", "--first", "red",
                   "-o", str(tmp_path / "n.yaml")), codes=(2,))
    assert res.stderr == f"lv: error: player name '{NAME_SHOWN}': control character U+001B is not allowed\n"
    assert not (tmp_path / "n.yaml").exists()


def test_variants_show_and_diff_escape_a_profile_file(tmp_path):
    prof = tmp_path / "evil.yaml"
    prof.write_text('name: evil\ntitle: "\\e]0;PWNED\\a[red]T[/red]"\nextends: revised\n'
                    'gamble:\n  lay_off: {value: boss_option, source: "\\e[2Jsays \\u202ewho\\nnext"}\n',
                    encoding="utf-8")
    out = safe(run("variants", "show", str(prof))).stdout
    assert out.splitlines()[0] == "\\x1b]0;PWNED\\x07[red]T[/red]  (evil)"
    assert "\\x1b[2Jsays \\u202ewho" in out
    data = json.loads(safe(run("variants", "show", str(prof), "--json")).stdout)
    assert data["title"] == "\x1b]0;PWNED\x07[red]T[/red]"
    out = safe(run("variants", "diff", "revised", str(prof))).stdout
    assert "\\x1b[2Jsays \\u202ewho" in out


def test_the_python_api_refuses_hostile_names_too():
    with pytest.raises(lv.RecordError, match="control character U\\+001B is not allowed"):
        lv.new_game("revised", [NAME, "red"], seed=1, first_player=NAME)


# ---------------------------------------------------------------------------------------------- the edges, any loader


@pytest.fixture()
def hostile_game():
    """A game whose first player has a hostile name: every way in refuses such a name, so it is set in the state
    afterwards, to hold the output edges to their own promise whatever reaches them."""
    game = lv.new_game("revised", ["evename", "red", "blue"], seed=3, first_player="evename")
    game.apply(lv.EndTurn())
    game.state.players[0].name = NAME
    return game


def test_an_svg_holds_no_control_character(hostile_game):
    root = ET.fromstring(render.svg(hostile_game))  # XML 1.0 cannot hold them: the picture parses
    assert any((t.text or "").startswith("eve\\x1b]0;PW") for t in root.iter("{http://www.w3.org/2000/svg}text"))
    assert any(e.get("data-player") == NAME_SHOWN for e in root.iter())


def test_the_terminal_board_escapes_names(hostile_game):
    from rich.console import Console

    console = Console(file=io.StringIO(), width=200, color_system="truecolor")
    console.print(render.show(hostile_game))
    out = console.file.getvalue()
    plain = re.sub("\x1b\\[[0-9;]*m", "", out)  # Rich's own colours are the only escapes
    assert not RAW.search(plain), RAW.search(plain)
    assert "\x1b]" not in out and NAME_SHOWN in plain
    assert f"=eve\\x1b]0;PWNED" in plain  # the dice legend
    assert "C8  [eve\\x1]" in plain  # a marker cell: the first 6 characters of the shown name


def test_the_narrative_printed_by_the_cli_is_escaped(hostile_game, capsys):
    cli._lines(narrative.narrate(hostile_game))
    cli.say(narrative.turn_lines(hostile_game.current_turn, hostile_game.player_names))
    cli.note(render.status_line(hostile_game))
    cli.error(f"unknown player '{NAME}'")
    out, err = capsys.readouterr()
    assert not RAW.search(out) and not RAW.search(err)
    assert f"Turn 1 - {NAME_SHOWN} draws" in out and "Turn 2 - red draws" in out
    assert err.splitlines() == ["Turn 2 · red to play · drew " + err.splitlines()[0].split("drew ")[1],
                                f"lv: error: unknown player '{NAME_SHOWN}'"]
