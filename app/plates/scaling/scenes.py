"""The scaling plate's scenes for a lecture (app/shared/scenes.py); their titles are in text.md.

In the order text.md tells it: raw dot products spread like √d_k (the histogram and the variance
formula); divided by √d_k the weights stay put while raw ones run to one-hot (the flat line); a
softmax that close to one-hot (softmax([8, 0, −8]) beside softmax([1, 0, −1])) passes almost no
gradient (the Jacobian and its formula). The entropy chart is left to the page.
"""

from app.shared.scenes import Scene

# The width slider's box is as tall as its handle, which present mode enlarges with the type:
# with the plate's own height the handle would hang over the figure's title below it.
SLIDER = (0.4, 0.13)
# The checkbox's label at a slide's type is wider than the page's 190 px box.
CHECK = (0.4, None)

SCENES = (
    Scene("spread", parts=("histogram_plot", "formula_variance", "d_k", "scaled"), main=("histogram_plot",),
          sizes={"histogram_plot": (1, 0.6), "formula_variance": (1, None), "d_k": SLIDER, "scaled": CHECK}),
    Scene("flat", parts=("flat_plot", "d_k", "scaled"), main=("flat_plot",),
          sizes={"flat_plot": (1, 0.8), "d_k": SLIDER, "scaled": CHECK}),
    Scene("saturate", parts=("contrast_plot",), main=("contrast_plot",),
          sizes={"contrast_plot": (1, 1)}),
    Scene("gradient", parts=("jacobian_plot", "formula_jacobian", "d_k", "scaled"), main=("jacobian_plot",),
          sizes={"jacobian_plot": (0.75, 0.62), "formula_jacobian": (1, None), "d_k": SLIDER, "scaled": CHECK}),
)
