//! Upper and lower bounds on the Rényi DP of subsampled mechanisms: Zhu & Wang's bound under
//! Poisson sampling (add/remove), Wang, Balle & Kasiviswanathan's bounds under sampling without
//! replacement (replace-one; Theorem 9 for any mechanism here, Theorem 27 for the Gaussian, and the
//! lower bound of Proposition 11), their interpolation between whole orders, and the binomial
//! mixture of moments they share with the exact Poisson-subsampled Gaussian.

use super::mechanism::{check_order, Mechanism};
use crate::special::{exp, ln, ln_1p, ln_binomial, ln_binomial_whole, ln_exp_m1, log_add_exp};
use crate::MathError;

/// Convert a log moment-minus-one into ε(α): ε = log1p(A − 1)/(α − 1), given log(A − 1).
pub(super) fn epsilon_from_ln_excess(ln_excess: f64, alpha: f64) -> f64 {
    if ln_excess == f64::NEG_INFINITY {
        return 0.0;
    }
    crate::special::ln_1p_exp(ln_excess) / (alpha - 1.0)
}

/// log of Σ_{j=2..α} C(α, j) γ^j (1 − γ)^{α−j} · w_j for an integer α ≥ 2, with log w_j supplied
/// (w_j ≥ 0). The common shape of the subsampled moments (the bounds below and the
/// Poisson-subsampled Gaussian at whole orders), minus their leading 1.
pub(super) fn ln_binomial_mixture(alpha: u64, gamma: f64, mut ln_w: impl FnMut(u64) -> f64) -> f64 {
    let a = alpha as f64;
    let (lg, l1g) = (ln(gamma), ln_1p(-gamma));
    let mut acc = f64::NEG_INFINITY;
    for j in 2..=alpha {
        let jf = j as f64;
        let w = ln_w(j);
        if w == f64::NEG_INFINITY {
            continue;
        }
        let rest = if gamma == 1.0 && j < alpha {
            f64::NEG_INFINITY
        } else if j == alpha {
            0.0
        } else {
            (a - jf) * l1g
        };
        acc = log_add_exp(acc, ln_binomial_whole(alpha, j) + jf * lg + rest + w);
    }
    acc
}

pub(super) fn check_rate(name: &'static str, q: f64) -> Result<(), MathError> {
    crate::check_probability(name, q)
}

pub(super) fn integer_order(alpha: f64) -> Option<u64> {
    (alpha.fract() == 0.0 && alpha >= 2.0).then_some(alpha as u64)
}

/// Upper bound on the RDP of a Poisson-subsampled mechanism (add/remove) at an integer order
/// (Zhu & Wang, "Poisson subsampled Rényi differential privacy", ICML 2019, Theorem 6, as on
/// Wang's slides "Privacy amplification by subsampling and Rényi DP"):
/// A ≤ (1−γ)^{α−1}(αγ − γ + 1) + C(α,2)γ²(1−γ)^{α−2}e^{ε(2)} + 3Σ_{ℓ=3..α}C(α,ℓ)(1−γ)^{α−ℓ}γ^ℓ e^{(ℓ−1)ε(ℓ)},
/// computed as A − 1 = C(α,2)γ²(1−γ)^{α−2}(e^{ε(2)} − 1) + Σ_{ℓ≥3} C(α,ℓ)(1−γ)^{α−ℓ}γ^ℓ(3e^{(ℓ−1)ε(ℓ)} − 1).
/// Upper bound.
fn poisson_upper_integer(mech: &Mechanism, q: f64, alpha: u64) -> Result<f64, MathError> {
    if q == 0.0 {
        return Ok(0.0);
    }
    let mut bad = false;
    let v = ln_binomial_mixture(alpha, q, |j| match mech.ln_moment(j as f64) {
        Ok(m) if j == 2 => ln_exp_m1(m.max(f64::MIN_POSITIVE)),
        // log(3e^m − 1) = m + log(3 − e^{−m}), and 3e^m − 1 ≥ 2.
        Ok(m) => m + ln(3.0 - exp(-m)),
        Err(_) => {
            bad = true;
            f64::NEG_INFINITY
        }
    });
    if bad {
        return Err(MathError::NotANumber { name: "RDP bound" });
    }
    Ok(epsilon_from_ln_excess(v, alpha as f64))
}

