"""The rules of Lords of Vegas as functions of (state, profile, action, dice) that change the state and return
events, or refuse with the rule that forbids the action.

Every place where the editions differ reads a profile parameter; rulebook passages are cited as
000 (original, shared/seeds/000_...) and 003 (revised, shared/seeds/003_...) with their section names.
This module holds the core that is no player's action: the draw step, payouts and scoring, ties, merges and
bosses, pieces running out, the end of the game. The actions live in their families (``lv/actions/``), which
``apply`` finds through the table; each family's ``apply`` checks its own ``why_not`` first.
"""

from __future__ import annotations

import copy

from typing import Any, Final, cast

from . import actions as A
from .actions._family import Family, Moment, Reason, refuse
from .actions._table import FAMILY_OF
from .actions.gamble import GambleTable
from .actions.raise_ import RaiseTable
from .actions.remodel import RemodelTable
from .actions.reorganize import ReorganizeTable
from .actions.sprawl import SprawlTable
from .actions.layoff import LAY_OFF_PHASE
from .actions.layoff import why_waiting as lay_off_waiting
from .board import END_CARD, STRIP, Board, load_board, popcount
from .casinos import Casino, CasinoIndex, DiceFacts, casino_index, dice_facts
from .chance import Dice, NeedDice
from .errors import IllegalAction
from .events import (BossChanged, CardDrawn, DieMoved, DieTakenOver, Event, GameEnded, MarkerMoved, MarkerPlaced,
                     Merged, Paid, Scored, TieRerolled, TurnStarted)
from .profile import Profile
from .ruleids import Rule
from .state import GameState, Result

__all__ = ["DRAW_FIRST", "DRAW_NAMED", "DRAW_ONCE", "DRAW_TURN", "Engine", "NeedChoice", "Reason", "TIE_REROLL",
           "TURN_ORDER"]

# Rules named in refusals of the turn order (lv/ruleids.py)
TURN_ORDER = Rule.TURN_ORDER
DRAW_FIRST = Rule.DRAW_FIRST
DRAW_TURN = Rule.DRAW_TURN
DRAW_ONCE = Rule.DRAW_ONCE
TIE_REROLL = Rule.TIE_REROLL
DRAW_NAMED = Rule.DRAW_NAMED
# per block, its casinos with their dice facts (``CasinoIndex.pair_blocks``: ``Engine.snapshot``)
Blocks = tuple[list[tuple[Casino, DiceFacts]], ...]
_WAITS = {"reroll": "the tie reroll", "marker_from": "which marker to move ('move marker LOT')",
          "die_from": "which die to move ('move die LOT')"}


class NeedChoice(Exception):
    """At a table, the drawer has no marker (die) left and must say which to move (``what``)."""

    def __init__(self, what: str):
        super().__init__(what)
        self.what = what


