"""Exception classes. Each says *what* is wrong and *where*; the CLI prints ``str(err)`` on one line.

The caller can tell "not a decision" (NotationError) from "not legal here" (IllegalAction) from
"the file is wrong" (ProfileError, RecordError), as python-chess does for moves.

The *where* is kept as attributes, so no caller parses it back out of the text: ``reason`` (what is wrong,
alone), ``path`` and ``line`` (the file and its 1-based line, when the error is about a file), ``turn`` (the
game turn, when it is about one); a RecordError also has ``key``, the key path in the record it is about
(``("position", "tiles", "C1")``) when a check that knows it raised it. ``str(err)`` is built from them:
``path:line: turn N: reason``. ``at(...)`` adds a place to an error on its way up.
"""

from __future__ import annotations

from typing import Any, Self


MAX_LINE = 600  # characters of one error line: a few lines of an 80-column terminal, whatever the input holds


def clip(text: str, limit: int = MAX_LINE) -> str:
    """``text`` cut in the middle with ``...`` to at most ``limit`` characters: the start (the file and line)
    and the end (the rule in brackets) stay readable."""
    if len(text) <= limit:
        return text
    head = (limit - 3) * 2 // 3
    return text[:head] + "..." + text[len(text) - (limit - 3 - head):]


class LvError(Exception):
    """Base class: bad input that the CLI reports with exit code 2, without a traceback."""

    def __init__(self, reason: str = "", *, path: str | None = None, line: int | None = None,
                 turn: int | None = None) -> None:
        self.reason = reason
        self.path = path
        self.line = line
        self.turn = turn
        super().__init__(self.message())

    def location(self) -> str | None:
        """``file:line``, just ``file`` when the line is unknown, or None when the error is about no file."""
        if self.path is None:
            return None
        return f"{self.path}:{self.line}" if self.line else self.path

    def message(self) -> str:
        """The one-line message: ``file:line: turn N: reason`` with whatever of the place is known."""
        head = self.location()
        parts = [] if head is None else [head]
        if self.turn is not None:
            parts.append(f"turn {self.turn}")
        parts.append(self.reason)
        return clip(": ".join(parts))

    def at(self, *, path: str | None = None, line: int | None = None, turn: int | None = None) -> Self:
        """Set the file, line or turn (those given) and rebuild the message; returns the error itself."""
        if path is not None:
            self.path = path
        if line is not None:
            self.line = line
        if turn is not None:
            self.turn = turn
        self.args = (self.message(),)
        return self


class ArgumentError(LvError, TypeError):
    """An argument of the wrong type given to lv's Python API: ``new_game(seed=1.5)``, ``Build(lot=1.5)``."""


class ProfileError(LvError):
    """A rule profile that cannot be loaded: unknown key, wrong type, impossible value, unknown name."""


class BoardError(LvError):
    """The board data file is inconsistent."""


class NotationError(LvError):
    """Text that is not a decision in the one-line notation (``build A2 gold``)."""


class IllegalAction(LvError):
    """A well-formed decision that the rules forbid now. ``rule`` names the rule (a profile key or rule point);
    the message is the reason followed by `` [rule]``."""

    def __init__(self, message: str, rule: str = "", **where: Any) -> None:
        self.rule = rule
        super().__init__(message, **where)

    def message(self) -> str:
        """The one-line message: the place, the reason, then `` [rule]``."""
        text = super().message()
        return clip(f"{text} [{self.rule}]") if self.rule else text


class RecordError(LvError):
    """A game record that is malformed or does not match its deck, profile or result. ``key``: the key path in
    the record the error is about, when the check that raised it knows it (the record then gives the line).
    ``rule``: where a rule refused a recorded decision, that rule (as ``IllegalAction.rule``; the message already
    ends with it), else ""."""

    def __init__(self, reason: str = "", *, key: tuple[str | int, ...] | None = None, path: str | None = None,
                 line: int | None = None, turn: int | None = None, rule: str = "") -> None:
        self.key = key
        self.rule = rule
        super().__init__(reason, path=path, line=line, turn=turn)


class GameOver(IllegalAction):
    """An action attempted after the game has ended."""