/// The sampling-without-replacement upper bound of Wang, Balle & Kasiviswanathan (AISTATS 2019,
/// arXiv 1808.00087, Theorem 9, as on Wang's slides), replace-one, integer α ≥ 2:
/// A ≤ 1 + γ²C(α,2)min{4(e^{ε(2)} − 1), e^{ε(2)}min{2, (e^{ε(∞)} − 1)²}}
///       + Σ_{j=3..α} γ^j C(α,j) e^{(j−1)ε(j)} min{2, (e^{ε(∞)} − 1)^j}.
/// Upper bound.
fn wor_upper_integer(mech: &Mechanism, gamma: f64, alpha: u64) -> Result<f64, MathError> {
    if gamma == 0.0 {
        return Ok(0.0);
    }
    let a = alpha as f64;
    let eps_inf = mech.rdp_infinity();
    // log min{2, (e^{ε∞} − 1)^j}
    let ln_cap = |j: f64| -> f64 {
        if eps_inf == f64::INFINITY {
            std::f64::consts::LN_2
        } else {
            (j * ln_exp_m1(eps_inf.max(f64::MIN_POSITIVE))).min(std::f64::consts::LN_2)
        }
    };
    let m2 = mech.ln_moment(2.0)?;
    let lg = ln(gamma);
    let first = (ln(4.0) + ln_exp_m1(m2.max(f64::MIN_POSITIVE))).min(m2 + ln_cap(2.0));
    let mut acc = 2.0 * lg + ln_binomial(a, 2.0) + first;
    for j in 3..=alpha {
        let jf = j as f64;
        let m = mech.ln_moment(jf)?;
        acc = log_add_exp(acc, jf * lg + ln_binomial_whole(alpha, j) + m + ln_cap(jf));
    }
    Ok(epsilon_from_ln_excess(acc, a))
}

/// Largest even order ℓ of the Gaussian's Pearson–Vajda divergences used by
/// [`wor_upper_gaussian`]; terms of higher order keep Theorem 9's factor (still a bound).
const PEARSON_VAJDA_ORDERS: u64 = 64;

/// log E_q[(p/q − 1)^ℓ] for the Gaussian pair p = N(1, σ²), q = N(0, σ²) and even ℓ ≥ 2 (the
/// Pearson–Vajda χ^ℓ divergence; ℓ = 2 gives e^{1/σ²} − 1). Under q the likelihood ratio is
/// e^{t/σ − 1/(2σ²)} with t standard normal, so this is log E_t[expm1(t/σ − 1/(2σ²))^ℓ], a
/// non-negative integrand: no cancellation, unlike the alternating sum Σᵢ C(ℓ,i)(−1)^{ℓ−i}e^{i(i−1)/(2σ²)}
/// that defines it, which loses every digit when σ is large. Trapezoidal rule with step ⅛ in log
/// space on t ∈ [−40, max(40, ℓ/σ + 40)], which holds both of the integrand's modes (the tail
/// t → −∞ where |expm1| → 1, and the log-concave peak near ℓ/σ, of width about 1); the rule
/// converges exponentially for this entire integrand. Within 1e-10 relative of mpmath's exact
/// alternating sum at 80 digits on the reference table.
fn ln_gaussian_pearson_vajda(sigma: f64, l: u64) -> f64 {
    let shift = 1.0 / (2.0 * sigma * sigma);
    let h = 0.125;
    let hi = (l as f64 / sigma).max(0.0) + 40.0;
    let steps = ((hi + 40.0) / h).ceil() as u64;
    let (mut m, mut s) = (f64::NEG_INFINITY, 0.0);
    for k in 0..=steps {
        let t = -40.0 + k as f64 * h;
        let x = t / sigma - shift;
        // log|e^x − 1|, finite for large x too.
        let ln_g = if x > 0.0 {
            ln_exp_m1(x)
        } else {
            ln(-crate::special::exp_m1(x))
        };
        let v = -0.5 * t * t + l as f64 * ln_g;
        if !v.is_finite() {
            continue;
        }
        if v > m {
            s = s * exp(m - v) + 1.0;
            m = v;
        } else {
            s += exp(v - m);
        }
    }
    m + ln(s) + ln(h) - 0.5 * ln(2.0 * std::f64::consts::PI)
}