class Engine:
    """The rules under one profile. Stateless apart from the board and profile: the state is passed in."""

    def __init__(self, profile: Profile, board: Board | None = None, quiet: bool = False):
        self.profile = profile
        self.board = board or load_board()
        # quiet: the events only a record, a replay or the narrative reads are not made (turn_started, card_drawn,
        # paid, marker_placed, die_taken_over, merged, boss_changed): a simulation that keeps no record and reads
        # the metrics (scored, the families' events) or a search's imagined games. The game is the same.
        self.quiet = quiet
        # mute: no event is read at all (a search's imagined games, which throw their events away; set with quiet):
        # not even the scores quiet keeps for the metrics are made
        self.mute = False
        p = profile
        self._join_rule = p.casino.join_rule
        # the action families' tables of this profile and board (costs by size, ...: Family.prepare)
        # the draw step's parameters, read once (typed: compiled, native reads; the profile's attrs classes are
        # read through Python attribute lookups)
        self._lot_income: int = p.payout.lot_income
        self._per_pip: int = p.payout.money_per_pip
        self._by_points: bool = p.scoring.order == "ascending_points"
        self._physical_tiles: bool = p.scoring.points == "physical_tiles"
        self._dieless_scores: bool = p.casino.dieless_tile_scores
        self._target: int = p.end.instant_win_points
        self._win_at_once: bool = p.end.instant_win_mode == "immediate"
        self._ties_at_once: bool = p.ties.check == "immediate"
        self._stop_die: bool = p.ties.stop_when == "single_top_die"
        self._rerolls_count: bool = p.reorg.tie_rerolls_count
        # the pieces each player has and what happens when they run out, and what the end card pays (read at every
        # build, draw and take-over)
        self.tiles_per_color: int = p.components.tiles_per_color
        self._dice_per_player: int = p.components.dice_per_player
        self._markers_per_player: int = p.components.markers_per_player
        self._no_die: bool = p.resources.dice_exhausted == "no_die"
        self._no_marker: bool = p.resources.markers_exhausted == "no_marker"
        self._end_pays: tuple[bool, bool] = (p.end.card_pays_lots, p.end.card_pays_strip)  # (lots, strip)
        self.tables: dict[str, Any] = A.tables_for(profile, self.board)
        # the tables the cost paths and the predicates read, typed (``FamilyTables``). One field, not five: the pure
        # build's instance dict shares its keys (specialized attribute reads) up to 29 attributes, which the engine
        # has (the end card's two flags are one field for that)
        # (read-only: made once per profile and board, kept with their tables, as ``sprawl costs by bit``; a game's
        # engine is made for each game)
        family_tables: FamilyTables | None = self.tables.get("family tables")
        if family_tables is None:
            family_tables = self.tables["family tables"] = FamilyTables(self.tables, profile, self.board)
        self.family_tables = family_tables
        self.per_players: dict[int, tuple[str | None, int]] = {}  # players -> (closed block, max height)
        # legal.py's lists of decisions at each casino, emptied after each use: an engine serves one game, and
        # one game one thread (the families' tables above are shared, read-only, by every engine of a profile)
        self.slots: list[list[Any]] = []
        self.moment: Moment | None = None  # legal.py's, renewed for each list (typed: compiled, a native read)
        # the draw step's scratch space and facts kept by number of players (one field: see family_tables)
        # (and, pure, ``pay_and_score``'s parameters and the score track, read as one tuple)
        floor = self.board._track_floor
        self._draw = DrawScratch(len(self.board.order), (
            self._per_pip, self._by_points, self._physical_tiles, self._dieless_scores, len(self.board.order),
            self._win_at_once, floor, len(floor) - 1))

    def __deepcopy__(self, memo: dict[int, Any]) -> Engine:
        """A fresh engine for a copy of its profile and board (a compiled class has no default deep copy; the
        lists and the moment are scratch space, made again)."""
        return Engine(copy.deepcopy(self.profile, memo), copy.deepcopy(self.board, memo), self.quiet)

    # ------------------------------------------------------------------ lookups
    def index(self, s: GameState) -> CasinoIndex:
        """The state's casino index, current (``casino_index``; asked for on every decision: its test here, one
        call fewer when the index is current, as it mostly is)."""
        index = s._casinos
        if index is None or index.dirty or index.join_rule != self._join_rule:
            return casino_index(self.board, s, self._join_rule)
        return index

    def casinos(self, s: GameState) -> list[Casino]:
        """Every casino in board order of its first lot (do not change the list)."""
        return casino_index(self.board, s, self._join_rule).all()

    def casinos_with_dice(self, s: GameState) -> list[tuple[Casino, DiceFacts]]:
        return casino_index(self.board, s, self._join_rule).with_dice(s.tiles)

    def casino_at(self, s: GameState, lot: str) -> Casino | None:
        i = self.board.index.get(lot)  # (the index's ``at_bit`` read here: ``at.get`` is the same, a call more)
        if i is None:
            return None
        index = s._casinos  # (``index``, written out: the index is current, as it mostly is, without a call)
        if index is None or index.dirty or index.join_rule != self._join_rule:
            index = casino_index(self.board, s, self._join_rule)
        return index.at_bit[i]

    def available_tiles(self, s: GameState, color: str) -> int:
        """Tiles of ``color`` still off the board."""
        return A.tiles_left(self, s, color)

    def f_closed(self, s: GameState, lot: str) -> bool:
        """Is ``lot`` on the block closed in this game (2 players, where the profile closes it)?"""
        mask = self.closed_mask(len(s.players))
        return mask != 0 and self.board.bit[lot] & mask != 0

    def closed_mask(self, players: int) -> int:
        """The lots of the block closed in a game of ``players`` (``f_closed``; 0: none), kept once known (the same
        in every draw of a game; the deal reads it once for its cards)."""
        draw = self._draw
        if players != draw.closed_for:
            closed = A.closed_block(self.profile, players)
            draw.closed_mask = 0 if closed is None else self.board.block_mask[closed]
            draw.closed_for = players
        return draw.closed_mask

    def max_height(self, s: GameState) -> int:
        return self.profile.max_height(len(s.players))

    def points(self, s: GameState, casino: Casino) -> int:
        """Points a casino scores: tiles incl. risers (003 L411-414) or spaces; die-less tiles per profile."""
        spaces = casino.spaces if self._dieless_scores else (casino.mask & s.dice_mask).bit_count()
        return spaces * casino.height if self._physical_tiles else spaces

    def lot_check(self, lot: str) -> None:
        if lot not in self.board.lots:
            raise IllegalAction(f"unknown lot '{lot}' (lots are A1-A6, B1-B6, C1-C12, D1-D9, E1-E6, F1-F9)", Rule.BOARD)

    def color_check(self, color: str) -> None:
        if color not in self.board.colors:
            raise IllegalAction(f"unknown casino colour '{color}' (colours: {', '.join(self.board.colors)})", Rule.BOARD)

    # ------------------------------------------------------------------ the action families (lv/actions)
    def why_not(self, s: GameState, player: int, action: A.Decision) -> Reason | None:
        """The reason the family's predicate gives for refusing ``action`` by ``player`` now, or None."""
        family = _FAMILY_OF.get(type(action))
        if family is None or not family.applies:
            return (Rule.ACTIONS, f"not an action: {action!r}")
        return family.why_not(self, s, player, action)

    def action_cost(self, s: GameState, action: A.Decision) -> int:
        """What a legal ``action`` costs its player now, in dollars: a gamble its bet, a trade or ``end`` nothing.
        (``lv legal --json`` lists it; the families charge the same amounts.)"""
        kind = type(action)
        family: Family | None = None
        if _COMPILED:  # the classes compared by identity, the commonest first: native compares, where the dict
            #            hashes the class and looks it up (pure: the dict, one C call, is cheaper than the loop)
            kinds = _COST_KINDS
            for k in range(len(kinds)):
                if kinds[k] is kind:
                    family = _COST_FAMILIES[k]
                    break
        if family is None:
            family = _FAMILY_OF.get(kind)  # (a C static: no lookup in the module's globals)
            if family is None:
                return 0
        return family.cost(self, s, action)

    def no_casino(self, lot: str) -> IllegalAction:
        return IllegalAction(f"{lot}: no casino there", Rule.ACTIONS)

    # ------------------------------------------------------------------ pieces running out
    def free_die(self, s: GameState, player: int, keep: str, events: list[Event], choice: str | None = None
                  ) -> tuple[bool, str | None]:
        """Before placing a die: (can place, lot a die was taken from). 003 L251-262 "Available Dice"."""
        if s.dice_count(player) < self._dice_per_player:
            return True, None
        if self._no_die:
            return False, None
        on_board = s.dice_on_board(player)
        candidates = [lot for lot in on_board if lot != keep]
        if choice is not None and choice not in candidates:
            raise IllegalAction(f"{s.players[player].name} has no die on {choice} to move", Rule.RESOURCES_DICE_EXHAUSTED)
        idx = self.board.index
        lot = choice or min(candidates, key=lambda x: (s.tiles[x].value, idx[x]))
        s.set_die(lot, None, None)
        events.append(DieMoved(player, lot))
        return True, lot

    def free_marker(self, s: GameState, player: int, events: list[Event], choice: str | None = None
                     ) -> tuple[bool, str | None]:
        """Before placing a marker: 003 L266-271 "Available Player Markers"."""
        if s.marker_count(player) < self._markers_per_player:
            return True, None
        if self._no_marker:
            return False, None
        on_board = s.markers_on_board(player)
        if choice is not None and choice not in on_board:
            raise IllegalAction(f"{s.players[player].name} has no marker on {choice} to move", Rule.RESOURCES_MARKERS_EXHAUSTED)
        lots = self.board.lots
        lot = choice or min(on_board, key=lambda x: (lots[x].price, self.board.index[x]))
        s.remove_marker(lot)
        events.append(MarkerMoved(player, lot))
        return True, lot

    # ------------------------------------------------------------------ consequences
    def snapshot(self, s: GameState) -> Blocks:
        """Each block's casinos with their dice facts (``CasinoIndex.pair_blocks``): a block where no tile and no
        die changed keeps the very same list, so ``consequences`` skips it; callers must not change the lists.
        Quiet, nothing (``consequences`` only tells)."""
        if self.quiet:
            return ()
        return casino_index(self.board, s, self._join_rule).pair_blocks()

    def consequences(self, s: GameState, before: Blocks, events: list[Event]) -> None:
        """Merges and boss changes since ``before`` (003 L541-547: same colour and height join instantly).
        Casinos never cross a street, so the casinos before and after are compared block by block."""
        if self.quiet:
            return
        self._tell(s, before, self.snapshot(s), events)

    def _tell(self, s: GameState, before: Blocks, after: Blocks, events: list[Event]) -> None:
        """``consequences``: the merges and boss changes from ``before`` to ``after`` (``snapshot``s). A casino
        on the lots of one before it, with the same boss, tells nothing; any other tells the merge of the casinos
        it was made of (two or more) and a new boss of the largest of them (the first of the largest)."""
        for k in range(len(after)):  # (an index, not zip: compiled, native reads of the two tuples)
            now, was = after[k], before[k]
            if now is was:
                continue  # nothing changed in the block
            kept, j = len(was), -1
            for casino, facts in now:
                if _COMPILED:  # most casinos of a changed block are where they were, the very objects (casinos are
                    #            made once, dice facts kept until a die changes): nothing to tell, no scan (pure,
                    #            more bytecodes than the scan saves)
                    j += 1
                    if j < kept:
                        old, old_facts = was[j]
                        if old is casino and old_facts is facts:
                            continue
                mask, b = casino.mask, facts.boss
                same = False
                for old, old_facts in was:
                    if old.mask == mask:
                        same = old_facts.boss == b
                        break
                if same:
                    continue  # the very casino it was, with the same boss: nothing to tell
                # the casinos it was made of, in the order of its lots: (mask, boss) of each
                prior: list[tuple[int, int | None]] = []
                rest = mask
                while rest:
                    low = rest & -rest
                    rest ^= low
                    for old, old_facts in was:
                        if old.mask & low:
                            prior.append((old.mask, old_facts.boss))
                            rest &= ~old.mask
                            break
                if not prior:
                    continue
                if len(prior) >= 2:  # its first tile's colour and height (a "color" join may mix heights)
                    i = casino.first
                    color = s.tile_colors[i]
                    assert color is not None  # a casino's lot has a tile
                    events.append(Merged(casino.lots, color, s.tile_heights[i]))  # positional: see pay_lots
                # (compiled, a native count: ``bit_count`` is a Python method call there)
                main = prior[0]
                size = popcount(main[0]) if _COMPILED else main[0].bit_count()
                for old_pair in prior:
                    count = popcount(old_pair[0]) if _COMPILED else old_pair[0].bit_count()
                    if count > size:
                        main, size = old_pair, count
                if main[1] != b:
                    events.append(BossChanged(casino.lots, main[1], b))

    def _told(self, s: GameState, index: CasinoIndex, before: tuple[dict[int, int | None], ...],
              after: tuple[dict[int, int | None], ...], events: list[Event], blocks: int) -> None:
        """``_tell`` from the bosses by mask of each block (``CasinoIndex.boss_blocks``) before and after, on the
        index ``index`` (current): pure, where a block's casinos new or with another boss are found by the difference
        of the two dicts' items, in C (``_tell`` scans the block's casinos before for each casino after). The same
        events, in the same order. ``blocks``: the blocks to compare, as bits (``CasinoIndex.rebossed``: those whose
        bosses by mask were made anew; the others' are the very dicts they were)."""
        at_bit = index.at_bit
        while blocks:
            k = (blocks & -blocks).bit_length() - 1
            blocks &= blocks - 1
            now, was = after[k], before[k]
            if now is was or now == was:
                continue  # nothing changed in the block (or its bosses by mask made again the same: most rebossed
                #           blocks, compared in C, not walked)
            # (mask, boss) of the casinos new or with another boss: walked (a block's few), not as the difference
            #   of the items' sets, which made a set and hashed each pair in fewer bytecodes but more time (round 25)
            found: list[tuple[int, int | None]] | None = None
            for mask, b in now.items():
                if mask not in was or was[mask] != b:
                    if found is None:
                        found = [(mask, b)]
                    else:
                        found.append((mask, b))
            if found is None:
                continue
            for mask, b in (found if len(found) == 1 else sorted(found, key=_first_lot)):  # (in board order)
                # the casinos it was made of: (mask, boss) of each casino of the block before with a lot in it (one
                # pass over the block's few, not one a lot of it)
                prior: list[tuple[int, int | None]] = []
                for old in was.items():
                    if old[0] & mask:
                        prior.append(old)
                if not prior:
                    continue
                casino = at_bit[(mask & -mask).bit_length() - 1]
                assert casino is not None  # a casino of the index
                if len(prior) == 1:  # (most: a casino grown, cut or rebossed)
                    boss = prior[0][1]
                else:
                    # in the order of its lots: by each one's first lot in it (the block's are in board order of their
                    # own first lots, which a casino cut by a remodel may not keep)
                    prior.sort(key=lambda old: old[0] & mask & -(old[0] & mask))
                    # its first tile's colour and height (a "color" join may mix heights)
                    i = casino.first
                    color = s.tile_colors[i]
                    assert color is not None  # a casino's lot has a tile
                    events.append(Merged(casino.lots, color, s.tile_heights[i]))  # positional: see pay_lots
                    # the boss of the largest it was made of (the first of those as large)
                    main = prior[0]
                    size = main[0].bit_count()
                    for old_pair in prior:
                        count = old_pair[0].bit_count()
                        if count > size:
                            main, size = old_pair, count
                    boss = main[1]
                if boss != b:
                    events.append(BossChanged(casino.lots, boss, b))

    def resolve_ties(self, s: GameState, dice: Dice, events: list[Event], rerolled: tuple[str, ...] = ()) -> None:
        """000 "Reroll if Tied" L203-209; 003 "Settling Who's the Boss" L426-445. Free rerolls of the tied top
        dice until one player (``single_top_owner``) or one die (``single_top_die``) holds the top value.
        ``rerolled``: lots already rerolled in this settling (a reroll given at a table), so it goes on."""
        # two or more players share the top value (casinos are disjoint: rerolls in one leave the others alone)
        index = casino_index(self.board, s, self._join_rule)
        pairs = index.tied()
        if not pairs and not rerolled:
            return  # the common case: no casino has a tie
        tied = [c for c, _ in pairs]
        if rerolled:  # a settling begun with dice given at a table goes on in its casino (single_top_die)
            tied += [c for c in index.all()
                     if not set(c.lots).isdisjoint(rerolled) and all(t.lots != c.lots for t in tied)]
        elif not tied:
            return
        for casino in tied:
            rounds = 1 if rerolled and not set(casino.lots).isdisjoint(rerolled) else 0
            while True:
                facts = dice_facts(s, casino)
                lots = facts.top_lots
                tied_now = facts.boss is None and len(lots) >= 2  # two or more players share the top value
                if not tied_now and (rounds == 0 or not self._stop_die or len(lots) < 2):
                    break
                if rounds > 500:
                    raise IllegalAction("tie rerolls do not end (recorded dice keep tying)", Rule.TIES_STOP_WHEN)
                values = dice.tie(list(lots))
                s.reroll(values)
                events.append(TieRerolled(lots, dict(values)))  # (the dice facts' tuple)
                if self._rerolls_count:
                    s.reorganizing().update(lots)
                rounds += 1

    # ------------------------------------------------------------------ the draw step
    def begin_turn(self, s: GameState, player: int, dice: Dice, events: list[Event],
                   choices: dict[str, str] | None = None, draw: bool = True, table: bool = False,
                   named: tuple[str, ...] = (), begun: bool = False) -> None:
        """``player``'s turn begins: the turn's counters are cleared, then the draw step (unless ``draw`` is
        False: the game then rests at "X is to draw", for a draw decision). ``begun``: the turn has begun (``player``
        is its player), only its draw step is made (``draw_step``, which ``named`` is for). The draw step is made here,
        not in a call of ``draw_step``: a turn's start and its draw are one frame (``Game._begin_turn``, a search's
        imagined turns)."""
        if not begun:
            s.turn += 1
            s.current = player
            s.phase = "draw"
            s.drawn = []
            s.gambles = 0
            if s.reorganized:  # (an empty set is kept: most turns reorganize nothing; a checkpoint copies it if
                #                changed)
                s.reorganized = set()
            if not self.quiet:
                if _COMPILED:
                    events.append(TurnStarted(s.turn, player))
                else:  # pure: kept (``KeptEvents``)
                    kept = self._draw.kept or self._kept()
                    try:  # (a turn not kept yet, or a seat from 8: none kept, made below)
                        event = kept.started[s.turn][player]
                    except IndexError:
                        event = None
                    events.append(event if event is not None else kept.turn_started(s.turn, player))
            if not draw:
                return
        # the draw step (``draw_step``): its docstring says what it does
        choices = choices if choices is not None else _NO_CHOICES
        names = list(named) if named else _NO_NAMES  # (only taken from, and only if it has any)
        if not _COMPILED:  # pure: each card's facts in a game of this many players, made once (``_draw_cards``)
            scratch = self._draw
            cards = scratch.cards if scratch.cards_for == len(s.players) else self._draw_cards(len(s.players))
            quiet = self.quiet
        while True:
            if table:
                if not names:
                    more = f" ({s.drawn[-1]} was skipped: name the next card as well)" if s.drawn else ""
                    raise IllegalAction(f"name the card turned over at the table, e.g. 'draw D5'{more}", DRAW_NAMED)
                card = names.pop(0)
                if card not in s.deck:
                    raise IllegalAction(f"{card} is not in the deck: it was dealt or drawn already", DRAW_NAMED)
                (s.deck if s._undo is None else s.changing_deck()).remove(card)
            else:
                if not s.deck:
                    self.end_game(s, "deck_exhausted", events)
                    return
                # (no checkpoint open, as in every game but a pushed one: the deck itself, no call)
                card = (s.deck if s._undo is None else s.changing_deck()).pop(0)
                if names and names.pop(0) != card:
                    raise IllegalAction(f"the card on top of the deck is not {named[len(s.drawn)]}", DRAW_NAMED)
            s.drawn.append(card)
            s.discards.append(card)
            if card == END_CARD:
                if names:
                    raise IllegalAction(f"{', '.join(names)}: no card is drawn after the end card", DRAW_NAMED)
                if not self.quiet:
                    events.append(CardDrawn(player, card, STRIP))
                pays_lots, pays_strip = self._end_pays
                if pays_lots:
                    self.pay_lots(s, events)
                if pays_strip:
                    self.pay_and_score(s, STRIP, events, end_card=True)
                if s.phase != "over":
                    self.end_game(s, "end_card", events)
                return
            if not _COMPILED:  # pure: the card's facts read at once (its lot's bit, its colour and colour number,
                #                whether it is skipped, its events kept by seat: ``_draw_cards``)
                at, bit, color, color_id, skipped, drawn_by, placed_by = cards[card]
                if not quiet:
                    drawn = drawn_by[player]
                    if drawn is None:
                        drawn = drawn_by[player] = CardDrawn(player, card, color, skipped)
                    events.append(drawn)
            else:
                # the card's lot by bit, looked up once: its colour and colour number read from the board's tables by
                # bit, and the take-over given the bit
                at = self.board.index[card]
                bit = 1 << at
                color, color_id = self.board.card_colors[at], self.board.card_color_ids[at]
                scratch = self._draw
                if scratch.closed_for == len(s.players):  # (``f_closed`` once known: without its call)
                    skipped = scratch.closed_mask != 0 and bit & scratch.closed_mask != 0
                else:
                    skipped = self.f_closed(s, card)
                if not self.quiet:
                    events.append(CardDrawn(player, card, color, skipped))
            if skipped:
                self.pay_lots(s, events)
                self.pay_and_score(s, color, events, False, color_id)
            elif not s.tile_mask & bit:
                # an empty lot or a marker's (most draws): the take-over moves markers only, so no casino, die or boss
                # changes: no snapshot to compare, nothing to tell; the ties asked of the index as ``_settle_card`` does
                if (not _COMPILED and not s.markers_mask & bit
                        and s.marker_masks[player].bit_count() < self._markers_per_player):
                    # pure: ``take_over``'s commonest path inline: an empty lot, a marker of the player's supply put on
                    # it (none to move, nothing to ask; ``marker_masks`` has a slot for every seat)
                    s.put_marker(card, player, at)
                    if not quiet:
                        placed = placed_by[player]
                        if placed is None:
                            placed = placed_by[player] = MarkerPlaced(player, card, None)
                        events.append(placed)
                else:
                    try:
                        self.take_over(s, player, card, events, choices, dice.ask, at)
                    except NeedChoice as need:  # at a table: which piece moves is the drawer's next decision
                        before, _ = self._before_draw(s)
                        s.phase, s.pending = "choice", {"what": need.what, "card": card, "color": color,
                                                        "before": before}
                        return
                index = s._casinos  # (``index`` and ``settle`` without their calls where nothing is to be done)
                if index is None or index.dirty or index.join_rule != self._join_rule:
                    index = casino_index(self.board, s, self._join_rule)
                if index._stale:
                    index.settle()
                if self._ties_at_once and index._tied:  # (ties left from before the draw: settled as below)
                    before, bosses = self._before_draw(s)
                    if not self._settle_card(s, dice, events, color, before, color_id=color_id, bosses=bosses):
                        return
                else:
                    self.pay_lots(s, events)
                    self.pay_and_score(s, color, events, False, color_id, index)
            else:
                before, bosses = self._before_draw(s)
                try:
                    self.take_over(s, player, card, events, choices, dice.ask, at)
                except NeedChoice as need:  # at a table: which piece moves is the drawer's next decision
                    s.phase, s.pending = "choice", {"what": need.what, "card": card, "color": color, "before": before}
                    return
                if not self._settle_card(s, dice, events, color, before, color_id=color_id, bosses=bosses):
                    return
            if not skipped or s.phase == "over":  # (most cards are not skipped: one test)
                break
        if names:
            raise IllegalAction(f"{', '.join(names)}: more cards named than were turned over ({', '.join(s.drawn)})",
                                DRAW_NAMED)
        if s.phase != "over":
            s.phase = "actions"

    def draw_step(self, s: GameState, dice: Dice, events: list[Event], choices: dict[str, str] | None = None,
                  named: tuple[str, ...] = (), table: bool = False) -> None:
        """Draw cards until one that is not an F card under the F-block rule; each one pays and scores.

        ``named``: the cards the player says were turned over, checked against the top of the deck; at a
        ``table`` the deck's order is unknown (``s.deck`` holds the cards not seen yet) and they are the cards.
        Raises IllegalAction part-way: the caller restores the state.
        000 "Step 1: Draw" L61-112; 003 Steps 1-5 L295-416; 003 "2-Player Rules" L893-907; end card: 003 L908-916.
        """
        # (the turn begun: its draw step, made by ``begin_turn``; positional, see ``Game._begin_turn``)
        self.begin_turn(s, s.current, dice, events, choices, True, table, named, True)

    def _draw_cards(self, players: int) -> dict[str, DrawCard]:
        """Pure: each card's facts in a game of ``players`` (``DrawCard``), the engine's (``DrawScratch.cards``), made
        once for every game of the profile and board (kept in its tables by number of players)."""
        by_players: dict[int, dict[str, DrawCard]] | None = self.tables.get("draw cards")
        if by_players is None:
            by_players = self.tables["draw cards"] = {}
        cards = by_players.get(players)
        if cards is None:
            board = self.board
            closed = self.closed_mask(players)
            cards = by_players[players] = {}
            for lot in board.order:
                at = board.index[lot]
                no_events: list[CardDrawn | None] = [None] * players
                no_markers: list[MarkerPlaced | None] = [None] * players
                cards[lot] = (at, 1 << at, board.card_colors[at], board.card_color_ids[at], closed & (1 << at) != 0,
                              no_events, no_markers)
        draw = self._draw
        draw.cards, draw.cards_for = cards, players
        return cards

    def _kept(self) -> KeptEvents:
        """Pure: the events kept for this engine's profile and board (``KeptEvents``), found once an engine."""
        kept: KeptEvents | None = self.tables.get("kept draw events")
        if kept is None:
            kept = self.tables["kept draw events"] = KeptEvents()
        self._draw.kept = kept
        return kept

    def _before_draw(self, s: GameState) -> tuple[Blocks, tuple[dict[int, int | None], ...] | None]:
        """What ``_settle_card`` compares with after a take-over: the casinos by block (``snapshot``) and, pure, the
        bosses by mask (see ``apply``; None: compiled or quiet)."""
        if _COMPILED or self.quiet:
            return self.snapshot(s), None
        index = self.index(s)
        bosses = index.boss_blocks()
        return tuple(index._pairs), bosses

    def _settle_card(self, s: GameState, dice: Dice, events: list[Event], color: str, before: Blocks,
                     rerolled: tuple[str, ...] = (), color_id: int = -2,
                     bosses: tuple[dict[int, int | None], ...] | None = None) -> bool:
        """After the take-over: ties, merges and bosses, then the payouts. False: at a table, the draw waits for
        the dice of a tie reroll (phase "reroll"; no trade may start, 003 L440-441). ``bosses``: pure, the bosses by
        mask at ``before`` (see ``apply``; None: not known, ``_tell`` compares)."""
        # ``resolve_ties`` then ``consequences`` on the index, filled once: its ties are known then
        index = self.index(s)
        quiet = self.quiet
        if bosses is None:
            index.settle()  # (current: the casinos and their dice facts; no bosses by mask made)
        else:  # (pure: see ``apply``)
            after = index.boss_blocks()
        if self._ties_at_once and (index._tied or rerolled):
            try:
                self.resolve_ties(s, dice, events, rerolled)
            except NeedDice as need:
                s.phase, s.pending = "reroll", {"what": "reroll", "lots": need.lots, "color": color, "before": before,
                                                "rerolled": rerolled}
                return False
            if bosses is not None:
                after = index.boss_blocks()
        if quiet:
            pass
        elif bosses is None:
            self._tell(s, before, index.pair_blocks(), events)
        elif after != bosses:
            self._tell(s, before, tuple(index._pairs), events)
        self.pay_lots(s, events)
        self.pay_and_score(s, color, events, False, color_id)
        return True

    def resume_draw(self, s: GameState, action: A.Reroll | A.Choose, dice: Dice, events: list[Event]) -> None:
        """Go on with a draw that waits at a table: the dice of a tie reroll, or which piece moves."""
        pending = s.pending
        if pending is None:
            raise IllegalAction(f"nothing waits for '{action.kind}': the draw is not waiting for dice or a choice",
                                TURN_ORDER)
        rerolled: tuple[str, ...] = ()
        if isinstance(action, A.Reroll):
            if pending["what"] != "reroll":
                raise IllegalAction(f"the draw waits for {_WAITS[pending['what']]}, not tie dice", TURN_ORDER)
            lots = pending["lots"]
            values = dict(action.values)
            if [lot for lot, _ in action.values] != list(lots) or not all(
                    isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6 for v in values.values()):
                raise IllegalAction(f"reroll the tied dice on {', '.join(lots)}: one face (1-6) each, in that order, "
                                    f"e.g. 'reroll {' '.join(f'{lot} 4' for lot in lots)}'", TIE_REROLL)
            s.pending, s.phase = None, "draw"
            s.reroll(values)  # (in the order of ``lots``: checked above)
            events.append(TieRerolled(list(lots), values))
            if self._rerolls_count:
                s.reorganizing().update(lots)
            rerolled = tuple(pending["rerolled"]) + tuple(lots)
        else:
            if pending["what"] != action.what:
                raise IllegalAction(f"the draw waits for {_WAITS[pending['what']]}", TURN_ORDER)
            s.pending, s.phase = None, "draw"
            self.take_over(s, s.current, pending["card"], events, {action.what: action.lot})
        if self._settle_card(s, dice, events, pending["color"], pending["before"], rerolled) and s.phase != "over":
            s.phase = "actions"

    def take_over(self, s: GameState, player: int, lot: str, events: list[Event], choices: dict[str, str],
                  ask: bool = False, at: int = -1) -> None:
        """000 "Take Over Your Lot" L67-71; 003 "Step 1" L295-307. ``ask``: at a table, a piece to move that the
        choices do not name is asked for (NeedChoice). ``at``: the lot's bit if the caller has it (-1: looked up)."""
        # the lot's bit looked up once: its tile and marker looked up only where the masks say there is one, the
        # state's changes given the bit (and the tile)
        i = self.board.index[lot] if at < 0 else at
        b = 1 << i
        tile = s.tiles.get(lot) if s.tile_mask & b else None
        if tile is None:
            # (tested for None first: compiled, a native compare of ints, not a generic one)
            held = s.markers.get(lot) if s.markers_mask & b else None
            if held is not None and held == player:
                return
            if ask and "marker_from" not in choices and self._must_move(s, player, "marker_from"):
                raise NeedChoice("marker_from")
            # a marker left (most draws: ``free_marker``'s first test, without its calls), or ``free_marker`` (no
            # lookup in the empty choices of a draw that gives none: most draws)
            masks = s.marker_masks
            if player < len(masks) and not _COMPILED:
                placed = masks[player].bit_count()
            else:
                placed = s.marker_count(player)
            if placed < self._markers_per_player:
                ok, moved = True, None
            else:
                ok, moved = self.free_marker(s, player, events, choices.get("marker_from") if choices else None)
            if ok:
                s.put_marker(lot, player, i)
                if not self.quiet:
                    if _COMPILED or moved is not None:
                        events.append(MarkerPlaced(player, lot, moved))
                    else:  # pure: kept by seat in the draw's table (``_draw_cards``)
                        draw = self._draw
                        cards = draw.cards if draw.cards_for == len(s.players) else self._draw_cards(len(s.players))
                        placed_by = cards[lot][6]
                        event = placed_by[player]
                        if event is None:
                            event = placed_by[player] = MarkerPlaced(player, lot, None)
                        events.append(event)
            return
        owner = tile.owner
        if owner is not None and owner == player:
            return  # 003 L306: "If it has your die, leave it alone"
        if ask and "die_from" not in choices and self._must_move(s, player, "die_from"):
            raise NeedChoice("die_from")
        ok, moved = self.free_die(s, player, lot, events, choices.get("die_from") if choices else None)
        if not ok:
            return
        previous = tile.owner
        # a die's owner and face are set together: a tile with an owner has a face
        value = cast(int, tile.value) if tile.owner is not None else self.board.lots[lot].die
        s.set_die(lot, player, value, i, tile)
        if not self.quiet:
            events.append(DieTakenOver(player, lot, value, previous, moved))

    def pay_lots(self, s: GameState, events: list[Event]) -> None:
        """000 L75 / 003 Step 2 L309-316: each lot with a marker pays its owner, whatever card is drawn."""
        income = self._lot_income
        if not income:
            return
        quiet = self.quiet
        if not _COMPILED and not quiet:
            # pure: each seat's Paid event kept with the mask it was made for and given again while the seat's markers
            # are the same (an event is a value, never changed once made: most seats' markers do not change from draw
            # to draw); one made only for a seat whose markers changed
            draw, board = self._draw, self.board
            masks, players = s.marker_masks, s.players
            paid_masks, paid = draw.paid_masks, draw.paid
            seats = len(players)
            if len(paid_masks) < seats:  # (a seat never paid: a mask no seat has, so its first payout makes one)
                paid_masks.extend([-1] * (seats - len(paid_masks)))
                paid.extend([_NO_PAID] * (seats - len(paid)))
            # each seat's markers with its last payout's mask and event, by index (``zip`` over the four lists walked
            #   them in fewer bytecodes but more time: round 25, ``instructions.py --caches``); the players' seats only
            #   (``marker_masks`` past them are 0: a range of the players, not a walk over every slot)
            for owner in range(seats):
                mask = masks[owner]
                if mask:
                    was = paid_masks[owner]
                    event = paid[owner]
                    if mask != was:  # its markers changed since its last payout
                        bit = mask ^ was
                        if was > 0 and not bit & (bit - 1):
                            # one marker placed or taken since (most changes): its lots are the last payout's with
                            # that lot put in or left out, in board order (no walk over the mask's bytes)
                            k = (was & (bit - 1)).bit_count()
                            last = event._lots
                            if mask & bit:
                                lots = (*last[:k], board.order[board.position_of[bit]], *last[k:])
                            else:
                                lots = (*last[:k], *last[k + 1:])
                        else:
                            found = board._lots_memo.get(mask)
                            lots = found if found is not None else board.lots_tuple(mask)
                        # ``Paid(owner, income * len(lots), "lots", lots)`` without its ``__init__`` (pure: ~500
                        # instructions fewer an event; the payouts' other place is ``pay_and_score``'s)
                        event = paid[owner] = _new(Paid)
                        event.player = owner
                        event.amount = income * len(lots)
                        event.why = "lots"
                        event._lots = lots
                        paid_masks[owner] = mask
                    players[owner].money += event.amount
                    events.append(event)
            return
        # each seat's lots as the tuple its event keeps, made again only when its markers changed since its last
        # payout (most draws: none did): no list made and none kept a payout
        owner, players, board = 0, s.players, self.board
        draw = self._draw
        paid_masks, paid_lots = draw.paid_masks, draw.paid_lots
        for mask in s.marker_masks:  # by seat: each owner's lots in board order
            if mask:
                if quiet:  # compiled, a native count of the bits (``bit_count`` is a Python method call there)
                    players[owner].money += income * (popcount(mask) if _COMPILED else mask.bit_count())
                else:
                    while owner >= len(paid_masks):
                        paid_masks.append(0)
                        paid_lots.append(())
                    if paid_masks[owner] == mask:
                        lots = paid_lots[owner]
                    else:
                        lots = paid_lots[owner] = tuple(board.lots_of(mask))
                        paid_masks[owner] = mask
                    amount = income * len(lots)  # (len(), not bit_count(): compiled, a Python method call)
                    players[owner].money += amount
                    # the events' fields in order: a call with keywords costs three times as much
                    events.append(Paid(owner, amount, "lots", lots))
            owner += 1

    def pay_and_score(self, s: GameState, pays: str, events: list[Event], end_card: bool = False,
                      color_id: int = -2, index: CasinoIndex | None = None) -> None:
        """Casinos of the card's colour (or touching the Strip) pay $ per pip, then each boss scores each casino
        separately, smallest first (000 L110; 003 L404-416), along the score track with its breaks. ``color_id``:
        the number of the colour ``pays`` if the caller has it (-1: no casino colour; -2: looked up here);
        ``index``: pure, the state's casino index if the caller has it current (None: looked up here)."""
        board = self.board
        if not _COMPILED:
            # pure: written for bytecodes. The casinos that pay walked by mask as a colour's below (a casino's first
            # lot by a lookup, ``position_of``): a colour's tiles, or the casinos touching the Strip (each found by a
            # tile on it, their lots joined: walked in board order of first lots, as ``with_dice`` lists them); a casino
            # that scores ranked as a tuple (its order, award, boss and lots: no two share the order, so a compare
            # stops there), not by an int and scratch lists; the score track (``Board.advance``) and the end
            # (``_end_if_reached``) read inline. The same payouts, scores and events.
            if index is None:
                index = s._casinos
                if index is None or index.dirty or index.join_rule != self._join_rule:
                    index = casino_index(board, s, self._join_rule)
            draw = self._draw
            per_pip, by_points, physical, dieless, lots, at_once, floor, top = draw.scoring
            players, quiet = s.players, self.quiet
            dice_mask = s.dice_mask
            kept_facts, kept_at = draw.casino_facts, draw.casino_kept
            casino_of: list[Casino] = index.at_bit  # type: ignore[assignment]  # (a lot with a tile is in a casino)
            known, position_of = index._facts, board.position_of
            if pays == STRIP:
                rest = 0
                on = s.tile_mask & board.strip_mask
                while on:
                    mask = casino_of[position_of[on & -on]].mask
                    rest |= mask
                    on &= ~mask
            else:
                k = color_id if color_id >= -1 else board.color_id.get(pays, -1)
                rest = 0 if k < 0 else s.color_bits[k]
            scoring: list[ScoreEntry] = []
            paid: Paid | None
            while rest:
                casino = casino_of[position_of[rest & -rest]]
                mask = casino.mask
                rest &= ~mask
                first = casino.first
                facts = known[first] or index.facts_of(casino)
                if kept_facts[first] is facts:  # a single owner's casino at this bit paid last with these dice facts
                    was, paid, entry = kept_at[first]
                    if was is casino and not quiet:
                        # the same casino: the same payout, its Paid given again (an event is a value), and the same
                        # score (its award is the casino's and its dice's); nothing worked out again
                        players[paid.player].money += paid.amount
                        events.append(paid)
                        if entry is not None:
                            scoring.append(entry)
                        continue
                paid = None
                owners = facts.owners
                if len(owners) == 1:  # most casinos: every pip is the one owner's
                    amount = facts.pips * per_pip
                    if amount:
                        owner = owners[0]
                        players[owner].money += amount
                        if not quiet:  # ``Paid(owner, amount, "casino", casino.lots)`` without its ``__init__`` (pure,
                            #            its one place), kept with the score below for the casino and its dice facts
                            paid = _new(Paid)
                            paid.player = owner
                            paid.amount = amount
                            paid.why = "casino"
                            paid._lots = casino.lots
                            events.append(paid)
                elif not owners:
                    continue
                else:  # by seat, in seat order: the pips on each seat's dice in the casino (every seat asked: sorting
                    #      the owners took fewer bytecodes but more time, round 25)
                    values, seats = s.die_values, s.dice_masks
                    for owner in range(len(seats)):
                        held = mask & seats[owner]
                        if not held:
                            continue
                        pips = 0
                        while held:
                            low = held & -held
                            pips += values[position_of[low]]
                            held ^= low
                        amount = pips * per_pip
                        if amount:
                            players[owner].money += amount
                            if not quiet:  # (``Paid(owner, amount, "casino", casino.lots)`` without its ``__init__``)
                                part = _new(Paid)
                                part.player = owner
                                part.amount = amount
                                part.why = "casino"
                                part._lots = casino.lots
                                events.append(part)
                b = facts.boss
                if b is not None:
                    if dieless or mask & dice_mask == mask:  # (every lot with a die, as in most casinos)
                        award = casino.physical_tiles if physical else casino.spaces
                    else:
                        spaces = (mask & dice_mask).bit_count()
                        award = spaces * casino.height if physical else spaces
                    entry = ((award if by_points else casino.spaces) * lots + first, award, b, casino.lots)
                    scoring.append(entry)
                else:
                    entry = None
                if paid is not None:  # (a single owner's payout made: kept with its score for the casino and facts;
                    #                    the facts say the dice on its lots, so which lots have one)
                    kept_facts[first] = facts
                    kept_at[first] = (casino, paid, entry)
            target = self._target
            if scoring:
                if len(scoring) > 1:
                    scoring.sort()  # smallest first, then board order
                mute = self.mute
                for _, award, b, its_lots in scoring:
                    player = players[b]
                    before = player.score
                    reached = before + award
                    if reached >= 0:
                        after = floor[reached] if reached <= top else floor[top]
                        if after < before:
                            after = before
                    else:
                        after = before
                    player.score = after
                    if not mute:  # (``Scored(b, its_lots, ...)`` made without its ``__init__``: pure, its one place)
                        event = _new(Scored)
                        event.player = b
                        event._lots = its_lots
                        event.award = award
                        event.before = before
                        event.after = after
                        events.append(event)
                    if at_once and after >= target:  # (see below; the mode first: one test where scoring finishes)
                        self.end_game(s, "end_card" if end_card else "instant_win", events, winner=b,
                                      instant_win=end_card)
                        return
            for player in players:  # ``_end_if_reached`` (a loop: ``max`` with a key, in C, took more time; round 25)
                if player.score >= target:
                    self.end_game(s, "end_card" if end_card else "instant_win", events, instant_win=end_card)
                    return
            return
        index = casino_index(board, s, self._join_rule)
        # the casinos that pay: those touching the Strip, or of the card's colour (found below without a new list:
        # ``touching``/``of_color``)
        strip = pays == STRIP
        strip_mask = self.board.strip_mask
        per_pip = self._per_pip
        players, quiet = s.players, self.quiet
        by_points, physical, dieless = self._by_points, self._physical_tiles, self._dieless_scores
        dice_mask = s.dice_mask
        # the casinos with a boss, each as one int, its order (award or spaces) times the lots of the board plus its
        # first bit (no two casinos share it): sorted as ints, not tuples; its award and boss by that first bit in
        # the engine's scratch lists (compiled: no tuple and no boxed field a casino)
        ranked: list[int] = []
        draw = self._draw
        lots = draw.lots
        award_at, boss_at = draw.award_at, draw.boss_at
        # the Strip's: every casino with its dice facts walked, those touching it pay (one may start off it); a
        # colour's: its tiles' mask walked, a casino at its lowest lot left (board order of first lots, as the walk
        # over every casino, which would meet five casinos of other colours for each one of the card's)
        pairs = index.with_dice() if strip else _NO_PAIRS
        k = -1 if strip else color_id if color_id >= -1 else self.board.color_id.get(pays, -1)
        rest = 0 if k < 0 else s.color_bits[k]
        at_bit, known = index.at_bit, index._facts
        k = 0
        while True:
            if strip:
                if k == len(pairs):
                    break
                casino, facts = pairs[k]
                k += 1
                if not casino.mask & strip_mask:
                    continue
            else:
                if not rest:
                    break
                found = at_bit[(rest & -rest).bit_length() - 1]
                assert found is not None  # a lot with a tile is in a casino
                casino = found
                rest &= ~casino.mask
                kept = known[casino.first]
                facts = kept if kept is not None else index.facts_of(casino)
            owners = facts.owners
            if not owners:
                continue
            if len(owners) == 1:  # most casinos: every pip is the one owner's
                amount = facts.pips * per_pip
                if amount:
                    players[owners[0]].money += amount
                    if not quiet:  # positional: see pay_lots
                        events.append(Paid(owners[0], amount, "casino", casino.lots))
            else:  # paid by seat, in seat order: the pips on each seat's dice in the casino (compiled: native
                #      ints, no list of boxed sums)
                values, seats = s.die_values, s.dice_masks
                for owner in range(len(seats)):  # every seat that may own a die (GameState._die)
                    held = casino.mask & seats[owner]
                    if not held:
                        continue
                    pips = 0
                    while held:
                        low = held & -held
                        pips += values[low.bit_length() - 1]
                        held ^= low
                    amount = pips * per_pip
                    if amount:
                        players[owner].money += amount
                        if not quiet:
                            events.append(Paid(owner, amount, "casino", casino.lots))
            b = facts.boss
            if b is not None:
                # points a casino scores (``points``): tiles incl. risers (003 L411-414) or spaces; die-less tiles
                # per profile
                with_dice = casino.mask & dice_mask
                # (every lot with a die, as in most casinos: no bit_count, compiled a Python method call)
                spaces = casino.spaces if dieless or with_dice == casino.mask else with_dice.bit_count()
                award = spaces * casino.height if physical else spaces
                first = casino.first
                award_at[first] = award
                boss_at[first] = b
                ranked.append((award if by_points else casino.spaces) * lots + first)
        if len(ranked) > 1:
            ranked.sort()  # smallest first, then board order (no two casinos share a first lot)
        target, mute = self._target, self.mute
        for key in ranked:
            first = key % lots
            award, b = award_at[first], boss_at[first]
            before = players[b].score
            after = self.board.advance(before, award)
            players[b].score = after
            if not mute:
                scored = at_bit[first]
                assert scored is not None  # the casino of that first bit, ranked above
                events.append(Scored(b, scored.lots, award, before, after))
            if after >= target and self._win_at_once:
                # 000 L232: "win immediately"; on the end card's payout the game ends because the card was
                # drawn (000 L230; 003 L908-916), and reaching the target is told as a fact of its own
                self.end_game(s, "end_card" if end_card else "instant_win", events, winner=b,
                              instant_win=end_card)
                return
        self._end_if_reached(s, events, end_card)

    def _end_if_reached(self, s: GameState, events: list[Event], end_card: bool) -> None:
        """003 L917-921: once a player reaches the target, finish scoring, then most points wins."""
        target = self._target
        for pl in s.players:
            if pl.score >= target:
                self.end_game(s, "end_card" if end_card else "instant_win", events, instant_win=end_card)
                return

    def ranking(self, s: GameState) -> list[int]:
        """Most points, then most money (000 L230; 003 L915-916); still tied: earlier seat (rulebooks silent)."""
        # an insertion by seat (compiled: native compares, where sorted() with a key calls a lambda and compares
        # tuples of boxed ints): a seat goes after every earlier seat with as many points and as much money
        players = s.players
        out: list[int] = []
        for i in range(len(players)):
            p = players[i]
            score, money = p.score, p.money
            at = len(out)
            while at:
                q = players[out[at - 1]]
                if q.score > score or (q.score == score and q.money >= money):
                    break
                at -= 1
            out.insert(at, i)
        return out

    def end_game(self, s: GameState, reason: str, events: list[Event], winner: int | None = None,
                 instant_win: bool = False) -> None:
        """``instant_win``: the end card's payout also took a player to the target (the reason stays end_card)."""
        ranking = self.ranking(s)
        if winner is not None:
            ranking.remove(winner)
            ranking.insert(0, winner)
        s.phase = "over"
        players = s.players
        names: list[str] = []
        for pl in players:  # (a loop, not a generator: compiled, no generator object and calls)
            names.append(pl.name)
        s.result = Result(reason, ranking[0], ranking, tuple(names))
        if self.mute:  # (a search's imagined games read no event)
            return
        scores: list[int] = []
        money: list[int] = []
        for pl in players:  # (loops, not comprehensions: each a call; the event's fields positional)
            scores.append(pl.score)
            money.append(pl.money)
        events.append(GameEnded(reason, ranking[0], list(ranking), scores, money, instant_win))

    # ------------------------------------------------------------------ actions
    def apply(self, s: GameState, action: A.Decision, dice: Dice, events: list[Event],
              choices: dict[str, str] | None = None, trusted: bool = False) -> None:
        """Apply one decision of the current player (a trade: of any players). Raises IllegalAction, leaving ``s``
        unchanged. Every decision is checked by its family's predicate, whoever made it, except with ``trusted``:
        a decision the families' own generator listed for this very state (``Game.random_legal``; never one from
        a user, a record or a bot), which its family's ``carry_out`` applies without the checks."""
        kind = type(action)
        # trusted, in the action step: the checks below would all pass (the simulation's path)
        family = ((applied_family(kind) if _COMPILED else APPLIED(kind)) if trusted and s.phase == "actions"
                  else None)
        choices = choices if choices is not None else _NO_CHOICES
        if family is None:
            if s.phase == "over":
                raise IllegalAction("the game is over", Rule.END)
            if kind in _BY_GAME:
                raise IllegalAction(f"{action.kind} is handled by the game, not the rules", Rule.TURN_ORDER_SHORT)
            if s.phase != "actions":
                refuse(self.why_waiting(s))
            anytime = _ANYTIME.get(kind)
            if anytime is not None:  # 000 L218 / 003 L805-808: a trade, at any time, even when it is not your turn
                if s.phase not in ("draw", "actions"):
                    raise IllegalAction(f"no {action.kind}s during the draw step's payouts", TURN_ORDER)
                anytime.apply(self, s, s.current, action, dice, events, choices)
                return
            if s.phase == "draw":
                raise IllegalAction(f"{s.players[s.current].name} has not drawn yet: the turn starts with the draw",
                                    DRAW_FIRST)
            if s.phase != "actions":
                raise IllegalAction("no decisions during the draw", TURN_ORDER)
        self.carry_out(s, family, action, dice, events, choices)

    def carry_out(self, s: GameState, family: Family | None, action: A.Decision, dice: Dice, events: list[Event],
                  choices: dict[str, str]) -> None:
        """``apply`` past its step's checks: the action, through ``family``'s ``carry_out`` (its family, for a trusted
        decision: see ``apply``) or checked (None: ``act``), then its ties, merges and boss changes. ``Game.apply``
        calls it at once for a decision it vouches for, the family looked up there (``applied_family``): the
        decision's class and step read once for both."""
        index = s._casinos  # (``casino_index``'s test here: the index is current, as it mostly is, without a call)
        if index is None or index.dirty or index.join_rule != self._join_rule:
            index = casino_index(self.board, s, self._join_rule)
        quiet = self.quiet
        # ``snapshot``; pure, the bosses by mask instead: compared in C, they spare ``_told`` when nothing is to tell
        # (see ``CasinoIndex._fill``), and ``_told`` finds what changed from them; compiled, ``_tell`` compares the
        # blocks natively, none made
        # (declared, not set: each is read only where it was set)
        bosses: tuple[dict[int, int | None], ...] | None
        before: Blocks
        if _COMPILED:
            before = () if quiet else index.pair_blocks()
        elif not quiet:  # (pure: current, as it mostly is, read without a call)
            bosses = index._boss_blocks
            if bosses is None or index._stale:
                bosses = index.boss_blocks()
        changes = index.changes
        index.rebossed = 0
        if family is not None:
            family.carry_out(self, s, s.current, action, dice, events, choices)
        else:
            self.act(s, s.current, action, dice, events, choices)
        if s._casinos is not index:  # (the state has another index: never in play) the long way
            self.resolve_ties(s, dice, events)
            if _COMPILED:
                self.consequences(s, before, events)
            elif not quiet:
                now = casino_index(self.board, s, self._join_rule)
                assert bosses is not None  # (made above: not quiet)
                self._told(s, now, bosses, now.boss_blocks(), events, (1 << len(bosses)) - 1)
            return
        # no tile and no die changed (a gamble, most sales) and no casino is tied: no tie to settle, no merge, no
        # boss changed (the index, filled before, is as it was: ``pair_blocks`` would give ``before`` again)
        if index.changes == changes and not index._stale and not index._tied:
            return
        # ``resolve_ties`` then ``consequences``, on this index: its ties are known once it is filled (no bosses by
        # mask made: the blocks' casinos and dice facts are compared, ``_tell``)
        if _COMPILED or quiet:
            # a build that joins nothing, a remodel or raise of a whole casino that joins nothing (most of them):
            # refreshed, the casinos would be on the lots they were, with their dice, so nothing to settle or tell; the
            # refresh is left to the next reader of the casinos (a push popped unread pays none, and no ``_tell`` is
            # run). Asked only where a ``_tell`` would run (not quiet): a search's quiet imagined games tell nothing
            # anyway, and there the check cost more than it spared (one mcts:200 decision +0.7 M); pure, not asked (its
            # bytecodes cost a reference game ~0.1 M, and pure compares the bosses by mask before any ``_tell``)
            if _COMPILED and not quiet and index.nothing_to_tell():
                return
            index.settle()
            if index._tied:
                self.resolve_ties(s, dice, events)
            if not quiet:
                self._tell(s, before, index.pair_blocks(), events)
            return
        # ``boss_blocks`` (pure: filled with the bosses by mask, compared first), without its call
        if index.dirty:  # ``refresh``, without its call where the tiles changed are in one block (most decisions)
            dirty = index.dirty
            board = self.board
            number = board.block_number[(dirty & -dirty).bit_length() - 1]
            bm = board.block_masks[number]
            if dirty & bm == dirty:
                index.dirty = 0
                index._rework(number, bm, dirty)
            else:
                index.refresh()
        if index._stale:
            index._fill()
        after = index._boss_blocks
        if after is None:  # (made here where every block is bossed, as after a fill by default: no call)
            after = index._boss_blocks = tuple(index._bosses_by) if not index._unbossed else index.boss_blocks()
        if index._tied:
            self.resolve_ties(s, dice, events)
            after = index.boss_blocks()
        if index.rebossed:  # (none: every block's bosses by mask are the very dicts they were, or a new tile's)
            assert bosses is not None  # (made above: not quiet)
            self._told(s, index, bosses, after, events, index.rebossed)

    def why_waiting(self, s: GameState) -> Reason | None:
        """At a table, a draw that waits for tie dice or a piece to move allows nothing else meanwhile."""
        pending = s.pending
        if pending is None:
            return None
        if s.phase == LAY_OFF_PHASE:  # a gamble waits for its boss's answer (lv/actions/layoff.py)
            return lay_off_waiting(s, [p.name for p in s.players])
        if s.phase == "reroll":  # 003 L440-441: "players may not take actions, play cards, or initiate trades
            #                        until the rerolling finishes"
            return (TIE_REROLL, f"a tie reroll is under way on {', '.join(pending['lots'])}: nothing else until "
                                f"it finishes ('reroll {' '.join(f'{lot} N' for lot in pending['lots'])}')")
        return (TURN_ORDER, f"{s.players[s.current].name}'s draw waits for {_WAITS[pending['what']]}")

    def _must_move(self, s: GameState, player: int, what: str) -> bool:
        """Has ``player`` no marker (die) left, under a profile that moves one of theirs?"""
        c, r = self.profile.components, self.profile.resources
        if what == "marker_from":
            return r.markers_exhausted != "no_marker" and s.marker_count(player) >= c.markers_per_player
        return r.dice_exhausted != "no_die" and s.dice_count(player) >= c.dice_per_player

    def act(self, s: GameState, player: int, action: A.Decision, dice: Dice, events: list[Event],
            choices: dict[str, str]) -> None:
        """Carry out one action of the action step (also a step of a trade) through its family."""
        family = _APPLY.get(type(action))
        if family is None:
            raise IllegalAction(f"not an action: {action!r}", Rule.ACTIONS)
        family.apply(self, s, player, action, dice, events, choices)


