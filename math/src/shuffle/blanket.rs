//! The privacy blanket (Balle, Bell, Gascón & Nissim 2019, BBGN19): Hoeffding and Bennett, for any
//! ε₀-LDP randomizer and for k-ary randomized response.

#[allow(unused_imports)]
use super::*;

// ---------------------------------------------------------------------------------------------
// Privacy blanket (BBGN19)
// ---------------------------------------------------------------------------------------------

/// The quantities of the privacy amplification variable L that the blanket bounds use.
pub(super) struct Blanket {
    /// Lower bound on the blanket probability γ.
    pub(super) gamma: f64,
    /// a = e^ε − 1 = −E[L].
    pub(super) a: f64,
    /// Width of an interval containing L (Hoeffding).
    pub(super) range: f64,
    /// Upper bound b₊ > 0 on L (Bennett).
    pub(super) max: f64,
    /// Upper bound v on E[L²] (Bennett).
    pub(super) second_moment: f64,
}

pub(super) fn blanket(r: Randomizer, eps: f64, eps0: f64) -> Blanket {
    let a = exp_m1(eps);
    match r {
        Randomizer::Generic => Blanket {
            gamma: exp(-eps0),
            a,
            // (e^{ε₀} − e^{−ε₀})(e^ε + 1)
            range: exp(-eps0) * exp_m1(2.0 * eps0) * (exp(eps) + 1.0),
            // e^{ε₀} − e^{ε−ε₀}
            max: exp(eps - eps0) * exp_m1(2.0 * eps0 - eps),
            // e^{ε₀}(e^{2ε} + 1) − 2e^{ε−3ε₀}, rewritten as a sum of positive terms,
            // e^{ε₀}(e^ε − 1)² + 2e^{ε−3ε₀}(e^{4ε₀} − 1): the difference loses every digit when
            // ε and ε₀ are small (both terms are ≈ 2).
            second_moment: exp(eps0) * a * a + 2.0 * exp(eps - 3.0 * eps0) * exp_m1(4.0 * eps0),
        },
        Randomizer::KRr { k } => {
            let k = k as f64;
            // γ = k/(e^{ε₀} + k − 1); 1 − γ = (e^{ε₀} − 1)/(e^{ε₀} + k − 1).
            let denom = exp_m1(eps0) + k;
            let gamma = k / denom;
            let one_minus = exp_m1(eps0) / denom;
            Blanket {
                gamma,
                a,
                range: gamma * exp_m1(eps0) * (exp(eps) + 1.0),
                // γ(e^{ε₀} − e^ε)
                max: gamma * exp(eps) * exp_m1(eps0 - eps),
                second_moment: gamma * (2.0 - gamma) * a * a
                    + k * one_minus * one_minus * (exp(2.0 * eps) + 1.0),
            }
        }
    }
}

/// φ(u) = (1 + u)log(1 + u) − u for u ≥ 0, by its series below 1e-2 (no cancellation).
pub(super) fn bennett_phi(u: f64) -> f64 {
    if u < 1e-2 {
        // Σ_{k≥2} (−1)^k u^k/(k(k−1)); 8 terms leave < u⁹/72 < 1e-19·u².
        let mut s = 0.0;
        let mut pow = u * u;
        for k in 2..10 {
            let kf = k as f64;
            let t = pow / (kf * (kf - 1.0));
            s += if k % 2 == 0 { t } else { -t };
            pow *= u;
        }
        s
    } else {
        (1.0 + u) * ln_1p(u) - u
    }
}

#[derive(Clone, Copy, PartialEq)]
pub(super) enum Inequality {
    Hoeffding,
    Bennett,
}

