"""dp_core.partition_selection and dp_core.domains against OpenDP, scipy and exact enumeration."""

import itertools
import math
from decimal import Decimal, localcontext

import numpy as np
import opendp.prelude as dp
import pandas as pd
import pytest
from scipy import stats

from dp_core import domains, partition_selection
from dp_core.domains import (
    MAX_DECLARED_CATEGORIES,
    clipped_sums_over_domain,
    counts_over_domain,
    parse_declared_categories,
)
from dp_core.partition_selection import (
    distinct_person_counts,
    expected_kept,
    laplace_threshold,
    partition_keep_probability,
    select_partitions,
    threshold_delta,
)

dp.enable_features("contrib")

SETTINGS = [(1.0, 1e-6, 1), (1.0, 1e-6, 2), (0.1, 1e-9, 5), (3.0, 1e-5, 1), (0.5, 1e-7, 10)]


def _opendp_threshold(scale: float, threshold: float):
    # OpenDP's Laplace threshold on a map of float counts, metric L01Inf (l0, l1, linf).
    domain = dp.map_domain(dp.atom_domain(T=str), dp.atom_domain(T=float, nan=False))
    metric = dp.l01inf_distance(dp.absolute_distance(T=float))
    return dp.m.make_laplace_threshold(domain, metric, scale=scale, threshold=threshold)


# ---------------------------------------------------------------------------------------
# The threshold: closed form and OpenDP's privacy map
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("epsilon", "delta", "l0"), SETTINGS)
def test_threshold_is_the_closed_form_and_gives_delta(epsilon, delta, l0) -> None:
    b = l0 / epsilon
    tau = laplace_threshold(epsilon=epsilon, delta=delta, max_partitions=l0)
    # Wilson et al. 2020 Sec 5: tau = 1 + b ln(1 / (2 (1 - (1 - delta)^(1/l0)))), evaluated
    # with 50 significant digits (decimal), since 1 - (1 - delta)^(1/l0) cancels in floats.
    with localcontext() as ctx:
        ctx.prec = 50
        one = Decimal(1)
        q = one - (one - Decimal(delta)) ** (one / l0)
        closed = float(one + Decimal(b) * (one / (2 * q)).ln())
    assert tau == pytest.approx(closed, rel=1e-13)
    # A partition of one person is kept with p = exp(-(tau - 1) / b) / 2; l0 of them: delta.
    p = 0.5 * math.exp(-(tau - 1) / b)
    assert 1 - (1 - p) ** l0 == pytest.approx(delta, rel=1e-6)
    assert threshold_delta(threshold=tau, epsilon=epsilon, max_partitions=l0) == pytest.approx(
        delta, rel=1e-12
    )


@pytest.mark.parametrize(("epsilon", "delta", "l0"), SETTINGS)
def test_threshold_privacy_matches_opendp_map(epsilon, delta, l0) -> None:
    tau = laplace_threshold(epsilon=epsilon, delta=delta, max_partitions=l0)
    b = partition_selection.partition_selection_scale(epsilon=epsilon, max_partitions=l0)
    # OpenDP's map at d_in = (l0, l1 = l0, linf = 1): one person, l0 partitions, 1 each.
    eps_opendp, delta_opendp = _opendp_threshold(b, tau).map((l0, float(l0), 1.0))
    assert eps_opendp == pytest.approx(epsilon, rel=1e-12)
    # OpenDP rounds 1 - (1 - p)^l0 outwards in floating point: at most 1e-6 relatively above.
    assert delta * (1 - 1e-12) <= delta_opendp <= delta * (1 + 1e-6)


def test_opendp_map_rejects_a_threshold_one_noise_scale_too_low() -> None:
    # The comparison can fail: tau - b gives e times the delta (p grows by e^1).
    tau = laplace_threshold(epsilon=1.0, delta=1e-6, max_partitions=1)
    _, delta_opendp = _opendp_threshold(1.0, tau - 1.0).map((1, 1.0, 1.0))
    assert delta_opendp == pytest.approx(math.e * 1e-6, rel=1e-6)


@pytest.mark.parametrize("tau", [1.0, 2.5, 14.0, 40.0])
def test_threshold_delta_is_opendps_delta_for_any_threshold(tau) -> None:
    for l0 in (1, 3):
        ours = threshold_delta(threshold=tau, epsilon=0.7, max_partitions=l0)
        _, theirs = _opendp_threshold(l0 / 0.7, tau).map((l0, float(l0), 1.0))
        assert theirs == pytest.approx(ours, rel=1e-6)


