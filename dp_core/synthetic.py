"""Differentially private synthetic data by OpenDP's marginal-based synthesizers (MST, AIM of
``opendp.extras.mbi``, the ``opendp[mbi]`` extra), and how faithful the synthetic table is.

The released domain is declared (``SynthDomain``): each categorical column's categories, each
numeric column's cut points (bins (-inf, c1], (c1, c2], ..., (ck, inf): public choices, never
read from the data) and which numeric columns hold whole numbers (their synthetic values are
whole; the others' are real numbers, whatever the data hold, so that the output's type never
tells whether one person's fractional value was in the table). Every column then has public
keys, so the release is rho-zCDP with no delta of its own (OpenDP's ``contingency_table``):
noisy one-way marginals, noisy two-way marginals chosen by the algorithm (with DP), and a
graphical model fitted to them; the synthetic rows are drawn from that model, so the whole
synthetic table is covered (post-processing).
A value outside the declared categories, or missing, is counted in a "none of these" cell (a
missing number, in the last bin, as OpenDP counts it).

    domain = SynthDomain(
        categories=(("sex", ("Male", "Female")),), cuts=(("age", (30, 50)),), whole=("age",)
    )
    found = synthesize(frame, domain, rho=0.1, algorithm="mst")    # OpenDP's noise: no seed
    binned(found.synthetic, domain)       # the synthetic rows as bin and category labels
    marginal_distances(binned(frame, domain), binned(found.synthetic, domain), domain.columns)

The noise is OpenDP's secure Gaussian sampler, which takes no seed: two releases differ. The
fidelity figures (total variation distances) are exact functions of the two tables.
"""

from __future__ import annotations

import importlib.util
import itertools
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd

from dp_core.errors import CodedError
from dp_core.model_table import as_text

__all__ = [
    "NONE",
    "Algorithm",
    "SynthDomain",
    "Synthesis",
    "bin_labels",
    "binned",
    "budget_split",
    "marginal_distances",
    "mbi_installed",
    "rare_cells",
    "synthesize",
    "total_variation",
]

Algorithm = Literal["mst", "aim"]
NONE = "∅"  # the cell of values outside the declared categories, and of missing values
ONEWAY_SPLIT = 0.5  # OpenDP's default share of rho for the one-way marginals (oneway="all")
MEASURE_SPLIT = 0.9  # OpenDP's default share of the rest that measures (the rest selects)


@dataclass(frozen=True)
class SynthDomain:
    """The declared domain: categories of categorical columns, cut points of numeric ones, and
    the numeric columns declared whole (their cut points whole too)."""

    categories: tuple[tuple[str, tuple[str, ...]], ...] = ()
    cuts: tuple[tuple[str, tuple[float, ...]], ...] = ()
    whole: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if len(self.columns) < 2:
            raise CodedError("synthetic_columns")
        for column, points in self.cuts:
            if not points or any(b <= a for a, b in itertools.pairwise(points)):
                raise CodedError("cuts_order", column=column)
            if not all(np.isfinite(points)):
                raise CodedError("cuts_order", column=column)
            if column in self.whole and not all(float(p).is_integer() for p in points):
                raise CodedError("cuts_whole", column=column)
        for column, labels in self.categories:
            if not labels:
                raise CodedError("no_categories", column=column)

    @property
    def columns(self) -> tuple[str, ...]:
        return (*(c for c, _ in self.categories), *(c for c, _ in self.cuts))

    def labels(self, column: str) -> tuple[str, ...]:
        """The cells of ``column``: its categories then NONE, or its bins."""
        for name, labels in self.categories:
            if name == column:
                return (*labels, NONE)
        for name, points in self.cuts:
            if name == column:
                return bin_labels(points)
        raise KeyError(column)


def _number(value: float) -> str:
    return f"{value:g}"


def bin_labels(cuts: tuple[float, ...]) -> tuple[str, ...]:
    """The bins' names: "≤ 20", "(20, 30]", ..., "> 70" (left-open, as OpenDP cuts)."""
    inner = [f"({_number(a)}, {_number(b)}]" for a, b in itertools.pairwise(cuts)]
    return (f"≤ {_number(cuts[0])}", *inner, f"> {_number(cuts[-1])}")


