"""Formulas as MathML: browsers render it natively (Chromium since 109), so it works offline.

Write the inner MathML by hand; `formula()` wraps it in a block <math> with a spoken label.
"""

from __future__ import annotations

import html

import panel as pn

ATTENTION = (
    "<mrow><mtext>Attention</mtext><mo>(</mo><mi>Q</mi><mo>,</mo><mi>K</mi><mo>,</mo><mi>V</mi><mo>)</mo>"
    "<mo>=</mo><mtext>softmax</mtext><mo>(</mo><mfrac><mrow><mi>Q</mi><msup><mi>K</mi><mi>T</mi></msup></mrow>"
    "<msqrt><msub><mi>d</mi><mi>k</mi></msub></msqrt></mfrac><mo>)</mo><mi>V</mi></mrow>"
)
SOFTMAX = (
    "<mrow><msub><mi>α</mi><mi>j</mi></msub><mo>=</mo><mfrac><mrow><mi>exp</mi><mo>(</mo><msub><mi>s</mi><mi>j</mi></msub>"
    "<mo>)</mo></mrow><mrow><munder><mo>∑</mo><mi>m</mi></munder><mi>exp</mi><mo>(</mo><msub><mi>s</mi><mi>m</mi></msub>"
    "<mo>)</mo></mrow></mfrac></mrow>"
)

CSS = "math[display=block] { font-size: 1.25em; margin: 0.4em 0; }"


def formula_html(inner: str, label: str) -> str:
    """A block formula with an aria-label that a screen reader speaks."""
    return f"<math display='block' aria-label='{html.escape(label, quote=True)}'>{inner}</math>"


def formula(inner: str, label: str, **kw) -> pn.pane.HTML:
    return pn.pane.HTML(formula_html(inner, label), stylesheets=[CSS], **kw)
