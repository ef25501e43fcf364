"""`attention-explorable figure`: a plate's state as a PNG or SVG image, drawn by headless Chromium.

Needs Playwright, which a plain install leaves out: `pip install 'attention-explorable[figure]'`,
and Debian's Chromium (`apt-get install chromium`): Playwright's own browser download is not
needed. The page is exported first, so no server runs.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path

CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]


def chromium_path() -> str | None:
    """$CHROMIUM if set, else the system's Chromium: its headless shell first (the same renderer
    without a browser around it, so a figure costs less than half the CPU), then the browser."""
    env = os.environ.get("CHROMIUM")
    if env and Path(env).exists():
        return env
    for name in ("chromium-headless-shell", "chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


NO_PLAYWRIGHT = ("the figure command needs Playwright, which a plain install leaves out: "
                 "pip install 'attention-explorable[figure]' (and Debian's Chromium: apt-get install chromium)")
NO_CHROMIUM = ("no Chromium found: apt-get install chromium (Debian, Ubuntu), "
               "or set $CHROMIUM to a Chromium or Chrome")


def require_browser() -> str:
    """The Chromium to draw with, or a RuntimeError that says what to install (the figure command
    checks before it exports the plate, so that a missing extra costs no time)."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        raise RuntimeError(NO_PLAYWRIGHT) from None
    exe = chromium_path()
    if exe is None:
        raise RuntimeError(NO_CHROMIUM)
    return exe


READY = ("() => window.Bokeh && Bokeh.documents.length > 0 && "
         "Bokeh.documents[0].roots().every(r => Bokeh.index.find_one(r) != null)")


@contextmanager
def browser_page(width: int, height: int):
    """A page of the system Chromium (headless) with a width x height window, closed after."""
    from playwright.sync_api import sync_playwright

    exe = require_browser()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=exe, args=CHROMIUM_ARGS)
        try:
            yield browser.new_page(viewport={"width": width, "height": height})
        finally:
            browser.close()


def check_settings(state_class, settings: dict[str, str], scenes: tuple = ()) -> None:
    """Refuse a setting a link would ignore or clamp: a page opened by a person says so in a notice,
    but an image written from a command line would show the defaults without a word."""
    from app.shared.state import PAGE_CHOICES, page_param_notices

    names = [s.name for s in scenes]
    notices = state_class().apply_url(settings) + page_param_notices(settings, scenes=names)
    if notices:
        accepted = ", ".join(state_class.url_fields) + "; and the page's: " + ", ".join(
            [f"{k} ({' or '.join(v)})" for k, v in PAGE_CHOICES.items()] + ["hide (control names)"]
            + ([f"scene ({', '.join(names)})"] if names else []))
        raise ValueError("a link would not show these settings as given (" + "; ".join(notices)
                         + f"). This plate's settings: {accepted}")


# The figures alone: every part of the plate that is not a figure (controls, readouts, text) is
# hidden, so the figures close up; their union is what a --figures image shows.
HIDE_ALL_BUT_FIGURES = """() => {
  const doc = Bokeh.documents[0];
  for (const m of doc.all_models) {
    // Laid-out leaves (widgets, Divs) have a sizing mode; a figure's renderers and axes do not.
    if (!("sizing_mode" in m.properties) || "children" in m.properties || m.type === "Figure") continue;
    m.setv({visible: false}, {sync: false});
  }
}"""
# Every shown figure's box on the page, and (for an SVG) its drawing by Bokeh's SVG backend.
FIGURES = """(svg) => {
  const out = [];
  for (const m of Bokeh.documents[0].all_models) {
    if (m.type !== "Figure" || !m.visible) continue;
    const v = Bokeh.index.find_one(m);
    if (!v || !v.el || !v.el.isConnected) continue;
    const r = v.el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1) continue;
    const box = [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height];
    out.push({box, svg: svg ? v.export("svg").ctx.get_serialized_svg(true) : null});
  }
  return out;
}"""
# The document is idle and the fit (a scene's, or an embedded page's) has settled.
SETTLED = ("() => Bokeh.documents[0].is_idle !== false && (!window.AEPage || !AEPage.fit_state"
           " || AEPage.fit_state.settled)")
# The smallest and largest pictures the command makes (CSS pixels): a thumbnail, an 8K slide.
SIZE_RANGE = {"width": (200, 7680), "height": (150, 4320)}


def html_to_svg_js() -> str:
    """app/delivery/html_to_svg.js: the page's HTML parts as SVG shapes and text."""
    from importlib.resources import files

    return files("app").joinpath("delivery", "html_to_svg.js").read_text(encoding="utf-8")


def check_size(width, height) -> None:
    """ValueError naming the size the command cannot draw at (0, negative, absurd)."""
    for name, value in (("width", width), ("height", height)):
        lo, hi = SIZE_RANGE[name]
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise ValueError(f"--{name} must be a whole number of pixels from {lo} to {hi}, got {value!r}")


def _union(boxes: list[list[float]], pad: float = 8.0) -> tuple[float, float, float, float]:
    left = max(0.0, min(b[0] for b in boxes) - pad)
    top = max(0.0, min(b[1] for b in boxes) - pad)
    right = max(b[0] + b[2] for b in boxes) + pad
    bottom = max(b[1] + b[3] for b in boxes) + pad
    return left, top, right - left, bottom - top


