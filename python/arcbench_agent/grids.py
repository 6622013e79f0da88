"""Grids of the protocol: 4096 hex digits, one a cell, row-major (docs/agent-protocol.md §3). A grid is
checked and turned into cell values as it arrives, in C (bytes.translate); the 64 lists of 64 ints,
which cost several times more, are made from those values only when an agent reads them."""

from __future__ import annotations

SIZE = 64
CELLS = SIZE * SIZE
_HEX = b"0123456789abcdefABCDEF"
_VALUES = bytes(range(16)) + bytes(range(10, 16))
_TO_VALUES = bytes.maketrans(_HEX, _VALUES)
_DIGITS = "0123456789abcdef"
_ROW_STARTS = range(0, CELLS, SIZE)


def grid_cells(text: str) -> bytes:
    """The 4096 cell values (bytes 0..15) of 4096 hex digits; ValueError for anything else."""
    if not isinstance(text, str) or len(text) != CELLS:
        found = f"{len(text)} characters" if isinstance(text, str) else type(text).__name__
        raise ValueError(f"a grid is a string of {CELLS} hex digits, found {found}")
    try:
        raw = text.encode("ascii")
    except UnicodeEncodeError:
        raise ValueError("a grid holds a character that is not a hex digit") from None
    if raw.translate(None, _HEX):
        raise ValueError("a grid holds a character that is not a hex digit")
    return raw.translate(_TO_VALUES)


def grid_rows(cells: bytes) -> list[list[int]]:
    """64 rows of 64 ints from the cell values of `grid_cells`."""
    return [list(cells[start : start + SIZE]) for start in _ROW_STARTS]


def frame_rows(grids: list[bytes]) -> list[list[list[int]]]:
    """A frame's grids (cell values of `grid_cells`) as the official shape: a list of grids of rows."""
    return [grid_rows(cells) for cells in grids]


def decode_grid(text: str) -> list[list[int]]:
    """64 rows of 64 ints from 4096 hex digits; ValueError for anything else."""
    return grid_rows(grid_cells(text))


def encode_grid(rows: list[list[int]]) -> str:
    """4096 hex digits from 64 rows of 64 ints 0..15."""
    if len(rows) != SIZE or any(len(row) != SIZE for row in rows):
        raise ValueError(f"a grid is {SIZE} rows of {SIZE} cells")
    return "".join(_DIGITS[cell] for row in rows for cell in row)
