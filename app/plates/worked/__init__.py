"""Plate 2, one query's turn, step by step (after the worked examples of seeds 000, 003 and 004).

What it teaches: attention for one query is four small steps, and every number can be checked
by hand. The query is scored against each key (a dot product), the scores are scaled by 1/√d_k
(or not), exponentiated, normalised so they add to 1, and the values are averaged with those
weights. The table reveals one stage at a time (Step / Back), so the reader can first guess
which key wins and what the output will be; the page then says how close the guess was. The
presets carry the seeds' numbers (scores 2, 1, 0 giving 0.665 / 0.245 / 0.090 and 1.425; the
query [1, 2] giving [0.14, 0.284, 0.576] and [4.28, 5.72]; the four one-hot values giving
[0.059, 0.059, 0.895]). With 2-number keys and values two pictures appear: the keys with a
draggable query, and the values with their convex hull, which the output never leaves. The
query-length slider and curve show that a longer query picks more sharply.

Open it: `attention-explorable serve` then http://localhost:5006/worked, or
`attention-explorable export OUTDIR --plate worked` for one offline HTML file, or in Jupyter
`from app.plates.worked import WorkedPlate; WorkedPlate(preset="four-keys", step=5)`.

The package: state.py (WorkedState, its URL fields and the limits of the numbers), presets.py (the
seeds' examples), inputs.py (typed numbers and their messages), formatting.py (how numbers are
written), data.py (what the page shows, from attention_core: the sources, the table, the notes
and the feedback on the guesses), panels.py (the 2D pictures' views), view.py (WorkedPlate: the
Bokeh models and the sync), worked.js (the same numbers and words in the browser at every
keystroke, click and pointer move, with mirror.js), scenes.py (its scenes for a lecture), text.md
(the words).

Named models (read them with Bokeh.documents[0].get_model_by_name(NAME)):
  sources  worked_table (one row per key: key, k, score, scaled, exp, weight, value, weighted,
           value_i, weighted_i), worked_output (value or value_0.., exp_total, weight_total),
           query, keys, values (x, y, vec, name), hull (x, y), output_point (x, y),
           pulls (x0, y0, x1, y1, w), sweep (length, top, uniform), sweep_now (length, top)
  views    worked_table_view, output_view, stage_note, feedback, query_error, keys_error,
           values_error, guess_error, panel_note, sweep_note, keys_plot, values_plot, sweep_plot;
           query_box, keys_box, values_box (each text box with its message)
  widgets  preset, restore, scaled, query_text, keys_text, values_text, length, stage,
           step_back, step_next, guess_key, guess_output

The live path (worked.js with mirror.js) recomputes everything in the browser at every
keystroke, click and pointer move; view.py recomputes the same numbers with attention_core (the
authority) when a gesture or a run of changes ends, and pushes them.
"""

from app.plates.worked.state import WorkedState
from app.plates.worked.view import WorkedPlate

__all__ = ["WorkedPlate", "WorkedState"]