# ---------------------------------------------------------------------------------------
# Keep probabilities: exact, against scipy, OpenDP's draws and our own draws
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("epsilon", "delta", "l0"), [(1.0, 1e-6, 1), (0.5, 1e-3, 3)])
def test_keep_probability_is_the_laplace_tail(epsilon, delta, l0) -> None:
    tau = laplace_threshold(epsilon=epsilon, delta=delta, max_partitions=l0)
    counts = np.arange(0, 120)
    # scipy: P(c + Lap(b) >= tau) = laplace(scale=b).sf(tau - c).
    expected = stats.laplace(scale=l0 / epsilon).sf(tau - counts)
    got = partition_keep_probability(counts, epsilon=epsilon, delta=delta, max_partitions=l0)
    np.testing.assert_allclose(got, expected, rtol=1e-10, atol=1e-15)


def test_keep_probability_of_one_person_matches_opendp_draws() -> None:
    # OpenDP's measurement on 20,000 partitions of count 1: the share it keeps is p.
    epsilon, delta, l0 = 1.0, 0.3, 1
    tau = laplace_threshold(epsilon=epsilon, delta=delta, max_partitions=l0)
    p = float(partition_keep_probability(1, epsilon=epsilon, delta=delta, max_partitions=l0))
    assert p == pytest.approx(delta)  # l0 = 1: a lone person's partition is kept w.p. delta
    n = 20_000
    kept = len(_opendp_threshold(l0 / epsilon, tau)({str(i): 1.0 for i in range(n)}))
    assert abs(kept / n - p) < 5 * math.sqrt(p * (1 - p) / n)


@pytest.mark.parametrize(("l0", "count"), [(1, 1), (2, 1), (2, 3), (4, 9)])
def test_keep_probability_matches_monte_carlo(l0, count) -> None:
    epsilon, delta, n = 1.0, 0.2, 200_000
    p = float(partition_keep_probability(count, epsilon=epsilon, delta=delta, max_partitions=l0))
    labels = np.arange(n)
    selection = select_partitions(
        np.random.default_rng(11 + l0 + count),
        labels,
        np.full(n, count),
        epsilon=epsilon,
        delta=delta,
        max_partitions=l0,
    )
    sigma = math.sqrt(p * (1 - p) / n)
    assert abs(selection.n_kept / n - p) < 5 * sigma
    # ... and a wrong formula (no 1/2 in the tail) is rejected, so the check can fail.
    assert count < selection.threshold
    assert abs(selection.n_kept / n - 2 * p) > 10 * sigma


# ---------------------------------------------------------------------------------------
# Exact (epsilon, delta) check on small tables: every person removed, every label set
# ---------------------------------------------------------------------------------------

# l0, person -> categories (each person in at most l0), and whether delta is attained
TABLES = {
    "l0=1, C held by one person": (1, {1: "A", 2: "A", 3: "A", 4: "B", 5: "B", 6: "C"}, True),
    "l0=2, C held by one person": (2, {1: "AB", 2: "AB", 3: "A", 4: "AB", 5: "B", 6: "BC"}, False),
    "l0=2, B and C held by one person": (
        2,
        {1: "A", 2: "A", 3: "A", 4: "A", 5: "A", 6: "BC"},
        True,
    ),
}


def _person_counts(table: dict[int, str], removed: int | None) -> dict[str, int]:
    counts = dict.fromkeys("ABC", 0)
    for person, categories in table.items():
        if person != removed:
            for category in set(categories):
                counts[category] += 1
    return counts


def _label_set_probabilities(counts: dict[str, int], keep_probability) -> dict[tuple, float]:
    """P(released label set = S) for every S, by enumeration; absent categories never kept."""
    keep = {c: float(keep_probability(n)) if n > 0 else 0.0 for c, n in counts.items()}
    out = {}
    for flags in itertools.product((False, True), repeat=len(keep)):
        out[flags] = math.prod(
            keep[c] if f else 1 - keep[c] for c, f in zip(keep, flags, strict=True)
        )
    return out


def _hockey_stick(p: dict, q: dict, epsilon: float) -> float:
    """max over events E of P(E) - e^eps Q(E) = sum_S max(0, P(S) - e^eps Q(S))."""
    return sum(max(0.0, p[s] - math.exp(epsilon) * q[s]) for s in p)


