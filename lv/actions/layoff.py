"""The boss's lay-off: the answer the casino's boss gives to a gamble, where the profile lets the boss lay off.

000 "Action - Gamble" L194: "Before the roll, the boss of the casino taking the bet may "lay off" half of the bet to
the bank." The rule text gives the choice to the boss (``gamble.lay_off: boss_option``, the original's default;
its example at L199 has the gambler decline, the reading ``none`` gives no lay-off at all). So where the profile
has the option, a gamble chosen without the boss's answer (``Gamble(lot, bet, lay_off=None)``, ``gamble B3 4``
at ``lv move``) does not roll yet: the game waits for the boss (phase ``lay_off``), whose legal decisions are
then exactly the two answers, ``layoff`` and ``no-layoff`` (``LayOff(True)``, ``LayOff(False)``). The answer
rolls the gamble's dice, which the record keeps on the gamble decision as always: a gamble laid off is
``{action: gamble, lot: B3, bet: 4, lay_off: true}``, the record lv wrote before this decision existed. A game
file saved while the boss has not answered holds the gamble as ``lay_off: ask`` (``gamble B3 4 ask``).

The answer may also be given up front, as the record does (``Gamble(lot, bet, lay_off=True)``, ``gamble B3 4
layoff``; ``False``, ``gamble B3 4 no-layoff`` or plain ``gamble B3 4`` in a record or a script): one decision,
as before. Under ``gamble.lay_off: none`` nobody is asked and nothing waits.

The game's turn machinery carries the answer out (``Game.apply``, ``by_game``); this module holds the rule (when
the boss is asked, who, what the answers are, what waits), which the game, ``lv move``, the bots and the
explicit game of OpenSpiel and PettingZoo (lv/explicit.py) all read.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final

from mypy_extensions import mypyc_attr

from ..ruleids import Rule
from ._family import Decision, Family, Reason, Words
from ._values import FrozenDecision, as_flag, set_once

if TYPE_CHECKING:
    from ..profile import Profile
    from ..rules import Engine
    from ..state import GameState
    from .gamble import Gamble

LAY_OFF_PHASE: Final = "lay_off"  # the state's phase while a gamble waits for its boss's answer
YES_WORDS: Final = ("layoff", "lay-off", "lay_off")
NO_WORDS: Final = ("no-layoff", "no-lay-off", "no_lay_off", "nolayoff")


@mypyc_attr(acyclic=True)
class LayOff(FrozenDecision):
    """The boss's answer to the gamble that waits for it: lay off half the bet to the bank (``layoff``) or not
    (``no-layoff``). 000 "Action - Gamble" L194."""

    kind: ClassVar[str] = "layoff"
    _keys: ClassVar[tuple[str, ...]] = ("lay_off",)
    __slots__ = _keys

    def __init__(self, lay_off: Any) -> None:
        self.lay_off: Final[bool] = as_flag(self, "lay_off", lay_off)

    def _values(self) -> tuple[Any, ...]:
        return (self.lay_off,)

    def __setattr__(self, name: str, value: object) -> None:
        set_once(self, name, value)


ANSWERS: Final = (LayOff(False), LayOff(True))  # the legal list while a gamble waits: no, then yes


def asks_boss(profile: Profile) -> bool:
    """Does a gamble under ``profile`` wait for its boss's answer (``gamble.lay_off: boss_option``)?"""
    return profile.gamble.lay_off == "boss_option"


def waiting_gamble(s: GameState) -> tuple[str, int, int] | None:
    """(lot, bet, boss's seat) of the gamble that waits for its boss's answer, or None."""
    pending = s.pending
    if s.phase != LAY_OFF_PHASE or pending is None:
        return None
    return pending["lot"], pending["bet"], pending["boss"]


def ask(engine: Engine, s: GameState, player: int, lot: str, bet: int) -> Reason | None:
    """``player`` chose to bet ``bet`` at ``lot``: check it as the gamble it will be, then wait for the boss
    (phase ``lay_off``). The reason it is refused, or None (the game now waits)."""
    from .gamble import Gamble  # (gamble.py's module imports nothing of this one)

    reason = engine.why_not(s, player, Gamble(lot, bet, False))
    if reason is not None:
        return reason
    casino = engine.casino_at(s, lot)
    assert casino is not None  # a legal gamble is at a casino
    boss = engine.index(s).facts_of(casino).boss
    assert boss is not None  # ... with a boss
    s.phase, s.pending = LAY_OFF_PHASE, {"what": LAY_OFF_PHASE, "lot": lot, "bet": bet, "boss": boss,
                                         "player": player}
    return None


def answered(s: GameState, answer: LayOff) -> Gamble:
    """The waiting gamble with the boss's answer (the decision the record keeps); the wait is over. The caller
    puts ``s`` back if the gamble then fails."""
    from .gamble import Gamble

    pending = s.pending
    assert pending is not None and s.phase == LAY_OFF_PHASE
    s.phase, s.pending = "actions", None
    return Gamble(pending["lot"], pending["bet"], answer.lay_off)


def why_waiting(s: GameState, names: Sequence[str]) -> Reason:
    """What a gamble that waits for its boss allows meanwhile: nothing but the answer."""
    lot, bet, boss = s.pending["lot"], s.pending["bet"], s.pending["boss"]  # type: ignore[index]
    return (Rule.GAMBLE_LAY_OFF, f"the gamble of ${bet} at {lot} waits for its boss, {names[boss]}: lay off half "
                                 f"of it or not ('layoff' or 'no-layoff'), before the roll")


class LayOffFamily(Family):
    """The boss's answer: its notation, and the two answers listed while a gamble waits for them."""

    def parse(self, w: Words) -> LayOff:
        verb = w.words[0].lower()
        w.expect(1, "layoff | no-layoff")
        return LayOff(verb not in NO_WORDS)

    def format(self, a: LayOff, names: Sequence[str]) -> str:
        return "layoff" if a.lay_off else "no-layoff"

    def structured(self, a: LayOff, names: Sequence[str]) -> dict[str, Any]:
        """Never written on its own: a record keeps the answer on the gamble (``lay_off: true``)."""
        return {"do": self.format(a, names)}

    def group(self, a: LayOff) -> str:
        return "layoff"

    def active(self, profile: Profile) -> bool:
        return asks_boss(profile)

    def table_dice(self, game: Any, a: LayOff, faces: list[int]) -> list[int]:
        """At a table the answer comes with the gamble's two dice (``layoff --dice 3,5``): the roll follows it."""
        from .gamble import two_dice

        return two_dice(faces)

    def generate_waiting(self, engine: Engine, s: GameState, out: list[Decision]) -> None:
        """While a gamble waits for its boss: the boss's two answers (and nothing else)."""
        if s.phase == LAY_OFF_PHASE:
            out.extend(ANSWERS)


FAMILY = LayOffFamily(
    name="layoff", order=65, decisions=(LayOff,), verbs=("layoff",), aliases=YES_WORDS[1:] + NO_WORDS,
    by_game=(LayOff,), rolls="gamble", generates_waiting=True, applies=False)
