"""The ``lv`` command line: thin. It parses arguments, calls ``lv``, prints. Data goes to stdout (``--json`` for
machines), messages to stderr. Exit codes: 0 success, 1 a check failed, 2 bad input (one line, no traceback).
"""

from __future__ import annotations

import codecs
import contextlib
import functools
import inspect
import io
import json
import os
import re
import sys
from typing import TYPE_CHECKING, Any, Callable, Iterator, List, Literal, Optional, ParamSpec, TypeVar

import typer

import lv
from lv.cliparams import LvCommand, LvGroup
from lv.errors import LvError, clip
from lv.printable import json_text, printable, printable_lines

if TYPE_CHECKING:  # for annotations only: the command line imports the engine when a command runs
    from lv.record import Record
    from lv.session import MoveError, Played, Session

P = ParamSpec("P")
OnIllegal = Literal["skip", "stop"]  # a decision illegal under the profile: skipped, or the replay ends
R = TypeVar("R")

try:  # recent typer carries its own copy of click
    from typer._click import exceptions as click_errors
except ImportError:  # pragma: no cover - typer < 0.20 uses click itself
    from click import exceptions as click_errors  # type: ignore[no-redef]


class _OneLineUsageErrors(LvGroup):
    """Click's usage errors (``--seed x``, a missing argument) as one line ``lv: error: ...`` with exit code 2,
    like every other bad input, instead of a usage box of 4-6 lines."""

    def main(self, *args: Any, standalone_mode: bool = True, **kwargs: Any) -> Any:
        if not standalone_mode:
            # ignored [misc]: click's main also takes standalone_mode as its 4th positional parameter, and mypy
            # cannot tell that *args (argv and prog name, as click and typer pass them) stops before it
            return super().main(*args, standalone_mode=False, **kwargs)  # type: ignore[misc]
        argv = kwargs.get("args", args[0] if args else None)
        words = list(sys.argv[1:] if argv is None else argv)
        if words and words[0] in _COMPLETION_OPTIONS and (len(words) == 1 or len(words) == 2
                                                          and not words[1].startswith("-")):
            _completion(words[0], words[1] if len(words) == 2 else None)
        for word in words:
            # typer reads '٣' (Arabic-Indic three) as 3 for an int option; lv takes ASCII digits only
            if isinstance(word, str) and word.lstrip("+-").isdecimal() and not word.isascii():
                print(f"lv: error: {ascii(word)}: give numbers in ASCII digits 0-9", file=sys.stderr)
                sys.exit(2)
        try:
            code = super().main(*args, standalone_mode=False, **kwargs)  # type: ignore[misc]  # as above
        except click_errors.NoArgsIsHelpError as exc:  # 'lv' alone: the help, as before
            exc.show()
            sys.exit(exc.exit_code)
        except click_errors.UsageError as exc:
            path = exc.ctx.command_path if exc.ctx is not None else "lv"
            message = " ".join(exc.format_message().split()).rstrip(".")
            print(printable(f"lv: error: {message} (see '{path} --help')"), file=sys.stderr)
            sys.exit(2)
        except click_errors.ClickException as exc:
            print(printable(f"lv: error: {' '.join(exc.format_message().split())}"), file=sys.stderr)
            sys.exit(exc.exit_code)
        except typer.Abort:  # typer's own class (recent typer); click's, re-exported, before 0.20
            print("Aborted!", file=sys.stderr)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)

    def get_params(self, ctx: Any) -> list[Any]:
        """Typer's completion options, with help that names the optional shell (``main`` takes it: see
        ``_completion``); typer's own says "for the current shell" only."""
        params: list[Any] = super().get_params(ctx)
        for param in params:
            if param.name in _COMPLETION_HELP:
                param.help = _COMPLETION_HELP[param.name]
        return params


_COMPLETION_OPTIONS = ("--show-completion", "--install-completion")
_SHELLS = ("bash", "zsh", "fish", "powershell", "pwsh")  # the shells typer has a completion script for
_COMPLETION_HELP = {
    "install_completion": "Install completion for SHELL (bash, zsh, fish, powershell), or for the shell lv runs "
                          "in when none is named. Example: lv --install-completion bash",
    "show_completion": "Print the completion script for SHELL (bash, zsh, fish, powershell), or for the shell lv "
                       "runs in when none is named, to copy it or customize the installation. Example: lv "
                       "--show-completion zsh",
}


def _completion(option: str, shell: str | None) -> None:
    """``lv --show-completion [SHELL]`` and ``lv --install-completion [SHELL]``: typer's, but a shell named is the
    one used. (Typer, with shellingham installed, takes these options as flags and always uses the shell it
    detects among lv's parent processes: ``lv --show-completion bash`` run from zsh printed zsh's script, and run
    from a script under sh failed with "Shell sh not supported", exit 1.) Exits."""
    from typer import _completion_shared as shared

    if shell is None:
        shell = shared._get_shell_name()
    if shell not in _SHELLS:
        found = f"'{clip(shell, 40)}' is not one of them" if shell else "none was found among lv's parent processes"
        print(printable(f"lv: error: {option}: completion is for {', '.join(_SHELLS[:4])} and {found}; name the "
                        f"shell, e.g. lv {option} bash"), file=sys.stderr)
        sys.exit(2)
    if option == "--show-completion":
        print(shared.get_completion_script(prog_name="lv", complete_var="_LV_COMPLETE", shell=shell))
    else:
        name, path = shared.install(shell=shell, prog_name="lv", complete_var="_LV_COMPLETE")
        print(f"{name} completion installed in {path}")
        print("Completion will take effect once you restart the terminal")
    sys.exit(0)


app = typer.Typer(
    name="lv", cls=_OneLineUsageErrors, no_args_is_help=True, add_completion=True,
    pretty_exceptions_enable=False,
    help="Lords of Vegas rules engine: rule profiles, replay, diff, play and simulate.\n\n"
         "Example: lv variants show revised",
)
variants_app = typer.Typer(cls=LvGroup, no_args_is_help=True, help="Rule profiles: list, show, compare.")
app.add_typer(variants_app, name="variants")



_TRAILING_SPACES = re.compile(r" +((?:\x1b\[[0-9;]*m)*)(?=\n|$)")


class _LazyConsole:
    """A Rich console made on first use: Rich costs tens of milliseconds to import, and ``lv --help``, ``lv
    replay`` and every ``--json`` run never print through it."""

    def __init__(self, **options: Any) -> None:
        self._options = options
        self._console: Any = None

    def real(self) -> Any:
        """The rich Console itself (for what needs the object, such as a progress bar)."""
        if self._console is None:
            from rich.console import Console

            class _Console(Console):
                def on_broken_pipe(self) -> None:  # rich's own exits 1; lv stops as for any closed pipe (141)
                    self.quiet = True
                    raise _ReaderGone()

                def _render_buffer(self, buffer: Any) -> str:
                    # rich pads every line of a table to the table's width: 200 columns in a pipe, spaces that
                    # `grep ' $'`, diffs and editors trip over (issue 28.4). Dropped, style codes kept.
                    return _TRAILING_SPACES.sub(r"\1", super()._render_buffer(buffer))

            self._console = _Console(**{"width": _width(), **self._options})
        return self._console

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real(), name)


def _width(wide: bool = False) -> int:
    """The width tables and the board are laid out for: the terminal's (or $COLUMNS); 200 when output goes to a
    file or a pipe; no limit with --wide."""
    if wide:
        return 100_000
    columns = os.environ.get("COLUMNS", "")
    if columns.isascii() and columns.isdigit() and 0 < len(columns) < 6 and int(columns) > 0:
        return max(int(columns), MIN_COLUMNS)
    if sys.stdout.isatty():
        import shutil

        return max(shutil.get_terminal_size().columns, MIN_COLUMNS)
    return 200


# Narrower than this, lines are laid out for this width and the terminal wraps them: at COLUMNS=1 the help was 8
# empty lines, below 40 its examples were broken mid-word over lines ('lv move game.yaml --from moves.txt')
MIN_COLUMNS = 40


def _floor_columns() -> None:
    """Typer's help reads $COLUMNS (or the terminal's size) itself: a narrower width is raised to MIN_COLUMNS."""
    if _width() == MIN_COLUMNS:  # $COLUMNS or the terminal at MIN_COLUMNS or less
        os.environ["COLUMNS"] = str(MIN_COLUMNS)


out = _LazyConsole(soft_wrap=False, highlight=False)
err = _LazyConsole(stderr=True, highlight=False, width=None)
WIDE_HELP = "Print tables at full width, without folding them to the terminal's width."
QUIET_HELP = ("No progress on stderr (a bar on a terminal; piped or logged, a status line every few seconds, "
              "LV_PROGRESS_SECONDS).")


def _fit(wide: bool) -> None:
    """Lay out what ``out`` prints for the terminal's width, or at full width (--wide)."""
    out._options["width"] = _width(wide)
    out._console = None


def Table(*headers: Any, **options: Any) -> Any:  # noqa: N802 - stands for lv.tables.Table, imported late
    from lv.tables import Table as WholeTable

    return WholeTable(*headers, **options)


def Text(text: str = "", *args: Any, **options: Any) -> Any:  # noqa: N802 - rich.text.Text, imported late
    from rich.text import Text as RichText

    return RichText(text, *args, **options)


# ---- the output edges. Text for people passes through lv.printable: a name, comment or message from a file
# holding ESC sequences, other control characters or bidi overrides is shown escaped, never acted on by the
# terminal, and never read as Rich markup. JSON escapes them itself.


def say(lines: List[str], style: str = "") -> None:
    """Lines for people on stdout, each escaped."""
    out.print(Text("\n".join(map(printable, lines)), style))


def _lines(lines: List[str]) -> None:
    """Many lines for people on stdout (a replay, a diff), each escaped; plain text, no Rich."""
    sys.stdout.write("".join(printable(line) + "\n" for line in lines))


def note(message: str) -> None:
    """A message for people on stderr, on one line."""
    print(printable(message), file=sys.stderr)


def error(message: object) -> None:
    """An error message on stderr, on one line: ``lv: error: FILE:LINE: what is wrong``."""
    note(clip(f"lv: error: {message}"))


def emit_json(data: Any) -> None:
    # ensure_ascii where stdout cannot encode every character (PYTHONIOENCODING=ascii): \uXXXX, the same JSON
    text = json.dumps(data, indent=1, sort_keys=False, ensure_ascii=not _utf(sys.stdout))
    sys.stdout.write(json_text(text) + "\n")


def emit_file(text: str) -> None:
    """A file's text on stdout (a record, an SVG): UTF-8, as the file would be, whatever the terminal's encoding;
    written through an ASCII stdout's stand-ins, 'Zoë' would be saved as 'Zo?' (``lv selfplay > game.yaml``)."""
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None or _utf(sys.stdout):
        sys.stdout.write(text)
        return
    sys.stdout.flush()
    buffer.write(text.encode("utf-8"))


