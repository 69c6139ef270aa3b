"""dp_core.synthetic: OpenDP's MST on a declared domain, the page's budget split against the
noise OpenDP used, the rho-zCDP guarantee against OpenDP's own conversion, and the fidelity
measures against hand counts."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from dp_core.accountants import zcdp_rho_for
from dp_core.errors import CodedError
from dp_core.synthetic import (
    NONE,
    SynthDomain,
    bin_labels,
    binned,
    budget_split,
    marginal_distances,
    rare_cells,
    synthesize,
    total_variation,
)

DOMAIN = SynthDomain(categories=(("a", ("x", "y")), ("b", ("x", "y"))), cuts=(("v", (25, 50, 75)),))


def _table(n: int = 3000) -> pd.DataFrame:
    rng = np.random.default_rng(1)
    a = rng.choice(["x", "y"], n)
    b = np.where(rng.random(n) < 0.9, a, np.where(a == "x", "y", "x"))
    return pd.DataFrame({"a": a, "b": b, "v": rng.integers(0, 100, n)})


@pytest.fixture(scope="module")
def released():
    pytest.importorskip("mbi")
    return synthesize(_table(), DOMAIN, rho=1.0, algorithm="mst")


def test_opendps_noise_is_the_budget_split_the_page_shows(released) -> None:
    """One-way marginals get rho/2 shared by the 3 columns: sigma = sqrt(3 / (2 * 0.5));
    the 2 measured two-way marginals share 0.45 rho: sigma = sqrt(2 / (2 * 0.45))."""
    split = budget_split("mst")
    assert split == pytest.approx({"oneway": 0.5, "select": 0.05, "measure": 0.45})
    stds = released.marginals.groupby("marginal")["std"].first()
    one = math.sqrt(3 / (2 * split["oneway"]))
    two = math.sqrt(len(released.measured) / (2 * split["measure"]))
    assert stds[["a", "b", "v"]].tolist() == pytest.approx([one] * 3, rel=1e-6)
    assert len(released.measured) == 2  # MST: a tree over three columns
    for pair in released.measured:
        assert stds[" × ".join(pair)] == pytest.approx(two, rel=1e-6)


@pytest.mark.parametrize("seed", range(4))
def test_marginal_distances_count_every_cell_as_a_groupby_does(seed) -> None:
    """The marginals' counts (one bincount over each column's cell codes) against pandas'
    groupby of the binned rows, reindexed over every combination of cells: the same TVD to
    the last bit, with empty cells, a cell declared twice, a column of one cell and values
    that are no cell."""
    rng = np.random.default_rng(seed)
    domain = SynthDomain(
        categories=(("a", ("x", "y", "z", "y")), ("c", ("only",))), cuts=(("v", (25, 50, 75)),)
    )  # "y" declared twice
    labels = {c: domain.labels(c) for c in domain.columns}

    def table(n: int) -> pd.DataFrame:
        cells = {c: rng.choice([*labels[c], "stray"], n) for c in domain.columns}
        cells["a"] = np.where(cells["a"] == "z", "x", cells["a"])  # z never occurs
        return pd.DataFrame(cells)

    real, synthetic = table(500), table(80)
    found = marginal_distances(real, synthetic, domain)
    for row in found.itertuples():
        full = pd.MultiIndex.from_product([labels[c] for c in row.columns])
        if len(row.columns) == 1:
            full = pd.Index(labels[row.columns[0]])
        by = list(row.columns) if len(row.columns) > 1 else row.columns[0]
        counts = [
            frame.groupby(by).size().reindex(full, fill_value=0).to_numpy()
            for frame in (real, synthetic)
        ]
        assert row.tvd == total_variation(*counts), row.columns


def test_the_synthetic_table_keeps_what_was_measured(released) -> None:
    real, synthetic = binned(_table(), DOMAIN), binned(released.synthetic, DOMAIN)
    assert abs(len(released.synthetic) - 3000) < 30
    distances = marginal_distances(real, synthetic, DOMAIN)
    assert (distances.loc[distances["ways"] == 1, "tvd"] < 0.05).all()
    ab = distances.loc[distances["columns"] == ("a", "b"), "tvd"].item()
    assert ab < 0.05  # a and b agree 90% of the time, in the synthetic rows too
    agree = (synthetic["a"] == synthetic["b"]).mean()
    assert 0.85 < agree < 0.95
    cells = released.marginals[released.marginals["marginal"] == "a"]["cell"].tolist()
    assert cells == ["x", "y", NONE]  # OpenDP adds the cell of values outside the keys


def test_the_guarantee_is_opendps_own_conversion_of_rho() -> None:
    """The page spends the largest rho whose (eps, delta) conversion stays within its eps;
    OpenDP's own zCDP -> approximate DP conversion of that rho gives at most the same eps."""
    import opendp.prelude as dp

    dp.enable_features("contrib")
    for epsilon, delta in ((0.5, 1e-6), (1.0, 1e-5), (4.0, 1e-7), (10.0, 1e-5)):
        rho = zcdp_rho_for(epsilon, delta)
        space = dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float)
        gaussian = dp.m.make_gaussian(*space, scale=1 / math.sqrt(2 * rho))
        assert gaussian.map(1.0) == pytest.approx(rho, rel=1e-9)
        profile = dp.c.make_zCDP_to_approxDP(gaussian).map(1.0)
        assert profile.epsilon(delta) <= epsilon * (1 + 1e-9)
        assert profile.epsilon(delta) >= epsilon * 0.99  # and the page wastes little of it


