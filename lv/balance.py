"""The balance of rule sets (``lv balance``), measured in the restricted-play manner (Jaffe et al. 2012).

For each profile and player count N, with ``bot`` the strong player (``--bot``) and ``weak`` the weak one
(``--weak``), and G games per line-up (``--games``):

- **Seat advantage.** G games with every seat played by ``bot`` (game i has the seed of ``lv simulate``'s game i):
  each seat's win rate in turn order (seat 1 took the first turn), against 1/N.
- **Skill against luck.** One ``bot`` against N-1 ``weak`` players, and one ``weak`` against N-1 ``bot`` players,
  each in every seat of every deal (the ladder's deals and seat rotations, ``lv.ladder``): their win rates
  against 1/N. A game of skill gives the first near 1 and the second near 0; a game of dice gives both 1/N.
- **The importance of each kind of decision.** ``bot`` forbidden one kind (``bot/no-KIND``, ``bots.Restricted``)
  against N-1 unrestricted ``bot`` players, in every seat of every deal: its win rate against 1/N. The drop
  (1/N minus the rate) is what that kind of decision is worth to that player under that profile. A kind the
  profile does not have is *cannot apply* and a kind ``bot`` never takes (``bots.never_takes``) is *not
  exercised*: neither is played (forbidding what is never done changes no game).
- **Decisiveness and drama**, from the seat games: the winner's margin over the runner-up (points), lead changes
  per game, how often the winner was behind at the half (not the points leader after half the turns), and the
  share of the game played before the winner took the lead for good (``metrics`` decisiveness).
- **Length**: turns and decisions (turn ends not counted) per game.

Intervals are 95%: t intervals over games for the seat games, over deals for the rotated line-ups (a deal's N
games share its cards and dice, so the deal is the unit); a win rate of 0 or 1 in every game (or deal) has the exact binomial interval instead of
a t interval of width 0. The win rates against 1/N carry a p-value (t) and
Holm's correction over each section's rows (``stats.holm``); each section says the smallest effect it could
detect with 80% power (``stats.mde``).
"""

from __future__ import annotations

import html
import math
from typing import Any, Callable, Iterator, Sequence

from . import actions as A
from . import bots as B
from . import ladder
from .collector import fewer_collections
from .errors import LvError
from .events import Scored
from .game import Game, new_game
from .metrics import estimate, summarize
from .profile import Profile
from .simulate import DEFAULT_BATCH, MAX_GAMES, _profile, game_seed, resolved, run_batches
from .stats import clopper_pearson, holm, mde, t_p_value

DECISION_KINDS = ("build", "sprawl", "remodel", "reorganize", "raise", "gamble")
"""The kinds of decision whose importance is measured by default: the actions of a turn (trades are not made by
the built-in bots: ``bots.never_takes``). A house rule's action is measured when named with ``--kind``."""


# ---------------------------------------------------------------------------------------------- planning


def kinds_of(profile: Profile) -> list[str]:
    """The kinds of decision a player may take under ``profile`` (its families that apply and are active)."""
    return [f.name for f in A.families_of(profile) if f.applies and f.active(profile)]


def check(profiles: Sequence[str], counts: Sequence[int], bot: str, weak: str, games: int,
          kinds: Sequence[str] | None) -> list[Profile]:
    """Refuse a run that cannot be played, in one line, before any game; the profiles."""
    if not profiles:
        raise LvError("give at least one profile: lv balance PROFILE [PROFILE...], a profile spec or a .yaml file")
    if len(set(profiles)) != len(profiles):
        raise LvError(f"each profile once ({', '.join(profiles)})")
    if not counts or len(set(counts)) != len(counts):
        raise LvError(f"--players {','.join(map(str, counts))}: give one player count or several, each once")
    if not 1 <= games <= MAX_GAMES:
        raise LvError(f"--games {games}: give 1 to {MAX_GAMES}")
    for spec in (bot, weak):
        B.bot_named(spec)
    known = set(B.restrictable_kinds())
    for k in kinds or ():
        if k not in known:
            raise LvError(f"--kind {k}: the kinds of decision are {', '.join(sorted(known))}")
    out = []
    for spec in profiles:
        profile = _profile(spec)
        for n in counts:
            if not profile.players.min <= n <= profile.players.max:
                raise LvError(f"--players {n}: profile '{spec}' allows {profile.players.min} to "
                              f"{profile.players.max}")
        out.append(profile)
    ladder.model()  # the ladder's extra is not needed for its ratings here, but its line-ups are the ladder's
    return out