/// log of the blanket δ bound at ε (0 < ε < ε₀); −∞ for ε ≥ ε₀.
pub(super) fn bbgn19_ln_delta(ineq: Inequality, r: Randomizer, eps: f64, eps0: f64, n: f64) -> f64 {
    if eps >= eps0 {
        return f64::NEG_INFINITY;
    }
    let bl = blanket(r, eps, eps0);
    match ineq {
        Inequality::Hoeffding => {
            // δ ≤ b²/(4aγn)·(1 − γ(1 − e^{−2a²/b²}))ⁿ
            let ratio = bl.a / bl.range;
            let inner = ln_1p(bl.gamma * exp_m1(-2.0 * ratio * ratio));
            2.0 * ln(bl.range) - ln(4.0 * bl.a) - ln(bl.gamma * n) + n * inner
        }
        Inequality::Bennett => {
            // δ ≤ b₊/(γn log(1 + β))·[(1 − γ(1 − e^{−κ}))ⁿ − (1 − γ)ⁿ],
            // β = a b₊/v, κ = (v/b₊²)φ(β).
            let beta = bl.a * bl.max / bl.second_moment;
            let kappa = bl.second_moment / (bl.max * bl.max) * bennett_phi(beta);
            let ln_x = n * ln_1p(bl.gamma * exp_m1(-kappa));
            // (1 − γ)ⁿ relative to Xⁿ: n·[log(1 − γ) − log X] = −n log(1 + γe^{−κ}/(1 − γ)).
            let ln_y_minus_x = -n * ln_1p(bl.gamma * exp(-kappa) / (1.0 - bl.gamma));
            let expectation_ln = ln_x + ln(-exp_m1(ln_y_minus_x));
            expectation_ln + ln(bl.max) - ln(bl.gamma * n) - ln(ln_1p(beta))
        }
    }
}

/// The privacy blanket δ(ε) bound with Hoeffding's inequality (BBGN19), for `randomizer`.
///
/// δ ≤ b²/(4aγn)·(1 − γ(1 − e^{−2a²/b²}))ⁿ with a = e^ε − 1, b the width of the range of the
/// privacy amplification variable and γ the blanket probability (constants in the module doc).
/// Relation: replace-one. Upper bound; 0 for ε ≥ ε₀ (the trivial ε₀-DP). Values above 1 are
/// returned as they are (vacuous). Domain: 0 < ε ≤ 500, 1e-12 ≤ ε₀ ≤ 100, 1 ≤ n ≤ 1e9.
/// Accuracy: 2.4e-13 relative against mpmath (reference table).
pub fn bbgn19_hoeffding_delta(
    randomizer: Randomizer,
    eps: f64,
    eps0: f64,
    n: u64,
) -> Result<f64, MathError> {
    bbgn19_delta(Inequality::Hoeffding, randomizer, eps, eps0, n)
}

/// The privacy blanket δ(ε) bound with Bennett's inequality (BBGN19), for `randomizer`.
///
/// δ ≤ E_{M∼Bin(n,γ)}[e^{−Mκ}·1{M ≥ 1}]·b₊/(γn·log(1 + β)), β = ab₊/v, κ = (v/b₊²)φ(β),
/// φ(u) = (1 + u)log(1 + u) − u; the expectation is (1 − γ + γe^{−κ})ⁿ − (1 − γ)ⁿ. Relation:
/// replace-one. Upper bound; 0 for ε ≥ ε₀. Domain as [`bbgn19_hoeffding_delta`]. Accuracy: 2.6e-12
/// relative against mpmath's direct sum over M (reference table).
pub fn bbgn19_bennett_delta(
    randomizer: Randomizer,
    eps: f64,
    eps0: f64,
    n: u64,
) -> Result<f64, MathError> {
    bbgn19_delta(Inequality::Bennett, randomizer, eps, eps0, n)
}

pub(super) fn bbgn19_delta(
    ineq: Inequality,
    randomizer: Randomizer,
    eps: f64,
    eps0: f64,
    n: u64,
) -> Result<f64, MathError> {
    check_epsilon("ε", eps)?;
    if eps == 0.0 {
        return Err(MathError::OutOfDomain {
            name: "ε",
            value: eps,
            expected: "above 0 (the blanket bounds diverge at ε = 0)",
        });
    }
    check_eps0(eps0)?;
    check_users(n)?;
    check_randomizer(randomizer)?;
    Ok(exp(bbgn19_ln_delta(ineq, randomizer, eps, eps0, n as f64)))
}

