"""Plots of a simulation (``lv simulate --plot DIR``), as PNG and SVG, drawn with matplotlib (the ``plot`` extra)
on its Agg canvas, without pyplot's global state.

- ``distributions``: per profile, the share of games at each game length, winner's score and score spread (a
  metric the same in every game is said in words: there is no distribution to draw);
- ``win-rates``: the win rate of each seat in turn order, with its 95% interval, per profile;
- ``differences-A-vs-B``: a forest plot of the paired differences of a profile against the first, with their
  95% intervals: amounts as a percentage of the first profile's mean, rates in percentage points, each row
  labelled in its axis's unit;
- ``sweep-KEY`` (a sweep): each metric against the values of a swept parameter, with 95% intervals.

The figures read the report (``simulate.report``) and the per-metric distributions the run kept
(``metrics.Aggregate``), so every metric of the report is drawn, whatever metrics there are.
"""

from __future__ import annotations

import io
import itertools
import math
from pathlib import Path
from typing import Any

from .errors import LvError
from .files import make_folder, write_atomic
from .metrics import SHARES, Aggregate
from .simulate import slug

FORMATS = ("png", "svg")
LINES = ("-", "--", ":", "-.")


def check_available(folder: str | None = None) -> None:
    """Refuse ``--plot`` at once (one line) when matplotlib is missing, or ``folder`` cannot be made (its parent
    missing): before any game is played. The folder is made then."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise LvError("--plot needs matplotlib: pip install 'lv[plot]'") from None
    if folder is not None:
        try:
            make_folder(folder)
        except LvError as exc:
            raise LvError(f"--plot {exc}") from None


def draw(result: dict[str, Any], agg: Aggregate, folder: str) -> list[str]:
    """Draw every plot of a run into ``folder`` (made if missing); the files written."""
    check_available()
    out = make_folder(folder)
    files: list[str] = []
    files += _save(_distributions(result, agg), out / "distributions")
    files += _save(_win_rates(result), out / "win-rates")
    base = result["profiles"][0]
    for name in result["differences"]:
        other = name[: -len(f" - {base}")]
        files += _save(_forest(result, name), out / f"differences-{slug(other)}-vs-{slug(base)}")
    for key in result.get("sweep", {}).get("keys", []):
        files += _save(_sweep(result, key), out / f"sweep-{slug(key)}")
    return files


def _figure(width: float, height: float, constrained: bool = True) -> Any:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=100, layout="constrained" if constrained else None)
    FigureCanvasAgg(fig)
    return fig


def _save(fig: Any, stem: Path) -> list[str]:
    files = []
    for fmt in FORMATS:
        path = stem.parent / f"{stem.name}.{fmt}"  # not with_suffix: a stem may hold dots
        picture = io.BytesIO()
        fig.savefig(picture, format=fmt)
        write_atomic(path, picture.getvalue(), follow=False)  # never through a link planted in the folder
        files.append(str(path))
    return files


def _colours(n: int) -> list[Any]:
    from matplotlib import colormaps

    cmap = colormaps["tab10" if n <= 10 else "viridis"]
    return [cmap(i if n <= 10 else i / max(1, n - 1)) for i in range(n)]


def _subtitle(result: dict[str, Any]) -> str:
    return (f"{result['games']} paired games per profile, {result['players']} players, seed {result['seed']}, "
            f"bots {','.join(result['bots'])}")


def _legend(fig: Any, axes: Any, count: int, outside: bool = True) -> None:
    handles, labels = axes.get_legend_handles_labels()
    if handles:
        fig.legend(handles, labels, loc="outside lower center" if outside else "lower center", ncols=min(count, 3),
                   fontsize="small", frameon=False)


# ---------------------------------------------------------------------------------------------- the figures

DISTRIBUTIONS = (("turns", "game length (turns)"), ("winner_score", "winner's score (points)"),
                 ("score_spread", "score spread (most - fewest points)"))


def constant_values(agg: Aggregate, profiles: list[str], metric: str) -> dict[str, float] | None:
    """Each profile's one value of ``metric`` when it is the same in every game of every profile that has it
    (game length in turns, fixed by the end card's depth under the shipped profiles), else None."""
    values = {}
    for p in profiles:
        dist = agg.tallies[p][metric].distribution()
        if dist is None or len(dist) > 1:  # None: too many values to keep, so not one
            return None
        if dist:
            values[p] = next(iter(dist))
    return values or None


def _said_constant(ax: Any, title: str, values: dict[str, float]) -> None:
    """A panel that says a metric is the same in every game, instead of a distribution of one point."""
    ax.set_axis_off()
    ax.set_title(title)
    same = len(set(values.values())) == 1
    lines = ["the same in every game:"]
    lines += ([f"{_number(next(iter(values.values())))} under every profile"] if same
              else [f"{p}: {_number(v)}" for p, v in values.items()])
    ax.text(0.5, 0.5, "\n".join(lines), ha="center", va="center", transform=ax.transAxes, fontsize="large")


def _number(value: float) -> str:
    return f"{value:g}"


def _distributions(result: dict[str, Any], agg: Aggregate) -> Any:
    profiles = result["profiles"]
    fig = _figure(13, 4.2 + 0.25 * math.ceil(len(profiles) / 3))
    axes = fig.subplots(1, len(DISTRIBUTIONS))
    colours = _colours(len(profiles))
    legend = None
    for ax, (metric, title) in zip(axes, DISTRIBUTIONS):
        constant = constant_values(agg, profiles, metric)
        if constant is not None:
            _said_constant(ax, title, constant)
            continue
        legend = legend if legend is not None else ax
        for k, (p, colour) in enumerate(zip(profiles, colours)):
            dist = agg.tallies[p][metric].distribution()
            if not dist:
                continue
            n = sum(dist.values())
            xs, ys = list(dist), [c / n for c in dist.values()]
            ax.plot(xs, ys, drawstyle="steps-mid" if len(xs) > 15 else "default",
                    marker="o" if len(xs) <= 15 else None, markersize=4, color=colour, label=p, alpha=0.85,
                    linestyle=LINES[k % len(LINES)])  # equal distributions stay visible
        ax.set_title(title)
        ax.set_xlabel(title.split(" (")[0])
        ax.set_ylabel("share of games")
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
    fig.suptitle(f"Distributions per profile\n{_subtitle(result)}", fontsize="medium")
    _legend(fig, legend if legend is not None else axes[0], len(profiles))
    return fig


def _win_rates(result: dict[str, Any]) -> Any:
    profiles, players = result["profiles"], result["players"]
    fig = _figure(max(7.0, 1.2 * players + 0.35 * players * len(profiles)), 4.8)
    ax = fig.subplots()
    width = 0.8 / len(profiles)
    for k, (p, colour) in enumerate(zip(profiles, _colours(len(profiles)))):
        xs, ys, lo, hi = [], [], [], []
        for seat in range(1, players + 1):
            e = result["estimates"][p][f"win.seat{seat}"]
            if e["mean"] is None:
                continue
            xs.append(seat - 0.4 + width * (k + 0.5))
            ys.append(e["mean"])
            lo.append(e["mean"] - (e["low"] if e["low"] is not None else e["mean"]))
            hi.append((e["high"] if e["high"] is not None else e["mean"]) - e["mean"])
        ax.bar(xs, ys, width=width * 0.95, color=colour, label=p, yerr=[lo, hi], capsize=3,
               error_kw={"elinewidth": 1})
    ax.axhline(1 / players, color="black", linestyle="--", linewidth=1, label=f"no advantage (1/{players})")
    ax.set_xticks(range(1, players + 1), [f"seat {s}" for s in range(1, players + 1)])
    ax.set_xlabel("seat in turn order (seat 1 took the first turn)")
    ax.set_ylabel("win rate (95% interval)")
    ax.set_ylim(bottom=0)
    ax.grid(axis="y", alpha=0.3)
    ax.set_title(f"Win rate per seat\n{_subtitle(result)}", fontsize="medium")
    _legend(fig, ax, len(profiles) + 1)
    return fig


def _is_rate(metric: str) -> bool:
    return metric in SHARES or metric.startswith("win.")


def _shown(result: dict[str, Any], metrics: list[str]) -> list[str]:
    mixed = len(set(result["bots"])) > 1
    return [m for m in metrics if mixed or not m.startswith("win.player")]


def _forest(result: dict[str, Any], name: str) -> Any:
    """Two panels sharing the metric rows' layout: amounts (as % of the first profile's mean) and rates (in
    percentage points); each row's label says the difference in its panel's unit (an amount's also as the
    difference on the first profile's mean), and a metric the same in every game says so instead of a point."""
    base = result["profiles"][0]
    other = name[: -len(f" - {base}")]
    diffs = result["differences"][name]
    metrics = _shown(result, list(diffs))
    amounts = [m for m in metrics if not _is_rate(m)]
    rates = [m for m in metrics if _is_rate(m)]
    rows = max(len(amounts), len(rates))
    fig = _figure(15, 1.6 + 0.32 * rows)
    axes = fig.subplots(1, 2)
    for ax, group, unit in ((axes[0], amounts, "%"), (axes[1], rates, "pp")):
        labels = []
        for y, m in enumerate(group):
            d, b = diffs[m], result["estimates"][base][m]["mean"]
            same = _constant_label(m, {p: result["estimates"][p][m] for p in (base, other)}, unit)
            if same is not None:
                labels.append(same)
                continue
            if d["mean"] is None:
                labels.append(f"{m}  (no value)")
                continue
            if unit == "%" and not b:
                labels.append(f"{m}  {_interval_text(d, m)}  ({base}: 0, not drawn)")
                continue
            scale = 100 / abs(b) if unit == "%" else 100
            labels.append(row_label(m, d, b, unit))
            mean = d["mean"] * scale
            low = d["low"] * scale if d["low"] is not None else mean
            high = d["high"] * scale if d["high"] is not None else mean
            significant = d["low"] is not None and (d["low"] > 0 or d["high"] < 0)
            ax.errorbar([mean], [y], xerr=[[mean - low], [high - mean]], fmt="o", capsize=3, markersize=4,
                        color="tab:red" if significant else "tab:blue")
        ax.set_yticks(range(len(group)), labels, fontsize="small")
        ax.set_ylim(-0.7, max(rows, 1) - 0.3)  # the same row height in both panels
        ax.invert_yaxis()
        ax.axvline(0, color="black", linewidth=1)
        ax.grid(axis="x", alpha=0.3)
        ax.set_xlabel(f"difference in % of {base}'s mean" if unit == "%" else "difference in percentage points")
        ax.set_title("amounts" if unit == "%" else "rates and shares")
    fig.suptitle(f"Paired differences {name} (mean and 95% interval; red: the interval excludes 0)\n"
                 f"{_subtitle(result)}", fontsize="medium")
    return fig


def row_label(metric: str, d: dict[str, Any], base_mean: float, unit: str) -> str:
    """A row of the differences plot, in its axis's unit: an amount in % of the first profile's mean, followed by
    the difference itself on that mean (``decisions  +1.0% [-0.3%, +2.3%]  (+0.65 on 62.65)``); a rate in
    percentage points (``win.seat1  -6.7 pp [-16.0, +2.7]``)."""
    if unit == "pp":
        text = f"{metric}  {100 * d['mean']:+.1f} pp"
        if d["low"] is not None:
            text += f" [{100 * d['low']:+.1f}, {100 * d['high']:+.1f}]"
        return text
    scale = 100 / abs(base_mean)
    text = f"{metric}  {d['mean'] * scale:+.1f}%"
    if d["low"] is not None:
        text += f" [{d['low'] * scale:+.1f}%, {d['high'] * scale:+.1f}%]"
    return f"{text}  ({d['mean']:+.3g} on {base_mean:.3g})"


def _constant_label(metric: str, estimates: dict[str, dict[str, Any]], unit: str) -> str | None:
    """The label of a metric that was the same in every game of both profiles (its interval has no width), or
    None: such a row has no distribution to draw, so it says the value(s) instead of a point at 0."""
    if not all(e["mean"] is not None and e["low"] == e["mean"] == e["high"] for e in estimates.values()):
        return None

    values = {p: e["mean"] for p, e in estimates.items()}
    if unit == "pp":  # a share of games: each game counts 0 or 1
        if len(set(values.values())) == 1:
            return f"{metric}  {100 * next(iter(values.values())):g}% of the games under both: no difference"
        return f"{metric}  " + ", ".join(f"{p} {100 * v:g}%" for p, v in values.items()) + " of the games"
    if len(set(values.values())) == 1:
        return f"{metric}  {_number(next(iter(values.values())))} in every game under both: no difference"
    return f"{metric}  the same in every game: " + ", ".join(f"{p} {_number(v)}" for p, v in values.items())


def _interval_text(e: dict[str, Any], metric: str) -> str:
    if e["mean"] is None:
        return "-"
    digits = 3 if _is_rate(metric) or metric == "lead_change" else 2
    text = f"{e['mean']:+.{digits}f}"
    if e["low"] is not None:
        text += f" [{e['low']:+.{digits}f}, {e['high']:+.{digits}f}]"
    return text


def _sweep(result: dict[str, Any], key: str) -> Any:
    """Each metric against ``key``'s values; a line per variant and combination of the other swept values."""
    sweep = result["sweep"]
    others = [k for k in sweep["keys"] if k != key]
    values = list(dict.fromkeys(row[key] for row in sweep["profiles"].values()))
    numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
    position = {v: (v if numeric else i) for i, v in enumerate(values)}
    lines: dict[str, list[str]] = {}
    for label, row in sweep["profiles"].items():
        name = ", ".join([row["variant"]] + [f"{k}={row[k]}" for k in others])
        lines.setdefault(name, []).append(label)
    metrics = _shown(result, list(result["estimates"][result["profiles"][0]]))
    cols = 5
    nrows = math.ceil(len(metrics) / cols)
    legend_rows = math.ceil(len(lines) / 3)
    height = 2.6 * nrows + 1.2 + 0.25 * legend_rows
    fig = _figure(4 * cols, height, constrained=False)  # many panels: a fixed layout draws much faster
    fig.subplots_adjust(left=0.04, right=0.99, top=1 - 0.9 / height, bottom=(0.6 + 0.25 * legend_rows) / height,
                        hspace=0.55, wspace=0.22)
    axes = fig.subplots(nrows, cols, squeeze=False)
    colours = _colours(len(lines))
    span = (max(values) - min(values) if numeric else len(values) - 1) or 1
    dodge = [span * 0.012 * (i - (len(lines) - 1) / 2) for i in range(len(lines))]  # keep the bars apart
    for ax, m in itertools.zip_longest(axes.flat, metrics):
        if m is None:
            ax.set_axis_off()
            continue
        for (name, labels), colour, shift in zip(lines.items(), colours, dodge):
            pts = [(position[sweep["profiles"][lb][key]] + shift, result["estimates"][lb][m]) for lb in labels]
            pts = [(x, e) for x, e in pts if e["mean"] is not None]
            if not pts:
                continue
            xs = [x for x, _ in pts]
            ys = [e["mean"] for _, e in pts]
            lo = [e["mean"] - (e["low"] if e["low"] is not None else e["mean"]) for _, e in pts]
            hi = [(e["high"] if e["high"] is not None else e["mean"]) - e["mean"] for _, e in pts]
            ax.errorbar(xs, ys, yerr=[lo, hi], marker="o", markersize=3, capsize=2, color=colour, label=name)
        ax.set_title(m, fontsize="small")
        ax.set_xlabel(key, fontsize="x-small")
        ax.tick_params(labelsize="x-small")
        ax.set_xticks([position[v] for v in values], [str(v) for v in values])
        ax.grid(alpha=0.3)
    fig.suptitle(f"Each metric against {key} (mean and 95% interval)\n{_subtitle(result)}", fontsize="medium")
    _legend(fig, axes.flat[0], len(lines), outside=False)
    return fig


# ---------------------------------------------------------------------------------------------- lv explain


def draw_explain(result: dict[str, Any], folder: str) -> list[str]:
    """The plots of ``lv explain`` (``explain.explain``'s report) into ``folder``: per ranked metric a forest
    plot of each change's effect (alone, removed, Shapley share) and, with Shapley shares, a waterfall of the
    shares from A's mean to B's."""
    check_available()
    out = make_folder(folder)
    files: list[str] = []
    for m in result["ranked_by"]:
        files += _save(_explain_forest(result, m), out / f"forest-{slug(m)}")
        if result.get("shapley_sum", {}).get(m) is not None:
            files += _save(_waterfall(result, m), out / f"waterfall-{slug(m)}")
    return files


def _explain_subtitle(result: dict[str, Any]) -> str:
    import textwrap

    specs = textwrap.fill(f"A = {result['a']}, B = {result['b']}", 110)
    return (f"{specs}\n{result['games']} paired games, {result['players']} players, "
            f"seed {result['seed']}, bots {','.join(result['bots'])}")


def _explain_forest(result: dict[str, Any], metric: str) -> Any:
    entries = result["changes"]
    scale, unit = (100.0, "percentage points") if _is_rate(metric) else (1.0, "")
    fig = _figure(9, 2.0 + 0.45 * len(entries))
    ax = fig.subplots()
    sides = (("alone", "alone: A + change - A", "tab:blue", -0.22), ("removed", "removed: B - (B - change)",
             "tab:orange", 0.0), ("shapley", "Shapley share", "black", 0.22))
    for side, label, colour, dy in sides:
        shown = False
        for y, e in enumerate(entries):
            est = (e[side] or {}).get(metric)
            if est is None or est["mean"] is None:
                continue
            mean = est["mean"] * scale
            low = (est["low"] if est["low"] is not None else est["mean"]) * scale
            high = (est["high"] if est["high"] is not None else est["mean"]) * scale
            ax.errorbar([mean], [y + dy], xerr=[[mean - low], [high - mean]], fmt="o", capsize=3, markersize=4,
                        color=colour, label=None if shown else label)
            shown = True
    ax.set_yticks(range(len(entries)), [e["name"] for e in entries], fontsize="small")
    ax.invert_yaxis()
    ax.axvline(0, color="black", linewidth=1)
    ax.grid(axis="x", alpha=0.3)
    ax.set_xlabel(f"effect on {metric}" + (f" ({unit})" if unit else ""))
    ax.set_title(f"Effect of each change on {metric} (mean and 95% interval)\n{_explain_subtitle(result)}",
                 fontsize="medium")
    _legend(fig, ax, 3)
    return fig


def _waterfall(result: dict[str, Any], metric: str) -> Any:
    """From A's mean, each change's Shapley share in turn (the largest first), to B's mean."""
    entries = result["changes"]
    scale = 100.0 if _is_rate(metric) else 1.0
    start = result["estimates"][result["a"]][metric]["mean"]
    end = result["estimates"][result["b"]][metric]["mean"]
    fig = _figure(9, 2.2 + 0.4 * len(entries))
    ax = fig.subplots()
    level = start * scale if start is not None else 0.0
    names = ["A"]
    ax.barh(0, level, color="tab:gray")
    for y, e in enumerate(entries, start=1):
        share = e["shapley"][metric]["mean"] * scale
        ax.barh(y, share, left=level, color="tab:red" if share < 0 else "tab:green")
        level += share
        names.append(e["name"])
    names.append("B")
    ax.barh(len(entries) + 1, end * scale if end is not None else level, color="tab:gray")
    ax.set_yticks(range(len(names)), names, fontsize="small")
    ax.invert_yaxis()
    ax.grid(axis="x", alpha=0.3)
    ax.set_xlabel(metric + (" (percentage points)" if scale != 1.0 else ""))
    ax.set_title(f"{metric} from A to B: each change's Shapley share\n{_explain_subtitle(result)}",
                 fontsize="medium")
    return fig


def draw_ladder(result: dict[str, Any], folder: str) -> list[str]:
    """The plots of ``lv ladder`` (``ladder.report``) into ``folder``: ``ladder-ratings``, each bot's rating with
    its 95% interval, best first; ``ladder-pairs``, how often the bot of each row finished ahead of the bot of
    each column (the higher-rated bot's share, and one minus it the other way)."""
    check_available()
    out = make_folder(folder)
    subtitle = (f"{result['games']} games ({result['deals']} deals x {result['players']} seat rotations), "
                f"{result['variant']}, seed {result['seed']}")
    files = _save(_ladder_ratings(result, subtitle), out / "ladder-ratings")
    files += _save(_ladder_pairs(result, subtitle), out / "ladder-pairs")
    return files


def _ladder_ratings(result: dict[str, Any], subtitle: str) -> Any:
    rows = result["ratings"]
    fig = _figure(7.5, 1.2 + 0.45 * len(rows))
    ax = fig.subplots()
    ys = list(range(len(rows)))[::-1]
    for y, r in zip(ys, rows):
        low = r["low"] if r["low"] is not None else r["rating"]
        high = r["high"] if r["high"] is not None else r["rating"]
        ax.errorbar([r["rating"]], [y], xerr=[[r["rating"] - low], [high - r["rating"]]], fmt="o", capsize=3,
                    color="black")
    ax.set_yticks(ys, [r["bot"] for r in rows])
    ax.set_xlabel(f"rating: {result['model']['name']}\n95% interval: {result['model']['interval']}",
                  fontsize="small")
    ax.grid(axis="x", alpha=0.3)
    ax.set_title(f"Ladder ratings\n{subtitle}", fontsize="medium")
    return fig


def _ladder_pairs(result: dict[str, Any], subtitle: str) -> Any:
    names = [r["bot"] for r in result["ratings"]]
    index = {name: i for i, name in enumerate(names)}
    n = len(names)
    grid = [[math.nan] * n for _ in range(n)]
    for p in result["pairs"]:
        mean = p["ahead"]["mean"]
        if mean is None:
            continue
        i, j = index[p["bot"]], index[p["other"]]
        grid[i][j], grid[j][i] = mean, 1 - mean
    fig = _figure(2.5 + 1.1 * n, 1.8 + 0.9 * n)
    ax = fig.subplots()
    image = ax.imshow(grid, vmin=0, vmax=1, cmap="RdBu")
    for i, j in itertools.product(range(n), range(n)):
        if not math.isnan(grid[i][j]):
            ax.text(j, i, f"{100 * grid[i][j]:.0f}%", ha="center", va="center", fontsize="small")
    ax.set_xticks(range(n), names, rotation=30, ha="right")
    ax.set_yticks(range(n), names)
    fig.colorbar(image, ax=ax, label="row's bot ahead of column's")
    ax.set_title(f"Head to head\n{subtitle}", fontsize="medium")
    return fig
