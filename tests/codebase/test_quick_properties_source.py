"""app.quick_properties is Bokeh 3.10's HasProps.query_properties_with_values with one shortcut
(a property Bokeh would drop is not read when it cannot be without a value). Held here to that
method's source, so that a Bokeh that collects a model's properties differently is read again
before the copy is trusted."""

from __future__ import annotations

from bokeh.core.has_props import HasProps

from source_digest import source_sha256

# sha256 of Bokeh 3.10.2's HasProps.query_properties_with_values, dedented.
BOKEH_QUERY_PROPERTIES_SHA256 = "09eff830d7349bb2cd24b7619ce182516aa63d4175987c250cedcfab5325d3ab"


def test_bokehs_method_is_the_one_copied():
    digest, source = source_sha256(HasProps.query_properties_with_values)
    assert digest == BOKEH_QUERY_PROPERTIES_SHA256, source
