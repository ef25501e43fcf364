"""app.quick_defaults keeps Bokeh 3.10's PropertyDescriptor.has_unstable_default answer per
descriptor and class, which holds while the answer reads only the property and the class's
overridden defaults. Held here to that method's source, so that a Bokeh that asks the model
itself is read again before the kept answers are trusted."""

from __future__ import annotations

from bokeh.core.property.descriptors import PropertyDescriptor

from source_digest import source_sha256

# sha256 of Bokeh 3.10.2's PropertyDescriptor.has_unstable_default, dedented.
BOKEH_HAS_UNSTABLE_DEFAULT_SHA256 = "1603ba73db4147279eb549fdb9012b5575ec9c527b14f7fe0827b88f91d05bd0"


def test_bokehs_method_is_the_one_read():
    digest, source = source_sha256(PropertyDescriptor.has_unstable_default)
    assert digest == BOKEH_HAS_UNSTABLE_DEFAULT_SHA256, source
