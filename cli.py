"""The ``lv`` command line: thin. It parses arguments, calls ``lv``, prints. Data goes to stdout (``--json`` for
machines), messages to stderr. Exit codes: 0 success, 1 a check failed, 2 bad input (one line, no traceback).
"""

from __future__ import annotations

import functools
import json
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

# ------------------------------------------------------------------------------------------ play (new, show, render, move, legal)

# ------------------------------------------------------------------------------------------ simulate

# ------------------------------------------------------------------------------------------ helpers


def _fmt(value: Any) -> Text:
    """A table cell, never read as Rich markup (lists print as [a, b])."""
    if isinstance(value, (list, tuple)):
        return Text("[" + ", ".join(map(str, value)) + "]")
    return Text(str(value).lower() if isinstance(value, bool) else str(value))


def main() -> None:
    try:
        app()
    except LvError as exc:  # a command that forgot @guarded
        print(f"lv: error: {exc}", file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
