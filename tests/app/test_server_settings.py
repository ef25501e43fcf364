"""Settings the server chooses for every page it serves, and that every entry point passes them.

`serve()` installs the workarounds and sets Panel's and Bokeh's process-wide settings before it
hands over to `pn.serve`: called in the test process, it would leave them for every later test of
that worker. So it is called in a Python of its own (with `pn.serve` replaced by a recorder),
once for this module, and reports what it saw."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

SERVE = r"""
import json, os, sys
import panel as pn
from bokeh.settings import settings
from app import cli
from app.delivery import server

seen, out = [], {}
pn.serve = lambda *a, **kw: seen.append({k: kw[k] for k in ("unused_session_lifetime", "check_unused_sessions",
                                                          "websocket_origin")})
out["validation_default"] = settings.perform_document_validation()
out["cli_exit"] = cli.main(["serve", "--port", "5999"])
out["cli"] = seen[-1]
out["validation_served"] = settings.perform_document_validation()
settings.perform_document_validation.unset_value()
server.serve(port=6001)
out["serve"] = seen[-1]
settings.perform_document_validation.unset_value()
os.environ["BOKEH_VALIDATE_DOC"] = "true"
server.serve(port=5998)
out["validation_asked"] = settings.perform_document_validation()
out["browser_info"] = pn.config.browser_info
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def served():
    env = {k: v for k, v in os.environ.items()
           if k not in ("BOKEH_VALIDATE_DOC", "AE_UNUSED_SESSION_MS", "AE_CHECK_UNUSED_MS")}
    res = subprocess.run([sys.executable, "-c", SERVE], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout.strip().splitlines()[-1])


def test_the_server_leaves_document_checks_to_the_tests_unless_asked(served):
    """Bokeh's check of every session's document is off when served (tests/app/test_plates_build.py
    checks every page instead), unless BOKEH_VALIDATE_DOC is set."""
    assert served["validation_default"] is True  # Bokeh's default
    assert served["validation_served"] is False
    assert served["validation_asked"] is True
    assert served["browser_info"] is False  # no page reads Panel's browser information


def test_every_entry_point_configures_session_cleanup(served):
    """serve() (used by the command line, which the Dockerfile runs) passes both cleanup settings."""
    assert served["cli_exit"] == 0
    for call in (served["cli"], served["serve"]):
        assert call["unused_session_lifetime"] == 15_000 and call["check_unused_sessions"] == 5_000, call
    assert served["cli"]["websocket_origin"] == ["localhost:5999", "127.0.0.1:5999"]
    assert served["serve"]["websocket_origin"] == ["localhost:6001", "127.0.0.1:6001"]
    cmd = next(line for line in (ROOT / "Dockerfile").read_text().splitlines() if line.startswith("CMD"))
    assert re.search(r"exec attention-explorable serve\b", cmd), cmd  # the same path as the command line
