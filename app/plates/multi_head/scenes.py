"""The multi-head plate's scenes for a lecture (app/shared/scenes.py); their titles are in text.md."""

from app.shared.scenes import Scene

# A still picture's words where the page's ask a hand to act (?still=1, `attention-explorable figure`):
# the buttons' title names buttons a still picture does not have.
STILL = {"h_label": None}

SCENES = (
    Scene("heads", parts=("head_maps", "h_label", "h"), sizes={"head_maps": (1, 0.85)}),
    Scene("joined", parts=("concat_map", "h_label", "h")),
    Scene("divisors", parts=("divisors_table", "h_label", "h"), main=("divisors_table",)),
    Scene("count", parts=("params_table",), sizes={"params_table": (1, None)}),
)
