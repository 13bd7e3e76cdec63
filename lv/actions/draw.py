"""The draw step as decisions: ``draw`` (turn over the next card), and at a table the decisions a draw may wait
for, ``reroll`` (a tie's dice) and ``move`` (which piece moves when none is left).

The draw step itself (take-overs, payouts, ties) is the engine's (rules.py), not a player action; the game's turn
machinery carries out a ``Draw`` (``by_game``) and the engine's ``resume_draw`` a ``Reroll`` or ``Choose``.
000 "Step 1: Draw" L61-112; 003 Steps 1-5 L295-416.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final

from mypy_extensions import mypyc_attr

from ..board import END_CARD
from ._family import Decision, Family, Words
from ._values import FrozenDecision, as_lot_faces, as_text, as_texts, as_whole_or_none, set_once

if TYPE_CHECKING:
    from ..rules import Engine
    from ..state import GameState


@mypyc_attr(acyclic=True)
class Draw(FrozenDecision):
    """The draw step as a decision: turn over the next card. ``cards``: the cards the player says were turned
    over (``draw D5``; an F card skipped in a 2-player game and the card after it: ``draw F3 D5``), checked
    against the deck, or at a table, the cards themselves. Empty: whatever is on top."""

    kind: ClassVar[str] = "draw"
    _keys: ClassVar[tuple[str, ...]] = ("cards", "player")
    __slots__ = _keys

    def __init__(self, cards: Any = (), player: Any = None) -> None:
        self.cards: Final[tuple[str, ...]] = as_texts(self, "cards", cards)
        # who says they draw (``draw D5 by blue``): only the current player may
        self.player: Final[int | None] = as_whole_or_none(self, "player", player)

    def _values(self) -> tuple[Any, ...]:
        return (self.cards, self.player)

    def __setattr__(self, name: str, value: object) -> None:
        set_once(self, name, value)


@mypyc_attr(acyclic=True)
class Reroll(FrozenDecision):
    """At a table, the dice of a tie reroll the draw waits for: ``values`` ((lot, face), ...) in the order asked.
    003 "Settling Who's the Boss" L426-445; 000 "Reroll if Tied" L203-209."""

    kind: ClassVar[str] = "reroll"
    _keys: ClassVar[tuple[str, ...]] = ("values",)
    __slots__ = _keys

    def __init__(self, values: Any = ()) -> None:
        self.values: Final[tuple[tuple[str, int], ...]] = as_lot_faces(self, "values", values)

    def _values(self) -> tuple[Any, ...]:
        return (self.values,)

    def __setattr__(self, name: str, value: object) -> None:
        set_once(self, name, value)


@mypyc_attr(acyclic=True)
class Choose(FrozenDecision):
    """At a table, which of the drawer's pieces moves when none is left: ``what`` is "marker_from" or "die_from".
    003 "Available Player Markers" L266-271, "Available Dice" L251-262."""

    kind: ClassVar[str] = "move"
    _keys: ClassVar[tuple[str, ...]] = ("what", "lot")
    __slots__ = _keys

    def __init__(self, what: Any, lot: Any) -> None:
        self.what: Final[str] = as_text(self, "what", what)
        self.lot: Final[str] = as_text(self, "lot", lot)

    def _values(self) -> tuple[Any, ...]:
        return (self.what, self.lot)

    def __setattr__(self, name: str, value: object) -> None:
        set_once(self, name, value)


DRAW_CHOICES = (Reroll, Choose)  # the draw's own decisions, asked for after the card is known


_DRAW: Final = Draw()  # (Final: compiled, a C static, not a lookup in the module's dict)


class DrawFamily(Family):
    """The draw step's decisions: their notation, and the draw listed while the game waits for it."""

    def parse(self, w: Words) -> Draw | Reroll | Choose:
        words, verb = w.words, w.words[0].lower()
        if verb == "reroll":  # reroll C5 4 C6 2 (bare 'reroll': the dice come with --dice)
            pairs = words[1:]
            if len(pairs) % 2:
                raise w.fail("expected 'reroll LOT FACE [LOT FACE ...]', e.g. 'reroll C5 4 C6 2'")
            values = []
            for i in range(1, len(words), 2):
                face = words[i + 1]
                if not (face.isascii() and face.isdigit()) or not 1 <= int(face) <= 6:
                    raise w.fail(f"'{face}' is not a die face (1-6)")
                values.append((w.lot(i), int(face)))
            return Reroll(tuple(values))
        if verb == "move":
            if len(words) != 3 or words[1].lower() not in ("marker", "die"):
                raise w.fail("expected 'move marker LOT' or 'move die LOT'")
            return Choose(f"{words[1].lower()}_from", w.lot(2))
        cards, player, end = [], None, len(words)
        if len(words) >= 3 and words[-2].lower() == "by":  # who says they draw: only the current player may
            player, end = w.player(len(words) - 1), len(words) - 2
        for word in words[1:end]:
            card = word.upper()
            if card != END_CARD and card not in w.board.lots:
                raise w.fail(f"unknown card '{word}' (a lot, A1-F9, or {END_CARD})")
            cards.append(card)
        return Draw(tuple(cards), player)

    def format(self, a: Draw | Reroll | Choose, names: Sequence[str]) -> str:
        if isinstance(a, Reroll):
            return " ".join(["reroll"] + [f"{lot} {v}" for lot, v in a.values])
        if isinstance(a, Choose):
            return f"move {a.what.split('_')[0]} {a.lot}"
        drawer = ("by", names[a.player]) if a.player is not None else ()
        return " ".join(("draw",) + tuple(a.cards) + drawer)

    def structured(self, a: Draw | Reroll | Choose, names: Sequence[str]) -> dict[str, Any]:
        if isinstance(a, Draw):
            return {"action": "draw", "cards": list(a.cards)}
        return {"do": self.format(a, names)}

    def group(self, a: Draw | Reroll | Choose) -> str:
        return a.kind

    def generate_waiting(self, engine: Engine, s: GameState, out: list[Decision]) -> None:
        """Resting at "X is to draw": the draw (and trades, never listed)."""
        if s.phase == "draw":
            out.append(_DRAW)


FAMILY = DrawFamily(
    name="draw", order=0, decisions=(Draw, Reroll, Choose), verbs=("draw", "reroll", "move"), by_game=(Draw,),
    generates_waiting=True, applies=False)
