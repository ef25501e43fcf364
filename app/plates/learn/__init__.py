"""Plate 7, "A head that learns" (slug "learn"): one attention head trained by gradient descent.

What it teaches: a head learns where to look through the gradient of a loss, and what it can
learn depends on its maps. The toy task (attention_core.training): six one-hot tokens, V = X,
and every token must attend to the next one, i to (i + 1) mod 6, an asymmetric relation. With
separate W_Q and W_K the head learns it (the weights move from a near-uniform 1/6 onto the
shifted diagonal and the loss falls toward 0); with one shared map, or Q = K = X, the score
matrix is symmetric and cannot hold it (from seed 0 the shared map stops near loss 0.78). A
large initial scale saturates the softmax and the gradient dies (init_scale 30: norm 5e-8, and
plain gradient descent never moves); at d_k = 64 the division by √d_k decides whether a run
from a large start learns.

Open it: `attention-explorable serve` then http://localhost:5006/learn, or
`attention-explorable export OUTDIR --plate learn` for one offline HTML file (it trains without
Python), or in Jupyter `from app.plates.learn import LearnPlate; LearnPlate(step=300)`
(then `plate.state.apply_preset("one-map")`).

The state is a link: the settings (lr, optimizer, d_k, scaled, tie, init_scale, seed 0..15) and
the step count (0..2000). ?step=300 replays the run from its seed to step 300: Python with
attention_core.train (data.replay, cached per setting so a page that pauses again only costs the
new steps), an exported page with learn.js through AELink.apply_plate and LearnLive.url_apply.

The browser trains: learn.js builds the start from each seed's standard normal draws, which
the page carries ("init_normals"; the browser cannot reproduce NumPy's generator, and
init_state's weights are exactly those draws times init_scale / √8), steps with mirror.js's
train_step at 30, 60 or 250 steps a second, and repaints every chart each animation frame.
Training leads the sync protocol (AESync.lead); Pause, One step, Reset, a story or a setting
commits the settings and the step ("run"), and Python answers with its replay, which replaces
the page's numbers (they agree to 1e-9 relative; the tests hold them to it).

The package: state.py (LearnState, the bounds, the stories), data.py (the replay and every
source and text, from attention_core), view.py (LearnPlate: the Bokeh models and the sync),
learn.js (the training loop and the same numbers in the browser), text.md (the words).

Named models (Bokeh.documents[0].get_model_by_name(NAME)):
  sources  "train_loss" (step, loss, y: the loss at every step so far; y is what the log chart
           draws), "grad_norm" (step, value, y), "learned_weights" (i, j, weight, text: the
           attention weights now, T × T row by row), "target_weights" (i, j, weight, text),
           "w_q", "w_k" (r, c, value: the maps as the head uses them, d_model × d_k), "qk" (r, c,
           value: W_Q W_Kᵀ), "readout" (step, loss, grad_norm, asymmetry, min_target_mass),
           "rendered" (the state the numbers are for), "run" (step: what the page sends),
           "init_normals" (s0..s15: each seed's draws), "sync" (its tags hold "busy" while the
           page trains or leads a run of changes).
  widgets  "train" (Train / Pause), "one_step", "reset", "speed", "story_one_map",
           "story_two_maps", "story_saturated", "story_dk64_scaled", "story_dk64_raw", "lr",
           "optimizer", "d_k", "scaled", "tie", "init_scale", "seed".
  others   "readout_div", "story", "message" (Divs); figures "loss_plot", "grad_plot",
           "weights_plot", "target_plot", "wq_plot", "wk_plot", "qk_plot".
"""

from app.plates.learn.state import LearnState
from app.plates.learn.view import LearnPlate

__all__ = ["LearnPlate", "LearnState"]
