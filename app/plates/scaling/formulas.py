"""The three formulas beside the contrast chart (MathML, with spoken alternatives): the variance of
q·k, the softmax Jacobian and the entropy's bound, each in a Div of its own."""

from __future__ import annotations

from app.shared.mathml import formula_html

# A formula is set in a math font: its MATH table says how far a subscript drops and holds the
# large ∑. Bokeh's sheet gives every element of a Div `font-family: inherit`, which overrides the
# browser's own `math { font-family: math }`; in the text's sans-serif (no MATH table) Chromium
# drops a script only as far as its base's descent, so k_c and d_k read as "kc" and "dk". The
# math fonts of Windows, macOS and Linux are named first: Chromium's generic `math` alone took
# the ∑ from a text font here (Liberation Serif, no large variant).
FORMULAS_CSS = """
.ae-formulas { font-family: system-ui, sans-serif; font-size: 14px; color: #1f2328; }
.ae-formulas math, .ae-formulas math * {
  font-family: 'Cambria Math', 'STIX Two Math', 'Latin Modern Math', 'DejaVu Math TeX Gyre', math; }
.ae-formulas math[display=block] { font-size: 1.2em; margin: 0.35em 0; }
.ae-formulas p { margin: 0.2em 0 0.6em; color: #57606a; }
"""

# The sum runs over c = 1 … d_k, said in the line under it: limits stacked on the ∑ (d_k a script
# of a script) would be too small to read on a slide, and present mode, which sets every script
# at the slide's smallest type, would lay them over the ∑. Brackets keep their size: stretched to
# the ∑ or a fraction beside them, they outgrew what they hold.
OPEN, CLOSE = "<mo stretchy='false'>(</mo>", "<mo stretchy='false'>)</mo>"
VARIANCE = ("<mrow><mtext>Var</mtext>" + OPEN + "<mi>q</mi><mo>·</mo><mi>k</mi>" + CLOSE + "<mo>=</mo>"
            "<msub><mo largeop='true'>∑</mo><mi>c</mi></msub><mtext>Var</mtext>" + OPEN
            + "<msub><mi>q</mi><mi>c</mi></msub><msub><mi>k</mi><mi>c</mi></msub>" + CLOSE
            + "<mo>=</mo><msub><mi>d</mi><mi>k</mi></msub></mrow>")
JACOBIAN = ("<mrow><mfrac><mrow><mo>∂</mo><msub><mi>α</mi><mi>i</mi></msub></mrow><mrow><mo>∂</mo>"
            "<msub><mi>s</mi><mi>j</mi></msub></mrow></mfrac><mo>=</mo><msub><mi>α</mi><mi>i</mi></msub>" + OPEN
            + "<msub><mi>δ</mi><mrow><mi>i</mi><mi>j</mi></mrow></msub><mo>−</mo><msub><mi>α</mi><mi>j</mi></msub>"
            + CLOSE + "</mrow>")
ENTROPY = ("<mrow><mi>H</mi><mo>=</mo><mo>−</mo><munder><mo>∑</mo><mi>j</mi></munder><msub><mi>α</mi><mi>j</mi>"
           "</msub><mi>log</mi><msub><mi>α</mi><mi>j</mi></msub><mo>≤</mo><mi>log</mi><mi>M</mi></mrow>")


# name -> (formula, what a screen reader says, the line under it); each its own Div, so that a
# scene can show the one it teaches (app/plates/scaling/scenes.py).
FORMULAS = {
    "formula_variance": (VARIANCE, "the variance of q dot k is the sum over d_k products, which is d_k",
                         "a sum over the d_k entries c, each of variance 1: raw scores spread like √d_k; "
                         "dividing by √d_k gives spread 1."),
    "formula_jacobian": (JACOBIAN, "d alpha i by d s j equals alpha i times delta i j minus alpha j",
                         "near one-hot every entry is near 0: the gradient to the scores dies."),
    "formula_entropy": (ENTROPY, "H equals minus the sum of alpha j log alpha j, at most log M",
                        "log M when uniform (mean-pooling), 0 when one-hot."),
}


def formulas_html() -> dict[str, str]:
    """Each formula's Div text, by the Div's name."""
    return {name: f"<div class='ae-formulas'>{formula_html(math, label)}<p>{line}</p></div>"
            for name, (math, label, line) in FORMULAS.items()}
