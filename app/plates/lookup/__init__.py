"""Plate 1, soft lookup (after Vol. IV, Plate 2 "Queries, Keys and Values").

What it teaches: attention is a dictionary lookup that never fails. A query is compared with
five keys by dot product, a softmax turns the scores into weights that sum to one, and the
output is the weighted average of the values 10, 20, 30, 40 and 50, which sits between the
plain average (30) and the hard lookup (the best key's value). Lengthening the query sharpens
the lookup; the √d_k scale keeps that sharpness from growing with the width.

Open it: `attention-explorable serve` then http://localhost:5006/lookup, or
`attention-explorable export OUTDIR` for one offline HTML file, or in Jupyter
`from app.plates.lookup import LookupPlate; LookupPlate()`.

The package: state.py (LookupState, its URL fields), data.py (what the page shows, from
attention_core), view.py (LookupPlate: the Bokeh models and the sync), lookup.js (the same
numbers in the browser at every pointer move, with mirror.js), text.md (the words).

Named models (Bokeh.documents[0].get_model_by_name(NAME)):
  sources  "query" (x, y), "keys" (x, y, value, name), "weights" (key, value, weight, pct, score,
           scaled, weighted), "output" (value, label), "hard_lookup" (x, label)
  plots    "vectors" (the query and keys, dragged), "bars" (the weights), "scale" (the values,
           the output, the plain average and the hard lookup)
  widgets  "angle", "length", "d_k", "scaled", "reset"; divs "readout", "table"
"""

from app.plates.lookup.state import LookupState
from app.plates.lookup.view import LookupPlate

__all__ = ["LookupPlate", "LookupState"]
