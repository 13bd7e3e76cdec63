"""The tables lv prints (Rich tables): a cell too wide for its column wraps onto more lines, never cut.

Rich's default cuts a cell with '…' when a table is narrower than its text: below about 70 columns ``lv show``
printed a boss as 'purp…' and dice as 'A1:…', ``lv variants show`` a value as 'twenty_minus…'. Folded, every
value is there whole, on as many lines as it takes."""

from __future__ import annotations

from typing import Any

from rich.table import Table as RichTable


class Table(RichTable):
    """A Rich table whose columns fold (wrap) what does not fit, unless a column says otherwise (the headers
    given to the constructor are added through ``add_column`` too)."""

    def add_column(self, header: Any = "", *args: Any, overflow: Any = "fold", **options: Any) -> None:
        super().add_column(header, *args, overflow=overflow, **options)