std::thread_local! {
    /// The last σ's [`ln_gaussian_pearson_vajda`] at ℓ = 2, 4, …, [`PEARSON_VAJDA_ORDERS`]: a
    /// curve or an accountant asks for many orders at one σ.
    static PEARSON_VAJDA: std::cell::RefCell<(u64, Vec<f64>)> =
        const { std::cell::RefCell::new((0, Vec::new())) };
}

fn gaussian_pearson_vajda_table(sigma: f64) -> Vec<f64> {
    PEARSON_VAJDA.with(|c| {
        let mut c = c.borrow_mut();
        if c.0 != sigma.to_bits() || c.1.is_empty() {
            let table = (1..=PEARSON_VAJDA_ORDERS / 2)
                .map(|k| ln_gaussian_pearson_vajda(sigma, 2 * k))
                .collect();
            *c = (sigma.to_bits(), table);
        }
        c.1.clone()
    })
}

/// The tighter sampling-without-replacement bound for the Gaussian of Wang, Balle &
/// Kasiviswanathan (AISTATS 2019, arXiv 1808.00087, Theorem 27 in the appendix; autodp's
/// `improved_bound_flag`), replace-one, integer α ≥ 2. For a mechanism with one pair of
/// neighbouring outputs (p, q) that is the worst case for every Rényi and every Pearson–Vajda
/// divergence, as the Gaussian's shift by the sensitivity is, each term j ≥ 3 of Theorem 9 may
/// use the smaller of its own factor and 4·D_j, where D_j = E_q[(p/q − 1)^j] for even j and the
/// Cauchy–Schwarz bound √(D_{j−1}·D_{j+1}) for odd j:
/// A ≤ 1 + γ²C(α,2)·min{4(e^{1/σ²} − 1), 2e^{1/σ²}}
///       + Σ_{j=3..α} γ^j C(α,j)·min{2e^{j(j−1)/(2σ²)}, 4·D_j}.
/// D_j from [`ln_gaussian_pearson_vajda`] up to j = [`PEARSON_VAJDA_ORDERS`]; above, Theorem 9's
/// term (so never above [`wor_upper`]'s sum). Upper bound.
fn wor_upper_gaussian_integer(sigma: f64, gamma: f64, alpha: u64) -> Result<f64, MathError> {
    if gamma == 0.0 {
        return Ok(0.0);
    }
    let mech = Mechanism::Gaussian { sigma };
    let a = alpha as f64;
    let lg = ln(gamma);
    let table = gaussian_pearson_vajda_table(sigma);
    let ln_d = |l: u64| -> Option<f64> {
        (l <= PEARSON_VAJDA_ORDERS).then(|| table[(l / 2 - 1) as usize])
    };
    let m2 = mech.ln_moment(2.0)?;
    let first = (ln(4.0) + ln_exp_m1(m2.max(f64::MIN_POSITIVE))).min(m2 + std::f64::consts::LN_2);
    let mut acc = 2.0 * lg + ln_binomial(a, 2.0) + first;
    // Theorem 9's own sum alongside, so that the result is never above it even by rounding.
    let mut acc_general = acc;
    for j in 3..=alpha {
        let weight = j as f64 * lg + ln_binomial_whole(alpha, j);
        // Summed in the same order as `wor_upper_integer`, so the two agree to the bit.
        let general = weight + mech.ln_moment(j as f64)? + std::f64::consts::LN_2;
        let tight = match (ln_d(2 * (j / 2)), ln_d(2 * j.div_ceil(2))) {
            (Some(x), Some(y)) => weight + ln(4.0) + 0.5 * (x + y),
            _ => f64::INFINITY,
        };
        acc = log_add_exp(acc, general.min(tight));
        acc_general = log_add_exp(acc_general, general);
    }
    Ok(epsilon_from_ln_excess(acc.min(acc_general), a))
}

/// Upper bound on the RDP of the Gaussian mechanism (noise σ, sensitivity 1) under sampling
/// without replacement of a fraction γ (replace one), any order: Wang, Balle & Kasiviswanathan's
/// Gaussian-specific Theorem 27 at integer orders ([`wor_upper_gaussian_integer`]), interpolated
/// in between like [`wor_upper`], and never above the base curve. Never above [`wor_upper`] (each
/// term is the smaller of the two theorems'). γ = 1 gives the base curve. Upper bound.
pub fn wor_upper_gaussian(sigma: f64, gamma: f64, alpha: f64) -> Result<f64, MathError> {
    let mech = Mechanism::Gaussian { sigma };
    mech.validate()?;
    check_rate("γ", gamma)?;
    let base = mech.rdp(alpha)?;
    if gamma == 1.0 {
        return Ok(base);
    }
    Ok(interpolate_upper(alpha, |a| wor_upper_gaussian_integer(sigma, gamma, a))?.min(base))
}