def _stdout_nowhere() -> None:
    """Standard output's descriptor pointed at /dev/null: what waits in its buffer, and Python's own last flush,
    go nowhere once lv has said why its output stopped (a closed pipe, a full disk)."""
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


class _ReaderGone(Exception):
    """The output's reader went away (``lv replay x --json | head``); not an OSError, so typer lets it through."""


def guarded(fn: Callable[P, R]) -> Callable[P, R]:
    """Bad input becomes one line on stderr and exit code 2, never a traceback."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        _fit(False)  # each command lays out for the terminal as it is now
        try:
            return fn(*args, **kwargs)
        except LvError as exc:
            error(exc)
            raise typer.Exit(2)
        except BrokenPipeError:  # the reader of the output went away: main() stops quietly (typer would say
            raise _ReaderGone() from None  # nothing but exit 1: it takes any EPIPE for its own)
        except OSError as exc:
            if exc.filename:
                error(f"{exc.filename}: {exc.strerror or exc}")
            elif exc is _StdoutFile.failed:  # printing failed, not the command's work: 'lv move g.yaml end
                #   >/dev/full' has saved the move, and 'No space left on device' alone sent users to repeat it
                error(f"standard output: {exc.strerror or exc}: what lv printed there is lost (a file the command "
                      "wrote, such as a game file's new decision, is written)")
                _stdout_nowhere()  # what waits in the buffer goes nowhere: one line
            else:
                error(f"{exc.strerror or exc}")
            raise typer.Exit(2)

    return wrapper


def _version(value: bool) -> None:
    if value:
        print(f"lv {lv.__version__} ({lv.build_name()})")
        raise typer.Exit()


@app.callback()
def _root(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                       help="Print the version and exit.")) -> None:
    pass


# ------------------------------------------------------------------------------------------ variants


@variants_app.command("list")
@guarded
def variants_list(as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
                  wide: bool = typer.Option(False, "--wide", help=WIDE_HELP)) -> None:
    """The shipped rule profiles and overlays.

    Example: lv variants list
    """
    _fit(wide)
    from lv.profile import profile_info

    rows = profile_info()
    if as_json:
        emit_json(rows)
        return
    table = Table("profile", "kind", "players", "title", box=None, pad_edge=False)
    for r in rows:
        table.add_row(*map(_fmt, (r["name"], "overlay" if r["overlay"] else "profile", r["players"], r["title"])))
    out.print(table)
    say(["", "Combine an overlay with a profile: 'original+f-block'; override a parameter: "
             "'revised,gamble.lay_off=boss_option'."])


@variants_app.command("show")
@guarded
def variants_show(spec: str = typer.Argument(..., help="Profile spec: NAME[+OVERLAY][,section.key=value...] or a .yaml file."),
                  as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
                  wide: bool = typer.Option(False, "--wide", help=WIDE_HELP)) -> None:
    """Every parameter of a profile, with the rulebook passage it comes from.

    Example: lv variants show revised      lv variants show original+f-block --json
    """
    _fit(wide)
    profile = lv.load_profile(spec)
    rows = lv.profile.describe_parameters(profile)
    if as_json:
        emit_json({"profile": profile.name, "title": profile.title,
                   "parameters": [{"key": k, "value": v, "source": s} for k, v, s in rows]})
        return
    say([f"{profile.title}  ({profile.name})"], style="bold")
    table = Table(box=None, pad_edge=False)
    table.add_column("parameter", no_wrap=True)  # a key is kept whole: it is what --set and overrides name
    table.add_column("value", max_width=max(12, out.width // 4))
    table.add_column("source")
    for key, value, source in rows:
        table.add_row(_fmt(key), _fmt(value), _fmt(source))
    out.print(table)


@variants_app.command("diff")
@guarded
def variants_diff(a: str = typer.Argument(..., help="First profile spec."),
                  b: str = typer.Argument(..., help="Second profile spec."),
                  as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
                  wide: bool = typer.Option(False, "--wide", help=WIDE_HELP)) -> None:
    """The rule-level differences between two profiles, with the rulebook citations of each side.

    Example: lv variants diff original revised
    """
    _fit(wide)
    pa, pb = lv.load_profile(a), lv.load_profile(b)
    # an action family's section that one side does not name is compared at its defaults (what its rules read)
    va, vb = pa.values(every=True), pb.values(every=True)
    unset = "not set: the default"
    rows = [{"key": k, a: va[k], b: vb[k], f"{a} source": pa.sources.get(k, "" if k in pa.values() else unset),
             f"{b} source": pb.sources.get(k, "" if k in pb.values() else unset)} for k in va if va[k] != vb[k]]
    if as_json:
        emit_json({"a": a, "b": b, "differences": [
            {"key": r["key"], "a": r[a], "b": r[b], "a_source": r[f"{a} source"], "b_source": r[f"{b} source"]}
            for r in rows]})
        return
    if not rows:
        say([f"{a} and {b} have the same parameters"])
        return
    table = Table(box=None, pad_edge=False)
    table.add_column("parameter", no_wrap=True)
    for side in (a, b):  # a value's words (twenty_minus_dice) and the spec stay whole: they are what --set takes
        whole = min(18, max(len(word) for text in [side, *(str(r[side]) for r in rows)] for word in text.split()))
        table.add_column(_fmt(side), min_width=whole, max_width=max(whole, 10, out.width // 6))
    table.add_column("citations")
    for r in rows:
        table.add_row(_fmt(r["key"]), _fmt(r[a]), _fmt(r[b]), _fmt(f"{a}: {r[f'{a} source']}\n{b}: {r[f'{b} source']}"))
    out.print(table)
    say(["", f"{len(rows)} parameter{'' if len(rows) == 1 else 's'} differ{'s' if len(rows) == 1 else ''}."])


# ------------------------------------------------------------------------------------------ records (replay, check, diff, selfplay)

def _record_name(output: str, option: str = "-o") -> None:
    """A record lv writes is named as ``lv check`` finds records (issue 28.5: ``lv new -o n.txt`` wrote a game
    that ``lv check`` then skipped)."""
    from lv.files import is_record_name

    if not is_record_name(output):
        raise LvError(f"{option} {output}: a game file ends in .yaml, .yml or .json (what lv check reads)")


@app.command("selfplay")
@guarded
def selfplay_cmd(
    variant: str = typer.Option("revised", "--variant", "-v", help="Profile spec, e.g. revised, original+f-block."),
    players: str = typer.Option("4", "--players", "-p", help="How many players (names from the profile's "
                                                             "colours) or their names: red,blue,green."),
    seed: int = typer.Option(0, "--seed", help="Seeds the deck, the starting roll, the dice and the bots."),
    bot: str = typer.Option("random-kind", "--bot", help="random-kind (a random kind of decision, then a random "
                                                         "one of it), uniform (any legal decision), random "
                                                         "(ends the turn a quarter of the time; random:0.3), "
                                                         "greedy (greedy:10 keeps $10), mcts (mcts:200 playouts "
                                                         "or mcts:0.5s per decision), value (the learned player; "
                                                         "value:FILE, a model of lv train), value-mcts (the search "
                                                         "judged by that model; value-mcts:100:FILE) or "
                                                         "MODULE:FUNCTION (your "
                                                         "own); one for all players or one per player, "
                                                         "comma-separated: mcts:100,greedy,greedy,greedy. No "
                                                         "built-in bot trades; every one answers the boss's "
                                                         "lay-off where the profile has it."),
    output: Optional[str] = typer.Option(None, "--output", "-o", help="Write the record here (.json for JSON); "
                                                                      "default: stdout."),
    as_json: bool = typer.Option(False, "--json", help="JSON instead of YAML."),
    tag: List[str] = typer.Option([], "--tag", help="A header tag KEY=VALUE, repeatable: event, site, date, "
                                                    "round or a tag of your own (--tag event='Club night' "
                                                    "--tag table=3)."),
    force: bool = typer.Option(False, "--force", help="Replace an existing file given by -o."),
) -> None:
    """Play a complete game between seeded bots and write its record.

    Example: lv selfplay --variant revised --players 4 --seed 7 -o game.yaml
    (a searching player against three greedy ones: --bot mcts:100,greedy,greedy,greedy)
    """
    from lv import bots, files, record
    from lv.files import NEW, write_atomic
    from lv.state import ending

    if output is not None and not os.path.isdir(output):
        _record_name(output)
    if output is not None and os.path.lexists(output) and not os.path.isdir(output) and not force:  # as lv new
        raise LvError(f"{output}: the file exists (use --force to replace it)")
    chosen = [bots.bot_named(b) for b in bots.split_specs(bot)]
    profile = lv.load_profile(variant)
    game = lv.new_game(profile, _players_arg(players), seed)
    n = len(game.player_names)
    if len(chosen) not in (1, n):
        raise LvError(f"--bot: give one bot for all players or one per player ({n}), not {len(chosen)}")
    bots.play(game, chosen * n if len(chosen) == 1 else chosen, seed)
    fmt = "json" if as_json or (output is not None and files.is_json(output)) else "yaml"
    made_by = f"made by: lv selfplay --variant {variant} --players {players} --seed {seed} --bot {bot}"
    text = record.dumps(record.record_of(game, variant, comment=made_by, tags=_tags_arg(tag)), fmt)
    if output is None:
        emit_file(text)
        return
    write_atomic(output, text, expect=None if force else NEW)
    r = game.result
    assert r is not None  # bots.play plays to the end
    decisions = sum(len([d for d in t.decisions if not isinstance(d.action, lv.EndTurn)]) for t in game.history)
    note(f"wrote {output}: {variant}, {len(game.player_names)} players, {game.state.turn} turns, {decisions} "
         f"decisions; {game.player_names[r.winner]} wins ({ending(r.reason)})")


@app.command("train")
@guarded
def train_cmd(
    variant: str = typer.Argument(..., help="Profile spec the model is for, e.g. revised, original+f-block."),
    output: str = typer.Option(..., "--output", "-o", help="The model file to write (JSON)."),
    players: int = typer.Option(4, "--players", "-p", help="Players in the self-play games."),
    games: int = typer.Option(2000, "--games", "-g", help="Self-play games per round."),
    rounds: int = typer.Option(1, "--rounds", help="Rounds of self-play: the first greedy, each later one with "
                                                   "the model of the round before in half the seats."),
    seed: int = typer.Option(0, "--seed", help="Seeds the self-play games."),
    as_json: bool = typer.Option(False, "--json", help="Print the model's summary as JSON."),
    force: bool = typer.Option(False, "--force", help="Replace an existing file given by -o."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help=QUIET_HELP),
) -> None:
    """Learn the evaluation of the 'value' player for one profile from self-play, and write it (needs numpy:
    pip install "lv\\[learn]"). Play it with --bot value:FILE; used under another profile it warns.

    Example: lv train revised -o revised.model && lv selfplay --bot value:revised.model,greedy,greedy,greedy
    """
    from lv import learn
    from lv.files import NEW, check_destination, write_atomic

    check_destination(output)  # a missing folder or a folder named: said now, not after the self-play
    if os.path.lexists(output) and not force:
        raise LvError(f"{output}: the file exists (use --force to replace it)")
    if games < 1 or rounds < 1:
        raise LvError(f"--games and --rounds must be at least 1 (got {games} and {rounds})")
    profile = lv.load_profile(variant)
    if not profile.players.min <= players <= profile.players.max:
        raise LvError(f"--players {players}: profile '{profile.label}' allows {profile.players.min} to "
                      f"{profile.players.max}")
    with _progress("train", games * rounds, "games", quiet) as advance:
        model = learn.train(profile, players, games, rounds, seed, progress=lambda _what, _done, _total: advance(1))
    write_atomic(output, json.dumps(model.to_dict(), indent=1) + "\n", expect=None if force else NEW)
    summary = {"output": output, "profile": model.profile, "profile_hash": model.profile_hash, "players": players,
               **model.info}
    if as_json:
        emit_json(summary)
        return
    note(f"wrote {output}: a value model for {model.profile} ({model.profile_hash}), {players} players, "
         f"{model.info['games']} self-play games, {model.info['rows']} positions, R^2 {model.info['r2']}, "
         f"{model.info['cpu_seconds']} CPU s")


@app.command("replay")
@guarded
def replay_cmd(
    file: str = typer.Argument(..., help="A game record (lv-game/1, YAML or JSON)."),
    variant: Optional[str] = typer.Option(None, "--variant", "-v", help="Replay under this profile spec instead "
                                                                        "of the recorded one."),
    until: Optional[int] = typer.Option(None, "--until", min=1, help="Stop after this turn."),
    on_illegal: OnIllegal = typer.Option("skip", "--on-illegal", help="Under another profile, a decision that became "
                                                                "illegal is skipped (skip) or ends the replay "
                                                                "(stop)."),
    as_json: bool = typer.Option(False, "--json", help="Everything as data, byte-identical on every run."),
) -> None:
    """Replay a record turn by turn, with the final standings and the result check.

    Draws, payouts, scores, decisions and bosses, turn by turn. Under the recorded profile the recorded result
    is checked (exit 1 if it does not match); under another (--variant) it lists what became illegal.

    Example: lv replay examples/revised-4p.yaml      lv replay g.yaml --variant original --until 12
    """
    from lv.narrative import replay_lines
    from lv.record import load_record
    from lv.replay import replay

    rep = replay(load_record(file), variant, on_illegal=on_illegal, until=until)
    if as_json:
        emit_json(rep.to_dict())
    else:
        _lines(replay_lines(rep))
    if rep.verified is False:
        note(f"lv: {file}: the recorded result does not match the replay")
        raise typer.Exit(1)


@app.command("check")
@guarded
def check_cmd(
    files: List[str] = typer.Argument(..., help="Record files or folders (searched recursively for "
                                                 ".yaml/.yml/.json files, in sorted order)."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help=QUIET_HELP),
) -> None:
    """Verify records under their own profiles: exit 1 if a recorded result does not verify, 2 if a record
    cannot be read or replayed (as 'lv replay' exits for the same file); every file is checked either way.

    Each must replay (legal decisions, the cards its deck gives) and give its recorded result.

    Example: lv check examples/*.yaml      lv check games/
    """
    from pathlib import Path

    from lv.files import is_record_name
    from lv.replay import check_file

    paths: list[str] = []
    for f in files:
        p = Path(f)
        try:
            is_dir, exists = p.is_dir(), p.exists()
        except OSError:  # e.g. a name too long: check_file reports it on the record's own FAIL line
            is_dir, exists = False, False
        if is_dir:
            paths += sorted(str(x) for x in p.rglob("*") if is_record_name(x) and x.is_file()
                            and not any(part.startswith(".") for part in x.relative_to(p).parts))
        elif not is_record_name(p) and exists:
            note(f"skip {f}: not a record (.yaml, .yml or .json)")
        else:
            paths.append(f)
    if not paths:
        raise LvError("no record files to check")
    results = []
    with _progress("check", len(paths), "records", quiet) as advance:
        for name in paths:
            results.append(check_file(name))
            advance(1)
    failed = [r for r in results if not r.ok]
    if as_json:
        emit_json({"checked": len(results), "failed": len(failed),
                   "files": [{"file": r.file, "ok": r.ok, "broken": r.broken, "message": r.message,
                              "turns": r.turns, "verified": r.verified} for r in results]})
    else:
        lines = []
        for r in results:
            if r.ok:
                lines.append(f"ok {r.file}: {r.message}")
            else:
                reason = r.message[len(r.file):].lstrip(":") if r.message.startswith(r.file) else " " + r.message
                lines.append(f"FAIL {r.file}:{reason}")
        _lines(lines + [f"{len(results)} records: {len(results) - len(failed)} ok, {len(failed)} failed"])
    if any(r.broken for r in failed):
        raise typer.Exit(2)
    if failed:
        raise typer.Exit(1)


@app.command("diff")
@guarded
def diff_cmd(
    file: str = typer.Argument(..., help="A game record (lv-game/1)."),
    variant: List[str] = typer.Option(..., "--variant", "-v", help="Profile spec; give it once (compared with "
                                                                   "the recorded profile) or twice (A, then B)."),
    on_illegal: OnIllegal = typer.Option("skip", "--on-illegal", help="A decision illegal under a profile is skipped "
                                                                "(skip) or ends that replay (stop)."),
    fail_on_divergence: bool = typer.Option(False, "--fail-on-divergence", help="Exit 1 if the games diverge."),
    html: Optional[str] = typer.Option(None, "--html", help="Also write the browser viewer of both replays side "
                                                            "by side to this file (as lv view --diff)."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
) -> None:
    """Replay one record under two profiles and show where and how the games differ.

    The first divergence, turn-by-turn differences in money, points and bosses, decisions that became illegal
    (the rule, what was done instead), dice that had to be generated, and the results side by side.

    Example: lv diff game.yaml --variant original      lv diff game.yaml -v original -v original+f-block
             lv diff game.yaml -v original --html diff.html
    """
    from lv.diff import diff_records
    from lv.record import load_record

    if len(variant) not in (1, 2):
        raise LvError(f"give --variant once (B, compared with the recorded profile) or twice (A and B), "
                      f"not {len(variant)} times")
    a, b = (None, variant[0]) if len(variant) == 1 else variant
    record = load_record(file)
    d = diff_records(record, a, b, on_illegal=on_illegal)
    if html is not None:
        _write_view(html, record, b, a, on_illegal)
    if as_json:
        emit_json(d.to_dict())
    else:
        _lines(d.lines())
    if fail_on_divergence and d.first is not None:
        raise typer.Exit(1)


@app.command("view")
@guarded
def view_cmd(
    file: str = typer.Argument(..., help="A game record (lv-game/1)."),
    output: str = typer.Option(..., "-o", "--output", help="The HTML file to write (one file, no server)."),
    diff: Optional[str] = typer.Option(None, "--diff", help="A second profile spec: both replays side by side, "
                                                            "with what differs."),
    variant: Optional[str] = typer.Option(None, "--variant", "-v", help="Replay under this profile spec instead of "
                                                                        "the recorded one."),
    on_illegal: OnIllegal = typer.Option("skip", "--on-illegal", help="Under another profile, a decision that became "
                                                                "illegal is skipped (skip) or ends that replay "
                                                                "(stop)."),
) -> None:
    """Write a replay viewer: one self-contained HTML page with the board after every decision, a move list
    (arrow keys: decision by decision), what happened and the standings; the address (#turn=12&d=3) follows.
    Open it in any browser; it fetches nothing.

    Example: lv view examples/revised-4p.yaml -o game.html      lv view game.yaml --diff original -o diff.html
    """
    from lv.record import load_record

    _write_view(output, load_record(file), diff, variant, on_illegal)


def _write_view(output: str, record: Record, other: Optional[str], profile: Optional[str], on_illegal: str) -> None:
    from lv import view
    from lv.files import write_atomic

    if not output.lower().endswith((".html", ".htm")):
        raise LvError(f"{output}: the viewer is an HTML page: give a file ending in .html")
    write_atomic(output, view.page(record, other, profile=profile, on_illegal=on_illegal))
    note(f"lv: wrote {output}")


# ------------------------------------------------------------------------------------------ play (new, show, render, move, legal)


def _open_game(path: str, turn: Optional[int] = None) -> Session:
    from lv import session

    opened = session.open_game(path, until=turn)
    last = opened.game.state.turn
    if turn is not None and turn > last:  # not the last board in silence (issue 9, point 12)
        raise LvError(f"{path}: --turn {turn}: the game has {last} turn{'s' if last != 1 else ''}")
    return opened


def _played_json(played: Played, names: List[str]) -> dict[str, Any]:
    from lv.events import TurnStarted
    from lv.replay import event_dict

    out: dict[str, Any] = {"turn": played.turn, "player": played.player, "decision": played.text,
           "events": [event_dict(e, names) for e in played.events if not isinstance(e, TurnStarted)]}
    if played.line is not None:
        out["line"] = played.line
    return out


def _refused(refusal: MoveError) -> None:
    """A refused decision: the reason on one line, then the nearest legal ones; exit code 2."""
    error(refusal)
    if refusal.nearest:
        note(f"legal now: {', '.join(refusal.nearest)}")


@app.command("new")
@guarded
def play_new(variant: str = typer.Option("revised", "--variant", "-v",
                                         help="Profile spec: NAME[+OVERLAY][,section.key=value...]."),
             players: str = typer.Option(..., "--players", "-p", help="Player names in seat order, comma separated "
                                                                 "(red,blue,green), or a count (3: the profile's "
                                                                 "colours)."),
             seed: Optional[int] = typer.Option(None, "--seed", help="Shuffle and dice seed (default: a fresh one, "
                                                                      "written to the file)."),
             first: Optional[str] = typer.Option(None, "--first", help="Who starts (default: the starting roll)."),
             output: str = typer.Option(..., "-o", "--output", help="The game file to create (.yaml or .json)."),
             force: bool = typer.Option(False, "--force", help="Overwrite an existing file."),
             tag: List[str] = typer.Option([], "--tag", help="A header tag KEY=VALUE, repeatable: event, site, "
                                                             "date, round or your own (--tag site=Essen)."),
             table: bool = typer.Option(False, "--table", help="Cards and dice come from a table: give the deal "
                                        "(--deal), who starts (--first or --rolls); every card is then named as "
                                        "it is drawn ('lv move game.yaml \"draw D5\"') and every die given (--dice)."),
             deal: List[str] = typer.Option([], "--deal", help="At a table: one player's dealt cards, PLAYER=LOT,LOT "
                                            "(repeat for each player), e.g. --deal red=A1,C4."),
             rolls: List[str] = typer.Option([], "--rolls", help="At a table: one round of the starting roll, "
                                             "PLAYER=D+D,... (repeat for a tie's reroll), e.g. --rolls red=3+5,blue=6+1."),
             stop_at_setup: bool = typer.Option(False, "--stop-at-setup", help="Stop after the deal, before the "
                                                "first draw: the first player is to draw ('lv move game.yaml draw')."),
             as_json: bool = typer.Option(False, "--json", help="Print the new game's state as JSON.")) -> None:
    """Create a game file: set up, the first player's card drawn and paid.

    Then 'lv move' advances it, 'lv show' and 'lv render' display it, 'lv replay' replays it. With --table or
    --stop-at-setup the game rests before each draw: 'lv move game.yaml draw' (or "draw D5") turns the card.

    Example: lv new --variant revised --players red,blue,green --seed 7 -o game.yaml
             lv new --players ann,bob -o g.yaml --tag event="Club night" --tag round=2
             lv new --table --players red,blue,green --deal red=A1,C4 --deal blue=B2,D3 --deal green=E1,F5 --rolls red=6+5,blue=2+2,green=3+1 -o game.yaml
    """
    import secrets

    from lv import narrative, render, session

    _record_name(output)
    if os.path.exists(output) and not force:
        raise LvError(f"{output}: the file exists (use --force to replace it)")
    if seed is None:
        seed = secrets.randbelow(1_000_000)
    if (deal or rolls) and not table:
        raise LvError("--deal and --rolls describe a table: add --table")
    s = session.create(output, variant, _players_arg(players), seed, first_player=first, tags=_tags_arg(tag),
                       overwrite=force, table=table, deal=_deal_arg(deal) if table else None,
                       starting_rolls=[_rolls_arg(r) for r in rolls] or None, stop_at_setup=stop_at_setup)
    game = s.game
    if as_json:
        emit_json(render.state_data(game))
    else:
        lines = narrative.setup_lines(game.setup_events, s.names) + [""]
        lines += narrative.turn_lines(game.current_turn, s.names)
        say(lines)
    note(f"lv: created {output}: {game.profile.title}, {len(s.names)} players, seed {seed}; "
         f"{s.player} to {'draw' if game.state.phase == 'draw' else 'play'}")


@app.command("show")
@guarded
def play_show(path: str = typer.Argument(..., help="A game file (lv-game/1)."),
              turn: Optional[int] = typer.Option(None, "--turn", min=1,
                                                 help="Show the board at the end of this turn."),
              as_json: bool = typer.Option(False, "--json", help="The state as data."),
              wide: bool = typer.Option(False, "--wide", help=WIDE_HELP)) -> None:
    """Whose turn it is and what was drawn, the players, the casinos and the board.

    Below 98 columns the board is drawn compact (one letter per casino colour).

    Example: lv show game.yaml      lv show game.yaml --turn 5 --json
    """
    from lv import render

    _fit(wide)
    game = _open_game(path, turn).game
    if as_json:
        emit_json(render.state_data(game))
        return
    out.print(render.show(game, width=out.width))


@app.command("render")
@guarded
def play_render(path: str = typer.Argument(..., help="A game file (lv-game/1)."),
                output: Optional[str] = typer.Option(None, "-o", "--output",
                                                     help="board.svg, board.html or board.png (PNG needs the "
                                                          "extra lv\\[png]; default: SVG to stdout)."),
                turn: Optional[int] = typer.Option(None, "--turn", min=1,
                                                   help="The board at the end of this turn.")) -> None:
    """The board as a picture: SVG, an HTML page with the player and casino tables, or PNG (with lv\\[png]).

    Example: lv render game.yaml -o board.svg      lv render examples/revised-4p.yaml -o board.html
             lv render game.yaml -o board.png
    """
    from lv import render
    from lv.files import write_atomic

    suffix = os.path.splitext(output or "")[1].lower()
    if output is not None and suffix not in (".svg", ".html", ".htm", ".png"):
        raise LvError(f"{output}: give a file ending in .svg, .html or .png (or no -o for SVG on stdout)")
    game = _open_game(path, turn).game
    if output is None:
        emit_file(render.svg(game))
        return
    pictures: dict[str, Callable[[Any], str | bytes]] = {".html": render.html, ".htm": render.html,
                                                          ".png": render.png, ".svg": render.svg}
    try:
        picture = pictures[suffix](game)
    except LvError as exc:  # a PNG without the extra that draws it
        raise LvError(f"{output}: {exc}") from None
    write_atomic(output, picture)
    note(f"lv: wrote {output}")


@app.command("move")
@guarded
def play_move(path: str = typer.Argument(..., help="The game file to advance."),
              decision: Optional[str] = typer.Argument(None, help="One decision, e.g. 'build A2 gold', 'gamble B3 4', "
                                                                  "'end', 'trade money 5 from red to blue; lot A2 "
                                                                  "from blue to red'."),
              dice: Optional[str] = typer.Option(None, "--dice", help="Dice rolled at the table, in order: a gamble's "
                                                 "two dice; a reorganize's new values in board order of the dice's "
                                                 "lots (a trade: each such step's, step by step); then one per tie "
                                                 "reroll (default: from the game's seed)."),
              from_file: Optional[str] = typer.Option(None, "--from", help="Decisions from a file, one per line "
                                                      "('-' = standard input); '#' comments and blank lines are "
                                                      "skipped; a line may end with --dice 3,5. Stops at the first "
                                                      "refused line: the decisions before it are kept and saved."),
              die_from: Optional[str] = typer.Option(None, "--die-from", help="Out of dice: the lot to take one from."),
              marker_from: Optional[str] = typer.Option(None, "--marker-from",
                                                        help="Out of markers: the lot to take one from."),
              as_json: bool = typer.Option(False, "--json", help="What happened, as data.")) -> None:
    """Validate and apply a decision of the player to move, then save the file atomically.

    'end' ends the turn and draws for the next player; at a table (lv new --table) or with --stop-at-setup the
    next player is then to draw: 'draw' (or "draw D5", the card turned over), and at a table the draw's tie dice
    and pieces to move come next ('reroll --dice 4,2', 'move marker A3'). A trade may be made by any players at
    any time: "trade money 2 from blue to green by blue, green". Where the profile lets a casino's boss lay off
    half a bet (the original rules), a gamble waits for its boss's answer: 'layoff' or 'no-layoff' (at a table with
    the gamble's dice, 'layoff --dice 3,5'). A refused decision exits with code 2, says why, lists
    the nearest legal decisions and leaves the file byte for byte as it was. With --from, the file is written
    once, at the end, with every decision before the first refused one.

    Example: lv move game.yaml "build D6 gold"       lv move game.yaml "gamble B3 5" --dice 3,5
             lv move game.yaml "draw D5"             lv move game.yaml "trade money 2 from blue to green by blue, green"
             lv move game.yaml --from moves.txt      echo end | lv move game.yaml --from -
             lv move game.yaml layoff
    """
    from lv.yamlsource import MAX_FILE_BYTES, decode, read_text

    if (decision is None) == (from_file is None):
        raise LvError("give one decision or --from FILE (not both)")
    for option, lot in (("--die-from", die_from), ("--marker-from", marker_from)):
        if lot is not None and not lot.strip():  # once accepted and ignored
            raise LvError(f"{option} {lot!r}: give the lot to take it from, e.g. {option} A3")
    lines: list[str] = []
    if from_file is not None:
        if dice is not None or die_from is not None or marker_from is not None:
            raise LvError("--dice/--die-from/--marker-from go with a single decision; in a --from file, end a "
                          "line with --dice 3,5")
        if from_file == "-":  # read before taking the lock: a slow pipe must not hold the game
            if sys.stdin is None:  # `lv move game.yaml --from - <&-`
                raise LvError("--from -: standard input is closed: give the decisions on it, or --from FILE")
            data = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
            if len(data) > MAX_FILE_BYTES:
                raise LvError(f"<stdin>: too large: lv reads files of at most {MAX_FILE_BYTES >> 20} MiB")
            lines = decode(data, "<stdin>").splitlines()
        else:
            lines = read_text(from_file).splitlines()
    # read, decide, then write under the folder lock only if the file still holds the bytes that were read: of two
    # moves made at once on one file, one is saved and the other is refused ("the game changed since you read
    # it"), never applied to a game its player has not seen
    _move(path, decision, lines, from_file, dice, die_from, marker_from, as_json)


def _move(path: str, decision: Optional[str], lines: List[str], from_file: Optional[str],
                 dice: Optional[str], die_from: Optional[str], marker_from: Optional[str], as_json: bool) -> None:
    from lv import session

    s = _open_game(path)
    names = s.names
    if from_file is not None:
        result = s.play_lines(lines, "<stdin>" if from_file == "-" else from_file)
        if result.played:
            s.save()
        if as_json:
            emit_json({"file": path, "played": [_played_json(p, names) for p in result.played],
                       "error": str(result.error) if result.error else None,
                       "turn": s.game.state.turn, "player": s.player, "over": s.game.over})
        else:
            for p in result.played:
                say(p.lines)
        if result.error is not None:
            _refused(result.error)
            kept = len(result.played)
            note(f"lv: {kept} decision{'s' if kept != 1 else ''} before it "
                 + (f"applied and saved to {path}" if kept else f"(none); {path} is unchanged"))
            raise typer.Exit(2)
        note(f"lv: {len(result.played)} decisions applied; saved {path}: {_whose(s)}")
        return
    choices = {k: v.upper() for k, v in (("die_from", die_from), ("marker_from", marker_from)) if v}
    try:
        played = s.play(decision, session.parse_dice(dice) if dice is not None else None, choices or None)
    except session.MoveError as refusal:
        _refused(refusal)
        raise typer.Exit(2)
    s.save()
    if as_json:
        emit_json(dict(_played_json(played, names), file=path, over=s.game.over, next_turn=s.game.state.turn,
                       next_player=s.player))
    else:
        say(played.lines)
    note(f"lv: saved {path}: {_whose(s)}")


def _whose(s: Session) -> str:
    from lv import render

    return render.status_line(s.game)


@app.command("legal")
@guarded
def play_legal(path: str = typer.Argument(..., help="A game file (lv-game/1)."),
               as_json: bool = typer.Option(False, "--json", help="Machine-readable output.")) -> None:
    """The legal decisions of the player to move, in the notation 'lv move' takes, grouped by action.

    With --json, one object per decision, all of one form: notation (what 'lv move' takes), kind, cost, the lot
    and colour, and for a gamble the bet range min..max (see docs/cli.md).

    Example: lv legal game.yaml      lv legal game.yaml --json
    """
    from lv import session

    s = _open_game(path)
    game = s.game
    if as_json:
        emit_json({"turn": game.state.turn, "player": s.player, "over": game.over,
                   "money": game.state.players[game.to_move].money,
                   "decisions": session.legal_decisions(game) if not game.over else []})
        return
    from lv import render

    say([render.status_line(game) + (f" · ${game.state.players[game.to_move].money}" if not game.over else "")])
    if game.over:
        return
    for verb, items in session.legal_text(game).items():
        if items:
            say([f"{verb} ({len(items)}):", *_wrap(items, min(110, out.width))])
    if game.state.phase in ("reroll", "choice", "lay_off"):  # a draw or a gamble waits: no trade may start meanwhile
        return
    other = s.names[(game.state.current + 1) % len(s.names)]
    lot = next(iter(sorted(game.state.markers_on_board(game.state.current))), "A2")
    say([f"trade: any exchange between players, e.g. 'trade money 5 from {other} to {s.player}; "
         f"lot {lot} from {s.player} to {other}'"], style="dim")


def _wrap(items: List[str], width: int = 110) -> List[str]:
    lines, line = [], "  "
    for item in items:
        piece = item + ", "
        if len(line) + len(piece) > width and line.strip():
            lines.append(line.rstrip())
            line = "  "
        line += piece
    lines.append(line.rstrip().rstrip(","))
    return lines


# ------------------------------------------------------------------------------------------ simulate


CLUSTER_HELP = ("'dask': play on a Dask cluster (extra lv\\[dask]): a local one speaking TLS with credentials made "
                "for the run, unless --scheduler.")
SCHEDULER_HELP = ("With --cluster dask: the address of a running scheduler. tls://HOST:PORT takes its CA, "
                  "certificate and key from Dask's config (distributed.comm.tls.ca-file, .client.cert, .client.key; "
                  "or DASK_DISTRIBUTED__COMM__TLS__* variables); tcp://HOST:PORT has no authentication: anyone who "
                  "reaches it runs code on its workers (docs/simulation.md).")


def _check_run_options(as_json: bool, as_csv: bool, wide: bool, cluster: str | None, scheduler: str | None) -> None:
    """The options lv simulate and lv explain share, checked before any game: one output format, the width,
    the cluster."""
    if as_json and as_csv:
        raise LvError("--json and --csv: choose one")
    _fit(wide)
    if cluster not in (None, "dask"):
        raise LvError(f"--cluster {cluster}: the one cluster lv knows is 'dask'")
    if scheduler and not cluster:
        raise LvError("--scheduler: give --cluster dask with it")


@app.command("simulate")
@guarded
def simulate_cmd(
    variant: List[str] = typer.Option(..., "--variant", "-v", help="A profile spec; repeat to compare "
                                                                   "(differences are against the first)."),
    players: int = typer.Option(4, "--players", "-p", help="Players per game."),
    games: int = typer.Option(100, "--games", "-g", help="Games per profile (paired: game i shares its seed)."),
    seed: int = typer.Option(0, "--seed", help="Seeds the run: game i has seed SEED*1000000+i."),
    bot: str = typer.Option("greedy", "--bot", help="One bot for all players or one per player, comma-separated: "
                                                    "greedy, random[:END_BIAS], uniform, random-kind, "
                                                    "mcts[:PLAYOUTS or :SECONDSs], value[:MODEL], "
                                                    "value-mcts[:N[:MODEL]] or MODULE:FUNCTION (your "
                                                    "own, docs/simulation.md); any of them restricted with "
                                                    "/no-KIND[,KIND...] (greedy/no-gamble). None of the built-in "
                                                    "bots trades; greedy never remodels either (nor takes a "
                                                    "house rule's action); every one answers the boss's lay-off "
                                                    "where the profile has it."),
    workers: int = typer.Option(0, "--workers", "-w", help="Processes to play in (or local Dask workers); 0 = "
                                                           "one per CPU; capped at the CPUs unless --force-workers "
                                                           "(the results are the same for any number)."),
    setting: Optional[List[str]] = typer.Option(None, "--set", help="Sweep a parameter over values: "
                                                                    "raise.cost_per_space=10,15,20; several --set "
                                                                    "make every combination, a row each."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
    as_csv: bool = typer.Option(False, "--csv", help="CSV output: profile, metric, mean, low, high, n."),
    wide: bool = typer.Option(False, "--wide", help=WIDE_HELP),
    save_dir: Optional[str] = typer.Option(None, "--save-dir", help="Save every game as an lv-game/1 record in "
                                                                     "DIR/PROFILE/game-NNNNN.yaml."),
    force_workers: bool = typer.Option(False, "--force-workers", help="Start --workers processes even when "
                                                                      "there are more than CPUs."),
    force: bool = typer.Option(False, "--force", help="Replace the games of an earlier run in --save-dir."),
    force_grid: bool = typer.Option(False, "--force-grid", help="Play a --set grid of more than 1,000 profiles."),
    games_out: Optional[str] = typer.Option(None, "--games-out", help="Write a row per game and profile to FILE: "
                                                                      ".csv, .jsonl or .parquet (extra lv\\[parquet])."),
    plot: Optional[str] = typer.Option(None, "--plot", help="Draw the results as PNG and SVG files in DIR "
                                                            "(extra lv\\[plot])."),
    cluster: Optional[str] = typer.Option(None, "--cluster", help=CLUSTER_HELP),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help=SCHEDULER_HELP),
    batch: Optional[int] = typer.Option(None, "--batch", help="Games per task, each played under every profile. "
                                                              "Default: 200 on Dask; otherwise at most 200, and "
                                                              "fewer when a run is small for its workers."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help=QUIET_HELP),
) -> None:
    """Paired self-play under several rule profiles: metrics with 95% confidence intervals and the paired
    differences (see docs/simulation.md).

    Example: lv simulate --variant original --variant revised --players 4 --games 2000 --seed 1 --workers 2
    lv simulate -v revised --set raise.cost_per_space=10,15,20 --set gamble.per_turn=1,2 --games 500
    lv simulate -v original -v revised --games 200 --seed 1 --games-out games.parquet --plot plots/
    lv simulate -v original -v revised --games 200 --seed 1 --cluster dask --json
    """

    from lv import gamerows, simulate
    from lv.bots import split_specs

    _check_run_options(as_json, as_csv, wide, cluster, scheduler)
    sweep = simulate.grid(variant, setting, None if force_grid else simulate.MAX_GRID)
    profiles = sweep.labels()
    bots = simulate.check_run(profiles, players, games, split_specs(bot))
    for line in simulate.unread_warnings(sweep, players):
        note(f"lv: warning: {line}")
    # a swept value whose games are all the same as the first value's: warned of after the run
    unchanged = simulate.Unchanged(sweep) if sweep.keys else None
    if games_out:
        gamerows.check_target(games_out)
    if plot:
        from lv import plots

        plots.check_available(plot)
    workers = _workers(workers, force_workers)
    writer, on_game = gamerows.writer_for(games_out, sweep.profiles if sweep.keys else None) if games_out \
        else (None, None)
    client = None
    try:
        client = simulate.dask_client(scheduler, workers) if cluster else None
        with _progress("simulate", games * len(profiles), "games", quiet) as advance:
            agg = simulate.play(profiles, players, games, seed, bots, workers, save_dir,
                                progress=advance, on_game=on_game, batch=batch, client=client, overwrite=force,
                                unchanged=unchanged)
    except BaseException:
        if writer:
            writer.abort()
        raise
    finally:
        if client is not None:
            _close_dask(client, scheduler)
    if writer:
        writer.close()
    for line in unchanged.warnings() if unchanged else []:
        note(f"lv: warning: {line}")
    result = simulate.report(agg, seed, bots, sweep=sweep)
    if plot:
        files = plots.draw(result, agg, plot)
        note(f"lv: {len(files)} plots in {plot}")
    if as_json:
        emit_json(result)
        return
    if as_csv:
        gamerows.write_csv(sys.stdout, simulate.csv_rows(result))
        return
    header, rows = simulate.sweep_rows(result) if sweep.keys else simulate.comparison_rows(result)
    keep = [i for i, name in enumerate(header) if i == 0 or name in sweep.keys or name == "variant"]
    blocks = _column_blocks(header, rows, keep, out.width)
    if blocks is None:  # not even one interval beside the kept columns: one row per profile and metric
        header, rows, keep = _long_form(header, rows, keep)
        blocks = [list(range(len(header)))]
    for n, block in enumerate(blocks):
        table = Table(box=None, pad_edge=False)
        for i in block:  # every cell whole: an interval split over two lines reads as two numbers
            table.add_column(header[i], no_wrap=True, min_width=len(header[i]))
        for row in rows:
            table.add_row(*(_fmt(row[i]) for i in block))
        if n:
            out.print()
        console, width = out.real(), out.width
        console.width = max(width, sum(_cell_width(header, rows, i) + 2 for i in block))  # wider than cut short
        try:
            out.print(table)
        finally:
            console.width = width
    line = (f"{games} paired games per profile, {players} players, seed {seed}, bots {','.join(result['bots'])}; "
            "mean [95% interval]")
    if err.is_terminal:
        err.print(printable(line), markup=False)  # folded to the terminal's width, between words
    else:
        note(line)  # piped or logged: one line, as every other message


@contextlib.contextmanager
def _progress(what: str, total: int, unit: str, quiet: bool) -> Iterator[Callable[[int], None]]:
    """Life shown while long work runs, on stderr: a progress bar on a terminal; piped or logged, a status line
    every few seconds (lv.progress); nothing with --quiet. Yields ``advance(k)``: k more done."""
    if quiet:
        yield lambda k: None
        return
    from lv import progress

    ticks = progress.counters()  # the games tick it as they end (and a searched player at each decision)
    try:
        if err.is_terminal:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            with Progress(TextColumn(what), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                          console=err.real(), transient=True) as bar:
                task = bar.add_task(unit, total=total)
                # the bar moves with the games as they end, between batches too: the status lines' thread, each
                # second, sets it instead of writing a line
                lines = progress.StatusLines(what, total, unit, lambda line: None, interval=1.0, first=1.0,
                                             ticks=ticks)
                lines.write = lambda line: bar.update(task, completed=lines.games_done())
                lines.start()

                def advance(k: int) -> None:
                    lines.advance(k)
                    bar.update(task, completed=lines.games_done())
                try:
                    yield advance
                finally:
                    lines.close()
            return
        status = progress.StatusLines(what, total, unit, note, ticks=ticks, first=progress.first_from_env()).start()
        try:
            yield status.advance
        finally:
            status.close()
    finally:
        progress.share(None)


@app.command("explain")
@guarded
def explain_cmd(
    a: str = typer.Argument(..., help="Profile spec A (the rules from)."),
    b: str = typer.Argument(..., help="Profile spec B (the rules to)."),
    players: str = typer.Option("4", "--players", "-p", help="Players per game, or several side by side: 2,4 "
                                                            "(each count a section and a column)."),
    games: int = typer.Option(100, "--games", "-g", help="Paired games under every profile played."),
    seed: int = typer.Option(0, "--seed", help="Seeds the run: game i has seed SEED*1000000+i."),
    bot: Optional[List[str]] = typer.Option(None, "--bot", help="One bot for all players or one per player, as lv "
                                            "simulate (greedy, random, mcts[:PLAYOUTS], MODULE:FUNCTION, ...); "
                                            "repeat for several line-ups side by side. Default greedy."),
    metric: Optional[List[str]] = typer.Option(None, "--metric", "-m", help="Rank the changes by this metric "
                                               "(repeat for more tables); default winner_score, winner_margin, "
                                               "casinos_built, decisions, advantage_p1, winner_money."),
    group: Optional[List[str]] = typer.Option(None, "--group", help="Parameters to move as one change, "
                                              "comma-separated (repeatable): raise.enabled,sprawl.riser_cost."),
    each_parameter: bool = typer.Option(False, "--each-parameter", help="One change per parameter instead of "
                                                                        "one per rulebook point."),
    permutations: int = typer.Option(16, "--permutations", help="Orders sampled for the Shapley shares beyond "
                                                                "--exact-up-to changes; 0: no shares."),
    exact_up_to: int = typer.Option(8, "--exact-up-to", help="Exact Shapley shares (all 2^k subsets played) up "
                                                             "to this many changes."),
    examples: Optional[str] = typer.Option(None, "--examples", help="Save, per change, the first pair of games it "
                                                                    "changed as records in DIR (for lv diff, "
                                                                    "lv view --diff)."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
    as_csv: bool = typer.Option(False, "--csv", help="CSV output: change, effect, metric, mean, low, high, n."),
    plot: Optional[str] = typer.Option(None, "--plot", help="Draw a forest plot and a waterfall per ranked metric "
                                                            "in DIR (extra lv\\[plot])."),
    html: Optional[str] = typer.Option(None, "--html", help="Write the report as one self-contained HTML page."),
    games_out: Optional[str] = typer.Option(None, "--games-out", help="Write a row per game and profile to FILE "
                                            "(.csv, .jsonl, .parquet), as lv simulate --games-out, with the "
                                            "player count, the line-up and the changes made."),
    force: bool = typer.Option(False, "--force", help="Play a run past the budget of 1,000 profiles per player "
                                                      "count and line-up, and replace the example games of an "
                                                      "earlier run in --examples."),
    wide: bool = typer.Option(False, "--wide", help=WIDE_HELP),
    workers: int = typer.Option(0, "--workers", "-w", help="Processes to play in (or local Dask workers); 0 = "
                                                           "one per CPU (the results are the same for any number)."),
    force_workers: bool = typer.Option(False, "--force-workers", help="Start --workers processes even when "
                                                                      "there are more than CPUs."),
    cluster: Optional[str] = typer.Option(None, "--cluster", help=CLUSTER_HELP),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help=SCHEDULER_HELP),
    batch: Optional[int] = typer.Option(None, "--batch", help="Games per task, each played under every profile. "
                                                     "Default: 25 on Dask; otherwise at most 25 (about 200 games a "
                                                     "task over the profiles), and fewer when a run is small for "
                                                     "its workers."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help=QUIET_HELP),
) -> None:
    """Which rule does what: the difference between two profiles taken apart into changes (one per rulebook
    point), each measured over paired games: its effect alone (A + change vs A) and removed (B vs B - change),
    its Shapley share of the whole difference, and whether it changed any game at all (see docs/simulation.md).

    Example: lv explain original revised --players 2,4 --games 200 --html report.html
    lv explain original revised --games 200 --metric winner_money --examples pairs/ --games-out games.csv
    lv explain original revised --bot greedy --bot mcts:50,greedy,greedy,greedy --games 100
    lv explain revised revised,gamble.bet_per_tile=4 --games 100 --json
    """
    from lv import explain, gamerows, simulate
    from lv.bots import split_specs

    _check_run_options(as_json, as_csv, wide, cluster, scheduler)
    if html is not None and not html.lower().endswith((".html", ".htm")):
        raise LvError(f"--html {html}: the report is an HTML page: give a file ending in .html")
    counts = _player_counts(players)
    lineups = [split_specs(line) for line in bot or ["greedy"]]
    if any(not line for line in lineups):
        raise LvError("--bot: give a bot name (greedy, random, mcts[:PLAYOUTS], ...)")
    groups = [g.split(",") for g in group or []]
    for spec in (a, b):  # before anything is sized by the count (a seat's metrics, the cost)
        allowed = lv.load_profile(spec).players
        for n in counts:
            if not allowed.min <= n <= allowed.max:
                raise LvError(f"--players {n}: profile '{spec}' allows {allowed.min} to {allowed.max}")
    metrics = metric or list(explain.DEFAULT_METRICS)
    for spec in (a, b):  # before the metrics' check, which lists a seat metric per player
        allowed = simulate._profile(spec).players
        for n in counts:
            if not allowed.min <= n <= allowed.max:
                raise LvError(f"--players {n}: profile '{spec}' allows {allowed.min} to {allowed.max}")
    for n in counts:
        explain.check_metrics(metrics, n)
    if plot:
        from lv import plots

        plots.check_available(plot)
    _check_outputs(examples, html, force)
    if games_out:
        gamerows.check_target(games_out)
    # the cost first, before any planning: a plan of 2^20 profiles is refused here, not built
    cost = explain.cost(a, b, games, len(counts) * len(lineups), groups, each_parameter, permutations, exact_up_to,
                        seed)
    if cost["profiles"] > explain.MAX_PROFILES and not force:
        raise LvError(f"{cost['note']}: past the budget of {explain.MAX_PROFILES:,} profiles per player count and "
                      f"line-up; give --force to play them, or fewer --permutations or --exact-up-to")
    note(f"lv: {cost['note']}")
    the_plan = explain.plan(a, b, groups, each_parameter, permutations, exact_up_to, seed)
    labels = list(the_plan.labels.values())
    for n in counts:
        seen: dict[tuple[str, ...], str] = {}
        for text, line in zip(bot or ["greedy"], lineups):
            played = tuple(simulate.check_run(labels, n, games, line))
            if played in seen:
                raise LvError(f"--bot {text}: the same line-up as --bot {seen[played]} at {n} players; give each "
                              f"line-up once")
            seen[played] = text
    if the_plan.method == "sampled":
        note(f"lv: {explain.cost_note(the_plan, games)['note']}")
    workers = _workers(workers, force_workers)
    writer = gamerows.RowWriter(games_out) if games_out else None
    names = {mask: "+".join(c.name for i, c in enumerate(the_plan.changes) if mask >> i & 1) or "(none)"
             for mask in the_plan.labels}
    masks = list(the_plan.labels)
    widest = max(counts)

    def on_game(n: int, bots: List[str], summaries: List[dict[str, Any]]) -> None:
        assert writer is not None
        writer.write([explain.game_row(s, n, bots, names[mask], widest) for mask, s in zip(masks, summaries)])

    client = None
    try:
        client = simulate.dask_client(scheduler, workers) if cluster else None
        with _progress("explain", games * len(labels) * len(counts) * len(lineups), "games", quiet) as advance:
            result = explain.report(a, b, counts, lineups, games, seed, workers, client, metrics=metrics,
                                    progress=advance, batch=batch, the_plan=the_plan,
                                    on_game=on_game if writer else None)
    except BaseException:
        if writer:
            writer.abort()
        raise
    finally:
        if client is not None:
            _close_dask(client, scheduler)
    if writer:
        writer.close()
        note(f"lv: wrote {games_out}")
    runs = result["runs"]
    if examples:
        saved = []
        for run in runs:
            where = examples if len(runs) == 1 else os.path.join(examples, simulate.slug(explain.run_title(run)))
            if len(runs) > 1:
                from lv.files import make_folder

                make_folder(examples)
            saved += explain.save_examples(run, where)
            if html is not None:
                explain.write_example_pages(run)
        note(f"lv: {len(saved)} example pair{'' if len(saved) == 1 else 's'} in {examples}" if saved else
             f"lv: no example pairs in {examples}: no change changed a game")
    if plot:
        files = []
        for run in runs:
            files += plots.draw_explain(run, plot if len(runs) == 1 else
                                        os.path.join(plot, simulate.slug(explain.run_title(run))))
        note(f"lv: {len(files)} plots in {plot}")
    if html is not None:
        from lv.files import write_atomic

        write_atomic(html, explain.html_page(result, html))
        note(f"lv: wrote {html}")
    if as_json:
        emit_json(result)
    elif as_csv:
        gamerows.write_csv(sys.stdout, explain.csv_rows(result))
    else:
        _lines(explain.lines(result, out.width if wide else min(out.width, 100)))


# ------------------------------------------------------------------------------------------ ladder

LADDER_BOTS_HELP = ("Two or more bots, each a spec: greedy, random[:END_BIAS], uniform, random-kind, "
                    "mcts[:PLAYOUTS or :SECONDSs], value[:MODEL] (the learned player), value-mcts[:N[:MODEL]] "
                    "(the search judged by that model), MODULE:FUNCTION (your own), any of them restricted with "
                    "/no-KIND[,KIND...] (greedy/no-gamble). None of the built-in bots trades; greedy never "
                    "remodels either (nor takes a house rule's action): see docs/simulation.md.")


@app.command("ladder")
@guarded
def ladder_cmd(
    bot: List[str] = typer.Argument(..., metavar="BOT BOT [BOT...]", help=LADDER_BOTS_HELP, show_default=False),
    variant: str = typer.Option("revised", "--variant", "-v", help="The profile spec every game is played under."),
    players: int = typer.Option(4, "--players", "-p", help="Players per game."),
    games: int = typer.Option(100, "--games", "-g", help="Games in all: played as deals of one game per seat "
                                                         "rotation (rounded up to a multiple of --players)."),
    seed: int = typer.Option(0, "--seed", help="Seeds the run: deal d has seed SEED*1000000+d."),
    workers: int = typer.Option(0, "--workers", "-w", help="Processes to play in (or local Dask workers); 0 = "
                                                           "one per CPU; capped at the CPUs unless --force-workers "
                                                           "(the results are the same for any number)."),
    resamples: int = typer.Option(200, "--resamples", help="Bootstrap resamples of the deals for the ratings' "
                                                           "interval; 0: the model's mean +- 1.96 sigma."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
    as_csv: bool = typer.Option(False, "--csv", help="CSV output: section, bot, other, metric, value, low, high, n."),
    wide: bool = typer.Option(False, "--wide", help=WIDE_HELP),
    plot: Optional[str] = typer.Option(None, "--plot", help="Draw the ratings and the pairs as PNG and SVG files "
                                                            "in DIR (extra lv\\[plot])."),
    force_workers: bool = typer.Option(False, "--force-workers", help="Start --workers processes even when "
                                                                      "there are more than CPUs."),
    cluster: Optional[str] = typer.Option(None, "--cluster", help=CLUSTER_HELP),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help=SCHEDULER_HELP),
    batch: Optional[int] = typer.Option(None, "--batch", help="Games per task (whole deals). Default: 200 on "
                                                              "Dask; otherwise at most 200, fewer when a run is "
                                                              "small for its workers."),
    journal: Optional[str] = typer.Option(None, "--journal", metavar="FILE", help="Keep each game's result in "
                                          "FILE as it is played (a JSON line a game); run again with the same FILE, "
                                          "a run stopped part-way plays only the games it lacks."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help=QUIET_HELP),
) -> None:
    """Rank bots against each other: the same deals for all, every bot in every seat, a rating per bot with its
    95% interval (Plackett-Luce, extra lv\\[ladder]), each pair's games, the luck line and the CPU per decision
    (see docs/simulation.md).

    Example: lv ladder random greedy greedy/no-gamble mcts:50 --variant revised --players 4 --games 400 --seed 1
    lv ladder greedy mcts:200 --games 400 --json > ladder.json
    lv ladder value mcts:200 mcts:200 mcts:200 --games 400 --journal value.jsonl   # stop and go on
    lv ladder value-mcts mcts:200 --variant revised+f-block --players 2 --games 400
    """
    from lv import ladder, simulate

    _check_run_options(as_json, as_csv, wide, cluster, scheduler)
    if not 0 <= resamples <= 100_000:  # each resample rates every game anew
        raise LvError(f"--resamples {resamples}: give 0 to 100,000")
    if batch is not None and batch < 1:
        raise LvError(f"--batch {batch}: give at least 1")
    ladder.check(bot, variant, players, games)
    kept = ladder.Journal(journal, bot, variant, players, games, seed) if journal else None
    if kept is not None and kept.results:
        note(f"lv: {journal}: {len(kept.results)} games played before, not played again")
    if plot:
        from lv import plots

        plots.check_available(plot)
    workers = _workers(workers, force_workers)
    total = ladder.deals_for(games, players) * players
    if total != games:
        note(f"lv: {total} games: {total // players} deals of {players} seat rotations")
    client = None
    try:
        client = simulate.dask_client(scheduler, workers) if cluster else None
        with _progress("ladder", total, "games", quiet) as advance:
            results = ladder.play(bot, variant, players, games, seed, workers, client, advance, batch, kept)
    finally:
        if client is not None:
            _close_dask(client, scheduler)
    result = ladder.report(results, bot, variant, players, seed, resamples)
    if plot:
        files = plots.draw_ladder(result, plot)
        note(f"lv: {len(files)} plots in {plot}")
    if as_json:
        emit_json(result)
        return
    if as_csv:
        from lv.gamerows import write_csv

        write_csv(sys.stdout, ladder.csv_rows(result))
        return
    _print_tables([(None, *ladder.rating_rows(result)), (None, *ladder.pair_rows(result))])
    out.print()
    out.print(printable(ladder.luck_line(result)), markup=False)
    if result["not_exercised"]:
        out.print(printable(f"not exercised: no bot took {', '.join(result['not_exercised'])}"), markup=False)
    err.print(printable(f"{result['games']} games ({result['deals']} deals x {players} seat rotations), "
                        f"{variant}, {players} players, seed {seed}; ratings: {result['model']['name']}, 95% "
                        f"interval: {result['model']['interval']}"), markup=False)



# ------------------------------------------------------------------------------------------ balance

BALANCE_BUDGET = 200_000  # games past which --force is needed


@app.command("balance")
@guarded
def balance_cmd(
    profile: List[str] = typer.Argument(..., metavar="PROFILE [PROFILE...]", help="The rule sets to compare.",
                                        show_default=False),
    players: str = typer.Option("4", "--players", "-p", help="Player counts, comma-separated: 2,4."),
    games: int = typer.Option(200, "--games", "-g", help="Games per line-up: the seat games, and each rotated "
                                                         "line-up (rounded up to a multiple of the players)."),
    seed: int = typer.Option(0, "--seed", help="Seeds the run: game or deal i has seed SEED*1000000+i."),
    bot: str = typer.Option("greedy", "--bot", help="The strong player (any bot spec, see lv ladder --help)."),
    weak: str = typer.Option("random", "--weak", help="The weak player of the skill-against-luck line-ups."),
    kind: Optional[str] = typer.Option(None, "--kind", help="The kinds of decision to forbid one at a time, "
                                                            "comma-separated (default: build, sprawl, remodel, "
                                                            "reorganize, raise, gamble)."),
    workers: int = typer.Option(0, "--workers", "-w", help="Processes to play in (or local Dask workers); 0 = "
                                                           "one per CPU (the results are the same for any number)."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
    as_csv: bool = typer.Option(False, "--csv", help="CSV output: a row per figure."),
    html: Optional[str] = typer.Option(None, "--html", help="Write the report, with its plots, as an HTML page."),
    force: bool = typer.Option(False, "--force", help=f"Play a run of more than {BALANCE_BUDGET:,} games."),
    force_workers: bool = typer.Option(False, "--force-workers", help="Start --workers processes even when "
                                                                      "there are more than CPUs."),
    cluster: Optional[str] = typer.Option(None, "--cluster", help=CLUSTER_HELP),
    scheduler: Optional[str] = typer.Option(None, "--scheduler", help=SCHEDULER_HELP),
    wide: bool = typer.Option(False, "--wide", help=WIDE_HELP),
    quiet: bool = typer.Option(False, "--quiet", "-q", help=QUIET_HELP),
) -> None:
    """The balance of rule sets side by side, per player count, in the restricted-play manner: seat advantage,
    skill against luck (one strong player against weak ones, and the reverse), the importance of each kind of
    decision (the strong player forbidden it, against the same player unrestricted), decisiveness and drama,
    and length, each with a 95% interval (see docs/simulation.md).

    Example: lv balance original revised --players 4 --games 200 --bot greedy --html balance.html
    lv balance revised --players 2,4 --games 400 --kind raise,gamble --json > balance.json
    """
    from lv import balance, simulate

    _check_run_options(as_json, as_csv, wide, cluster, scheduler)
    if html is not None and not html.lower().endswith((".html", ".htm")):
        raise LvError(f"--html {html}: the report is an HTML page: give a file ending in .html")
    _check_outputs(None, html)
    counts = _player_counts(players)
    kinds = balance.check_kinds_text(kind)
    balance.check(profile, counts, bot, weak, games, kinds)
    cost = balance.cost(profile, counts, bot, games, kinds)
    note(f"lv: {cost['note']}")
    if cost["games"] > BALANCE_BUDGET and not force:
        raise LvError(f"{cost['games']:,} games: past the budget of {BALANCE_BUDGET:,}; give --force to play them, "
                      f"or fewer --games")
    workers = _workers(workers, force_workers)
    client = None
    try:
        client = simulate.dask_client(scheduler, workers) if cluster else None
        with _progress("balance", cost["games"], "games", quiet) as advance:
            result = balance.run(profile, counts, bot, weak, games, seed, kinds, workers, client, advance)
    finally:
        if client is not None:
            _close_dask(client, scheduler)
    if html:
        from lv.files import write_atomic

        write_atomic(html, balance.html_page(result))
        note(f"lv: the report is in {html}")
    if as_json:
        emit_json(result)
        return
    if as_csv:
        from lv.gamerows import write_csv

        write_csv(sys.stdout, balance.csv_rows(result))
        return
    _print_tables(list(balance.tables(result)))
    out.print()
    for line in balance.notes(result):
        out.print(printable(line), markup=False)

def _player_counts(text: str) -> List[int]:
    """``--players 2,4``: the counts, each once, as given."""
    try:
        counts = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise LvError(f"--players {text}: give a player count or several, comma-separated (2,4)") from None
    if not counts:
        raise LvError(f"--players {text}: give a player count or several, comma-separated (2,4)")
    if len(set(counts)) != len(counts):
        raise LvError(f"--players {text}: each count once")
    return counts


def _check_outputs(examples: Optional[str], html: Optional[str], force: bool = False) -> None:
    """Refuse --examples and --html whose folder is wrong before any game is played, not after the run; and the
    example records of an earlier run in --examples without --force: game records are never replaced silently
    (a report, the --html page, is: README, "Which files lv replaces")."""
    from pathlib import Path

    from lv.files import check_destination, make_folder

    for option, path, check in (("--examples", examples, make_folder), ("--html", html, check_destination)):
        if path:
            try:
                check(path)
            except LvError as exc:
                raise LvError(f"{option} {exc}") from None
    if examples and not force:
        # NN-CHANGE/with.yaml, or RUN/NN-CHANGE/with.yaml for several player counts or line-ups (save_examples)
        earlier = sorted(p for depth in ("*", "*/*") for name in ("without.yaml", "with.yaml")
                         for p in Path(examples).glob(f"{depth}/{name}"))
        if earlier:
            raise LvError(f"--examples {earlier[0]}: the file exists, a game of an earlier run (use --force to "
                          "replace them, or another folder)")


