"""The multi-head plate's fixed HTML: the layer's formula in MathML, the notes over the head maps
and beside the product, the tables' and notes' styles (none of it changes with the state)."""

from __future__ import annotations

# Seven columns in the 660 px beside the controls (a 1280 px screen): smaller type, and the
# rows' long names wrap; a count never does (issue 55, 3: "192 = 3·8²" took three lines).
# Where the table is wider than its box (a phone) the box scrolls, and its cut edge is shaded
# while more of the table lies beyond it: each edge has a shadow fixed to the box, and a cover
# of the page's colour that scrolls with the table and hides the shadow once that end is in
# sight (the shadow's grey reads on the light and the dark page alike).
PARAMS_CSS = """
.ae-wt { font-size: 12.5px; }
.ae-wt th, .ae-wt td { padding: 3px 3px; }
.ae-wt tbody th { white-space: normal; min-width: 6.5em; }
.ae-wt-box {
  background:
    linear-gradient(to right, #ffffff 40%, rgba(255, 255, 255, 0)) left / 28px 100% no-repeat local,
    linear-gradient(to left, #ffffff 40%, rgba(255, 255, 255, 0)) right / 28px 100% no-repeat local,
    linear-gradient(to right, #57606a99, #57606a00) left / 14px 100% no-repeat scroll,
    linear-gradient(to left, #57606a99, #57606a00) right / 14px 100% no-repeat scroll;
}
"""

CSS = """
.ae-mh-summary { font-size: 14px; line-height: 1.45; color: #1f2328; }
.ae-mh-message { font-size: 14px; color: #6e4b00; background: #fff8e5; border: 1px solid #e6c46a;
  border-radius: 4px; padding: 4px 8px; }
.ae-mh-message:empty { display: none; }
.ae-mh-note { font-size: 13px; color: #57606a; line-height: 1.4; }
.ae-mh-head { font-size: 14px; color: #1f2328; margin-top: 6px; }
"""

# The layer's formula in two parts, so that on a phone the second wraps under the first.
FORMULA_1 = (
    "<mrow><mtext>MultiHead</mtext><mo>(</mo><mi>X</mi><mo>)</mo><mo>=</mo><mtext>Concat</mtext><mo>(</mo>"
    "<msub><mtext>head</mtext><mn>1</mn></msub><mo>,</mo><mo>…</mo><mo>,</mo><msub><mtext>head</mtext><mi>h</mi></msub>"
    "<mo>)</mo><mspace width='0.2em'/><msub><mi>W</mi><mi>O</mi></msub><mo>,</mo></mrow>"
)
FORMULA_1_LABEL = "MultiHead of X equals Concat of head 1 to head h, times W O"
FORMULA_WIDTHS = (
    "<mrow><msub><mi>d</mi><mi>k</mi></msub><mo>=</mo><msub><mi>d</mi><mi>v</mi></msub><mo>=</mo>"
    "<msub><mi>d</mi><mtext>model</mtext></msub><mo>/</mo><mi>h</mi></mrow>"
)
FORMULA_WIDTHS_LABEL = "d k equals d v equals d model over h"
# Side by side where they fit (the gap is the space the one-line formula had), one under the
# other on a phone, where the formulas also take a smaller size.
FORMULA_CSS = """
.ae-mh-formulas { display: flex; flex-wrap: wrap; align-items: baseline; column-gap: 1.2em; }
@media (max-width: 480px) { math[display=block] { font-size: 1.1em; } }
"""
FORMULA_2 = (
    "<mrow><msub><mtext>head</mtext><mi>i</mi></msub><mo>=</mo><mtext>softmax</mtext><mo>(</mo><mfrac>"
    "<mrow><mi>X</mi><msubsup><mi>W</mi><mi>Q</mi><mi>i</mi></msubsup><mspace width='0.1em'/><msup><mrow><mo>(</mo>"
    "<mi>X</mi><msubsup><mi>W</mi><mi>K</mi><mi>i</mi></msubsup><mo>)</mo></mrow><mi>T</mi></msup></mrow>"
    "<msqrt><msub><mi>d</mi><mi>k</mi></msub></msqrt></mfrac><mo>)</mo><mspace width='0.2em'/><mi>X</mi>"
    "<msubsup><mi>W</mi><mi>V</mi><mi>i</mi></msubsup></mrow>"
)
FORMULA_2_LABEL = ("head i equals softmax of X W Q i times the transpose of X W K i, over the square root of d k, "
                   "times X W V i")

HEADS_HEAD = ("<div class='ae-mh-head'><b>Each head's weights.</b> Row = the token reading, column = the token "
              "it reads; every row sums to 1. Each head divides its scores by √d_k, the root of its own width. "
              "Hover a cell for its arithmetic.</div>")
READING = ("<div class='ae-mh-note'><b>Reading the product.</b> output[t, c] is concat's row t times W_O's "
           "column c: side by side, the cell sits where that row and that column meet (a phone stacks the "
           "three maps, concat first). The heavy lines cut concat into the "
           "heads' blocks, and W_O into the rows each block multiplies. Blue is negative, purple positive.</div>")

