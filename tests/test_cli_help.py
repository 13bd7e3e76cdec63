"""``--help`` in people's words and shell completion (issue 20, point 6): every command's help names values by
words (FILE, SPEC, N, SEED), never by Python types; flags show no value; choices are listed; an option that may
be given again says so; completion offers profiles, bots and a game's legal decisions (lv/cliparams.py)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import typer.main
from typer.testing import CliRunner

from lv import cli, cliparams

ROOT = Path(__file__).resolve().parents[1]
# what Typer writes of a Python type: <bool>, <int range>, <list[str]>, {file} in the usage line, Optional[...]
PYTHON_WORDS = re.compile(r"<[a-z]|\blist\[|\b(?:str|int|bool|float|Optional|NoneType|typing)\b|[{}]")


def _commands(command: Any, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command path of the app: (), ("replay",), ("variants",), ("variants", "show"), ..."""
    found = [path]
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        found += _commands(sub, (*path, name))
    return found


COMMANDS = _commands(typer.main.get_command(cli.app))


def _help(*path: str, columns: int = 200) -> str:
    result = CliRunner().invoke(cli.app, [*path, "--help"], env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output
    return "\n".join(line.rstrip() for line in result.stdout.splitlines()) + "\n"


def test_every_command_is_walked():
    assert {("replay",), ("simulate",), ("move",), ("variants", "show")} <= set(COMMANDS)
    assert len(COMMANDS) >= 15


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "lv")
def test_help_names_no_python_type(path):
    text = _help(*path)
    assert PYTHON_WORDS.findall(text) == [], text


def test_the_pattern_catches_what_typer_writes():
    for typer_wrote in ("--json  <bool>", "--set <list[str]>", "lv replay [OPTIONS] {file}", "--until <int range>",
                        "FILE  str", "Optional[int]"):
        assert PYTHON_WORDS.search(typer_wrote), typer_wrote


def _row(text: str, option: str) -> str:
    """The help panel's row of an option, without the frame: '--seed SEED Seeds the run ...'."""
    (line,) = [ln for ln in text.splitlines() if re.match(rf"│\s+(\*\s+)?{re.escape(option)}(\s|$)", ln)]
    return " ".join(line.strip("│ *").split())


def test_values_are_words_flags_take_none_choices_are_listed():
    simulate = _help("simulate")
    assert _row(simulate, "--seed").startswith("--seed SEED Seeds the run")
    assert _row(simulate, "--games").startswith("--games -g N Games per profile")
    assert _row(simulate, "--json") == "--json Machine-readable output."
    assert _row(simulate, "--save-dir").startswith("--save-dir DIR ")
    replay = _help("replay")
    assert _row(replay, "--on-illegal").startswith("--on-illegal [skip|stop] ")
    assert _row(replay, "--until").startswith("--until TURN [1 or more] Stop after this turn.")
    assert "Usage: lv replay [OPTIONS] FILE\n" in replay
    assert "Usage: lv move [OPTIONS] FILE [DECISION]\n" in _help("move")
    assert "Usage: lv check [OPTIONS] FILE...\n" in _help("check")
    assert "Usage: lv variants diff [OPTIONS] SPEC_A SPEC_B\n" in _help("variants", "diff")


def test_an_option_has_one_short_form_everywhere():
    """``-v`` for --variant in lv simulate is ``-v`` in lv new too: a long option's short forms are the same in
    every command that has it."""
    forms: dict[str, set[tuple[tuple[str, ...], tuple[str, ...]]]] = {}
    root = typer.main.get_command(cli.app)
    for path in _commands(root):
        command = root
        for name in path:
            command = command.commands[name]  # type: ignore[attr-defined]
        for param in command.params:
            shorts = tuple(sorted(o for o in [*param.opts, *param.secondary_opts] if not o.startswith("--")))
            for option in param.opts:
                if option.startswith("--"):
                    forms.setdefault(option, set()).add((path, shorts))
    differing = {option: sorted(seen) for option, seen in forms.items() if len({s for _, s in seen}) > 1}
    assert differing == {}


def test_a_repeatable_option_says_so():
    new = _help("new")
    rows = {option: _help_of(new, option) for option in ("--tag", "--deal", "--rolls", "--players", "--seed")}
    assert [option for option, text in rows.items() if text.endswith("[may repeat]")] == ["--tag", "--deal", "--rolls"]


