"""A model's set properties, for Bokeh's serialiser, without working out every default on the way.

Bokeh serialises a model as the properties set on it (`properties_with_values(include_defaults=
False)`, via `HasProps.query_properties_with_values`, Bokeh 3.10). To find them it reads the value
of *every* property of the model and only then drops those not set: each unset property's default
is prepared again (its type checked, `_may_have_unstable_default` walked through the type's
parameters). A Text glyph reads some 60 properties to send 8: 1.1 ms a glyph, 34 ms for the 30 Text
glyphs of the masking page, whose whole document took 110 ms of reading to serialise 316 models.
Bokeh reads the others for one reason, said in its own comment: there is no other way to find a
property that has no value at all (a required one never set), which must raise UnsetValueError.

`quick_properties()` makes Bokeh's method skip reading a property it would drop when that property
cannot be without a value: it is not set, not a materialised unstable default, not themed, and its
default (the class's override, else the property's own) is not Undefined. Every other property is
read as before, in the same order, so the result and the errors are Bokeh's. Reading an unset
property also materialises an unstable default (a container or a model made by a factory) into
`_unstable_default_values`; skipping that changes nothing sent: a container default is dropped from
the result anyway, and every default that may hold a model is made when its model is built
(`HasProps.__init__`; see app/quick_references.py).

A served masking page's PULL-DOC-REPLY took 237 ms of the server's CPU with Bokeh's method and 81
with this one (lookup 100 -> 50 ms), with the same JSON. Installed once per server process by
app.server; tests/app/test_quick_properties.py holds the results to Bokeh's on every page, and
tests/codebase/test_quick_properties_source.py holds the method to the version read here.
"""

from __future__ import annotations


def quick_properties() -> bool:
    """Install the shortcut on HasProps. Idempotent; False (and nothing changed) when this Bokeh
    lacks what it relies on."""
    from bokeh.core.has_props import HasProps
    from bokeh.core.property.descriptors import UnsetValueError
    from bokeh.core.property.singletons import Undefined
    from bokeh.core.property.wrappers import PropertyValueContainer

    own = HasProps.__dict__.get("query_properties_with_values")
    if own is None:
        return False
    if getattr(own, "_ae_quick", False):
        return True

    def query_properties_with_values(self, query, *, include_defaults=True, include_undefined=False):
        if include_defaults:
            return own(self, query, include_defaults=include_defaults, include_undefined=include_undefined)
        themed_keys: set[str] = set()
        result = {}
        keys = self.properties(_with_props=True)
        selected_keys = set(self._property_values.keys()) | set(self._unstable_default_values.keys())
        themed_values = self.themed_values()
        if themed_values is not None:
            themed_keys = set(themed_values.keys())
            selected_keys |= themed_keys
        overridden = None
        for key in keys:
            descriptor = self.lookup(key)
            if not query(descriptor):
                continue
            if key not in selected_keys:
                if overridden is None:
                    overridden = self._overridden_defaults()
                default = overridden[key] if key in overridden else descriptor.property._default
                if default is not Undefined:
                    continue  # has a value (its default), and Bokeh would drop it below
            try:
                value = descriptor.get_value(self)
            except UnsetValueError:
                if include_undefined:
                    value = Undefined
                else:
                    raise
            else:
                if key not in selected_keys:
                    continue
                if key not in themed_keys:
                    if isinstance(value, PropertyValueContainer) and key in self._unstable_default_values:
                        continue
            result[key] = value
        return result

    query_properties_with_values._ae_quick = True
    query_properties_with_values._ae_original = own
    HasProps.query_properties_with_values = query_properties_with_values
    return True


install = quick_properties
