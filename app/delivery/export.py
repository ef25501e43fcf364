"""Export a plate as one self-contained HTML file that works from disk, offline, with no server.

Panel's save() with INLINE resources still leaves a few stylesheet URLs pointing at Panel's CDN
(loaded by the page at run time); the same files ship inside the installed panel package, so
they are written into the page as data: URLs. `offline_problems()` lists any remote URL left.
With the exported_bokeh_only workaround, Panel's own JavaScript is then taken out: an exported
page loads BokehJS alone.
"""

from __future__ import annotations

import base64
import re
from pathlib import Path

import panel as pn
from bokeh.resources import INLINE

from app import workarounds
from app.delivery.assets import ASSETS
from app.delivery.page import attach_ready, plate_page


def _save_page(page, path: Path, resources, title: str, ready: bool = True) -> None:
    """Save a page as Panel does, with the page's document_ready script attached first."""
    from bokeh.document import Document
    from panel.io.model import add_to_doc
    from panel.io.resources import set_resource_mode
    from panel.io.save import save
    from pyviz_comms import Comm

    # No plot draws with WebGL: the page is saved without BokehJS's WebGL bundle (270 kB).
    resources = resources.clone(components=[c for c in resources.components if c != "bokeh-gl"])
    doc = Document()
    with set_resource_mode(resources.mode), pn.config.set(embed=False):
        model = page.get_root(doc, Comm())
        add_to_doc(model, doc, True)
    if ready:
        attach_ready(page, doc, served=False)
    save(doc, str(path), resources=resources, title=title)
    html = path.read_text(encoding="utf-8")
    if workarounds.active("exported_bokeh_only"):  # no server: Panel's JavaScript has nothing to do
        from app.workarounds.exported_bokeh_only import bokeh_only

        html = bokeh_only(html)
    path.write_text(html, encoding="utf-8")

REMOTE = re.compile(r"""https?://[^\s"'()<>\\]+""")


def _panel_dist() -> Path:
    return Path(pn.__file__).resolve().parent / "dist"


def _inline_cdn_files(text: str) -> str:
    """Replace URLs under Panel's CDN root that name files shipped in panel/dist with data: URLs."""
    dist = _panel_dist()
    cdn = re.compile(r"""https?://cdn\.holoviz\.org/panel/[^/"']+/dist/([^"'\s)\\]+)""")

    def repl(m: re.Match) -> str:
        f = dist / m.group(1)
        if not f.is_file():
            return m.group(0)
        mime = "text/css" if f.suffix == ".css" else "application/javascript" if f.suffix == ".js" else "application/octet-stream"
        return f"data:{mime};base64," + base64.b64encode(f.read_bytes()).decode("ascii")

    return cdn.sub(repl, text)


def offline_problems(text: str) -> list[str]:
    """Remote URLs a page would request (namespace and documentation URLs are harmless text)."""
    harmless = ("http://www.w3.org/", "https://www.w3.org/", "https://github.com/", "https://bokeh.org",
                "https://docs.bokeh.org", "https://panel.holoviz.org", "https://holoviz.org")
    return sorted({u for u in REMOTE.findall(text) if not u.startswith(harmless)})


BOKEH_CDN = re.compile(r"https://cdn\.bokeh\.org/bokeh/release/(bokeh(?:-[a-z]+)?)-[0-9][^\"'/]*?(\.min\.js|\.js)")
PANEL_CDN = re.compile(r"https://cdn\.holoviz\.org/panel/[^/\"']+/dist/([^\"'\s)\\]+)")


def _localise(text: str, static_dir: Path, prefix: str = "_static") -> str:
    """Point CDN URLs at copies under OUTDIR/_static (copied from the installed packages)."""
    import bokeh

    bokeh_js = Path(bokeh.__file__).resolve().parent / "server" / "static" / "js"

    def bokeh_repl(m: re.Match) -> str:
        name = m.group(1) + m.group(2)  # bokeh-widgets.min.js
        src = bokeh_js / name
        if not src.is_file():
            return m.group(0)
        dest = static_dir / "bokeh" / name
        if not dest.exists():
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(src.read_bytes())
        return f"{prefix}/bokeh/{name}"

    def panel_repl(m: re.Match) -> str:
        rel = m.group(1)
        src = _panel_dist() / rel
        if not src.is_file():
            return m.group(0)
        dest = static_dir / "panel" / rel
        if not dest.exists():
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(src.read_bytes())
        return f"{prefix}/panel/{rel}"

    return PANEL_CDN.sub(panel_repl, BOKEH_CDN.sub(bokeh_repl, text))


def export_site(outdir: str | Path, plates: list[str] | None = None) -> list[Path]:
    """Write OUTDIR/index.html and OUTDIR/<slug>.html for every plate (or those in `plates`),
    sharing OUTDIR/_static.

    BokehJS, Panel's JS and CSS are written once under _static/ and referenced by relative
    paths, so the folder works from any static host and from disk with no network.
    """
    from bokeh.resources import CDN

    from app.plates import registry
    from app.delivery.page import index_page

    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    static_dir = out / "_static"
    written = []
    pages = [("index", lambda: index_page(static=True), "The arithmetic of attention")]
    for slug in registry.slugs() if plates is None else plates:
        pages.append((slug, lambda s=slug: plate_page(s, static=True), registry.plate_class(slug).title))
    for name, build, title in pages:
        path = out / f"{name}.html"
        page = build()
        _save_page(page, path, CDN, f"{title} · attention explorable")
        path.write_text(_localise(path.read_text(encoding="utf-8"), static_dir), encoding="utf-8")
        written.append(path)
    deck = ASSETS / "slides.html"
    if deck.is_file():
        (out / "slides.html").write_text(deck.read_text(encoding="utf-8"), encoding="utf-8")
        written.append(out / "slides.html")
    shots = ASSETS / "screenshots"
    if shots.is_dir():
        dest = out / "assets" / "screenshots"
        dest.mkdir(parents=True, exist_ok=True)
        for png in shots.glob("*.png"):
            (dest / png.name).write_bytes(png.read_bytes())
    return written


def export_plate(slug: str, outdir: str | Path, args: dict[str, str] | None = None) -> Path:
    """Write OUTDIR/<slug>.html and return its path."""
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{slug}.html"
    page = plate_page(slug, args, static=True)
    _save_page(page, path, INLINE, f"{page.plate.title} · attention explorable")
    path.write_text(_inline_cdn_files(path.read_text(encoding="utf-8")), encoding="utf-8")
    return path