def verdicts(profile: Profile, bot: str, kinds: Sequence[str] | None) -> list[dict[str, Any]]:
    """Each kind of decision to measure under ``profile``, with what is known before playing: ``play`` (True:
    measure it), else the verdict and its reason."""
    have = set(kinds_of(profile))
    never = B.never_takes(bot)
    out = []
    for k in kinds or DECISION_KINDS:
        if k not in have:
            out.append({"kind": k, "play": False, "verdict": "cannot apply",
                        "reason": f"the profile has no {k} decision"})
        elif k in never:
            out.append({"kind": k, "play": False, "verdict": "not exercised",
                        "reason": f"{bot} never takes a {k} decision"})
        else:
            out.append({"kind": k, "play": True, "verdict": None, "reason": None})
    return out


def lineups(players: int, bot: str, weak: str, kinds: list[str]) -> dict[str, list[str]]:
    """The rotated line-ups of one section, by name: the bot of interest first, then the N-1 others."""
    out = {"skill": [bot] + [weak] * (players - 1), "luck": [weak] + [bot] * (players - 1)}
    for k in kinds:
        out[f"no-{k}"] = [f"{bot}/no-{k}"] + [bot] * (players - 1)
    return out


def cost(profiles: Sequence[str], counts: Sequence[int], bot: str, games: int, kinds: Sequence[str] | None
         ) -> dict[str, Any]:
    """The games the run plays, before any is played."""
    total = 0
    for spec in profiles:
        profile = _profile(spec)
        playing = [v["kind"] for v in verdicts(profile, bot, kinds) if v["play"]]
        for n in counts:
            total += games + (2 + len(playing)) * ladder.deals_for(games, n) * n
    return {"games": total, "note": f"{total:,} games: {len(profiles)} profile(s) x {len(counts)} player "
                                    f"count(s); seat games plus rotated line-ups (skill, luck, one per kind)"}


# ---------------------------------------------------------------------------------------------- playing


def behind_at_half(game: Game) -> bool | None:
    """Whether the winner was not the one points leader after half the game's turns (None: no winner, or a game of
    fewer than 2 turns). Read from the Scored events, as ``metrics.summarize`` reads them."""
    result = game.state.result
    history = game.history
    if result is None or result.winner is None or len(history) < 2:
        return None
    half = len(history) // 2
    scores = [0] * len(game.state.players)
    seen = [False] * len(scores)
    final = [p.score for p in game.state.players]
    # the scores after turn ``half``: each player's last Scored.after up to it, else its first Scored.before after
    for t in history[:half]:
        for e in _scored(t):
            scores[e.player], seen[e.player] = e.after, True
    for t in history[half:]:
        for e in _scored(t):
            if not seen[e.player]:
                scores[e.player], seen[e.player] = e.before, True
    for i in range(len(scores)):
        if not seen[i]:
            scores[i] = final[i]
    top = max(scores)
    leaders = [i for i, s in enumerate(scores) if s == top]
    return not (len(leaders) == 1 and leaders[0] == result.winner)


def _scored(turn: Any) -> Iterator[Scored]:
    for e in turn.draw_events:
        if isinstance(e, Scored):
            yield e
    for d in turn.decisions:
        for e in d.events:
            if isinstance(e, Scored):
                yield e


def seat_tasks(profile: Profile, label: str, players: int, bot: str, games: int, seed: int, size: int
               ) -> Iterator[dict[str, Any]]:
    """The seat games as tasks of ``size`` games (plain dicts, for ``simulate.run_batches``)."""
    resolved = {"name": profile.name, "title": profile.title, "values": profile.values(), "label": label}
    for start in range(0, games, size):
        yield {"profile": resolved, "players": players, "bot": bot, "seed": seed,
               "games": list(range(start, min(games, start + size)))}


