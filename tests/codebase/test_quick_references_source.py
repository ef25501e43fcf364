"""app.quick_references finds a model's references from the values it holds, as Bokeh 3.10's walk
reads them: Model.references -> collect_models -> collect_filtered_models, which visits each
property in properties_with_refs through visit_immediate_value_references and
visit_value_and_its_immediate_references; and it relies on HasProps.__init__ making every
unstable default when a model is built. Held here to those functions' sources, so that a Bokeh
that walks or builds differently is read again before the shortcut is trusted."""

from __future__ import annotations

import pytest
from bokeh.core.has_props import HasProps
from bokeh.model import Model
from bokeh.model import util

from source_digest import source_sha256

# sha256 of Bokeh 3.10.2's functions, dedented.
BOKEH_SOURCES = {
    "Model.references": (lambda: Model.references,
                         "bb5023ad5e0e74fd326dff1aa733980958d8995f9a90e42436fbe2efbad3f372"),
    "collect_filtered_models": (lambda: util.collect_filtered_models,
                                "076dfeb1576804291767ed432b21472c10c71afd09356fe093a5387d48395609"),
    "visit_immediate_value_references": (lambda: util.visit_immediate_value_references,
                                         "94591d886aacef72ddf1b8eca8993af500d5dab7a030bed6c1b5c54ad3e6309c"),
    "visit_value_and_its_immediate_references": (lambda: util.visit_value_and_its_immediate_references,
                                                 "e018cc9482917eacdd8f2dfb1b3feedf4b113a412ae518ad96f62e6f9d76f627"),
    "HasProps.__init__": (lambda: HasProps.__init__,
                          "4721203d03a43e2a7cdf4899513608f94c0cf6c87b4ca2ac45c62e55dc6636ef"),
}


@pytest.mark.parametrize("name", sorted(BOKEH_SOURCES))
def test_bokehs_function_is_the_one_read(name):
    get, want = BOKEH_SOURCES[name]
    digest, source = source_sha256(get())
    assert digest == want, source
