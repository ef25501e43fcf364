"""app.spare_pages builds a session's document ahead (build_document) and makes its ServerSession
later (adopt): Bokeh 3.10's ApplicationContext._create_session, cut in two; and it makes a spare's
PULL-DOC-REPLY ahead, sending it later under the page's request id as Bokeh's
_serialize_pull_reply and pull_doc_reply.create would. Held here to those functions' sources, so
that a Bokeh that builds sessions or replies differently is read again before the copies are
trusted (tests/codebase/test_server_switches.py: the server installs it unless AE_SPARE_PAGES=0).
"""

from __future__ import annotations

from bokeh.protocol.messages.pull_doc_reply import pull_doc_reply
from bokeh.server import session as bk_session
from bokeh.server.contexts import ApplicationContext

from source_digest import source_sha256

# sha256 of Bokeh 3.10.2's ApplicationContext._create_session, dedented.
BOKEH_CREATE_SESSION_SHA256 = "e83501e43a8061cb2ca7e3905b64dda083dee29d1c74a532739e5f35b0267e9c"

# ... of bokeh.server.session._serialize_pull_reply and of pull_doc_reply.create.
BOKEH_SERIALIZE_PULL_REPLY_SHA256 = "1738ea95a8ddd9732c72cb802cc65e708e7ddafe52e3c61c34cd69c4448dffe3"
BOKEH_PULL_DOC_REPLY_CREATE_SHA256 = "f9d88806651ecec87c98610368e0a0148ebb4ca93fb020c68b6aad3093c967e8"


def test_bokehs_session_builder_is_the_one_copied():
    digest, source = source_sha256(ApplicationContext._create_session)
    assert digest == BOKEH_CREATE_SESSION_SHA256, source


def test_bokehs_pull_reply_is_the_one_made_ahead():
    digest, source = source_sha256(bk_session._serialize_pull_reply)
    assert digest == BOKEH_SERIALIZE_PULL_REPLY_SHA256, source
    digest, source = source_sha256(pull_doc_reply.create)
    assert digest == BOKEH_PULL_DOC_REPLY_CREATE_SHA256, source