def play_seat_batch(task: dict[str, Any]) -> list[dict[str, Any]]:
    """Play a task of ``seat_tasks``: each game's figures (module-level, so a pool or Dask worker imports it)."""
    profile = resolved(task["profile"])
    out = []
    with fewer_collections():
        for i in task["games"]:
            seed = game_seed(task["seed"], i)
            game = new_game(profile, task["players"], seed, quiet=True)
            B.play(game, [B.bot_named(task["bot"]) for _ in range(task["players"])], seed)
            row = summarize(game)
            scores = sorted(row["scores"], reverse=True)
            out.append({"winner_seat": row["winner_seat"], "margin": scores[0] - scores[1] if len(scores) > 1
                        else None, "lead_changes": row["lead_changes"], "behind_at_half": behind_at_half(game),
                        "decisiveness": row["decisiveness"], "turns": row["turns"], "decisions": row["decisions"]})
    return out


def run(profiles: Sequence[str], counts: Sequence[int], bot: str = "greedy", weak: str = "random",
        games: int = 200, seed: int = 0, kinds: Sequence[str] | None = None, workers: int = 1, client: Any = None,
        progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Play every section (profile x player count) and report it (``report``)."""
    loaded = check(profiles, counts, bot, weak, games, kinds)
    sections = []
    for spec, profile in zip(profiles, loaded):
        known = verdicts(profile, bot, kinds)
        playing = [v["kind"] for v in known if v["play"]]
        for n in counts:
            size = max(1, min(DEFAULT_BATCH, games // (max(1, workers) * 4)))
            seat_games: list[dict[str, Any]] = []
            for rows in run_batches(seat_tasks(profile, spec, n, bot, games, seed, size), workers, client,
                                    play_seat_batch):
                seat_games.extend(rows)
                if progress:
                    progress(len(rows))
            rotated: dict[str, list[dict[str, Any]]] = {}
            for name, specs in lineups(n, bot, weak, playing).items():
                rotated[name] = ladder.play(specs, spec, n, games, seed, workers, client, progress)
            sections.append(section(spec, n, bot, weak, seat_games, rotated, known))
    return {"profiles": list(profiles), "players": list(counts), "bot": bot, "weak": weak, "games": games,
            "seed": seed, "sections": sections}


# ---------------------------------------------------------------------------------------------- the report


def _row(name: str, meaning: str, values: Sequence[float | None], against: float | None = None,
         share: bool = False) -> dict[str, Any]:
    """One figure: its mean and 95% t interval; against a reference (1/N), the difference's p-value and MDE."""
    e = estimate(values, share=share).to_dict()
    seen = [v for v in values if v is not None]
    if share and seen and e["low"] == e["high"]:
        # every game (or deal) the same: all won, all lost, or every deal's rotated games split alike (each a
        # quarter won): a t interval of width 0; the exact binomial one over them says how far from certain so few
        # are, a deal's share counting as that part of a success (as lv ladder's)
        e["low"], e["high"] = clopper_pearson(math.fsum(seen), len(seen))
    row: dict[str, Any] = {"metric": name, "meaning": meaning, **e, "against": against, "p": None, "mde": None,
                           "holm": False}
    if against is not None:
        d = estimate([None if v is None else v - against for v in values])
        # no test where the differences do not vary (a handful of deals all won, or all lost): a t interval of
        # width 0 says nothing of the rate
        row["p"] = None if d.low == d.high else t_p_value(d.mean, d.low, d.high, d.n)
        row["mde"] = None if row["p"] is None else mde(d.low, d.high, d.n)
    return row


def _holm(rows: list[dict[str, Any]]) -> None:
    for row, kept in zip(rows, holm([r["p"] for r in rows])):
        row["holm"] = kept


def _won_by_first(g: dict[str, Any]) -> float:
    """1 if the bot of interest (index 0 of the line-up) won the game."""
    return float(g["seats"][g["winner"]] == 0)


def section(profile: str, players: int, bot: str, weak: str, seat_games: list[dict[str, Any]],
            rotated: dict[str, list[dict[str, Any]]], known: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures of one profile at one player count."""
    chance = 1.0 / players
    seats = [_row(f"seat {s}", f"win rate of seat {s} in turn order ({bot} in every seat)",
                  [None if g["winner_seat"] is None else float(g["winner_seat"] == s) for g in seat_games],
                  chance, share=True) for s in range(1, players + 1)]
    _holm(seats)

    def rate(name: str) -> list[float | None]:
        return ladder._per_deal(rotated[name], _won_by_first)

    skill = [_row("skill", f"win rate of one {bot} against {players - 1} {weak}", rate("skill"), chance, True),
             _row("luck", f"win rate of one {weak} against {players - 1} {bot}", rate("luck"), chance, True)]
    _holm(skill)
    kinds = []
    for v in known:
        if v["play"]:
            row = _row(f"no-{v['kind']}", f"win rate of {bot} forbidden to {v['kind']} against {players - 1} "
                                           f"unrestricted", rate(f"no-{v['kind']}"), chance, True)
            row["importance"] = None if row["mean"] is None else chance - row["mean"]
            row.update(kind=v["kind"], verdict=None, reason=None)
        else:
            row = {"metric": f"no-{v['kind']}", "kind": v["kind"], "verdict": v["verdict"], "reason": v["reason"],
                   "mean": None, "low": None, "high": None, "n": 0, "p": None, "mde": None, "holm": False,
                   "importance": None}
        kinds.append(row)
    _holm([r for r in kinds if r["verdict"] is None])

    def of(key: str) -> list[float | None]:
        return [None if g[key] is None else float(g[key]) for g in seat_games]

    drama = [_row("winner_margin", "the winner's points over the runner-up's", of("margin")),
             _row("lead_changes", "changes of the points leader per game", of("lead_changes")),
             _row("behind_at_half", "share of games the winner was behind at the half", of("behind_at_half"),
                  share=True),
             _row("decisiveness", "share of the turns before the winner took the lead for good", of("decisiveness"),
                  share=True)]
    length = [_row("turns", "turns per game", of("turns")),
              _row("decisions", "decisions per game (turn ends not counted)", of("decisions"))]
    return {"profile": profile, "players": players, "chance": chance, "games": len(seat_games),
            "deals": len({g["deal"] for g in next(iter(rotated.values()), [])}),
            "seats": seats, "skill": skill, "kinds": kinds, "drama": drama, "length": length}


GROUPS = (("seats", "Seat advantage"), ("skill", "Skill against luck"),
          ("kinds", "Importance of each kind of decision"), ("drama", "Decisiveness and drama"),
          ("length", "Length"))


def _num(x: float | None, pct: bool) -> str:
    if x is None:
        return "-"
    return f"{100 * x:.1f}%" if pct else f"{x:.2f}"


def cell(row: dict[str, Any], pct: bool) -> str:
    """A figure as text: ``41.2% [36.0, 46.4]*`` (``*``: it differs from 1/N after Holm's correction), or the
    verdict of a kind that was not played."""
    if row.get("verdict"):
        return str(row["verdict"])
    if row["mean"] is None:
        return "-"
    text = _num(row["mean"], pct)
    if row["low"] is not None and row["high"] is not None:
        low, high = (100 * row["low"], 100 * row["high"]) if pct else (row["low"], row["high"])
        text += f" [{low:.1f}, {high:.1f}]"
    return text + ("*" if row.get("holm") else "")


def _pct(group: str, metric: str) -> bool:
    return group in ("seats", "skill", "kinds") or metric in ("behind_at_half", "decisiveness")


def tables(result: dict[str, Any]) -> list[tuple[str, list[str], list[list[str]]]]:
    """One table per group of figures: a row per figure, a column per profile and player count."""
    sections = result["sections"]
    header = ["figure"] + [f"{s['profile']} {s['players']}p" for s in sections]
    out = []
    for group, title in GROUPS:
        names: list[str] = []
        for s in sections:
            for r in s[group]:
                if r["metric"] not in names:
                    names.append(r["metric"])
        rows = []
        for name in names:
            row = [name]
            for s in sections:
                found = next((r for r in s[group] if r["metric"] == name), None)
                row.append("-" if found is None else cell(found, _pct(group, name)))
            rows.append(row)
        out.append((title, header, rows))
    return out


def notes(result: dict[str, Any]) -> list[str]:
    """What the tables do not say by themselves: the verdicts' reasons, the power, the line-ups."""
    out = [f"{result['bot']} is the strong player, {result['weak']} the weak one; {result['games']} games per "
           f"line-up; intervals 95%; * differs from 1/N after Holm's correction within its table."]
    for s in result["sections"]:
        where = f"{s['profile']} at {s['players']} players"
        for r in s["kinds"]:
            if r["verdict"]:
                out.append(f"{where}: {r['kind']} {r['verdict']}: {r['reason']}.")
        powers = [r["mde"] for r in s["kinds"] + s["skill"] if r.get("mde") is not None]
        if powers:
            out.append(f"{where}: the smallest difference from 1/N these games detect with 80% power is about "
                       f"{100 * max(powers):.1f} points of win rate.")
    return out


def csv_rows(result: dict[str, Any]) -> list[list[Any]]:
    """Every figure as a CSV row."""
    out: list[list[Any]] = [["profile", "players", "group", "figure", "mean", "low", "high", "n", "p", "holm",
                             "mde", "verdict", "reason"]]
    for s in result["sections"]:
        for group, _title in GROUPS:
            for r in s[group]:
                out.append([s["profile"], s["players"], group, r["metric"], r["mean"], r["low"], r["high"], r["n"],
                            r.get("p"), r.get("holm"), r.get("mde"), r.get("verdict"), r.get("reason")])
    return out


def _bars_svg(rows: list[dict[str, Any]], chance: float, title: str) -> str:
    """A dot-and-whisker plot of win rates (0 to 100%) with the line of chance (1/N), as inline SVG."""
    width, left, line = 520, 150, 22
    height = 30 + line * len(rows)

    def x(v: float) -> float:
        return left + (width - left - 20) * max(0.0, min(1.0, v))

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
             f'aria-label="{html.escape(title)}">',
             f'<line x1="{x(chance):.1f}" y1="10" x2="{x(chance):.1f}" y2="{height - 10}" stroke="#888" '
             f'stroke-dasharray="4 3"/>']
    for i, r in enumerate(rows):
        y = 24 + line * i
        parts.append(f'<text x="{left - 8}" y="{y + 4}" text-anchor="end" font-size="12">'
                     f'{html.escape(r["metric"])}</text>')
        if r.get("verdict") or r["mean"] is None:
            parts.append(f'<text x="{left}" y="{y + 4}" font-size="12" fill="#666">'
                         f'{html.escape(str(r.get("verdict") or "-"))}</text>')
            continue
        if r["low"] is not None and r["high"] is not None:
            parts.append(f'<line x1="{x(r["low"]):.1f}" y1="{y}" x2="{x(r["high"]):.1f}" y2="{y}" stroke="#246" '
                         f'stroke-width="2"/>')
        parts.append(f'<circle cx="{x(r["mean"]):.1f}" cy="{y}" r="4" fill="{"#b22" if r.get("holm") else "#246"}"/>')
    parts.append("</svg>")
    return "".join(parts)


def html_page(result: dict[str, Any]) -> str:
    """The report as one self-contained HTML page: the tables, the notes, and a plot per section and group."""
    esc = html.escape
    parts = ["<!doctype html><html><head><meta charset='utf-8'><title>lv balance</title><style>"
             "body{font-family:sans-serif;margin:2em;max-width:1100px}table{border-collapse:collapse;margin:1em 0}"
             "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}td:first-child{text-align:left}"
             "</style></head><body>",
             f"<h1>Balance of {esc(', '.join(result['profiles']))}</h1>",
             "<ul>" + "".join(f"<li>{esc(n)}</li>" for n in notes(result)) + "</ul>"]
    for title, header, rows in tables(result):
        parts.append(f"<h2>{esc(title)}</h2><table><tr>" + "".join(f"<th>{esc(h)}</th>" for h in header) + "</tr>")
        for row in rows:
            parts.append("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>")
        parts.append("</table>")
    parts.append("<h2>Plots</h2>")
    for s in result["sections"]:
        parts.append(f"<h3>{esc(s['profile'])}, {s['players']} players</h3>")
        for group in ("seats", "skill", "kinds"):
            parts.append(_bars_svg(s[group], s["chance"], f"{group}, {s['profile']} {s['players']}p"))
    parts.append("</body></html>")
    return "\n".join(parts)


def check_kinds_text(text: str | None) -> list[str] | None:
    """``--kind build,raise``: the kinds, or None for the default."""
    if not text:
        return None
    return [k.strip() for k in text.split(",") if k.strip()]

