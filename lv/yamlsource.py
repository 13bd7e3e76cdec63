"""YAML loading that remembers where each key was written, so errors can name the file and line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .errors import LvError

Path_ = tuple  # a key path such as ("gamble", "lay_off") or ("turns", 3, "decisions", 0)


# libyaml's composer when PyYAML has it: the same nodes and marks, several times faster on a game record
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_located(text: str, filename: str, error: type[LvError] = LvError) -> tuple[Any, dict[Path_, int]]:
    """Parse YAML (or JSON, a subset) and return (data, {key path: 1-based line})."""
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        where = f"{filename}:{mark.line + 1}" if mark else filename
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise error(f"{where}: malformed YAML: {problem}") from None
    lines: dict[Path_, int] = {}
    if node is None:
        return None, lines
    constructor = yaml.SafeLoader("")  # only used for its scalar constructors

    def walk(n: yaml.Node, path: Path_) -> Any:
        lines[path] = n.start_mark.line + 1
        if isinstance(n, yaml.MappingNode):
            out = {}
            for key_node, value_node in n.value:
                key = constructor.construct_object(key_node, deep=True)
                if isinstance(key, (list, dict)):
                    raise error(f"{filename}:{key_node.start_mark.line + 1}: a key must be a plain value")
                if key in out:
                    raise error(f"{filename}:{key_node.start_mark.line + 1}: duplicate key {key!r}")
                out[key] = walk(value_node, path + (key,))
                lines[path + (key,)] = key_node.start_mark.line + 1
            return out
        if isinstance(n, yaml.SequenceNode):
            return [walk(item, path + (i,)) for i, item in enumerate(n.value)]
        return constructor.construct_object(n, deep=True)

    try:
        return walk(node, ()), lines
    except yaml.YAMLError as exc:
        raise error(f"{filename}: malformed YAML: {exc}") from None


def read_text(path: str | Path, error: type[LvError] = LvError) -> str:
    """A file's text, or ``error`` naming the file (missing, unreadable, not UTF-8)."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise error(f"{path}: cannot read: {exc}") from None


def read_located(path: str | Path, error: type[LvError] = LvError) -> tuple[Any, dict[Path_, int]]:
    return load_located(read_text(path, error), str(path), error)


def line_of(lines: dict[Path_, int], path: Path_) -> int | None:
    """The line of ``path`` or of its nearest ancestor that has one."""
    path = tuple(path)
    while path:
        if path in lines:
            return lines[path]
        path = path[:-1]
    return lines.get(())