# (Final: compiled, read as C statics, not looked up in the module's dict on each decision)
class FamilyTables:
    """The tables the cost paths and the predicates read (``Engine.family_tables``), typed: compiled, a native
    read, not a lookup by family name in ``Engine.tables`` (the generators read theirs from ``Moment.tables``)."""

    __slots__ = ("gamble", "raise_", "remodel", "reorganize", "sprawl", "gamble_lose", "gamble_double",
                 "double_of_stake", "sprawl_by_bit")

    def __init__(self, tables: dict[str, Any], profile: Profile, board: Board) -> None:
        self.gamble: GambleTable = tables["gamble"]
        self.raise_: RaiseTable = tables["raise"]
        self.remodel: RemodelTable = tables["remodel"]
        self.reorganize: ReorganizeTable = tables["reorganize"]
        self.sprawl: SprawlTable = tables["sprawl"]
        # a gamble's outcome by the total of its two dice (``GambleFamily.carry_out``): bit ``total`` of a mask,
        # where the profile's tuples are read through attribute lookups and ``in`` compares objects
        g = profile.gamble
        self.gamble_lose: int = _totals(g.lose)
        self.gamble_double: int = _totals(g.win_double)
        self.double_of_stake: bool = g.lay_off_double_basis == "stake"
        # the sprawl table's costs by height, then by bit (``sprawl_cost``): tuples read natively, where the table is
        # a dict by height (a dict subclass: a generic lookup compiled) of dicts by lot; () for a height it has not
        # (made once per profile and board, kept with their tables: a game's engine is made for each game)
        by_bit: tuple[tuple[int, ...], ...] | None = tables.get("sprawl costs by bit")
        if by_bit is None:
            costs = self.sprawl.costs
            top = max(costs) if costs else 0
            by_bit = tables["sprawl costs by bit"] = tuple(
                [tuple([costs[h][lot] for lot in board.order]) if h in costs else () for h in range(top + 1)])
        self.sprawl_by_bit: tuple[tuple[int, ...], ...] = by_bit


