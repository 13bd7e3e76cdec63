"""lv's command-line parameters: converted without pydantic, shown in people's words, completed in the shell.

**Converted.** Command-line values are converted without pydantic, for the plain parameter types lv's commands use.

Typer (0.2x) converts the value of every parameter that is not a bool flag through a pydantic ``TypeAdapter`` it
builds on first use, so any command with an argument imports pydantic: about 355 M instructions, over a quarter of
``lv replay``'s whole run. lv's parameters are all ``str``, ``int`` (one with a minimum), ``Optional`` of those,
``List[str]`` and bool flags. For those, when the value is one whose conversion is certain (a ``str`` or a
``bool``; an ``int``, or ASCII digits with an optional minus sign, within the parameter's range; a list or tuple
of ``str``), the commands of :class:`LvGroup` and :class:`LvCommand` give the result pydantic would give (the
same object, ``int(text)``, a list) without importing it. Anything else (``--until abc``, ``--until 0``, a type
lv does not use) goes to Typer's own conversion, so every error reads exactly as before.

This leans on two Typer internals (``_TyperParameter._runtime_param`` and ``type_descriptor``); with a Typer
that lacks them the group does nothing and Typer converts every value itself, as it always did.

**Shown.** Typer's help names a value by its Python type (``--json <bool>``, ``--set <list[str]>``, ``{file}``).
Here every value has a word, the same for the same kind of value in every command (a profile spec is SPEC, a file
FILE, a count N; :data:`WORDS`, :data:`INT_WORDS`); a flag shows none, a choice its values (``[skip|stop]``), an
option that may be given again says so. A ``metavar`` given to ``typer.Option`` still wins.

**Completed.** Shell completion (``lv --install-completion``) offers profile names and variant files for a
profile spec, bot names for ``--bot``, the choices of a choice, and for ``lv move`` the legal decisions of the
game named before it (:data:`COMPLETERS`).
"""

from __future__ import annotations

import re
import typing
from pathlib import Path
from typing import Any, Callable, Final, Literal

import typer.core

_INT = re.compile(r"-?[0-9]{1,18}")  # what int() and pydantic read alike (pydantic reads more: it gets the rest)
_MISS = object()


def _plain(value: Any, param: Any) -> Any:
    """The converted value when it is certain without pydantic, else ``_MISS``."""
    descriptor = param.type_descriptor
    info = descriptor.parameter_info
    if descriptor.file_annotation is not None or info.parser is not None:
        return _MISS
    multiple = param.multiple or param.nargs == -1
    if value is None:  # what Typer's RuntimeParam.coerce returns for a value not given
        return () if multiple else None
    annotation = descriptor.annotation
    if multiple:
        if (typing.get_origin(annotation) is list and typing.get_args(annotation) == (str,)
                and isinstance(value, (list, tuple)) and all(type(v) is str for v in value)):
            return list(value)
        return _MISS
    if (annotation is str and type(value) is str) or (annotation is bool and type(value) is bool):
        return value
    if typing.get_origin(annotation) is Literal and type(value) is str and value in typing.get_args(annotation):
        return value  # one of a choice's words, exactly (Typer's choices are case-sensitive unless told)
    if annotation is int and not info.clamp:
        if type(value) is int:
            number = value
        elif type(value) is str and _INT.fullmatch(value):
            number = int(value)
        else:
            return _MISS
        if (info.min is not None and number < info.min) or (info.max is not None and number > info.max):
            return _MISS  # Typer's conversion says why, in its own words
        return number
    return _MISS


class _PlainRuntimeParam:
    """Stands in for Typer's runtime parameter: the plain values here, the rest through Typer's own."""

    def __init__(self) -> None:
        self._typer: Any = None

    def coerce(self, value: Any, param: Any, ctx: Any) -> Any:
        word = value_word(param)
        if word in _NAMES and "" in _texts(value):
            # an unset shell variable ("$OUT"): '--games-out ""' wrote nothing and said nothing, 'lv check ""'
            # checked the current folder (Path("") is "."), 'lv show ""' said ": no such file"
            raise typer.BadParameter(f"'' is no name: give {_NAMES[word]}", ctx=ctx, param=param)
        if word in _NAMES and "-" in _texts(value) and param.name not in _DASH_MEANS_STDIN:
            # 'lv ladder --journal -' wrote a file named '-'; 'lv replay -' said "-: no such file"
            raise typer.BadParameter(f"'-' (standard input or output) is not taken here: give {_NAMES[word]} "
                                     "(./- for one named '-')", ctx=ctx, param=param)
        result = _plain(value, param)
        if result is not _MISS:
            return result
        choices = typing.get_args(param.type_descriptor.annotation)
        if typing.get_origin(param.type_descriptor.annotation) is Literal and type(value) is str:
            # a word that is not one of the choice's: said in click's words ("Value error, ..." in pydantic's)
            raise typer.BadParameter(f"{value!r} is not one of {', '.join(map(repr, choices))}", ctx=ctx,
                                     param=param)
        if self._typer is None:
            from typer._coercion import build_runtime_param

            self._typer = build_runtime_param(param.type_descriptor)
        return self._typer.coerce(value, param=param, ctx=ctx)


