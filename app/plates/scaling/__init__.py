"""Plate 3, why divide by √d_k (slug "scaling"; after seed 003's scaling.py, seed 000's flat-line
chart and seed 004's softmax Jacobian and entropy).

What it teaches: a dot product of two random vectors with d_k unit-variance entries has a
spread of √d_k, so raw attention scores grow with the width; large score gaps push the softmax
to a one-hot choice, where its Jacobian α_i(δ_ij − α_j) is nearly zero and the queries and keys
stop learning. Dividing by √d_k brings the spread back to 1 at every width: three items with
raw scores √d·[2, 1, 0] keep the weights 0.665, 0.245, 0.090 whatever d is.

Open it: `attention-explorable serve` then http://localhost:5006/scaling, or
`attention-explorable export OUTDIR --plate scaling` for one offline HTML file, or in Jupyter
`from app.plates.scaling import ScalingPlate; ScalingPlate(d_k=256, scaled=True)`.

Controls: the width slider (log2 d_k, 0..10, so d_k = 1, 2, 4, ..., 1024), the "Divide scores
by √d_k" box, Reset, and a drag or click on the flat-line or entropy chart, which moves the
width to the nearest power of two. A link's settings (?d_k=256&scaled=1; any d_k is snapped to
the nearest power of two, with a notice) are read by ScalingState.apply_url when served and by
app/runtime/link.js with scaling.js's url_parse in an exported file, with the same rules and
notices. scaling.js recomputes every view in the browser at each change (mirror.js: flat_line,
softmax_jacobian, entropy, normal_density); Python recomputes the same numbers with
attention_core when a change reaches it (the authority).

The histogram is precomputed, not mirrored. Its 10,000 samples come from NumPy's
default_rng(0) exactly as seed 003 draws them (all queries, then all keys, then (q*k).sum(1)),
and NumPy's generator cannot be reproduced bit for bit in the browser. So Python bins the
samples for every allowed width, raw and scaled, with attention_core, and ships the counts in
the "histogram_table" source (11 widths × 2 × 60 bins); the browser only picks rows from it.

The package: state.py (ScalingState, its URL fields, the seeded samples and their bins),
data.py (what the page shows, from attention_core), formatting.py (how its numbers are
written), formulas.py (the MathML beside the contrast chart), view.py (ScalingPlate: the Bokeh
models and the sync), scaling.js (the same numbers in the browser at every change, with
mirror.js), scenes.py (its scenes for a lecture), text.md (the words).

Named models (read them with Bokeh.documents[0].get_model_by_name(NAME)):
- sources: "histogram" (left, right, count: the current bins), "density" (x, pdf, y: the
  N(0, d_k) or N(0, 1) curve, y in samples per bin), "histogram_table" (d, scaled, left, right,
  count: every width's bins), "std_table" (d, unscaled, scaled: the samples' std),
  "flat_scaled" and "flat_unscaled" (d, w0, w1, w2 on 101 widths 2^(k/10), every power of two
  among them), "flat_current" (d, w, label, color: the current width's three weights),
  "jacobian" (i, j, value, label: the 3×3 Jacobian of the current weights), "entropy" (d,
  scaled, unscaled, log_m), "entropy_current" (d, h, label), "contrast" (x, case, item, score,
  weight, label: softmax([8, 0, −8]) and softmax([1, 0, −1]), printed as seed 003 prints them),
  "contrast_jacobian" (case, largest, label, x, y), "rendered" (d_k, scaled: the state Python
  computed its answer for; pushed before the numbers, so the page can tell a late answer),
  "sync" (its tags say "busy" while the page leads a gesture);
- widgets and views: "d_k" (Slider over log2 d_k), "scaled" (CheckboxGroup), "reset",
  "readout", "formula_variance", "formula_jacobian" and "formula_entropy" (Divs), "std_label"
  (Label on the histogram), "flat_label" (Label: the weights at the chosen width),
  "jacobian_max" (Label), plots "histogram_plot", "flat_plot", "jacobian_plot", "entropy_plot",
  "contrast_plot", spans "flat_span" and "entropy_span".
"""

from app.plates.scaling.state import ScalingState
from app.plates.scaling.view import ScalingPlate

__all__ = ["ScalingPlate", "ScalingState"]
