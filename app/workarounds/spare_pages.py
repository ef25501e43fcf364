"""A page built ahead for each route and link, handed to the next visitor who follows the same link.

Replaces: Bokeh's ApplicationContext._create_session (the session's document is built when the
visitor arrives) and bokeh.server.session._serialize_pull_reply (the document serialised for the
page when it asks).

A Bokeh server builds the visitor's document before it sends the first byte of HTML: 0.3-0.5 s
of a served plate's cold load here. Once a route has had a visitor with a plain link (no
arguments), one more document of that route is kept built, in the server's idle time: the next
plain visitor gets it at once, and the following spare is built once that visitor's page has
rendered (its document_ready event), so building it takes nothing from their own load. A link
with arguments (?preset=..., a copied state) is kept the same way once two of its visitors have
come with no other such link between them: a class opening the instructor's link finds its page
built too, and a link followed once costs no build. A visitor whose link has no spare, or who
arrives while none is ready and none is being built, gets a document built for them as before;
one who arrives while their link's spare is being built waits for that build. A spare is never
handed out twice. The spare is built as `_create_session` builds a session's document (session
context, request, token, session-created hooks, `initialize_document`), from the link's last
visitor's request path, token and arguments but with no headers or cookies (the plates are built
from the link alone); the ServerSession is made later, for the visitor who takes it, under their
own session id, request and token. Its PULL-DOC-REPLY (0.1-0.3 s of server CPU) is made ahead
too, and used only if the document has not changed since.

Read against: bokeh >=3.10,<3.11.
Buys: served cold load, lookup 802 -> 676 ms (-16 %), masking 875 -> 808 ms (-8 %), medians of
24 loads each, off and on in turn (benchmarks/workarounds.py).
Upstream report: "Bokeh server: build the next session's document ahead of the request. A
session's document is built inside the HTTP request that asks for the page (0.3-0.5 s for a
Panel app here), before the first byte is sent. A hook to build documents for a route in idle
time (a pool of one per route, handed out once, refilled after the visitor's document_ready),
with the session created around a prebuilt document, would take that off every cold load."
"""

from __future__ import annotations

import asyncio
import logging
import uuid
import weakref


log = logging.getLogger(__name__)

AFTER_READY_S = 0.05  # the next spare is built this long after the visitor's page has rendered ...
FALLBACK_S = 5.0  # ... or this long after the visitor came, if their page never says it has


PLAIN = ()  # the link with no arguments (see link_of)


class _Route:
    """The spare of one link of one application context (route) and what is needed to build the next."""

    def __init__(self, link=PLAIN) -> None:
        self.spare = None  # (document, session context), built and not yet handed out
        self.building: asyncio.Task | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.template = None  # (request, token) of the link's last visitor
        self.link = link
        self.visits = 0

    def worth_keeping(self) -> bool:
        """The plain link always; another once two visitors have followed it (a link seen once, a
        state one student copied for themselves, would cost a build no one takes)."""
        return self.link == PLAIN or self.visits >= 2

    async def take(self):
        """The spare, waiting for one being built; None when there is none to wait for."""
        if self.spare is None and self.building is not None and not self.building.done():
            await asyncio.shield(self.building)
        spare, self.spare = self.spare, None
        return spare

    def refill_later(self, ctx, delay: float) -> None:
        """Build the next spare in `delay` seconds (a later call replaces an earlier one). Runs on
        the server's event loop."""
        if self.timer is not None:
            self.timer.cancel()
        self.timer = asyncio.get_running_loop().call_later(delay, self._refill, ctx)

    def _refill(self, ctx) -> None:
        self.timer = None
        if self.spare is not None or (self.building is not None and not self.building.done()) or self.template is None:
            return
        if not self.worth_keeping():
            return
        request, token = self.template
        self.building = asyncio.ensure_future(self._build(ctx, request, token))

    async def _build(self, ctx, request, token) -> None:
        try:
            spare = await build_document(ctx, request, token)
            await asyncio.to_thread(prepare_pull_reply, spare[0])
            self.spare = spare
        except Exception:  # noqa: BLE001 - the next visitor then gets a document built for them
            log.exception("building a spare page for %s failed", getattr(ctx, "url", "?"))