# ``DrawScratch.scoring``
PayScoring = tuple[int, bool, bool, bool, int, bool, tuple[int, ...], int]
# a casino that scores, in ``pay_and_score`` (pure): its order (award or spaces) times the board's lots plus its first
# bit, its award, its boss, its lots
ScoreEntry = tuple[int, int, int, tuple[str, ...]]
# ``DrawScratch.casino_kept``: the casino, its Paid (a single owner's) and its score's entry (None: it scores nothing)
CasinoKept = tuple[Casino | None, Paid, ScoreEntry | None]
# ``DrawScratch.cards``: a card's lot's bit and its mask, its colour and colour number, whether it is skipped (the
# closed block's), and its CardDrawn and MarkerPlaced (from the supply) by seat, kept once made (an event is a value)
DrawCard = tuple[int, int, str, int, bool, list[CardDrawn | None], list[MarkerPlaced | None]]


class DrawScratch:
    """The draw step's scratch space (``Engine._draw``): ``pay_and_score``'s award and boss of a casino by its first
    bit (written before each read), the closed block's mask for a number of players (``f_closed``), and each seat's
    lots paid for last (``pay_lots``)."""

    __slots__ = ("lots", "award_at", "boss_at", "closed_for", "closed_mask", "paid_masks", "paid_lots", "paid", "kept",
                 "casino_kept", "casino_facts", "scoring", "cards", "cards_for")

    def __init__(self, lots: int, scoring: PayScoring) -> None:
        self.lots = lots
        # pure: ``pay_and_score``'s parameters, one tuple (per pip, by points, physical tiles, die-less tiles score,
        # the board's lots, win at once, the score track's floor by score and its top score; the target is read
        # from the engine)
        self.scoring = scoring
        self.award_at: list[int] = [0] * lots
        self.boss_at: list[int] = [0] * lots
        # by seat, the markers' mask at its last payout for its lots and those lots (``pay_lots``; grown by seat)
        self.paid_masks: list[int] = []
        self.paid_lots: list[tuple[str, ...]] = []
        # pure: by seat, the Paid event of its last payout for its lots (for the mask in ``paid_masks``)
        self.paid: list[Paid] = []
        self.closed_for = -1  # the number of players ``closed_mask`` is for (-1: none yet)
        self.closed_mask = 0  # the lots of the block closed to them (0: none)
        # pure: by a casino's first bit, the dice facts of its last single-owner payout, and the casino, its Paid event
        # and its score's entry (``pay_and_score``: given again while the casino and its dice facts are the same)
        self.casino_kept: list[CasinoKept] = _NO_CASINO_KEPT if _COMPILED else [_NOT_KEPT] * lots
        self.casino_facts: list[DiceFacts | None] = _NO_CASINO_FACTS if _COMPILED else [None] * lots
        # pure: the events of the engine's profile and board kept once made (``Engine._kept``; None: not read yet)
        self.kept: KeptEvents | None = None
        # pure: each card's facts in a game of ``cards_for`` players (``Engine._draw_cards``; -1: none read yet)
        self.cards: dict[str, DrawCard] = _NO_CARDS
        self.cards_for = -1