@pytest.mark.parametrize("name", TABLES)
def test_removing_any_person_changes_the_labels_with_probability_at_most_delta(name) -> None:
    l0, table, tight = TABLES[name]
    epsilon, delta = 1.0, 1e-3
    settings = {"epsilon": epsilon, "delta": delta, "max_partitions": l0}

    def keep(n: int) -> float:
        return partition_keep_probability(n, **settings)

    full = _person_counts(table, None)
    p_full = _label_set_probabilities(full, keep)
    worst = 0.0
    for person in table:
        smaller = _person_counts(table, person)
        vanish = [c for c in full if full[c] > 0 and smaller[c] == 0]
        # P(some partition that vanishes without this person is released from D) <= delta
        p_keep = partition_keep_probability(
            [full[c] for c in vanish], epsilon=epsilon, delta=delta, max_partitions=l0
        )
        assert 1 - np.prod(1 - p_keep) <= delta * (1 + 1e-12)
        # Exact (eps, delta) on the label sets, both directions (Dwork & Roth 2014, Def 2.4).
        p_small = _label_set_probabilities(smaller, keep)
        for p, q in ((p_full, p_small), (p_small, p_full)):
            gap = _hockey_stick(p, q, epsilon)
            assert gap <= delta * (1 + 1e-9)
            worst = max(worst, gap)
    if tight:  # the lone person's partitions attain delta: the threshold is not too high
        assert worst == pytest.approx(delta, rel=1e-6)


@pytest.mark.parametrize("name", TABLES)
def test_the_exact_check_fails_for_a_threshold_set_too_low(name) -> None:
    # The check can fail: with tau lowered by one noise scale, person 6 leaks more than delta.
    l0, table, _ = TABLES[name]
    epsilon, delta = 1.0, 1e-3
    b = l0 / epsilon
    tau = laplace_threshold(epsilon=epsilon, delta=delta, max_partitions=l0) - b

    def keep(n: int) -> float:
        return stats.laplace(scale=b).sf(tau - n)  # scipy: P(n + Lap(b) >= tau)

    full = _label_set_probabilities(_person_counts(table, None), keep)
    without_6 = _label_set_probabilities(_person_counts(table, 6), keep)
    assert _hockey_stick(full, without_6, epsilon) > 1.2 * delta


def test_declared_domain_labels_never_depend_on_who_is_in_the_data() -> None:
    _, table, _ = TABLES["l0=1, C held by one person"]
    domain = ("A", "B", "C", "D")
    rows = pd.DataFrame({"person": list(table), "category": [table[p] for p in table]})
    full = counts_over_domain(rows["category"], domain)
    for person in table:
        smaller = counts_over_domain(rows.loc[rows["person"] != person, "category"], domain)
        assert smaller.labels == full.labels == domain  # exact: the labels are the domain
        assert np.abs(full.counts - smaller.counts).sum() == 1  # the count vector moves by 1
    # Labels read off the data would change: removing person 6 removes "C".
    assert "C" not in set(rows.loc[rows["person"] != 6, "category"])
    assert full.counts.tolist() == [3, 2, 1, 0]  # D: released as a noisy zero


# ---------------------------------------------------------------------------------------
# Selection: bookkeeping, distinct-person counts, expectations
# ---------------------------------------------------------------------------------------


def test_selection_bookkeeping_and_reproducibility() -> None:
    labels = ["big", "lone", "mid", "none"]
    counts = [1_000, 1, 40, 0]
    run = {"epsilon": 1.0, "delta": 1e-6, "max_partitions": 2}
    first = select_partitions(np.random.default_rng(5), labels, counts, **run)
    again = select_partitions(np.random.default_rng(5), labels, counts, **run)
    assert first.labels == again.labels
    np.testing.assert_array_equal(first.noisy_counts, again.noisy_counts)
    assert first.threshold == laplace_threshold(**run)
    assert first.scale == 2.0 and first.epsilon == 1.0 and first.delta == 1e-6
    assert first.n_candidates == 4 and first.n_kept + first.n_suppressed == 4
    assert "big" in first.labels  # P(dropped) = exp(-(1000 - 28.6) / 2) / 2, about 1e-211
    assert list(first.labels) == [x for x in labels if x in first.labels]  # input order
    assert np.all(first.noisy_counts >= first.threshold)
    suppressed = [c for x, c in zip(labels, counts, strict=True) if x not in first.labels]
    assert first.persons_suppressed == sum(suppressed)
    assert not first.noisy_counts.flags.writeable


