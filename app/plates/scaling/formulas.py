"""The three formulas beside the contrast chart (MathML, with spoken alternatives): the variance of
q·k, the softmax Jacobian and the entropy's bound."""

from __future__ import annotations

from app.shared.mathml import formula_html

# A formula is set in a math font: its MATH table says how far a subscript drops. Bokeh's sheet
# gives every element of a Div `font-family: inherit`, which overrides the browser's own
# `math { font-family: math }`; in the text's sans-serif (no MATH table) Chromium drops a script
# only as far as its base's descent, so k_c and d_k read as "kc" and "dk".
FORMULAS_CSS = """
.ae-formulas { font-family: system-ui, sans-serif; font-size: 14px; color: #1f2328; }
.ae-formulas math, .ae-formulas math * { font-family: math; }
.ae-formulas math[display=block] { font-size: 1.2em; margin: 0.35em 0; }
.ae-formulas p { margin: 0.2em 0 0.6em; color: #57606a; }
"""

VARIANCE = ("<mrow><mtext>Var</mtext><mo>(</mo><mi>q</mi><mo>·</mo><mi>k</mi><mo>)</mo><mo>=</mo>"
            "<munderover><mo>∑</mo><mrow><mi>c</mi><mo>=</mo><mn>1</mn></mrow><msub><mi>d</mi><mi>k</mi></msub>"
            "</munderover><mtext>Var</mtext><mo>(</mo><msub><mi>q</mi><mi>c</mi></msub><msub><mi>k</mi><mi>c</mi>"
            "</msub><mo>)</mo><mo>=</mo><msub><mi>d</mi><mi>k</mi></msub></mrow>")
JACOBIAN = ("<mrow><mfrac><mrow><mo>∂</mo><msub><mi>α</mi><mi>i</mi></msub></mrow><mrow><mo>∂</mo>"
            "<msub><mi>s</mi><mi>j</mi></msub></mrow></mfrac><mo>=</mo><msub><mi>α</mi><mi>i</mi></msub>"
            "<mo>(</mo><msub><mi>δ</mi><mrow><mi>i</mi><mi>j</mi></mrow></msub><mo>−</mo><msub><mi>α</mi>"
            "<mi>j</mi></msub><mo>)</mo></mrow>")
ENTROPY = ("<mrow><mi>H</mi><mo>=</mo><mo>−</mo><munder><mo>∑</mo><mi>j</mi></munder><msub><mi>α</mi><mi>j</mi>"
           "</msub><mi>log</mi><msub><mi>α</mi><mi>j</mi></msub><mo>≤</mo><mi>log</mi><mi>M</mi></mrow>")


def formulas_html() -> str:
    return (
        "<div class='ae-formulas'>"
        + formula_html(VARIANCE, "the variance of q dot k is the sum over d_k products, which is d_k")
        + "<p>so raw scores spread like √d_k; dividing by √d_k gives spread 1.</p>"
        + formula_html(JACOBIAN, "d alpha i by d s j equals alpha i times delta i j minus alpha j")
        + "<p>near one-hot every entry is near 0: the gradient to the scores dies.</p>"
        + formula_html(ENTROPY, "H equals minus the sum of alpha j log alpha j, at most log M")
        + "<p>log M when uniform (mean-pooling), 0 when one-hot.</p></div>"
    )
