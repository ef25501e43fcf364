"""Whether a Bokeh property's default may change, worked out once per class instead of at each read.

Bokeh 3.10 asks it (`PropertyDescriptor.has_unstable_default(obj)`) for every property of every
model it builds (`HasProps.__init__` makes each such default then) and again whenever it reads an
unset property. The answer depends on the property alone (`_may_have_unstable_default()`, a walk
through its type's parameters) and on the default the model's class overrides it with
(`_overridden_defaults()`, fixed per class): never on the model. Worked out again each time, it
was 60 % of building a Text glyph here (0.50 ms; 0.19 ms with the answer kept) and a third of
an empty figure (5.2 -> 3.4 ms).

`quick_defaults()` keeps each descriptor's answer per class, in the server process.
tests/app/test_quick_defaults.py holds the answers to Bokeh's for every property of every model
class, and tests/codebase/test_quick_defaults_source.py holds Bokeh's method to the version read.
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
