"""The served page's HTML, without walking the visitor's whole document twice to write it.

Panel 1.10 writes a session's HTML page (panel.io.server.server_html_page_for_session) after
looking through every model of the document, twice:
- `patch_model_css(root)` for each root: `root.select(ImportedStyleSheet)` walks every model
  reachable from the root, to point Panel's stylesheets at this server;
- `bundle_resources` -> `_panel_use_tables(roots)`: `root.references()` walks them all again, to
  learn whether the page needs BokehJS's tables bundle.
A walk reads every property of every model, defaults included: 36-37 ms each on the masking
plate's 316 models, so 84 ms of its 100-190 ms answer to the first request, before the browser
can fetch a script (64 ms on multi-head, 40 ms on lookup; measured this session).

A Bokeh document already holds the set those walks compute: `doc.models` is exactly the union of
its roots' references, recomputed whenever a reference changes (DocumentModelManager.recompute).
So when the roots asked about are the document's own roots, both functions take their models
from `doc.models`, and do what Panel does with them: the same stylesheets patched with the same
URLs (Panel's own `patch_model_css` runs, on a stand-in root whose `select` answers from
`doc.models`), the same tables test (Bokeh's and Panel's own). Any other roots (a root outside a
document, a subset of the roots) go to Panel's functions as before.

The rest of `bundle_resources`, which scripts and stylesheets the page loads, is the same for
every visitor of a route, and is kept per kind of page (`cached_bundles`).
tests/codebase/test_page_html_source.py holds Panel's three functions to the versions read here;
tests/app/test_page_html.py holds the results to Panel's.
"""

from __future__ import annotations


def _document_of(roots):
    """The document whose own roots these are, all of them; None otherwise."""
    roots = list(roots or [])
    doc = roots[0].document if roots else None
    if doc is None or set(roots) != set(doc.roots):
        return None
    return doc


class _Root:
    """A root for Panel's patch_model_css: its document, and `select` answered from doc.models
    (every stylesheet of the document: patching one twice, from each root, changes nothing)."""

    def __init__(self, root):
        self.document = root.document

    def select(self, selector):
        (kind,) = selector.values()  # Panel asks {'type': ImportedStyleSheet} only
        return [m for m in self.document.models if isinstance(m, kind)]


def patch_document_css(doc, dist_url: str) -> None:
    """Panel's `patch_model_css` for every root of `doc` at once, with the stylesheets taken from
    `doc.models` instead of a walk from each root (app.spare_pages, before a spare's reply)."""
    from panel.io.resources import patch_model_css

    if doc.roots:
        patch_model_css(_Root(doc.roots[0]), dist_url=dist_url)


def quick_page_html() -> bool:
    """Route Panel's two walks through `doc.models` in this process. False (and nothing changed)
    when Panel no longer has them where they are read from."""
    from panel.io import resources as pr
    from panel.io import server as ps

    if getattr(ps, "_ae_quick_html", False):
        return True
    own_patch = getattr(ps, "patch_model_css", None)
    own_tables = getattr(pr, "_panel_use_tables", None)
    if own_patch is None or own_tables is None or own_patch is not getattr(pr, "patch_model_css", None):
        return False
    from bokeh.embed.bundle import _query_extensions, _use_tables
    from bokeh.models.widgets.tables import CellEditor, CellFormatter

    def patch_model_css(root, dist_url):
        doc = root.document
        if doc is None or root not in doc.roots:
            return own_patch(root, dist_url)
        return own_patch(_Root(root), dist_url)

    def panel_use_tables(roots) -> bool:
        doc = _document_of(roots)
        if doc is None:
            return own_tables(roots)
        models = set(doc.models)
        return _use_tables(models) or _query_extensions(models, lambda cls: issubclass(cls, (CellEditor, CellFormatter)))

    patch_model_css._ae_original = own_patch
    panel_use_tables._ae_original = own_tables
    ps.patch_model_css = patch_model_css
    pr._panel_use_tables = panel_use_tables
    ps._ae_quick_html = True
    return True


install = quick_page_html
