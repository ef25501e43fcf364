"""Plate 6, "Heads share the width" (multi-head attention), slug "multi-head".

What it teaches: multi-head attention cuts the model width d_model into h equal slices. Each
head has its own query, key and value maps (column slices of three full d_model × d_model
maps), attends at width d_k = d_v = d_model / h and divides its scores by √d_k, its own
width's root. The h head outputs are joined side by side (n × d_model) and mixed by W_O. The
split costs nothing: h heads hold 3·d_model² numbers between them, as one full-width head
does; only W_O adds d_model². In the paper's setting (d_model 512, 8 heads of 64): 32,768 per
map per head, 786,432 = 3·512² for the heads, 262,144 for W_O, 1,048,576 in all, divisor 8.

Open it: `attention-explorable serve` then http://localhost:5006/multi-head, or
`attention-explorable export OUTDIR --plate multi-head` for one offline HTML file, or in
Jupyter `from app.plates.multi_head import MultiHeadPlate; MultiHeadPlate()` (then
`plate.h = 4`).

The inputs follow one seeded recipe (attention_core.multi_head_recipe): rng =
default_rng(0); Wq, Wk, Wv, Wo = rng.normal(size=(4, d, d)) / √d; X = rng.normal(size=(n, d)).
The heat maps are computed at d_model 4, 8 or 16. d_model = 512 is there for the counter: the
parameter table and the divisors show 512, while the heat maps stay at d_model = 16 (a
512 × 512 W_O would be 262,144 cells), and the page says so. A number of heads that does not
divide d_model (8 heads at width 4) is refused with a message, and nothing else changes.

Changing d_model, h or n recomputes in the browser (multi_head.js with mirror.js's
multi_head_attention, split_heads, merge_heads, head_scores and param_counts, on the recipe's
matrices embedded in the page), so it works in the exported file; a served page then gets
attention_core's numbers from Python (the authority).

The package: state.py (MultiHeadState, its URL fields, the choices and the rule that h divides
d_model), data.py (what the page shows, from attention_core: the sources, the texts, the tables
and the recipes handed to the browser), layout.py (where the head maps go, the figures' sizes),
fixed_html.py (the formulas, the fixed notes and their styles), view.py (MultiHeadPlate: the Bokeh
models, the heat maps drawn with app/shared/heatmap.py and their colour ramps, and the sync),
multi_head.js (the same numbers in the browser at every change, with mirror.js), scenes.py (the
slides a lecture steps through with ?present=1: each head's weights, the heads joined, the
divisors, the counter), text.md (the words).

On a slide (a link with present=1 or embed=1: MultiHeadState.slide) the head maps are the first
two heads' in one row, titled "head 1 of 8" when there are more: eight maps of numbers at a
slide's type would fit no frame, and a slide shows fewer things rather than smaller numbers. Their
room there is two maps of n tokens whatever h is, so that a click on h in a scene resizes nothing.

Named models (Bokeh.documents[0].get_model_by_name(NAME)):
  sources  "head_weights" (head, i, j, value, text, x, y, score, scaled, tip): every head's
           n × n weights; "concat" (i, c, value, text, x, y, head, tip): the joined head
           outputs, n × d_model; "w_o" (r, c, value, text, x, y, tip); "mh_output" (i, c, value,
           text, x, y, tip): concat @ W_O; "params" (one row per count: row, shape, per_head,
           heads, total, paper_per_head, paper_total and their *_text); "divisors" (head, d_k,
           divisor, text, label); "setting" (d_model, h, n, width: the step the page shows);
           "screen" (room: a phone's width for a figure, sent by the browser); "sync" (its tags
           hold "busy" while the page leads a run of changes).
  widgets  "d_model" (Select), "h" (RadioButtonGroup, active = index in 1, 2, 4, 8) with its title
           "h_label" (Div), "n" (Slider).
  labels   "head_titles", "head_ticks", "concat_marks", "concat_lines", "w_o_marks", "w_o_lines",
           "output_marks" (x, y, text or x0, y0, x1, y1).
  others   "message" (Div, refusals), "summary" (Div), "reading" (Div), "heads_note" (Div),
           "formulas" (Div, MathML), tables "params_table" and "divisors_table", figures "head_maps",
           "concat_map", "w_o_map", "output_map".
A link's settings (?d_model=16&h=8&n=3) are read by MultiHeadState.apply_url when served and by
app/runtime/link.js with MultiHeadLive.url_apply in an exported file, with the same rules and
notices.
"""

from app.plates.multi_head.state import MultiHeadState
from app.plates.multi_head.view import MultiHeadPlate

__all__ = ["MultiHeadPlate", "MultiHeadState"]
