"""Whether a Bokeh property's default may change, worked out once per class instead of at each read.

Replaces: bokeh.core.property.descriptors.PropertyDescriptor.has_unstable_default.

Bokeh asks it for every property of every model it builds and again whenever it reads an unset
property. The answer depends on the property alone (`_may_have_unstable_default()`, a walk
through its type's parameters) and on the default the model's class overrides it with (fixed
per class), never on the model: it is kept per descriptor and class. Building a Text glyph took
0.50 ms with Bokeh's method and 0.19 ms with the kept answer.

Read against: bokeh >=3.10,<3.11.
Buys: server CPU per served masking page load 210 -> 176 ms (-16 %), medians of three rounds of
8 loads, off and on in turn (benchmarks/workarounds.py).
Upstream report: "PropertyDescriptor.has_unstable_default recomputes, at every read of an unset
property, an answer that depends only on the property and the model's class; caching it per
(descriptor, class) cuts model construction time by a third or more."
"""

from __future__ import annotations


def quick_defaults() -> bool:
    """Install the kept answers on Bokeh's PropertyDescriptor. Idempotent; False (and nothing
    changed) when this Bokeh has no such method."""
    from bokeh.core.property.descriptors import PropertyDescriptor

    own = PropertyDescriptor.__dict__.get("has_unstable_default")
    if own is None:
        return False
    if getattr(own, "_ae_quick", False):
        return True

    def has_unstable_default(self, obj) -> bool:
        cls = type(obj)
        try:
            return self._ae_unstable[cls]
        except AttributeError:
            self._ae_unstable = {}
        except KeyError:
            pass
        answer = self._ae_unstable[cls] = own(self, obj)
        return answer

    has_unstable_default._ae_quick = True
    has_unstable_default._ae_original = own
    PropertyDescriptor.has_unstable_default = has_unstable_default
    return True


install = quick_defaults
