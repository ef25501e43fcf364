"""A model's set properties, for Bokeh's serialiser, without working out every default on the way.

Replaces: bokeh.core.has_props.HasProps.query_properties_with_values (include_defaults=False).

Bokeh serialises a model as the properties set on it. To find them it reads the value of every
property of the model and only then drops those not set: each unset property's default is
prepared again. It reads the others for one reason, said in its own comment: a required property
never set must raise UnsetValueError. Here a property is skipped when it cannot be without a
value (not set, not a materialised unstable default, not themed, its default not Undefined);
every other property is read as before, in the same order, so the result and the errors are
Bokeh's. A Text glyph read some 60 properties to send 8.

Read against: bokeh >=3.10,<3.11.
Buys: server CPU per served masking page load 294 -> 198 ms (-33 %); its cold load 1107 ->
948 ms (-14 %); off and on in turn (benchmarks/workarounds.py).
Upstream report: "HasProps.query_properties_with_values(include_defaults=False) evaluates every
default to find the properties that are set; skipping properties that are unset, unthemed and
have a non-Undefined default gives the same result and halves document serialisation time."
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
