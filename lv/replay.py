"""Replaying a record under a profile: the recorded one (strict: everything must verify) or any other.

Under another profile things legitimately differ: starting money, casinos that no longer join, an F card that
is redrawn, a raise that does not exist, a bet over the cap, a game that ends at another turn. The replay says
each of these: decisions that became illegal (and whether it skipped them or stopped), cards drawn that differ
from the record, dice it had to generate because the record lacked them, record turns left unplayed.
"""

from __future__ import annotations

import attrs

from . import actions as A
from .errors import IllegalAction, LvError, RecordError
from .game import Game
from .profile import Profile, load_profile
from .record import Record, result_of


@attrs.frozen
class Illegal:
    turn: int
    index: int  # 1-based decision number in the turn
    decision: str
    reason: str
    rule: str
    handled: str  # "skipped" or "stopped"


@attrs.frozen
class Generated:
    turn: int
    index: int | None  # None: the draw step
    decision: str
    dice: tuple[str, ...]  # "gamble", "reorg", "ties"


@attrs.frozen
class CardMismatch:
    turn: int
    recorded: tuple[str, ...]
    drawn: tuple[str, ...]


@attrs.frozen
class TurnSnapshot:
    """The state at the end of a turn: what diff compares turn by turn."""

    turn: int
    player: int
    cards: tuple[str, ...]
    money: tuple[int, ...]
    scores: tuple[int, ...]
    bosses: tuple[tuple[tuple[str, ...], int | None], ...]  # (casino lots, boss)


@attrs.define
class Replay:
    record: Record
    profile: Profile
    game: Game
    strict: bool
    illegal: list[Illegal] = attrs.field(factory=list)
    generated: list[Generated] = attrs.field(factory=list)
    card_mismatches: list[CardMismatch] = attrs.field(factory=list)
    snapshots: list[TurnSnapshot] = attrs.field(factory=list)
    unplayed_turns: int = 0  # record turns left when the game had ended
    stopped: bool = False  # stopped at an illegal decision (on_illegal="stop") or at --until
    result_mismatch: list[str] = attrs.field(factory=list)

    @property
    def complete(self) -> bool:
        return self.game.over


def snapshot(game: Game) -> TurnSnapshot:
    s = game.state
    turn = game.history[-1]
    return TurnSnapshot(turn=turn.number, player=turn.player, cards=tuple(turn.cards),
                        money=tuple(p.money for p in s.players), scores=tuple(p.score for p in s.players),
                        bosses=tuple((c.lots, c.boss) for c in game.casinos()))


def start_game(record: Record, profile: Profile) -> Game:
    first = record.turns[0] if record.turns else None
    draw_dice = first.dice if first else None
    draw_choices = first.choices if first else None
    if record.position is not None:
        return Game.from_position(profile, record.players, record.position, record.seed,
                                  draw_dice=draw_dice, draw_choices=draw_choices)
    return Game(profile, record.players, record.seed, deck=record.deck, under_end_card=record.under_end_card,
                first_player=record.first_player, starting_rolls=record.starting_rolls,
                draw_dice=draw_dice, draw_choices=draw_choices)


def replay(record: Record, profile: Profile | str | None = None, *, on_illegal: str = "stop",
           until: int | None = None, strict: bool | None = None) -> Replay:
    """Replay ``record`` under ``profile`` (default: the recorded one). ``strict`` (default: the profile is the
    recorded one) turns every difference into a RecordError naming the file, line and turn."""
    if on_illegal not in ("stop", "skip"):
        raise LvError(f"on_illegal must be 'stop' or 'skip', not {on_illegal!r}")
    if profile is None:
        profile = record.profile
    if isinstance(profile, str):
        profile = load_profile(profile)
    if strict is None:
        strict = profile.spec.strip() == record.profile.strip() or profile.name == record.profile.strip()
    try:
        game = start_game(record, profile)
    except RecordError as err:
        raise RecordError(f"{record.path}: {err}") from None
    out = Replay(record=record, profile=profile, game=game, strict=strict)
    names = record.players
    for ti, trec in enumerate(record.turns):
        if ti > 0:
            if game.over:
                out.unplayed_turns = len(record.turns) - ti
                if strict:
                    raise RecordError(f"{record.where(trec.line)}: turn {ti + 1}: the game already ended "
                                      f"({game.result.reason}) but the record goes on")
                break
            game.apply(A.EndTurn(), next_draw_dice=trec.dice, next_draw_choices=trec.choices)
        turn = game.current_turn
        if names[turn.player] != trec.player:
            message = f"turn {turn.number}: it is {names[turn.player]}'s turn, the record says {trec.player}"
            if strict:
                raise RecordError(f"{record.where(trec.line)}: {message}")
        if trec.cards is not None and list(trec.cards) != list(turn.cards) and record.position is None:
            out.card_mismatches.append(CardMismatch(turn.number, tuple(trec.cards), tuple(turn.cards)))
            if strict:
                raise RecordError(f"{record.where(trec.line)}: turn {turn.number}: the record says "
                                  f"{', '.join(trec.cards)} was drawn, the deck gives {', '.join(turn.cards)}")
        if turn.draw_generated:
            out.generated.append(Generated(turn.number, None, "draw", tuple(turn.draw_generated)))
        if until is not None and turn.number >= until:
            out.snapshots.append(snapshot(game))
            out.stopped = ti + 1 < len(record.turns) or bool(trec.decisions)
            if turn.number == until:
                _play_decisions(out, trec, strict, on_illegal)
                out.snapshots[-1] = snapshot(game)
            return out
        if _play_decisions(out, trec, strict, on_illegal):
            out.snapshots.append(snapshot(game))
            out.stopped = True
            return out
        out.snapshots.append(snapshot(game))
    if strict and record.result is not None:
        expected = record.result
        actual = result_of(game)
        if actual is None:
            out.result_mismatch.append(f"the record has a result but the game has not ended after turn "
                                       f"{game.state.turn}")
        else:
            for key in ("reason", "winner", "scores", "money"):
                if key in expected and expected[key] != actual[key]:
                    out.result_mismatch.append(f"result {key}: the record says {expected[key]}, "
                                               f"the replay gives {actual[key]}")
    return out


def _play_decisions(out: Replay, trec, strict: bool, on_illegal: str) -> bool:
    """Apply one turn's decisions; True if the replay stopped at an illegal one."""
    game = out.game
    record = out.record
    for di, drec in enumerate(trec.decisions):
        turn = game.current_turn.number
        if game.over:
            if strict:
                raise RecordError(f"{record.where(drec.line)}: turn {turn}: '{drec.text}' comes after the game ended")
            out.illegal.append(Illegal(turn, di + 1, drec.text, "the game has ended", "end", "skipped"))
            continue
        try:
            game.apply(drec.action, dice=drec.dice, choices=drec.choices)
        except IllegalAction as err:
            if strict:
                raise RecordError(f"{record.where(drec.line)}: turn {turn}: '{drec.text}' is illegal: {err}") from None
            out.illegal.append(Illegal(turn, di + 1, drec.text, err.reason, err.rule,
                                       "stopped" if on_illegal == "stop" else "skipped"))
            if on_illegal == "stop":
                return True
            continue
        except RecordError as err:
            raise RecordError(f"{record.where(drec.line)}: turn {turn}: '{drec.text}': {err}") from None
        d = game.current_turn.decisions[-1]
        if d.generated:
            out.generated.append(Generated(turn, di + 1, drec.text, tuple(d.generated)))
    return False
