//! Rényi DP of the clone reductions (FMT21's clones and FMT23's stronger clones), evaluated
//! exactly: certified lower and upper values at any order λ > 1.

use super::clones::{ln_half_binomial, CloneWindow, Clones};
#[allow(unused_imports)]
use super::*;
use crate::rdp::excess;

/// M_c − 1 for the pair at c clones, where M_c = Σ_j P_c(j)^λ Q_c(j)^{1−λ} = E_{Q_c}[L^λ].
///
/// With m = c + 1 and u = j/m, P_c(j) = 2·Bin(m, ½)(j)·(θu + (1 − θ)(1 − u)) and
/// Q_c(j) = 2·Bin(m, ½)(j)·((1 − θ)u + θ(1 − u)) (Pascal's rule on the two shifted Bin(c, ½)),
/// so L − 1 = (2θ − 1)(2u − 1)/q_u and, since E_Q[L] = 1, M_c − 1 = Σ_j Q_c(j)·f_λ(L − 1) with
/// f_λ(x) = (1 + x)^λ − 1 − λx ≥ 0: a sum of non-negative terms (no cancellation when M_c is
/// near 1). Summed outwards from the middle until the binomial tail, times the largest possible
/// term e^{(λ−1)ε₀}, is below 1e-18 of the sum.
fn moment_excess(c: u64, eps0: f64, lambda: f64) -> f64 {
    let m = c + 1;
    let mf = m as f64;
    // 1 − θ = 1/(e^{ε₀} + 1), 2θ − 1 = tanh(ε₀/2).
    let t = exp(-eps0);
    let one_minus = t / (1.0 + t);
    let theta = 1.0 / (1.0 + t);
    let tanh = -exp_m1(-eps0) / (1.0 + t);
    let cap = ((lambda - 1.0) * eps0).min(700.0);
    let term = |j: u64, ln_b: f64| -> f64 {
        let u = j as f64 / mf;
        let q = one_minus * u + theta * (1.0 - u);
        let p = theta * u + one_minus * (1.0 - u);
        let x = tanh * (2.0 * u - 1.0) / q;
        let la = ln(p) - ln(q);
        2.0 * exp(ln_b) * q * excess(lambda, x, la)
    };
    let mid = m / 2;
    let ln_mid = ln_half_binomial(m, mid);
    let mut sum = term(mid, ln_mid);
    // Upwards: Bin(j + 1)/Bin(j) = (m − j)/(j + 1).
    let mut ln_b = ln_mid;
    let mut j = mid;
    while j < m {
        let r = (m - j) as f64 / (j + 1) as f64;
        ln_b += ln(r);
        j += 1;
        sum += term(j, ln_b);
        let next = (m - j) as f64 / (j + 1) as f64;
        if next < 1.0 && exp(ln_b + cap) * next / (1.0 - next) <= 1e-18 * sum {
            break;
        }
    }
    // Downwards: Bin(j − 1)/Bin(j) = j/(m − j + 1).
    let mut ln_b = ln_mid;
    let mut j = mid;
    while j > 0 {
        let r = j as f64 / (m - j + 1) as f64;
        ln_b += ln(r);
        j -= 1;
        sum += term(j, ln_b);
        let next = if j > 0 {
            j as f64 / (m - j + 1) as f64
        } else {
            0.0
        };
        if next < 1.0 && exp(ln_b + cap) * next / (1.0 - next) <= 1e-18 * sum {
            break;
        }
    }
    sum
}

/// One block [a, b) of clone counts: its binomial mass and the moments at its ends.
struct Block {
    a: u64,
    b: u64,
    mass: f64,
    ga: f64,
    gb: f64,
}

impl Block {
    fn gap(&self) -> f64 {
        self.mass * (self.ga - self.gb)
    }
}

pub(super) fn clone_rdp(
    clones: Clones,
    eps0: f64,
    n: u64,
    lambda: f64,
) -> Result<(f64, f64), MathError> {
    clone_rdp_within(clones, eps0, n, lambda, 1e-5)
}