_ROUTES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # application context -> {link: _Route}


def _route(ctx, link=PLAIN) -> _Route:
    """The spare of `link` (see link_of) on `ctx`. Besides the plain link, a route keeps one other:
    a new one replaces the last (its spare is dropped, its next build called off)."""
    links = _ROUTES.setdefault(ctx, {})
    if link not in links:
        for old in [k for k in links if k != PLAIN]:
            dropped = links.pop(old)
            if dropped.timer is not None:
                dropped.timer.cancel()
            dropped.spare = dropped.template = None
        links[link] = _Route(link)
    return links[link]


def _request_proxy(request, token):
    """Bokeh's request proxy for a session, from the request and its token's payload (as Bokeh)."""
    from bokeh.server.contexts import _RequestProxy
    from bokeh.util.token import get_token_payload

    payload = get_token_payload(token) if token else {}
    if "cookies" in payload and "headers" in payload and "Cookie" not in payload["headers"]:
        payload["headers"]["Cookie"] = "; ".join(f"{k}={v}" for k, v in payload["cookies"].items())
    return _RequestProxy(request, arguments=payload.get("arguments"), cookies=payload.get("cookies"),
                         headers=payload.get("headers"))


def link_of(token):
    """A session's link arguments as a key ((name, (values...)), ... sorted; PLAIN for none), or
    None when there is no token or it cannot be read (that visitor gets their own document)."""
    from bokeh.util.token import get_token_payload

    if not token:
        return None
    try:
        args = get_token_payload(token).get("arguments") or {}
        return tuple(sorted((str(k), tuple(bytes(v) if isinstance(v, (bytes, bytearray)) else str(v) for v in vs))
                            for k, vs in args.items()))
    except Exception:  # noqa: BLE001 - an unreadable token gets its own document
        return None


def _link_arguments(token) -> dict:
    from bokeh.util.token import get_token_payload

    return dict(get_token_payload(token).get("arguments") or {}) if token else {}


async def build_document(ctx, request, token):
    """A document built for `ctx` as Bokeh builds a new session's, without the session itself."""
    from bokeh.document import Document
    from bokeh.server.contexts import BokehSessionContext, _RequestProxy

    doc = Document()
    session_context = BokehSessionContext(f"spare-{uuid.uuid4().hex}", ctx.server_context, doc,
                                          logout_url=ctx._logout_url)
    # The link's last visitor's request path and arguments, without their headers or cookies.
    session_context._request = _RequestProxy(request, arguments=_link_arguments(token), cookies={}, headers={})
    session_context._token = token
    doc._session_context = weakref.ref(session_context)
    try:
        await ctx._application.on_session_created(session_context)
    except Exception as e:  # noqa: BLE001 - as Bokeh: logged, and the document is still built
        log.error("Failed to run session creation hooks %r", e, exc_info=True)
    await ctx._initialize_document_async(doc)
    return doc, session_context


def local_stylesheets(doc) -> None:
    """Point Panel's stylesheets at this server, as Panel does to a session's models when it renders
    the session's HTML (panel.io.server.server_html_page_for_session, server resources). Panel does
    it with the document's change events dropped, so a reply made before would not know of it."""
    from panel.io.resources import LOCAL_DIST, patch_model_css
    from panel.io.state import set_curdoc, state

    with set_curdoc(doc):
        rel = state.rel_path
    for root in doc.roots:
        patch_model_css(root, dist_url=f"{rel}/{LOCAL_DIST}" if rel else LOCAL_DIST)


