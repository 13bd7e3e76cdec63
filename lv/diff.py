"""One record replayed under two profiles, compared: where the games first part, how money, points and bosses
differ turn by turn, which decisions became illegal (the rule, and what was done instead), which dice had to be
generated, and the results side by side.

It reads the two replays' events and per-turn snapshots (``replay.py``) and never re-derives a rule: a
difference is always something one engine run did and the other did not.

    d = diff_records(load_record("g.yaml"), "revised", "original")
    print("\\n".join(d.lines()));  json.dumps(d.to_dict())
"""

from __future__ import annotations

import hashlib
from itertools import zip_longest
from typing import TYPE_CHECKING, Any

import attrs

from .events import BOOKKEEPING, Event
from .narrative import casino, decided_by, decision_lines, describe, draw_lines, points, tie_break_note
from .notation import format_action
from .record import Record, result_of
from .game import Decision
from .replay import Illegal, Replay, TurnPlay, TurnSnapshot, differences_dict, event_dict, replay, standings
from .state import ending

if TYPE_CHECKING:
    from .game import Game


@attrs.frozen
class Divergence:
    """The first step where the two games differ. ``turn`` is None for the setup."""

    turn: int | None
    step: str  # "setup", "draw", "decision 2 'raise C4'", "end"
    what: str
    a: str  # what happened under A at that step (a narrative line)
    b: str


@attrs.frozen
class BossDiff:
    lots: tuple[str, ...]
    a: str | None  # the boss's name, None for no boss
    b: str | None
    present: str  # "both", "a" (a casino only under A), "b"


@attrs.frozen
class TurnDiff:
    """How one turn ended differently. Values are (A, B); a side whose game has ended has None."""

    turn: int
    player: str
    money: dict[str, tuple[int | None, int | None]]
    points: dict[str, tuple[int | None, int | None]]
    bosses: tuple[BossDiff, ...]
    ended: str | None = None  # "a" or "b": that side's game was over before this turn


@attrs.frozen
class IllegalDiff:
    side: str  # "a" or "b"
    illegal: Illegal
    source: str  # the rulebook citation of the rule under that profile, if the rule is a parameter
    instead: str  # what the other profile did at that step


