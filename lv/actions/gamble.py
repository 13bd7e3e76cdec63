"""Gamble: bet at another player's casino. 000 "Action - Gamble" L186-199; 003 "Action - Gamble" L740-803.

``gamble B3 4`` (``gamble B3 4 layoff``: the boss lays off half, where ``gamble.lay_off`` allows; ``gamble B3 4
no-layoff``: the boss does not; ``gamble B3 4 ask``: the boss has not answered yet, see layoff.py). The bet is
$1 to ``gamble.bet_per_tile`` per tile (``gamble.tiles_counted``), at most the gambler's money and, where
``gamble.cap_at_boss_money``, the boss's. The legal list names each casino once, with the largest bet.

Events: gambled(player, lot, boss, bet, dice, total, outcome, lay_off, gambler_gets, boss_gets): ``outcome``
"lose", "win" or "double"; ``gambler_gets`` and ``boss_gets`` what each gained (negative: paid).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Final

from mypy_extensions import i64, mypyc_attr

from ..casinos import boss, dice_facts
from ..errors import IllegalAction
from ..events import Event, register
from ..ruleids import Rule
from ._family import RIVALS, Counted, Decision, Family, Moment, Reason, Words, add_ones, refuse
from ._values import COMPILED, FrozenDecision, as_flag_or_none, as_text, as_whole, new_event, set_once

if TYPE_CHECKING:
    from ..board import Board
    from ..casinos import Casino, DiceFacts
    from ..chance import Dice
    from ..profile import Profile
    from ..rules import Engine
    from ..state import GameState


@mypyc_attr(acyclic=True)
class Gamble(FrozenDecision):
    """Bet ``bet`` at the casino at ``lot`` (``gamble A2 5``); ``lay_off``: the boss's answer where the profile
    lets the boss lay off (``gamble.lay_off``), given up front (True, False); None: the boss is asked, and the game
    waits for the answer (``Game.apply``, lv/actions/layoff.py; where nobody may lay off, None is False)."""

    kind: ClassVar[str] = "gamble"
    _keys: ClassVar[tuple[str, ...]] = ("lot", "bet", "lay_off")
    __slots__ = _keys

    def __init__(self, lot: Any, bet: Any, lay_off: Any = False) -> None:
        self.lot: Final[str] = as_text(self, "lot", lot)
        self.bet: Final[int] = as_whole(self, "bet", bet)
        # the boss's answer; None: not given yet, the boss is asked
        self.lay_off: Final[bool | None] = as_flag_or_none(self, "lay_off", lay_off)

    def _values(self) -> tuple[Any, ...]:
        return (self.lot, self.bet, self.lay_off)

    def __setattr__(self, name: str, value: object) -> None:
        set_once(self, name, value)


@mypyc_attr(acyclic=True)
class Gambled(Event):
    kind: ClassVar[str] = "gambled"
    _keys: ClassVar[tuple[str, ...]] = ("player", "lot", "boss", "bet", "dice", "total", "outcome", "lay_off",
                                        "gambler_gets", "boss_gets")
    __slots__ = ("player", "lot", "boss", "bet", "_dice", "total", "outcome", "lay_off", "gambler_gets", "boss_gets")

    def __init__(self, player: int, lot: str, boss: int, bet: int, dice: Sequence[int], total: int, outcome: str,
                 lay_off: bool, gambler_gets: int, boss_gets: int) -> None:
        self.player = player
        self.lot = lot
        self.boss = boss
        self.bet = bet
        self._dice = tuple(dice)  # kept as a tuple, read as a new list (as events' lots: lv/events.py)
        self.total = total
        self.outcome = outcome  # "lose", "win" or "double"
        self.lay_off = lay_off
        self.gambler_gets = gambler_gets
        self.boss_gets = boss_gets

    @property
    def dice(self) -> list[int]:
        """The two dice, as a new list at each read."""
        return list(self._dice)


register(Gambled)


LAY_OFF_WORDS = ("layoff", "lay-off", "lay_off")
NO_LAY_OFF_WORDS = ("no-layoff", "no-lay-off", "no_lay_off", "nolayoff")
ASK_WORDS = ("ask",)  # the boss is asked (a game file saved while the boss has not answered)


# each gamble made once by lot and bet, for the generator's tables (one an engine, so one a game) and for the bets
# a bot or the search makes itself (uniform's random stake, greedy's half its money, the search's half stakes):
# made anew by the thousand, each field checked and set, they cost the pure build more than the rest of its choice
_GAMBLE: Final[dict[str, list[Gamble | None]]] = {}  # (Final: compiled, a C static)


def gamble_of(lot: str, bet: int) -> Gamble:
    """``Gamble(lot, bet)``, no lay-off given, made once (``bet``: $1 or more)."""
    row = _GAMBLE.get(lot)
    if row is None:
        row = _GAMBLE[lot] = []
    if bet >= len(row):
        row.extend([None] * (bet + 1 - len(row)))
    gamble = row[bet]
    if gamble is None:
        gamble = row[bet] = Gamble(lot, bet, False)
    return gamble


def two_dice(faces: list[int]) -> list[int]:
    """A gamble rolls two dice: the first two faces given at a table (taken from the list)."""
    if len(faces) < 2:
        raise IllegalAction(f"a gamble rolls two dice, {len(faces)} given", Rule.DICE)
    return [faces.pop(0), faces.pop(0)]


class GambleTable:
    """Gamble's table (``prepare``): whether risers count, the cap by tiles counted (``per`` a tile),
    ``gamble.per_turn`` and ``gamble.cap_at_boss_money`` (read by the generator without attribute lookups on the
    profile), and the decisions made so far by casino (its first lot's bit, ``Casino.first``), by bet: compiled,
    list reads where dicts by lot name and by bet cost two hash lookups a casino."""

    __slots__ = ("risers", "per", "caps", "per_turn", "at_boss", "made", "no_lay_off")

    def __init__(self, risers: bool, per: int, top: int, per_turn: int, at_boss: bool, lots: int,
                 no_lay_off: bool = False) -> None:
        self.risers = risers
        self.per = per
        self.caps = Counted(lambda n: per * n, top)
        self.per_turn = per_turn
        self.at_boss = at_boss
        self.no_lay_off = no_lay_off  # ``gamble.lay_off: none`` (the predicate's)
        # rows 64 long to begin with: the bets met at most casinos (fewer IndexErrors, each thousands of
        # instructions compiled)
        self.made: list[list[Gamble | None]] = [[None] * 64 for _ in range(lots)]


def table_cap(engine: Engine, casino: Casino) -> int:
    """The most the casino takes, before the players' money is counted (``caps.at``: compiled, a tuple read; the
    generator works it out itself, ``per`` a tile, so tests/test_legal_agrees.py still compares two paths)."""
    table = engine.family_tables.gamble  # (the engine's typed field: no lookup by name)
    return table.caps.at(casino.physical_tiles if table.risers else casino.spaces)


def bet_cap(engine: Engine, s: GameState, casino: Casino, gambler: int) -> int:
    """The largest bet: the table's cap, at most your money, and where the profile says so the boss's."""
    cap = table_cap(engine, casino)
    players = s.players
    if players[gambler].money < cap:
        cap = players[gambler].money
    if engine.family_tables.gamble.at_boss:
        b = dice_facts(s, casino).boss
        if b is not None and players[b].money < cap:
            cap = players[b].money
    return cap


def why_not_bet(engine: Engine, s: GameState, player: int, lot: str, bet: int | None,
                lay_off: bool | None = False) -> Reason | None:
    """``bet`` None: could the player gamble at ``lot`` at all. (The profile's parameters read from the engine's
    ``family_tables``: compiled, native reads, where the profile's attrs classes cost generic attribute lookups.)"""
    g = engine.family_tables.gamble
    if s.gambles >= g.per_turn:
        return (Rule.GAMBLE_PER_TURN, "you have already gambled this turn")
    casino = engine.casino_at(s, lot)
    if casino is None:
        return (Rule.GAMBLE_CASINO, f"{lot} has no casino")
    b = boss(s, casino)
    if b is None:
        return (Rule.GAMBLE_OTHERS, f"the casino at {lot} has no boss")
    if b == player:
        return (Rule.GAMBLE_OTHERS, "you can't gamble against yourself")
    if lay_off and g.no_lay_off:
        return (Rule.GAMBLE_LAY_OFF, "this profile has no lay-off")
    cap = bet_cap(engine, s, casino, player)
    if cap < 1:
        if s.players[player].money < 1:  # 000 L190 / 003 L786-787: not more than you have
            return (Rule.GAMBLE_OWN_MONEY, "you have $0: the smallest bet is $1")
        return (Rule.GAMBLE_CAP_AT_BOSS_MONEY, f"the most you can bet at {lot} is $0: the boss, "
                                               f"{s.players[b].name}, has $0")
    if bet is not None and not 1 <= bet <= cap:
        if g.at_boss and cap == s.players[b].money and bet > cap:  # name the rule that binds
            return (Rule.GAMBLE_CAP_AT_BOSS_MONEY, f"the bet at {lot} must be $1 to ${cap}: the boss, "
                                                   f"{s.players[b].name}, has only ${cap}")
        if bet > cap and cap == s.players[player].money:  # 000 L190 / 003 L786-787: not more than you have
            return (Rule.GAMBLE_OWN_MONEY, f"you have ${cap}: the bet at {lot} must be $1 to ${cap}")
        return (Rule.GAMBLE_BET_PER_TILE, f"the bet at {lot} must be $1 to ${cap}")
    return None


class GambleFamily(Family):
    """Gamble's rules: its notation, predicate, generator, listing, dice and application."""

    def effect(self, ev: Event, names: Sequence[str]) -> str:
        """``at blue's casino: rolled 1+2=3, wins $4`` (after ``gamble B3 4 ``)."""
        assert isinstance(ev, Gambled)
        boss = names[ev.boss]
        a, b = ev.dice
        rolled = f"at {boss}'s casino: rolled {a}+{b}={ev.total}"
        bet = ev.bet
        if ev.outcome == "lose":
            if ev.lay_off:
                return f"{rolled}, loses ${bet} (laid off: {boss} gets ${ev.boss_gets}, the bank ${bet - ev.boss_gets})"
            return f"{rolled}, loses ${bet} to {boss}"
        owed = bet * (2 if ev.outcome == "double" else 1)
        wins = "wins double: " if ev.outcome == "double" else "wins "
        got = ev.gambler_gets
        paid = -ev.boss_gets
        if ev.lay_off:
            return f"{rolled}, {wins}${got} (laid off: {boss} pays ${paid}, the bank ${got - paid})"
        if got < owed:
            return f"{rolled}, {wins}${owed} but {boss} has only ${paid}: +${got}"
        return f"{rolled}, {wins}${got}"

    def told(self, ev: Event, names: Sequence[str]) -> str | None:
        if not isinstance(ev, Gambled):
            return None
        return f"{names[ev.player]} bets ${ev.bet} on {ev.lot} {self.effect(ev, names)}"

    def listing(self, profile: Profile, a: Gamble) -> dict[str, Any]:
        """A legal gamble, listed once at its largest bet, as the bets it stands for: any from ``min`` to ``max``,
        and ``lay_off`` where the profile lets the boss lay off (``gamble.lay_off``)."""
        return {"lot": a.lot, "min": 1, "max": a.bet, "lay_off": profile.gamble.lay_off != "none"}

    def listing_text(self, g: dict[str, Any]) -> str:
        """``gamble B3 1..15 (the boss may lay off)``: then the boss is asked (lv/actions/layoff.py)."""
        return f"gamble {g['lot']} {g['min']}..{g['max']}" + (" (the boss may lay off)" if g.get("lay_off") else "")

    def parse(self, w: Words) -> Gamble:
        if len(w) == 4:
            word = w.word(3).lower()
            if word in LAY_OFF_WORDS:
                return Gamble(w.lot(1), w.amount(2), True)
            if word in NO_LAY_OFF_WORDS:
                return Gamble(w.lot(1), w.amount(2), False)
            if word in ASK_WORDS:
                return Gamble(w.lot(1), w.amount(2), None)
        w.expect(3, "gamble LOT BET [layoff]")
        return Gamble(w.lot(1), w.amount(2))

    def format(self, a: Gamble, names: Sequence[str]) -> str:
        lay_off = a.lay_off
        return f"gamble {a.lot} {a.bet}" + (" layoff" if lay_off else " ask" if lay_off is None else "")

    def structured(self, a: Gamble, names: Sequence[str]) -> dict[str, Any]:
        out: dict[str, Any] = {"action": "gamble", "lot": a.lot, "bet": a.bet}
        if a.lay_off:
            out["lay_off"] = True
        elif a.lay_off is None:  # the boss not asked yet: a game file saved while the game waits
            out["lay_off"] = "ask"
        return out

    def from_record(self, d: dict[str, Any]) -> str:
        lay_off = d.get("lay_off")
        return f"gamble {d.get('lot')} {d.get('bet')}" + (" layoff" if lay_off is True else " ask" if lay_off == "ask"
                                                           else "")

    def table_dice(self, game: Any, a: Gamble, faces: list[int]) -> list[int]:
        return two_dice(faces)

    def cost(self, engine: Engine, s: GameState, a: Gamble) -> int:
        """Its bet."""
        return a.bet

    def prepare(self, profile: Profile, board: Board) -> GambleTable:
        """Whether a bet counts the risers too (``gamble.tiles_counted``), and the cap by tiles counted,
        ``gamble.bet_per_tile`` each (000 L190 / 003 L783-794); the gambles a turn, and whether the boss's money
        caps a bet."""
        g = profile.gamble
        lots = len(board.order)
        return GambleTable(g.tiles_counted == "physical_tiles", g.bet_per_tile,
                           lots * profile.max_height(profile.players.max) + 1, g.per_turn, g.cap_at_boss_money, lots,
                           g.lay_off == "none")

    def why_not(self, engine: Engine, s: GameState, player: int, a: Gamble) -> Reason | None:
        return why_not_bet(engine, s, player, a.lot, a.bet, a.lay_off)

    def generate_casinos(self, m: Moment, rows: list[int]) -> None:
        """``why_not`` in bulk for the casinos other players boss: once a turn, the largest bet (``bet_cap``) if
        it is at least $1."""
        s, money = m.state, m.money
        table: GambleTable = m.family_tables.gamble  # typed: compiled, native reads and compares
        if s.gambles >= table.per_turn or money < 1:  # the smallest bet is $1
            return
        risers, per, at_boss, made = table.risers, table.per, table.at_boss, table.made
        players = s.players
        casinos, slots = m.casinos, m.slots
        for i in rows:
            casino, facts = casinos[i]
            cap = per * (casino.physical_tiles if risers else casino.spaces)  # table_cap: $1 at least (bet_per_tile >= 1)
            if money < cap:
                cap = money  # $1 at least too
            if at_boss:
                b = facts.boss
                assert b is not None  # a rival's casino has a boss
                boss_money = players[b].money
                if boss_money < cap:
                    if boss_money < 1:  # the only cap that can be below the $1 bet
                        continue
                    cap = boss_money
            row = made[casino.first]
            try:  # (no len() a casino: the row is short only when a larger bet than ever is met there)
                gamble = row[cap]
            except IndexError:  # grown to twice its length at least: few exceptions (each costs thousands of
                #   instructions compiled), and no row much longer than the bets met (the collector walks them)
                row.extend([None] * (max(cap + 1, 2 * len(row)) - len(row)))
                gamble = None
            if gamble is None:
                gamble = row[cap] = gamble_of(casino.name, cap)
            slots[i].append(gamble)

    def each_casino(self, m: Moment) -> int:
        """One gamble at every rival's casino (at its largest bet, made by ``make_casino``) while the player may
        gamble this turn and has $1, unless a boss whose money caps the bet has none (the generator skips that
        casino: then it is asked); none at any once the turn's gambles are made or the player has nothing. Reads
        what ``generate_casinos`` tests before it looks at a casino: ``s.gambles``, the player's money, and the
        players' money where the boss's caps a bet."""
        s = m.state
        table: GambleTable = m.family_tables.gamble
        if s.gambles >= table.per_turn or m.money < 1:
            return 0
        if table.at_boss:
            for p in s.players:
                if p.money < 1:
                    return -1
        return 1

    def make_casino(self, m: Moment, row: int, i: int) -> Decision:
        """The one gamble ``generate_casinos`` lists at the casino (``i`` is 0): at the largest bet, the table's cap
        (``caps``) at most the player's money, and where the profile says so the boss's; none generated."""
        table: GambleTable = m.family_tables.gamble
        casino, facts = m.casinos[row]
        cap = table.per * (casino.physical_tiles if table.risers else casino.spaces)  # table_cap, as the generator's
        money = m.money
        if money < cap:
            cap = money
        if table.at_boss:
            b = facts.boss
            assert b is not None  # a rival's casino has a boss
            boss_money = m.state.players[b].money
            if boss_money < cap:
                cap = boss_money
        made = table.made[casino.first]
        if cap >= len(made):  # (a larger bet than ever met there: the generator grows the row)
            return gamble_of(casino.name, cap)
        gamble = made[cap]
        if gamble is None:
            gamble = made[cap] = gamble_of(casino.name, cap)
        return gamble

    def count_in(self, m: Moment, mask: int, counts: list[int]) -> int:
        """``generate_casinos`` counted at the casinos of ``mask``: one at each casino of ``ones_in``."""
        return add_ones(counts, self.ones_in(m, mask))

    def ones_in(self, m: Moment, mask: int) -> int:
        """The casinos of ``mask`` with a gamble (``one_each``): all of them, but where the boss's money caps the
        bet and the boss has none (the cap is $1 at least otherwise: ``bet_per_tile`` >= 1, and the player has
        $1)."""
        s, money = m.state, m.money
        table: GambleTable = m.family_tables.gamble
        if s.gambles >= table.per_turn or money < 1:
            return 0
        players = s.players
        if table.at_boss:
            broke = False  # a player with no money (most lists: none; then no boss caps a bet below $1)
            for p in players:
                if p.money < 1:
                    broke = True
                    break
            if broke:
                casinos = m.casinos
                out: i64 = mask
                bits: i64 = mask  # (machine ints, compiled: a native shift and test a casino)
                one: i64 = 1
                i: i64 = 0
                while bits:
                    if bits & 1:
                        b = casinos[i][1].boss
                        assert b is not None  # a rival's casino has a boss
                        if players[b].money < 1:
                            out &= ~one
                    bits >>= 1
                    one <<= 1
                    i += 1
                return out
        return mask

    def apply(self, engine: Engine, s: GameState, player: int, a: Gamble, dice: Dice, events: list[Event],
              choices: dict[str, str]) -> None:
        engine.lot_check(a.lot)
        if not isinstance(a.bet, int) or a.bet < 1:
            raise IllegalAction("a bet is a whole number of dollars, at least $1", Rule.GAMBLE_BET_PER_TILE)
        refuse(self.why_not(engine, s, player, a))
        self.carry_out(engine, s, player, a, dice, events, choices)

    def carry_out(self, engine: Engine, s: GameState, player: int, a: Gamble, dice: Dice, events: list[Event],
                  choices: dict[str, str]) -> None:
        """``apply`` without the referee's checks: only for a decision the engine's own generator made now."""
        # the decision's and the profile's fields read once each (compiled, each read of an attrs object is a
        # generic attribute lookup)
        lot, bet, lay_off = a.lot, a.bet, a.lay_off is True  # (None: not asked, in a trade's step: no lay-off)
        tables = engine.family_tables  # the outcomes by total, as masks (compiled: native reads and tests)
        # (``casino_at`` and ``boss``, on the one index, current: ``Engine.carry_out`` made it so, as ``apply``'s checks
        # did; read without a call)
        index = s._casinos
        assert index is not None
        casino = index.at_bit[engine.board.index[lot]]  # (``index.at.get``, its call spared)
        assert casino is not None
        f = index._facts[casino.first]  # (``index.facts_of``, its call spared where they are kept, as they mostly are)
        b = (index.facts_of(casino) if f is None else f).boss
        assert b is not None
        d1, d2 = dice.gamble()
        total = d1 + d2
        gambler, house = s.players[player], s.players[b]
        s.gambles += 1
        if tables.gamble_lose >> total & 1:
            outcome = "lose"
            boss_share = bet // 2 if lay_off else bet  # 000 L194: the bank takes the rest
            gambler.money -= bet
            house.money += boss_share
            gambler_gets, boss_gets = -bet, boss_share
        else:
            double = tables.gamble_double >> total & 1 == 1
            outcome = "double" if double else "win"
            amount = bet * (2 if double else 1)
            if lay_off:
                if double and tables.double_of_stake:
                    boss_share = 2 * (bet // 2)
                else:
                    boss_share = amount // 2
                bank_share = amount - boss_share
            else:
                boss_share, bank_share = amount, 0
            paid = boss_share if boss_share <= house.money else house.money  # 000 L192 / 003 L740-742: only the
            #   money the boss has
            house.money -= paid
            gambler.money += paid + bank_share
            gambler_gets, boss_gets = paid + bank_share, -paid
        if not engine.mute:  # (a search's imagined games read no event)
            if COMPILED:
                events.append(Gambled(player, lot, b, bet, (d1, d2), total, outcome, lay_off, gambler_gets,
                                      boss_gets))  # positional, in field order (see build.py)
            else:  # (pure: without ``__init__``'s frame, see ``new_event``; a field a statement, no tuple packed and
                #    unpacked)
                told = new_event(Gambled)
                told.player = player
                told.lot = lot
                told.boss = b
                told.bet = bet
                told._dice = (d1, d2)
                told.total = total
                told.outcome = outcome
                told.lay_off = lay_off
                told.gambler_gets = gambler_gets
                told.boss_gets = boss_gets
                events.append(told)


FAMILY = GambleFamily(
    name="gamble", order=60, decisions=(Gamble,), verbs=("gamble",), effect_sep=" ", record_kinds=("gamble",),
    in_trade=True, main_event="gambled", rolls="gamble", casinos=RIVALS, one_each=True,
    profile_keys=("gamble.per_turn", "gamble.bet_per_tile", "gamble.tiles_counted", "gamble.cap_at_boss_money",
                  "gamble.lay_off", "gamble.lay_off_double_basis", "gamble.win_even", "gamble.win_double",
                  "gamble.lose"))