def binned(frame: pd.DataFrame, domain: SynthDomain) -> pd.DataFrame:
    """Each declared column as its cell labels (categories, bins, or NONE)."""
    out = {}
    for column, labels in domain.categories:
        text = as_text(frame[column]).fillna("")
        out[column] = text.where(text.isin(labels), NONE).astype(object)
    for column, points in domain.cuts:
        values = pd.to_numeric(frame[column], errors="coerce")
        index = np.searchsorted(np.asarray(points, dtype=float), values.to_numpy(), side="left")
        # a missing number counts in the last bin, as OpenDP's contingency table counts it
        index = np.where(values.isna().to_numpy(), len(points), index)
        out[column] = np.array(bin_labels(points), dtype=object)[index]
    return pd.DataFrame(out, index=frame.index)[list(domain.columns)]


def total_variation(p: np.ndarray, q: np.ndarray) -> float:
    """TVD = ½ Σ |p_i - q_i| of two count vectors made into shares (0 same, 1 disjoint)."""
    p, q = np.asarray(p, dtype=float), np.asarray(q, dtype=float)
    return 0.5 * float(np.abs(p / max(p.sum(), 1) - q / max(q.sum(), 1)).sum())


def _cells(domain: SynthDomain) -> dict[str, tuple[pd.Index, np.ndarray]]:
    """Each column's distinct cells, and the place of each of its declared cells among them
    (a cell declared twice: both at its one place)."""
    found = {}
    for column in domain.columns:
        declared = pd.Index(domain.labels(column))
        distinct = declared.unique()
        found[column] = (distinct, distinct.get_indexer(declared))
    return found


def _counts(
    codes: dict[str, np.ndarray],
    columns: tuple[str, ...],
    cells: dict[str, tuple[pd.Index, np.ndarray]],
) -> np.ndarray:
    """Counts over every combination of the columns' declared cells (empty ones included; a
    cell declared twice counted at each place), in the order of their product (the first
    column's cells slowest), from each row's place among the distinct cells (``codes``, -1:
    no cell): one bincount, where a groupby per marginal took 4 ms (224 of them a first view
    of the page)."""
    sizes = [len(cells[c][0]) for c in columns]
    inside = np.logical_and.reduce([codes[c] >= 0 for c in columns])
    flat = np.ravel_multi_index([codes[c][inside] for c in columns], sizes)
    counts = np.bincount(flat, minlength=int(np.prod(sizes))).reshape(sizes)
    return counts[np.ix_(*(cells[c][1] for c in columns))].ravel()


def marginal_distances(
    real: pd.DataFrame, synthetic: pd.DataFrame, domain: SynthDomain
) -> pd.DataFrame:
    """The TVD of every one-way and two-way marginal, real against synthetic (binned tables):
    columns ``columns`` (a tuple), ``ways`` (1 or 2) and ``tvd``."""
    cells = _cells(domain)
    real_codes, synthetic_codes = (
        {c: cells[c][0].get_indexer(table[c]) for c in domain.columns}
        for table in (real, synthetic)
    )
    rows = []
    for ways in (1, 2):
        for columns in itertools.combinations(domain.columns, ways):
            rows.append(
                {
                    "columns": columns,
                    "ways": ways,
                    "tvd": total_variation(
                        _counts(real_codes, columns, cells),
                        _counts(synthetic_codes, columns, cells),
                    ),
                }
            )
    return pd.DataFrame(rows)


def rare_cells(
    real: pd.DataFrame, synthetic: pd.DataFrame, domain: SynthDomain, pair: tuple[str, str],
    most: int,
) -> pd.DataFrame:  # fmt: skip
    """The two-way cells of ``pair`` that at most ``most`` real rows share (1 or more), with
    their synthetic counts (scaled to the real table's size): what synthetic data smooths."""
    full = pd.MultiIndex.from_product([domain.labels(c) for c in pair], names=list(pair))
    count = real.groupby(list(pair)).size().reindex(full, fill_value=0)
    made = synthetic.groupby(list(pair)).size().reindex(full, fill_value=0)
    scale = len(real) / max(len(synthetic), 1)
    frame = pd.DataFrame({"real": count, "synthetic": made * scale}).reset_index()
    return frame[(frame["real"] >= 1) & (frame["real"] <= most)].reset_index(drop=True)


def budget_split(algorithm: Algorithm) -> dict[str, float]:
    """The shares of rho OpenDP's algorithm spends (its defaults): one-way marginals, then of
    the rest, choosing which two-way marginals to measure and measuring them (MST: Algorithm 1
    of McKenna, Miklau & Sheldon 2021; AIM: the same split in each of its rounds)."""
    rest = 1 - ONEWAY_SPLIT
    return {"oneway": ONEWAY_SPLIT, "select": rest * (1 - MEASURE_SPLIT),
            "measure": rest * MEASURE_SPLIT}  # fmt: skip