/// The certified upper value of the clone pair's Rényi DP at order λ (FMT23's stronger clones
/// with `stronger`, for the randomizers of [`stronger_clones_exclude`] only: the caller checks),
/// its bracket refined only to `1e-3` of the value or 150 moments, whichever comes first: the
/// quick curve a composition over many rounds needs (tens of moments per order instead of
/// thousands; at the largest orders the value can be a few per cent above the exact one). As
/// [`fmt21_rdp`] otherwise.
pub(crate) fn clone_rdp_upper(
    eps0: f64,
    n: u64,
    stronger: bool,
    lambda: f64,
) -> Result<f64, MathError> {
    clone_rdp_within(Clones::chosen(stronger), eps0, n, lambda, 1e-3).map(|x| x.1)
}

fn clone_rdp_within(
    clones: Clones,
    eps0: f64,
    n: u64,
    lambda: f64,
    tolerance: f64,
) -> Result<(f64, f64), MathError> {
    check_eps0(eps0)?;
    check_users(n)?;
    // The orders of the rest of the crate: 1 < λ ≤ 10⁴.
    crate::rdp::check_order(lambda)?;
    if (lambda - 1.0) * eps0 > 700.0 {
        return Err(MathError::OutOfDomain {
            name: "λ",
            value: lambda,
            expected: "an order with (λ − 1)·ε₀ ≤ 700 (the moments overflow beyond)",
        });
    }
    let g0 = moment_excess(0, eps0, lambda);
    let mut eta = 1e-30;
    loop {
        let window = CloneWindow::new(n, eps0, clones, eta);
        let (lower, upper) = bracket(&window, eps0, lambda, g0, tolerance);
        // The mass below the window meets at most g(0): widen the window while that term is
        // not negligible against the value (it can be, for large λε₀ and few clones).
        // (For the quick upper value, a tail worth a tenth of the bracket's tolerance is enough.)
        let enough = if tolerance >= 1e-3 {
            0.1 * tolerance
        } else {
            1e-12
        };
        if window.tail_lo * g0 <= enough * lower || eta <= 1e-300 {
            let d = |s: f64| ln_1p(s) / (lambda - 1.0);
            return Ok((d(lower), d(upper).max(d(lower))));
        }
        eta = (0.1 * enough * lower / g0).max(1e-300).min(eta * 1e-10);
    }
}

/// (lower, upper) on E_C[M_C − 1] over the window plus its tails.
fn bracket(window: &CloneWindow, eps0: f64, lambda: f64, g0: f64, tolerance: f64) -> (f64, f64) {
    let (lo, hi) = (window.c_lo, window.c_hi);
    let g = |c: u64| moment_excess(c, eps0, lambda);
    // Prefix sums of the weights, so a block's mass is one subtraction.
    let mut prefix = Vec::with_capacity(window.w.len() + 1);
    prefix.push(0.0);
    for &w in &window.w {
        prefix.push(prefix.last().copied().unwrap_or(0.0) + w);
    }
    let mass = |a: u64, b: u64| prefix[(b - lo) as usize] - prefix[(a - lo) as usize];
    let g_hi = g(hi);
    let exact_top = window.weight(hi) * g_hi;
    let mut blocks = Vec::new();
    if hi > lo {
        blocks.push(Block {
            a: lo,
            b: hi,
            mass: mass(lo, hi),
            ga: g(lo),
            gb: g_hi,
        });
    }
    // Refine the block with the largest gap (its mass times the drop of M − 1 across it) until
    // the gaps add up to `tolerance` (1e-5 for the published values) of the value, or every
    // count is its own block, or after 4000 evaluations.
    // (The quick upper value stops after 150: its bracket's upper end stays certified.)
    let evaluations = if tolerance >= 1e-3 { 150 } else { 4000 };
    for _ in 0..evaluations {
        let lower: f64 = blocks.iter().map(|b| b.mass * b.gb).sum::<f64>() + exact_top;
        let total_gap: f64 = blocks.iter().map(Block::gap).sum();
        if total_gap <= tolerance * lower {
            break;
        }
        let Some((i, _)) = blocks
            .iter()
            .enumerate()
            .filter(|(_, b)| b.b - b.a > 1)
            .max_by(|x, y| x.1.gap().total_cmp(&y.1.gap()))
        else {
            break;
        };
        let Block { a, b, ga, gb, .. } = blocks[i];
        let mid = a + (b - a) / 2;
        let gm = g(mid);
        blocks[i] = Block {
            a,
            b: mid,
            mass: mass(a, mid),
            ga,
            gb: gm,
        };
        blocks.push(Block {
            a: mid,
            b,
            mass: mass(mid, b),
            ga: gm,
            gb,
        });
    }
    // A block of one count is exact.
    let lower: f64 = blocks
        .iter()
        .map(|b| b.mass * if b.b - b.a == 1 { b.ga } else { b.gb })
        .sum::<f64>()
        + exact_top;
    let upper: f64 = blocks.iter().map(|b| b.mass * b.ga).sum::<f64>()
        + exact_top
        + window.tail_lo * g0
        + window.tail_hi * g_hi;
    // Rounding: each moment is a sum of non-negative terms accurate to a few ulp per term.
    (lower * (1.0 - 1e-12), upper * (1.0 + 1e-12))
}

