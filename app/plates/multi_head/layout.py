"""Where the multi-head plate's cells go: the head maps (up to three to a row, fewer on a phone),
the sizes of the four figures and their ranges. multi_head.js places them by the same rules."""

from __future__ import annotations

from app.plates.multi_head.state import N_MAX, MultiHeadState

HEADS_PER_ROW = 3  # head maps to a row on a wide screen (heads_per_row)
CELL_HEAD = 28  # px per cell of a head's weight map
CELL = 32  # px per cell of concat, W_O and the output
ROWS_Y = (-(N_MAX - 0.5), 2.5)  # concat's and the output's rows: N_MAX tokens' room, n at the top (never changes)


def heads_per_row(room: int = 0) -> int:
    """Three head maps to a row on a wide screen (four maps of N_MAX tokens would pass 1280 px
    beside the divisors); on a phone (`room`: the pixels a figure has across it; 0 on a wide
    screen) as many as fit at N_MAX tokens, at least one, so that the maps keep their size instead
    of shrinking. n does not count: a new n must leave the figure's size as it is."""
    cols = HEADS_PER_ROW
    while room and cols > 1 and head_maps_px(cols) > room:
        cols -= 1
    return cols


def head_maps_px(cols: int) -> int:
    """The head_maps figure's width in pixels with `cols` maps to a row (its frame and borders),
    whatever n is: the width N_MAX tokens' maps take."""
    return round(((cols - 1) * (N_MAX + 2) + N_MAX + 1) * CELL_HEAD) + 12  # + 6 px of border each side


def head_origin(k: int, n: int, h: int, room: int = 0) -> tuple[int, int]:
    """Where head k's cell (0, 0) sits in the head_maps figure (the maps of n tokens close up
    towards the top left; the figure keeps N_MAX tokens' room)."""
    cols = min(h, heads_per_row(room))
    return (k % cols) * (max(n, 4) + 2), -(k // cols) * (n + 3)


def head_ranges(h: int, room: int = 0) -> tuple[float, float, float, float]:
    """(x_start, x_end, y_start, y_end) of the head_maps figure: the span of N_MAX tokens' maps,
    whatever n is, so that a new n resizes no figure (BokehJS would lay the page out again and
    everything below the maps would move under the reader's eyes)."""
    cols = min(h, heads_per_row(room))
    rows = -(-h // cols)
    return -1.5, (cols - 1) * (N_MAX + 2) + N_MAX - 0.5, -((rows - 1) * (N_MAX + 3) + N_MAX - 1) - 0.5, 2.6


def frames(state: MultiHeadState, room: int = 0) -> dict[str, dict]:
    """Every range's (start, end) and every figure's frame size for `state`, by the view's
    attribute names: what a new h, d_model or room changes (a new n changes none of them)."""
    w = state.width
    x0, x1, y0, y1 = head_ranges(state.h, room)
    return {
        "ranges": {"head_x": (x0, x1), "head_y": (y0, y1), "cols_x": (-1.5, w - 0.5), "concat_x": (-1.5, w - 0.5),
                   "w_o_y": (-(w - 0.5), 1.5)},
        "frames": {"head_fig": (round((x1 - x0) * CELL_HEAD), round((y1 - y0) * CELL_HEAD)),
                   "concat_fig": (round((w + 1) * CELL), round((N_MAX + 3) * CELL)),
                   "w_o_fig": (round((w + 1) * CELL), round((w + 2) * CELL)),
                   "out_fig": (round((w + 1) * CELL), round((N_MAX + 3) * CELL))},
    }
