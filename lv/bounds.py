"""The bound of a whole-number profile parameter, written in its definition (``lv/profile.py``, an action family's
``Params``): ``attrs.field(validator=Whole(1, 12, "players"))``.

Every such parameter has one, so whatever a profile file, an override or a record's embedded profile says, a
game's set-up and its tables stay small (a received record once asked for casinos 100,000,000 high, and
setting up built a table per height until memory ran out). ``lv.profile.bounds()`` lists them, which is how the
tests set every parameter to its bound. Kept apart from ``lv.profile`` so that the action families can use it
without importing the profile module (which imports them).
"""

from __future__ import annotations

from typing import Any

import attrs


class Whole:
    """attrs validator: a whole number (not a bool) from ``low`` to ``high``, or one of ``words``."""

    __slots__ = ("low", "high", "words")

    def __init__(self, low: int, high: int, *words: str) -> None:
        self.low, self.high, self.words = low, high, words

    def __repr__(self) -> str:
        return f"Whole({', '.join(map(repr, (self.low, self.high, *self.words)))})"

    def __call__(self, _inst: Any, attr: attrs.Attribute[Any], value: Any) -> None:
        if isinstance(value, str) and value in self.words:
            return
        if isinstance(value, int) and not isinstance(value, bool) and self.low <= value <= self.high:
            return
        raise ValueError(f"{attr.name}: must be {self.text()}, not {value!r}")

    def text(self) -> str:
        """The bound in words: ``a whole number from 1 to 12, or 'players'``."""
        words = "".join(f", or {w!r}" for w in self.words)
        return f"a whole number from {self.low} to {self.high}{words}"
