"""Exception classes. Each says *what* is wrong and *where*; the CLI prints ``str(err)`` on one line.

The caller can tell "not a decision" (NotationError) from "not legal here" (IllegalAction) from
"the file is wrong" (ProfileError, RecordError), as python-chess does for moves.
"""

from __future__ import annotations


class LvError(Exception):
    """Base class: bad input that the CLI reports with exit code 2, without a traceback."""


class ProfileError(LvError):
    """A rule profile that cannot be loaded: unknown key, wrong type, impossible value, unknown name."""


class BoardError(LvError):
    """The board data file is inconsistent."""


class NotationError(LvError):
    """Text that is not a decision in the one-line notation (``build A2 gold``)."""


class IllegalAction(LvError):
    """A well-formed decision that the rules forbid now. ``rule`` names the rule (a profile key or rule point)."""

    def __init__(self, message: str, rule: str = ""):
        self.rule = rule
        super().__init__(f"{message} [{rule}]" if rule else message)
        self.reason = message


class RecordError(LvError):
    """A game record that is malformed or does not match its deck, profile or result."""


class GameOver(IllegalAction):
    """An action attempted after the game has ended."""