def _help_of(text: str, option: str) -> str:
    """An option's whole help (its row and the rows it wraps onto, up to the next option), on one line."""
    lines = text.splitlines()
    start = next(i for i, ln in enumerate(lines) if re.match(rf"│\s+(\*\s+)?{re.escape(option)}\s", ln))
    rows = [lines[start]]
    for ln in lines[start + 1:]:
        if re.match(r"│\s+(\*\s+)?-", ln) or not ln.startswith("│"):
            break
        rows.append(ln)
    return " ".join(" ".join(row.strip("│ *").split()) for row in rows)


def test_a_bad_choice_is_refused_in_one_line(tmp_path):
    result = CliRunner().invoke(cli.app, ["replay", str(ROOT / "examples" / "revised-4p.yaml"), "--on-illegal",
                                          "report"])
    assert result.exit_code == 2
    assert "'report' is not one of 'skip', 'stop'" in result.output


@pytest.mark.parametrize("command", [["explain"], ["variants", "diff"]])
def test_a_missing_second_spec_is_named(command):
    """Two arguments of one kind get two names, so the error says which is missing (not "SPEC" for both)."""
    result = CliRunner().invoke(cli.app, [*command, "revised"])
    assert result.exit_code == 2
    assert "Missing argument 'SPEC_B'" in result.output


# --------------------------------------------------------------------------- shell completion


def _complete(words: str) -> list[str]:
    """What bash completion offers for the command line ``words`` (the last word being typed)."""
    parts = words.split(" ")
    result = CliRunner().invoke(cli.app, [], prog_name="lv", env={
        "_LV_COMPLETE": "complete_bash", "COMP_WORDS": words, "COMP_CWORD": str(len(parts) - 1)})
    return result.stdout.split()


def test_completion_offers_profiles_overlays_and_variant_files(tmp_path, monkeypatch):
    assert cliparams.complete_profile(None, "rev") == ["revised"]
    assert cliparams.complete_profile(None, "original+") == ["original+f-block"]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "my-house.yaml").write_text("extends: revised\n")
    (tmp_path / "notes.txt").write_text("")
    assert cliparams.complete_profile(None, "my") == ["my-house.yaml"]
    assert "original" in cliparams.complete_profile(None, "") and "notes.txt" not in cliparams.complete_profile(None, "")
    assert _complete("lv simulate -v orig") == ["original"]
    (tmp_path / "house").mkdir()
    (tmp_path / "house" / "rules.yaml").write_text("extends: revised\n")
    for typed in ("house/", "house/r", "./my", f"{tmp_path}/house/"):  # a folder typed up to its '/', or "./"
        want = typed[:typed.rfind("/") + 1] + ("my-house.yaml" if typed.startswith("./") else "rules.yaml")
        assert cliparams.complete_profile(None, typed) == [want], typed
    assert _complete("lv variants show original+f") == ["original+f-block"]


def test_completion_offers_bots_one_per_player():
    assert cliparams.complete_bot(None, "gr") == ["greedy"]
    assert cliparams.complete_bot(None, "greedy,m") == ["greedy,mcts"]
    assert _complete("lv selfplay --bot random") == ["random", "random-kind"]


def test_completion_offers_the_games_legal_decisions(tmp_path):
    game = tmp_path / "g.yaml"
    made = CliRunner().invoke(cli.app, ["new", "--players", "red,blue", "--seed", "2", "--first", "red", "-o",
                                        str(game)])
    assert made.exit_code == 0, made.output
    from lv.session import legal_decisions, open_game

    legal = [d["notation"] for d in legal_decisions(open_game(game).game)]
    offered = cliparams.complete_decision(_Ctx(path=str(game)), "")
    assert offered == legal and "end" in offered
    assert cliparams.complete_decision(_Ctx(path=str(game)), "gamble") == [n for n in legal if n.startswith("gamble")]
    assert cliparams.complete_decision(_Ctx(path=str(tmp_path / "missing.yaml")), "") == []
    assert cliparams.complete_decision(_Ctx(path=None), "") == []
    assert _complete(f"lv move {game} en") == ["end"]


def test_completion_offers_a_choices_words():
    assert _complete("lv replay x.yaml --on-illegal s") == ["skip", "stop"]


class _Ctx:
    """What a completer reads of click's context: the parameters parsed so far."""

    def __init__(self, **params: Any):
        self.params = params