def _cell_width(header: List[str], rows: List[List[Any]], i: int) -> int:
    """The width column ``i`` takes with every cell on one line."""
    return max(len(line) for cell in [header[i], *(str(row[i]) for row in rows)] for line in cell.splitlines() or [""])


def _column_blocks(header: List[str], rows: List[List[Any]], keep: List[int], width: int) -> Optional[List[List[int]]]:
    """The columns to print together, every cell whole ("43.65 [40.12, 47.18]" is never split over two lines,
    issue 28.4). All of them when they fit ``width``; otherwise several tables, each with the kept columns and as
    many others as fit; None when not even the kept columns and one other fit (``_long_form`` then)."""
    def need(i: int) -> int:
        return _cell_width(header, rows, i)

    others = [i for i in range(len(header)) if i not in keep]
    used = sum(need(i) + 2 for i in keep)
    if not others or used + sum(need(i) + 2 for i in others) - 2 <= width:
        return [list(range(len(header)))]
    if any(used + need(i) > width for i in others):
        return None
    blocks: List[List[int]] = []
    for i in others:
        if blocks and sum(need(j) + 2 for j in blocks[-1]) + need(i) <= width:
            blocks[-1].append(i)
        else:
            blocks.append([*keep, i])
    return blocks


def _long_form(header: List[str], rows: List[List[Any]], keep: List[int]
               ) -> tuple[List[str], List[List[Any]], List[int]]:
    """The table with one row per row and other column: the kept columns, the other column's name (a metric, or a
    profile when the rows are metrics) and its cell. A narrow terminal reads it whole, as --csv does."""
    named = "profile" if header[0] == "metric" else "metric"
    others = [i for i in range(len(header)) if i not in keep]
    long_rows = [[*(row[k] for k in keep), header[i], row[i]] for row in rows for i in others]
    return [*(header[k] for k in keep), named, "mean [95% interval]"], long_rows, list(range(len(keep) + 1))


