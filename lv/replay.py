"""Replaying a record under a profile: the recorded one (strict: everything must verify) or any other.

Under another profile things legitimately differ: starting money, casinos that no longer join, an F card that
is redrawn, a raise that does not exist, a bet over the cap, a game that ends at another turn. The replay says
each of these: decisions that became illegal (and whether it skipped them or stopped), cards drawn that differ
from the record, dice it had to generate because the record lacked them, record turns left unplayed.

Compiled with the core (pyproject.toml's list): the loop over a record's turns and decisions calls ``Game.apply``
natively. What it returns (``Replay``, ``TurnPlay``, ``Illegal`` ...) and the replay as plain data are in
lv/replaydata.py (attrs classes, interpreted), re-exported here.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any, Callable, Sequence

from .actions.draw import Draw
from .actions.end import EndTurn
from .board import END_CARD
from .casinos import boss
from .chance import unused_dice
from .errors import IllegalAction, LvError, ProfileError, RecordError
from .game import Game
from .profile import Profile, from_stored, load_profile
from .record import Record, TurnRecord, load_record, result_of
from .replaydata import CardMismatch as CardMismatch, Check as Check, Generated as Generated, Illegal as Illegal
from .replaydata import PLAYER_FIELDS as PLAYER_FIELDS, Replay as Replay, TurnPlay as TurnPlay
from .replaydata import TurnSnapshot as TurnSnapshot, decision_dict as decision_dict
from .replaydata import differences_dict as differences_dict, event_dict as event_dict
from .replaydata import replay_dict as replay_dict, standings as standings
from .yamlsource import line_of


def snapshot(game: Game) -> TurnSnapshot:
    s = game.state
    turn = game.history[-1]
    players = s.players
    # the casinos' lots and bosses straight from the engine: ``game.casinos()`` would make a whole view of each
    # (points, dice, the Strip) that a snapshot does not keep
    # by position: no keywords for attrs' interpreted __init__ to take (a dict of them a snapshot)
    return TurnSnapshot(turn.number, turn.player, turn._drawn(), tuple([p.money for p in players]),
                        tuple([p.score for p in players]),
                        tuple([(c.lots, boss(s, c)) for c in game.engine.casinos(s)]))


def record_profile(record: Record) -> Profile:
    """The profile the record names, or the one it stores (then no profile file is read: the spec it was made
    with is only its label); a spec that does not exist is an error of the file, at its line. A .yaml file in the
    spec is read in the record's folder, never outside it (``profile.confined``)."""
    try:
        if record.stored_profile is not None:
            return from_stored(record.stored_profile, record.profile)
        if ".yaml" not in record.profile.lower() and ".yml" not in record.profile.lower():
            return _named_profile(record.profile)
        return load_profile(record.profile, folder=Path(record.path).parent)
    except ProfileError as err:
        raise RecordError(str(err), **_at(record, "profile")) from None


@functools.lru_cache(maxsize=32)
def _named_profile(spec: str) -> Profile:
    """``load_profile(spec)`` of a spec that names no file (shipped profiles and overlays, overrides): it reads
    only the shipped profiles, so the same spec is the same profile wherever the record is (and a Profile is
    frozen): made once, not for every record replayed."""
    return load_profile(spec)


def same_rules(record: Record, profile: Profile) -> bool:
    """Is ``profile`` the recorded one? Compared by parameters, so 'revised+f-block' is 'revised' but
    'revised,gamble.lay_off=boss_option' is not."""
    if record.stored_profile is None and profile.spec.strip() == record.profile.strip():
        return True
    return record_profile(record).values() == profile.values()


def explicit_draw(record: Record, trec: TurnRecord) -> bool:
    """Is this turn's draw a decision of its own (``draw D5`` among its decisions, or a record whose draws all
    are), rather than made by ending the previous turn?"""
    if record.table or record.draws == "explicit":
        return True
    for d in trec.decisions:
        if isinstance(d.action, Draw):
            return True
    return False


def start_game(record: Record, profile: Profile) -> Game:
    first = record.turns[0] if record.turns else None
    draw_first = not (explicit_draw(record, first) if first else record.table or record.draws == "explicit")
    draw_dice = first.dice if first else None
    draw_choices = first.choices if first else None
    try:
        if record.position is not None:
            return Game.from_position(profile, record.players, record.position, record.seed,
                                      draw_dice=draw_dice, draw_choices=draw_choices, table=record.table,
                                      draw_first=draw_first)
        return Game(profile, record.players, record.seed, deck=record.deck, under_end_card=record.under_end_card,
                    first_player=record.first_player, starting_rolls=record.starting_rolls,
                    draw_dice=draw_dice, draw_choices=draw_choices, table=record.table, deal=record.deal,
                    draw_first=draw_first)
    except RecordError as err:
        raise RecordError(str(err), key=err.key, **_at(record, *(err.key or ("players",)))) from None


