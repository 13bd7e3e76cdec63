"""Events as readable lines: what turns what happened into text, with player names and $/points.

Replay, diff, ``lv show`` and ``lv move`` all print through here; none of them looks at the rules. Input is
events (``events.py``), the game's turns (``game.Turn``) and, for a replay, the illegal decisions it skipped.
This module words the core's events (the draw step, payouts, scores, ties, merges, bosses, the end); an action's
own events are worded by its family (``Family.effect``, ``Family.told`` in ``lv/actions/``), which it asks.

    Turn 12 - red draws D8 (gold)
      red puts a marker on D8
      lots pay: red $2, blue $1
      gold pays: green $6 (D1+D4), blue $2 (D1+D4)
      green scores 3 for D1+D4 (8 -> 10, 1 lost at a break)
      build A2 gold: -$6, die 2
      gamble B3 4 at blue's casino: rolled 1+2=3, wins $4
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Sequence, cast

from . import actions as A
from .actions import DRAW_CHOICES, FAMILIES, Draw, EndTurn, casino_text, dice_text
from .board import END_CARD, STRIP
from .events import (BOOKKEEPING, BossChanged, CardDrawn, CardSkipped, Dealt, DieMoved, DieTakenOver,
                     EndCardPlaced, Event, FirstPlayer, GameEnded, MarkerMoved, MarkerPlaced, Merged, Paid, Scored,
                     TieRerolled, TurnEnded, TurnStarted)
from .notation import format_action
from .state import ending

if TYPE_CHECKING:
    from .game import Decision, Game, Turn
    from .replay import Illegal, Replay, TurnSnapshot
    from .state import Result

INDENT = "  "
# the wording of the actions' events, from the families that make them (Family.effect, Family.told): the effect
# of a main event by its kind, and the sentences
_EFFECTS = {f.main_event: f.effect for f in FAMILIES if f.main_event}
_TOLD = tuple(f.told for f in FAMILIES)


def decided_by(result: Result | None, scores: list[int], money: list[int]) -> str | None:
    """What decided the winner of a finished game: "points"; "money" when another player had as many points
    (the rulebooks' tie-break: "money is a tiebreaker"); "seat" when points and money were tied too (the
    rulebooks are silent: the earlier seat); None for an instant win, which is not a ranking."""
    if result is None or result.reason == "instant_win":
        return None
    w = result.winner
    level = [i for i in range(len(scores)) if i != w and scores[i] == scores[w]]
    if not level:
        return "points"
    return "seat" if any(money[i] == money[w] for i in level) else "money"


def tie_break_note(result: Result | None, scores: list[int], money: list[int], names: list[str]) -> str | None:
    """"blue wins on money: tied with red on 45 points, $31 to $12" when the tie-break decided, else None."""
    how = decided_by(result, scores, money)
    if result is None or how not in ("money", "seat"):
        return None
    w = result.winner
    level = [i for i in range(len(scores)) if i != w and scores[i] == scores[w]]
    others = ", ".join(names[i] for i in level)
    if how == "money":
        cash = " to ".join(f"${money[i]}" for i in [w] + level)
        return f"{names[w]} wins on money: tied with {others} on {scores[w]} points, {cash}"
    return f"{names[w]} wins on seat order: tied with {others} on {scores[w]} points and ${money[w]}"


casino = casino_text  # a casino by its lots: ``C4+C5+C8``


def _name(names: list[str], seat: int | None) -> str:
    return "nobody" if seat is None else names[seat]


def paying(pays: str) -> str:
    """What a card pays, for a heading: a colour, or the Strip."""
    return "the Strip" if pays == STRIP else pays


def card_label(card: str, pays: str) -> str:
    return "the end card" if card == END_CARD else f"{card} ({paying(pays)})"


# ---------------------------------------------------------------------------------------------- one event


def effect(ev: Event, names: list[str]) -> str:
    """The effect of an action's main event, to follow its notation: ``build A2 gold: -$6, die 2``. The action's
    family words it (``Family.effect``)."""
    family_effect = _EFFECTS.get(ev.kind)
    if family_effect is not None:
        return family_effect(ev, names)
    return describe(ev, names) or ev.kind


def describe(ev: Event, names: list[str]) -> str | None:
    """One event as a sentence, or None for the bookkeeping ones (a turn started or ended)."""
    if isinstance(ev, BOOKKEEPING):
        return None
    if isinstance(ev, Dealt):
        return f"{_name(names, ev.player)} is dealt {', '.join(ev.lots)}: ${ev.money}"
    if isinstance(ev, CardSkipped):
        why = "it is on the closed F block" if ev.why == "f_block.closed_when" else ev.why
        return f"{_name(names, ev.player)}'s card {ev.card} is set aside ({why}) and another dealt"
    if isinstance(ev, EndCardPlaced):
        if ev.under is None:
            return "the end card goes into the deck at the table, unseen"
        return f"the end card goes in with {ev.under} cards under it"
    if isinstance(ev, FirstPlayer):
        if not ev.rolls:
            return f"{_name(names, ev.player)} starts"
        rounds = "; then ".join(", ".join(f"{who} {r[0]}+{r[1]}" for who, r in rnd.items()) for rnd in ev.rolls)
        return f"starting roll: {rounds}: {_name(names, ev.player)} starts"
    if isinstance(ev, CardDrawn):
        if ev.f_block:
            return (f"{ev.card} is on the closed F block: no marker, but lots and {paying(ev.pays)} "
                    "still pay; another card is drawn")
        return f"{_name(names, ev.player)} draws {card_label(ev.card, ev.pays)}"
    if isinstance(ev, MarkerPlaced):
        return f"{_name(names, ev.player)} puts a marker on {ev.lot}"
    if isinstance(ev, DieTakenOver):
        was = f"was {names[ev.previous]}'s" if ev.previous is not None else "a tile with no die"
        return f"{_name(names, ev.player)} takes over {ev.lot}: die {ev.value} ({was})"
    if isinstance(ev, Paid):
        where = "lots" if ev.why == "lots" else casino(ev.lots)
        return f"{_name(names, ev.player)} is paid ${ev.amount} ({where})"
    if isinstance(ev, Scored):
        return f"{_name(names, ev.player)} scores {ev.award} for {casino(ev.lots)} ({_track(ev)})"
    if isinstance(ev, TieRerolled):
        return f"tie for the top die: rerolled {dice_text(ev.values)} (free)"
    if isinstance(ev, Merged):
        high = f", {ev.height} high" if ev.height > 1 else ""
        return f"casinos merge: {casino(ev.lots)} ({ev.color}{high})"
    if isinstance(ev, BossChanged):
        was = f" (was {names[ev.previous]})" if ev.previous is not None else ""
        if ev.boss is None:
            return f"{casino(ev.lots)} has no boss now{was}"
        return f"{_name(names, ev.boss)} is now the boss of {casino(ev.lots)}{was}"
    if isinstance(ev, MarkerMoved):
        return f"{_name(names, ev.player)} is out of markers: the one on {ev.lot} moves (the lot is no longer theirs)"
    if isinstance(ev, DieMoved):
        return f"{_name(names, ev.player)} is out of dice: the one on {ev.lot} moves (that tile now has no die)"
    if isinstance(ev, GameEnded):
        too = ", the instant-win target reached too" if ev.instant_win else ""  # the end card's payout reached it
        return f"the game ends ({ending(ev.reason)}{too}): {_name(names, ev.winner)} wins"
    for told in _TOLD:  # an action's own event: its family tells it
        text = told(ev, names)
        if text is not None:
            return text
    return f"{ev.kind} {dict(ev.items())}"


def points(n: int) -> str:
    return f"{n} pt" if n == 1 else f"{n} pts"


def _track(ev: Scored) -> str:
    lost = ev.before + ev.award - ev.after
    return f"{ev.before} -> {ev.after}" + (f", {lost} lost at a break" if lost else "")


# ---------------------------------------------------------------------------------------------- a turn


def draw_lines(events: Iterable[Event], names: list[str]) -> list[str]:
    """The draw step of a turn: take-over, lot income, casino payouts and scores. Payouts of one kind are
    gathered on one line."""
    out: list[str] = []
    pays = ""
    cards = 0
    events = [e for e in events if not isinstance(e, TurnStarted)]
    i = 0
    while i < len(events):
        ev = events[i]
        if isinstance(ev, CardDrawn):
            pays = ev.pays
            cards += 1
            if ev.f_block and (text := describe(ev, names)):
                out.append(text)
            elif cards > 1:
                out.append(f"then {card_label(ev.card, ev.pays)}")
            i += 1
            continue
        if isinstance(ev, Paid):
            why = ev.why
            group: list[Paid] = []
            while i < len(events) and isinstance(nxt := events[i], Paid) and nxt.why == why:
                group.append(nxt)
                i += 1
            if why == "lots":
                out.append("lots pay: " + ", ".join(f"{names[e.player]} ${e.amount}" for e in group))
            else:
                out.append(f"{paying(pays)} pays: " + ", ".join(
                    f"{names[e.player]} ${e.amount} ({casino(e.lots)})" for e in group))
            continue
        text = describe(ev, names)
        if text:
            out.append(text)
        i += 1
    return out


def decision_lines(step: Decision | Illegal, names: list[str]) -> list[str]:
    """A decision in notation with its effect; its consequences (ties, merges, bosses) on lines below.
    ``step`` is a ``game.Decision`` or, in a replay, an ``Illegal`` (it has ``handled``)."""
    if hasattr(step, "handled"):  # (replay.py, which defines Illegal, is not loaded to tell lv show's turns)
        bad = cast("Illegal", step)
        what = "skipped" if bad.handled == "skipped" else "the replay stops here"
        return [f"{bad.decision}: ILLEGAL: {bad.reason} [{bad.rule}]; {what}"]
    text = format_action(step.action, names)
    if isinstance(step.action, (Draw, *DRAW_CHOICES)):  # the draw as a decision of its own: told like a draw step
        return [text] + [INDENT + line for line in draw_lines(step.events, names)]
    events = [e for e in step.events if not isinstance(e, TurnEnded)]
    generated = f" (dice generated: {', '.join(step.generated)})" if step.generated else ""
    # the action's main event follows its notation, worded by its family (a trade has none: its steps' events
    # come below it)
    family = A.FAMILY_OF.get(type(step.action))
    kind = family.main_event if family is not None else None
    main = next((e for e in events if e.kind == kind), None) if kind in _EFFECTS else None
    if main is not None and family is not None:
        rest = [e for e in events if e is not main]
        out = [f"{text}{family.effect_sep}{effect(main, names)}{generated}"]  # gamble B3 4 at blue's casino: ...
    else:
        rest = events
        out = [text + generated]
    out.extend(INDENT + line for line in (describe(e, names) for e in rest) if line)
    return out


def turn_header(turn: Turn, names: list[str]) -> str:
    who = names[turn.player]
    if any(isinstance(d.action, Draw) for d in turn.decisions):
        return f"Turn {turn.number} - {who}"
    if not turn.cards and turn.draw_events:  # the turn has started, its card not drawn yet
        return f"Turn {turn.number} - {who} (to draw)"
    if not turn.cards:
        return f"Turn {turn.number} - {who} (no draw: the position starts in the action step)"
    labels = []
    for e in turn.draw_events:
        if isinstance(e, CardDrawn):
            labels.append(card_label(e.card, e.pays))
    return f"Turn {turn.number} - {who} draws {', '.join(labels)}"


def turn_lines(turn: Turn, names: list[str], steps: Sequence[Decision | Illegal] | None = None,
               status: list[tuple[str, int, int]] | None = None) -> list[str]:
    """One block per turn: the header, the draw, each decision. ``steps`` defaults to the turn's decisions;
    ``status`` (a list of (name, points, money)) adds a closing line with everyone's points and money."""
    out = [turn_header(turn, names)]
    out.extend(INDENT + line for line in draw_lines(turn.draw_events, names))
    for step in (turn.decisions if steps is None else steps):
        if not hasattr(step, "handled") and isinstance(step.action, EndTurn):
            continue
        out.extend(INDENT + line for line in decision_lines(step, names))
    if status:
        out.append(INDENT + "= " + " | ".join(f"{n} {points(pts)} ${money}" for n, pts, money in status))
    return out