def _close_dask(client: Any, scheduler: Optional[str]) -> None:
    """Close the client, and the local cluster lv started (never a cluster given by --scheduler)."""
    cluster = None if scheduler else client.cluster
    client.close()
    if cluster is not None:
        cluster.close()

# ------------------------------------------------------------------------------------------ helpers


def _workers(workers: int, force: bool) -> int:
    """0: one per CPU; more than the CPUs only with --force-workers (the results are the same for any number)."""
    from lv.simulate import cpu_count

    cpus = cpu_count()
    if workers == 0:
        return cpus
    if workers > cpus and not force:
        print(f"lv: warning: --workers {workers}: this machine gives lv {cpus} CPU{'s' if cpus != 1 else ''}; "
              f"using {cpus} (--force-workers to start {workers})", file=sys.stderr)
        return cpus
    return workers


def _deal_arg(items: List[str]) -> dict[str, list[str]]:
    """--deal red=A1,C4 --deal blue=B2,D3 -> {"red": ["A1", "C4"], ...}."""
    out: dict[str, list[str]] = {}
    for item in items:
        who, sep, cards = item.partition("=")
        if not sep or not cards.strip():
            raise LvError(f"--deal '{item}': give PLAYER=LOT,LOT, e.g. --deal red=A1,C4")
        _once("--deal", out, who.strip())
        out[who.strip()] = [c.strip().upper() for c in cards.split(",") if c.strip()]
    return out