class KeptEvents:
    """Pure: the draw step's turn starts made once for every game of a profile and board and handed out again (an
    event is a value, never changed once made): a simulation's games start the same turns, and an event made through
    its class's ``__init__`` costs ~2,000 instructions in CPython 3.11, where a kept one is a list read. By seat below
    8 (a larger seat's are made each time). Kept in the profile's tables (``Engine._kept``): bounded by the turns
    played. (The cards drawn and the markers placed from the supply are kept by seat in the draw's table of each
    card, ``Engine._draw_cards``.)"""

    __slots__ = ("started",)

    def __init__(self) -> None:
        self.started: list[list[TurnStarted | None]] = []  # by turn, by seat below 8 (grown)

    def turn_started(self, turn: int, player: int) -> TurnStarted:
        """The event, kept (``begin_turn`` reads ``started[turn][player]`` first)."""
        if player >= 8:
            return TurnStarted(turn, player)
        started = self.started
        while turn >= len(started):
            started.append([None] * 8)
        found = started[turn][player] = TurnStarted(turn, player)
        return found


def _first_lot(pair: tuple[int, int | None]) -> int:
    """The bit of the first lot of the casino on the lots of the mask ``pair[0]`` (``_told``'s order)."""
    return pair[0] & -pair[0]


def _totals(totals: tuple[int, ...]) -> int:
    """The mask with bit ``t`` set for each dice total ``t``."""
    out = 0
    for t in totals:
        out |= 1 << t
    return out


