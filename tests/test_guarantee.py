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


def test_anything_read_from_the_data_makes_the_release_not_private() -> None:
    parts = (Part("values", 1.0),)
    assert Guarantee("person", parts).differentially_private
    read = Guarantee("person", parts, read_from_data=("categories", "cap", "cap"))
    assert not read.differentially_private
    assert read.read_from_data == ("cap", "categories")  # once each, in a fixed order
    assert read.epsilon == 1.0  # what the noise alone would give stays stated
    with pytest.raises(ValueError, match="read_from_data must be one of"):
        Guarantee("person", parts, read_from_data=("seed",))


def test_a_guarantee_states_epsilon_rounded_up_as_a_setting_reads() -> None:
    from ui.common.formatting import epsilon_bound

    assert epsilon_bound(1.386294) == "1.387"  # never below the bound (1.386 would be)
    assert epsilon_bound(1.0000000000000002) == "1"  # float noise is not privacy loss
    assert epsilon_bound(1e-4) == "0.0001" and epsilon_bound(8e-4) == "0.0008"  # not 1.000e-04
    assert epsilon_bound(float("inf")) == "∞"
