"""One message for one answer: the server's document changes from one callback, sent together.

When the page sends a change, Bokeh's server runs the plate's Python callbacks with the session's
document locked, collects every change they make (one `_PendingPatch` per model attribute) and,
before it acknowledges the page's message, serialises and writes each as a PATCH-DOC message of
its own (`bokeh.server.session._serialize_patches`, Bokeh 3.10). One fold of the scaling plate
was ~14 such messages, masking's ~21: each serialised, framed, written and, in the browser,
handled in its own task. PATCH-DOC carries a list of events, so `batch_patches()` makes the
serialiser group consecutive patches for the same document, protocol and connections into one
message with their events in order (what Panel's own `write_events` does outside a lock). The
order of the page's messages is unchanged: the answer still goes out before the acknowledgement.
Installed once per server process by app.server; tests/codebase/test_patch_batching.py holds it
to Bokeh's function and to the message it replaces.
"""

from __future__ import annotations


def batch_patches() -> bool:
    """Group the pending patches of one locked callback into as few PATCH-DOC messages as possible.

    Returns False (and changes nothing) when this Bokeh has no `_serialize_patches` to replace.
    """
    from bokeh.server import session as bk_session

    original = getattr(bk_session, "_serialize_patches", None)
    if original is None or not hasattr(bk_session, "patch_curdoc"):
        return False
    if getattr(original, "_ae_batched", False):
        return True

    def serialize_batched(pending):
        groups: list[tuple[object, object, tuple, list]] = []  # (document, protocol, connections, events)
        for patch in pending:
            doc = patch.event.document
            last = groups[-1] if groups else None
            if last is not None and last[0] is doc and last[1] is patch.protocol and last[2] == patch.connections:
                last[3].append(patch.event)
            else:
                groups.append((doc, patch.protocol, patch.connections, [patch.event]))
        messages = []
        for doc, protocol, connections, events in groups:
            with bk_session.patch_curdoc(doc):
                message = protocol.create("PATCH-DOC", events)
                message.prepare()
            messages.append((message, connections))
        return messages

    serialize_batched._ae_batched = True
    serialize_batched._ae_original = original
    bk_session._serialize_patches = serialize_batched
    return True


install = batch_patches