/// The Rényi DP of shuffling with FMT21's clones at order λ: (lower, upper) on
/// D_λ(P‖Q) = (1/(λ − 1))·log E_C[Σ_j P_C(j)^λ Q_C(j)^{1−λ}], C ∼ Bin(n − 1, e^{−ε₀}), the pair
/// of [`clone_divergence`] (the count C is revealed by the pair, so the divergence of the mixture
/// is the log of the mixture of the conditional moments).
///
/// - Source: the reduction of FMT21 (arXiv 2012.12803), whose numerical method the paper extends
///   to Rényi DP; evaluated exactly here, not through the paper's bounds.
/// - Relation: replace-one. The upper value is an upper bound on the RDP ε(λ) of the shuffled
///   output of any ε₀-LDP randomizer (the reduction is a post-processing, which Rényi divergence
///   respects); both directions of the pair are equal (reflection).
/// - Method: M_c − 1 as a sum of non-negative terms (see the source); M_c does not increase with
///   c (P_{c+1}, Q_{c+1} add the same fair bit to P_c, Q_c), so a block of counts lies between its
///   ends' moments; blocks are split where the gap is largest until the bracket is within 1e-5 of
///   the value (or 4000 moments). The binomial mass outside the window enters the upper value
///   at the largest moment it can meet. Domain: 1e-12 ≤ ε₀ ≤ 100, 1 ≤ n ≤ 1e9, 1 < λ ≤ 1e4 with
///   (λ − 1)ε₀ ≤ 700. Example: n = 1 gives the local randomizer's Rényi divergence between
///   Bern(θ) and Bern(1 − θ), θ = e^{ε₀}/(e^{ε₀} + 1).
pub fn fmt21_rdp(eps0: f64, n: u64, lambda: f64) -> Result<(f64, f64), MathError> {
    clone_rdp(Clones::Fmt21, eps0, n, lambda)
}

/// The Rényi DP of shuffling with FMT23's stronger clones at order λ: as [`fmt21_rdp`] with
/// C ∼ Bin(n − 1, 2/(e^{ε₀} + 1)), for the randomizers of [`stronger_clones_exclude`] (k-ary
/// randomized response); an error for a generic one.
///
/// - Source: the stronger clone reduction of FMT23 (arXiv 2208.04591), whose Rényi DP theorem
///   (its Theorem 3.1, a closed-form bound, which the erratum restricts to the same class) could
///   not be read here; this is the reduction's own Rényi divergence, evaluated exactly, so it is
///   at most any bound derived from the reduction.
/// - Relation, method, domain: as [`fmt21_rdp`].
pub fn fmt23_rdp(
    randomizer: Randomizer,
    eps0: f64,
    n: u64,
    lambda: f64,
) -> Result<(f64, f64), MathError> {
    check_randomizer(randomizer)?;
    if let Some(why) = stronger_clones_exclude(randomizer) {
        return Err(MathError::NoSolution {
            reason: format!("the stronger clone reduction {why}"),
        });
    }
    clone_rdp(Clones::Stronger, eps0, n, lambda)
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)]
mod tests {
    use super::*;

