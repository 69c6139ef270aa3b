"""dp_core.guarantee: parts of a release composed by basic composition."""

import pytest

from dp_core.guarantee import Guarantee, Part


def test_parts_add_up_by_basic_composition() -> None:
    # Dwork & Roth 2014, Thm 3.16: (sum eps_i, sum delta_i).
    total = Guarantee("patient_id", (Part("values", 1.0), Part("categories", 0.5, 1e-6)))
    assert total.epsilon == 1.5
    assert total.delta == 1e-6
    assert total.part("categories") == Part("categories", 0.5, 1e-6)
    assert total.part("bounds") is None


@pytest.mark.parametrize(("epsilon", "delta"), [(0, 0), (-1, 0), (1, 1), (1, -0.1)])
def test_a_part_refuses_impossible_budgets(epsilon, delta) -> None:
    with pytest.raises(ValueError):
        Part("values", epsilon, delta)
