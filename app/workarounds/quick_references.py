"""The models a Bokeh model refers to, found from the values it holds, without reading every default.

Bokeh finds them (`Model.references` -> `collect_models`, Bokeh 3.10) by reading each property
that may hold a model (`properties_with_refs`) through its descriptor, and for an unset one that
works its default out again: its type checked, `_may_have_unstable_default` walked through the
type's parameters. A document's set of models is recomputed that way when a page joins it: 42 ms
of masking's 220 ms build, and `share_library` walked the plate once more.

Yet the value Bokeh reads is always one the model already holds:
- a value set on it (`_property_values`);
- else, for a property the document's theme sets, the theme's value, or the copy made of it when
  it was a container (`_unstable_themed_values`);
- else, for a default that may change (a model, a container, anything made by a factory), the one
  made for this model: `HasProps.__init__` makes every such default when the model is built
  (`_unstable_default_values`);
- else a plain default, which holds no model.

`existing_models` reads those, for the same properties, through the same containers (lists,
tuples, dicts' keys and values, and dataclasses such as a spec's Field with its transform, as
`visit_value_and_its_immediate_references`): masking's plate in 3 ms instead of 35.
`quick_references()` makes `Model.references` use it in the server process. One difference, by
design: a default deleted from a model (`del model.prop`) is made again when Bokeh reads it;
here it does not exist, and no model of ours deletes one.
tests/app/test_quick_references.py holds the results to Bokeh's on every page;
tests/codebase/test_quick_references_source.py holds Bokeh's functions to the versions read here.
"""

from __future__ import annotations

from bokeh.core.has_props import HasProps
from bokeh.model import Model
from bokeh.util.dataclasses import entries, is_dataclass

_SCALARS = frozenset({int, float, str, bool, type(None)})


def _held_values(obj: HasProps):
    """The values Bokeh's walk would read from `obj` (see the module doc)."""
    refs = type(obj).properties_with_refs()
    own, made, themed_made = obj._property_values, obj._unstable_default_values, obj._unstable_themed_values
    themed = obj.themed_values() or {}
    for name in refs:
        if name in own:
            yield own[name]
        elif name in themed:
            yield themed_made[name] if name in themed_made else themed[name]
        elif name in made:
            yield made[name]


def existing_models(models) -> list[Model]:
    """Every model reachable from `models` (themselves included), as Bokeh's `collect_models` finds
    them (in another order)."""
    seen: dict[int, HasProps] = {}
    stack = list(models)
    while stack:
        v = stack.pop()
        typ = type(v)
        if typ in _SCALARS:
            continue
        if issubclass(typ, HasProps):
            if id(v) not in seen:
                seen[id(v)] = v
                stack.extend(_held_values(v))
        elif issubclass(typ, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif issubclass(typ, (list, tuple)):
            stack.extend(v)
        elif is_dataclass(v):  # a spec's Field or Value, whose transform may be a model
            stack.extend(value for _, value in entries(v))
    return [v for v in seen.values() if isinstance(v, Model)]


def quick_references() -> bool:
    """Make `Model.references` use `existing_models` in this process. Idempotent; False (and
    nothing changed) when this Bokeh has no `Model.references` to replace."""
    own = Model.__dict__.get("references")
    if own is None:
        return False
    if getattr(own, "_ae_quick", False):
        return True

    def references(self) -> set[Model]:
        return set(existing_models([self]))

    references._ae_quick = True
    references._ae_original = own
    Model.references = references
    return True


install = quick_references
