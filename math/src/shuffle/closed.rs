//! The closed-form bounds: Erlingsson et al. 2019 (EFMRTT19) and Feldman, McMillan & Talwar 2021
//! (FMT21, the theorem's form and its published code's variant).

#[allow(unused_imports)]
use super::*;

// ---------------------------------------------------------------------------------------------
// Closed forms
// ---------------------------------------------------------------------------------------------

/// Erlingsson et al. 2019: ε = 12ε₀√(log(1/δ)/n).
///
/// - Source: EFMRTT19 (arXiv 1811.12469), the amplification corollary for ε₀-LDP randomizers, as
///   stated in math-reference.md (the paper's text could not be opened here; the validity box is
///   also the one encoded in Balle et al.'s implementation).
/// - Relation: replace-one. Upper bound.
/// - Validity: ε₀ ≤ ½, n ≥ 1000, δ ≤ 0.01, and the result at most ε₀ (n ≥ 144 log(1/δ)); outside
///   it the result is marked not valid. Example: n = 1e5, ε₀ = ½, δ = 1e-6 gives 0.070524.
/// - Accuracy: a few ulp (1e-15 relative against mpmath).
pub fn efmrtt19(eps0: f64, n: u64, delta: f64) -> Result<ShuffleEpsilon, MathError> {
    check_all(eps0, n, delta)?;
    let b = Bound::Efmrtt19;
    let r = Randomizer::Generic;
    if eps0 > 0.5 {
        return Ok(ShuffleEpsilon::invalid(b, r, "needs ε₀ ≤ 1/2"));
    }
    if n < 1000 {
        return Ok(ShuffleEpsilon::invalid(b, r, "needs n ≥ 1000"));
    }
    if delta > 0.01 {
        return Ok(ShuffleEpsilon::invalid(b, r, "needs δ ≤ 0.01"));
    }
    let eps = efmrtt19_formula(eps0, n as f64, delta);
    if eps > eps0 {
        return Ok(ShuffleEpsilon::invalid(
            b,
            r,
            "the result exceeds ε₀ (needs n ≥ 144·log(1/δ))",
        ));
    }
    Ok(ShuffleEpsilon::valid(b, r, eps))
}

pub(super) fn efmrtt19_formula(eps0: f64, n: f64, delta: f64) -> f64 {
    12.0 * eps0 * (-ln(delta) / n).sqrt()
}

/// The largest ε₀ allowed by FMT21's validity condition, log(n/(16 log(4/δ))) (may be ≤ 0).
pub(super) fn fmt21_eps0_limit(n: u64, delta: f64) -> f64 {
    ln(n as f64 / (16.0 * (std::f64::consts::LN_2 * 2.0 - ln(delta))))
}

/// Feldman, McMillan & Talwar 2021, Theorem 3.1 (closed form):
/// ε = log(1 + (e^{ε₀} − 1)/(e^{ε₀} + 1)·(a + b)), a = 8√(e^{ε₀} log(4/δ)/n), b = 8e^{ε₀}/n.
///
/// - Source: FMT21 (arXiv 2012.12803), Theorem 3.1, the form given in math-reference.md (n = 1e5,
///   ε₀ = 4, δ = 1e-6 → 0.53463). The code published with the paper computes a slightly larger
///   variant (0.53780 there); this is the theorem's.
/// - Relation: replace-one. Upper bound, for any ε₀-LDP randomizer.
/// - Validity: ε₀ ≤ log(n/(16 log(4/δ))); outside it the result is marked not valid. Where the
///   formula exceeds ε₀ (tiny ε₀ near that edge) the result is ε₀, flagged `no_amplification`.
/// - Computed as `ln_1p(tanh(ε₀/2)·(a + b))` with m = n·e^{−ε₀} expected clones
///   (`clones_closed_form`): no cancellation for small ε₀. Relative error ~1e-15 against mpmath.
pub fn fmt21(eps0: f64, n: u64, delta: f64) -> Result<ShuffleEpsilon, MathError> {
    check_all(eps0, n, delta)?;
    if eps0 > fmt21_eps0_limit(n, delta) {
        return Ok(ShuffleEpsilon::invalid(
            Bound::Fmt21,
            Randomizer::Generic,
            "needs ε₀ ≤ log(n/(16·log(4/δ)))",
        ));
    }
    // Near the edge of its validity (n a little above 16·log(4/δ)·e^{ε₀}, tiny ε₀) the closed form
    // can exceed ε₀, which the shuffled ε₀-LDP protocol always meets (post-processing): report ε₀
    // there, flagged as no amplification, as the blanket bounds do. E.g. n = 206, ε₀ = 0.001837,
    // δ = 1.49e-5: the formula gives 0.0018457.
    Ok(capped(
        Bound::Fmt21,
        Randomizer::Generic,
        fmt21_formula(eps0, n as f64, delta),
        eps0,
    ))
}