def compose_svg(figures: list[dict], width: float | None = None, height: float | None = None,
                html: list[str] = ()) -> str:
    """One SVG document of the figures' own SVG drawings, each placed where it is on the page,
    over `html` (the page's HTML parts as SVG, in page pixels: html_to_svg.js). `width` and
    `height` give the drawing's size (default: the figures' union, cropped to it)."""
    left, top, w, h = _union([f["box"] for f in figures]) if figures else (0.0, 0.0, float(width), float(height))
    if width is not None:
        left, top, w, h = 0.0, 0.0, float(width), float(height)
    parts = [f'<g transform="translate({-left:.2f} {-top:.2f})">' + "\n".join(html) + "</g>"] if html else []
    for f in figures:
        x, y = f["box"][0] - left, f["box"][1] - top
        inner = re.sub(r"^<svg\b", f'<svg x="{x:.2f}" y="{y:.2f}"', f["svg"].strip(), count=1)
        parts.append(inner)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
            f'width="{w:.0f}" height="{h:.0f}" viewBox="0 0 {w:.2f} {h:.2f}">\n'
            f'<rect width="100%" height="100%" fill="#ffffff"/>\n' + "\n".join(parts) + "\n</svg>\n")


def capture(url: str, kind: str, width: int, height: int, figures_only: bool) -> bytes:
    """Open `url` in headless Chromium and return a PNG of the view (figures_only: of the figures
    alone, cropped to them) or, for kind "svg", an SVG of everything the PNG shows: the figures
    drawn by Bokeh's SVG backend, the HTML parts (readouts, tables) as SVG text and shapes, and
    what has no shapes (a formula, a control) as a picture of its box."""
    with browser_page(width, height) as page:
        page.goto(url)
        page.wait_for_function(READY, timeout=30000)
        page.evaluate("() => document.fonts.ready")
        if figures_only:
            page.evaluate(HIDE_ALL_BUT_FIGURES)
        page.wait_for_function(SETTLED, timeout=30000)
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        page.wait_for_timeout(300)  # let the canvases paint once after the document is idle
        figures = page.evaluate(FIGURES, kind == "svg")
        if figures_only and not figures:
            raise RuntimeError("the page shows no figure to draw")
        if kind == "svg":
            html = [] if figures_only else html_parts(page)
            return compose_svg(figures, None if figures_only else width,
                               None if figures_only else height, html).encode("utf-8")
        if figures_only:
            x, y, w, h = _union([f["box"] for f in figures])
            return page.screenshot(clip={"x": x, "y": y, "width": w, "height": h}, full_page=True)
        return page.screenshot()


def html_parts(page) -> list[str]:
    """The page's HTML parts as SVG fragments (html_to_svg.js), each box it cannot draw as shapes
    (a formula, a control) as an embedded PNG of that box."""
    import base64

    found = page.evaluate(html_to_svg_js())
    out = list(found["svg"])
    for left, top, w, h in found["raster"]:
        png = page.screenshot(clip={"x": left, "y": top, "width": w, "height": h}, full_page=True)
        data = base64.b64encode(png).decode("ascii")
        out.append(f'<image x="{left:.2f}" y="{top:.2f}" width="{w:.2f}" height="{h:.2f}" '
                   f'href="data:image/png;base64,{data}"/>')
    return out


def figure(slug: str, out: str | Path, settings: dict[str, str] | None = None,
           width: int = 1280, height: int = 720, figures_only: bool = False) -> Path:
    """Render a plate in the state the URL settings describe to FILE.png or FILE.svg.

    The page is exported and opened with the settings in its address (the same rules as a
    link), as a still picture (`still=1`: no controls, no words that ask a hand to act); with
    `scene=NAME` it is that scene for a slide, in present mode's type. A .png is a picture of
    the plate in a width x height window; an .svg holds the same: the figures as Bokeh's SVG
    backend draws them (every line, cell and number a shape or a text element), the readouts and
    tables as SVG text and shapes, each where it sits on the page, for slide software that takes
    SVG but cannot embed HTML (a formula is a picture in it). `figures_only` hides everything that
    is not a figure and crops the image to the figures.
    """
    require_browser()  # before the seconds that importing the plates and Panel take
    from urllib.parse import urlencode

    from app.plates import registry
    from app.delivery.export import export_plate

    plate = registry.plate_class(slug)  # ValueError for an unknown plate
    out = Path(out)
    kind = out.suffix.lower().lstrip(".")
    if kind not in ("png", "svg"):
        raise ValueError(f"--out must end in .png or .svg, got '{out.name}'")
    settings = dict(settings or {})
    check_size(width, height)
    check_settings(plate.state_class, settings, getattr(plate, "scenes", ()))
    settings.setdefault("embed", "1")
    settings.setdefault("still", "1")  # a picture: no controls, no words asking a hand to act
    if "scene" in settings:
        settings.setdefault("present", "1")  # a scene for a slide, in the type of present mode
    if figures_only:
        settings.setdefault("fit", "0")  # the figures at their own size, not fitted to the window
    with tempfile.TemporaryDirectory() as tmp:
        page = export_plate(slug, tmp)
        url = page.resolve().as_uri() + "?" + urlencode(settings)
        data = capture(url, kind, width, height, figures_only)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(data)
    return out