def _once(option: str, given: dict[str, Any], key: str) -> None:
    """A player (or tag) given twice in one option is refused: the second silently replaced the first (a deal,
    a starting roll, and with it who starts)."""
    if key in given:
        raise LvError(f"{option}: {key!r} is given twice")


def _rolls_arg(text: str) -> dict[str, list[int]]:
    """--rolls red=3+5,blue=6+1 -> {"red": [3, 5], "blue": [6, 1]}."""
    out: dict[str, list[int]] = {}
    for part in text.split(","):
        who, sep, dice = part.partition("=")
        faces = dice.replace("+", " ").split()
        if not sep or len(faces) != 2 or not all(f.isascii() and f.isdigit() and 1 <= int(f) <= 6 for f in faces):
            raise LvError(f"--rolls '{text}': give PLAYER=D+D for each player rolling, e.g. --rolls red=3+5,blue=6+1")
        _once("--rolls", out, who.strip())
        out[who.strip()] = [int(f) for f in faces]
    return out


def _players_arg(players: str) -> int | list[str]:
    """``4`` (names from the profile's colours) or ``red,blue,green`` (each name checked by ``new_game``)."""
    from lv.notation import whole_number

    text = players.strip()
    count = whole_number(text, LvError)
    if count is not None:
        return count
    names = [n.strip() for n in text.split(",")]
    if "" in names and len(names) > 1:  # 'ann,,bob' was a game of two: a third player lost to a typo
        raise LvError(f"--players {players!r}: an empty name (two commas in a row, or one at an end): give each "
                      "player's name, e.g. red,blue,green")
    if len(names) < 2:
        raise LvError(f"--players {players!r}: a number of players or at least two names, e.g. red,blue")
    return names