@attrs.define
class Diff:
    a: Replay
    b: Replay
    a_spec: str
    b_spec: str
    first: Divergence | None
    turns: list[TurnDiff]
    illegal: list[IllegalDiff]

    # ------------------------------------------------------------------ as data
    def to_dict(self) -> dict[str, Any]:
        names = self.a.record.players

        def side(rep: Replay, spec: str) -> dict[str, Any]:
            return {"profile": spec, "recorded": rep.strict, **differences_dict(rep),
                    "stopped": rep.stopped, "unplayed_turns": rep.unplayed_turns,
                    "over": rep.game.over, "last_turn": rep.game.state.turn,
                    "result": result_of(rep.game), "standings": standings(rep.game),
                    "winner_decided_by": _decided_by(rep)}

        return {
            "file": self.a.record.path, "players": list(names), "a": side(self.a, self.a_spec),
            "b": side(self.b, self.b_spec),
            "first_divergence": attrs.asdict(self.first) if self.first else None,
            "turns": [{"turn": t.turn, "player": t.player,
                       "money": {k: list(v) for k, v in t.money.items()},
                       "points": {k: list(v) for k, v in t.points.items()},
                       "bosses": [{"lots": list(b.lots), "a": b.a, "b": b.b, "present": b.present}
                                  for b in t.bosses],
                       "ended": t.ended} for t in self.turns],
            "illegal": [{"side": i.side, "profile": self.a_spec if i.side == "a" else self.b_spec,
                         **attrs.asdict(i.illegal), "source": i.source, "instead": i.instead}
                        for i in self.illegal],
            "same_winner": _winner(self.a) == _winner(self.b),
        }

    # ------------------------------------------------------------------ as text
    def lines(self) -> list[str]:
        A, B = self.a_spec, self.b_spec
        rec = self.a.record
        tag = {True: " (recorded)", False: ""}
        out = [f"{rec.path}: {A}{tag[self.a.strict]} vs {B}{tag[self.b.strict]}, "
               f"{len(rec.players)} players ({', '.join(rec.players)})", ""]
        if self.first is None:
            out.append("The games do not diverge: every draw and decision has the same effect under both.")
        else:
            f = self.first
            where = "setup" if f.turn is None else f"turn {f.turn}, {f.step}"
            out.append(f"First divergence: {where}: {f.what}")
            width = max(len(A), len(B))
            out.append(f"  {A + ':':<{width + 1}} {f.a}")
            out.append(f"  {B + ':':<{width + 1}} {f.b}")
        for rep, spec, key in ((self.a, A, "a"), (self.b, B, "b")):
            bad = [i for i in self.illegal if i.side == key]
            if bad:
                out += ["", f"Decisions illegal under {spec}:"]
                for i in bad:
                    il = i.illegal
                    rule = f"{il.rule}: {i.source}" if i.source else il.rule
                    done = ("skipped: the turn went on without it" if il.handled == "skipped"
                            else "stopped: the replay ends here")
                    out.append(f"  turn {il.turn}, decision {il.index} '{il.decision}': {il.reason} [{rule}]")
                    out.append(f"    {done}" + (f"; under {self.b_spec if key == 'a' else self.a_spec}: {i.instead}"
                                                 if i.instead else ""))
            if rep.card_mismatches:
                out += ["", f"Cards drawn under {spec} that differ from the record:"]
                out += [f"  turn {c.turn}: record {', '.join(c.recorded) or '-'}, drawn {', '.join(c.drawn) or '-'}"
                        for c in rep.card_mismatches]
            if rep.generated:
                out += ["", f"Dice generated under {spec} (the record lacks them):"]
                for g in rep.generated:
                    step = "the draw" if g.index is None else f"decision {g.index} '{g.decision}'"
                    out.append(f"  turn {g.turn}, {step}: {', '.join(g.dice)}")
            if rep.unplayed_turns:
                out += ["", f"Under {spec} the game ended before the record did: {rep.unplayed_turns} recorded "
                            "turns not played."]
        out += ["", f"Turn by turn (only what differs; {A} | {B}):"]
        if not self.turns:
            out.append("  no differences in money, points or bosses at the end of any turn")
        for t in self.turns:
            out.append("  " + _turn_text(t, A, B, self.a, self.b))
        out += [""] + self.result_lines()
        return out

    def result_lines(self) -> list[str]:
        A, B = self.a_spec, self.b_spec
        ra, rb = standings(self.a.game), standings(self.b.game)
        names = self.a.record.players
        by_a = {r["player"]: r for r in ra}
        by_b = {r["player"]: r for r in rb}
        wa, wb = _winner(self.a), _winner(self.b)
        over = wa is not None and wb is not None
        rows = [("", A, B), ("end", _ending(self.a), _ending(self.b))]
        for n in names:
            ca, cb = (f"#{r['rank']} {points(r['points'])} ${r['money']}" for r in (by_a[n], by_b[n]))
            rows.append((n, ca, cb))
        rows.append(("winner", wa or "(not over)", wb or "(not over)") if over
                    else ("leading", ra[0]["player"], rb[0]["player"]))
        w0 = max(len(r[0]) for r in rows)
        w1 = max(len(r[1]) for r in rows)
        out = ["Result"] + [f"  {r[0]:<{w0}}  {r[1]:<{w1}}  {r[2]}".rstrip() for r in rows]
        if over:
            out.append(f"The winner is the same ({wa})." if wa == wb
                       else f"The winner changes: {wa} under {A}, {wb} under {B}.")
        elif wa or wb:
            done, spec = (wa, A) if wa else (wb, B)
            other = self.b if wa else self.a
            out.append(f"Only the game under {spec} is over ({done} wins); " + (
                "the other replay stopped before its end (above)." if other.stopped
                else "the record ends before the other does."))
        for rep, spec in ((self.a, A), (self.b, B)):
            note = _tie_break(rep)
            if note:
                out.append(f"Under {spec}, {note}.")
        return out


def _decided_by(rep: Replay) -> str | None:
    s = rep.game.state
    return decided_by(rep.game.result, [p.score for p in s.players], [p.money for p in s.players])


def _tie_break(rep: Replay) -> str | None:
    s = rep.game.state
    return tie_break_note(rep.game.result, [p.score for p in s.players], [p.money for p in s.players],
                          rep.record.players)


def _winner(rep: Replay) -> str | None:
    r = rep.game.result
    return rep.record.players[r.winner] if r else None


def _ending(rep: Replay) -> str:
    r = rep.game.result
    if r is None:
        why = "stopped" if rep.stopped else "not over"
        return f"{why} after turn {rep.game.state.turn}"
    return f"{ending(r.reason)}, turn {rep.game.state.turn}"


