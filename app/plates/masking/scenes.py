"""The masking plate's scenes for a lecture (app/shared/scenes.py); their titles are in text.md.

Every cell of a heat map holds its number at the slide's type for every n up to 8, so a scene shows
two maps at most. The weights (and the outputs) masked before the softmax and zeroed after it are
two figures of which the plate shows one: a scene that shows the weights names the pair
("weights_maps"), so that whichever the contrast switch chose is on screen, and leaves their size
to the fit, so that both are drawn at the same size; the scenes that show them have no main
numbers, as the figure the switch brings in would not be at the main size. The plate's notes stay
out of the scenes: a tap or a switch adds a paragraph to them, and the fit of the scene on screen
would not make room for it.
"""

from app.shared.scenes import Scene

SCENES = (
    Scene("mask", parts=("kind", "mask_plot"), main=("mask_plot",),
          sizes={"kind": (0.6, None), "mask_plot": (0.75, 0.85)}),
    Scene("scores", parts=("mask_plot", "scores_plot"), main=("scores_plot",),
          sizes={"mask_plot": (0.36, 1), "scores_plot": (0.62, 1)}),
    # The weights' width is the plate's own times the fit's factor: the mask's share is chosen small
    # enough that the factor gives the weights two thirds of the slide.
    Scene("tap", parts=("mask_plot", "weights_maps", "weights_plot"), sizes={"mask_plot": (0.15, None)}),
    Scene("zeroed", parts=("contrast", "weights_maps", "weights_plot", "output_maps", "output_plot")),
    Scene("three-numbers", parts=("demo_intro", "demo_table"), main=("demo_table",),
          sizes={"demo_intro": (1, None), "demo_table": (1, None)}),
)
