"""`attention-explorable figure PLATE NAME=VALUE --out FILE.png|.svg`: the image has the size asked
for, and two states of the plate give two different pictures."""

from __future__ import annotations

import base64
import re
import struct
import subprocess
import sys

import pytest

from helpers import REPO

pytestmark = pytest.mark.browser


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", data[:8]
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def run_figure(*args: str) -> None:
    res = subprocess.run([sys.executable, "-m", "app", "figure", *args], cwd=REPO, capture_output=True, text=True,
                         timeout=300)
    assert res.returncode == 0, f"{res.stdout}\n{res.stderr}"


def test_png_and_svg_have_the_size_asked_and_differ_by_state(chromium_path, tmp_path):
    png, svg = tmp_path / "a.png", tmp_path / "b.svg"
    run_figure("lookup", "angle=40", "--out", str(png), "--width", "800", "--height", "450")
    run_figure("lookup", "angle=200", "length=4", "--out", str(svg), "--width", "800", "--height", "450")
    first = png.read_bytes()
    assert png_size(first) == (800, 450)
    text = svg.read_text(encoding="utf-8")
    assert re.search(r"<svg[^>]* width='800' height='450'", text), text[:200]
    second = base64.b64decode(re.search(r"base64,([A-Za-z0-9+/=]+)", text).group(1))
    assert png_size(second) == (800, 450)
    assert first != second, "two different states gave the same picture"


def test_bad_requests_get_a_message_and_no_file(tmp_path):
    out = tmp_path / "x.gif"
    res = subprocess.run([sys.executable, "-m", "app", "figure", "lookup", "--out", str(out)], cwd=REPO,
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 2 and ".png or .svg" in res.stderr and not out.exists()
    res = subprocess.run([sys.executable, "-m", "app", "figure", "lookup", "angle", "--out", str(tmp_path / "y.png")],
                         cwd=REPO, capture_output=True, text=True, timeout=120)
    assert res.returncode == 2 and "NAME=VALUE" in res.stderr


@pytest.mark.parametrize("setting, named", [
    ("angel=90", "unknown setting 'angel'"),       # a typo: the image would show the default angle
    ("angle=abc", "'angle=abc'"),
    ("length=999", "'length'"),                     # out of range: a link would clamp it
    ("theme=blue", "'theme=blue': expected light or dark"),
])
def test_a_setting_a_link_would_ignore_or_clamp_fails_with_its_name(tmp_path, setting, named):
    out = tmp_path / "z.png"
    res = subprocess.run([sys.executable, "-m", "app", "figure", "lookup", setting, "--out", str(out)], cwd=REPO,
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 2 and named in res.stderr and not out.exists(), res.stderr
    assert "This plate's settings: angle" in res.stderr, res.stderr  # what it accepts
