"""The example notebook in assets/ runs clean in a real kernel (issue: plates in Jupyter)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = pytest.mark.kernel

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOK = Path(__file__).resolve().parents[2] / "assets" / "lookup.ipynb"


def test_example_notebook_runs_and_sets_state_from_python():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOK.parent.parent)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    text = "".join(o.get("text", "") for o in outputs if o.get("output_type") == "stream")
    assert "'55.1%'" in text and "output 16.84" in text
    assert "largest weight at length 4: 69.0%" in text
    # The plate displayed itself (a Panel/Bokeh mimebundle, not a plain repr).
    displayed = [o for o in outputs if o.get("output_type") in ("display_data", "execute_result")]
    assert any(any("bokeh" in k or "holoviews" in k or "html" in k for k in o.get("data", {})) for o in displayed)
