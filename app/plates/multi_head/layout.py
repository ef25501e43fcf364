"""Where the multi-head plate's cells go: the head maps (up to three to a row, fewer on a phone,
at most two on a slide), the sizes of the four figures and their ranges. multi_head.js places
them by the same rules."""

from __future__ import annotations

from app.plates.multi_head.state import N_MAX, MultiHeadState

HEADS_PER_ROW = 3  # head maps to a row on a wide screen (heads_per_row)
SLIDE_HEADS = 2  # head maps on a slide (app/shared/scenes.py): the most whose numbers its type holds
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


def heads_shown(h: int, slide: bool = False) -> int:
    """How many heads' maps the figure draws: all of them, or on a slide the first SLIDE_HEADS
    (eight maps of numbers at a slide's 18 px would not fit one; the titles say 'of h')."""
    return min(h, SLIDE_HEADS) if slide else h


def head_origin(k: int, n: int, h: int, room: int = 0, slide: bool = False) -> tuple[float, float]:
    """Where head k's cell (0, 0) sits in the head_maps figure (the maps of n tokens close up
    towards the top left; the figure keeps N_MAX tokens' room). On a slide the maps sit in one
    row, a lone head in the middle of the room of two."""
    pitch = max(n, 4) + 2
    if slide:
        return (pitch / 2 if h == 1 else k * pitch), 0
    cols = min(h, heads_per_row(room))
    return (k % cols) * pitch, -(k // cols) * (n + 3)


def head_ranges(h: int, room: int = 0, n: int = N_MAX, slide: bool = False) -> tuple[float, float, float, float]:
    """(x_start, x_end, y_start, y_end) of the head_maps figure: the span of N_MAX tokens' maps,
    whatever n is, so that a new n resizes no figure (BokehJS would lay the page out again and
    everything below the maps would move under the reader's eyes). On a slide, the span of two
    maps of n tokens whatever h is: a slide's figure is sized once, for its frame (app/runtime/
    page.js fits the sizes it finds when the scenes start), and h is what a scene changes."""
    if slide:  # the second map keeps four tokens' room: its title is wider than a map of two or three
        return -1.5, 2 * (max(n, 4) + 2) - 2.5, -(n - 1) - 0.5, 2.6
    cols = min(h, heads_per_row(room))
    rows = -(-h // cols)
    return -1.5, (cols - 1) * (N_MAX + 2) + N_MAX - 0.5, -((rows - 1) * (N_MAX + 3) + N_MAX - 1) - 0.5, 2.6


def rows_y(n: int, slide: bool = False) -> tuple[float, float]:
    """concat's and the output's rows: N_MAX tokens' room (ROWS_Y), or on a slide n tokens'."""
    return (-(n - 0.5), 2.5) if slide else ROWS_Y


def frames(state: MultiHeadState, room: int = 0) -> dict[str, dict]:
    """Every range's (start, end) and every figure's frame size for `state`, by the view's
    attribute names: what a new h, d_model or room changes (a new n changes none of them, but
    on a slide, where n has no control, the maps take n tokens' room)."""
    w, n, slide = state.width, state.n, state.slide
    x0, x1, y0, y1 = head_ranges(state.h, room, n, slide)
    r0, r1 = rows_y(n, slide)
    return {
        "ranges": {"head_x": (x0, x1), "head_y": (y0, y1), "cols_x": (-1.5, w - 0.5), "concat_x": (-1.5, w - 0.5),
                   "w_o_y": (-(w - 0.5), 1.5), "rows_y": (r0, r1)},
        "frames": {"head_fig": (round((x1 - x0) * CELL_HEAD), round((y1 - y0) * CELL_HEAD)),
                   "concat_fig": (round((w + 1) * CELL), round((r1 - r0 + 1) * CELL)),
                   "w_o_fig": (round((w + 1) * CELL), round((w + 2) * CELL)),
                   "out_fig": (round((w + 1) * CELL), round((r1 - r0 + 1) * CELL))},
    }
