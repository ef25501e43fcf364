"""app.workarounds.patch_batching replaces Bokeh's `_serialize_patches` so that the changes one server callback
makes reach the page as one PATCH-DOC message instead of one message per change. Held here:
- Bokeh's function is still the one it replaces (one message per patch; a new Bokeh must be read
  again);
- the batched serialiser sends the same events, in the same order, as the messages it replaces,
  grouped by document, protocol and connections;
- installing it is idempotent.
The served page's answer arriving as one message is checked in a real browser
(tests/browser/test_scaling_served.py).
"""

from __future__ import annotations

import inspect
import textwrap
from types import SimpleNamespace

from bokeh.document import Document
from bokeh.models import ColumnDataSource, Div
from bokeh.protocol import Protocol
from bokeh.server import session as bk_session

from app.workarounds.patch_batching import batch_patches

# Bokeh 3.10's _serialize_patches, the function batch_patches replaces.
BOKEH_SERIALIZE_PATCHES = '''
def _serialize_patches(pending: list[_PendingPatch]) -> list[tuple[Message[Any], tuple[ServerConnection, ...]]]:
    messages: list[tuple[Message[Any], tuple[ServerConnection, ...]]] = []
    for patch in pending:
        with patch_curdoc(patch.event.document):
            message = patch.protocol.create("PATCH-DOC", [patch.event])
            message.prepare()
        messages.append((message, patch.connections))
    return messages
'''


def _bokehs_own():
    f = bk_session._serialize_patches
    return getattr(f, "_ae_original", f)


def test_bokehs_serialiser_is_the_one_replaced():
    assert textwrap.dedent(inspect.getsource(_bokehs_own())).strip() == BOKEH_SERIALIZE_PATCHES.strip()


def _pending():
    """Five patches as Bokeh's session collects them while a callback changes three models: the
    first four for one connection, the last for another."""
    doc = Document()
    src = ColumnDataSource({"x": [1.0]}, name="src")
    a, b = Div(text="a", name="a"), Div(text="b", name="b")
    for m in (src, a, b):
        doc.add_root(m)
    events = []
    doc.on_change(lambda e: events.append(e))
    src.data = {"x": [2.0, 3.0]}
    a.text = "a2"
    b.text = "b2"
    a.text = "a3"
    b.text = "b3"
    protocol = Protocol()
    one, other = (SimpleNamespace(name="one"),), (SimpleNamespace(name="other"),)
    return [SimpleNamespace(event=e, protocol=protocol, connections=one if i < 4 else other)
            for i, e in enumerate(events)]


def _events(messages):
    return [[(e["kind"], e["model"]["id"], e.get("attr"), e.get("new")) for e in m.content["events"]] for m, _ in messages]


def test_the_batched_serialiser_sends_the_same_events_in_order_in_fewer_messages():
    pending = _pending()
    own = _bokehs_own()(pending)
    batch_patches()
    batched = bk_session._serialize_patches(pending)
    assert len(own) == 5
    assert len(batched) == 2  # one per run of patches for the same connections
    assert [c for _, c in batched] == [pending[0].connections, pending[4].connections]
    flat_own = [e for m in _events(own) for e in m]
    assert [e for m in _events(batched) for e in m] == flat_own
    assert [len(m) for m in _events(batched)] == [4, 1]
    assert flat_own[0][0] == "ColumnDataChanged" and flat_own[1][3] == "a2" and flat_own[3][3] == "a3"
    for message, _ in batched:
        assert message.header["msgtype"] == "PATCH-DOC"


def test_installing_twice_changes_nothing_and_keeps_bokehs_function():
    assert batch_patches() is True
    first = bk_session._serialize_patches
    assert batch_patches() is True
    assert bk_session._serialize_patches is first
    assert first._ae_original is _bokehs_own()
