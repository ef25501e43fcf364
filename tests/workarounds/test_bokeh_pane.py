"""app.workarounds.bokeh_pane.BokehPane leaves out one step of Panel's `Bokeh._get_model` (a walk of the whole
model graph per pane, to rewrite ids in CustomJS code). Three facts keep that safe:
- Panel's method is still the one BokehPane was copied from (a new Panel must be read again);
- no CustomJS code on any page names a model's id, so the skipped rewrite would change nothing;
- every page builds the same document with BokehPane as with Panel's own pane;
and the app wraps its Bokeh models in BokehPane only.
"""

from __future__ import annotations

import collections
import inspect
import re
import textwrap
from pathlib import Path

import panel as pn
import pytest
from bokeh.document import Document
from bokeh.models import CustomJS

from app.plates import registry
from app.workarounds.bokeh_pane import BokehPane
from app.delivery.page import plate_page

REPO = Path(__file__).resolve().parents[2]

# Panel 1.10's Bokeh._get_model, the method BokehPane copies; the line it leaves out is marked.
PANEL_GET_MODEL = '''
def _get_model(
    self, doc: Document, root: Model | None = None,
    parent: Model | None = None, comm: Comm | None = None
) -> Model:
    if root is None:
        return self.get_root(doc, comm)

    if self.object is None:
        model = BkSpacer()
    else:
        model = self.object

    if comm and self.autodispatch:
        self._wrap_bokeh_callbacks(root, model, doc, comm)

    ref = root.ref['id']
    for js in model.select({'type': CustomJS}):  # left out
        js.code = js.code.replace(model.ref['id'], ref)  # left out

    if model._document and doc is not model._document:
        remove_root(model, doc)

    self._models[ref] = (model, parent)

    # Apply theme
    self._design.apply_bokeh_theme_to_model(model, self.theme)

    return model
'''


def _lines(src: str) -> list[str]:
    return [re.sub(r"\s+#.*$", "", ln).rstrip() for ln in textwrap.dedent(src).strip().splitlines()]


def test_panels_method_is_the_one_copied():
    assert _lines(inspect.getsource(pn.pane.Bokeh._get_model)) == _lines(PANEL_GET_MODEL), (
        "Panel's Bokeh._get_model changed: read it again and bring app/bokeh_pane.py in line")


def _document(slug: str) -> Document:
    doc = Document()
    doc.add_root(plate_page(slug).get_root(doc))
    return doc


@pytest.mark.parametrize("slug", registry.slugs())
def test_no_customjs_code_names_a_model_id(slug):
    doc = _document(slug)
    ids = {m.id for m in doc.models}
    codes = [m.code for m in doc.models if isinstance(m, CustomJS)]
    assert codes, "the page has no CustomJS: the check would prove nothing"
    named = [i for c in codes for i in ids if re.search(rf"\b{re.escape(i)}\b", c)]
    assert not named, named


def _shape(doc: Document) -> tuple:
    models = list(doc.models)
    kinds = collections.Counter(type(m).__name__ for m in models)
    codes = sorted(m.code for m in models if isinstance(m, CustomJS))
    names = sorted(re.sub(r"\d+$", "#", m.name) for m in models if m.name)  # Panel numbers its Rows
    return kinds, codes, names


@pytest.mark.parametrize("slug", registry.slugs())
def test_the_page_is_the_same_with_panels_own_pane(slug, monkeypatch):
    ours = _shape(_document(slug))
    monkeypatch.setattr(BokehPane, "_get_model", pn.pane.Bokeh._get_model)
    theirs = _shape(_document(slug))
    assert ours == theirs
    assert sum(ours[0].values()) > 100  # a whole plate, not an empty page


def test_the_app_uses_bokeh_pane_only():
    found = [f"{p.relative_to(REPO)}:{i}" for p in sorted((REPO / "app").rglob("*.py"))
             for i, ln in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"pn\.pane\.Bokeh\s*\(", ln)]
    assert not found, f"wrap Bokeh models in app.workarounds.bokeh_pane.BokehPane: {found}"