def _turn_text(t: TurnDiff, A: str, B: str, a: Replay, b: Replay) -> str:
    head = f"turn {t.turn} ({t.player}):"
    if t.ended:
        done = a if t.ended == "a" else b  # the replay that has no such turn: over, or stopped before it
        why = "is over" if done.game.result is not None else _ending(done)
        return f"{head} played only under {B if t.ended == 'a' else A} (the other game {why})"
    parts = []
    if t.money:
        parts.append("money " + ", ".join(f"{n} ${a} | ${b}" for n, (a, b) in t.money.items()))
    if t.points:
        parts.append("points " + ", ".join(f"{n} {a} | {b}" for n, (a, b) in t.points.items()))
    if t.bosses:
        def who(x: str | None, here: bool) -> str:
            return "(no such casino)" if not here else (x or "no boss")
        parts.append("bosses " + ", ".join(
            f"{casino(b.lots)} {who(b.a, b.present in ('both', 'a'))} | {who(b.b, b.present in ('both', 'b'))}"
            for b in t.bosses))
    return f"{head} " + "; ".join(parts)


# ---------------------------------------------------------------------------------------------- comparing


def _events(events: list[Event], names: list[str]) -> list[dict[str, Any]]:
    return [event_dict(e, names) for e in events if not isinstance(e, BOOKKEEPING)]


def _first_difference(ea: list[Event], eb: list[Event], names: list[str]) -> tuple[str, str] | None:
    """The first differing event of two lists, as narrative lines (or '(nothing)')."""
    da, db = _events(ea, names), _events(eb, names)
    if da == db:
        return None
    keep_a = [e for e in ea if not isinstance(e, BOOKKEEPING)]
    keep_b = [e for e in eb if not isinstance(e, BOOKKEEPING)]
    for x, y, ex, ey in zip_longest(da, db, keep_a, keep_b):
        if x != y:
            return ((describe(ex, names) or "") if ex is not None else "(nothing)",
                    (describe(ey, names) or "") if ey is not None else "(nothing)")
    return None


def _step_line(step: Decision | Illegal | None, names: list[str]) -> str:
    return "; ".join(line.strip() for line in decision_lines(step, names)) if step is not None else "(not played)"


def first_divergence(a: Replay, b: Replay, a_spec: str, b_spec: str) -> Divergence | None:
    names = a.record.players
    diff = _first_difference(a.game.setup_events, b.game.setup_events, names)
    if diff:
        return Divergence(None, "setup", "the setup differs", *diff)
    for pa, pb in zip_longest(a.turns, b.turns):
        if pa is None or pb is None:
            over, spec = (a, a_spec) if pa is None else (b, b_spec)
            played = pb if pa is None else pa
            r = over.game.result
            why = f"the game is over under {spec} ({ending(r.reason)})" if r else \
                f"the replay under {spec} stopped"
            line = "(not played)"
            other = "; ".join(draw_lines(played.turn.draw_events, names)) or "played"
            return Divergence(played.turn.number, "draw", why, *((line, other) if pa is None else (other, line)))
        number = pa.turn.number
        if pa.turn.cards != pb.turn.cards:
            return Divergence(number, "draw", "different cards are drawn",
                              ", ".join(pa.turn.cards) or "(none)", ", ".join(pb.turn.cards) or "(none)")
        diff = _first_difference(pa.turn.draw_events, pb.turn.draw_events, names)
        if diff:
            return Divergence(number, "draw", "the draw step differs", *diff)
        for k, (sa, sb) in enumerate(zip_longest(pa.steps, pb.steps), start=1):
            one = sa if sa is not None else sb
            assert one is not None  # zip_longest: one side at least
            text = one.decision if isinstance(one, Illegal) else format_action(one.action, names)
            step = f"decision {k} '{text}'"
            if isinstance(sa, Illegal) and isinstance(sb, Illegal):
                continue
            if isinstance(sa, Illegal) or isinstance(sb, Illegal) or sa is None or sb is None:
                bad: Illegal | None = sa if isinstance(sa, Illegal) else sb if isinstance(sb, Illegal) else None
                spec = a_spec if isinstance(sa, Illegal) else b_spec
                what = (f"illegal under {spec}: {bad.reason} [{bad.rule}]" if bad is not None
                        else f"the replay under {a_spec if sa is None else b_spec} stopped before it")
                return Divergence(number, step, what, _step_line(sa, names), _step_line(sb, names))
            diff = _first_difference(sa.events, sb.events, names)
            if diff:
                return Divergence(number, step, "the decision has a different effect", *diff)
    return None


def _bosses(snapshot: TurnSnapshot, names: list[str]) -> dict[tuple[str, ...], str | None]:
    return {lots: (None if b is None else names[b]) for lots, b in snapshot.bosses}