# the words of the parameters that name a file or a folder, and what to give
_NAMES: Final = {"FILE": "a file name", "FILE...": "a file or folder name", "DIR": "a folder name"}
_DASH_MEANS_STDIN: Final = ("from_file",)  # lv move --from -: the decisions on standard input


def _texts(value: Any) -> list[str]:
    """The texts of a command-line value: itself, or a list's."""
    values = value if isinstance(value, (list, tuple)) else [value]
    return [v for v in values if isinstance(v, str)]


def _install(param: Any) -> None:
    if getattr(param, "_runtime_param", _MISS) is None and hasattr(param, "type_descriptor"):
        param._runtime_param = _PlainRuntimeParam()
    _present(param)


# ---------------------------------------------------------------------------------------------- shown in words

# the word for a text value, by the parameter's name in lv/cli.py: the same word wherever the name is used
WORDS: Final = {
    "variant": "SPEC", "spec": "SPEC", "a": "SPEC_A", "b": "SPEC_B", "diff": "SPEC",
    "file": "FILE", "path": "FILE", "files": "FILE...", "output": "FILE", "html": "FILE", "games_out": "FILE",
    "from_file": "FILE", "journal": "FILE", "save_dir": "DIR", "plot": "DIR", "examples": "DIR",
    "players": "PLAYERS", "first": "PLAYER", "bot": "BOT", "decision": "DECISION", "dice": "DICE",
    "die_from": "LOT", "marker_from": "LOT", "tag": "KEY=VALUE", "setting": "KEY=VALUES", "deal": "PLAYER=LOTS",
    "rolls": "PLAYER=D+D,...", "cluster": "dask", "scheduler": "ADDRESS",
}
# the word for a whole number, by name; any other is N
INT_WORDS: Final = {"seed": "SEED", "until": "TURN", "turn": "TURN"}


def value_word(param: Any) -> str | None:
    """The word ``--help`` shows for the parameter's value: None for a flag (it takes none)."""
    if getattr(param, "is_flag", False) or getattr(param, "count", False):
        return None
    descriptor = getattr(param, "type_descriptor", None)
    choices = descriptor.choices if descriptor is not None else None
    if choices:
        return "[" + "|".join(str(getattr(c, "value", c)) for c in choices) + "]"
    annotation = descriptor.annotation if descriptor is not None else None
    if annotation is int:
        return INT_WORDS.get(param.name, "N")
    return WORDS.get(param.name, "TEXT")


def _range_words(low: float | None, high: float | None) -> str | None:
    """A number's range in words (``1 or more``), where click writes ``x>=1``."""
    if low is not None and high is not None:
        return f"{low} to {high}"
    if low is not None:
        return f"{low} or more"
    if high is not None:
        return f"{high} or less"
    return None


class _ShownOption(typer.core.TyperOption):
    """A Typer option shown in words: its value's word, a range in words, "may repeat" if repeatable."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return self.metavar if self.metavar is not None else value_word(self)

    def _get_number_range_help_str(self) -> str | None:
        return _range_words(self.min, self.max)

    def shell_complete(self, ctx: Any, incomplete: str) -> Any:
        return _complete(self, ctx, incomplete) or super().shell_complete(ctx, incomplete)


class _ShownArgument(typer.core.TyperArgument):
    """A Typer argument shown in words: its name column says the word (FILE); no type after it; the usage line
    reads FILE, [DECISION] or FILE... as click writes it, not {file}."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return None

    def _usage_display_name(self) -> str:
        name = self.display_name_raw
        return name if self.required else f"[{name}]"

    def _get_number_range_help_str(self) -> str | None:
        return _range_words(self.min, self.max)

    def shell_complete(self, ctx: Any, incomplete: str) -> Any:
        return _complete(self, ctx, incomplete) or super().shell_complete(ctx, incomplete)


