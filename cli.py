"""The ``lv`` command line: thin. It parses arguments, calls ``lv``, prints. Data goes to stdout (``--json`` for
machines), messages to stderr. Exit codes: 0 success, 1 a check failed, 2 bad input (one line, no traceback).
"""

from __future__ import annotations

import functools
import inspect
import json
import os
import re
import sys
from typing import Any, Callable, List, Optional

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

import lv
from lv.errors import LvError

app = typer.Typer(
    name="lv", no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
    help="Lords of Vegas rules engine: rule profiles, replay, diff, play and simulate.\n\n"
         "Example: lv variants show revised",
)
variants_app = typer.Typer(no_args_is_help=True, help="Rule profiles: list, show, compare.")
app.add_typer(variants_app, name="variants")

out = Console(soft_wrap=False, width=200, highlight=False)
err = Console(stderr=True, highlight=False)


def guarded(fn: Callable) -> Callable:
    """Bad input becomes one line on stderr and exit code 2, never a traceback."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except LvError as exc:
            print(f"lv: error: {exc}", file=sys.stderr)
            raise typer.Exit(2)
        except OSError as exc:
            print(f"lv: error: {exc.filename or ''}: {exc.strerror or exc}", file=sys.stderr)
            raise typer.Exit(2)

    return wrapper


def emit_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, indent=1, sort_keys=False, ensure_ascii=False) + "\n")


def _version(value: bool) -> None:
    if value:
        print(f"lv {lv.__version__}")
        raise typer.Exit()


@app.callback()
def _root(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                       help="Print the version and exit.")) -> None:
    pass


# ------------------------------------------------------------------------------------------ variants


@variants_app.command("list")
@guarded
def variants_list(as_json: bool = typer.Option(False, "--json", help="Machine-readable output.")) -> None:
    """The shipped rule profiles and overlays.

    Example: lv variants list
    """
    from lv.profile import profile_info

    rows = profile_info()
    if as_json:
        emit_json(rows)
        return
    table = Table("profile", "kind", "players", "title", box=None, pad_edge=False)
    for r in rows:
        table.add_row(*map(_fmt, (r["name"], "overlay" if r["overlay"] else "profile", r["players"], r["title"])))
    out.print(table)
    out.print("\nCombine an overlay with a profile: 'original+f-block'; override a parameter: "
              "'revised,gamble.lay_off=boss_option'.")


@variants_app.command("show")
@guarded
def variants_show(spec: str = typer.Argument(..., help="Profile spec: NAME[+OVERLAY][,section.key=value...] or a .yaml file."),
                  as_json: bool = typer.Option(False, "--json", help="Machine-readable output.")) -> None:
    """Every parameter of a profile, with the rulebook passage it comes from.

    Example: lv variants show revised      lv variants show original+f-block --json
    """
    profile = lv.load_profile(spec)
    rows = lv.profile.describe_parameters(profile)
    if as_json:
        emit_json({"profile": profile.name, "title": profile.title,
                   "parameters": [{"key": k, "value": v, "source": s} for k, v, s in rows]})
        return
    out.print(Text(f"{profile.title}  ({profile.name})", style="bold"))
    table = Table("parameter", "value", "source", box=None, pad_edge=False)
    for key, value, source in rows:
        table.add_row(_fmt(key), _fmt(value), _fmt(source))
    out.print(table)


@variants_app.command("diff")
@guarded
def variants_diff(a: str = typer.Argument(..., help="First profile spec."),
                  b: str = typer.Argument(..., help="Second profile spec."),
                  as_json: bool = typer.Option(False, "--json", help="Machine-readable output.")) -> None:
    """The rule-level differences between two profiles, with the rulebook citations of each side.

    Example: lv variants diff original revised
    """
    pa, pb = lv.load_profile(a), lv.load_profile(b)
    va, vb = pa.values(), pb.values()
    rows = [{"key": k, a: va[k], b: vb[k], f"{a} source": pa.sources.get(k, ""),
             f"{b} source": pb.sources.get(k, "")} for k in va if va[k] != vb[k]]
    if as_json:
        emit_json({"a": a, "b": b, "differences": [
            {"key": r["key"], "a": r[a], "b": r[b], "a_source": r[f"{a} source"], "b_source": r[f"{b} source"]}
            for r in rows]})
        return
    if not rows:
        out.print(f"{a} and {b} have the same parameters")
        return
    table = Table("parameter", a, b, "citations", box=None, pad_edge=False)
    for r in rows:
        table.add_row(_fmt(r["key"]), _fmt(r[a]), _fmt(r[b]), _fmt(f"{a}: {r[f'{a} source']}\n{b}: {r[f'{b} source']}"))
    out.print(table)
    out.print(f"\n{len(rows)} parameters differ.")


# ------------------------------------------------------------------------------------------ records (replay, check, diff, selfplay)

RECORD_SUFFIXES = (".yaml", ".yml", ".json")


def _lines(lines: list[str]) -> None:
    sys.stdout.write("\n".join(lines) + "\n")


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
                                                         "or mcts:0.5s per decision) or MODULE:FUNCTION (your "
                                                         "own); one for all players or one per player, "
                                                         "comma-separated: mcts:100,greedy,greedy,greedy."),
    output: Optional[str] = typer.Option(None, "--output", "-o", help="Write the record here (.json for JSON); "
                                                                      "default: stdout."),
    as_json: bool = typer.Option(False, "--json", help="JSON instead of YAML."),
) -> None:
    """Play a complete game between seeded bots and write its record.

    Example: lv selfplay --variant revised --players 4 --seed 7 -o game.yaml
    (a searching player against three greedy ones: --bot mcts:100,greedy,greedy,greedy)
    """
    from lv import bots, record
    from lv.narrative import ending

    chosen = [bots.bot_named(b) for b in bot.split(",") if b.strip()]
    profile = lv.load_profile(variant)
    game = lv.new_game(profile, _players_arg(players), seed)
    n = len(game.player_names)
    if len(chosen) not in (1, n):
        raise LvError(f"--bot: give one bot for all players or one per player ({n}), not {len(chosen)}")
    bots.play(game, chosen * n if len(chosen) == 1 else chosen, seed)
    fmt = "json" if as_json or (output or "").endswith(".json") else "yaml"
    made_by = f"made by: lv selfplay --variant {variant} --players {players} --seed {seed} --bot {bot}"
    text = record.dumps(record.record_of(game, variant, comment=made_by), fmt)
    if output is None:
        sys.stdout.write(text)
        return
    record.write_atomic(output, text)
    r = game.result
    decisions = sum(len([d for d in t.decisions if not isinstance(d.action, lv.EndTurn)]) for t in game.history)
    print(f"wrote {output}: {variant}, {len(game.player_names)} players, {game.state.turn} turns, {decisions} "
          f"decisions; {game.player_names[r.winner]} wins ({ending(r.reason)})", file=sys.stderr)


@app.command("replay")
@guarded
def replay_cmd(
    file: str = typer.Argument(..., help="A game record (lv-game/1, YAML or JSON)."),
    variant: Optional[str] = typer.Option(None, "--variant", "-v", help="Replay under this profile spec instead "
                                                                        "of the recorded one."),
    until: Optional[int] = typer.Option(None, "--until", min=1, help="Stop after this turn."),
    on_illegal: str = typer.Option("skip", "--on-illegal", help="Under another profile, a decision that became "
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

    _check_on_illegal(on_illegal)
    rep = replay(load_record(file), variant, on_illegal=on_illegal, until=until)
    if as_json:
        emit_json(rep.to_dict())
    else:
        _lines(replay_lines(rep))
    if rep.verified is False:
        print(f"lv: {file}: the recorded result does not match the replay", file=sys.stderr)
        raise typer.Exit(1)


@app.command("check")
@guarded
def check_cmd(
    files: List[str] = typer.Argument(..., help="Record files or folders (their .yaml/.yml/.json files)."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
) -> None:
    """Verify records under their own profiles; exit 1 if any fails.

    Each must replay (legal decisions, the cards its deck gives) and give its recorded result.

    Example: lv check examples/*.yaml
    """
    from pathlib import Path

    from lv.replay import check_file

    paths: list[str] = []
    for f in files:
        p = Path(f)
        if p.is_dir():
            paths += sorted(str(x) for x in p.iterdir() if x.suffix in RECORD_SUFFIXES and x.is_file())
        elif p.suffix not in RECORD_SUFFIXES and p.exists():
            print(f"skip {f}: not a record (.yaml, .yml or .json)", file=sys.stderr)
        else:
            paths.append(f)
    if not paths:
        raise LvError("no record files to check")
    results = [check_file(p) for p in paths]
    failed = [r for r in results if not r.ok]
    if as_json:
        emit_json({"checked": len(results), "failed": len(failed),
                   "files": [{"file": r.file, "ok": r.ok, "message": r.message, "turns": r.turns,
                              "verified": r.verified} for r in results]})
    else:
        for r in results:
            if r.ok:
                print(f"ok {r.file}: {r.message}")
            else:
                reason = r.message[len(r.file):].lstrip(":") if r.message.startswith(r.file) else " " + r.message
                print(f"FAIL {r.file}:{reason}")
        print(f"{len(results)} records: {len(results) - len(failed)} ok, {len(failed)} failed")
    if failed:
        raise typer.Exit(1)


@app.command("diff")
@guarded
def diff_cmd(
    file: str = typer.Argument(..., help="A game record (lv-game/1)."),
    variant: List[str] = typer.Option(..., "--variant", "-v", help="Profile spec; give it once (compared with "
                                                                   "the recorded profile) or twice (A, then B)."),
    on_illegal: str = typer.Option("skip", "--on-illegal", help="A decision illegal under a profile is skipped "
                                                                "(skip) or ends that replay (stop)."),
    fail_on_divergence: bool = typer.Option(False, "--fail-on-divergence", help="Exit 1 if the games diverge."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
) -> None:
    """Replay one record under two profiles and show where and how the games differ.

    The first divergence, turn-by-turn differences in money, points and bosses, decisions that became illegal
    (the rule, what was done instead), dice that had to be generated, and the results side by side.

    Example: lv diff game.yaml --variant original      lv diff game.yaml -v original -v original+f-block
    """
    from lv.diff import diff_records
    from lv.record import load_record

    _check_on_illegal(on_illegal)
    if len(variant) not in (1, 2):
        raise LvError(f"give --variant once (B, compared with the recorded profile) or twice (A and B), "
                      f"not {len(variant)} times")
    a, b = (None, variant[0]) if len(variant) == 1 else variant
    d = diff_records(load_record(file), a, b, on_illegal=on_illegal)
    if as_json:
        emit_json(d.to_dict())
    else:
        _lines(d.lines())
    if fail_on_divergence and d.first is not None:
        raise typer.Exit(1)


# ------------------------------------------------------------------------------------------ play (new, show, render, move, legal)


def _open_game(path: str, turn: Optional[int] = None):
    from lv import session

    return session.open_game(path, until=turn)


def _played_json(played, names: List[str]) -> dict:
    from lv.replay import event_dict

    out = {"turn": played.turn, "player": played.player, "decision": played.text,
           "events": [event_dict(e, names) for e in played.events if e.kind != "turn_started"]}
    if played.line is not None:
        out["line"] = played.line
    return out


def _refused(error) -> None:
    """A refused decision: the reason on one line, then the nearest legal ones; exit code 2."""
    print(f"lv: error: {error}", file=sys.stderr)
    if error.nearest:
        print(f"legal now: {', '.join(error.nearest)}", file=sys.stderr)


@app.command("new")
@guarded
def play_new(variant: str = typer.Option("revised", "--variant",
                                         help="Profile spec: NAME[+OVERLAY][,section.key=value...]."),
             players: str = typer.Option(..., "--players", help="Player names in seat order, comma separated "
                                                                 "(red,blue,green), or a count (3: the profile's "
                                                                 "colours)."),
             seed: Optional[int] = typer.Option(None, "--seed", help="Shuffle and dice seed (default: a fresh one, "
                                                                      "written to the file)."),
             first: Optional[str] = typer.Option(None, "--first", help="Who starts (default: the starting roll)."),
             output: str = typer.Option(..., "-o", "--output", help="The game file to create (.yaml or .json)."),
             force: bool = typer.Option(False, "--force", help="Overwrite an existing file."),
             as_json: bool = typer.Option(False, "--json", help="Print the new game's state as JSON.")) -> None:
    """Create a game file: set up, the first player's card drawn and paid.

    Then 'lv move' advances it, 'lv show' and 'lv render' display it, 'lv replay' replays it.

    Example: lv new --variant revised --players red,blue,green --seed 7 -o game.yaml
    """
    import secrets

    from lv import narrative, render, session

    if os.path.exists(output) and not force:
        raise LvError(f"{output}: the file exists (use --force to replace it)")
    if seed is None:
        seed = secrets.randbelow(1_000_000)
    s = session.create(output, variant, _players_arg(players), seed, first_player=first)
    game = s.game
    if as_json:
        emit_json(render.state_data(game))
    else:
        lines = narrative.setup_lines(game.setup_events, s.names) + [""]
        lines += narrative.turn_lines(game.current_turn, s.names)
        out.print(Text("\n".join(lines)))
    print(f"lv: created {output}: {game.profile.title}, {len(s.names)} players, seed {seed}; "
          f"{s.player} to play", file=sys.stderr)


@app.command("show")
@guarded
def play_show(path: str = typer.Argument(..., help="A game file (lv-game/1)."),
              turn: Optional[int] = typer.Option(None, "--turn", help="Show the board at the end of this turn."),
              as_json: bool = typer.Option(False, "--json", help="The state as data.")) -> None:
    """Whose turn it is and what was drawn, the players, the casinos and the board.

    Example: lv show game.yaml      lv show game.yaml --turn 5 --json
    """
    from lv import render

    game = _open_game(path, turn).game
    if as_json:
        emit_json(render.state_data(game))
        return
    out.print(render.show(game))


@app.command("render")
@guarded
def play_render(path: str = typer.Argument(..., help="A game file (lv-game/1)."),
                output: Optional[str] = typer.Option(None, "-o", "--output",
                                                     help="board.svg or board.html (default: SVG to stdout)."),
                turn: Optional[int] = typer.Option(None, "--turn", help="The board at the end of this turn.")) -> None:
    """The board as a picture: SVG, or an HTML page with the player and casino tables.

    Example: lv render game.yaml -o board.svg      lv render examples/revised-4p.yaml -o board.html
    """
    from lv import render
    from lv.record import write_atomic

    game = _open_game(path, turn).game
    if output is None:
        sys.stdout.write(render.svg(game))
        return
    page = render.html(game) if output.lower().endswith((".html", ".htm")) else render.svg(game)
    write_atomic(output, page)
    print(f"lv: wrote {output}", file=sys.stderr)


@app.command("move")
@guarded
def play_move(path: str = typer.Argument(..., help="The game file to advance."),
              decision: Optional[str] = typer.Argument(None, help="One decision, e.g. 'build A2 gold', 'gamble B3 4', "
                                                                  "'end', 'trade money 5 from red to blue; lot A2 "
                                                                  "from blue to red'."),
              dice: Optional[str] = typer.Option(None, "--dice", help="Dice rolled at the table, in order: a gamble's "
                                                 "two dice; a reorganize's new values in board order of the dice's "
                                                 "lots; then one per tie reroll (default: from the game's seed)."),
              from_file: Optional[str] = typer.Option(None, "--from", help="Decisions from a file, one per line "
                                                      "('-' = standard input); '#' comments and blank lines are "
                                                      "skipped; a line may end with --dice 3,5. Stops at the first "
                                                      "refused line: the decisions before it are kept and saved."),
              die_from: Optional[str] = typer.Option(None, "--die-from", help="Out of dice: the lot to take one from."),
              marker_from: Optional[str] = typer.Option(None, "--marker-from",
                                                        help="Out of markers: the lot to take one from."),
              as_json: bool = typer.Option(False, "--json", help="What happened, as data.")) -> None:
    """Validate and apply a decision of the player to move, then save the file atomically.

    'end' ends the turn and draws for the next player. A refused decision exits with code 2, says why, lists
    the nearest legal decisions and leaves the file byte for byte as it was. With --from, the file is written
    once, at the end, with every decision before the first refused one.

    Example: lv move game.yaml "build C12 gold"      lv move game.yaml "gamble B3 5" --dice 3,5
             lv move game.yaml --from moves.txt      echo end | lv move game.yaml --from -
    """
    from lv import session
    from lv.yamlsource import read_text

    if (decision is None) == (from_file is None):
        raise LvError("give one decision or --from FILE (not both)")
    s = _open_game(path)
    names = s.names
    if from_file is not None:
        if dice or die_from or marker_from:
            raise LvError("--dice/--die-from/--marker-from go with a single decision; in a --from file, end a "
                          "line with --dice 3,5")
        if from_file == "-":
            lines, source = sys.stdin.read().splitlines(), "<stdin>"
        else:
            lines, source = read_text(from_file).splitlines(), from_file
        result = s.play_lines(lines, source)
        if result.played:
            s.save()
        if as_json:
            emit_json({"file": path, "played": [_played_json(p, names) for p in result.played],
                       "error": str(result.error) if result.error else None,
                       "turn": s.game.state.turn, "player": s.player, "over": s.game.over})
        else:
            for p in result.played:
                out.print(Text("\n".join(p.lines)))
        if result.error is not None:
            _refused(result.error)
            kept = len(result.played)
            print(f"lv: {kept} decision{'s' if kept != 1 else ''} before it "
                  + (f"applied and saved to {path}" if kept else f"(none); {path} is unchanged"), file=sys.stderr)
            raise typer.Exit(2)
        print(f"lv: {len(result.played)} decisions applied; saved {path}: {_whose(s)}", file=sys.stderr)
        return
    choices = {k: v.upper() for k, v in (("die_from", die_from), ("marker_from", marker_from)) if v}
    try:
        played = s.play(decision, session.parse_dice(dice) if dice else None, choices or None)
    except session.MoveError as error:
        _refused(error)
        raise typer.Exit(2)
    s.save()
    if as_json:
        emit_json(dict(_played_json(played, names), file=path, over=s.game.over, next_turn=s.game.state.turn,
                       next_player=s.player))
    else:
        out.print(Text("\n".join(played.lines)))
    print(f"lv: saved {path}: {_whose(s)}", file=sys.stderr)


def _whose(s) -> str:
    from lv import render

    return render.status_line(s.game)


@app.command("legal")
@guarded
def play_legal(path: str = typer.Argument(..., help="A game file (lv-game/1)."),
               as_json: bool = typer.Option(False, "--json", help="Machine-readable output.")) -> None:
    """The legal decisions of the player to move, in the notation 'lv move' takes, grouped by action.

    Example: lv legal game.yaml      lv legal game.yaml --json
    """
    from lv import session

    s = _open_game(path)
    game = s.game
    if as_json:
        groups = session.legal_groups(game) if not game.over else {}
        emit_json({"turn": game.state.turn, "player": s.player, "over": game.over, "legal": groups})
        return
    from lv import render

    out.print(Text(render.status_line(game) + (f" · ${game.state.players[game.state.current].money}"
                                               if not game.over else "")))
    if game.over:
        return
    for verb, items in session.legal_text(game).items():
        if items:
            out.print(Text(f"{verb} ({len(items)}):"))
            out.print(Text(_wrap(items)))
    other = s.names[(game.state.current + 1) % len(s.names)]
    lot = next(iter(sorted(game.state.markers_on_board(game.state.current))), "A2")
    out.print(Text(f"trade: any exchange between players, e.g. 'trade money 5 from {other} to {s.player}; "
                   f"lot {lot} from {s.player} to {other}'", style="dim"))


def _wrap(items: List[str], width: int = 110) -> str:
    lines, line = [], "  "
    for item in items:
        piece = item + ", "
        if len(line) + len(piece) > width and line.strip():
            lines.append(line.rstrip())
            line = "  "
        line += piece
    lines.append(line.rstrip().rstrip(","))
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------ simulate


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
                                                    "mcts[:PLAYOUTS or :SECONDSs] or MODULE:FUNCTION (your "
                                                    "own, docs/simulation.md)."),
    workers: int = typer.Option(0, "--workers", "-w", help="Processes to play in; 0 = one per CPU core (the "
                                                           "results are the same for any number)."),
    setting: Optional[str] = typer.Option(None, "--set", help="Sweep one parameter over values, a row per value: "
                                                              "raise.cost_per_space=10,15,20."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
    as_csv: bool = typer.Option(False, "--csv", help="CSV output: profile, metric, mean, low, high, n."),
    save_dir: Optional[str] = typer.Option(None, "--save-dir", help="Save every game as an lv-game/1 record in "
                                                                     "DIR/PROFILE/game-NNNNN.yaml."),
) -> None:
    """Paired self-play under several rule profiles: metrics with 95% confidence intervals and the paired
    differences (see docs/simulation.md).

    Example: lv simulate --variant original --variant revised --players 4 --games 2000 --seed 1 --workers 2
    """
    import csv

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from lv import simulate

    if as_json and as_csv:
        raise LvError("--json and --csv: choose one")
    profiles = simulate.sweep_profiles(variant, setting)
    bots = [b.strip() for b in bot.split(",") if b.strip()]
    show = err.is_terminal
    with Progress(TextColumn("simulate"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=err, disable=not show, transient=True) as bar:
        task = bar.add_task("games", total=games * len(profiles))
        result = simulate.simulate(profiles, players, games, seed, bots, workers or os.cpu_count() or 1, save_dir,
                                   progress=lambda k: bar.advance(task, k))
    if as_json:
        emit_json(result)
        return
    if as_csv:
        csv.writer(sys.stdout, lineterminator="\n").writerows(simulate.csv_rows(result))
        return
    header, rows = simulate.sweep_rows(result, setting) if setting else simulate.comparison_rows(result)
    table = Table(*header, box=None, pad_edge=False)
    for row in rows:
        table.add_row(*map(_fmt, row))
    out.print(table)
    print(f"{games} paired games per profile, {players} players, seed {seed}, bots {','.join(result['bots'])}; "
          f"mean [95% interval]", file=sys.stderr)

# ------------------------------------------------------------------------------------------ helpers


def _players_arg(players: str) -> int | list[str]:
    """``4`` (names from the profile's colours) or ``red,blue,green``."""
    text = players.strip()
    if text.isdigit():
        return int(text)
    names = [n.strip() for n in text.split(",") if n.strip()]
    if len(names) < 2:
        raise LvError(f"--players {players!r}: a number of players or at least two names, e.g. red,blue")
    return names


def _check_on_illegal(on_illegal: str) -> None:
    if on_illegal not in ("skip", "stop"):
        raise LvError(f"--on-illegal {on_illegal!r}: skip or stop")


def _fmt(value: Any) -> Text:
    """A table cell, never read as Rich markup (lists print as [a, b])."""
    if isinstance(value, (list, tuple)):
        return Text("[" + ", ".join(map(str, value)) + "]")
    return Text(str(value).lower() if isinstance(value, bool) else str(value))


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


_tidy_all_help()


def main() -> None:
    try:
        app(prog_name="lv")
    except LvError as exc:  # a command that forgot @guarded
        print(f"lv: error: {exc}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