/// A closed form's result: ε, or ε₀ flagged `no_amplification` where the formula reaches ε₀
/// (the shuffled ε₀-LDP protocol always meets ε₀).
fn capped(b: Bound, r: Randomizer, eps: f64, eps0: f64) -> ShuffleEpsilon {
    if eps >= eps0 {
        let mut out = ShuffleEpsilon::valid(b, r, eps0);
        out.no_amplification = true;
        return out;
    }
    ShuffleEpsilon::valid(b, r, eps)
}

/// The clone reductions' closed form with m expected clones (FMT21's Theorem 3.1 argument):
/// log(1 + (e^{ε₀} − 1)/(e^{ε₀} + 1)·(8√(log(4/δ)/m) + 8/m)), computed as `ln_1p` of a product
/// of positive factors (no cancellation for small ε₀).
fn clones_closed_form(eps0: f64, m: f64, delta: f64) -> f64 {
    let l4 = 2.0 * std::f64::consts::LN_2 - ln(delta);
    let tanh_half = -exp_m1(-eps0) / (1.0 + exp(-eps0));
    ln_1p(tanh_half * (8.0 * (l4 / m).sqrt() + 8.0 / m))
}

/// FMT21's closed form: n·e^{−ε₀} expected clones.
pub(super) fn fmt21_formula(eps0: f64, n: f64, delta: f64) -> f64 {
    clones_closed_form(eps0, n * exp(-eps0), delta)
}

/// The closed form as computed by the code published with FMT21 (not the theorem's form, see
/// [`fmt21`]): log(1 + (1 − e^{−ε₀})/(1 + e^{−ε₀−ε′})·(a + b)) with ε′ = log(1 + a + b) and a, b
/// as in [`fmt21`]; 0.53780 at n = 1e5, ε₀ = 4, δ = 1e-6 where the theorem gives 0.53463.
///
/// Shown for comparison only; the published numerical method starts its bisection from it. The
/// code uses it under the same condition ε₀ < log(n/(16 log(4/δ))); the value is returned whatever
/// the condition. Relation: replace-one. Domain as [`fmt21`].
pub fn fmt21_code_variant(eps0: f64, n: u64, delta: f64) -> Result<f64, MathError> {
    check_all(eps0, n, delta)?;
    Ok(fmt21_published_code_formula(eps0, n as f64, delta))
}

pub(super) fn fmt21_published_code_formula(eps0: f64, n: f64, delta: f64) -> f64 {
    let l4 = 2.0 * std::f64::consts::LN_2 - ln(delta);
    let a = 8.0 * exp(0.5 * eps0) * (l4 / n).sqrt();
    let b = 8.0 * exp(eps0) / n;
    let e1 = ln_1p(a + b);
    ln_1p(-exp_m1(-eps0) / (1.0 + exp(-eps0 - e1)) * (a + b))
}

/// The largest ε₀ allowed by [`fmt23`]'s validity condition, (n − 1)/(e^{ε₀} + 1) ≥ 8 log(4/δ),
/// i.e. ε₀ ≤ log((n − 1)/(8 log(4/δ)) − 1) (−∞ when nothing is allowed).
pub(super) fn fmt23_eps0_limit(n: u64, delta: f64) -> f64 {
    let x = (n as f64 - 1.0) / (8.0 * (std::f64::consts::LN_2 * 2.0 - ln(delta))) - 1.0;
    if x > 0.0 {
        ln(x)
    } else {
        f64::NEG_INFINITY
    }
}