_MAY_REPEAT = " \\[may repeat]"  # Rich markup: an escaped bracket, shown as "[may repeat]"


def _present(param: Any) -> None:
    """Show ``param`` in words (once per parameter object: click keeps them for the command's life)."""
    shown: dict[type, type] = {typer.core.TyperOption: _ShownOption, typer.core.TyperArgument: _ShownArgument}
    if type(param) not in shown:
        return
    param.__class__ = shown[type(param)]  # the same object and state; only how it is shown and completed changes
    if isinstance(param, _ShownArgument) and param.metavar is None:
        param.metavar = value_word(param)
    if isinstance(param, _ShownOption) and param.multiple and not param.is_flag:
        param.help = (param.help or "").rstrip() + _MAY_REPEAT


# ---------------------------------------------------------------------------------------------- completed


def complete_profile(ctx: Any, incomplete: str) -> list[str]:
    """Shipped profile names (after a '+', the overlays) and profile files (.yaml) in the folder being typed."""
    from lv.files import is_yaml
    from lv.profile import profile_info

    head, plus, tail = incomplete.rpartition("+")
    if plus:
        names = [r["name"] for r in profile_info() if r["overlay"]]
        return [f"{head}+{n}" for n in names if n.startswith(tail)]
    names = [r["name"] for r in profile_info()]
    typed = incomplete[:incomplete.rfind("/") + 1]  # the folder as typed ("variants/", "./", ""), kept as typed
    folder = Path(typed or ".")
    try:
        files = sorted(typed + p.name for p in folder.iterdir() if is_yaml(p) and p.is_file())
    except OSError:
        files = []
    return [n for n in names + files if n.startswith(incomplete)]


def complete_bot(ctx: Any, incomplete: str) -> list[str]:
    """Bot names; after a comma (one bot per player), the next player's."""
    from lv.bots import BOTS

    head, comma, tail = incomplete.rpartition(",")
    return [f"{head}{comma}{name}" for name in BOTS if name.startswith(tail)]


def complete_decision(ctx: Any, incomplete: str) -> list[str]:
    """The legal decisions of the game file named before the decision (``lv move game.yaml <TAB>``)."""
    from lv.errors import LvError
    from lv.session import legal_decisions, open_game

    path = ctx.params.get("path")
    if not path:
        return []
    try:
        game = open_game(path).game
    except (LvError, OSError):
        return []
    notations = [d["notation"] for d in legal_decisions(game)] if not game.over else []
    return [n for n in notations if n.startswith(incomplete)]


COMPLETERS: Final[dict[str, Callable[[Any, str], list[str]]]] = {
    "variant": complete_profile, "spec": complete_profile, "a": complete_profile, "b": complete_profile,
    "diff": complete_profile, "bot": complete_bot, "decision": complete_decision,
}


def _complete(param: Any, ctx: Any, incomplete: str) -> Any:
    """Completion items for ``param`` from :data:`COMPLETERS`, or None (then Typer's own: choices, files)."""
    if param._custom_shell_complete is not None or param.name not in COMPLETERS:
        return None
    try:  # recent typer carries its own copy of click
        from typer._click.shell_completion import CompletionItem
    except ImportError:  # pragma: no cover - typer < 0.20 uses click itself
        from click.shell_completion import CompletionItem  # type: ignore[assignment, unused-ignore]

    return [CompletionItem(text) for text in COMPLETERS[param.name](ctx, incomplete)]


class _PlainValues:
    """Gives each parameter of a command, the help option included (click makes it on first use), the
    conversion above before the command reads its arguments, and shows it in words."""

    def get_params(self, ctx: Any) -> Any:
        params = super().get_params(ctx)  # type: ignore[misc]
        for param in params:
            _install(param)
        return params


class LvGroup(_PlainValues, typer.core.TyperGroup):
    """Typer's group, converting plain values without pydantic: ``typer.Typer(cls=LvGroup)``."""


class LvCommand(_PlainValues, typer.core.TyperCommand):
    """Typer's command, converting plain values without pydantic: ``app.command(cls=LvCommand)``."""