def _at(record: Record, *key: str | int) -> dict[str, Any]:
    """The file and line of a key path in the record (or of its nearest parent), as RecordError's keywords."""
    return {"path": record.path, "line": line_of(record.lines, key)}


def replay(record: Record, profile: Profile | str | None = None, *, on_illegal: str = "stop",
           until: int | None = None, strict: bool | None = None,
           on_turn: Callable[[Game, TurnPlay], None] | None = None,
           on_step: Callable[[Game, TurnPlay], None] | None = None) -> Replay:
    """Replay ``record`` under ``profile`` (default: the recorded one) up to the end of turn ``until``.
    ``strict`` (default: the profile has the recorded rules) turns every difference into a RecordError naming
    the file, line and turn; otherwise differences are collected (``illegal``, ``card_mismatches``, ...).
    ``on_turn(game, play)`` is called at the end of every turn, with the game as it stands then;
    ``on_step(game, play)`` after each turn's draw and after each of its decisions, applied or illegal
    (``len(play.steps)`` says which: 0 the draw): the viewer draws a board per decision from it."""
    if on_illegal not in ("stop", "skip"):
        raise LvError(f"on_illegal must be 'stop' or 'skip', not {on_illegal!r}")
    if profile is None:
        profile = record_profile(record)
    elif isinstance(profile, str):
        profile = load_profile(profile)
    if strict is None:
        strict = same_rules(record, profile)
    game = start_game(record, profile)
    if strict and record.turns:
        _check_draw_dice(record, 0, game)
    game.ask = strict  # a table's record gives its tie rerolls as decisions; other rules generate what they need
    out = Replay(record=record, profile=profile, game=game, strict=strict, until=until)
    names = record.players
    for ti, trec in enumerate(record.turns):
        if ti > 0:
            if until is not None and game.current_turn.number >= until:
                out.stopped = True
                break
            if game.over:
                out.unplayed_turns = len(record.turns) - ti
                if strict:
                    raise RecordError(f"the game already ended ({_reason(game)}) but the record goes on",
                                      path=record.path, line=trec.line, turn=game.state.turn + 1, rule="end")
                break
            if _end_turn(out, record.turns[ti - 1], trec):
                return out
            if strict:
                _check_draw_dice(record, ti, game)
        turn = game.current_turn
        play = TurnPlay(turn, trec.line)  # (by position: no keywords for attrs' __init__ to take)
        out.turns.append(play)
        if names[turn.player] != trec.player:
            if strict:
                raise RecordError(f"it is {names[turn.player]}'s turn, the record says {trec.player}",
                                  turn=turn.number, **_at(record, "turns", ti, "player"))
        cards = trec.cards
        if cards is not None and tuple(cards) != turn._drawn():  # (the turn's cards read without making its list)
            out.card_mismatches.append(CardMismatch(turn.number, tuple(cards), turn._drawn()))
            if strict:
                raise RecordError(f"the record says {_cards(cards)} drawn, the deck gives "
                                  f"{', '.join(turn.cards) or 'none'}", turn=turn.number,
                                  **_at(record, "turns", ti, "cards"))
        if turn._draw_generated:  # (read without making the empty list most turns do not keep)
            out.generated.append(Generated(turn.number, None, "draw", tuple(turn._draw_generated)))
        if on_step is not None:
            on_step(game, play)
        stop = _play_decisions(out, play, trec, strict, on_illegal, on_step)
        out.snapshots.append(snapshot(game))
        if on_turn is not None:
            on_turn(game, play)
        if stop:
            out.stopped = True
            return out
    else:
        last = record.turns[-1] if record.turns else None
        if last is not None and last.end is not None and not (until is not None and game.current_turn.number >= until):
            if _trailing_end(out, last, on_turn):
                return out
    if not record.turns:  # a record of the setup only: the first player's draw has happened, unless explicit
        out.turns.append(TurnPlay(turn=game.current_turn, line=None))
        out.snapshots.append(snapshot(game))
        if on_step is not None:
            on_step(game, out.turns[-1])
        if on_turn is not None:
            on_turn(game, out.turns[-1])
    if strict and record.result is not None and not out.stopped:
        out.result_mismatch = result_differences(record, game)
    return out


