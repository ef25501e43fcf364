"""Writes voila_app.ipynb (kept in the repository; rerun this only to change the notebook)."""
import json
from pathlib import Path

CODE = '''import numpy as np
import ipywidgets as W
from IPython.display import display

# The minimal soft-lookup app in Voila + ipywidgets, for `make bench-peers`. Same numbers as the
# plate: five keys of length 2 at 0, 70, 150, 225 and 300 degrees, values 10..50, the query at 40
# degrees with length 1.5. Two sliders (ipywidgets defaults: continuous_update), five bars, the
# weighted average as text, recomputed in the kernel on every change.
KEY_ANGLES = np.radians([0.0, 70.0, 150.0, 225.0, 300.0])
KEYS = 2.0 * np.stack([np.cos(KEY_ANGLES), np.sin(KEY_ANGLES)], axis=1)  # (5, 2)
VALUES = np.array([10.0, 20.0, 30.0, 40.0, 50.0])  # (5,)
NAMES = [f"k{j + 1}" for j in range(5)]

angle = W.FloatSlider(value=40.0, min=0.0, max=360.0, step=1.0, description="Query angle")
length = W.FloatSlider(value=1.5, min=0.1, max=5.0, step=0.05, description="Query length")
angle.add_class("bench-angle")
bars = [W.FloatProgress(value=0.0, min=0.0, max=1.0, description=n, orientation="vertical") for n in NAMES]
text = W.HTML()
text.add_class("bench-output")


def update(_=None):
    a = np.radians(angle.value)
    q = length.value * np.array([np.cos(a), np.sin(a)])  # (2,)
    s = KEYS @ q  # (5,)
    e = np.exp(s - s.max())
    w = e / e.sum()  # (5,)
    out = float(w @ VALUES)
    win = int(np.argmax(w))
    for b, x in zip(bars, w):
        b.value = float(x)
    text.value = f"output = {out:.2f} · hard lookup: {VALUES[win]:.0f} (k{win + 1}) · plain average: 30"


angle.observe(update, "value")
length.observe(update, "value")
update()
display(W.VBox([W.HBox(bars), text, angle, length]))
'''

nb = {
    "cells": [{"cell_type": "code", "execution_count": None, "id": "lookup", "metadata": {}, "outputs": [],
               "source": CODE.splitlines(keepends=True)}],
    "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                 "language_info": {"name": "python"}},
    "nbformat": 4, "nbformat_minor": 5,
}
Path(__file__).with_name("voila_app.ipynb").write_text(json.dumps(nb, indent=1) + "\n", encoding="utf-8")