def _tags_arg(items: List[str]) -> dict[str, str]:
    """``--tag event=Club night --tag table=3`` -> {"event": "Club night", "table": "3"}."""
    tags: dict[str, str] = {}
    for item in items:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise LvError(f"--tag {item!r}: give KEY=VALUE, e.g. --tag event='Club night'")
        _once("--tag", tags, key.strip())
        tags[key.strip()] = value.strip()
    return tags


def _print_tables(tables: List[Any]) -> None:
    """Tables of (title or None, header, rows), one after another with a blank line between (lv ladder, lv
    balance); every cell as ``_fmt`` shows it, never read as markup."""
    for n, (title, header, rows) in enumerate(tables):
        table = Table(box=None, pad_edge=False, title=title, title_justify="left")
        for name in header:
            table.add_column(name)
        for row in rows:
            table.add_row(*(_fmt(c) for c in row))
        if n:
            out.print()
        out.print(table)


def _fmt(value: Any) -> Any:
    """A table cell, never read as Rich markup (lists print as [a, b])."""
    if isinstance(value, (list, tuple)):
        return Text(printable("[" + ", ".join(map(str, value)) + "]"))
    return Text(printable_lines(str(value).lower() if isinstance(value, bool) else str(value)))


def _tidy_help(text: str | None) -> str | None:
    """Docstrings wrap at 120 columns; --help should not. Join each paragraph into one line (Rich rewraps it to
    the terminal) and put every example of an 'Example:' paragraph on a line of its own."""
    if not text:
        return text
    paragraphs = []
    for para in inspect.cleandoc(text).split("\n\n"):
        lines = [line.strip() for line in para.splitlines() if line.strip()]
        if lines and lines[0].startswith("Example"):
            head, _, first = lines[0].partition(":")
            examples = [e.strip() for line in [first] + lines[1:] for e in re.split(r"\s{3,}", line) if e.strip()]
            paragraphs.append(f"{head}:\n" + "\n".join(f"  {e}" for e in examples))
        else:
            paragraphs.append(" ".join(lines))
    return "\n\n".join(paragraphs)