pub(super) fn bbgn19_epsilon(
    ineq: Inequality,
    randomizer: Randomizer,
    eps0: f64,
    n: u64,
    delta: f64,
) -> Result<ShuffleEpsilon, MathError> {
    let bound = match ineq {
        Inequality::Hoeffding => Bound::Bbgn19Hoeffding,
        Inequality::Bennett => Bound::Bbgn19Bennett,
    };
    let nf = n as f64;
    let target = ln(delta);
    let f = |e: f64| bbgn19_ln_delta(ineq, randomizer, e, eps0, nf) - target;
    // The smallest ε with δ(ε) ≤ target. δ(ε) need not decrease all the way to ε₀: when nγ is
    // small the factor b²/a grows like e^ε and the bound is U-shaped, so the crossing nearest ε₀
    // is not the tightest one, and δ just below ε₀ may exceed the target while a dip meets it.
    // Scan a grid (log-spaced up to ε₀/2, linear above), take the first point that meets the
    // target and solve between it and the previous point; if none does, look for the dip's
    // minimum by golden-section search around the grid's lowest point.
    let mut grid: Vec<f64> = (0..64)
        .map(|i| eps0 * 0.5 * pow(1e-9, 1.0 - i as f64 / 63.0))
        .chain((1..=64).map(|i| eps0 * (0.5 + 0.5 * i as f64 / 64.0)))
        .collect();
    let last = grid.len() - 1;
    grid[last] = eps0 * (1.0 - 4.0 * f64::EPSILON);
    let values: Vec<f64> = grid.iter().map(|&e| f(e)).collect();
    let tol = Tolerance {
        abs: 1e-15,
        rel: 1e-13,
        max_iterations: 300,
    };
    let (a, b) = match values.iter().position(|&v| v <= 0.0) {
        Some(0) => {
            let lo = eps0 * 1e-12;
            if f(lo) <= 0.0 {
                return Ok(ShuffleEpsilon::valid(bound, randomizer, lo));
            }
            (lo, grid[0])
        }
        Some(i) => (grid[i - 1], grid[i]),
        None => {
            let j = (0..grid.len())
                .min_by(|&x, &y| values[x].total_cmp(&values[y]))
                .unwrap_or(0);
            let (lo, hi) = (grid[j.saturating_sub(1)], grid[(j + 1).min(last)]);
            let x_min = crate::root::golden_section_min(&f, lo, hi, 100);
            if f(x_min) > 0.0 {
                let mut out = ShuffleEpsilon::valid(bound, randomizer, eps0);
                out.no_amplification = true;
                return Ok(out);
            }
            (lo, x_min)
        }
    };
    let root = brent(f, a, b, tol)?;
    // Step to the side where δ(ε) ≤ target (the bracket is narrower than the tolerance).
    let eps = (root * (1.0 + 2e-13) + 2e-15).min(eps0);
    Ok(ShuffleEpsilon::valid(bound, randomizer, eps))
}

#[cfg(test)]
mod tests {
    use super::bennett_phi;

    /// Accurate to 1e-14 relative where the direct form (1 + u)log(1 + u) − u cancels (u ≪ 1;
    /// values from mpmath at 40 digits), and continuous across the switch at 1e-2.
    #[test]
    #[allow(clippy::excessive_precision)]
    fn bennett_phi_is_accurate_at_small_u() {
        for (u, exact) in [
            (1e-8, 4.999_999_983_333_333_4e-17),
            (1e-6, 4.999_998_333_334_166_7e-13),
            (1e-4, 4.999_833_341_666_166_7e-9),
            (5e-3, 1.247_921_859_426_898e-5),
        ] {
            let got = bennett_phi(u);
            assert!(
                (got - exact).abs() <= 1e-14 * exact,
                "u {u}: {got} vs {exact}"
            );
        }
        let (below, above) = (bennett_phi(0.01 * (1.0 - 1e-12)), bennett_phi(0.01));
        // φ′(u) = log(1 + u) ≈ 0.01, so the inputs' 1e-12 relative gap moves φ by about 2e-12.
        assert!((below - above).abs() <= 5e-12 * above, "{below} vs {above}");
    }
}
