"""app.workarounds.spare_pages: a document built ahead for a route's next plain visitor. Held here, through
Bokeh's own ApplicationContext (no HTTP, no browser):
- the first plain visitor's document is built for them, and once their page has rendered
  (document_ready) one more is built and handed, whole and unshared, to the next plain visitor;
- a visitor whose link has arguments gets a document built from their arguments: the first
  the first two for them, the next ones ahead, as for the plain link, keeping the plain link's
  spare; a spare is built from the link alone, never from a visitor's cookies or headers;
- two visitors never share a document, also when they arrive together while a spare is built;
- the visitor who takes a spare gets their own session id, request and token on it.
Every served page of the browser tests goes through the same path (the server installs it).
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

from bokeh.application import Application
from bokeh.application.handlers.function import FunctionHandler
from bokeh.events import DocumentReady
from bokeh.models import Div, ImportedStyleSheet
from panel.io.resources import LOCAL_DIST, patch_model_css
from bokeh.server.contexts import ApplicationContext
from bokeh.util.token import generate_jwt_token

from app.workarounds import spare_pages
from app.workarounds.spare_pages import install_spare_pages
from own_thread import in_own_thread


def _context():
    built = []

    def build(doc):
        request = doc.session_context.request
        args = request.arguments
        built.append(doc)
        sheet = ImportedStyleSheet(name="sheet", url=LOCAL_DIST + "css/x.css")
        doc.add_root(Div(name="args", text=repr(sorted(args)), stylesheets=[sheet]))
        doc.add_root(Div(name="values", text=repr(sorted((k, [bytes(x).decode() for x in v]) for k, v in args.items()))))
        doc.add_root(Div(name="cookies", text=repr(sorted(request.cookies))))

    return ApplicationContext(Application(FunctionHandler(build)), url="/plate"), built


def _visitor(session_id: str, cookies=None, **arguments):
    args = {k: [v.encode()] for k, v in arguments.items()}
    cookies = cookies or {}
    token = generate_jwt_token(session_id, extra_payload={"headers": {}, "cookies": cookies, "arguments": args})
    return session_id, SimpleNamespace(arguments=args, cookies=cookies, headers={}), token


async def _until(test, timeout=10.0):
    """Wait until test() is true (the spare is built in Bokeh's worker thread)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not test():
        assert loop.time() < end, "timed out"
        await asyncio.sleep(0.01)


def _rendered(session):
    session.document.callbacks.trigger_event(DocumentReady())


async def _first_visit(ctx):
    """A first plain visitor, whose page renders; returns their session, the route and its spare."""
    first = await ctx.create_session_if_needed(*_visitor("first"))
    route = spare_pages._route(ctx)
    assert route.spare is None  # nothing is built ahead before the first page has rendered
    _rendered(first)
    await _until(lambda: route.spare is not None)
    return first, route, route.spare[0]


def test_the_next_plain_visitor_gets_the_page_built_ahead():
    assert install_spare_pages()

    async def run():
        ctx, built = _context()
        first, route, spare_doc = await _first_visit(ctx)
        assert built == [first.document, spare_doc]

        visitor = _visitor("second")
        second = await ctx.create_session_if_needed(*visitor)
        assert second.document is spare_doc and route.spare is None
        assert len(built) == 2  # taken, not built again
        assert second.id == "second" and second.document.session_context.id == "second"
        assert second.token == visitor[2] and second.document.session_context._token == visitor[2]
        assert second.document.session_context.request._request is visitor[1]
        assert ctx.get_session("second") is second and ctx.get_session("first") is first
        assert first.document is not second.document

        # Its page renders, and the next spare follows.
        _rendered(second)
        await _until(lambda: route.spare is not None)
        assert len(built) == 3

    in_own_thread(asyncio.run, run())


def test_a_link_with_arguments_gets_its_own_page():
    assert install_spare_pages()

    async def run():
        ctx, built = _context()
        _, route, spare_doc = await _first_visit(ctx)

        linked = await ctx.create_session_if_needed(*_visitor("linked", angle="120"))
        assert linked.document is not spare_doc and route.spare[0] is spare_doc  # the spare waits on
        assert linked.document.get_model_by_name("args").text == "['angle']"
        assert spare_doc.get_model_by_name("args").text == "[]"
        assert len(built) == 3

    in_own_thread(asyncio.run, run())


def test_a_link_with_arguments_is_built_ahead_for_its_next_visitor():
    assert install_spare_pages()

    async def run():
        ctx, built = _context()
        _, plain_route, plain_spare = await _first_visit(ctx)

        # The link's first visitor: built for them, from their arguments (and cookies); a link
        # followed once is not built again ahead.
        first = await ctx.create_session_if_needed(*_visitor("l1", cookies={"secret": "x"}, preset="four-tokens"))
        assert built[-1] is first.document and len(built) == 3
        assert first.document.get_model_by_name("cookies").text == "['secret']"
        link = spare_pages.link_of(first.token)
        assert link == (("preset", (b"four-tokens",)),)
        route = spare_pages._route(ctx, link)
        _rendered(first)
        await _until(lambda: route.timer is None)  # the refill after the render has run ...
        assert route.spare is None and route.building is None and len(built) == 3  # ... and built nothing

        # Its second visitor: built for them too; once their page has rendered, one is built ahead
        # from the link alone.
        second = await ctx.create_session_if_needed(*_visitor("l2", cookies={"secret": "y"}, preset="four-tokens"))
        assert built[-1] is second.document and len(built) == 4
        _rendered(second)
        await _until(lambda: route.spare is not None)
        spare_doc = route.spare[0]
        assert spare_doc.get_model_by_name("values").text == "[('preset', ['four-tokens'])]"
        assert spare_doc.get_model_by_name("cookies").text == "[]"  # the link alone, not a visitor

        # The next visitor of the same link takes it, under their own id and request.
        third = await ctx.create_session_if_needed(*_visitor("l3", preset="four-tokens"))
        assert third.document is spare_doc and third.id == "l3" and route.spare is None
        assert spare_doc.session_context.request.arguments == {"preset": [b"four-tokens"]}
        assert len(built) == 5

        # Another link replaces this one (its spare dropped); the plain link's spare waits on.
        _rendered(third)
        await _until(lambda: route.spare is not None)
        other = await ctx.create_session_if_needed(*_visitor("o1", preset="two-tokens"))
        assert built[-1] is other.document
        assert other.document.get_model_by_name("values").text == "[('preset', ['two-tokens'])]"
        assert route.spare is None and link not in spare_pages._ROUTES[ctx]
        assert plain_route.spare[0] is plain_spare
        plain = await ctx.create_session_if_needed(*_visitor("p2"))
        assert plain.document is plain_spare

    in_own_thread(asyncio.run, run())


def test_visitors_arriving_together_never_share_a_page():
    assert install_spare_pages()

    async def run():
        ctx, built = _context()
        first = await ctx.create_session_if_needed(*_visitor("first"))
        route = spare_pages._route(ctx)
        route.refill_later(ctx, 0)  # a spare starts building now ...
        await _until(lambda: route.building is not None)
        # ... and three plain visitors arrive while it is being built.
        sessions = await asyncio.gather(*(ctx.create_session_if_needed(*_visitor(f"v{i}")) for i in range(3)))
        docs = [first.document] + [s.document for s in sessions]
        assert len({id(d) for d in docs}) == 4, "two visitors were given one document"
        assert sorted(s.id for s in sessions) == ["v0", "v1", "v2"]
        assert len(built) == 4  # the spare went to one of them; the other two were built for them
        assert all(d in built for d in docs)

    in_own_thread(asyncio.run, run())


def test_installing_twice_changes_nothing():
    assert install_spare_pages()
    method = ApplicationContext._create_session
    assert install_spare_pages()
    assert ApplicationContext._create_session is method and method._ae_spare


def _drop_events_while(doc, change):
    """Make a change as Panel's patch_model_css does: the document held, its events then dropped."""
    held, events = doc.callbacks.hold_value, list(doc.callbacks._held_events)
    doc.hold()
    change()
    doc.callbacks._held_events = events
    doc.callbacks._hold = held


def test_a_spares_document_goes_out_as_serialised_ahead_unless_it_changed():
    from bokeh.protocol import Protocol
    from bokeh.server import session as bk_session

    assert install_spare_pages()
    serialize, own = bk_session._serialize_pull_reply, bk_session._serialize_pull_reply._ae_original

    async def run():
        ctx, _ = _context()
        _, route, spare_doc = await _first_visit(ctx)
        made = spare_doc._ae_pull_reply["message"]
        # The visitor's HTML is rendered: Panel points the stylesheets at this server, events
        # dropped. The spare's were pointed there when it was built, so its reply still stands.
        _drop_events_while(spare_doc, lambda: patch_model_css(spare_doc.roots[0], dist_url=LOCAL_DIST))
        reply, fresh = serialize(Protocol(), "r1", spare_doc), own(Protocol(), "r1", spare_doc)
        assert reply.content_json is made.content_json  # made ahead, not again
        assert reply.msgtype == fresh.msgtype == "PULL-DOC-REPLY" and reply.header["reqid"] == "r1"
        assert reply.content_json == fresh.content_json and reply.header["num_buffers"] == fresh.header["num_buffers"]
        assert LOCAL_DIST + "css/x.css?v=" in reply.content_json
        assert [(b.id, b.to_bytes()) for b in reply.buffers] == [(b.id, b.to_bytes()) for b in fresh.buffers]
        assert reply.header["msgid"] != fresh.header["msgid"]
        assert not hasattr(spare_doc, "_ae_pull_reply")  # used once; a second pull serialises again

        # The next spare changes before it is pulled: the reply is made afresh, with the change.
        second = await ctx.create_session_if_needed(*_visitor("second"))
        _rendered(second)
        await _until(lambda: route.spare is not None)
        third_doc = route.spare[0]
        third_doc.get_model_by_name("args").text = "changed after it was built"
        reply = serialize(Protocol(), "r2", third_doc)
        assert "changed after it was built" in reply.content_json
        assert reply.content_json == own(Protocol(), "r2", third_doc).content_json

        # ... and so does one whose stylesheet moved with its events dropped.
        third = await ctx.create_session_if_needed(*_visitor("third"))
        _rendered(third)
        await _until(lambda: route.spare is not None)
        fourth_doc = route.spare[0]
        sheet = fourth_doc.get_model_by_name("sheet")
        _drop_events_while(fourth_doc, lambda: setattr(sheet, "url", "/elsewhere/x.css"))
        reply = serialize(Protocol(), "r3", fourth_doc)
        assert "/elsewhere/x.css" in reply.content_json

    in_own_thread(asyncio.run, run())