def test_expected_kept_matches_scipy_and_simulation() -> None:
    counts = np.array([0, 1, 3, 10, 20, 25, 30, 35, 60, 400])
    run = {"epsilon": 0.5, "delta": 1e-5, "max_partitions": 1}
    tau = laplace_threshold(**run)
    keep = stats.laplace(scale=2.0).sf(tau - counts)  # scipy, independent of our tail
    result = expected_kept(counts, **run)
    assert result.categories == pytest.approx(keep.sum(), rel=1e-10)
    assert result.persons == pytest.approx(counts @ keep, rel=1e-10)
    assert result.n_candidates == 10 and result.total_persons == counts.sum()
    rng = np.random.default_rng(3)
    kept = [select_partitions(rng, range(10), counts, **run).n_kept for _ in range(4000)]
    assert np.mean(kept) == pytest.approx(result.categories, abs=5 * np.std(kept) / 60)


def test_distinct_person_counts_match_brute_force() -> None:
    frame = pd.DataFrame(
        {
            "person": [1, 1, 1, 2, 2, 3, 4, 4, 5, 6],
            "shop": ["b", "b", "a", "a", "a", "c", "a", None, "d", "c"],
        }
    )
    got = distinct_person_counts(frame, "shop", "person")
    brute: dict[str, set] = {}
    for person, shop in zip(frame["person"], frame["shop"], strict=True):
        if not pd.isna(shop):
            brute.setdefault(shop, set()).add(person)
    assert got.to_dict() == {k: len(v) for k, v in brute.items()}
    assert list(got.index) == sorted(got.index)  # sorted: the order reveals nothing
    rows = distinct_person_counts(frame, "shop")  # no person column: rows
    assert rows.to_dict() == {"a": 4, "b": 2, "c": 2, "d": 1}
    assert distinct_person_counts(frame, "shop", "person", max_partitions=2)["a"] == 3
    with pytest.raises(ValueError, match="more than 1 categories"):
        distinct_person_counts(frame, "shop", "person", max_partitions=1)


def test_selection_then_counts_over_the_kept_labels() -> None:
    # The workflow a page runs: distinct persons, select, then count over the kept labels.
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(
        {"person": np.arange(3000), "city": rng.choice(["x", "y"], 3000, p=[0.6, 0.4])}
    )
    frame.loc[0, "city"] = "rare"
    counts = distinct_person_counts(frame, "city", "person", max_partitions=1)
    chosen = select_partitions(
        rng, counts.index, counts.to_numpy(), epsilon=1.0, delta=1e-6, max_partitions=1
    )
    assert chosen.labels == ("x", "y") and chosen.persons_suppressed == 1
    table = counts_over_domain(frame["city"], chosen.labels)
    assert table.rows_outside == 1 and table.distinct_outside == 1
    assert table.counts.sum() == 2999


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: laplace_threshold(epsilon=1, delta=0, max_partitions=1), "greater than 0"),
        (lambda: laplace_threshold(epsilon=1, delta=-1e-6, max_partitions=1), "greater than 0"),
        (lambda: laplace_threshold(epsilon=0, delta=1e-6, max_partitions=1), "epsilon"),
        (lambda: laplace_threshold(epsilon=-1, delta=1e-6, max_partitions=1), "epsilon"),
        (lambda: laplace_threshold(epsilon=1, delta=1e-6, max_partitions=0), "at least 1"),
        (lambda: laplace_threshold(epsilon=1, delta=1e-6, max_partitions=1.5), "whole number"),
        (lambda: laplace_threshold(epsilon=1, delta=0.6, max_partitions=1), "at most 0.5"),
        (lambda: laplace_threshold(epsilon=1, delta="x", max_partitions=1), "number"),
        (
            lambda: select_partitions(
                np.random.default_rng(0), ["a"], [1, 2], epsilon=1, delta=1e-6, max_partitions=1
            ),
            "one person count per label",
        ),
        (
            lambda: select_partitions(
                np.random.default_rng(0), ["a"], [-1], epsilon=1, delta=1e-6, max_partitions=1
            ),
            "whole numbers",
        ),
        (
            lambda: select_partitions(
                np.random.default_rng(0),
                ["a", "a"],
                [1, 2],
                epsilon=1,
                delta=1e-6,
                max_partitions=1,
            ),
            "appears twice",
        ),
        (lambda: threshold_delta(threshold=0.5, epsilon=1, max_partitions=1), "at least 1"),
    ],
)
def test_bad_selection_arguments_raise_readable_errors(call, message) -> None:
    with pytest.raises(ValueError, match=message):
        call()


