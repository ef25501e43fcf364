"""The learn plate's curves: their step axis ends at 10, 20, 50, 100, ... (data.steps_shown), so a
step redraws the curves without moving the axes, and the plate Python renders shows that end."""

from __future__ import annotations

import pytest

from app.plates.learn import data
from app.plates.learn.state import LearnState
from app.plates.learn.view import LearnPlate


@pytest.mark.parametrize("last, end", [(0, 10), (10, 10), (11, 20), (20, 20), (21, 50), (50, 50), (51, 100),
                                       (199, 200), (201, 500), (999, 1000), (1001, 2000), (2000, 2000)])
def test_the_step_axis_ends_at_the_least_round_end_that_holds_the_last_step(last, end):
    assert data.steps_shown(last) == end


def test_the_plate_shows_its_runs_steps_on_that_axis():
    plate = LearnPlate(state=LearnState(step=37))
    for f in (plate.loss_plot, plate.grad_plot):
        assert (f.x_range.start, f.x_range.end) == (0, 50)
    plate.state.step = 3
    for f in (plate.loss_plot, plate.grad_plot):
        assert f.x_range.end == 10
