"""A game kept in a file: the play-by-email API behind ``lv new``, ``lv move``, ``lv legal`` and ``lv show``.

    >>> from lv import session
    >>> s = session.create("game.yaml", "revised", ["red", "blue", "green"], seed=7)
    >>> s.play("build D6 gold").lines       # validated, applied; raises MoveError if illegal
    ['build D6 gold: -$6, die 2']
    >>> s.play("end").lines[1]              # ends the turn, the next player draws and is paid
    'Turn 2 - red draws E1 (brown)'
    >>> s.save()                            # the whole record, written atomically
    PosixPath('game.yaml')
    >>> s = session.open_game("game.yaml")  # strict replay of the file

The file is an ordinary ``lv-game/1`` record (see record.py), so ``lv replay`` and ``lv check`` read it. Loading
replays it strictly; saving writes the whole record again with ``record_of`` after checking that the new text
replays to the same state, so a file is never replaced by one that would not load.

Dice come from the game's seed unless a table rolls real ones (``dice=[3, 5]``, see ``Session.play``); either
way they are written to the record, so the file replays to the same game. At a table (``create(table=True)``)
the cards are named as they are drawn (``s.play("draw D5")``), every die must be given, and a draw's tie rerolls
and pieces to move are asked for as the next decisions. A trade may be played at any time by any players.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

import attrs

from . import actions as A
from . import narrative
from .actions.layoff import asks_boss, waiting_gamble
from .errors import IllegalAction, LvError, NotationError, RecordError
from .events import EVENTS, Event, TieRerolled
from .game import Game, new_game
from .notation import format_action, parse_action
from .profile import Profile, load_profile
from .files import NEW, digest, is_json, write_atomic
from .record import Record, dumps, load_record, parse_record, record_of, structured
from .replay import replay
from .yamlsource import one_line, read_text

GROUPS = A.GROUPS  # the groups of ``lv legal``: one per listed verb of the action families' table
# events whose dice a table must give: those of the actions that roll dice (Family.rolls), and a tie's reroll
ROLLING = tuple(EVENTS[f.main_event] for f in A.FAMILIES if f.rolls and f.main_event) + (TieRerolled,)


class MoveError(LvError):
    """A decision the referee refuses: not in the notation, illegal now, or given the wrong dice.

    ``str()`` is the one-line message ``turn N, red: 'build A9 gold': <reason> [rule]`` (prefixed with
    ``file:line:`` for a script line); ``nearest`` holds up to five legal decisions of the same verb."""

    def __init__(self, turn: int, player: str, text: str, reason: str, rule: str = "",
                 nearest: Iterable[str] = (), where: str = "") -> None:
        self.turn, self.player, self.text, self.reason, self.rule = turn, player, text, reason, rule
        self.nearest = list(nearest)
        self.where = where
        super().__init__(reason, turn=turn)

    def message(self) -> str:
        """``file:line: turn N, red: 'build A9 gold': <reason> [rule]``."""
        return self._message()

    def _message(self) -> str:
        head = f"{self.where}: " if self.where else ""
        tail = f" [{self.rule}]" if self.rule else ""
        text = self.text if len(self.text) <= 200 else f"{self.text[:197]}..."  # a 5,000-digit bet is not echoed
        return f"{head}turn {self.turn}, {self.player}: '{text}': {self.reason}{tail}"

    def located(self, where: str) -> MoveError:
        self.where = where
        self.args = (self._message(),)
        return self


@attrs.define
class Played:
    """One decision that was applied: its canonical text, the events it caused (for ``end``: also the next
    player's draw) and those events as readable lines (``narrative.py``)."""

    text: str
    events: list[Event]
    turn: int
    player: str
    lines: list[str] = attrs.field(factory=list)
    line: int | None = None  # the line of a script it came from


@attrs.define
class ScriptResult:
    played: list[Played]
    error: MoveError | None = None


@attrs.define(eq=False)
class Session:
    game: Game
    spec: str  # the profile spec as written in the file
    path: Path | None = None
    position: dict[str, Any] | None = None  # kept from the file: the record starts from a position
    comment: str | None = None
    tags: dict[str, str] = attrs.field(factory=dict)  # event, site, date, round and free tags, kept as they are
    until: int | None = None  # loaded only up to this turn: a look back, never saved over the file
    read_digest: str | None = None  # the fingerprint of the file as read (files.NEW: it must not exist yet)

    # ------------------------------------------------------------------ reading
    @property
    def names(self) -> list[str]:
        return self.game.player_names

    @property
    def player(self) -> str:
        """Who decides now: the player whose turn it is, or the boss a gamble waits for (``Game.to_move``)."""
        return self.names[self.game.to_move]

    def legal(self) -> dict[str, list[str | dict[str, Any]]]:
        return legal_groups(self.game)

    # ------------------------------------------------------------------ playing
    def play(self, decision: str | A.Decision, dice: list[int] | None = None,
             choices: dict[str, str] | None = None) -> Played:
        """Validate and apply one decision (text in the notation, or an action object) of the current player.

        ``dice``: die faces rolled at the table, used in order: a gamble's two dice; for a reorganize, the new
        value of each die in the casino, in board order of their lots; then one value per tie reroll the decision
        causes, in the order the rerolls happen (for ``end``: the tie rerolls of the next player's draw). The
        count must be exact; when a tie needs more dice the error says so and nothing changes.
        ``choices``: ``{"die_from": LOT}`` / ``{"marker_from": LOT}`` where pieces ran out.
        Raises MoveError (the game is unchanged)."""
        game = self.game
        turn, player = game.state.turn, self.player
        text = decision if isinstance(decision, str) else format_action(decision, self.names)
        text = " ".join(text.split())
        if game.over:
            r = game.result
            assert r is not None  # the game is over: it has its result
            raise self._refuse(text, f"the game is over ({self.names[r.winner]} won: {r.reason})", "end")
        if isinstance(decision, str):
            try:
                action = parse_action(text, self.names, game.board)
            except NotationError as err:
                raise self._refuse(text, _strip_text(str(err), text), "notation", text) from None
        else:
            action = decision
        # 'gamble B3 4' with no answer for the boss: where the boss may lay off, the boss is asked (000 L194)
        if (type(action) is A.Gamble and action.lay_off is False and len(text.split()) == 3
                and asks_boss(game.profile)):
            action = A.Gamble(action.lot, action.bet, None)
            if dice is not None:
                raise self._refuse(text, "the boss answers before the roll (000 L194): give the dice with the "
                                         "answer ('layoff --dice 3,5' or 'no-layoff --dice 3,5')", "dice")
        is_end = isinstance(action, A.EndTurn)
        draw = not game.explicit_draws  # at a table or with explicit draws, 'end' leaves the next player to draw
        recorded = None
        try:
            if isinstance(action, A.Reroll) and not action.values and dice is not None and game.state.pending:
                lots = (game.state.pending or {}).get("lots", ())
                if len(dice) != len(lots):
                    raise IllegalAction(f"the tie reroll on {', '.join(lots) or 'nothing'} takes {len(lots)} dice, "
                                        f"{len(dice)} given", "dice")
                action, dice = A.Reroll(tuple(zip(lots, dice))), None
            if dice is not None:
                recorded = self._table_dice(action, list(dice), choices)
            elif game.table and not isinstance(action, (A.Draw, *A.DRAW_CHOICES)):  # a draw waits for its dice
                rolled = [e.kind for e in _trial(game, action, {}, choices) if isinstance(e, ROLLING)]
                if rolled:
                    raise IllegalAction(f"at a table the dice are rolled there: give them with --dice "
                                        f"({', '.join(dict.fromkeys(rolled))})", "dice")
            if is_end:
                events = game.apply(action, next_draw_dice=recorded, next_draw_choices=choices, draw=draw)
            else:
                events = game.apply(action, dice=recorded, choices=choices)
        except IllegalAction as err:
            raise self._refuse(text, err.reason, err.rule, action) from None
        except RecordError as err:  # a die face out of range, a choice that names no piece
            raise self._refuse(text, str(err), "dice") from None
        names = self.names
        waiting = waiting_gamble(game.state)
        if waiting is not None:  # the gamble waits for its boss's answer
            lot, bet, boss = waiting
            lines = [f"gamble {lot} {bet}: {names[boss]}, the boss, is asked: lay off half of it to the bank or not "
                     f"('layoff' or 'no-layoff')"]
        elif is_end:
            new = game.current_turn
            lines = ["end", narrative.turn_header(new, names)]
            lines += [narrative.INDENT + x for x in narrative.draw_lines(new.draw_events, names)]
        else:  # any other decision (a trade too, which may come before the draw) with its effect
            lines = narrative.decision_lines(game.current_turn.decisions[-1], names)
        return Played(format_action(action, names), events, turn, player, lines)

    def play_lines(self, lines: Iterable[str], source: str = "<stdin>") -> ScriptResult:
        """Apply one decision per line (``#`` comments and blank lines skipped; a line may end with
        ``--dice 3,5``) until the first refused one, which is returned with ``file:line`` in its message.
        The decisions before it stay applied; the caller saves."""
        out = ScriptResult(played=[])
        for number, raw in enumerate(lines, start=1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            dice = None
            if "--dice" in line:
                line, _, given = line.partition("--dice")
                line = line.strip()
                try:
                    dice = parse_dice(given.strip())
                except LvError as err:
                    out.error = self._refuse(line, str(err), "dice").located(f"{source}:{number}")
                    return out
            try:
                played = self.play(line, dice)
            except MoveError as err:
                out.error = err.located(f"{source}:{number}")
                return out
            played.line = number
            out.played.append(played)
        return out

    def _refuse(self, text: str, reason: str, rule: str, action: str | A.Decision | None = None) -> MoveError:
        s = self.game.state
        nearest = nearest_legal(self.game, action) if action is not None else []
        return MoveError(s.turn, self.player, text, reason, rule, nearest)

    def _table_dice(self, action: A.Decision, values: list[int], choices: dict[str, str] | None) -> dict[str, Any]:
        """Turn the table's dice, in order, into the record's dice keyed by meaning (see ``play``)."""
        for v in values:
            if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 6:
                raise IllegalAction(f"{v!r} is not a die face (1-6)", "dice")
        game = self.game
        _trial(game, action, {}, choices)  # an illegal decision is refused for itself, before its dice
        rest = list(values)
        recorded: dict[str, Any] = {}
        several: dict[str, list[Any]] = {}  # a trade may roll the same kind more than once (two gambles)
        for k, step in _dice_steps(action):  # each rolling step's family takes the faces it rolls, step by step
            at = game if k == 0 else _after(game, action, k, dict(recorded, **_pairs(several)), choices)
            if at is None:  # an earlier step failed: the rest of the trade is not carried out
                break
            family = A.FAMILY_OF[type(step)]
            key = family.rolls
            assert key is not None  # _rolls(step): it rolls, under its key in ``dice``
            faces = family.table_dice(at, step, rest)
            if isinstance(faces, dict):  # keyed by tile (a reorganize): one mapping for the whole decision
                recorded.setdefault(key, {}).update(faces)
            else:
                several.setdefault(key, []).append(faces)
        recorded.update(_pairs(several))
        used = len(values) - len(rest)
        ties: dict[str, list[int]] = {}
        while True:
            trial = dict(recorded, ties=ties) if ties else recorded
            rolls = [lot for e in _trial(game, action, trial, choices) if isinstance(e, TieRerolled) for lot in e.lots]
            done = sum(len(v) for v in ties.values())
            if len(rolls) <= done:
                break
            if not rest:
                raise IllegalAction(f"a tie reroll on {rolls[done]} needs another die: "
                                    f"{used + done} given, give at least {used + done + 1}", "dice")
            ties.setdefault(rolls[done], []).append(rest.pop(0))
        if rest:
            rolled = len(values) - len(rest)
            given = f"{len(values)} {'die' if len(values) == 1 else 'dice'}"
            none = " (no dice at all)" if not rolled else ""
            raise IllegalAction(f"{given} given, the decision rolls {rolled}{none}", "dice")
        if ties:
            recorded["ties"] = ties
        return recorded

    # ------------------------------------------------------------------ writing
    def text(self) -> str:
        """The record as it would be written (YAML, or JSON for a ``.json`` path)."""
        fmt = "json" if self.path is not None and is_json(self.path) else "yaml"
        data = record_of(self.game, self.spec, position=self.position, comment=self.comment, tags=self.tags)
        return dumps(data, fmt)

    def save(self, path: str | Path | None = None) -> Path:
        """Write the whole record atomically, after checking the text replays to the same state.

        Saving over the file the game was read from requires that it still holds the bytes that were read
        (``files.FileChangedError`` otherwise: another writer saved first, nothing is written)."""
        if path is not None and Path(path) != self.path:
            self.path, self.read_digest = Path(path), None
        if self.path is None:
            raise LvError("no file to save the game to")
        if self.until is not None:
            raise LvError(f"{self.path}: not written: this game was loaded up to turn {self.until} only")
        text = self.text()
        again = _load_text(text, str(self.path))
        if fingerprint(again.game) != fingerprint(self.game):
            raise LvError(f"{self.path}: not written: the record would not replay to the same state "
                          "(an engine error; please report it)")
        self.read_digest = write_atomic(self.path, text, expect=self.read_digest)
        return self.path


# ---------------------------------------------------------------------------------------------- opening


def create(path: str | Path | None, spec: str, players: list[str] | int, seed: int | str = 0, *,
           first_player: str | None = None, comment: str | None = None, tags: dict[str, str] | None = None,
           overwrite: bool = False, table: bool = False, deal: dict[str, list[str]] | None = None,
           starting_rolls: list[dict[str, Any]] | None = None, stop_at_setup: bool = False) -> Session:
    """A new game, set up, the first player's card drawn and paid; written to ``path`` unless it is None (a file
    there is refused unless ``overwrite``). ``tags``: event, site, date, round and free tags for the header.

    ``table``: cards and dice come from a table: ``deal`` gives each player's dealt cards, ``starting_rolls``
    (or ``first_player``) the first-player rolls, and every card is named as it is drawn (``draw D5``).
    ``stop_at_setup`` (and ``table``): the game rests after the deal, before the first draw."""
    profile = load_profile(spec)
    if table and first_player is None and not starting_rolls:
        raise LvError("at a table, give who starts (--first) or the starting rolls (--rolls)")
    if first_player is not None and starting_rolls:  # the rolls were dropped without a word (a record refuses both)
        raise LvError("give who starts (--first) or the starting rolls (--rolls), not both")
    game = new_game(profile, players, seed, first_player=first_player, starting_rolls=starting_rolls,
                    table=table, deal=deal, draw_first=not (table or stop_at_setup))
    game.ask = True  # at a table, the draw's tie rerolls and pieces to move are the next decisions
    s = Session(game=game, spec=spec, path=Path(path) if path is not None else None, comment=comment,
                tags=dict(tags or {}), read_digest=None if overwrite else NEW)
    if path is not None:
        s.save()
    return s


def open_game(path: str | Path, until: int | None = None) -> Session:
    """Load a game file by replaying it strictly under its own profile (``until``: stop at the end of that turn,
    to look at an earlier position; such a session should not be saved over the file)."""
    text = read_text(path, RecordError)
    s = _load_record(parse_record(text, str(path)), Path(path), until)
    s.read_digest = digest(text.encode("utf-8"))  # a UTF-8 text encodes back to the very bytes read
    return s


def _load_text(text: str, name: str) -> Session:
    return _load_record(parse_record(text, name), Path(name))


def _load_record(record: Record, path: Path, until: int | None = None) -> Session:
    rep = replay(record, strict=True, until=until)
    if rep.result_mismatch:
        raise RecordError(f"{record.path}: {rep.result_mismatch[0]}")
    return Session(game=rep.game, spec=record.profile, path=path, position=record.position, comment=record.comment,
                   tags=dict(record.tags), until=until)


def fingerprint(game: Game) -> tuple[Any, ...]:
    """Everything about a game's state that a record must reproduce."""
    s = game.state
    return (tuple((p.name, p.money, p.score) for p in s.players), tuple(sorted(s.markers.items())),
            tuple(sorted((lot, t.color, t.height, t.owner, t.value) for lot, t in s.tiles.items())),
            tuple(s.deck), tuple(s.discards), s.turn, s.current, s.phase, tuple(s.drawn), s.gambles,
            tuple(sorted(s.reorganized)), s.pending and (s.pending["what"], s.pending.get("lots")),
            s.result and (s.result.reason, s.result.winner, tuple(s.result.ranking)))


# ---------------------------------------------------------------------------------------------- legal decisions


def legal_decisions(game: Game) -> list[dict[str, Any]]:
    """The legal decisions now, every one an object of the same form (what ``lv legal --json`` prints):

    ``notation`` (the text ``lv move`` takes), ``kind`` (draw, reroll, move, build, sprawl, remodel, reorg,
    raise, gamble, end),
    ``cost`` (dollars it costs the player now; a gamble's is its bet) and the fields of its structured form
    (``lot``, ``color``, ``from``). A gamble is listed once, with the largest bet in its notation and cost and
    the range ``min``..``max`` (any whole bet in it is legal; write it in place of the bet) and ``lay_off``
    (whether ``layoff`` may end the notation): its family's ``listing``. Trades are not listed: any exchange may
    be proposed.

    A draw at a table that waits for its own decision lists only that: ``reroll`` (with the ``lots`` whose dice
    are to be given, in order: ``lv move game.yaml reroll --dice 4,2``) or ``move`` (``move marker A3``: which of
    the player's pieces to move when none is left)."""
    return [item for _, item, _ in _legal_items(game)]


def _legal_items(game: Game) -> list[tuple[object, dict[str, Any], dict[str, Any] | None]]:
    """``legal_decisions``' objects, each with its decision (None for a draw's own decision, or a table's draw)
    and its family's listing (None unless it stands for several decisions, as a gamble does)."""
    names = game.player_names
    engine, state = game.engine, game.state
    out: list[tuple[object, dict[str, Any], dict[str, Any] | None]] = []
    pending = state.pending
    waiting = waiting_gamble(state)
    if pending is not None and waiting is None:  # a draw at a table waits for its own decision
        if pending["what"] == "reroll":
            out.append((None, {"notation": "reroll", "kind": "reroll", "cost": 0, "lots": list(pending["lots"])},
                        None))
        else:
            what = pending["what"].split("_")[0]
            lots = state.markers_on_board(state.current) if what == "marker" else state.dice_on_board(state.current)
            out.extend((None, {"notation": f"move {what} {lot}", "kind": "move", "cost": 0, "lot": lot}, None)
                       for lot in sorted(lots, key=game.board.index.__getitem__))
    for action in game.legal_actions():
        if isinstance(action, A.Draw) and game.table and not action.cards:
            out.extend((None, item, None) for item in _table_draws(game))
            continue
        item = {"notation": format_action(action, names), "kind": A.group_of(action),
                "cost": engine.action_cost(state, action)}
        item.update((k, v) for k, v in structured(action, names).items() if k not in ("action", "bet"))
        listing = _listing(game, action)
        if listing is not None:  # one listed decision for several (a gamble: any bet in a range)
            item.update(listing)
        if waiting is not None:  # the boss's answer: to the gamble that waits for it
            item.pop("do", None)
            item.update(lay_off=action.lay_off, lot=waiting[0], bet=waiting[1], boss=names[waiting[2]])
        out.append((action, item, listing))
    return out


def _listing(game: Game, action: object) -> dict[str, Any] | None:
    """What ``lv legal`` shows for a decision of the generator that stands for several (``Family.listing``)."""
    return A.FAMILY_OF[type(action)].listing(game.profile, action)


def _listing_text(game: Game, action: object) -> str:
    """A decision of the generator as ``lv legal`` writes it: its listing's text, else its notation."""
    family = A.FAMILY_OF[type(action)]
    listing = family.listing(game.profile, action)
    if listing is not None:
        return family.listing_text(listing)
    return format_action(action, game.player_names)


def _table_draws(game: Game) -> list[dict[str, Any]]:
    """At a table the deck's order is unknown: one draw per card not seen yet (``draw D5``), in board order. A card
    on a closed F block is skipped, so the card turned over after it is named too (``then_card``: ``draw F3 D5``);
    the end card comes last."""
    engine, state, order = game.engine, game.state, game.board.index
    out: list[dict[str, Any]] = []
    for card in sorted(state.deck, key=lambda c: order.get(c, len(order))):
        item: dict[str, Any] = {"notation": f"draw {card}", "kind": "draw", "cost": 0, "cards": [card]}
        if card in order and engine.f_closed(state, card):
            item["then_card"] = True
        out.append(item)
    return out


def groups_of(profile: Profile) -> tuple[str, ...]:
    """The groups of ``lv legal`` under ``profile``: every listed verb of the table (``GROUPS``) but those of a
    family that brings a profile section of its own (a house rule) which the profile does not name."""
    # (the boss's lay-off, a decision outside the action step, only where the profile has it)
    return tuple(verb for f in A.families_of(profile) if f.listed and (not f.generates_waiting or f.active(profile))
                 for verb in f.verbs)


def legal_groups(game: Game) -> dict[str, list[str | dict[str, Any]]]:
    """The legal decisions now, grouped by verb (every group present, possibly empty). Decisions are text in
    the notation, except those that stand for several (``Family.listing``), given as their listing: a gamble's
    ``{"lot", "min", "max", "lay_off"}`` (any bet from min to max). Trades are not listed: any exchange may be
    proposed."""
    out: dict[str, list[str | dict[str, Any]]] = {verb: [] for verb in groups_of(game.profile)}
    for _, item, listing in _legal_items(game):
        out[item["kind"]].append(_group_entry(item, listing))
    return out


def _group_entry(item: dict[str, Any], listing: dict[str, Any] | None) -> str | dict[str, Any]:
    if listing is not None:
        return listing
    if item["kind"] == "reroll":
        return "reroll " + " ".join(f"{lot} N" for lot in item["lots"]) + " (or --dice)"
    return str(item["notation"])


def legal_text(game: Game) -> dict[str, list[str]]:
    """``legal_groups`` as ``lv legal`` writes them: a listing by its family's ``listing_text`` (gambles:
    ``gamble B3 1..15``), each decision followed by its ``cost`` as ``lv legal --json`` gives it: ``build D5 aqua
    $8``, ``gamble B3 1..15 $1-15`` (the bet), ``sell B3 +$6`` (the player is paid); nothing when it is $0."""
    out: dict[str, list[str]] = {verb: [] for verb in groups_of(game.profile)}
    for _, item, listing in _legal_items(game):
        entry = _group_entry(item, listing)
        text = entry if isinstance(entry, str) else _listed_text(item["kind"], entry)
        cost = item["cost"]
        if listing is not None and "min" in listing and "max" in listing and listing["min"] != listing["max"]:
            text += f" ${listing['min']}-{listing['max']}"
        elif cost:
            text += f" ${cost}" if cost > 0 else f" +${-cost}"
        out[item["kind"]].append(text)
    return out


def _listed_text(verb: str, listing: dict[str, Any]) -> str:
    """A listing (``legal_groups``' dict) as text, by its family (``Family.listing_text``)."""
    return A.FAMILY_OF_VERB[verb].listing_text(listing)


def nearest_legal(game: Game, action: str | A.Decision, limit: int = 5) -> list[str]:
    """Up to ``limit`` legal decisions with the same verb as ``action``: the same lot first, then the same
    colour, then the nearest lots (same block, fewest steps). ``action`` may also be text that did not parse:
    its verb, lot and colour words are used as far as they are known."""
    board = game.board
    if isinstance(action, str):
        words = action.lower().split()
        verb = _verb_of(action)
        lot = next((w.upper() for w in words[1:] if w.upper() in board.lots), None)
        color = next((w for w in words[1:] if w in board.colors), None)
    else:
        verb = A.group_of(action) if type(action) in A.FAMILY_OF else None
        lot, color = getattr(action, "lot", None), getattr(action, "color", None)
    if verb is None:
        return []

    def distance(other: str) -> tuple[int, int]:
        if lot is None or lot not in board.lots:
            return (0, 0)
        a, b = board.lots[lot], board.lots[other]
        if a.block != b.block:
            return (1, abs(board.index[a.id] - board.index[b.id]))
        return (0, abs(a.row - b.row) + abs(a.col - b.col))

    # decisions of that verb that name a lot (an end, a draw have none)
    candidates = [a for a in game.legal_actions() if A.group_of(a) == verb and hasattr(a, "lot")]
    candidates.sort(key=lambda a: (a.lot != lot, getattr(a, "color", None) != color, distance(a.lot),
                                   board.index[a.lot]))
    return [_listing_text(game, a) for a in candidates[:limit]]


# ---------------------------------------------------------------------------------------------- helpers


def parse_dice(text: str) -> list[int]:
    """``"3,5"`` or ``"3 5"`` -> [3, 5]; each a die face."""
    words = text.replace(",", " ").split()
    faces = [w if w in ("1", "2", "3", "4", "5", "6") else None for w in words]
    if not words or None in faces:
        raise LvError(f"--dice {one_line(repr(text))}: give die faces 1-6 separated by commas, e.g. --dice 3,5")
    return [int(w) for w in words]


def _trial(game: Game, action: A.Decision, dice: dict[str, Any], choices: dict[str, str] | None) -> list[Event]:
    """Apply ``action`` with ``dice`` to a copy of ``game``: its events (raises IllegalAction if illegal)."""
    twin = game.copy()
    twin.ask = False  # every die the decision rolls is counted here, none waited for
    if isinstance(action, A.EndTurn):
        return twin.apply(action, next_draw_dice=dice, next_draw_choices=choices, draw=not game.explicit_draws)
    return twin.apply(action, dice=dice, choices=choices)


def _dice_steps(action: A.Decision) -> list[tuple[int, A.Decision]]:
    """The steps that roll dice, in order, each with its place in the trade (0 for a decision of its own): a
    gamble, a reorganize."""
    if isinstance(action, A.Trade):
        steps = [s.action if isinstance(s, A.ActAs) else s for s in action.steps]
        return [(k, s) for k, s in enumerate(steps) if _rolls(s)]
    return [(0, action)] if _rolls(action) else []


def _after(game: Game, trade: A.Decision, k: int, dice: dict[str, Any], choices: dict[str, str] | None) -> Game | None:
    """A copy of ``game`` after the first ``k`` steps of ``trade`` (with the dice given so far), or None if one of
    them failed (then the steps after it are not carried out)."""
    assert isinstance(trade, A.Trade)
    twin = game.copy()
    twin.ask = False
    events = twin.apply(A.Trade(trade.steps[:k], trade.by), dice=dice, choices=choices)
    return None if any(e.kind == "trade_step_failed" for e in events) else twin


def _pairs(rolls: dict[str, list[Any]]) -> dict[str, Any]:
    """Rolls of one kind as the record keeps them: one as it is (``gamble: [3, 6]``), several as a list, in order
    (``gamble: [[3, 6], [1, 2]]``; see ``chance.gambles``)."""
    return {key: values[0] if len(values) == 1 else values for key, values in rolls.items()}


def _rolls(action: A.Decision) -> bool:
    family = A.FAMILY_OF.get(type(action))
    return family is not None and family.rolls is not None


def _strip_text(message: str, text: str) -> str:
    """NotationError messages start with the quoted text; the MoveError line quotes it already."""
    prefix = f"'{text}': "
    return message[len(prefix):] if message.startswith(prefix) else message


def _verb_of(text: str) -> str | None:
    word = text.split(" ", 1)[0].lower() if text else ""
    return A.CANONICAL.get(word, word) if word in GROUPS or word in A.CANONICAL else None