# ---------------------------------------------------------------------------------------
# Declared domains: parsing and counting
# ---------------------------------------------------------------------------------------


def test_parse_declared_categories() -> None:
    text = " north\nSouth , east;west\n\nnorth;; \r\nEast "
    assert parse_declared_categories(text) == ("north", "South", "east", "west", "East")
    assert parse_declared_categories("a") == ("a",)
    assert len(parse_declared_categories(",".join(map(str, range(1000))))) == 1000


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no categories"),
        (" ,;\n ", "no categories"),
        ("\n".join(str(i) for i in range(MAX_DECLARED_CATEGORIES + 1)), "at most 1,000"),
        (None, "must be text"),
    ],
)
def test_parse_rejects_empty_or_huge_declarations(text, message) -> None:
    with pytest.raises(ValueError, match=message):
        parse_declared_categories(text)


def test_counts_over_domain_keeps_domain_order_and_hides_outside_values() -> None:
    values = pd.Series(["b", "a", "b", "zz", "qq", "zz", None, np.nan, " a "])
    result = counts_over_domain(values, ["c", "b", "a"])
    assert result.labels == ("c", "b", "a")
    assert result.counts.tolist() == [0, 2, 2]  # brute force: c absent, b twice, a twice
    assert (result.rows_outside, result.distinct_outside, result.missing) == (3, 2, 2)
    assert "zz" not in repr(result) and "qq" not in repr(result)
    assert result.as_series().to_dict() == {"c": 0, "b": 2, "a": 2}


def test_counts_over_domain_sums_weights_and_matches_integer_floats() -> None:
    values = pd.Series([1.0, 2.0, np.nan, 2.0, 3.5])  # pandas reads ints with gaps as floats
    weights = pd.Series([10, 5, 7, 1, 2])
    result = counts_over_domain(values, ["1", "2", "3", "3.5"], weights)
    assert result.counts.tolist() == [10.0, 6.0, 0.0, 2.0]
    assert result.missing == 1 and result.rows_outside == 0
    with pytest.raises(ValueError, match="one weight per row"):
        counts_over_domain(values, ["1"], weights[:3])
    with pytest.raises(ValueError, match="at least 0"):
        counts_over_domain(values, ["1"], pd.Series([-1, 0, 0, 0, 0]))
    with pytest.raises(ValueError, match="declared twice"):
        counts_over_domain(values, ["1", "1"])


def test_clipped_sums_over_domain_match_pandas() -> None:
    rng = np.random.default_rng(2)
    frame = pd.DataFrame({"g": rng.choice(["a", "b", "c", "d"], 500), "x": rng.normal(5, 10, 500)})
    frame.loc[::17, "x"] = np.nan
    frame.loc[::23, "g"] = None
    result = clipped_sums_over_domain(frame["g"], frame["x"], ["d", "a", "b", "e"], -2, 12)
    ok = frame.dropna()
    reference = (
        ok.assign(c=ok["x"].clip(-2, 12))
        .groupby("g")
        .agg(rows=("x", "size"), clipped_sum=("c", "sum"), raw_sum=("x", "sum"))
    )
    expected = reference.reindex(["d", "a", "b", "e"]).fillna(0)
    np.testing.assert_allclose(result.rows, expected["rows"])
    np.testing.assert_allclose(result.clipped_sums, expected["clipped_sum"])
    np.testing.assert_allclose(result.raw_sums, expected["raw_sum"])
    assert result.rows_outside == int((ok["g"] == "c").sum()) and result.distinct_outside == 1
    assert result.missing == len(frame) - len(ok)
    assert np.isnan(result.clipped_means[3])
    assert result.as_frame().index.tolist() == ["d", "a", "b", "e"]
    with pytest.raises(ValueError, match="lower bound must be below"):
        clipped_sums_over_domain(frame["g"], frame["x"], ["a"], 3, 3)


def test_domains_module_names_its_public_api() -> None:
    assert set(domains.__all__) >= {"counts_over_domain", "parse_declared_categories"}