/// The sampling-without-replacement lower bound of Wang, Balle & Kasiviswanathan (AISTATS 2019,
/// Proposition 11, as on the slides): the RDP of the pair X = (0,…,0,1), X′ = (0,…,0,0) for a
/// mechanism whose worst case is that pair at every order,
/// ε′(α) ≥ (α/(α−1))log(1−γ) + (1/(α−1))log(1 + αγ/(1−γ) + Σ_{j=2..α}C(α,j)(γ/(1−γ))^j e^{(j−1)ε(j)}),
/// i.e. A = Σ_j C(α,j)γ^j(1−γ)^{α−j}e^{(j−1)ε(j)}, computed as A − 1 with expm1 weights.
/// Integer α ≥ 2 only (interpolating a lower bound is not a lower bound). Lower bound.
pub fn wor_lower(mech: &Mechanism, gamma: f64, alpha: u64) -> Result<f64, MathError> {
    mech.validate()?;
    check_rate("γ", gamma)?;
    check_order(alpha as f64)?;
    if alpha < 2 {
        return Err(MathError::OutOfDomain {
            name: "α",
            value: alpha as f64,
            expected: "a whole number at least 2 for the lower bound",
        });
    }
    if gamma == 0.0 {
        return Ok(0.0);
    }
    let mut bad = false;
    let v = ln_binomial_mixture(alpha, gamma, |j| match mech.ln_moment(j as f64) {
        Ok(m) => ln_exp_m1(m.max(f64::MIN_POSITIVE)),
        Err(_) => {
            bad = true;
            f64::NEG_INFINITY
        }
    });
    if bad {
        return Err(MathError::NotANumber { name: "RDP bound" });
    }
    Ok(epsilon_from_ln_excess(v, alpha as f64))
}

/// An upper bound at any real order α > 1 from upper bounds at integer orders, by convexity of the
/// log moment (α − 1)ε(α) in α (it is a cumulant generating function): linear interpolation of
/// (α − 1)ε(α) between ⌊α⌋ and ⌈α⌉ (and 0 at α = 1) stays above the true curve.
fn interpolate_upper(
    alpha: f64,
    at: impl Fn(u64) -> Result<f64, MathError>,
) -> Result<f64, MathError> {
    check_order(alpha)?;
    if let Some(a) = integer_order(alpha) {
        return at(a);
    }
    let lo = alpha.floor();
    let hi = lo + 1.0;
    let k_lo = if lo < 2.0 {
        0.0
    } else {
        (lo - 1.0) * at(lo as u64)?
    };
    let k_hi = (hi - 1.0) * at(hi as u64)?;
    let t = alpha - lo;
    Ok(((1.0 - t) * k_lo + t * k_hi) / (alpha - 1.0))
}

/// Upper bound on the RDP of `mech` under Poisson sampling at rate q (add/remove), any order:
/// Zhu & Wang (ICML 2019) at integer orders, interpolated in between, and never above the base
/// curve: subsampling cannot increase Rényi DP (couple the two runs on the same sample; the
/// divergence of the mixtures is at most the largest divergence of the coupled components, by
/// joint quasi-convexity), while the bound's factors 3 do not shrink with the noise, so for large
/// q or σ the base curve is the smaller of the two. q = 1 gives the base curve.
pub fn poisson_upper(mech: &Mechanism, q: f64, alpha: f64) -> Result<f64, MathError> {
    mech.validate()?;
    check_rate("q", q)?;
    let base = mech.rdp(alpha)?;
    if q == 1.0 {
        return Ok(base);
    }
    Ok(interpolate_upper(alpha, |a| poisson_upper_integer(mech, q, a))?.min(base))
}

