"""The self-attention plate's scenes for a lecture (app/shared/scenes.py); their titles are in text.md.

Every cell of a heat map holds its number at the slide's type in every state the plate can reach
(up to n = 8 tokens, and 8 × 10 with cross-attention), so a scene shows one map, or two narrow
ones, never the whole table. A slider's share of the height holds its handle, which present mode
draws larger than the slider's own box; a button's share of the width holds its label.
"""

from app.shared.scenes import Scene

SCENES = (
    Scene("one-row", parts=("worked", "worked_map"), main=("worked_map",),
          sizes={"worked": (1, None), "worked_map": (1, 0.62)}),
    Scene("scores", parts=("n", "scores_map"), main=("scores_map",),
          sizes={"n": (0.3, 0.15), "scores_map": (1, 0.85)}),
    Scene("weights", parts=("cross", "weights_map"), main=("weights_map",),
          sizes={"weights_map": (1, 0.88)}),
    Scene("shuffle", parts=("shuffle_button", "order", "output_map", "original_map", "check_readout"),
          main=("check_readout",),
          sizes={"shuffle_button": (0.25, None), "order": (1, None), "output_map": (0.31, 0.74), "original_map": (0.31, 0.74),
                 "check_readout": (0.37, None)}),
    Scene("positions", parts=("positions", "shuffle_button", "output_map", "diff_map", "check_readout"),
          main=("check_readout",),
          sizes={"shuffle_button": (0.25, None), "output_map": (0.31, 0.8), "diff_map": (0.31, 0.8), "check_readout": (0.37, None)}),
)
