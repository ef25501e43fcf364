"""The example every comparison app of the suite shows: five keys of length 2 at 0, 70, 150, 225
and 300°, values 10..50, the query at 40° with length 1.5 (output = 16.84, k2 weighs 55.1 %).
Shared by baseline_app.py and floor_page.py, with the plot of the keys and the query both show
(the peers' apps, in their own environments, spell it out again)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # attention_core from this checkout
import attention_core as ac  # noqa: E402

KEY_ANGLES = np.array([0.0, 70.0, 150.0, 225.0, 300.0])  # (5,)
KEYS = ac.cartesian(KEY_ANGLES, 2.0)  # (5, 2)
VALUES = np.array([10.0, 20.0, 30.0, 40.0, 50.0])  # (5,)
NAMES = [f"k{j + 1}" for j in range(5)]
QUERY_ANGLE, QUERY_LENGTH = 40.0, 1.5


def vectors_plot(keys, query, **figure_kw):
    """The keys and the query as arrows from the origin, in the figure named 'vectors' (`keys`,
    `query`: ColumnDataSources with x and y). Returns the figure and the query's marker renderer."""
    from bokeh.models import Range1d
    from bokeh.plotting import figure

    plot = figure(name="vectors", width=460, height=460, x_range=Range1d(-5.6, 5.6), y_range=Range1d(-5.6, 5.6),
                  title="Drag the query", tools="", **figure_kw)
    plot.segment(0, 0, "x", "y", source=keys, line_width=3, color="#0072B2")
    plot.scatter("x", "y", source=keys, size=16, color="#0072B2")
    plot.segment(0, 0, "x", "y", source=query, line_width=4, color="#D55E00")
    marker = plot.scatter("x", "y", source=query, size=22, marker="diamond", color="#D55E00")
    return plot, marker