def _end_turn(out: Replay, ended: TurnRecord, following: TurnRecord | None) -> bool:
    """End the turn of ``ended``: implied by the ``following`` record turn (whose draw it makes, with that turn's
    dice and choices), or written as the last turn's trailing ``end``. An end the rules refuse (a turn that ends
    before its draw) is an illegal decision like any other: a RecordError naming its rule under the recorded
    profile, else ``Illegal`` and the replay stops there, with the game up to that point. True if it stopped."""
    game, record = out.game, out.record
    end = ended.end
    line = end.line if end is not None else following.line if following is not None else None
    turn = game.current_turn.number
    draw = not explicit_draw(record, following) if following is not None else not (
        record.table or record.draws == "explicit")
    try:
        # none recorded: None, not the record's empty dicts (the same game; ``Game.apply``'s plain path)
        game.apply(EndTurn(), next_draw_dice=following.dice or None if following is not None else None,
                   next_draw_choices=following.choices or None if following is not None else None, draw=draw)
    except IllegalAction as err:
        if out.strict:
            raise RecordError(f"'end' is illegal under '{out.profile.label}': {err}", path=record.path, line=line,
                              turn=turn, rule=err.rule) from None
        bad = Illegal(turn, len(ended.decisions) + 1, "end", err.reason, err.rule, "stopped")
        out.illegal.append(bad)
        out.turns[-1].steps.append(bad)
        out.stopped = True
        return True
    except RecordError as err:  # the draw's recorded dice or choices do not fit
        raise RecordError(f"the draw: {err}", path=record.path, line=following.line if following else line,
                          turn=game.state.turn) from None
    return False


def _trailing_end(out: Replay, last: TurnRecord, on_turn: Callable[[Game, TurnPlay], None] | None) -> bool:
    """The record's last turn ends with ``end``: end it, so the next player draws (or, with explicit draws, is to
    draw), and show that turn's start. True if the replay stopped there."""
    game, end = out.game, last.end
    assert end is not None
    if game.over:
        if out.strict:
            raise RecordError(f"'end' comes after the game ended ({_reason(game)})", path=out.record.path,
                              line=end.line, turn=game.current_turn.number, rule="end")
        bad = Illegal(game.current_turn.number, len(last.decisions) + 1, "end", "the game has ended", "end",
                      "skipped")
        out.illegal.append(bad)
        out.turns[-1].steps.append(bad)
        return False
    if _end_turn(out, last, None):
        return True
    play = TurnPlay(turn=game.current_turn, line=end.line)
    out.turns.append(play)
    generated = game.current_turn._draw_generated  # (read without making the empty list most turns do not keep)
    if generated:
        out.generated.append(Generated(play.turn.number, None, "draw", tuple(generated)))
    out.snapshots.append(snapshot(game))
    if on_turn is not None:
        on_turn(game, play)
    return False


def _check_draw_dice(record: Record, ti: int, game: Game) -> None:
    """Under the recorded rules, dice recorded for a draw step that it did not roll are an error."""
    recorded = record.turns[ti].dice
    used = game.current_turn.draw_dice
    extra = unused_dice(recorded, used) if recorded and recorded != used else None  # the same: none unused
    if extra:
        raise RecordError(f"the draw does not roll the recorded dice {', '.join(extra)}", turn=game.state.turn,
                          **_at(record, "turns", ti, "dice"))


def _reason(game: Game) -> str:
    """How the game ended (it has)."""
    return game.result.reason if game.result is not None else "not over"


def _cards(cards: Sequence[str]) -> str:
    return ", ".join(cards) + (" was" if len(cards) == 1 else " were") if cards else "nothing was"


def result_differences(record: Record, game: Game) -> list[str]:
    """The recorded result against the replayed one, one line per differing key, with its line in the file."""
    expected = record.result or {}
    actual = result_of(game)
    if actual is None:
        return [f"{record.at('result')}: the record has a result but the game has not ended after turn "
                f"{game.state.turn}"]
    out = []
    for key in ("reason", "winner", "scores", "money"):
        if key == "reason" and {(expected or {}).get(key), actual[key]} == {"end_card", "instant_win"} \
                and END_CARD in game.state.drawn \
                and max(p.score for p in game.state.players) >= game.profile.end.instant_win_points:
            continue  # the end card's payout reached the target: either label tells the same end (docs/rules.md)
        if key in expected and expected[key] != actual[key]:
            out.append(f"{record.at('result', key)}: result {key}: the record says {_plain(expected[key])}, "
                       f"the replay gives {_plain(actual[key])}")
    return out