def setup_lines(events: Iterable[Event], names: list[str]) -> list[str]:
    return ["Setup"] + [INDENT + line for line in (describe(e, names) for e in events) if line]


def standings_lines(rows: list[dict[str, Any]], title: str = "Final standings") -> list[str]:
    """rows: dicts with rank, player, points, money (``replay.standings``)."""
    width = max([len("player")] + [len(r["player"]) for r in rows])
    out = [title, f"{INDENT}rank  {'player':<{width}}  points  money"]
    for r in rows:
        out.append(f"{INDENT}{r['rank']:>4}  {r['player']:<{width}}  {r['points']:>6}  ${r['money']}")
    return out


def narrate(game: Game, turns: Sequence[tuple[Turn, Sequence[Decision | Illegal] | None]] | None = None,
            snapshots: Sequence[TurnSnapshot] | None = None) -> list[str]:
    """The whole game as text: setup, then one block per turn. ``turns`` are (Turn, steps) pairs, default the
    game's history; ``snapshots`` (replay.TurnSnapshot per turn) add each turn's closing status line."""
    names = game.player_names
    out = setup_lines(game.setup_events, names) if game.setup_events else []
    pairs = turns if turns is not None else [(t, None) for t in game.history]
    for i, (turn, steps) in enumerate(pairs):
        status = None
        if snapshots is not None and i < len(snapshots):
            snap = snapshots[i]
            status = list(zip(names, snap.scores, snap.money))
        if out:
            out.append("")
        out.extend(turn_lines(turn, names, steps, status))
    return out