def turn_differences(a: Replay, b: Replay) -> list[TurnDiff]:
    names = a.record.players
    order = {lot: i for i, lot in enumerate(a.game.board.order)}
    out = []
    for sa, sb in zip_longest(a.snapshots, b.snapshots):
        if sa is None or sb is None:
            s = sa or sb
            out.append(TurnDiff(s.turn, names[s.player], {}, {}, (), ended="a" if sa is None else "b"))
            continue
        money = {n: (x, y) for n, x, y in zip(names, sa.money, sb.money) if x != y}
        pts = {n: (x, y) for n, x, y in zip(names, sa.scores, sb.scores) if x != y}
        ba, bb = _bosses(sa, names), _bosses(sb, names)
        bosses = []
        for lots in sorted(set(ba) | set(bb), key=lambda ls: [order[x] for x in ls]):  # a total order
            present = "both" if lots in ba and lots in bb else "a" if lots in ba else "b"
            if present != "both" or ba[lots] != bb[lots]:
                bosses.append(BossDiff(lots, ba.get(lots), bb.get(lots), present))
        if money or pts or bosses:
            out.append(TurnDiff(sa.turn, names[sa.player], money, pts, tuple(bosses)))
    return out


def illegal_decisions(a: Replay, b: Replay) -> list[IllegalDiff]:
    names = a.record.players
    out = []
    for key, rep, other in (("a", a, b), ("b", b, a)):
        for ti, play in enumerate(rep.turns):
            for k, step in enumerate(play.steps):
                if not isinstance(step, Illegal):
                    continue
                there = _step_at(other.turns, ti, k)
                instead = "" if there is None or isinstance(there, Illegal) else _step_line(there, names)
                source = rep.profile.sources.get(step.rule, "")
                out.append(IllegalDiff(key, step, source, instead))
    return out


def _step_at(turns: list[TurnPlay], ti: int, k: int) -> Decision | Illegal | None:
    if ti < len(turns) and k < len(turns[ti].steps):
        return turns[ti].steps[k]
    return None


def compare(a: Replay, b: Replay, a_spec: str | None = None, b_spec: str | None = None) -> Diff:
    a_spec = a_spec or a.profile.label
    b_spec = b_spec or b.profile.label
    return Diff(a=a, b=b, a_spec=a_spec, b_spec=b_spec, first=first_divergence(a, b, a_spec, b_spec),
                turns=turn_differences(a, b), illegal=illegal_decisions(a, b))


def diff_records(record: Record, a: str | None, b: str, *, on_illegal: str = "skip") -> Diff:
    """Replay ``record`` under ``a`` (None: the recorded profile) and ``b`` and compare. Under the recorded
    profile the replay is strict: a broken record is a RecordError, not a difference."""
    ra = replay(record, a, on_illegal=on_illegal)
    rb = replay(record, b, on_illegal=on_illegal)
    return compare(ra, rb, a or record.profile, b)


# ---------------------------------------------------------------------------------------------- played games


def turn_digests(game: Game) -> list[str]:
    """A short digest of each step of a played game: the setup first, then each turn (its draw's events, its
    decisions and their events). Two games of a pair (the same seed under two profiles) differ from the first
    step whose digests differ (``first_difference``); equal lists: the same game. Players are seat numbers
    (the setup's starting rolls, keyed by name, are read in seating order), so games that differ only in the
    players' names or colours have the same digests."""
    setup = [tuple((k, _by_seat(v)) for k, v in e.items()) for e in game.setup_events
             if not isinstance(e, BOOKKEEPING)]
    out = [hashlib.blake2b(repr(setup).encode(), digest_size=8).hexdigest()]
    for turn in game.history:
        step = ([e for e in turn.draw_events if not isinstance(e, BOOKKEEPING)]
                + [(d.action, d.events) for d in turn.decisions])
        out.append(hashlib.blake2b(repr(step).encode(), digest_size=8).hexdigest())
    return out


def _by_seat(value: Any) -> Any:
    """A setup event's value with its dicts keyed by player name (the starting rolls) as lists in seat order."""
    if isinstance(value, dict):
        return [_by_seat(v) for v in value.values()]
    if isinstance(value, list):
        return [_by_seat(v) for v in value]
    return value


def first_difference(a: list[str], b: list[str]) -> int | None:
    """The first step at which two games' ``turn_digests`` differ (0: the setup, t: turn t), None if the games
    are the same."""
    for i, (x, y) in enumerate(zip_longest(a, b)):
        if x != y:
            return i
    return None
