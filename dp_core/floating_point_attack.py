"""Mironov's floating-point attack on the app's numpy Laplace noise (Mironov, CCS 2012).

The charts release y = x + rng.laplace(0, b) in float64 (``dp_core.laplace``). numpy's
sampler (numpy/random/src/distributions/distributions.c, ``random_laplace``) turns one
53-bit integer k into the noise:

    U = k 2^-53  (next_double: the top 53 bits of next_uint64)
    U >= 1/2:     noise = 0 - b log((2 - U) - U)
    0 < U < 1/2:  noise = 0 + b log(U + U)
    U = 0:        rejected, a new k is drawn

each operation rounded to float64, ``log`` being the C library's. Only 2^53 noise values
exist, spread irregularly, and the sum x + noise is rounded again, so the outputs one input
can produce are a sparse set that depends on x. An attacker who sees y and knows the input is
x0 or x1 asks, for each candidate, whether some k gives exactly y. If only one can, the input
is known for certain, whatever epsilon promised. ``reachable`` answers that question exactly.

OpenDP's samplers (``dp_core.release``) round every input to the grid 2^k Z and add exact
integer multiples of 2^k: the outputs any input can produce are the same set, so the same
question cannot tell candidates apart and the attacker is left with a coin flip. Asked under
numpy's model instead, OpenDP's outputs do get "certain" answers, but 13% (epsilon 3) to half
(epsilon 0.3 and below) of them are wrong, and the attack does no better than epsilon allows.

Measured (inputs 0 and 1, sensitivity 1, 10^4 draws): numpy's outputs give the input away for
certain in about 81% of draws at epsilon 0.1, 0.3 and 1 alike (88% at 3), never wrongly. The
share hardly depends on the scale: near noise n, numpy's noise values are b e^(|n|/b) 2^-52
apart and floats about |n| 2^-52, a ratio e^t / t (t = |n| / b, at least e) free of b.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from dp_core.errors import CodedError
from dp_core.laplace import laplace_mechanism, laplace_scale
from dp_core.release import OPENDP_FLOAT_K, laplace_release
from dp_core.validation import check_epsilon, check_positive_int, check_sensitivity

__all__ = [
    "AttackResult",
    "Sampler",
    "attack_by_epsilon",
    "lattice_reachable",
    "mironov_attack",
    "numpy_laplace_noise",
    "reachable",
    "simulate_attack",
]

Sampler = Literal["numpy", "opendp"]

_HALF = 2**52  # k with U = 1/2: noise 0
_END = 2**53  # one past the largest k; 0 and _END are sentinels with G = -inf and +inf
# Half-width of the first bracket around the estimated k; correctness does not depend on it
# (see ``reachable``). The estimate is off by at most a few k from rounding (of y - x, exp and
# the sum) plus about |x| / b from where y lies within its rounding interval; where |x| / b is
# large, many k give the same y and the estimate itself reproduces it. Measured at epsilon 0.1
# to 10 (inputs 0 and 1): every output is settled by the estimate or this first bracket.
_WINDOW = 2


def _libm_log(v: np.ndarray) -> np.ndarray:
    """log from the C library, as numpy's sampler calls it. np.log is numpy's own SIMD code
    and differs from it in the last bit for about 0.4% of inputs on an AVX-512 machine."""
    return np.fromiter(map(math.log, v.tolist()), dtype=float, count=v.size)


def numpy_laplace_noise(k: ArrayLike, scale: float) -> np.ndarray:
    """The noise numpy's Generator.laplace(0, scale) returns when next_double() = k 2^-53.

    k: whole numbers 1 .. 2^53 - 1 (k = 0 is rejected by numpy). Exactly numpy's float64
    operations (numpy distributions.c, random_laplace). The noise is non-decreasing in k as
    long as the C library's log is monotone (the tests check it on scans of consecutive k).
    """
    b = check_sensitivity(scale, "scale")
    ks = np.asarray(k, dtype=np.int64)
    if np.any((ks < 1) | (ks >= _END)):
        raise CodedError("float_k_range")
    u = ks.astype(float) * 2.0**-53  # exact: k < 2^53
    high = ks >= _HALF
    v = np.where(high, (2.0 - u) - u, u + u)
    t = b * _libm_log(v.ravel()).reshape(v.shape)
    return np.where(high, 0.0 - t, 0.0 + t)


def _outputs(k: np.ndarray, x: np.ndarray, scale: float) -> np.ndarray:
    """G(k) = x + noise(k) as the app computes it, with G(0) = -inf and G(2^53) = +inf."""
    out = np.where(k <= 0, -math.inf, math.inf)
    inside = (k > 0) & (k < _END)
    out[inside] = x[inside] + numpy_laplace_noise(k[inside], scale)
    return out


def _estimate_k(y: np.ndarray, x: np.ndarray, scale: float) -> np.ndarray:
    """Invert y = x + noise(k) in real arithmetic: k ~ e^((y - x)/b) 2^52 below x, else
    2^53 - e^(-(y - x)/b) 2^52. Only a starting point for the exact search."""
    with np.errstate(over="ignore", invalid="ignore"):
        gap = (y - x) / scale
        tail = np.exp(-np.abs(gap)) * 2.0**52
        k = np.where(gap < 0, tail, 2.0**53 - tail)
    k = np.where(np.isfinite(k), np.rint(k), _HALF)
    return np.clip(k, 1, _END - 1).astype(np.int64)


def reachable(y: ArrayLike, x: ArrayLike, scale: float) -> np.ndarray:
    """Whether numpy's Laplace sampler with this scale can turn input x into exactly y.

    G(k) = x + noise(k) is non-decreasing in k (scaling and rounding are monotone, and so is
    the C library's log on every scan the tests make), so y is reachable iff the smallest k
    with G(k) >= y has G(k) = y. Search: estimate k from the inverse (``_estimate_k``) and
    accept it if G(k) = y; otherwise widen a bracket [k - w, k + w] (w = 2, doubling) until
    G(lo) < y <= G(hi), then bisect, recomputing G exactly as numpy does. The window only sets
    the speed: a bad estimate costs doublings, never a wrong answer. True means a k was found
    that reproduces y bit for bit, so a True is never wrong. Vectorised over y and x
    (broadcast); about 4 log calls per output.
    """
    b = check_sensitivity(scale, "scale")
    ys, xs = np.broadcast_arrays(np.asarray(y, dtype=float), np.asarray(x, dtype=float))
    shape, found = ys.shape, np.zeros(ys.size, dtype=bool)
    todo = np.flatnonzero(np.isfinite(ys) & np.isfinite(xs))
    ys, xs = ys.ravel()[todo], xs.ravel()[todo]
    centre = _estimate_k(ys, xs, b)
    hit = _outputs(centre, xs, b) == ys  # often the estimate itself reproduces y
    found[todo[hit]] = True
    todo, ys, xs, centre = todo[~hit], ys[~hit], xs[~hit], centre[~hit]
    lo, hi = _bracket(centre, ys, xs, b, side=-1), _bracket(centre, ys, xs, b, side=1)
    while np.any(wide := hi - lo > 1):
        mid = (lo[wide] + hi[wide]) // 2
        above = _outputs(mid, xs[wide], b) >= ys[wide]
        hi[wide] = np.where(above, mid, hi[wide])
        lo[wide] = np.where(above, lo[wide], mid)
    found[todo] = _outputs(hi, xs, b) == ys
    return found.reshape(shape)


def _bracket(
    centre: np.ndarray, y: np.ndarray, x: np.ndarray, scale: float, side: int
) -> np.ndarray:
    """k below (side -1: G(k) < y) or at/above (side 1: G(k) >= y) the first k reaching y."""
    width = np.full(centre.shape, _WINDOW, dtype=np.int64)
    k = np.clip(centre + side * width, 0, _END)
    todo = np.ones(centre.shape, dtype=bool)
    while np.any(todo):
        above = _outputs(k[todo], x[todo], scale) >= y[todo]
        todo[todo] = above if side < 0 else ~above
        width[todo] *= 2
        k[todo] = np.clip(centre[todo] + side * width[todo], 0, _END)
    return k


def lattice_reachable(y: ArrayLike, x: ArrayLike, k: int = OPENDP_FLOAT_K) -> np.ndarray:
    """Whether OpenDP's float Laplace (or Gaussian) on the grid 2^k can turn x into exactly y.

    OpenDP rounds x to the nearest multiple of 2^k and adds an integer multiple of 2^k (its
    discrete noise can take every integer), then rounds to the nearest float. For |y| >= 2^(k+52)
    floats are coarser than the grid; below, grid points are floats. Either way y can occur iff
    it is a multiple of 2^k, whatever x: np.fmod is exact. Source: OpenDP 0.16
    make_float_to_bigint and then_deintegerize_vec proofs.
    """
    ys, xs = np.broadcast_arrays(np.asarray(y, dtype=float), np.asarray(x, dtype=float))
    with np.errstate(invalid="ignore"):  # fmod(inf) is NaN: not reachable
        on_grid = np.fmod(ys, 2.0**k) == 0
    return np.isfinite(ys) & np.isfinite(xs) & on_grid


def mironov_attack(
    y: ArrayLike, x0: float, x1: float, scale: float, *, model: Sampler = "numpy"
) -> np.ndarray:
    """Each output's guess: x0 or x1 when only that input can produce it, NaN when undecided.

    ``model`` is the sampler the attacker assumes: "numpy" (the app's charts, ``reachable``)
    or "opendp" (``lattice_reachable``; scale is then unused). Undecided means both inputs, or
    neither, could produce y: the attacker flips a coin. Source: Mironov 2012, Section 4.
    """
    a, b = _check_candidates(x0, x1)
    ys = np.asarray(y, dtype=float)
    if model == "numpy":
        r0, r1 = reachable(ys, a, scale), reachable(ys, b, scale)
    elif model == "opendp":
        r0, r1 = lattice_reachable(ys, a), lattice_reachable(ys, b)
    else:
        raise CodedError("choice", name="model", choices="'numpy', 'opendp'", got=repr(model))
    guesses = np.full(ys.shape, np.nan)
    guesses[r0 & ~r1] = a
    guesses[r1 & ~r0] = b
    return guesses


def _check_candidates(x0: object, x1: object) -> tuple[float, float]:
    """Two different finite candidate inputs."""
    try:
        a, b = float(x0), float(x1)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise CodedError("float_candidates_number") from None
    if not (math.isfinite(a) and math.isfinite(b)) or a == b:
        raise CodedError("float_candidates_distinct", first=f"{a:g}", second=f"{b:g}")
    return a, b


@dataclass(frozen=True)
class AttackResult:
    """How the attack fared on ``draws`` releases of an input drawn 50/50 from {x0, x1}."""

    epsilon: float
    sampler: Sampler
    draws: int
    success_rate: float  # right guesses, undecided ones settled by a fair coin
    certain_share: float  # outputs only one candidate could produce
    certain_wrong: int  # certain guesses naming the wrong input (0 when the model is right)


def simulate_attack(
    rng: np.random.Generator,
    *,
    epsilon: float,
    draws: int,
    sampler: Sampler,
    x0: float = 0.0,
    x1: float = 1.0,
) -> AttackResult:
    """Release x + Laplace(1 / epsilon) noise (sensitivity 1) ``draws`` times and attack each.

    "numpy": exactly the app's ``laplace_mechanism`` with ``rng``. "opendp": ``laplace_release``
    (one vector release: independent noise per value, each at epsilon; OpenDP's own randomness),
    attacked with OpenDP's lattice model; ``rng`` then only draws the inputs and the coins.
    """
    eps = check_epsilon(epsilon)
    n = check_positive_int(draws, "draws")
    a, b = _check_candidates(x0, x1)
    truth = np.where(rng.random(n) < 0.5, b, a)
    if sampler == "numpy":
        outputs = laplace_mechanism(rng, truth, sensitivity=1.0, epsilon=eps)
    elif sampler == "opendp":
        outputs = laplace_release(truth, l1_sensitivity=1.0, epsilon=eps).values
    else:
        raise CodedError("choice", name="sampler", choices="'numpy', 'opendp'", got=repr(sampler))
    guesses = mironov_attack(outputs, a, b, laplace_scale(1.0, eps), model=sampler)
    certain = ~np.isnan(guesses)
    final = np.where(certain, guesses, np.where(rng.random(n) < 0.5, b, a))
    return AttackResult(
        epsilon=eps,
        sampler=sampler,
        draws=n,
        success_rate=float(np.mean(final == truth)),
        certain_share=float(np.mean(certain)),
        certain_wrong=int(np.sum(certain & (guesses != truth))),
    )


def attack_by_epsilon(
    rng: np.random.Generator,
    *,
    epsilons: ArrayLike = (0.1, 0.3, 1.0, 3.0),
    draws: int,
    sampler: Sampler,
    x0: float = 0.0,
    x1: float = 1.0,
) -> tuple[AttackResult, ...]:
    """``simulate_attack`` at each epsilon in turn, sharing ``rng`` (for the page's chart)."""
    return tuple(
        simulate_attack(rng, epsilon=float(e), draws=draws, sampler=sampler, x0=x0, x1=x1)
        for e in np.atleast_1d(np.asarray(epsilons, dtype=float))
    )