# ---------------------------------------------------------------------------------------------- a replay


def replay_lines(rep: Replay) -> list[str]:
    """What ``lv replay`` prints: the header, every turn, the standings, what differed under another profile,
    and the result check. ``rep`` is a ``replay.Replay``."""
    from .replay import standings  # replay imports nothing from here; show/move need not load it

    rec, game = rep.record, rep.game
    names = rec.players
    spec = rep.profile.label
    head = f"{rec.path}: {rec.profile}, {len(names)} players ({', '.join(names)}), seed {rec.seed}"
    if rec.position is not None:
        head += ", from a position"
    out = [head]
    if rec.stored_profile is not None:
        changed = ", ".join(f"{k} {v}" for k, v in rec.stored_profile.get("values", {}).items()) or "no changes"
        base = rec.stored_profile.get("base")
        out.append(f"profile stored in the record: {base + ' with ' if base else ''}{changed}")
    out += [f"{key}: {value}" for key, value in rec.tags.items()]
    if not rep.strict:
        out.append(f"replayed under {spec} (recorded under {rec.profile})")
    if rec.comment:
        out += ["", *rec.comment.rstrip().splitlines()]
    out.append("")
    out += narrate(game, [(p.turn, p.steps) for p in rep.turns], rep.snapshots)
    out.append("")
    if game.over:
        title = "Final standings"
    else:
        why = f"stopped after turn {game.state.turn}" if rep.stopped else f"after turn {game.state.turn}, not over"
        title = f"Standings ({why})"
    out += standings_lines(standings(game), title)
    if not rep.strict:
        out += ["", f"Under {spec}:"]
        handled = {"skipped": "skipped", "stopped": "the replay stopped there"}
        out += [f"  turn {i.turn}, decision {i.index} '{i.decision}' is illegal: {i.reason} [{i.rule}]; "
                f"{handled[i.handled]}" for i in rep.illegal] or ["  every recorded decision is legal"]
        out += [f"  turn {c.turn}: the record has {', '.join(c.recorded) or 'no card'}, the deck gives "
                f"{', '.join(c.drawn) or 'no card'}" for c in rep.card_mismatches]
        for g in rep.generated:
            step = "the draw" if g.index is None else f"decision {g.index} '{g.decision}'"
            out.append(f"  turn {g.turn}, {step}: {', '.join(g.dice)} dice generated (the record has none)")
        if rep.unplayed_turns:
            out.append(f"  the game ended before the record did: {rep.unplayed_turns} recorded turns not played")
    out += [""] + result_check_lines(rep)
    return out


def result_check_lines(rep: Replay) -> list[str]:
    rec, game = rep.record, rep.game
    if game.result is not None:
        r = game.result
        ended = (f"The game ended on turn {game.state.turn} ({ending(r.reason)}): "
                 f"{rec.players[r.winner]} wins.")
    else:
        ended = "The game is not over."
    if rep.verified is True:
        return [ended, "Result verified: it matches the record."]
    if rep.verified is False:
        return [ended, "Result MISMATCH:"] + [INDENT + m for m in rep.result_mismatch]
    if not rep.strict:
        return [ended, f"(the recorded result is checked only under the recorded profile, {rec.profile})"]
    if rep.stopped:
        return [ended, "(stopped early: the recorded result is not checked)"]
    return [ended, "(the record has no result to check)"]