def _stylesheet_urls(doc) -> list[str]:
    from bokeh.models import ImportedStyleSheet

    return sorted(str(s.url) for s in doc.select({"type": ImportedStyleSheet}))


def prepare_pull_reply(doc) -> None:
    """Serialise `doc` for its PULL-DOC-REPLY now; kept on the document until its first change, and
    used only if its stylesheets' addresses are still those it was made with."""
    from bokeh.protocol import Protocol
    from bokeh.server import session as bk_session

    local_stylesheets(doc)
    serialize = getattr(bk_session._serialize_pull_reply, "_ae_original", bk_session._serialize_pull_reply)
    made = {"message": serialize(Protocol(), "spare", doc), "css": _stylesheet_urls(doc)}

    def changed(_event):
        made.pop("message", None)
        doc.remove_on_change(changed)

    doc.on_change(changed)
    doc._ae_pull_reply = made


def _pull_reply_from(made, request_id):
    """A PULL-DOC-REPLY to `request_id` with the content and buffers of one made earlier."""
    import json

    cls = type(made)
    message = cls(cls.create_header(request_id=request_id), {}, made.content)
    message.add_buffers(*made.buffers)
    message._header_json = json.dumps(message.header)
    message._metadata_json = json.dumps(message.metadata)
    message._content_json = made.content_json
    return message


def adopt(ctx, spare, session_id, request, token):
    """Make the ServerSession for a visitor around a spare document, as Bokeh does for a new one."""
    from bokeh.server.session import ServerSession

    doc, session_context = spare
    session_context._id = session_id
    session_context._request = _request_proxy(request, token)
    session_context._token = token
    io_loop = ctx._loop or asyncio.get_running_loop()
    session = ServerSession(session_id, doc, io_loop=io_loop, token=token, executor=ctx._executor)
    ctx._sessions[session_id] = session
    session_context._set_session(session)
    ctx._session_contexts[session_id] = session_context
    return session


def install_spare_pages() -> bool:
    """Route Bokeh's session creation through the spares. Idempotent; False if this Bokeh lacks it."""
    from bokeh.server.contexts import ApplicationContext

    original = getattr(ApplicationContext, "_create_session", None)
    if original is None or not hasattr(ApplicationContext, "_initialize_document_async"):
        return False
    if getattr(original, "_ae_spare", False):
        return True

    async def _create_session(self, session_id, request=None, token=None):
        link = link_of(token)
        if request is None or link is None:
            return await original(self, session_id, request, token)
        route = _route(self, link)
        route.template = (request, token)
        route.visits += 1
        spare = await route.take()
        session = adopt(self, spare, session_id, request, token) if spare is not None else \
            await original(self, session_id, request, token)
        # The next spare is built once this visitor's page has rendered (its document_ready event),
        # so that it takes no time from this visitor's own load; or after FALLBACK_S if it never says.
        route.refill_later(self, FALLBACK_S)
        loop, ready = asyncio.get_running_loop(), {"seen": False}

        def on_ready(_event):  # may run in Bokeh's executor thread: hand it to the loop
            if not ready["seen"]:
                ready["seen"] = True
                loop.call_soon_threadsafe(route.refill_later, self, AFTER_READY_S)

        session.document.on_event("document_ready", on_ready)
        return session

    _create_session._ae_spare = True
    _create_session._ae_original = original
    ApplicationContext._create_session = _create_session

    from bokeh.server import session as bk_session

    serialize = bk_session._serialize_pull_reply

    def _serialize_pull_reply(protocol, request_id, document):
        made = document.__dict__.pop("_ae_pull_reply", {})  # used once at most
        if made.get("message") is not None and made["css"] == _stylesheet_urls(document):
            return _pull_reply_from(made["message"], request_id)
        return serialize(protocol, request_id, document)

    _serialize_pull_reply._ae_original = serialize
    bk_session._serialize_pull_reply = _serialize_pull_reply
    return True


install = install_spare_pages
