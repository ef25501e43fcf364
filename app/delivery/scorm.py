"""The LMS package: the index and every plate as one SCORM 1.2 zip (`export OUTDIR --scorm`).

Moodle, Canvas and Blackboard import SCORM 1.2 packages: a zip with `imsmanifest.xml` at its
root (IMS Content Packaging 1.1.2 with ADL's SCORM 1.2 extension) naming one item per page of
the course and the files each page needs. The pages are the static site's (`export_site`): the
index and one page per plate of the registry, sharing one copy of BokehJS and Panel's CSS under
`_static/`, and they need no network. Two things differ from the static site:

- every page loads `_static/scorm.js` (app/runtime/scorm.js), the bridge to the LMS's SCORM
  runtime: it reports "incomplete" when the page opens and "completed" once the student has
  changed something, and LMSFinish when the page goes. With no runtime it does nothing, so the
  unzipped package also works from disk or on any static host;
- a plate's header has no links to the other plates: in an LMS each page is its own item, and
  the LMS's menu moves between them (a link would open the next plate inside this item, and the
  student's work there would be reported as this one's). The index keeps its cards.

When a page counts as done ("interacted"): a change the student makes, i.e. the end of any
gesture that the plate commits through app/runtime/sync.js's AESync.commit (one hook for every
plate), after the student's own pointer or key input on the page. The index is done once
opened (it has nothing to change). Each plate's contract.py says in words which of its gestures
count (SCORM_DONE) and names the one tests/browser/test_scorm.py makes (SCORM_GESTURE).
Opening a page, scrolling it, hovering and opening the table view do not count.
"""

from __future__ import annotations

import re
import shutil
import tempfile
import zipfile
from importlib.resources import files
from pathlib import Path
from xml.etree import ElementTree as ET

from app.delivery.assets import ASSETS

PACKAGE_NAME = "attention-explorable-scorm12.zip"
TITLE = "The arithmetic of attention"
IMSCP = "http://www.imsproject.org/xsd/imscp_rootv1p1p2"
ADLCP = "http://www.adlnet.org/xsd/adlcp_rootv1p2"
BRIDGE = "_static/scorm.js"  # where the package keeps app/runtime/scorm.js
SHARED = "res-shared"  # the asset resource holding what every page shares (_static/)
# The zip's entries carry one fixed date, so the same build gives the same bytes.
ZIP_DATE = (2020, 1, 1, 0, 0, 0)
NAV = re.compile(r"<nav class='ae-nav'.*?</nav>", re.S)
HEAD = re.compile(r"<head[^>]*>", re.I)
THUMB = re.compile(r"""assets/screenshots/[\w.-]+\.png""")


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("attention-explorable")
    except PackageNotFoundError:  # a checkout run without installing it
        return "0"


def _without_plate_links(page) -> None:
    """Take the links to the other plates out of a plate page's header (see the module doc)."""
    for pane in page.objects:
        div = getattr(pane, "object", None)
        if getattr(div, "name", None) == "ae-header":
            div.text = NAV.sub("", div.text)


def _with_bridge(html: str, done: str) -> str:
    """The page with scorm.js loaded first thing in its head (before BokehJS builds the plate)."""
    tag = f'<script src="{BRIDGE}" data-done="{done}"></script>'
    m = HEAD.search(html)
    if m is None:
        raise RuntimeError("an exported page has no <head>: cannot load the SCORM bridge into it")
    return html[: m.end()] + "\n" + tag + html[m.end():]


