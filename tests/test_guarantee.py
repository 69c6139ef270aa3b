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
    with pytest.raises(ValueError, match="unknown input"):
        Guarantee("person", parts, read_from_data=("seed",))
