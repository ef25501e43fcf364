"""Plate 5, masking: edit the scores, never the weights (after seed 004, "Masking: editing scores, never weights").

What it teaches: a mask decides which keys each query may use, and it belongs on the scores.
A blocked pair's scaled score becomes −∞, exp(−∞) = 0, and the softmax shares each row among
the keys that survive, so every row still sums to 1. Zeroing the weights after the softmax
instead (the contrast view) leaves rows summing to less than 1 and shrinks the outputs. A row
with no allowed key (seed 000's edge case, where a bare softmax would divide 0 by 0) gets zero
weights and a zero output, never NaN.

The tokens follow seed 003's attention.py: rng = default_rng(0), X = rng.normal(size=(n, 4)),
Wq, Wk, Wv = rng.normal(size=(3, 4, 4)), Q = X @ Wq and so on, so n = 5 is that file's sequence.

Open it: `attention-explorable serve` then http://localhost:5006/masking, or
`attention-explorable export OUTDIR --plate masking` for one offline HTML file, or in Jupyter
`from app.plates.masking import MaskingPlate; MaskingPlate(kind="padding", p=2)`.

Tap a cell of the mask to flip it (mouse or touch; a quick second tap flips again); choose none,
causal, padding or a sliding window; toggle the contrast. masking.js recomputes everything in the
browser with mirror.js at once, and the view recomputes with attention_core when the gesture ends
(the authority) and pushes what differs.

The package: state.py (MaskingState, its URL fields, seed 003's tokens for every n), data.py (what
the page shows, from attention_core: the sources, the notes and the checks), cells.py (how a heat
map's cell looks: fill, ink, signed numbers), demo.py (seed 000's three items, masked before and
zeroed after), view.py (MaskingPlate: the Bokeh models and the sync), masking.js (the same
numbers in the browser at every tap or key, with mirror.js; the link's p, w and cells), text.md
(the words).

Named models (Bokeh.documents[0].get_model_by_name(NAME)):
  sources  "mask" (i, j, allowed, text), "scores" (i, j, value, text; value -inf where blocked),
           "weights" (i, j, value, text), "row_sums" (i, sum, text), "output" (i, c, value, text),
           "contrast_weights", "contrast_row_sums", "contrast_output" (same columns), "norms"
           (i, before, after), "checks" (check, ok, detail), "sync" (the busy mark, no data)
  plots    "mask_plot", "scores_plot", "weights_plot", "contrast_weights_plot", "output_plot",
           "contrast_output_plot", "norms_plot"; rows "weights_maps" and "output_maps" (each the
           pair of which the contrast switch shows one)
  widgets  "n", "kind", "p", "w", "causal_window", "contrast", "reset"; divs "notes", "checks_table"
           (the checks' table), "formula", "demo_intro" and "demo_table" (seed 000's three items,
           masked before and zeroed after)

Scenes for a lecture (scenes.py, titles in text.md): the mask, the −∞ scores, a tap with the
weights beside it, the weights zeroed after the softmax, and seed 000's rule in three numbers.
"""

from app.plates.masking.state import MaskingState
from app.plates.masking.view import MaskingPlate

__all__ = ["MaskingPlate", "MaskingState"]
