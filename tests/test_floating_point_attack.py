"""dp_core.floating_point_attack against numpy's sampler, a brute-force scan and the DP bound."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dp_core.floating_point_attack import (
    AttackResult,
    attack_by_epsilon,
    lattice_reachable,
    mironov_attack,
    numpy_laplace_noise,
    reachable,
    simulate_attack,
)
from dp_core.laplace import laplace_mechanism, laplace_scale
from dp_core.release import laplace_release


def _numpy_laplace(k: int, scale: float) -> float:
    # numpy/random/src/distributions/distributions.c, random_laplace, with U = k 2^-53.
    u = k * 2.0**-53
    if u >= 0.5:
        return 0.0 - scale * math.log(2.0 - u - u)
    return 0.0 + scale * math.log(u + u)


def _best_accuracy(epsilon: float) -> float:
    # Best guess of 0 vs 1 from one Laplace(1/eps) output: (1 + TV) / 2, TV = 1 - e^(-eps/2).
    return 1.0 - math.exp(-epsilon / 2.0) / 2.0


def _outputs(seed: int, epsilon: float, draws: int, x0: float = 0.0, x1: float = 1.0):
    rng = np.random.default_rng(seed)
    truth = np.where(rng.random(draws) < 0.5, x1, x0)
    return truth, laplace_mechanism(rng, truth, sensitivity=1, epsilon=epsilon)


@pytest.mark.parametrize("scale", [0.01, 1.0, 1 / 0.3, 10.0, 1234.5])
def test_sampler_model_reproduces_numpy_bit_for_bit(scale) -> None:
    raw = np.random.default_rng(42).bit_generator.random_raw(100_000)
    k = (raw >> np.uint64(11)).astype(np.int64)  # next_double's 53 bits
    assert np.all(k > 0)  # numpy would redraw on k = 0; none here, so the streams align
    expected = np.random.default_rng(42).laplace(0.0, scale, 100_000)
    model = numpy_laplace_noise(k, scale)
    np.testing.assert_array_equal(model.view(np.int64), expected.view(np.int64))
    assert _numpy_laplace(int(k[0]), scale) == expected[0]


@pytest.mark.parametrize("epsilon", [0.1, 1.0, 3.0])
def test_reachable_agrees_with_a_brute_force_scan(epsilon) -> None:
    scale = laplace_scale(1, epsilon)
    _, outputs = _outputs(7, epsilon, 40)
    for x in (0.0, 1.0):
        answers = reachable(outputs, x, scale)
        for y, answer in zip(outputs.tolist(), answers, strict=True):
            # Centre the scan on the real-arithmetic inverse of y = x + noise.
            gap = (y - x) / scale
            centre = round(math.exp(gap) * 2**52 if gap < 0 else 2**53 - math.exp(-gap) * 2**52)
            ks = range(max(1, centre - 1024), min(2**53, centre + 1024))
            scan = np.array([x + _numpy_laplace(k, scale) for k in ks])
            assert np.all(np.diff(scan) >= 0)  # monotone in k, as reachable() assumes
            found = bool(np.any(scan == y))
            assert found or scan[0] < y < scan[-1]  # the scan brackets y: its verdict is final
            assert answer == found


@pytest.mark.parametrize("epsilon", [0.1, 0.3, 1.0, 3.0, 10.0])
@pytest.mark.parametrize(("x0", "x1"), [(0.0, 1.0), (24.0, 25.0), (-1e6, 1e6)])
def test_every_genuine_output_is_reachable_from_its_input(epsilon, x0, x1) -> None:
    truth, outputs = _outputs(3, epsilon, 5_000, x0, x1)
    assert np.all(reachable(outputs, truth, laplace_scale(1, epsilon)))


@pytest.mark.parametrize("epsilon", [0.1, 0.3, 1.0])
def test_numpy_outputs_give_the_input_away_with_certainty(epsilon) -> None:
    result = simulate_attack(
        np.random.default_rng(5), epsilon=epsilon, draws=10_000, sampler="numpy"
    )
    # 81% certain at epsilon 1, measured earlier on the app's own outputs (inputs 0 vs 1). The
    # share barely depends on the scale (noise values are e or more times sparser than floats
    # near any output), and the brute-force scan above confirms it at 0.1 and 3.
    assert result.certain_share == pytest.approx(0.81, abs=0.03)
    assert result.certain_wrong == 0
    # Far above what any attacker can reach against true Laplace noise at this epsilon.
    assert result.success_rate > _best_accuracy(epsilon) + 0.15


@pytest.mark.parametrize("epsilon", [0.3, 1.0, 3.0])
def test_attack_on_opendp_outputs_is_a_coin_flip(epsilon) -> None:
    result = simulate_attack(
        np.random.default_rng(6), epsilon=epsilon, draws=4_000, sampler="opendp"
    )
    assert result.certain_share == 0.0 and result.certain_wrong == 0
    # Binomial(4000, 1/2): within 4 standard errors of one half.
    assert abs(result.success_rate - 0.5) < 4 * math.sqrt(0.25 / 4_000)


@pytest.mark.parametrize("epsilon", [0.3, 1.0, 3.0])
def test_numpy_model_on_opendp_outputs_claims_false_certainty(epsilon) -> None:
    rng = np.random.default_rng(8)
    truth = np.where(rng.random(4_000) < 0.5, 1.0, 0.0)
    outputs = laplace_release(truth, l1_sensitivity=1, epsilon=epsilon).values
    guesses = mironov_attack(outputs, 0.0, 1.0, laplace_scale(1, epsilon), model="numpy")
    certain = ~np.isnan(guesses)
    # "Certain" guesses under the wrong model are often wrong ...
    assert np.sum(certain & (guesses != truth)) > 0.1 * np.sum(certain)
    # ... and the attack, coin flips counted at 1/2, stays within what epsilon allows.
    expected_success = (np.sum(certain & (guesses == truth)) + 0.5 * np.sum(~certain)) / 4_000
    assert expected_success < _best_accuracy(epsilon) + 4 * math.sqrt(0.25 / 4_000)


def test_lattice_model_cannot_tell_inputs_apart() -> None:
    # A coarse grid (2^-2) makes the rule visible: y can occur iff it is a multiple of 2^k.
    outputs = np.array([0.25, 0.5, -1.75, 0.3, 1.1, np.nan, np.inf])
    for x in (0.0, 1.0, 0.3):
        np.testing.assert_array_equal(
            lattice_reachable(outputs, x, k=-2), [True, True, True, False, False, False, False]
        )
    # On OpenDP's grid every float above 2^-48 in size can occur, from either input.
    assert np.all(lattice_reachable(np.array([1e-14, 0.1, 3.7, -2e9]), 0.0))
    guesses = mironov_attack(np.array([0.1, 1.3]), 0.0, 1.0, 1.0, model="opendp")
    assert np.all(np.isnan(guesses))


def test_guesses_name_the_only_possible_input_or_nan() -> None:
    truth, outputs = _outputs(9, 1.0, 2_000)
    guesses = mironov_attack(outputs, 0.0, 1.0, laplace_scale(1, 1.0))
    decided = ~np.isnan(guesses)
    assert 0.7 < decided.mean() < 0.9
    np.testing.assert_array_equal(guesses[decided], truth[decided])


def test_attack_by_epsilon_gives_one_reproducible_result_per_epsilon() -> None:
    def run() -> tuple[AttackResult, ...]:
        return attack_by_epsilon(
            np.random.default_rng(1), epsilons=(0.1, 1.0), draws=500, sampler="numpy"
        )

    results = run()
    assert [r.epsilon for r in results] == [0.1, 1.0]
    assert all(r.draws == 500 and r.sampler == "numpy" for r in results)
    assert results == run()  # same seed, same chart


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: simulate_attack(np.random.default_rng(), epsilon=1, draws=10, sampler="scipy"),
            "sampler must be one of 'numpy', 'opendp'",
        ),
        (
            lambda: simulate_attack(np.random.default_rng(), epsilon=0, draws=10, sampler="numpy"),
            "greater than 0",
        ),
        (
            lambda: simulate_attack(np.random.default_rng(), epsilon=1, draws=0, sampler="numpy"),
            "draws",
        ),
        (
            lambda: simulate_attack(
                np.random.default_rng(), epsilon=1, draws=5, sampler="numpy", x0=1.0
            ),
            "different",
        ),
        (
            lambda: mironov_attack([0.5], 0.0, 1.0, 1.0, model="exact"),
            "model must be one of 'numpy', 'opendp'",
        ),
        (lambda: reachable([0.5], 0.0, 0.0), "scale"),
        (lambda: numpy_laplace_noise([0], 1.0), "from 1 to 2"),
    ],
)
def test_bad_arguments_raise_readable_errors(call, message) -> None:
    with pytest.raises(ValueError, match=message):
        call()