def _tidy_all_help() -> None:
    for typer_app in (app, variants_app):
        for command in typer_app.registered_commands:
            command.help = _tidy_help(command.help or inspect.getdoc(command.callback))
            if command.cls in (None, typer.core.TyperCommand):  # values converted without pydantic (cliparams)
                command.cls = LvCommand


_tidy_all_help()


class _ClosedStream(io.TextIOBase):
    """Standard output or error that the shell closed (``lv ... >&-``): Python leaves ``sys.stdout`` None, and
    lv's first print was an AttributeError traceback. What lv would print there is dropped, with one warning on
    stderr for stdout (a closed stderr drops messages: ``print(file=None)`` would put them on stdout). Not an
    error: ``lv move g.yaml end >&-`` has saved the move before it prints what happened, and exit 2 would say it
    had not; the exit code stays the command's own."""

    def __init__(self, warning: str) -> None:
        super().__init__()
        self._warning = warning

    def write(self, text: str) -> int:
        if text and self._warning:
            note(self._warning)
            self._warning = ""
        return len(text)


class _StdoutFile(io.RawIOBase):
    """Standard output's file descriptor under Python's buffer and text layers, keeping the error of a write that
    failed (``failed``): ``guarded`` tells a failed print ('No space left on device' on stdout) from a failure of
    the command's own work, which an OSError without a file name does not say."""

    failed: OSError | None = None

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = fd

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def isatty(self) -> bool:
        return os.isatty(self._fd)

    def write(self, data: Any) -> int:
        try:
            return os.write(self._fd, data)
        except OSError as exc:
            _StdoutFile.failed = exc
            raise