@dataclass(frozen=True)
class Synthesis:
    """A release: the synthetic rows, the noisy marginals it was fitted to (the release's own
    product: clique, cell, noisy count, noise standard deviation) and the two-way cliques the
    algorithm chose to measure."""

    synthetic: pd.DataFrame
    marginals: pd.DataFrame
    measured: tuple[tuple[str, ...], ...]


def _column(frame: pd.DataFrame, column: str, domain: SynthDomain) -> pd.Series:
    """A column as OpenDP reads it, its type declared: text for categories; for bins, whole
    numbers where declared whole (a value rounded up, which keeps its bin, since the cut points
    are whole: x <= c exactly when ceil(x) <= c), else real numbers. A value that is not a
    number is missing (the last bin)."""
    if column not in dict(domain.cuts):
        return as_text(frame[column])
    values = pd.to_numeric(frame[column], errors="coerce").astype(float)
    return np.ceil(values).astype("Int64") if column in domain.whole else values


def mbi_installed() -> bool:
    """Whether the ``opendp[mbi]`` extra (the mbi library and its JAX) is installed, found
    without importing it (importing JAX takes seconds): a page says so before it offers to
    synthesize, not after the click."""
    return all(importlib.util.find_spec(name) is not None for name in ("mbi", "jax"))


def synthesize(
    frame: pd.DataFrame,
    domain: SynthDomain,
    rho: float,
    algorithm: Algorithm = "mst",
) -> Synthesis:
    """Release a rho-zCDP contingency table of ``domain``'s columns with OpenDP (one row per
    unit of privacy: make the rows one per person first) and draw synthetic rows from it.

    Raises CodedError "mbi_missing" when the ``opendp[mbi]`` extra is not installed."""
    try:
        import opendp.prelude as dp
        import polars as pl
        from opendp.extras.mbi._utilities import row_major_order
    except ImportError as error:  # pragma: no cover - the page names the extra
        raise CodedError("mbi_missing") from error
    try:
        import mbi  # noqa: F401
    except ImportError as error:
        raise CodedError("mbi_missing") from error
    if not rho > 0 or not np.isfinite(rho):
        raise CodedError("positive", name="rho", got=rho)
    dp.enable_features("contrib")
    data = pd.DataFrame({c: _column(frame, c, domain) for c in domain.columns})
    lazy = pl.from_pandas(data).lazy()
    keys = {c: list(labels) for c, labels in domain.categories}
    cut_values = {
        c: [int(p) if c in domain.whole else float(p) for p in points] for c, points in domain.cuts
    }

    def context(spent: float):
        return dp.Context.compositor(
            data=lazy,
            privacy_unit=dp.unit_of(contributions=1),
            privacy_loss=dp.loss_of(rho=spent),
            split_evenly_over=1,
        )

    method = dp.mbi.MST() if algorithm == "mst" else dp.mbi.AIM()
    released = _release(context, keys, cut_values, method, rho)
    synthetic = released.synthesize(method="sample").to_pandas()
    rows = []
    for measurement in released.marginals.flatten():
        clique = tuple(measurement.clique)
        cells = row_major_order(released.keys[c] for c in clique).to_pandas()
        names = [" | ".join(_cell(cells[c].iloc[i]) for c in clique) for i in range(len(cells))]
        rows.append(
            pd.DataFrame(
                {
                    "marginal": " × ".join(clique),
                    "cell": names,
                    "noisy_count": np.asarray(measurement.noisy_measurement, dtype=float),
                    "std": float(measurement.stddev),
                }
            )
        )
    measured = tuple(tuple(c) for c in released.marginals.cliques() if len(c) == 2)
    return Synthesis(synthetic, pd.concat(rows, ignore_index=True), measured)


RETRIES = 3  # releases at a rho a hair lower when OpenDP's own rounding refuses the first


def _release(context_for, keys: dict, cuts: dict, method, rho: float):
    """OpenDP's contingency table at ``rho``. OpenDP 0.16's MST may refuse its own last
    selection by one unit in the last place ("insufficient budget for query: 0.0891347... >
    0.0891347..." at rho = 1.78); then the release is asked again at a rho lowered by a
    relative 1e-9 (spending less than the guarantee states), at most RETRIES times."""
    import opendp.prelude as dp

    attempt = 0
    while True:
        context = context_for(rho * (1 - 1e-9) ** attempt)
        query = context.query().contingency_table(keys=keys, cuts=cuts, algorithm=method)
        try:
            return query.release()
        except dp.OpenDPException as error:
            attempt += 1
            if "insufficient budget" not in str(error) or attempt > RETRIES:
                raise


def _cell(value: object) -> str:
    return NONE if value is None or pd.isna(value) else str(value)