def test_bins_and_categories_of_a_table() -> None:
    assert bin_labels((25, 50)) == ("≤ 25", "(25, 50]", "> 50")
    frame = pd.DataFrame({"a": ["x", "z", None], "b": ["y", "y", "x"], "v": [25, 26.5, None]})
    shown = binned(frame, DOMAIN)
    assert shown["a"].tolist() == ["x", NONE, NONE]
    assert shown["v"].tolist() == ["≤ 25", "(25, 50]", "> 75"]  # a missing number: last bin
    assert DOMAIN.labels("v") == ("≤ 25", "(25, 50]", "(50, 75]", "> 75")


def test_total_variation_and_rare_cells_by_hand() -> None:
    assert total_variation([1, 1], [1, 1]) == 0
    assert total_variation([2, 0], [0, 5]) == 1
    assert total_variation([3, 1], [1, 1]) == pytest.approx(0.25)
    real = binned(pd.DataFrame({"a": ["x"] * 9 + ["y"], "b": ["x"] * 10, "v": [1] * 10}), DOMAIN)
    synthetic = binned(pd.DataFrame({"a": ["x"] * 5, "b": ["x"] * 5, "v": [1] * 5}), DOMAIN)
    rare = rare_cells(real, synthetic, DOMAIN, ("a", "b"), most=5)
    assert rare.to_dict("records") == [{"a": "y", "b": "x", "real": 1, "synthetic": 0.0}]


def test_declared_domains_are_checked() -> None:
    with pytest.raises(CodedError) as few:
        SynthDomain(categories=(("a", ("x",)),))
    assert few.value.code == "synthetic_columns"
    with pytest.raises(CodedError) as cuts:
        SynthDomain(categories=(("a", ("x",)),), cuts=(("v", (5, 5)),))
    assert cuts.value.code == "cuts_order"
    with pytest.raises(CodedError) as empty:
        SynthDomain(categories=(("a", ()), ("b", ("x",))))
    assert empty.value.code == "no_categories"
    with pytest.raises(CodedError) as whole:
        SynthDomain(categories=(("a", ("x",)),), cuts=(("v", (2.5, 5)),), whole=("v",))
    assert whole.value.code == "cuts_whole"


def test_neighbouring_tables_release_the_same_type_whatever_one_person_holds() -> None:
    """300 persons of whole ages and hours, and the same with one person of age and hours
    30.5 (the audit's counterexample): the synthetic columns' type is the declared one in
    both, never read from the data (it was: whole numbers for the first table, none whole for
    the second). Ages are declared whole, hours not: both cases in the same two releases."""
    pytest.importorskip("mbi")
    domain = SynthDomain(
        categories=(("sex", ("F", "M")),),
        cuts=(("age", (30, 50)), ("hours", (30, 50))),
        whole=("age",),
    )
    rng = np.random.default_rng(7)
    persons = pd.DataFrame(
        {
            "sex": rng.choice(["F", "M"], 300),
            "age": rng.integers(18, 90, 300),
            "hours": rng.integers(1, 80, 300),
        }
    )
    odd = pd.DataFrame({"sex": ["F"], "age": [30.5], "hours": [30.5]})
    neighbour = pd.concat([persons, odd], ignore_index=True)
    for table in (persons, neighbour):
        made = synthesize(table, domain, rho=0.5).synthetic
        age, hours = made["age"].dropna(), made["hours"].dropna()
        assert pd.api.types.is_integer_dtype(age)
        assert pd.api.types.is_float_dtype(hours) and (hours % 1 != 0).any()
    assert binned(neighbour, domain)["age"].iloc[-1] == "(30, 50]"  # 30.5 keeps its bin: 31


def test_a_column_without_a_single_number_is_released_not_refused() -> None:
    """Whether a release is made never depends on one person's value being a number: a
    column with no number at all counts every row in its last bin (it was refused)."""
    pytest.importorskip("mbi")
    table = pd.DataFrame({"a": ["x", "y"] * 50, "v": ["n/a"] * 100})
    found = synthesize(
        table, SynthDomain(categories=(("a", ("x", "y")),), cuts=(("v", (5,)),)), 1.0
    )
    assert len(found.synthetic) > 0 and set(found.synthetic.columns) == {"a", "v"}
