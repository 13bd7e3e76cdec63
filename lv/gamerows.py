"""Per-game rows of a simulation (``lv simulate --games-out FILE``): one row per game and profile, written as
the games come in, as CSV, JSON Lines or Parquet by the file's extension.

A row holds the game (``game``, 1-based as in ``--save-dir``'s file names, and its ``seed``), the profile (its
spec, and for a sweep its ``variant`` and each swept parameter as a column of its own), how it ended (``reason``,
``winner`` in seating order and ``winner_seat`` in turn order, both 1-based) and every per-game metric
(``metrics.METRICS``), then the rest of the game's summary (``scores.1``, ``money.1``, ...). The columns follow
the summary: a metric added to ``metrics.METRICS`` or a figure added to ``metrics.summarize`` gets a column.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import IO, Any, Callable, Iterable

from . import files
from .errors import LvError
from .metrics import METRICS

FORMATS = (".csv", ".jsonl", ".parquet")
# summary fields shown otherwise: the identity columns, and the decision counts (the decisions.KIND metrics)
_SHOWN = {"index", "seed", "profile", "reason", "winner", "winner_seat", "first_player", "by_kind"}
_ONE_BASED = ("winner", "winner_seat", "first_player")


def row(summary: dict[str, Any], sweep: dict[str, Any] | None = None) -> dict[str, Any]:
    """One game under one profile as a flat row. ``sweep``: the profile's variant and swept values."""
    out: dict[str, Any] = {"game": summary["index"], "seed": summary["seed"], "profile": summary["profile"]}
    for key, value in (sweep or {}).items():  # a list value (gamble.win_even) as its YAML text
        out[key] = value if value is None or isinstance(value, (bool, int, float, str)) else json.dumps(value)
    out["reason"] = summary["reason"]
    out["winner"] = None if summary["winner"] is None else summary["winner"] + 1
    out["winner_seat"] = summary["winner_seat"]
    out["first_player"] = summary["first_player"] + 1
    ended = summary["winner"] is not None
    for name, (_, fn) in METRICS.items():
        out[name] = fn(summary) if ended else None
    for key, value in summary.items():
        if key in _SHOWN or key in out:
            continue
        if isinstance(value, dict):
            out.update({f"{key}.{k}": v for k, v in value.items()})
        elif isinstance(value, (list, tuple)):
            out.update({f"{key}.{i + 1}": v for i, v in enumerate(value)})
        else:
            out[key] = value
    return out


# A text cell starting with one of these is read by a spreadsheet as a formula (``=HYPERLINK(...)`` in a profile
# file's name): OWASP's "CSV injection" rule
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A cell as lv writes it to CSV: text that a spreadsheet would run as a formula gets a leading ``'`` (shown
    as text, the ``'`` hidden); numbers (``-3`` is a number) and everything else stay as they are; None is empty."""
    if value is None:
        return ""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def write_csv(file: IO[str], rows: Iterable[list[Any]]) -> None:
    """Write ``rows`` as CSV, every cell through ``csv_cell``: every CSV file lv writes goes through here."""
    w = csv.writer(file, lineterminator="\n")
    w.writerows([csv_cell(v) for v in r] for r in rows)


def check_target(path: str) -> None:
    """Refuse, before any game is played, a file whose format is unknown or needs a missing extra."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise LvError(f"--games-out {path}: give a file ending in {', '.join(FORMATS)}")
    if suffix == ".parquet":
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise LvError(f"--games-out {path}: Parquet needs pyarrow: pip install 'lv[parquet]'") from None


class RowWriter:
    """Writes rows as they come to a temporary file beside ``path``, put in place by ``close`` through the one
    safe writer (``files.Streamed``: an interrupted run leaves no half file, a link the user named is followed,
    a missing folder is an error). CSV and JSON Lines write each row at once; Parquet a row group of ``group``
    rows at a time."""

    def __init__(self, path: str, group: int = 4096) -> None:
        check_target(path)
        self.path = path
        self.suffix = Path(path).suffix.lower()
        self.group = group
        try:
            self._stream = files.Streamed(path)
        except LvError as exc:
            raise LvError(f"--games-out {exc}") from None
        self._file: io.TextIOWrapper | None = None
        self._header_written = False
        self._parquet: Any = None
        self._schema: Any = None
        self._rows: list[dict[str, Any]] = []
        self._columns: list[str] | None = None
        if self.suffix in (".csv", ".jsonl"):
            self._file = io.TextIOWrapper(self._stream.file, encoding="utf-8", newline="")

    def write(self, rows: list[dict[str, Any]]) -> None:
        for r in rows:
            if self._columns is None:
                self._columns = list(r)
            elif list(r) != self._columns:
                raise LvError(f"--games-out {self.path}: a row with other columns ({', '.join(r)})")
            if self.suffix == ".csv":
                assert self._file is not None
                if not self._header_written:
                    write_csv(self._file, [self._columns])
                    self._header_written = True
                write_csv(self._file, [list(r.values())])
            elif self.suffix == ".jsonl":
                assert self._file is not None
                self._file.write(json.dumps(r, ensure_ascii=False) + "\n")
            else:
                self._rows.append(r)
                if len(self._rows) >= self.group:
                    self._flush_parquet()

    def _flush_parquet(self) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        if not self._rows:
            return
        if self._schema is None:
            self._schema = pa.schema([(c, _arrow_type(pa, [r[c] for r in self._rows])) for c in self._rows[0]])
            self._parquet = pq.ParquetWriter(self._stream.file, self._schema)
        try:
            table = pa.Table.from_pylist(self._rows, schema=self._schema)
        except (pa.ArrowInvalid, pa.ArrowTypeError) as exc:
            raise LvError(f"--games-out {self.path}: a column changed type ({exc})") from None
        self._parquet.write_table(table)
        self._rows = []

    def _finish(self) -> None:
        """Everything written reaches the temporary file (which stays open for ``files.Streamed``)."""
        if self._parquet is not None:
            self._parquet.close()
            self._parquet = None
        if self._file is not None:
            self._file.flush()
            self._file.detach()
            self._file = None

    def close(self) -> None:
        """Finish the file and put it in place."""
        if self.suffix == ".parquet":
            self._flush_parquet()
        self._finish()
        try:
            self._stream.commit()
        except LvError as exc:
            raise LvError(f"--games-out {exc}") from None

    def abort(self) -> None:
        """Drop the temporary file (the run failed)."""
        self._finish()
        self._stream.abort()


def _arrow_type(pa: Any, values: list[Any]) -> Any:
    """The Arrow type of a column from its first rows: a number column with any float is float64."""
    kinds = {type(v) for v in values if v is not None}
    if kinds <= {bool} and kinds:
        return pa.bool_()
    if kinds <= {int}:
        return pa.int64() if kinds else pa.float64()  # all missing: a metric, so a number
    if kinds <= {int, float}:
        return pa.float64()
    return pa.string()


def writer_for(path: str, sweep: dict[str, dict[str, Any]] | None = None
               ) -> tuple[RowWriter, Callable[[list[dict[str, Any]]], None]]:
    """A writer and the ``on_game`` callback of ``simulate.play`` that feeds it: a row per profile of a game.
    ``sweep``: each profile's variant and swept values (``simulate.Grid.profiles``)."""
    w = RowWriter(path)

    def on_game(summaries: list[dict[str, Any]]) -> None:
        w.write([row(s, sweep.get(s["profile"]) if sweep else None) for s in summaries])

    return w, on_game
