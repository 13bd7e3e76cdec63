"""The rules of Lords of Vegas as functions of (state, profile, action, dice) that change the state and return
events, or refuse with the rule that forbids the action.

Every place where the editions differ reads a profile parameter; rulebook passages are cited as
000 (original, shared/seeds/000_...) and 003 (revised, shared/seeds/003_...) with their section names.
``why_not_*`` functions return the reason an action is illegal (or None); ``apply`` checks with them.
``legal.py`` evaluates the same conditions in bulk, and ``tests/test_legal_agrees.py`` holds the two together.
"""

from __future__ import annotations

from typing import Callable

from . import actions as A
from .board import END_CARD, STRIP, Board, load_board
from .casinos import Casino, CasinoIndex, DiceFacts, boss, casino_index, dice_facts, has_die, pips
from .chance import Dice, NeedDice
from .errors import IllegalAction
from .events import Event, event
from .profile import Profile
from .state import GameState, Result

Reason = tuple[str, str]  # (rule, message)

# Rules named in refusals of the turn order and of trades, with the section titles that print them: the 2010
# rulebook's first, then the revised one's (one title: both print it), as docs/rules.md's O: / R: columns.
TURN_ORDER = 'turn order (rulebooks: "Game Play"; "Taking Turns")'
DRAW_FIRST = 'turn order: draw first (rulebooks: "Step 1: Draw"; "Taking Turns")'
DRAW_TURN = 'turn order: the current player draws (rulebooks: "Game Play"; "Taking Turns")'
DRAW_ONCE = 'turn order: one draw a turn (rulebooks: "Step 1: Draw", "Ending Step 1"; "Taking Turns")'
TIE_REROLL = ('ties: reroll until settled (rulebooks: "After each Action: Reroll if Tied"; "Settling Who\'s the Boss": '
              'no trade until the rerolling is done)')
_WAITS = {"reroll": "the tie reroll", "marker_from": "which marker to move ('move marker LOT')",
          "die_from": "which die to move ('move die LOT')"}
DRAW_NAMED = 'the draw: the card on top (rulebooks: "Step 1: Draw"; "Step 1: Draw a Property Card")'
TRADE_FORBIDDEN = 'trade: no points, casino tiles or risers (rulebooks: "At Any Time: Trading")'
TRADE_PROMISE = 'trade: no promises for future turns (rulebooks: "At Any Time: Trading")'
TRADE_ACTIONS = 'trade: actions of the current player, this turn (rulebooks: "At Any Time: Trading")'
TRADE_PARTIES = 'trade: any number of players (rulebooks: "At Any Time: Trading")'


class NeedChoice(Exception):
    """At a table, the drawer has no marker (die) left and must say which to move (``what``)."""

    def __init__(self, what: str):
        super().__init__(what)
        self.what = what