/// Upper bound on the RDP of `mech` under sampling without replacement of a fraction γ (replace
/// one), any order: Wang, Balle & Kasiviswanathan (AISTATS 2019) at integer orders, interpolated
/// in between, and never above the base curve (the same coupling argument as [`poisson_upper`]).
/// γ = 1 gives the base curve.
pub fn wor_upper(mech: &Mechanism, gamma: f64, alpha: f64) -> Result<f64, MathError> {
    mech.validate()?;
    check_rate("γ", gamma)?;
    let base = mech.rdp(alpha)?;
    if gamma == 1.0 {
        return Ok(base);
    }
    Ok(interpolate_upper(alpha, |a| wor_upper_integer(mech, gamma, a))?.min(base))
}

#[cfg(test)]
// Tests compare against std's functions on purpose (an independent computation).
#[allow(clippy::disallowed_methods)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::disallowed_methods)] // std's functions are an independent check here
    fn gaussian_wor_bound_sits_between_the_lower_bound_and_theorem_9() {
        // χ² of the pair: e^{1/σ²} − 1 (closed form).
        for sigma in [0.3f64, 1.0, 5.0, 100.0] {
            let want = (1.0 / (sigma * sigma)).exp_m1().ln();
            let got = ln_gaussian_pearson_vajda(sigma, 2);
            assert!(
                (got - want).abs() < 1e-12 * want.abs().max(1.0),
                "σ {sigma}"
            );
        }
        let mut strictly_below = 0;
        for sigma in [0.5, 1.0, 2.0, 5.0, 20.0] {
            let g = Mechanism::Gaussian { sigma };
            for gamma in [0.001, 0.01, 0.1, 0.5] {
                for alpha in [2u64, 3, 4, 7, 16, 32, 64, 100] {
                    let a = alpha as f64;
                    let tight = wor_upper_gaussian(sigma, gamma, a).unwrap();
                    let general = wor_upper(&g, gamma, a).unwrap();
                    let lower = wor_lower(&g, gamma, alpha).unwrap();
                    assert!(tight <= general, "σ {sigma} γ {gamma} α {alpha}");
                    assert!(
                        tight >= lower * (1.0 - 1e-12),
                        "σ {sigma} γ {gamma} α {alpha}"
                    );
                    if tight < 0.9 * general {
                        strictly_below += 1;
                    }
                }
            }
        }
        // Wang's slides' setting (σ = 5): the Gaussian-specific bound is well below Theorem 9.
        assert!(strictly_below > 20, "{strictly_below}");
        let g5 = Mechanism::Gaussian { sigma: 5.0 };
        let tight = wor_upper_gaussian(5.0, 0.01, 32.0).unwrap();
        assert!(tight < 0.5 * wor_upper(&g5, 0.01, 32.0).unwrap(), "{tight}");
        // The numbers the Rényi page quotes (σ = 5, γ = 0.01), to their printed digits.
        for (alpha, tight, general, lower) in [
            (16u64, 1.33e-4, 2.18e-4, 3.3e-5),
            (32, 2.70e-4, 6.47e-4, 6.6e-5),
        ] {
            let a = alpha as f64;
            // Within half a unit of the last printed digit.
            let near = |got: f64, want: f64, digits: f64| {
                let unit = 10f64.powf(want.log10().floor() - digits + 1.0);
                assert!((got - want).abs() <= 0.5 * unit, "{got} vs {want}");
            };
            near(wor_upper_gaussian(5.0, 0.01, a).unwrap(), tight, 3.0);
            near(wor_upper(&g5, 0.01, a).unwrap(), general, 3.0);
            near(wor_lower(&g5, 0.01, alpha).unwrap(), lower, 2.0);
        }
        // γ = 1 is the base curve; γ = 0 is 0; bad input is refused.
        assert_eq!(
            wor_upper_gaussian(2.0, 1.0, 3.0).unwrap(),
            g5_base(2.0, 3.0)
        );
        assert_eq!(wor_upper_gaussian(2.0, 0.0, 3.0).unwrap(), 0.0);
        assert!(wor_upper_gaussian(0.0, 0.1, 3.0).is_err());
        assert!(wor_upper_gaussian(1.0, 1.5, 3.0).is_err());
        assert!(wor_upper_gaussian(1.0, 0.1, 0.5).is_err());
    }

    fn g5_base(sigma: f64, alpha: f64) -> f64 {
        Mechanism::Gaussian { sigma }.rdp(alpha).unwrap()
    }
}
