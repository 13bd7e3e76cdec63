"""YAML loading that remembers where each key was written, so errors can name the file and line."""

from __future__ import annotations

import os
import stat
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


MAX_FILE_BYTES = 8 * 1024 * 1024  # a game record or a profile is kilobytes; anything bigger is refused unread


def read_bytes(path: str | Path, error: type[LvError] = LvError) -> bytes:
    """A regular file's bytes, at most MAX_FILE_BYTES, or ``error`` naming the file.

    The file is opened without blocking and checked with ``fstat`` before any read, so a FIFO, a device such
    as /dev/zero or a folder is refused at once instead of hanging or filling the memory."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise error(f"{path}: no such file") from None
    except IsADirectoryError:
        raise error(f"{path}: a folder, not a file") from None
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise error(f"{path}: a folder, not a file")
        if not stat.S_ISREG(mode):
            raise error(f"{path}: not a regular file (a pipe or a device): lv reads only regular files")
        chunks, size = [], 0
        while size <= MAX_FILE_BYTES:
            chunk = os.read(fd, min(1 << 20, MAX_FILE_BYTES + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if size > MAX_FILE_BYTES:
        raise error(f"{path}: too large: lv reads files of at most {MAX_FILE_BYTES >> 20} MiB")
    return b"".join(chunks)


def decode(data: bytes, name: str, error: type[LvError] = LvError) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{name}: cannot read: {exc}") from None


def read_text(path: str | Path, error: type[LvError] = LvError) -> str:
    """A regular file's text (UTF-8, at most MAX_FILE_BYTES), or ``error`` naming the file."""
    return decode(read_bytes(path, error), str(path), error)


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
