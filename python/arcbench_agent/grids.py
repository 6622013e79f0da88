"""Grids of the protocol: 4096 hex digits, one a cell, row-major (docs/agent-protocol.md §3). Decoding
runs in C (bytes.translate), not cell by cell: it is most of the layer's time per step."""

from __future__ import annotations

SIZE = 64
CELLS = SIZE * SIZE
_HEX = b"0123456789abcdefABCDEF"
_VALUES = bytes(range(16)) + bytes(range(10, 16))
_TO_VALUES = bytes.maketrans(_HEX, _VALUES)
_DIGITS = "0123456789abcdef"


def decode_grid(text: str) -> list[list[int]]:
    """64 rows of 64 ints from 4096 hex digits; ValueError for anything else."""
    if not isinstance(text, str) or len(text) != CELLS:
        found = f"{len(text)} characters" if isinstance(text, str) else type(text).__name__
        raise ValueError(f"a grid is a string of {CELLS} hex digits, found {found}")
    try:
        raw = text.encode("ascii")
    except UnicodeEncodeError:
        raise ValueError("a grid holds a character that is not a hex digit") from None
    if raw.translate(None, _HEX):
        raise ValueError("a grid holds a character that is not a hex digit")
    cells = raw.translate(_TO_VALUES)
    return [list(cells[start : start + SIZE]) for start in range(0, CELLS, SIZE)]


def encode_grid(rows: list[list[int]]) -> str:
    """4096 hex digits from 64 rows of 64 ints 0..15."""
    if len(rows) != SIZE or any(len(row) != SIZE for row in rows):
        raise ValueError(f"a grid is {SIZE} rows of {SIZE} cells")
    return "".join(_DIGITS[cell] for row in rows for cell in row)