@pytest.fixture
def shell_found(monkeypatch):
    """The shell typer finds among lv's parent processes (shellingham), set by the test: the suite runs the same
    from bash, from a script under sh or detached from any shell (where the real detection finds sh, or none)."""
    import shellingham

    def found(name):
        def detect():
            if name is None:
                raise shellingham.ShellDetectionFailure()
            return name, f"/bin/{name}"
        monkeypatch.setattr(shellingham, "detect_shell", detect)
    return found


def test_show_completion_prints_the_script_and_writes_nothing(tmp_path, shell_found):
    """``lv --show-completion bash`` prints bash's script, whatever shell lv runs under (typer alone used the
    shell it detected: zsh's script from zsh, an error from sh); unlike --install-completion it writes nothing
    (HOME is a tmp folder all the same: with HOME unset, typer finds the real user's home and its ~/.bashrc)."""
    for parent in ("bash", "zsh", "sh", None):
        shell_found(parent)
        result = CliRunner().invoke(cli.app, ["--show-completion", "bash"], prog_name="lv", env={"HOME": str(tmp_path)})
        assert result.exit_code == 0, (parent, result.output)
        assert "_LV_COMPLETE=complete_bash" in result.stdout
        assert "complete -o default -F _lv_completion lv" in result.stdout
    assert list(tmp_path.iterdir()) == []


def test_completion_without_a_shell_named_takes_the_one_found(tmp_path, shell_found):
    """With no shell named, the one lv runs under; none that has a script is a one-line error naming the fix."""
    shell_found("zsh")
    result = CliRunner().invoke(cli.app, ["--show-completion"], prog_name="lv", env={"HOME": str(tmp_path)})
    assert result.exit_code == 0, result.output
    assert "compdef _lv_completion lv" in result.stdout and "complete_bash" not in result.stdout
    for parent, said in (("sh", "'sh' is not one of them"), (None, "none was found among lv's parent processes")):
        shell_found(parent)
        for option in ("--show-completion", "--install-completion"):
            result = CliRunner().invoke(cli.app, [option], prog_name="lv", env={"HOME": str(tmp_path)})
            assert result.exit_code == 2, (parent, option, result.output)
            assert result.stdout == ""
            assert result.stderr == (f"lv: error: {option}: completion is for bash, zsh, fish, powershell and {said};"
                                     f" name the shell, e.g. lv {option} bash\n")
    result = CliRunner().invoke(cli.app, ["--show-completion", "tcsh"], prog_name="lv", env={"HOME": str(tmp_path)})
    assert result.exit_code == 2 and "'tcsh' is not one of them" in result.stderr
    long = "x" * 300 + "\x1b[31m"  # a long name, and control characters at its end: clipped, then escaped
    result = CliRunner().invoke(cli.app, ["--show-completion", long], prog_name="lv", env={"HOME": str(tmp_path)})
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert "'xxxxxxxx" in result.stderr and "...xxx" in result.stderr and "\x1b" not in result.stderr
    assert len(result.stderr) < 200
    assert list(tmp_path.iterdir()) == []


def test_help_names_the_shell_the_completion_options_take():
    """``lv --help`` says the completion options take a shell's name (typer's own help: "the current shell")."""
    result = CliRunner().invoke(cli.app, ["--help"], prog_name="lv", env={"COLUMNS": "200"})
    assert result.exit_code == 0
    help_text = " ".join(result.stdout.split())
    for option in ("--install-completion", "--show-completion"):
        assert f"Example: lv {option} " in help_text
    assert "for the current shell" not in help_text


def test_install_completion_writes_only_under_home(tmp_path, shell_found):
    """--install-completion writes the script and a line that sources it under $HOME, and nowhere else the test
    can see (HOME is a tmp folder: never the real user's ~/.bashrc); the shell named, whatever lv runs under."""
    shell_found("sh")
    result = CliRunner().invoke(cli.app, ["--install-completion", "bash"], prog_name="lv", env={"HOME": str(tmp_path)})
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("bash completion installed in ")
    written = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.is_file())
    assert written == [".bash_completions/lv.sh", ".bashrc"]
    assert "_LV_COMPLETE=complete_bash" in (tmp_path / ".bash_completions" / "lv.sh").read_text()
    assert "source" in (tmp_path / ".bashrc").read_text()