/// The closed form for stronger clones: FMT21's Theorem 3.1 argument with the clone probability
/// 2/(e^{ε₀} + 1) in place of e^{−ε₀}. With m = (n − 1)·2/(e^{ε₀} + 1) the expected number of
/// clones, ε = log(1 + (e^{ε₀} − 1)/(e^{ε₀} + 1)·(8√(log(4/δ)/m) + 8/m)).
///
/// - Source: Feldman, McMillan & Talwar 2023 (arXiv 2208.04591), the closed form of the stronger
///   clone reduction, in the form Wang et al.'s published code computes for it (its text could not
///   be read here). FMT21's form is this one with m = n·e^{−ε₀} (8√(e^{ε₀}log(4/δ)/n) + 8e^{ε₀}/n);
///   the clones are drawn from the other n − 1 users, so we use n − 1 (the more cautious).
///   n = 1e5, ε₀ = 4, δ = 1e-6 gives 0.407794 (FMT21's: 0.53463).
/// - Relation: replace-one. Upper bound for the randomizers of [`stronger_clones_exclude`]
///   (k-ary randomized response); marked not valid for a generic randomizer (FMT23's erratum).
/// - Validity: m ≥ 16 log(4/δ), i.e. ε₀ ≤ log((n − 1)/(8 log(4/δ)) − 1); where the formula
///   exceeds ε₀ the result is ε₀, flagged `no_amplification`.
/// - Computed as `ln_1p` of a product of positive factors: ~1e-15 relative against mpmath.
pub fn fmt23(
    randomizer: Randomizer,
    eps0: f64,
    n: u64,
    delta: f64,
) -> Result<ShuffleEpsilon, MathError> {
    check_all(eps0, n, delta)?;
    check_randomizer(randomizer)?;
    let b = Bound::Fmt23;
    if let Some(why) = stronger_clones_exclude(randomizer) {
        return Ok(ShuffleEpsilon::invalid(b, randomizer, why));
    }
    if eps0 > fmt23_eps0_limit(n, delta) {
        return Ok(ShuffleEpsilon::invalid(
            b,
            randomizer,
            "needs ε₀ ≤ log((n − 1)/(8·log(4/δ)) − 1)",
        ));
    }
    Ok(capped(
        b,
        randomizer,
        fmt23_formula(eps0, n as f64, delta),
        eps0,
    ))
}

/// FMT23's closed form: 2(n − 1)/(e^{ε₀} + 1) = 2(n − 1)e^{−ε₀}/(1 + e^{−ε₀}) expected clones.
pub(super) fn fmt23_formula(eps0: f64, n: f64, delta: f64) -> f64 {
    let t = exp(-eps0);
    clones_closed_form(eps0, 2.0 * (n - 1.0) * t / (1.0 + t), delta)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The limit is where FMT23's condition (n − 1)/(e^{ε₀} + 1) ≥ 8 log(4/δ) turns, and −∞ when no
    /// ε₀ ≥ 0 meets it.
    #[test]
    fn fmt23_limit_is_where_its_condition_turns() {
        for (n, delta) in [
            (1_000_u64, 1e-6),
            (10_000, 1e-8),
            (1_000_000, 1e-5),
            (400, 0.01),
            (3, 0.9),
        ] {
            let lim = fmt23_eps0_limit(n, delta);
            let need = 8.0 * ln(4.0 / delta);
            let ratio = (n as f64 - 1.0) / need;
            if ratio > 1.0 {
                let have = (n as f64 - 1.0) / (exp(lim) + 1.0);
                assert!(
                    (have / need - 1.0).abs() < 1e-12,
                    "n {n}, δ {delta}: {have} vs {need}"
                );
            } else {
                assert_eq!(lim, f64::NEG_INFINITY, "n {n}, δ {delta}");
            }
        }
        assert_eq!(fmt23_eps0_limit(50, 1e-6), f64::NEG_INFINITY);
    }
}
