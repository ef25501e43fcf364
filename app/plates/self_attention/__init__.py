"""Plate 4, all tokens at once (self-attention; after "Attention: queries, keys, values", attention.py).

What it teaches: in self-attention every token makes its own query, key and value with three
maps (Q = X Wq, K = X Wk, V = X Wv), and all the tokens take their turn in one line of matrix
algebra, softmax(QKᵀ/√d_k) V. The plate shows the n × n table of scaled scores, the row-wise
softmax weights (each row sums to 1) and the output rows as heat maps with the numbers in the
cells; hovering a cell shows its arithmetic. Shuffling the tokens only shuffles the outputs
(permutation equivariance, the seed's `np.allclose(...)` check prints True); adding sinusoidal
position features to the tokens breaks that, and the check turns False with the difference
shown. A switch turns it into cross-attention: queries from X (N rows), keys and values from a
second sequence Y (M = N + 2 rows), and the tables become N × M.

Open it: `attention-explorable serve` then http://localhost:5006/self-attention, or
`attention-explorable export OUTDIR --plate self-attention` for one offline HTML file, or in
Jupyter `from app.plates.self_attention import SelfAttentionPlate; SelfAttentionPlate()`.

The numbers. The seed's recipe gives X and the three maps: rng = numpy.random.default_rng(0);
X = rng.normal(size=(5, 4)); Wq, Wk, Wv = rng.normal(size=(3, 4, 4)). For n ≠ 5 the plate keeps
those five rows and maps and takes rows 5..7 from numpy.random.default_rng(1).normal(size=(8, 4))
(n < 5 uses the first n rows). Y is numpy.random.default_rng(2).normal(size=(10, 4)), first M rows.
Shuffle #0 is the original order, #1 the seed's perm [3, 0, 4, 1, 2] (for n = 5; for other n a
seeded permutation), #k the first non-identity draw of numpy.random.default_rng([n, k]).permutation(n).
Python computes these once and hands them to the browser as data.

The package: state.py (SelfAttentionState, its URL fields, the seed's numbers and `compute`, every
number of one state from attention_core), data.py (what the page shows: the sources, axes and
texts, and the data the glue is handed), view.py (SelfAttentionPlate: the Bokeh models, the heat
maps drawn with app/shared/heatmap.py and coloured by app/shared/colours.py, and the sync),
self_attention.js (the same numbers in the browser at every change, with mirror.js), text.md (the
words).

Named models (tests and outside checks read them with Bokeh.documents[0].get_model_by_name):
  sources  "tokens" (i, c, value, text: the input rows fed in, X[perm] (+ PE)), "scores" (i, j,
           value, text), "weights" (i, j, value, text), "row_sums" (i, sum), "output" (i, c,
           value, text), "original_output" (i, c, value, text: the output of the original
           order), "output_diff" (i, c, value, text: |self_attention(X)[perm] −
           self_attention(X[perm])|), "perm_check" (equal, max_diff, label, left, right, by),
           "worked_example" (j, weight) and "worked_output" (c, value); every cell's "label" is
           the number written in it
  widgets  "n", "shuffle", "shuffle_button", "original_button", "positions", "cross"
  divs     "order", "check_readout", "message"
  plots    "tokens_map", "scores_map", "weights_map", "output_map", "original_map", "diff_map",
           "worked_map"

Scenes for a lecture (scenes.py, titles in text.md): the seed's one-token turn as one row, the
scores, the weights (with the cross-attention switch), the shuffle beside the original order, and
the positions with the difference.

Every change (n, shuffle, positions, cross) is recomputed in the browser by self_attention.js
with AttentionMirror, so the page works in an exported file; on a served page Python recomputes
the same numbers with attention_core (the authority; the "perm_check" source's `by` column says
which computed what is shown) and keeps the URL in step.
"""

from app.plates.self_attention.state import SelfAttentionState
from app.plates.self_attention.view import SelfAttentionPlate

__all__ = ["SelfAttentionPlate", "SelfAttentionState"]