def _usable_streams() -> None:
    """Standard streams lv can always write: closed ones replaced (``_ClosedStream``), and on an output whose
    encoding cannot show the board's characters (``PYTHONIOENCODING=ascii``, a latin-1 locale) those characters
    written as ASCII stand-ins instead of a UnicodeEncodeError traceback (``--json`` stays exact: ``emit_json``).
    An open stdout is written through ``_StdoutFile``, with Python's own encoding, errors and buffering."""
    if sys.stdout is None:
        sys.stdout = _ClosedStream("lv: warning: standard output is closed (>&-): what lv prints there is dropped")
    if sys.stderr is None:
        sys.stderr = _ClosedStream("")
    codecs.register_error("lv-ascii", _ascii_stand_in)  # stderr keeps Python's backslashreplace: exact names
    old = sys.stdout
    if isinstance(old, io.TextIOWrapper):
        buffered = old.buffer  # a FileIO itself where Python runs unbuffered (PYTHONUNBUFFERED, -u)
        if isinstance(buffered, io.FileIO) or isinstance(getattr(buffered, "raw", None), io.FileIO):
            old.flush()
            mine = _StdoutFile(old.fileno())
            layer: Any = mine if isinstance(buffered, io.FileIO) else io.BufferedWriter(mine)
            sys.stdout = io.TextIOWrapper(layer, encoding=old.encoding, errors=old.errors,
                                          line_buffering=old.line_buffering, write_through=old.write_through)
    if isinstance(sys.stdout, io.TextIOWrapper) and sys.stdout.errors == "strict" and not _utf(sys.stdout):
        sys.stdout.reconfigure(errors="lv-ascii")


# what the board and the tables draw, in ASCII: the score track, the board's streets and strip, the turn line
_ASCII = str.maketrans({"·": ".", "×": "x", "─": "-", "║": "|", "▕": "|", "▏": "|", "▶": ">", "★": "*",
                        "…": "...", "—": "-", "–": "-"})


def _ascii_stand_in(exc: UnicodeError) -> tuple[str, int]:
    """A character the output cannot encode, written as its ASCII stand-in (``·`` as ``.``), else as '?'."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    text = exc.object[exc.start:exc.end].translate(_ASCII)
    return "".join(c if c.isascii() else "?" for c in text), exc.end


def _utf(stream: Any) -> bool:
    """Whether ``stream`` encodes every character (UTF-8, -16, -32)."""
    return str(getattr(stream, "encoding", None) or "utf-8").lower().replace("-", "").startswith("utf")


def main() -> None:
    _usable_streams()
    _floor_columns()
    try:
        try:
            app(prog_name="lv")
        finally:
            sys.stdout.flush()  # the rest of the output, while a closed pipe can still be handled here
    except LvError as exc:  # a command that forgot @guarded
        error(exc)
        sys.exit(2)
    except (BrokenPipeError, _ReaderGone):
        # the reader went away (``lv replay x --json | head``): stop without a word, as Unix tools do, with the
        # status a shell shows for ``yes | head`` (128 + SIGPIPE); stdout points nowhere so that Python's own
        # last flush cannot complain either
        _stdout_nowhere()
        sys.exit(141)
    except OSError as exc:  # what --help or --version wrote, flushed into a full disk or a closed stdout
        error(f"{exc.filename or 'standard output'}: {exc.strerror or exc}")
        _stdout_nowhere()  # Python's own last flush would fail too
        sys.exit(2)


if __name__ == "__main__":
    main()