# every decision class's family (``FAMILY_OF``), as a C static (``action_cost``)
_FAMILY_OF: Final[dict[type, Family]] = FAMILY_OF
# the decision classes of the families with a cost, the families that a generator lists most first, and their
# families (``action_cost``, compiled; any other class is looked up in ``_FAMILY_OF``)
_LISTED_MOST = ("sprawl", "build", "raise", "reorganize", "gamble", "remodel")
_BY_USE: Final = sorted(A.FAMILIES, key=lambda f: (_LISTED_MOST.index(f.name) if f.name in _LISTED_MOST
                                                   else len(_LISTED_MOST), f.order))
_COST_KINDS: Final[tuple[type, ...]] = tuple(cls for f in _BY_USE for cls in f.decisions)
_COST_FAMILIES: Final[tuple[Family, ...]] = tuple(f for f in _BY_USE for _ in f.decisions)
# the families of the actions of the action step, by decision class (``apply``; ``carry_out`` for the decisions of
# the families' own generators)
_APPLY: Final[dict[type, Family]] = {cls: f for f in A.FAMILIES if f.applies and not f.anytime for cls in f.decisions}
# the same as two tuples, the families listed most first (``apply``, compiled)
_APPLY_KINDS: Final[tuple[type, ...]] = tuple(cls for f in _BY_USE if f.applies and not f.anytime for cls in f.decisions)
_APPLY_FAMILIES: Final[tuple[Family, ...]] = tuple(f for f in _BY_USE if f.applies and not f.anytime
                                                   for _ in f.decisions)