    #[test]
    fn one_user_is_the_local_divergence() {
        for &(eps0, lambda) in &[(1.0f64, 2.0f64), (0.1, 10.0), (4.0, 3.5)] {
            let th = eps0.exp() / (eps0.exp() + 1.0);
            let want = (th.powf(lambda) * (1.0 - th).powf(1.0 - lambda)
                + (1.0 - th).powf(lambda) * th.powf(1.0 - lambda))
            .ln()
                / (lambda - 1.0);
            let (lo, hi) = fmt21_rdp(eps0, 1, lambda).unwrap();
            assert!((lo - want).abs() <= 1e-12 * want && (hi - want).abs() <= 1e-12 * want);
        }
    }

    #[test]
    fn orders_are_accepted_up_to_the_overflow_guard_and_refused_past_it() {
        // (λ − 1)·ε₀ = 700 exactly is inside; a hair above is refused with the reason.
        let (lo, hi) = fmt21_rdp(7.0, 50, 101.0).unwrap();
        assert!(lo.is_finite() && lo > 0.0 && lo <= hi, "[{lo}, {hi}]");
        // One user: the local divergence, at most ε₀ and close to it at a high order.
        let (lo, _) = fmt21_rdp(7.0, 1, 101.0).unwrap();
        assert!(lo <= 7.0 && lo > 6.9, "{lo}");
        for (eps0, lambda) in [(7.0f64, 101.0001f64), (700.0 / 99.0 + 1e-9, 100.0)] {
            let e = fmt21_rdp(eps0.min(100.0), 50, lambda)
                .unwrap_err()
                .to_string();
            assert!(e.contains("700"), "{e}");
        }
    }

    #[test]
    fn where_counts_are_summed_in_blocks_the_bracket_is_open_and_narrow() {
        // n = 10⁹: the window holds hundreds of thousands of counts, more than the 4,000
        // moments evaluated, so blocks stay and the upper value is strictly above the lower one,
        // by at most the 1e-5 the refinement aims at (plus the rounding margins).
        for (clones, eps0, lambda) in [
            (Clones::Fmt21, 1.0, 2.0),
            (Clones::Stronger, 1.0, 8.0),
            (Clones::Fmt21, 3.0, 20.0),
        ] {
            let (lo, hi) = clone_rdp(clones, eps0, 1_000_000_000, lambda).unwrap();
            assert!(
                lo > 0.0 && lo < hi && hi <= lo * (1.0 + 2e-5),
                "{clones:?} ε₀ = {eps0}, λ = {lambda}: [{lo:e}, {hi:e}]"
            );
        }
    }

    #[test]
    fn a_moment_is_the_sum_of_its_terms_however_far_it_reaches() {
        // M_c − 1 summed directly over every j against the outward sum with its stopping rule,
        // at small and large (λ − 1)ε₀, at counts where the tails are and are not cut.
        for &(c, eps0, lambda) in &[
            (0u64, 1.0f64, 2.0f64),
            (1, 3.0, 5.0),
            (40, 0.5, 3.0),
            (400, 2.0, 40.0),
            (3000, 1.0, 8.0),
            (200, 8.0, 80.0),
            (5000, 0.3, 2.0),
        ] {
            let m = c + 1;
            let th = eps0.exp() / (eps0.exp() + 1.0);
            let mut direct = 0.0f64;
            for j in 0..=m {
                let lb = ln_half_binomial(m, j);
                let u = j as f64 / m as f64;
                let p = 2.0 * lb.exp() * (th * u + (1.0 - th) * (1.0 - u));
                let q = 2.0 * lb.exp() * ((1.0 - th) * u + th * (1.0 - u));
                if q > 0.0 {
                    direct += q * ((p / q).powf(lambda) - 1.0 - lambda * (p / q - 1.0));
                }
            }
            let summed = moment_excess(c, eps0, lambda);
            assert!(
                (summed - direct).abs() <= 1e-9 * direct,
                "c = {c}, ε₀ = {eps0}, λ = {lambda}: {summed:e} against {direct:e}"
            );
        }
    }
}
