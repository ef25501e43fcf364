"""`attention-explorable figure PLATE NAME=VALUE --out FILE.png|.svg [--figures]`: the image has the
size asked for, an SVG is a vector drawing whose numbers are attention_core's, two states give two
pictures, and --figures gives the figures alone, cropped to them."""

from __future__ import annotations

import html
import re
import struct
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from app.plates.lookup.state import LookupState
from app.plates.masking.state import MaskingState

from helpers import REPO

pytestmark = pytest.mark.browser


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", data[:8]
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def run_figure(*args: str) -> None:
    """The command line's own main, in this process (a fresh interpreter would spend seconds
    importing Panel and Bokeh again), in a thread of its own: Playwright's sync API cannot start
    in a thread where this worker's browser already runs an event loop."""
    from app import cli

    with ThreadPoolExecutor(1) as pool:
        code = pool.submit(cli.main, ["figure", *args]).result(timeout=300)
    assert code == 0, code


def svg_texts(text: str) -> list[str]:
    return [html.unescape(t).strip() for t in re.findall(r"<text[^>]*>([^<]*)</text>", text)]


def test_png_and_svg_have_the_size_asked_and_differ_by_state(chromium_path, tmp_path):
    png, svg = tmp_path / "a.png", tmp_path / "b.svg"
    run_figure("lookup", "angle=40", "--out", str(png), "--width", "800", "--height", "450")
    run_figure("lookup", "angle=200", "length=4", "--out", str(svg), "--width", "800", "--height", "450")
    assert png_size(png.read_bytes()) == (800, 450)
    text = svg.read_text(encoding="utf-8")
    assert re.search(r'<svg[^>]* width="800" height="450"', text), text[:200]
    # A vector drawing (issue 43, 4.4), not a picture inside an <svg>: the bars are paths and their
    # labels text, and they are attention_core's weights for this state.
    assert "<path" in text and not re.search(r"<image[^>]*width=\"(800|[2-9]\d\d)\"", text)
    weights = LookupState(angle=200.0, length=4.0).steps().weight  # (5,)
    labels = svg_texts(text)
    for w in weights:
        assert f"{100 * w:.1f}%" in labels, (f"{100 * w:.1f}%", labels)


def test_the_figures_alone_for_a_slide(chromium_path, tmp_path):
    """--figures: every figure and nothing else, cropped to them (issue 43, 4.4)."""
    png, svg = tmp_path / "f.png", tmp_path / "f.svg"
    run_figure("masking", "--figures", "--out", str(png))
    run_figure("masking", "--figures", "--out", str(svg))
    w, h = png_size(png.read_bytes())
    text = svg.read_text(encoding="utf-8")
    sw, sh = (float(v) for v in re.search(r'<svg[^>]* width="([\d.]+)" height="([\d.]+)"', text).groups())
    assert (w, h) == (round(sw), round(sh)), ((w, h), (sw, sh))
    assert w < 1280 and h < 720 / 2, (w, h)  # cropped to the figures: no controls, no white space
    # Every figure of the plate is in it: five drawings, each with its title, and the weights'
    # cells are attention_core's (the default: causal mask, n = 5), with their row sums.
    labels = svg_texts(text)
    assert text.count("<svg") == 1 + 5, text.count("<svg")
    for title in ("Mask M", "Scores", "Weights", "Output", "Length"):
        assert any(t.startswith(title) for t in labels), (title, labels[:20])
    weights = MaskingState().steps().weights  # (5, 5)
    for w_ij in weights[np.tril_indices(5)]:
        assert f"{w_ij:.2f}" in labels, (f"{w_ij:.2f}", labels)
    for total in MaskingState().steps().row_sums:
        assert f"{total:.3f}" in labels, (f"{total:.3f}", labels)


def refused(capsys, *args: str) -> str:
    """The figure command run in this process (the command line's own main, as `python -m app`
    calls it): it must refuse with exit code 2; what it wrote to stderr."""
    from app import cli

    capsys.readouterr()
    assert cli.main(["figure", *args]) == 2
    return capsys.readouterr().err


def test_bad_requests_get_a_message_and_no_file(tmp_path, capsys):
    out = tmp_path / "x.gif"
    # Once through a real process: the exit code and stderr a shell sees.
    res = subprocess.run([sys.executable, "-m", "app", "figure", "lookup", "--out", str(out)], cwd=REPO,
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 2 and ".png or .svg" in res.stderr and not out.exists()
    assert "NAME=VALUE" in refused(capsys, "lookup", "angle", "--out", str(tmp_path / "y.png"))
    assert not (tmp_path / "y.png").exists()


@pytest.mark.parametrize("setting, named", [
    ("angel=90", "unknown setting 'angel'"),       # a typo: the image would show the default angle
    ("angle=abc", "'angle=abc'"),
    ("length=999", "'length'"),                     # out of range: a link would clamp it
    ("theme=blue", "'theme=blue': expected light or dark"),
])
def test_a_setting_a_link_would_ignore_or_clamp_fails_with_its_name(tmp_path, capsys, setting, named):
    out = tmp_path / "z.png"
    err = refused(capsys, "lookup", setting, "--out", str(out))
    assert named in err and not out.exists(), err
    assert "This plate's settings: angle" in err, err  # what it accepts