def _plain(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items())
    return str(value)


def _play_decisions(out: Replay, play: TurnPlay, trec: TurnRecord, strict: bool, on_illegal: str,
                    on_step: Callable[[Game, TurnPlay], None] | None = None) -> bool:
    """Apply one turn's decisions, telling ``on_step`` after each; True if the replay stopped at an illegal one."""
    game = out.game
    record = out.record
    for di, drec in enumerate(trec.decisions):
        turn = game.current_turn.number
        if game.over:
            if strict:
                raise RecordError(f"'{drec.text}' comes after the game ended ({_reason(game)})",
                                  path=record.path, line=drec.line, turn=turn, rule="end")
            bad = Illegal(turn, di + 1, drec.text, "the game has ended", "end", "skipped")
            out.illegal.append(bad)
            play.steps.append(bad)
            if on_step is not None:
                on_step(game, play)
            continue
        # each field read once: a DecisionRecord is a native class (lv/recordturns.py), read by a lookup each time
        recorded, dice = drec.action, drec.dice
        action = recorded
        if isinstance(action, Draw) and not strict and not game.table:
            # under other rules other cards may come: draw what comes, and say so below; who draws stays checked
            action = Draw(player=action.player)
        try:
            # none recorded: None, not the record's empty dicts (the same game; ``Game.apply``'s plain path)
            game.apply(action, dice=dice or None, choices=drec.choices or None)
            if action is not recorded and recorded.cards and \
                    list(game.current_turn.cards) != list(recorded.cards):
                out.card_mismatches.append(CardMismatch(turn, tuple(recorded.cards),
                                                        tuple(game.current_turn.cards)))
        except IllegalAction as err:
            if strict:
                raise RecordError(f"'{drec.text}' is illegal under '{out.profile.label}': {err}",
                                  path=record.path, line=drec.line, turn=turn, rule=err.rule) from None
            bad = Illegal(turn, di + 1, drec.text, err.reason, err.rule,
                          "stopped" if on_illegal == "stop" else "skipped")
            out.illegal.append(bad)
            play.steps.append(bad)
            if on_step is not None:
                on_step(game, play)
            if on_illegal == "stop":
                return True
            continue
        except RecordError as err:
            raise RecordError(f"'{drec.text}': {err}", path=record.path, line=drec.line, turn=turn) from None
        d = game.current_turn.decisions[-1]
        # dice that are just the ones used (a record lv wrote) leave none unused: no need to look for them
        extra = unused_dice(dice, d.dice) if strict and dice and dice != d.dice else None
        if extra:
            raise RecordError(f"'{drec.text}' does not roll the recorded dice {', '.join(extra)}",
                              path=record.path, line=drec.line, turn=turn)
        play.steps.append(d)
        if d._gen or d._generated:  # (read without making a list the decision would then keep)
            out.generated.append(Generated(turn, di + 1, drec.text, d._noted()))
        if on_step is not None:
            on_step(game, play)
    return False


def check_file(path: str) -> Check:
    """Load and replay ``path`` strictly under its recorded profile; a broken file or a result that does not
    verify is a failed check (never an exception): whatever goes wrong with one record, the others are checked."""
    try:
        rec = load_record(path)
        rep = replay(rec)
    except LvError as err:
        return Check(path, False, str(err))
    except OSError as err:  # e.g. a profile name too long for a file name: name the record, not the path tried
        return Check(path, False, f"{path}: {err.strerror or type(err).__name__}")
    except Exception as err:  # an engine bug must not stop the run: a FAIL line naming the record
        what = str(err).splitlines()[0][:200] if str(err) else ""
        return Check(path, False, f"{path}: internal error: {type(err).__name__}: {what} (please report it)")
    turns = len(rep.turns)
    if rep.verified is False:
        return Check(path, False, "; ".join(rep.result_mismatch), turns, False)
    what = ("result verified" if rep.verified else
            "game not over, no result to check" if not rep.game.over else "no result recorded")
    kind = "position, " if rec.position is not None else ""
    return Check(path, True, f"{kind}{turns} turn{'' if turns == 1 else 's'}, {what}", turns, rep.verified)