class Engine:
    """The rules under one profile. Stateless apart from the board and profile: the state is passed in."""

    def __init__(self, profile: Profile, board: Board | None = None):
        self.profile = profile
        self.board = board or load_board()
        p = profile
        self._join_rule = p.casino.join_rule
        self.bet_counts_risers = p.gamble.tiles_counted == "physical_tiles"

    # ------------------------------------------------------------------ lookups
    def index(self, s: GameState) -> CasinoIndex:
        return casino_index(self.board, s, self._join_rule)

    def casinos(self, s: GameState) -> list[Casino]:
        """Every casino in board order of its first lot (do not change the list)."""
        return casino_index(self.board, s, self._join_rule).all()

    def casinos_with_dice(self, s: GameState) -> list[tuple[Casino, DiceFacts]]:
        return casino_index(self.board, s, self._join_rule).with_dice(s.tiles)

    def casino_at(self, s: GameState, lot: str) -> Casino | None:
        return casino_index(self.board, s, self._join_rule).at.get(lot)

    def available_tiles(self, s: GameState, color: str) -> int:
        return self.profile.components.tiles_per_color - s.tiles_on_board(color)

    def f_closed(self, s: GameState, lot: str) -> bool:
        p = self.profile
        return p.f_block_closed(len(s.players)) and self.board.lots[lot].block == p.f_block.block

    def max_height(self, s: GameState) -> int:
        return self.profile.max_height(len(s.players))

    def points(self, s: GameState, casino: Casino) -> int:
        """Points a casino scores: tiles incl. risers (003 L411-414) or spaces; die-less tiles per profile."""
        p = self.profile
        spaces = casino.spaces if p.casino.dieless_tile_scores else sum(
            1 for lot in casino.lots if s.tiles[lot].owner is not None)
        return spaces * casino.height if p.scoring.points == "physical_tiles" else spaces

    def bet_cap(self, s: GameState, casino: Casino, gambler: int) -> int:
        """000 L190 / 003 L783-794: $5 per tile (incl. risers where counted), at most your money, and in the
        revised edition at most the boss's money (legal.py spells this out for every casino)."""
        g = self.profile.gamble
        cap = g.bet_per_tile * (casino.physical_tiles if self.bet_counts_risers else casino.spaces)
        players = s.players
        if players[gambler].money < cap:
            cap = players[gambler].money
        if g.cap_at_boss_money:
            b = dice_facts(s, casino).boss
            if b is not None and players[b].money < cap:
                cap = players[b].money
        return cap

    def lot_check(self, lot: str) -> None:
        if lot not in self.board.lots:
            raise IllegalAction(f"unknown lot '{lot}' (lots are A1-A6, B1-B6, C1-C12, D1-D9, E1-E6, F1-F9)", "board")

    def color_check(self, color: str) -> None:
        if color not in self.board.colors:
            raise IllegalAction(f"unknown casino colour '{color}' (colours: {', '.join(self.board.colors)})", "board")

    # ------------------------------------------------------------------ why-not predicates
    def _not_boss(self, s: GameState, b: int | None, lot: str) -> str:
        """Why the player is not the boss: nobody is (no die, or a tie), or someone else is."""
        if b is None:
            return f"nobody is the boss of the casino at {lot}"
        return f"you are not the boss of the casino at {lot} ({s.players[b].name} is)"

    def why_not_build(self, s: GameState, player: int, lot: str, color: str) -> Reason | None:
        # 000 "Action - Build" L128-133; 003 "Action - Build" L526-540
        if s.markers.get(lot) != player:
            return ("build: a lot you own", f"you have no marker on {lot}")
        if self.f_closed(s, lot):
            return ("f_block.closed_when", f"no building on {self.profile.f_block.block} block in a 2-player game")
        if self.available_tiles(s, color) < 1:
            return ("components.tiles_per_color", f"all {color} tiles are on the board")
        price = self.board.lots[lot].price
        if s.players[player].money < price:
            return ("build: pay the lot price", f"building {lot} costs ${price}, you have ${s.players[player].money}")
        return None

    def sprawl_cost(self, lot: str, casino: Casino) -> int:
        """000 L140-147 / 003 L555-568: the lot's price times the multiplier, plus a riser's cost per level above
        the first (legal.py spells this out for every lot of every casino's frontier)."""
        p = self.profile.sprawl
        return self.board.lots[lot].price * p.cost_multiplier + p.riser_cost * (casino.height - 1)

    def why_not_sprawl(self, s: GameState, player: int, lot: str, source: str) -> Reason | None:
        # 000 "Action - Sprawl" L140-147; 003 "Action - Sprawl" L485-515, L555-568
        casino = self.casino_at(s, source)
        if casino is None:
            return ("sprawl: from a casino", f"{source} has no casino")
        b = boss(s, casino)
        if b != player:
            return ("sprawl: you must be the boss", self._not_boss(s, b, source))
        if lot in s.tiles:
            return ("sprawl: an empty lot", f"{lot} already has a tile")
        if lot in s.markers:
            return ("sprawl: an unowned lot", f"{lot} is owned ({s.players[s.markers[lot]].name} has a marker on it)")
        if not any(lot in self.board.lots[c].neighbours for c in casino.lots):
            return ("sprawl: adjacent lot", f"{lot} does not share an edge with the casino at {source}")
        if self.f_closed(s, lot):
            return ("f_block.closed_when", f"no building on {self.profile.f_block.block} block in a 2-player game")
        if self.available_tiles(s, casino.color) < 1:
            return ("components.tiles_per_color", f"all {casino.color} tiles are on the board")
        cost = self.sprawl_cost(lot, casino)
        if s.players[player].money < cost:
            return ("sprawl.cost_multiplier", f"sprawling into {lot} costs ${cost}, you have ${s.players[player].money}")
        return None

    def remodel_cost(self, casino: Casino) -> tuple[int, int]:
        """(cost, tiles needed): 000 L154-156 per tile; 003 L574-590 per space, top tiles only (legal.py spells
        this out for every casino)."""
        r = self.profile.remodel
        units = casino.spaces if r.counts == "spaces" else casino.physical_tiles
        return r.cost_per_unit * units, units

    def reorganize_cost(self, s: GameState, casino: Casino) -> int:
        """Reorganize: the pips of every die in the casino times the rate (000 and 003 "Action - Reorganize")."""
        return pips(s, casino) * self.profile.reorg.cost_per_pip

    def raise_cost(self, casino: Casino) -> int:
        """Raise: a riser's price for each space of the casino (003 "Action - Raise")."""
        return self.profile.raise_.cost_per_space * casino.spaces

    def action_cost(self, s: GameState, action) -> int:
        """What a legal ``action`` costs its player now, in dollars: a gamble its bet, a trade or ``end`` nothing.
        (``lv legal --json`` lists it; the handlers charge the same amounts.)"""
        if isinstance(action, A.Build):
            return self.board.lots[action.lot].price
        if isinstance(action, A.Gamble):
            return action.bet
        if not isinstance(action, (A.Sprawl, A.Remodel, A.Reorganize, A.Raise)):
            return 0
        casino = self.casino_at(s, action.source if isinstance(action, A.Sprawl) else action.lot)
        if casino is None:
            raise IllegalAction(f"{action.lot}: no casino there", "actions")
        if isinstance(action, A.Sprawl):
            return self.sprawl_cost(action.lot, casino)
        if isinstance(action, A.Remodel):
            return self.remodel_cost(casino)[0]
        if isinstance(action, A.Reorganize):
            return self.reorganize_cost(s, casino)
        return self.raise_cost(casino)

    def why_not_remodel(self, s: GameState, player: int, lot: str, color: str) -> Reason | None:
        casino = self.casino_at(s, lot)
        if casino is None:
            return ("remodel: a casino", f"{lot} has no casino")
        b = boss(s, casino)
        if b != player:
            return ("remodel: you must be the boss", self._not_boss(s, b, lot))
        if color == casino.color:
            return ("remodel: a new colour", f"the casino at {lot} is already {color}")
        cost, needed = self.remodel_cost(casino)
        if self.available_tiles(s, color) < needed:
            return ("remodel.counts", f"remodelling needs {needed} {color} tiles, {self.available_tiles(s, color)} are left")
        if s.players[player].money < cost:
            return ("remodel.cost_per_unit", f"remodelling costs ${cost}, you have ${s.players[player].money}")
        return None

    def why_not_reorganize(self, s: GameState, player: int, lot: str) -> Reason | None:
        # 000 "Action - Reorganize" L165-169; 003 L592-631
        casino = self.casino_at(s, lot)
        if casino is None:
            return ("reorganize: a casino", f"{lot} has no casino")
        if not has_die(s, casino, player):
            return ("reorganize: you need a die in the casino", f"you have no die in the casino at {lot}")
        if any(c in s.reorganized for c in casino.lots):
            return ("reorg.lock", f"the casino at {lot} has dice that were already reorganized this turn")
        cost = self.reorganize_cost(s, casino)
        if s.players[player].money < cost:
            return ("reorg.cost_per_pip", f"reorganizing costs ${cost}, you have ${s.players[player].money}")
        return None

    def why_not_raise(self, s: GameState, player: int, lot: str) -> Reason | None:
        # 003 "Action - Raise" L657-739
        p = self.profile
        if not p.raise_.enabled:
            return ("raise.enabled", "this profile has no Raise action")
        casino = self.casino_at(s, lot)
        if casino is None:
            return ("raise: a casino", f"{lot} has no casino")
        b = boss(s, casino)
        if b != player:
            return ("raise: you must be the boss", self._not_boss(s, b, lot))
        if casino.height >= self.max_height(s):
            return ("raise.max_height", f"the casino at {lot} is {casino.height} high, the most with "
                                         f"{len(s.players)} players")
        cost = self.raise_cost(casino)
        if s.players[player].money < cost:
            return ("raise.cost_per_space", f"raising costs ${cost}, you have ${s.players[player].money}")
        return None

    def why_not_gamble(self, s: GameState, player: int, lot: str, bet: int | None, lay_off: bool = False) -> Reason | None:
        # 000 "Action - Gamble" L186-199; 003 "Action - Gamble" L740-803
        g = self.profile.gamble
        if s.gambles >= g.per_turn:
            return ("gamble.per_turn", "you have already gambled this turn")
        casino = self.casino_at(s, lot)
        if casino is None:
            return ("gamble: a casino", f"{lot} has no casino")
        b = boss(s, casino)
        if b is None:
            return ("gamble: another player's casino", f"the casino at {lot} has no boss")
        if b == player:
            return ("gamble: another player's casino", "you can't gamble against yourself")
        if lay_off and g.lay_off == "none":
            return ("gamble.lay_off", "this profile has no lay-off")
        cap = self.bet_cap(s, casino, player)
        if cap < 1:
            if s.players[player].money < 1:  # 000 L190 / 003 L786-787: not more than you have
                return ("gamble: you can't bet more money than you have", "you have $0: the smallest bet is $1")
            return ("gamble.cap_at_boss_money", f"the most you can bet at {lot} is $0: the boss, "
                                                f"{s.players[b].name}, has $0")
        if bet is not None and not 1 <= bet <= cap:
            if g.cap_at_boss_money and cap == s.players[b].money and bet > cap:  # name the rule that binds
                return ("gamble.cap_at_boss_money", f"the bet at {lot} must be $1 to ${cap}: the boss, "
                                                    f"{s.players[b].name}, has only ${cap}")
            if bet > cap and cap == s.players[player].money:  # 000 L190 / 003 L786-787: not more than you have
                return ("gamble: you can't bet more money than you have",
                        f"you have ${cap}: the bet at {lot} must be $1 to ${cap}")
            return ("gamble.bet_per_tile", f"the bet at {lot} must be $1 to ${cap}")
        return None

    # ------------------------------------------------------------------ pieces running out
    def _free_die(self, s: GameState, player: int, keep: str, events: list[Event], choice: str | None = None
                  ) -> tuple[bool, str | None]:
        """Before placing a die: (can place, lot a die was taken from). 003 L251-262 "Available Dice"."""
        on_board = s.dice_on_board(player)
        if len(on_board) < self.profile.components.dice_per_player:
            return True, None
        if self.profile.resources.dice_exhausted == "no_die":
            return False, None
        candidates = [lot for lot in on_board if lot != keep]
        if choice is not None and choice not in candidates:
            raise IllegalAction(f"{s.players[player].name} has no die on {choice} to move", "resources.dice_exhausted")
        idx = self.board.index
        lot = choice or min(candidates, key=lambda x: (s.tiles[x].value, idx[x]))
        s.set_die(lot, None, None)
        events.append(event("die_moved", player=player, lot=lot))
        return True, lot

    def _free_marker(self, s: GameState, player: int, events: list[Event], choice: str | None = None
                     ) -> tuple[bool, str | None]:
        """Before placing a marker: 003 L266-271 "Available Player Markers"."""
        on_board = s.markers_on_board(player)
        if len(on_board) < self.profile.components.markers_per_player:
            return True, None
        if self.profile.resources.markers_exhausted == "no_marker":
            return False, None
        if choice is not None and choice not in on_board:
            raise IllegalAction(f"{s.players[player].name} has no marker on {choice} to move", "resources.markers_exhausted")
        lots = self.board.lots
        lot = choice or min(on_board, key=lambda x: (lots[x].price, self.board.index[x]))
        s.remove_marker(lot)
        events.append(event("marker_moved", player=player, lot=lot))
        return True, lot

    # ------------------------------------------------------------------ consequences
    def snapshot(self, s: GameState) -> dict[tuple[str, ...], int | None]:
        """The boss of each casino. Kept until a tile or die changes, so an action that moves neither (a gamble)
        finds ``after is before``; callers must not change the dict."""
        return casino_index(self.board, s, self._join_rule).boss_of_each(s.tiles)

    def consequences(self, s: GameState, before: dict, events: list[Event]) -> None:
        """Merges and boss changes since ``before`` (003 L541-547: same colour and height join instantly)."""
        after = self.snapshot(s)
        if after is before:
            return
        owner_of = None
        for lots, b in after.items():
            if before.get(lots, -1) == b:  # no seat is -1
                continue  # the very casino it was, with the same boss: nothing to tell
            if owner_of is None:
                owner_of = {lot: lots for lots in before for lot in lots}
            prior = []
            for lot in lots:
                p = owner_of.get(lot)
                if p is not None and p not in prior:
                    prior.append(p)
            if len(prior) >= 2:
                t = s.tiles[lots[0]]
                events.append(event("merged", lots=list(lots), color=t.color, height=t.height))
            if prior:
                main = max(prior, key=len)
                if before[main] != b:
                    events.append(event("boss_changed", lots=list(lots), previous=before[main], boss=b))

    def resolve_ties(self, s: GameState, dice: Dice, events: list[Event], rerolled: tuple = ()) -> None:
        """000 "Reroll if Tied" L203-209; 003 "Settling Who's the Boss" L426-445. Free rerolls of the tied top
        dice until one player (``single_top_owner``) or one die (``single_top_die``) holds the top value.
        ``rerolled``: lots already rerolled in this settling (a reroll given at a table), so it goes on."""
        stop_die = self.profile.ties.stop_when == "single_top_die"
        # two or more players share the top value (casinos are disjoint: rerolls in one leave the others alone)
        tied = [c for c, facts in self.casinos_with_dice(s) if facts.boss is None and len(facts.top_lots) >= 2]
        if rerolled:  # a settling begun with dice given at a table goes on in its casino (single_top_die)
            tied += [c for c, _ in self.casinos_with_dice(s)
                     if not set(c.lots).isdisjoint(rerolled) and all(t.lots != c.lots for t in tied)]
        for casino in tied:
            rounds = 1 if rerolled and not set(casino.lots).isdisjoint(rerolled) else 0
            while True:
                facts = dice_facts(s, casino)
                lots = facts.top_lots
                tied = facts.boss is None and len(lots) >= 2  # two or more players share the top value
                if not tied and (rounds == 0 or not stop_die or len(lots) < 2):
                    break
                if rounds > 500:
                    raise IllegalAction("tie rerolls do not end (recorded dice keep tying)", "ties.stop_when")
                values = dice.tie(lots)
                for lot, v in values.items():
                    s.set_die(lot, s.tiles[lot].owner, v)
                events.append(event("tie_rerolled", lots=list(lots), values=dict(values)))
                if self.profile.reorg.tie_rerolls_count:
                    s.reorganized.update(lots)
                rounds += 1

    # ------------------------------------------------------------------ the draw step
    def begin_turn(self, s: GameState, player: int, dice: Dice, events: list[Event],
                   choices: dict | None = None, draw: bool = True, table: bool = False) -> None:
        """``player``'s turn begins: the turn's counters are cleared, then the draw step (unless ``draw`` is
        False: the game then rests at "X is to draw", for a draw decision)."""
        s.turn += 1
        s.current = player
        s.phase = "draw"
        s.drawn = []
        s.gambles = 0
        s.reorganized = set()
        events.append(event("turn_started", turn=s.turn, player=player))
        if draw:
            self.draw_step(s, dice, events, choices, table=table)

    def draw_step(self, s: GameState, dice: Dice, events: list[Event], choices: dict | None = None,
                  named: tuple = (), table: bool = False) -> None:
        """Draw cards until one that is not an F card under the F-block rule; each one pays and scores.

        ``named``: the cards the player says were turned over, checked against the top of the deck; at a
        ``table`` the deck's order is unknown (``s.deck`` holds the cards not seen yet) and they are the cards.
        Raises IllegalAction part-way: the caller restores the state.
        000 "Step 1: Draw" L61-112; 003 Steps 1-5 L295-416; 003 "2-Player Rules" L893-907; end card: 003 L908-916.
        """
        choices = choices or {}
        player = s.current
        names = list(named)
        while True:
            if table:
                if not names:
                    more = f" ({s.drawn[-1]} was skipped: name the next card as well)" if s.drawn else ""
                    raise IllegalAction(f"name the card turned over at the table, e.g. 'draw D5'{more}", DRAW_NAMED)
                card = names.pop(0)
                if card not in s.deck:
                    raise IllegalAction(f"{card} is not in the deck: it was dealt or drawn already", DRAW_NAMED)
                s.deck.remove(card)
            else:
                if not s.deck:
                    self.end_game(s, "deck_exhausted", events)
                    return
                card = s.deck.pop(0)
                if names and names.pop(0) != card:
                    raise IllegalAction(f"the card on top of the deck is not {named[len(s.drawn)]}", DRAW_NAMED)
            s.drawn.append(card)
            s.discards.append(card)
            if card == END_CARD:
                if names:
                    raise IllegalAction(f"{', '.join(names)}: no card is drawn after the end card", DRAW_NAMED)
                events.append(event("card_drawn", player=player, card=card, pays=STRIP))
                if self.profile.end.card_pays_lots:
                    self.pay_lots(s, events)
                if self.profile.end.card_pays_strip:
                    self.pay_and_score(s, STRIP, events, end_card=True)
                if s.phase != "over":
                    self.end_game(s, "end_card", events)
                return
            color = self.board.card_color(card)
            skipped = self.f_closed(s, card)
            events.append(event("card_drawn", player=player, card=card, pays=color, **({"f_block": True} if skipped else {})))
            before = self.snapshot(s)
            if not skipped:
                try:
                    self.take_over(s, player, card, events, choices, ask=dice.ask)
                except NeedChoice as need:  # at a table: which piece moves is the drawer's next decision
                    s.phase, s.pending = "choice", {"what": need.what, "card": card, "color": color, "before": before}
                    return
                if not self._settle_card(s, dice, events, color, before):
                    return
            else:
                self.pay_lots(s, events)
                self.pay_and_score(s, color, events)
            if s.phase == "over" or not skipped:
                break
        if names:
            raise IllegalAction(f"{', '.join(names)}: more cards named than were turned over ({', '.join(s.drawn)})",
                                DRAW_NAMED)
        if s.phase != "over":
            s.phase = "actions"

    def _settle_card(self, s: GameState, dice: Dice, events: list[Event], color: str, before: dict,
                     rerolled: tuple = ()) -> bool:
        """After the take-over: ties, merges and bosses, then the payouts. False: at a table, the draw waits for
        the dice of a tie reroll (phase "reroll"; no trade may start, 003 L440-441)."""
        if self.profile.ties.check == "immediate":
            try:
                self.resolve_ties(s, dice, events, rerolled)
            except NeedDice as need:
                s.phase, s.pending = "reroll", {"what": "reroll", "lots": need.lots, "color": color, "before": before,
                                                "rerolled": rerolled}
                return False
        self.consequences(s, before, events)
        self.pay_lots(s, events)
        self.pay_and_score(s, color, events)
        return True

    def resume_draw(self, s: GameState, action, dice: Dice, events: list[Event]) -> None:
        """Go on with a draw that waits at a table: the dice of a tie reroll, or which piece moves."""
        pending = s.pending
        if pending is None:
            raise IllegalAction(f"nothing waits for '{action.kind}': the draw is not waiting for dice or a choice",
                                TURN_ORDER)
        rerolled: tuple = ()
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
            for lot in lots:
                s.set_die(lot, s.tiles[lot].owner, values[lot])
            events.append(event("tie_rerolled", lots=list(lots), values=values))
            if self.profile.reorg.tie_rerolls_count:
                s.reorganized.update(lots)
            rerolled = tuple(pending["rerolled"]) + tuple(lots)
        else:
            if pending["what"] != action.what:
                raise IllegalAction(f"the draw waits for {_WAITS[pending['what']]}", TURN_ORDER)
            s.pending, s.phase = None, "draw"
            self.take_over(s, s.current, pending["card"], events, {action.what: action.lot})
        if self._settle_card(s, dice, events, pending["color"], pending["before"], rerolled) and s.phase != "over":
            s.phase = "actions"

    def take_over(self, s: GameState, player: int, lot: str, events: list[Event], choices: dict,
                  ask: bool = False) -> None:
        """000 "Take Over Your Lot" L67-71; 003 "Step 1" L295-307. ``ask``: at a table, a piece to move that the
        choices do not name is asked for (NeedChoice)."""
        tile = s.tiles.get(lot)
        if tile is None:
            if s.markers.get(lot) == player:
                return
            if ask and "marker_from" not in choices and self._must_move(s, player, "marker_from"):
                raise NeedChoice("marker_from")
            ok, moved = self._free_marker(s, player, events, choices.get("marker_from"))
            if ok:
                s.put_marker(lot, player)
                events.append(event("marker_placed", player=player, lot=lot, moved_from=moved))
            return
        if tile.owner == player:
            return  # 003 L306: "If it has your die, leave it alone"
        if ask and "die_from" not in choices and self._must_move(s, player, "die_from"):
            raise NeedChoice("die_from")
        ok, moved = self._free_die(s, player, lot, events, choices.get("die_from"))
        if not ok:
            return
        previous = tile.owner
        value = tile.value if tile.owner is not None else self.board.lots[lot].die
        s.set_die(lot, player, value)
        events.append(event("die_taken_over", player=player, lot=lot, value=value, previous=previous, moved_from=moved))

    def pay_lots(self, s: GameState, events: list[Event]) -> None:
        """000 L75 / 003 Step 2 L309-316: each lot with a marker pays its owner, whatever card is drawn."""
        income = self.profile.payout.lot_income
        per: dict[int, list[str]] = {}
        for lot in sorted(s.markers, key=self.board.index.__getitem__):  # each owner's lots in board order
            per.setdefault(s.markers[lot], []).append(lot)
        for owner in sorted(per):
            amount = income * len(per[owner])
            if amount:
                s.players[owner].money += amount
                events.append(event("paid", player=owner, amount=amount, why="lots", lots=per[owner]))

    def pay_and_score(self, s: GameState, pays: str, events: list[Event], end_card: bool = False) -> None:
        """Casinos of the card's colour (or touching the Strip) pay $ per pip, then each boss scores each casino
        separately, smallest first (000 L110; 003 L404-416), along the score track with its breaks."""
        p = self.profile
        if pays == STRIP:
            strip = self.board.strip_lots
            paying = [(c, f) for c, f in self.casinos_with_dice(s) if not strip.isdisjoint(c.lots)]
        else:
            paying = [(c, f) for c, f in self.casinos_with_dice(s) if c.color == pays]
        per_pip = p.payout.money_per_pip
        players = s.players
        for casino, facts in paying:
            if len(facts.owners) == 1:  # most casinos: every pip is the one owner's
                per = {facts.owners[0]: facts.pips * per_pip}
            else:
                per = {}
                for lot in casino.lots:
                    t = s.tiles[lot]
                    if t.owner is not None:
                        per[t.owner] = per.get(t.owner, 0) + t.value * per_pip
            for owner in sorted(per):
                if per[owner]:
                    players[owner].money += per[owner]
                    events.append(event("paid", player=owner, amount=per[owner], why="casino", lots=list(casino.lots)))
        index = self.board.index
        if p.scoring.order == "ascending_points":
            key = lambda cf: (self.points(s, cf[0]), index[cf[0].name])  # noqa: E731
        else:
            key = lambda cf: (cf[0].spaces, index[cf[0].name])  # noqa: E731
        target = p.end.instant_win_points
        for casino, facts in sorted(paying, key=key):
            b = facts.boss
            if b is None:
                continue
            award = self.points(s, casino)
            before = players[b].score
            after = self.board.advance(before, award)
            players[b].score = after
            events.append(event("scored", player=b, lots=list(casino.lots), award=award, before=before, after=after))
            if after >= target and p.end.instant_win_mode == "immediate":
                # 000 L232: "win immediately"; on the end card's payout the game ends because the card was
                # drawn (000 L230; 003 L908-916), and reaching the target is told as a fact of its own
                self.end_game(s, "end_card" if end_card else "instant_win", events, winner=b,
                              instant_win=end_card)
                return
        if any(pl.score >= target for pl in players):  # 003 L917-921: finish scoring, most points wins
            self.end_game(s, "end_card" if end_card else "instant_win", events, instant_win=end_card)

    def ranking(self, s: GameState) -> list[int]:
        """Most points, then most money (000 L230; 003 L915-916); still tied: earlier seat (rulebooks silent)."""
        return sorted(range(len(s.players)), key=lambda i: (-s.players[i].score, -s.players[i].money, i))

    def end_game(self, s: GameState, reason: str, events: list[Event], winner: int | None = None,
                 instant_win: bool = False) -> None:
        """``instant_win``: the end card's payout also took a player to the target (the reason stays end_card)."""
        ranking = self.ranking(s)
        if winner is not None:
            ranking.remove(winner)
            ranking.insert(0, winner)
        s.phase = "over"
        s.result = Result(reason=reason, winner=ranking[0], ranking=ranking,
                          names=tuple(pl.name for pl in s.players))
        extra = {"instant_win": True} if instant_win else {}
        events.append(event("game_ended", reason=reason, winner=ranking[0], ranking=list(ranking),
                            scores=[pl.score for pl in s.players], money=[pl.money for pl in s.players], **extra))

    # ------------------------------------------------------------------ actions
    def apply(self, s: GameState, action, dice: Dice, events: list[Event], choices: dict | None = None) -> None:
        """Apply one decision of the current player. Raises IllegalAction, leaving ``s`` unchanged."""
        if s.phase == "over":
            raise IllegalAction("the game is over", "end")
        choices = choices or {}
        kind = type(action)
        if kind is A.EndTurn or kind is A.Draw:
            raise IllegalAction(f"{action.kind} is handled by the game, not the rules", "turn order")
        if s.phase != "actions":
            self._raise_if(self.why_waiting(s))
        if kind is A.Trade:  # 000 L218 / 003 L805-808: at any time, even when it is not your turn
            if s.phase not in ("draw", "actions"):
                raise IllegalAction("no trades during the draw step's payouts", TURN_ORDER)
            self._trade(s, action, dice, events, choices)
            return
        if s.phase == "draw":
            raise IllegalAction(f"{s.players[s.current].name} has not drawn yet: the turn starts with the draw",
                                DRAW_FIRST)
        if s.phase != "actions":
            raise IllegalAction("no decisions during the draw", TURN_ORDER)
        before = self.snapshot(s)
        self._action(s, s.current, action, dice, events, choices)
        self.resolve_ties(s, dice, events)
        self.consequences(s, before, events)

    def why_waiting(self, s: GameState) -> Reason | None:
        """At a table, a draw that waits for tie dice or a piece to move allows nothing else meanwhile."""
        pending = s.pending
        if pending is None:
            return None
        if s.phase == "reroll":  # 003 L440-441: "players may not take actions, play cards, or initiate trades
            #                        until the rerolling finishes"
            return (TIE_REROLL, f"a tie reroll is under way on {', '.join(pending['lots'])}: nothing else until "
                                f"it finishes ('reroll {' '.join(f'{lot} N' for lot in pending['lots'])}')")
        return (TURN_ORDER, f"{s.players[s.current].name}'s draw waits for {_WAITS[pending['what']]}")

    def _must_move(self, s: GameState, player: int, what: str) -> bool:
        """Has ``player`` no marker (die) left, under a profile that moves one of theirs?"""
        c, r = self.profile.components, self.profile.resources
        if what == "marker_from":
            return r.markers_exhausted != "no_marker" and len(s.markers_on_board(player)) >= c.markers_per_player
        return r.dice_exhausted != "no_die" and len(s.dice_on_board(player)) >= c.dice_per_player

    def _raise_if(self, reason: Reason | None) -> None:
        if reason is not None:
            raise IllegalAction(reason[1], reason[0])

    def _action(self, s: GameState, player: int, action, dice: Dice, events: list[Event], choices: dict) -> None:
        handler: Callable = _HANDLERS.get(type(action))
        if handler is None:
            raise IllegalAction(f"not an action: {action!r}", "actions")
        handler(self, s, player, action, dice, events, choices)

    def _build(self, s, player, a: A.Build, dice, events, choices):
        self.lot_check(a.lot)
        self.color_check(a.color)
        self._raise_if(self.why_not_build(s, player, a.lot, a.color))
        lot = self.board.lots[a.lot]
        ok, moved = self._free_die(s, player, a.lot, events, choices.get("die_from"))
        s.players[player].money -= lot.price
        s.remove_marker(a.lot)
        s.place_tile(a.lot, a.color, 1, player if ok else None, lot.die if ok else None)
        events.append(event("built", player=player, lot=a.lot, color=a.color, cost=lot.price,
                            value=lot.die if ok else None, moved_from=moved))

    def _sprawl(self, s, player, a: A.Sprawl, dice, events, choices):
        self.lot_check(a.lot)
        self.lot_check(a.source)
        self._raise_if(self.why_not_sprawl(s, player, a.lot, a.source))
        casino = self.casino_at(s, a.source)
        cost = self.sprawl_cost(a.lot, casino)
        ok, moved = self._free_die(s, player, a.lot, events, choices.get("die_from"))
        die = self.board.lots[a.lot].die
        s.players[player].money -= cost
        # 003 L509-511: tile and risers go down at once, so no two adjacent same-colour casinos of different heights
        s.place_tile(a.lot, casino.color, casino.height, player if ok else None, die if ok else None)
        events.append(event("sprawled", player=player, lot=a.lot, source=a.source, color=casino.color,
                            height=casino.height, cost=cost, value=die if ok else None, moved_from=moved))

    def _remodel(self, s, player, a: A.Remodel, dice, events, choices):
        self.lot_check(a.lot)
        self.color_check(a.color)
        self._raise_if(self.why_not_remodel(s, player, a.lot, a.color))
        casino = self.casino_at(s, a.lot)
        cost, _ = self.remodel_cost(casino)
        s.players[player].money -= cost
        s.recolor(casino.lots, a.color)
        events.append(event("remodeled", player=player, lots=list(casino.lots), before=casino.color,
                            color=a.color, cost=cost))

    def _reorganize(self, s, player, a: A.Reorganize, dice, events, choices):
        self.lot_check(a.lot)
        self._raise_if(self.why_not_reorganize(s, player, a.lot))
        casino = self.casino_at(s, a.lot)
        cost = self.reorganize_cost(s, casino)
        by_owner: dict[int, list[str]] = {}
        for lot in casino.lots:
            owner = s.tiles[lot].owner
            if owner is not None:
                by_owner.setdefault(owner, []).append(lot)
        values = dice.reorg(by_owner)
        s.players[player].money -= cost
        for lot, v in values.items():
            s.set_die(lot, s.tiles[lot].owner, v)
        s.reorganized.update(values)  # 003 L624-627: the lock survives merges
        events.append(event("reorganized", player=player, lots=list(casino.lots), cost=cost, values=dict(values)))

    def _raise(self, s, player, a: A.Raise, dice, events, choices):
        self.lot_check(a.lot)
        self._raise_if(self.why_not_raise(s, player, a.lot))
        casino = self.casino_at(s, a.lot)
        cost = self.raise_cost(casino)
        s.players[player].money -= cost
        s.raise_tiles(casino.lots)
        events.append(event("raised", player=player, lots=list(casino.lots), height=casino.height + 1, cost=cost))

    def _gamble(self, s, player, a: A.Gamble, dice, events, choices):
        self.lot_check(a.lot)
        if not isinstance(a.bet, int) or a.bet < 1:
            raise IllegalAction("a bet is a whole number of dollars, at least $1", "gamble.bet_per_tile")
        self._raise_if(self.why_not_gamble(s, player, a.lot, a.bet, a.lay_off))
        g = self.profile.gamble
        casino = self.casino_at(s, a.lot)
        b = boss(s, casino)
        d1, d2 = dice.gamble()
        total = d1 + d2
        gambler, house = s.players[player], s.players[b]
        s.gambles += 1
        if total in g.lose:
            outcome = "lose"
            boss_share = a.bet // 2 if a.lay_off else a.bet  # 000 L194: the bank takes the rest
            gambler.money -= a.bet
            house.money += boss_share
            gambler_gets, boss_gets = -a.bet, boss_share
        else:
            outcome = "double" if total in g.win_double else "win"
            amount = a.bet * (2 if outcome == "double" else 1)
            if a.lay_off:
                if outcome == "double" and g.lay_off_double_basis == "stake":
                    boss_share = 2 * (a.bet // 2)
                else:
                    boss_share = amount // 2
                bank_share = amount - boss_share
            else:
                boss_share, bank_share = amount, 0
            paid = min(boss_share, house.money)  # 000 L192 / 003 L740-742: only the money the boss has
            house.money -= paid
            gambler.money += paid + bank_share
            gambler_gets, boss_gets = paid + bank_share, -paid
        events.append(event("gambled", player=player, lot=a.lot, boss=b, bet=a.bet, dice=[d1, d2], total=total,
                            outcome=outcome, lay_off=a.lay_off, gambler_gets=gambler_gets, boss_gets=boss_gets))

    # ------------------------------------------------------------------ trades
    def _transfer(self, s, step, events: list[Event], choices: dict) -> None:
        n = len(s.players)
        for who in (step.giver, step.receiver):
            if not isinstance(who, int) or not 0 <= who < n:
                raise IllegalAction(f"no such player: {who!r}", "trade")
        if step.giver == step.receiver:
            raise IllegalAction("a player cannot trade with themselves", "trade")
        giver, receiver = s.players[step.giver], s.players[step.receiver]
        if isinstance(step, A.GiveMoney):
            if not isinstance(step.amount, int) or isinstance(step.amount, bool) or step.amount < 1:
                raise IllegalAction(f"give a whole number of dollars, at least $1, not {step.amount!r}", "trade.items")
            if giver.money < step.amount:
                raise IllegalAction(f"{giver.name} has ${giver.money}, not ${step.amount}", "trade.items")
            giver.money -= step.amount
            receiver.money += step.amount
            events.append(event("money_given", giver=step.giver, receiver=step.receiver, amount=step.amount))
        elif isinstance(step, A.GiveLot):
            self.lot_check(step.lot)
            if s.markers.get(step.lot) != step.giver:
                raise IllegalAction(f"{giver.name} has no marker on {step.lot}", "trade.items")
            s.remove_marker(step.lot)
            ok, moved = self._free_marker(s, step.receiver, events, choices.get("marker_from"))
            if not ok:
                s.put_marker(step.lot, step.giver)
                raise IllegalAction(f"{receiver.name} has no marker left", "resources.markers_exhausted")
            s.put_marker(step.lot, step.receiver)
            events.append(event("lot_given", lot=step.lot, giver=step.giver, receiver=step.receiver, moved_from=moved))
        elif isinstance(step, A.GiveDie):
            self.lot_check(step.lot)
            tile = s.tiles.get(step.lot)
            if tile is None or tile.owner != step.giver:
                raise IllegalAction(f"{giver.name} has no die on {step.lot}", "trade.items")
            ok, moved = self._free_die(s, step.receiver, step.lot, events, choices.get("die_from"))
            if not ok:
                raise IllegalAction(f"{receiver.name} has no die left", "resources.dice_exhausted")
            s.set_die(step.lot, step.receiver, tile.value)  # 000 L224 / 003: "The new die has the same value as the die it is replacing"
            events.append(event("die_given", lot=step.lot, giver=step.giver, receiver=step.receiver,
                                value=tile.value, moved_from=moved))
        else:
            raise IllegalAction(f"not a trade step: {step!r}", "trade")

    def why_not_trade(self, s: GameState, trade: A.Trade) -> Reason | None:
        """What a trade may hold and who may make it, before any step is carried out (a forbidden element makes
        the whole trade illegal; it is not a step that fails). 000 "At Any Time: Trading" L216-226; 003
        "Trading" L803-836."""
        n = len(s.players)
        names = [p.name for p in s.players]
        by = trade.by
        if by:
            if not all(isinstance(i, int) and 0 <= i < n for i in by):
                return ("trade", f"no such player among {by!r}")
            if len(set(by)) != len(by):
                return ("trade", "a player is named twice among the parties")
            if len(by) < 2:  # 003 L808-809: any number of players may be involved in a trade
                return (TRADE_PARTIES, "a trade is between two or more players")
        named: set[int] = set()
        for i, step in enumerate(trade.steps, start=1):
            if isinstance(step, A.GivePoints):
                return (TRADE_FORBIDDEN, f"step {i}: points cannot be traded")
            if isinstance(step, A.GiveTile):
                return (TRADE_FORBIDDEN, f"step {i}: casino tiles cannot be traded")
            if isinstance(step, A.GiveRiser):
                return (TRADE_FORBIDDEN, f"step {i}: risers cannot be traded")
            if isinstance(step, A.Promise):
                return (TRADE_PROMISE, f"step {i}: a promise of an action or a transfer on a future turn cannot "
                                       "be traded")
            if isinstance(step, A.ActAs):
                if step.player != s.current:
                    who = names[step.player] if isinstance(step.player, int) and 0 <= step.player < n else step.player
                    return (TRADE_ACTIONS, f"step {i}: {who} cannot take an action on "
                                           f"{names[s.current]}'s turn")
                step = step.action
            if isinstance(step, A.ACTIONS):
                if s.phase != "actions":  # an action "you perform this turn": in the action step only
                    return (TRADE_ACTIONS, f"step {i}: {names[s.current]} has not drawn yet, so cannot trade an "
                                           "action now")
                named.add(s.current)
            elif isinstance(step, A.TRANSFERS):
                named.update((step.giver, step.receiver))
        if by and not named <= set(by):
            outside = sorted(i for i in named - set(by) if isinstance(i, int) and 0 <= i < n)
            if outside:
                return (TRADE_PARTIES, f"{', '.join(names[i] for i in outside)} "
                                       f"{'is' if len(outside) == 1 else 'are'} not a party to the trade "
                                       f"(by {', '.join(names[i] for i in by)})")
        return None

    def _trade(self, s: GameState, trade: A.Trade, dice: Dice, events: list[Event], choices: dict) -> None:
        """000 "At Any Time: Trading" L216-226; 003 "Trading" L803-836: steps in the agreed order; a step that
        fails stops the rest (``stop_rest``) or undoes the whole trade (``undo_all``)."""
        if not trade.steps:
            raise IllegalAction("a trade needs at least one step", "trade")
        self._raise_if(self.why_not_trade(s, trade))
        saved = s.copy()
        done: list[Event] = []
        immediate = self.profile.ties.check == "immediate"
        for i, step in enumerate(trade.steps):
            before = self.snapshot(s)
            step_saved = saved if i == 0 else s.copy()  # a step that fails half-way must leave no trace
            step_events: list[Event] = []
            try:
                if isinstance(step, A.TRANSFERS):
                    self._transfer(s, step, step_events, choices)
                    if immediate:
                        self.resolve_ties(s, dice, step_events)
                elif isinstance(step, (A.ACTIONS, A.ActAs)):
                    action = step.action if isinstance(step, A.ActAs) else step
                    self._action(s, s.current, action, dice, step_events, choices)
                    self.resolve_ties(s, dice, step_events)
                else:
                    raise IllegalAction(f"not a trade step: {step!r}", "trade")
            except IllegalAction as err:
                if i == 0 or self.profile.trade.failed_step == "undo_all":
                    _restore(s, saved)
                    raise IllegalAction(f"trade step {i + 1} fails: {err.reason}", err.rule) from None
                _restore(s, step_saved)
                done.append(event("trade_step_failed", step=i + 1, reason=err.reason, rule=err.rule))
                break
            self.consequences(s, before, step_events)
            done.extend(step_events)
        events.extend(done)


def _restore(s: GameState, saved: GameState) -> None:
    s.restore(saved)  # state.py: the one undo (saved = s.copy())


_HANDLERS = {
    A.Build: Engine._build, A.Sprawl: Engine._sprawl, A.Remodel: Engine._remodel,
    A.Reorganize: Engine._reorganize, A.Raise: Engine._raise, A.Gamble: Engine._gamble,
}
