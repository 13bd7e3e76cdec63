"""The physical board: 48 lots in six blocks on both sides of the Strip, the property cards, the score track.

Loaded once from ``variants/board.yaml``; immutable and shared by every game.
"""

from __future__ import annotations

import bisect
import functools
from pathlib import Path

import attrs

from .errors import BoardError
from .yamlsource import read_located

END_CARD = "END"  # the End of Game / Game Over card: no lot, pays the Strip
STRIP = "strip"
BLOCKS = ("A", "B", "C", "D", "E", "F")


def variants_dir() -> Path:
    """``variants/`` beside the package in a checkout, or ``lv/variants`` inside an installed wheel."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "variants", here.parent / "variants"):
        if (candidate / "board.yaml").is_file():
            return candidate
    raise BoardError(f"cannot find the variants folder (looked in {here / 'variants'} and {here.parent / 'variants'})")


@attrs.frozen
class Lot:
    id: str
    block: str
    row: int
    col: int
    price: int
    die: int
    strip: bool
    card: str  # the casino colour its property card pays, or "strip"
    card_money: int
    neighbours: tuple[str, ...]


@attrs.frozen
class Board:
    """The playmat (``lv.load_board()``): the 48 lots by id, their board order, the casino colours and the
    score track."""

    lots: dict[str, Lot]
    order: tuple[str, ...]  # lots in board order A1..F9
    colors: tuple[str, ...]  # casino tile colours
    track: tuple[int, ...]

    def lot(self, lot_id: str) -> Lot:
        """The lot called ``lot_id`` (``"A2"``)."""
        return self.lots[lot_id]

    def card_color(self, card: str) -> str:
        """What a drawn card pays: a casino colour, or the Strip (the end card pays the Strip too)."""
        return STRIP if card == END_CARD else self.lots[card].card

    @functools.cached_property
    def index(self) -> dict[str, int]:
        return {lot: i for i, lot in enumerate(self.order)}

    @functools.cached_property
    def blocks(self) -> dict[str, tuple[str, ...]]:
        """The lots of each block, in board order (a casino never crosses a street, so never a block)."""
        out: dict[str, list[str]] = {}
        for lot in self.order:
            out.setdefault(self.lots[lot].block, []).append(lot)
        return {block: tuple(lots) for block, lots in out.items()}

    @functools.cached_property
    def strip_lots(self) -> frozenset[str]:
        """The lots on the Strip (a Strip card pays the casinos touching it)."""
        return frozenset(lot for lot, data in self.lots.items() if data.strip)

    def advance(self, score: int, award: int) -> int:
        """The score track with its breaks: the highest space not above ``score + award``.

        000 "Points Paid" / 003 "Step 4: Score Casinos": from 8, +1 stays on 8, +2/+3 reach 10, +4/+5 reach 12.
        """
        below = bisect.bisect_right(self.track, score + award)  # the track is in ascending order
        return max(score, self.track[below - 1]) if below else score


@functools.lru_cache(maxsize=None)
def load_board(path: str | None = None) -> Board:
    file = Path(path) if path else variants_dir() / "board.yaml"
    data, _ = read_located(file, BoardError)
    try:
        companies = data["companies"]
        lots = {}
        for lot_id, d in data["lots"].items():
            lots[lot_id] = Lot(id=lot_id, block=d["block"], row=d["row"], col=d["col"], price=d["price"],
                               die=d["die"], strip=d["strip"], card=companies.get(d["card"], d["card"]),
                               card_money=d["card_money"], neighbours=tuple(d["neighbours"]))
        track = tuple(data["score_track"])
    except (KeyError, TypeError) as exc:
        raise BoardError(f"{file}: missing or malformed board field {exc}") from None
    for lot in lots.values():
        for n in lot.neighbours:
            if n not in lots or lot.id not in lots[n].neighbours or lots[n].block != lot.block:
                raise BoardError(f"{file}: lot {lot.id}: neighbour {n} is not a symmetric neighbour in block {lot.block}")
    colors = tuple(sorted(set(companies.values())))
    return Board(lots=lots, order=tuple(lots), colors=colors, track=track)
