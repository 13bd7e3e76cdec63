"""What a replay returns (lv/replay.py): its value classes and the replay as plain data.

attrs classes, kept apart from the replay's loop: replay.py is compiled (pyproject.toml's list), and mypyc makes an
attrs class in a compiled module a Python class whose ``attrs.field`` defaults it cannot type; here, interpreted,
they stay the attrs classes they were (``lv.replay`` re-exports every name, so ``lv.replay.Replay`` is this one).
"""

from __future__ import annotations

from typing import Any

import attrs

from .events import BossChanged, DieTakenOver, Event, TurnStarted
from .game import Decision, Game, Turn
from .notation import format_action
from .profile import Profile
from .record import FORMAT, Record, result_of


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
class TurnPlay:
    """One record turn as played: the game's turn (cards, draw events, applied decisions) and, in record order,
    what became of each recorded decision: the applied ``Decision`` or an ``Illegal``."""

    turn: Turn
    line: int | None
    steps: list[Decision | Illegal] = attrs.field(factory=list)


@attrs.define
class Replay:
    """What ``replay()`` returns: the game as replayed, what differed from the record under another profile
    (``illegal``, ``card_mismatches``, ``generated``), a snapshot per turn and the result check
    (``verified``)."""

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
    turns: list[TurnPlay] = attrs.field(factory=list)
    until: int | None = None

    @property
    def complete(self) -> bool:
        """Did the replayed game end?"""
        return self.game.over

    @property
    def verified(self) -> bool | None:
        """True: the recorded result checked out; False: it did not; None: nothing to check (another profile,
        no result in the record, or a replay stopped early)."""
        if not self.strict or self.record.result is None or self.stopped:
            return None
        return not self.result_mismatch

    def to_dict(self) -> dict[str, Any]:
        """Everything the replay saw, as plain data with player names: the same bytes on every run."""
        return replay_dict(self)


PLAYER_FIELDS = ("player", "giver", "receiver", "boss", "winner")


def event_dict(ev: Event, names: list[str]) -> dict[str, Any]:
    """An event as plain data with player names instead of seat numbers."""
    out: dict[str, Any] = {"kind": ev.kind}
    seat_previous = isinstance(ev, (BossChanged, DieTakenOver))
    for key, value in ev.items():
        if key in PLAYER_FIELDS or (key == "previous" and seat_previous):
            value = None if value is None else names[value]
        elif key == "ranking":
            value = [names[i] for i in value]
        elif key in ("scores", "money") and isinstance(value, list):
            value = dict(zip(names, value))
        out[key] = value
    return out


def decision_dict(step: Decision | Illegal, names: list[str]) -> dict[str, Any]:
    if isinstance(step, Illegal):
        return {"decision": step.decision, "illegal": {"reason": step.reason, "rule": step.rule,
                                                       "handled": step.handled}}
    out: dict[str, Any] = {"decision": format_action(step.action, names)}
    if step.dice:
        out["dice"] = step.dice
    if step.choices:
        out["choices"] = step.choices
    if step.generated:
        out["generated"] = list(step.generated)
    out["events"] = [event_dict(e, names) for e in step.events]
    return out


def standings(game: Game) -> list[dict[str, Any]]:
    """Rank, player, points, money: the final result's ranking when the game is over, else points then money."""
    s = game.state
    order = game.result.ranking if game.result else game.engine.ranking(s)
    return [{"rank": i + 1, "player": s.players[p].name, "points": s.players[p].score, "money": s.players[p].money}
            for i, p in enumerate(order)]


def replay_dict(rep: Replay) -> dict[str, Any]:
    rec, game = rep.record, rep.game
    names = rec.players
    header = {"file": rec.path, "format": FORMAT, "profile": rec.profile,
              "replayed_under": rep.profile.label, "recorded_profile": rep.strict,
              "players": list(names), "seed": rec.seed}
    if rec.stored_profile is not None:
        header["stored_profile"] = rec.stored_profile
    if rec.tags:
        header["tags"] = dict(rec.tags)
    if rec.position is not None:
        header["position"] = True
    turns = []
    for play, snap in zip(rep.turns, rep.snapshots):
        t = play.turn
        turns.append({"turn": t.number, "player": names[t.player], "cards": list(t.cards),
                      "events": [event_dict(e, names) for e in t.draw_events if not isinstance(e, TurnStarted)],
                      "decisions": [decision_dict(step, names) for step in play.steps],
                      "after": {"money": dict(zip(names, snap.money)), "points": dict(zip(names, snap.scores))}})
    out = {"header": header,
           "setup": [event_dict(e, names) for e in game.setup_events],
           "turns": turns,
           "standings": standings(game),
           "over": game.over,
           "result": result_of(game),
           "recorded_result": rec.result,
           "verified": rep.verified,
           "result_mismatch": list(rep.result_mismatch),
           "stopped": rep.stopped,
           "unplayed_turns": rep.unplayed_turns,
           **differences_dict(rep)}
    return out


def differences_dict(rep: Replay) -> dict[str, Any]:
    """What the replay found that the record did not say: illegal decisions, generated dice, other cards."""
    return {"illegal": [attrs.asdict(i) for i in rep.illegal],
            "generated": [{**attrs.asdict(g), "dice": list(g.dice)} for g in rep.generated],
            "card_mismatches": [{"turn": c.turn, "recorded": list(c.recorded), "drawn": list(c.drawn)}
                                for c in rep.card_mismatches]}


@attrs.frozen
class Check:
    """The verdict on one record file under its own profile."""

    file: str
    ok: bool
    message: str  # why it failed, or what was checked
    turns: int = 0
    verified: bool | None = None

    @property
    def broken(self) -> bool:
        """The file could not be read or replayed (bad input: exit 2, as ``lv replay`` gives), as against a
        record that replays but whose recorded result does not verify (a failed check: exit 1)."""
        return not self.ok and self.verified is not False
