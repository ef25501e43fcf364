"""The learn plate's scenes for a lecture (app/shared/scenes.py); their titles are in text.md.

A weight map's 36 numbers need cells of about 42 px at a slide's 18 px: the one scene with the
maps shows them and the Train button alone; the others show the run's numbers and its charts."""

from app.shared.scenes import Scene

# A still picture's words where the page's ask a hand to act (?still=1, `attention-explorable figure`):
# a story's words tell the reader to press Train.
STILL = {"story": None}

_RUN = ("train", "readout_div")  # the scenes of a run: Train, and the run's numbers
_WIDE = {"readout_div": (1, None)}

SCENES = (
    Scene("task", parts=("weights_plot", "target_plot", "train"),
          sizes={"weights_plot": (0.5, 0.9), "target_plot": (0.5, 0.9)}),
    Scene("loss", parts=("loss_plot", "reset", *_RUN), main=("readout_div",),
          sizes={"loss_plot": (1, 0.62), **_WIDE}),
    Scene("one-map", parts=("story_one_map", "story_two_maps", "loss_plot", *_RUN), main=("readout_div",),
          sizes={"loss_plot": (1, 0.54), **_WIDE}),
    Scene("saturated", parts=("story_saturated", "loss_plot", "grad_plot", *_RUN), main=("readout_div",),
          sizes={"loss_plot": (0.5, 0.54), "grad_plot": (0.5, 0.54), **_WIDE}),
    Scene("scale", parts=("story_dk64_scaled", "story_dk64_raw", "loss_plot", *_RUN), main=("readout_div",),
          sizes={"loss_plot": (1, 0.54), **_WIDE}),
)
