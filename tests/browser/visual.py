"""Screenshots of every plate at two sizes (a desk and a phone), its thumbnail, and how two screenshots are compared.

`make screenshots` runs this file: it exports every plate, opens each exported file in headless
Chromium at 1280×720 and 390×844 (a phone: touch, mobile), and writes full-page PNGs to
tests/browser/references/ (the visual test's references) and the first 1280×720 of the wide one
to assets/screenshots/<slug>.png (the plate's thumbnail on the index and in the README); look at
them, then commit them. `--plate SLUG` and `--size WxH` (each repeatable; `make screenshots
SHOTS_ARGS=...`) renew only those. test_visual.py takes fresh screenshots the same way and
compares them with `difference`.

Deterministic: the exported page (no server), its default state, a fixed viewport and scale,
no caret, animations or transitions, and the shot is taken only once Bokeh is idle and the
layout has stopped moving.
"""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REFERENCES = HERE / "references"
# A desk's 1920x1080 is not among them: the plates' layout there is the 1280 one with room to
# its right (nothing in the product lays a page out for a wider window; the references were
# pixel for pixel the same height but for masking's, which fills the taller window), and
# tests/browser/test_screens.py holds every plate to that width.
SIZES = {"1280x720": {"viewport": {"width": 1280, "height": 720}},
         "390x844": {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}}
THUMBNAIL_SIZE = "1280x720"  # the thumbnail is this shot's first screenful

# Calibrated in test_visual.py: a rerun differs in well under 0.1 % of pixels; a hidden figure
# or a 40 px shift changes several percent.
PIXEL_STEP = 40 / 255  # a pixel differs when its blurred grey level moves more than this
MAX_DIFFERING = 0.005  # fraction of pixels allowed to differ

STILL = "*, *::before, *::after { caret-color: transparent !important; animation: none !important; " \
        "transition: none !important; }"

# A few animation frames: what a change asked for has been painted.
FRAMES = ("() => new Promise((done) => { let n = 5; const f = () => (--n ? requestAnimationFrame(f) : done()); "
          "requestAnimationFrame(f); })")

SETTLED = r"""() => {
  if (!window.Bokeh || !Bokeh.documents || !Bokeh.documents.length || !Bokeh.documents[0].is_idle) return false;
  if (document.readyState !== "complete") return false;
  const figs = Array.from(Bokeh.documents[0].all_models).filter((m) => m.type === "Figure" && m.visible);
  if (!figs.every((m) => { const v = Bokeh.index.find_one(m); return v && v.canvas_view && v.canvas_view.el.getAttribute("role") === "img"; }))
    return false;
  // The layout has settled: the page's size has not changed for a few frames.
  const key = document.documentElement.scrollWidth + "x" + document.documentElement.scrollHeight;
  const s = window.__ae_still || (window.__ae_still = {key: null, n: 0});
  if (s.key === key) s.n += 1; else { s.key = key; s.n = 0; }
  return s.n >= 10;
}"""


def shoot(page, url: str, timeout: float = 120_000, tries: int = 6) -> bytes:
    """A full-page PNG of `url` once it has settled: the page's size is still, and two screenshots
    taken a few frames apart are the same (on a busy machine a table can still be sizing its
    columns after the page's size has settled)."""
    page.goto(url)
    page.add_style_tag(content=STILL)
    page.wait_for_function(SETTLED, timeout=timeout, polling="raf")
    last = page.screenshot(full_page=True, animations="disabled", caret="hide")
    for _ in range(tries):  # tries=0: the first shot once the page's size is still
        page.evaluate(FRAMES)
        again = page.screenshot(full_page=True, animations="disabled", caret="hide")
        if again == last:
            break
        last = again
    return last


def grey(png: bytes) -> np.ndarray:
    from PIL import Image

    img = Image.open(io.BytesIO(png)).convert("L")
    return np.asarray(img, dtype=float) / 255.0  # (H, W)


def blur(a: np.ndarray) -> np.ndarray:
    """A 3×3 box blur: anti-aliasing and sub-pixel text differences fade, shapes stay."""
    p = np.pad(a, 1, mode="edge")  # (H+2, W+2)
    h, w = a.shape
    return sum(p[i:i + h, j:j + w] for i in range(3) for j in range(3)) / 9.0  # (H, W)


def difference(png_a: bytes, png_b: bytes) -> float:
    """The fraction of pixels whose blurred grey levels differ by more than PIXEL_STEP; where
    the pages differ in size, the rows or columns one lacks all count as differing."""
    a, b = grey(png_a), grey(png_b)  # (Ha, Wa), (Hb, Wb)
    h, w = max(a.shape[0], b.shape[0]), max(a.shape[1], b.shape[1])
    pa = np.full((h, w), -1.0)  # (H, W): -1 where a page has no pixel
    pb = np.full((h, w), -1.0)  # (H, W)
    pa[:a.shape[0], :a.shape[1]] = blur(a)
    pb[:b.shape[0], :b.shape[1]] = blur(b)
    return float(np.mean(np.abs(pa - pb) > PIXEL_STEP))


def thumbnail(png: bytes) -> bytes:
    """The first screenful (the viewport's height) of a full-page PNG taken at THUMBNAIL_SIZE."""
    from PIL import Image

    width, height = (int(n) for n in THUMBNAIL_SIZE.split("x"))
    img = Image.open(io.BytesIO(png))
    out = io.BytesIO()
    img.crop((0, 0, width, min(height, img.height))).save(out, format="PNG", optimize=True)
    return out.getvalue()


def export_all(outdir: Path, slugs: list[str] | None = None) -> dict[str, Path]:
    """Export the plates (`slugs`, or every one) into outdir: {slug: file}."""
    picked = [a for s in slugs or [] for a in ("--plate", s)]
    subprocess.run([sys.executable, "-m", "app", "export", str(outdir), *picked], check=True, cwd=HERE.parents[1])
    return {p.stem: p for p in sorted(outdir.glob("*.html")) if p.stem != "index"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=REFERENCES, help="where the PNGs go (default: the references)")
    ap.add_argument("--thumbnails", type=Path, default=None,
                    help="where the thumbnails go (default: assets/screenshots of the app imported)")
    ap.add_argument("--plate", action="append", default=None, help="only this plate (repeat for more)")
    ap.add_argument("--size", action="append", default=None, choices=list(SIZES),
                    help="only this size (repeat for more)")
    args = ap.parse_args()
    sizes = {k: v for k, v in SIZES.items() if not args.size or k in args.size}
    sys.path.insert(0, str(HERE))
    from helpers import CHROMIUM_ARGS, chromium_for_tests
    from playwright.sync_api import sync_playwright

    if args.thumbnails is None:
        from app.delivery.assets import ASSETS

        args.thumbnails = ASSETS / "screenshots"
    args.out.mkdir(parents=True, exist_ok=True)
    args.thumbnails.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        pages = export_all(Path(tmp), args.plate)
        browser = pw.chromium.launch(executable_path=chromium_for_tests(), args=CHROMIUM_ARGS)
        for size, opts in sizes.items():
            ctx = browser.new_context(device_scale_factor=1, **opts)
            page = ctx.new_page()
            for slug, path in pages.items():
                out = args.out / f"{slug}-{size}.png"
                png = shoot(page, path.as_uri())
                out.write_bytes(png)
                print(out)
                if size == THUMBNAIL_SIZE:
                    thumb = args.thumbnails / f"{slug}.png"
                    thumb.write_bytes(thumbnail(png))
                    print(thumb)
            ctx.close()
        browser.close()


if __name__ == "__main__":
    main()
