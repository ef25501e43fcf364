"""BokehPane: Panel's Bokeh pane, minus one walk of the model graph per pane.

A plate wraps each of its figures, widgets and Divs in its own pane (10-20 per plate), and
they all share one model graph: every CustomJS callback holds the plate's models by name. When
Panel 1.10 turns a `pn.pane.Bokeh` into its model (`Bokeh._get_model`), it walks the whole graph
reachable from the pane's object (`model.select({'type': CustomJS})`) to write the root's id
into any CustomJS code that names the object's own id, a rewrite meant for HoloViews' callbacks.
On a plate that is one walk of the whole graph per pane: 190 ms of the 235 ms it takes to make
the lookup plate's Bokeh models, 290-390 ms of multi-head's, paid by the server at every page
load (benchmarks/profile_load.py). No CustomJS code of ours names a model id (the glue finds its
models by name), so BokehPane skips that rewrite; tests/codebase/test_bokeh_pane.py checks both
facts: Panel's method still reads as copied here, and no plate's CustomJS code holds an id.
Everything else is Panel's method as it is.
"""

from __future__ import annotations

import panel as pn
from bokeh.models import Spacer as BkSpacer
from panel.io.model import remove_root


class BokehPane(pn.pane.Bokeh):
    """A `pn.pane.Bokeh` whose model is made without walking the shared model graph."""

    def _get_model(self, doc, root=None, parent=None, comm=None):
        if root is None:
            return self.get_root(doc, comm)
        model = BkSpacer() if self.object is None else self.object
        if comm and self.autodispatch:
            self._wrap_bokeh_callbacks(root, model, doc, comm)
        # Panel rewrites ids in CustomJS code here (see the module's docstring): none to rewrite.
        if model._document and doc is not model._document:
            remove_root(model, doc)
        self._models[root.ref["id"]] = (model, parent)
        self._design.apply_bokeh_theme_to_model(model, self.theme)
        return model
