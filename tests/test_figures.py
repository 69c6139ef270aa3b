"""ui.figures: the shared chart builders."""

import numpy as np
import plotly.graph_objects as go

from ui.figures import axis, figure, line, mark_x, noisy_vs_true_bars, styled


def test_marker_label_sits_on_its_line_on_log_and_linear_axes() -> None:
    log_fig = mark_x(figure(line([0.01, 10], [1, 2], "a"), xaxis=axis("ε", type="log")), 0.5, "x")
    shape, note = log_fig["layout"]["shapes"][0], log_fig["layout"]["annotations"][0]
    assert shape["x0"] == 0.5  # plotly: shapes by value on a log axis ...
    assert note["x"] == np.log10(0.5)  # ... annotations by log10(value)
    lin_fig = mark_x(figure(line([0, 10], [1, 2], "a"), xaxis=axis("k")), 7, "k")
    assert lin_fig["layout"]["annotations"][0]["x"] == 7


def test_builders_make_figures_plotly_accepts() -> None:
    fig = styled(noisy_vs_true_bars(["a", "b"], np.array([3.0, 4.0]), np.array([3.5, 2.0]), 3.0))
    validated = go.Figure(fig)  # raises on any key plotly does not know
    assert [t.type for t in validated.data] == ["bar", "bar"]
    assert list(validated.data[1].error_y.array) == [3.0, 3.0]
    assert validated.layout.xaxis.tickfont.size == 14