def write_pages(root: Path) -> list[dict]:
    """The index and every plate of the registry under `root`, each loading the SCORM bridge.

    Returns one entry per page, in the course's order: {"name", "title", "href", "files"}, where
    "files" are what that page alone needs besides _static/ (the index's thumbnails).
    """
    from bokeh.resources import CDN

    from app.delivery.export import _localise, _save_page, offline_problems
    from app.delivery.page import index_page, plate_page
    from app.plates import registry

    static_dir = root / "_static"
    static_dir.mkdir(parents=True, exist_ok=True)
    # Not in app/runtime/scripts.py's RUNTIME, which every page loads: only the package's pages do.
    (root / BRIDGE).write_text(files("app").joinpath("runtime", "scorm.js").read_text(encoding="utf-8"), encoding="utf-8")
    pages = [{"name": "index", "title": "All plates", "build": lambda: index_page(static=True), "done": "open"}]
    for i, slug in enumerate(registry.slugs(), 1):
        title = registry.plate_class(slug).title
        pages.append({"name": slug, "title": f"{i}. {title}", "build": lambda s=slug: plate_page(s, static=True),
                      "done": "change"})
    out = []
    for p in pages:
        page = p["build"]()
        _without_plate_links(page)
        path = root / f"{p['name']}.html"
        _save_page(page, path, CDN, f"{p['title']} · attention explorable")
        html = _with_bridge(_localise(path.read_text(encoding="utf-8"), static_dir), p["done"])
        left = offline_problems(html)
        if left:
            raise RuntimeError(f"{path.name} would reach the network, which an LMS package must not: {left}")
        path.write_text(html, encoding="utf-8")
        own = []
        for rel in sorted(set(THUMB.findall(html))):
            src = ASSETS / rel.removeprefix("assets/")
            if not src.is_file():
                raise RuntimeError(f"{path.name} shows {rel}, which is not in {ASSETS}: make it with "
                                   f"`make screenshots SHOTS_ARGS='--plate {Path(rel).stem}'`")
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, root / rel)
            own.append(rel)
        out.append({"name": p["name"], "title": p["title"], "href": path.name, "files": own})
    return out


def manifest_xml(root: Path, pages: list[dict]) -> bytes:
    """imsmanifest.xml for the pages under `root`: one item and one SCO resource per page (the
    page and the files only it uses), and one asset resource with every file under _static/ that
    each SCO depends on. Every file of the package is named once."""
    ET.register_namespace("", IMSCP)
    ET.register_namespace("adlcp", ADLCP)
    cp = lambda tag: f"{{{IMSCP}}}{tag}"  # noqa: E731 (a namespaced tag)
    manifest = ET.Element(cp("manifest"), {"identifier": "attention-explorable", "version": _version()})
    meta = ET.SubElement(manifest, cp("metadata"))
    ET.SubElement(meta, cp("schema")).text = "ADL SCORM"
    ET.SubElement(meta, cp("schemaversion")).text = "1.2"
    orgs = ET.SubElement(manifest, cp("organizations"), {"default": "org-attention"})
    org = ET.SubElement(orgs, cp("organization"), {"identifier": "org-attention"})
    ET.SubElement(org, cp("title")).text = TITLE
    resources = ET.SubElement(manifest, cp("resources"))
    for p in pages:
        item = ET.SubElement(org, cp("item"), {"identifier": f"item-{p['name']}", "identifierref": f"res-{p['name']}",
                                               "isvisible": "true"})
        ET.SubElement(item, cp("title")).text = p["title"]
        res = ET.SubElement(resources, cp("resource"), {"identifier": f"res-{p['name']}", "type": "webcontent",
                                                        f"{{{ADLCP}}}scormtype": "sco", "href": p["href"]})
        for f in [p["href"], *p["files"]]:
            ET.SubElement(res, cp("file"), {"href": f})
        ET.SubElement(res, cp("dependency"), {"identifierref": SHARED})
    shared = ET.SubElement(resources, cp("resource"), {"identifier": SHARED, "type": "webcontent",
                                                       f"{{{ADLCP}}}scormtype": "asset"})
    for f in sorted(p.relative_to(root).as_posix() for p in (root / "_static").rglob("*") if p.is_file()):
        ET.SubElement(shared, cp("file"), {"href": f})
    ET.indent(manifest)
    return ET.tostring(manifest, encoding="utf-8", xml_declaration=True) + b"\n"


def export_scorm(outdir: str | Path) -> Path:
    """Write OUTDIR/attention-explorable-scorm12.zip, the SCORM 1.2 package, and return its path."""
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    target = out / PACKAGE_NAME
    with tempfile.TemporaryDirectory(prefix="ae-scorm-") as tmp:
        root = Path(tmp)
        pages = write_pages(root)
        (root / "imsmanifest.xml").write_bytes(manifest_xml(root, pages))
        names = ["imsmanifest.xml", *sorted(p.relative_to(root).as_posix() for p in root.rglob("*")
                                            if p.is_file() and p.name != "imsmanifest.xml")]
        partial = target.with_suffix(".zip.part")  # a failed write never leaves a broken package behind
        with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
            for name in names:
                info = zipfile.ZipInfo(name, ZIP_DATE)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                z.writestr(info, (root / name).read_bytes())
        partial.replace(target)
    return target
