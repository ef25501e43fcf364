"""Panel's bundle_resources for a served page, answered once per kind of page.

Replaces: panel.io.server.bundle_resources, as the server calls it for a session's page.

Writing a session's HTML, Panel asks bundle_resources which scripts and stylesheets the page
loads: 20-26 ms of Python for every page served (it walks all of its ~540 component classes
for their resource declarations, and stats the extensions' files). The answer depends on the
resources asked for, the kinds of model in the document, Panel's configuration and extensions
and the page's path, the same for every visitor of a route: it is kept under those
(`_bundle_key`, ~1.5 ms) and handed out again. Roots that are not a document's own go to Panel's
function as before.

Read against: panel >=1.10,<1.11.
Buys: server CPU per served masking page load 218 -> 176 ms (-19 %), off and on in turn
(benchmarks/workarounds.py).
Upstream report: "panel.io.resources.bundle_resources recomputes the same bundle for every
session of a route (20+ ms each); it could be cached on the resources, the document's model
types, the config and the loaded extensions."
"""

from __future__ import annotations



def _document_of(roots):
    """The document whose own roots these are, all of them; None otherwise."""
    roots = list(roots or [])
    doc = roots[0].document if roots else None
    if doc is None or set(roots) != set(doc.roots):
        return None
    return doc


def _config_names() -> list[str]:
    """Panel's configuration settings by the names a session reads them under (fixed per class)."""
    from panel.config import config

    return sorted({n.lstrip("_") for n in config.param if n != "name"})


def _bundle_key(doc, resources, options, names: list[str]) -> tuple:
    """Everything Panel's bundle_resources reads for a document's own roots: the resources asked
    for, the kinds of model in the document (the mathjax and tables tests, which extensions),
    Panel's configuration as this session sees it (`names`: _config_names()), the extensions
    loaded, and the page's path."""
    from panel.config import config, panel_extension
    from panel.io.state import state

    return (
        type(resources).__qualname__, repr(sorted(vars(resources).items())), options,
        frozenset(type(m) for m in doc.models),
        repr([getattr(config, n) for n in names]),
        tuple(sorted(panel_extension._loaded_extensions)), repr(state._extensions), state.rel_path,
    )


def cached_bundles() -> bool:
    """Panel's bundle_resources for a served page, answered once per kind of page.

    Writing a session's HTML, Panel asks bundle_resources which scripts and stylesheets the page
    loads: 20-26 ms of Python on this machine for every page served (Panel walks all of its ~540
    component classes for their resource declarations, and stats the extensions' files), on the
    way to the browser's first byte. The answer depends on the resources asked for, the kinds
    of model in the document, Panel's configuration and extensions and the page's path, the same
    for every visitor of a route: it is kept under those (`_bundle_key`, ~1.5 ms) and handed out
    again. Roots that are not a document's own go to Panel's function as before.
    tests/workarounds/test_cached_bundles.py holds the pages to Panel's own. False (and nothing changed) when
    Panel no longer calls it where it is read from."""
    from panel.io import resources as pr
    from panel.io import server as ps

    own = getattr(ps, "bundle_resources", None)
    if getattr(own, "_ae_original", None) is not None:
        return True
    if own is None or own is not getattr(pr, "bundle_resources", None):
        return False
    bundles: dict = {}
    names = _config_names()

    def bundle_resources(roots, resources, notebook=False, reloading=False, enable_mathjax="auto"):
        doc = _document_of(roots)
        if doc is None or resources is None:
            return own(roots, resources, notebook, reloading, enable_mathjax)
        key = _bundle_key(doc, resources, (notebook, reloading, enable_mathjax), names)
        if key not in bundles:
            if len(bundles) >= 64:  # kinds of page are few; a key that keeps changing must not pile up
                bundles.clear()
            bundles[key] = own(roots, resources, notebook, reloading, enable_mathjax)
        pr.RESOURCE_MODE = resources.mode  # as Panel's function leaves it
        return bundles[key]

    bundle_resources._ae_original = own
    bundle_resources._ae_bundles = bundles
    ps.bundle_resources = bundle_resources
    return True


install = cached_bundles