# ``_APPLY.get``: pure, the lookup of ``applied_family`` without its frame (``apply``, and ``Game.apply`` for a
# decision it vouches for)
APPLIED: Final = _APPLY.get


def applied_family(kind: type) -> Family | None:
    """The family that carries out an action step's decision of class ``kind`` (``Engine.carry_out``; None: none,
    as for a trade, carried out at any time): ``_APPLY.get(kind)``, compiled (pure: ``APPLIED``), the classes
    compared by identity, the families listed most first (see ``action_cost``)."""
    kinds = _APPLY_KINDS
    for k in range(len(kinds)):
        if kinds[k] is kind:
            return _APPLY_FAMILIES[k]
    return _APPLY.get(kind)


# decisions carried out at any time, in the draw step as well (trades)
_ANYTIME: Final[dict[type, Family]] = {cls: f for f in A.FAMILIES if f.applies and f.anytime for cls in f.decisions[:1]}
# the choices of a step given none: one dict for all, never changed (nothing writes a step's choices: they are read)
_NO_CHOICES: Final[dict[str, str]] = {}
# the Paid event of a seat not paid yet (``DrawScratch.paid``, pure: never given, its mask -1 is no seat's)
_NO_PAID: Final = Paid(-1, 0, "lots", ())
# compiled: ``DrawScratch``'s casinos' kept payouts and facts (pure only): one empty list each for all, never written
_NO_CASINO_KEPT: Final[list[CasinoKept]] = []
# a first bit whose casino's payout is not kept (its facts are None, which no casino's are)
_NOT_KEPT: Final[CasinoKept] = (None, _NO_PAID, None)
_NO_CASINO_FACTS: Final[list[DiceFacts | None]] = []
# ``DrawScratch.cards`` before a draw reads it (and always, compiled): never written
_NO_CARDS: Final[dict[str, DrawCard]] = {}
# what pay_and_score walks for a colour's card (it walks the colour's tiles): never changed
_NO_PAIRS: Final[list[tuple[Casino, DiceFacts]]] = []
# the cards named in a draw given none: one list for all, never changed (``draw_step`` takes from it only if not empty)
_NO_NAMES: Final[list[str]] = []
# decisions the game's turn machinery carries out
_BY_GAME: Final[frozenset[type]] = frozenset(cls for f in A.FAMILIES for cls in f.by_game)

_COMPILED: Final = not __file__.endswith(".py")  # a module compiled by mypyc loads from a .so/.pyd
_new: Final = object.__new__  # pure: an instance made without its class's ``__init__`` (``pay_and_score``, ``pay_lots``)
