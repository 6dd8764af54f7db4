//! The clone reduction of Feldman, McMillan & Talwar 2021: exact evaluation over every clone count
//! in a bounded window, and the published numerical method.

use super::closed::{fmt21_eps0_limit, fmt21_published_code_formula};
#[allow(unused_imports)]
use super::*;

mod published;
pub use published::*;

// ---------------------------------------------------------------------------------------------
// FMT21 clone reduction
// ---------------------------------------------------------------------------------------------

/// Constants of the clone divergence at (ε, ε₀), 0 ≤ ε < ε₀.
#[derive(Clone, Copy)]
pub(super) struct CloneConsts {
    /// A = (e^{ε₀} − e^ε)/(e^{ε₀} + 1), the weight of b_c(k − 1); also D_0.
    pub(super) a: f64,
    /// e^ε − 1.
    pub(super) b: f64,
    /// τ: the counts j ≥ τ(c + 1) are where P_c(j) > e^ε Q_c(j).
    pub(super) tau: f64,
}

impl CloneConsts {
    pub(super) fn new(eps: f64, eps0: f64) -> Self {
        CloneConsts {
            a: -exp_m1(eps - eps0) / (1.0 + exp(-eps0)),
            b: exp_m1(eps),
            tau: exp_m1(eps + eps0) / (exp_m1(eps0) * (exp(eps) + 1.0)),
        }
    }

    /// k_c = ⌈τ(c + 1)⌉, within [1, c + 1].
    pub(super) fn threshold(&self, c: u64) -> u64 {
        let k = (self.tau * (c as f64 + 1.0)).ceil();
        (k.max(1.0) as u64).min(c + 1)
    }
}

/// log b_c(m) = log P(Bin(c, ½) = m).
pub(super) fn ln_half_binomial(c: u64, m: u64) -> f64 {
    if m == 0 || m == c {
        -(c as f64) * std::f64::consts::LN_2
    } else {
        ln_binomial_pmf(m as f64, c as f64, 0.5)
    }
}

/// For Bin(c, ½) and m ≥ (c − 1)/2: (log b_c(m), S_c(m + 1)/b_c(m)), the tail by direct summation
/// of the ratio terms (each at most 1, decreasing), with the geometric bound on the rest added.
pub(super) fn direct_state(c: u64, m: u64) -> (f64, f64) {
    let ln_beta = ln_half_binomial(c, m);
    let mut sum = 0.0;
    let mut t = 1.0;
    let mut j = m;
    while j < c {
        // b(j + 1)/b(j) = (c − j)/(j + 1)
        let r = (c - j) as f64 / (j + 1) as f64;
        t *= r;
        j += 1;
        sum += t;
        if t < 1e-18 * sum {
            let next = (c - j) as f64 / (j + 1) as f64;
            if next < 1.0 {
                sum += t * next / (1.0 - next);
                break;
            }
        }
    }
    (ln_beta, sum)
}

/// The hockey-stick divergence D_{e^ε}(P_c ‖ Q_c) of the clone reduction, conditioned on c clones.
///
/// P_c = A + Δ and Q_c = A + 1 − Δ with A ∼ Bin(c, ½), Δ ∼ Bern(e^{ε₀}/(e^{ε₀} + 1)): the number
/// of reports that look like user 1's first input, when c of the n − 1 others are clones (FMT21,
/// arXiv 2012.12803, the reduction behind Theorem 3.1 and its numerical method). Equal in both
/// orders (reflection j ↦ c + 1 − j); 0 for ε ≥ ε₀; non-increasing in c.
///
/// Computed as b_c(k − 1)·Σ_{j ≥ k} [b_c(j − 1)/b_c(k − 1)]·[A − (A + e^ε − 1)(c − j + 1)/j],
/// a sum of non-negative terms, k = ⌈τ(c + 1)⌉, b_c(k − 1) in log space (Loader's form). Work
/// O(√c). Exact up to rounding: 5.5e-13 relative against mpmath for c up to 3e7 (the ratio
/// products accumulate rounding over the ~√c terms).
pub fn clone_divergence(c: u64, eps: f64, eps0: f64) -> Result<f64, MathError> {
    check_epsilon("ε", eps)?;
    check_eps0(eps0)?;
    if c > MAX_USERS {
        return Err(MathError::OutOfDomain {
            name: "c",
            value: c as f64,
            expected: "a clone count at most 1e9",
        });
    }
    Ok(clone_divergence_unchecked(c, eps, eps0))
}

pub(super) fn clone_divergence_unchecked(c: u64, eps: f64, eps0: f64) -> f64 {
    if eps >= eps0 {
        return 0.0;
    }
    let k = CloneConsts::new(eps, eps0);
    direct_divergence(c, &k)
}

pub(super) fn direct_divergence(c: u64, k: &CloneConsts) -> f64 {
    let kc = k.threshold(c);
    let m = kc - 1;
    let ln_beta = ln_half_binomial(c, m);
    let c1 = k.a + k.b;
    // j runs from kc to c + 1; r = b(j − 1)/b(m).
    let mut r = 1.0;
    let mut sum = 0.0;
    let mut j = kc;
    loop {
        let term = r * (k.a - c1 * (c + 1 - j) as f64 / j as f64);
        if term > 0.0 {
            sum += term;
        }
        if j > c {
            break;
        }
        // b(j)/b(j − 1) = (c − j + 1)/j
        let ratio = (c + 1 - j) as f64 / j as f64;
        r *= ratio;
        j += 1;
        if r < 1e-18 * sum && ratio < 1.0 {
            // Remaining terms are below r·A·(1 + ratio + ratio² + …).
            sum += r * k.a / (1.0 - ratio);
            break;
        }
    }
    (exp(ln_beta) * sum).max(0.0)
}

/// Which clone decomposition: the probability that each of the other n − 1 users' reports is a
/// clone (of either of user 1's two possible inputs, half each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Clones {
    /// FMT21: e^{−ε₀}, for every ε₀-LDP randomizer.
    Fmt21,
    /// FMT23's stronger clones: 2/(e^{ε₀} + 1), for the randomizers that decompose that way
    /// (see [`fmt23_numerical_delta`]).
    Stronger,
}

impl Clones {
    /// FMT23's stronger clones where `stronger`, FMT21's otherwise.
    pub(super) fn chosen(stronger: bool) -> Clones {
        if stronger {
            Clones::Stronger
        } else {
            Clones::Fmt21
        }
    }

    /// (p, 1 − p, log p, log(1 − p)), each without cancellation.
    pub(super) fn probability(self, eps0: f64) -> (f64, f64, f64, f64) {
        match self {
            Clones::Fmt21 => (exp(-eps0), -exp_m1(-eps0), -eps0, ln(-exp_m1(-eps0))),
            Clones::Stronger => {
                // p = 2/(e^{ε₀} + 1) = 2e^{−ε₀}/(1 + e^{−ε₀}), 1 − p = (e^{ε₀} − 1)/(e^{ε₀} + 1).
                let t = exp(-eps0);
                let q = -exp_m1(-eps0) / (1.0 + t);
                (
                    2.0 * t / (1.0 + t),
                    q,
                    std::f64::consts::LN_2 - eps0 - ln_1p(t),
                    ln(q),
                )
            }
        }
    }
}

/// The binomial distribution of the clone count C ∼ Bin(n − 1, p) (p from [`Clones`]) over a
/// window that holds all but a rigorously bounded mass.
pub(super) struct CloneWindow {
    pub(super) eps0: f64,
    pub(super) c_lo: u64,
    pub(super) c_hi: u64,
    /// w[i] = P(C = c_lo + i).
    pub(super) w: Vec<f64>,
    /// ≥ P(C < c_lo).
    pub(super) tail_lo: f64,
    /// ≥ P(C > c_hi).
    pub(super) tail_hi: f64,
}

impl CloneWindow {
    /// Window whose outside mass is at most `eta` on each side.
    pub(super) fn new(n: u64, eps0: f64, clones: Clones, eta: f64) -> Self {
        let big_n = n - 1;
        if big_n == 0 {
            return CloneWindow {
                eps0,
                c_lo: 0,
                c_hi: 0,
                w: vec![1.0],
                tail_lo: 0.0,
                tail_hi: 0.0,
            };
        }
        let nf = big_n as f64;
        let (p, q, ln_p, ln_q) = clones.probability(eps0);
        // The walks below end only where the binomial's ratio falls under 1, which a tuple that
        // is not (p, 1 − p, ln p, ln(1 − p)) need never do: check it (debug builds) rather than
        // walk on for ever.
        debug_assert!(
            {
                let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * a.abs().max(b.abs());
                p >= 0.0
                    && q >= 0.0
                    && close(p + q, 1.0)
                    && close(exp(ln_p), p)
                    && close(exp(ln_q), q)
            },
            "inconsistent clone probability {:?} at ε₀ = {eps0}",
            (p, q, ln_p, ln_q)
        );
        let ln_pmf = |c: u64| -> f64 {
            if c == 0 {
                nf * ln_q
            } else if c == big_n {
                nf * ln_p
            } else if p <= 0.5 {
                ln_binomial_pmf(c as f64, nf, p)
            } else {
                ln_binomial_pmf((big_n - c) as f64, nf, q)
            }
        };
        let mode = (((nf + 1.0) * p).floor() as u64).min(big_n);
        const ANCHOR: u64 = 256;
        // Downwards: w(c − 1)/w(c) = c q/((N − c + 1) p), decreasing as c falls.
        let mut down = Vec::new();
        let mut c = mode;
        let mut wc = exp(ln_pmf(c));
        let mut tail_lo = 0.0;
        while c > 0 {
            let r = c as f64 * q / ((big_n - c + 1) as f64 * p);
            if r < 1.0 {
                let tail = wc * r / (1.0 - r);
                if tail <= eta {
                    tail_lo = tail;
                    break;
                }
            }
            c -= 1;
            wc = if (mode - c).is_multiple_of(ANCHOR) {
                exp(ln_pmf(c))
            } else {
                wc * r
            };
            down.push(wc);
        }
        let c_lo = c;
        // Upwards: w(c + 1)/w(c) = (N − c) p/((c + 1) q).
        let mut up = Vec::new();
        let mut c = mode;
        let mut wc = exp(ln_pmf(c));
        let mut tail_hi = 0.0;
        while c < big_n {
            let r = (big_n - c) as f64 * p / ((c + 1) as f64 * q);
            if r < 1.0 {
                let tail = wc * r / (1.0 - r);
                if tail <= eta {
                    tail_hi = tail;
                    break;
                }
            }
            c += 1;
            wc = if (c - mode).is_multiple_of(ANCHOR) {
                exp(ln_pmf(c))
            } else {
                wc * r
            };
            up.push(wc);
        }
        let c_hi = c;
        let mut w = Vec::with_capacity(down.len() + 1 + up.len());
        w.extend(down.iter().rev());
        w.push(exp(ln_pmf(mode)));
        w.extend(up);
        CloneWindow {
            eps0,
            c_lo,
            c_hi,
            w,
            tail_lo,
            tail_hi,
        }
    }

    pub(super) fn weight(&self, c: u64) -> f64 {
        if c < self.c_lo || c > self.c_hi {
            0.0
        } else {
            self.w[(c - self.c_lo) as usize]
        }
    }

    /// (lower, upper) bounds on δ(ε) = E_C[D_C], by the O(1) recurrences walking c downwards.
    pub(super) fn delta(&self, eps: f64) -> (f64, f64) {
        if eps >= self.eps0 {
            return (0.0, 0.0);
        }
        let k = CloneConsts::new(eps, self.eps0);
        let mut sum = 0.0;
        let mut d_top = 0.0;
        walk_divergences(&k, self.c_hi, self.c_lo, |c, d| {
            if c == self.c_hi {
                d_top = d;
            }
            sum += self.w[(c - self.c_lo) as usize] * d;
        });
        let upper = (sum + self.tail_lo * k.a + self.tail_hi * d_top) * (1.0 + 1e-9);
        let lower = sum * (1.0 - 1e-9);
        (lower, upper.min(1.0))
    }
}

/// Calls `f(c, D_c)` for c = top, top − 1, …, bottom, with D_c the clone divergence at the
/// constants `k`, in O(1) per step after an O(√top) start.
///
/// State: m = k_c − 1, β = b_c(m) kept as beta_m·e^{offset} (beta_m within [1e-200, 1e200], so
/// nothing underflows however small β is at the top), and R = S_c(m + 1)/b_c(m). From c to c − 1
/// the threshold k_{c−1} is k_c or k_c − 1 (τ < 1), and Pascal's rule for Bin(c, ½),
/// b_c(j) = ½(b_{c−1}(j) + b_{c−1}(j − 1)), gives both updates below. D_c = β·(A − (e^ε − 1)R).
pub(super) fn walk_divergences(
    k: &CloneConsts,
    top: u64,
    bottom: u64,
    mut f: impl FnMut(u64, f64),
) {
    let mut c = top;
    let mut kc = k.threshold(c);
    let mut m = kc - 1;
    let (ln_beta, mut ratio) = direct_state(c, m);
    let mut offset = ln_beta;
    let mut scale = exp(offset);
    let mut beta_m = 1.0;
    loop {
        f(c, (k.a - k.b * ratio).max(0.0) * beta_m * scale);
        if c <= bottom {
            break;
        }
        let cf = c as f64;
        // Mathematically k_{c−1} ∈ {k_c − 1, k_c}; the clamp keeps the state consistent if
        // rounding of τ·c says otherwise (then a boundary term with P(j) ≈ e^ε Q(j) moves, which
        // changes nothing measurable), and never lets m go below 0.
        let next = k.threshold(c - 1).clamp((kc - 1).max(1), kc);
        if next == kc {
            // Same threshold: b_{c−1}(m) = b_c(m)·2(c − m)/c,
            // S_{c−1}(m + 1) = S_c(m + 1) − b_c(m)(c − m)/c.
            let cm = (c - m) as f64;
            beta_m *= 2.0 * cm / cf;
            ratio = ratio * cf / (2.0 * cm) - 0.5;
        } else {
            // Threshold down by one: b_{c−1}(m − 1) = b_c(m)·2m/c,
            // S_{c−1}(m) = S_c(m + 1) + b_c(m)(c − m)/c.
            let mf = m as f64;
            beta_m *= 2.0 * mf / cf;
            ratio = (cf * ratio + (c - m) as f64) / (2.0 * mf);
            m -= 1;
        }
        kc = next;
        c -= 1;
        if !(1e-200..=1e200).contains(&beta_m) {
            offset += ln(beta_m);
            beta_m = 1.0;
            scale = exp(offset);
        }
    }
}

/// The clone reduction's δ(ε) at (ε₀, n), as certified lower and upper bounds that differ by about
/// 1e-9 relative (FMT21, arXiv 2012.12803; replace-one).
///
/// δ(ε) = E_C[D_{e^ε}(P_C ‖ Q_C)], C ∼ Bin(n − 1, e^{−ε₀}), evaluated for every clone count in a
/// window outside which the binomial mass is at most 1e-13·δ (see the module doc). Both orders of
/// the pair give the same divergence. Domain: 0 ≤ ε ≤ 500, 1e-12 ≤ ε₀ ≤ 100, 1 ≤ n ≤ 1e9.
/// Accuracy: the pair brackets mpmath's direct double sum (n ≤ 2e4) in every reference row; their
/// midpoint is within 1.5e-14 of it. Work O(√(n e^{−ε₀}) + √c) for one ε.
pub fn fmt21_numerical_delta(eps: f64, eps0: f64, n: u64) -> Result<(f64, f64), MathError> {
    clone_delta(Clones::Fmt21, eps, eps0, n)
}

pub(super) fn clone_delta(
    clones: Clones,
    eps: f64,
    eps0: f64,
    n: u64,
) -> Result<(f64, f64), MathError> {
    check_epsilon("ε", eps)?;
    check_eps0(eps0)?;
    check_users(n)?;
    let mut eta = 1e-30;
    let mut bounds = CloneWindow::new(n, eps0, clones, eta).delta(eps);
    // A small δ: widen the window so its tails stay 1e-13 below it. While the tails dominate the
    // upper bound (δ far below them), one pass only lowers them by about 1e-13, so repeat until
    // the bounds meet (about 23 passes at most, down to tails of 1e-300).
    while bounds.0 < 1e-15 && bounds.1 > 0.0 && bounds.1 - bounds.0 > 1e-8 * bounds.1 {
        let next = (bounds.1 * 1e-13).max(1e-300);
        if next >= eta {
            break;
        }
        eta = next;
        bounds = CloneWindow::new(n, eps0, clones, eta).delta(eps);
    }
    Ok(bounds)
}

/// The exact clone-reduction ε at (ε₀, n, δ): (lower, upper), both from [`brent`] on the certified
/// δ bounds (see [`fmt21_numerical_delta`]), upper ≥ lower, apart by 2e-9/|d log δ/dε| (2.3e-11
/// at the reference point), each moved outwards by the solver's tolerance (1e-12 relative).
///
/// - Source: FMT21 (arXiv 2012.12803), the numerical method (δ(ε) of the clone reduction).
///   n = 1e5, ε₀ = 4, δ = 1e-6 gives [0.1697697472, 0.1697697473] (math-reference.md: 0.16977);
///   an independent brute force (50 halvings) gives 0.16976974726.
/// - Relation: replace-one. The upper value is an upper bound on ε for every ε₀-LDP randomizer;
///   it is an ε for which the certified δ bound is at most δ, so it holds up to the 1e-9 margin
///   of rounding that the bound carries. ε = 0 when even δ(0) (the total variation) meets δ.
/// - Work: O(√(n e^{−ε₀}(1 − e^{−ε₀}) log(1/δ))) per δ evaluation, about 25 evaluations per end;
///   0.3–1.5 ms natively at n = 1e6.
pub fn fmt21_numerical(eps0: f64, n: u64, delta: f64) -> Result<(f64, f64), MathError> {
    clone_epsilon(Clones::Fmt21, eps0, n, delta)
}

pub(super) fn clone_epsilon(
    clones: Clones,
    eps0: f64,
    n: u64,
    delta: f64,
) -> Result<(f64, f64), MathError> {
    check_all(eps0, n, delta)?;
    let window = CloneWindow::new(n, eps0, clones, delta * 1e-13);
    let ln_target = ln(delta);
    let solve = |pick_upper: bool| -> Result<f64, MathError> {
        let f = |e: f64| {
            let (lo, hi) = window.delta(e);
            let d = if pick_upper { hi } else { lo };
            ln(d.max(f64::MIN_POSITIVE)) - ln_target
        };
        if f(0.0) <= 0.0 {
            return Ok(0.0);
        }
        let tol = Tolerance {
            abs: 1e-13,
            rel: 1e-12,
            max_iterations: 300,
        };
        brent(f, 0.0, eps0, tol)
    };
    let upper = solve(true)?;
    let lower = solve(false)?;
    // Move each end outwards by the root finder's tolerance so that it stays on its side (a root
    // at 0 is exact: δ(0) already meets the target).
    let pad = |x: f64| if x > 0.0 { 2e-13 + 2e-12 * x } else { 0.0 };
    let upper = (upper + pad(upper)).min(eps0);
    let lower = (lower - pad(lower)).max(0.0);
    Ok((lower, upper.max(lower)))
}

/// Why the stronger clone reduction does not apply to `randomizer`, if it does not.
///
/// The reduction needs every report distribution to split as R(x) = r·L₀ + r·L₁ + (1 − 2r)·L_x
/// with r = 1/(e^{ε₀} + 1), where L₀ = (e^{ε₀}R(x₁) − R(x₁′))/(e^{ε₀} − 1) and L₁ symmetric are
/// the two distributions user 1's report mixes (R(x₁) = θL₀ + (1 − θ)L₁, θ = e^{ε₀}/(e^{ε₀} + 1)).
/// L_x is a distribution exactly when R(x)(y) ≥ (R(x₁)(y) + R(x₁′)(y))/(e^{ε₀} + 1) for every
/// output y and inputs x, x₁, x₁′. ε₀-LDP alone only gives R(x)(y) ≥ e^{−ε₀}·max(R(x₁)(y),
/// R(x₁′)(y)), which is weaker; that gap is the error FMT23's erratum reports (their general
/// theorems now hold for a restricted class of randomizers). k-ary randomized response (k ≥ 2,
/// binary included) meets the condition: an output y ∉ {x₁, x₁′} needs
/// 2/((e^{ε₀} + 1)(e^{ε₀} + k − 1)) ≤ 1/(e^{ε₀} + k − 1), and y = x₁ needs
/// (e^{ε₀} + 1)/((e^{ε₀} + 1)(e^{ε₀} + k − 1)) ≤ R(x)(x₁), the smallest probability of k-RR.
pub fn stronger_clones_exclude(randomizer: Randomizer) -> Option<&'static str> {
    match randomizer {
        Randomizer::KRr { .. } => None,
        Randomizer::Generic => Some(
            "holds only for randomizers that split into stronger clones, such as k-ary \
             randomized response (FMT23's erratum)",
        ),
    }
}

/// The stronger clone reduction's δ(ε) at (ε₀, n), as certified lower and upper bounds that
/// differ by about 1e-9 relative (Feldman, McMillan & Talwar 2023, arXiv 2208.04591; replace-one).
///
/// δ(ε) = E_C[D_{e^ε}(P_C ‖ Q_C)] with the same pair P_c = A + Δ, Q_c = A + 1 − Δ as FMT21
/// ([`clone_divergence`]) and more clones: C ∼ Bin(n − 1, 2/(e^{ε₀} + 1)) instead of
/// Bin(n − 1, e^{−ε₀}). Valid for the randomizers of [`stronger_clones_exclude`] (k-ary
/// randomized response), not for every ε₀-LDP randomizer (FMT23's erratum). Domain, method and
/// accuracy as [`fmt21_numerical_delta`] (the same window and walk, with the other clone
/// probability): the pair brackets mpmath's direct double sum in every reference row.
/// Example: n = 4, ε₀ = 2: δ(0) = 0.547722 (the total variation), δ(1) = 0.380455.
pub fn fmt23_numerical_delta(eps: f64, eps0: f64, n: u64) -> Result<(f64, f64), MathError> {
    clone_delta(Clones::Stronger, eps, eps0, n)
}

/// The exact stronger-clone ε at (ε₀, n, δ): (lower, upper), as [`fmt21_numerical`] with the
/// clone probability 2/(e^{ε₀} + 1) ([`fmt23_numerical_delta`]).
///
/// - Source: FMT23 (arXiv 2208.04591), the stronger clone reduction, evaluated exactly. Its text
///   could not be read here beyond the abstract and erratum; the pair is the one Wang et al.'s
///   published code evaluates for general ε₀-LDP parameters (arXiv 2304.05007,
///   github.com/wangsw/PrivacyAmplification), and our values fall inside the brackets that code
///   returns (n = 1e5, ε₀ = 4, δ = 1e-6: 0.11815 in [0.117188, 0.118164]).
/// - Relation: replace-one. Upper bound (the upper value) for k-ary randomized response and any
///   randomizer meeting [`stronger_clones_exclude`]'s condition; not for every ε₀-LDP randomizer.
/// - Work: as [`fmt21_numerical`], with about (e^{ε₀} + 1)/2 times as many clones.
pub fn fmt23_numerical(eps0: f64, n: u64, delta: f64) -> Result<(f64, f64), MathError> {
    clone_epsilon(Clones::Stronger, eps0, n, delta)
}

/// The exact one-round ε of the clone pair at (ε₀, n, δ): (lower, upper), [`fmt23_numerical`]
/// where `stronger` (k-ary randomized response only: the caller checks), [`fmt21_numerical`]
/// otherwise. Relation, domain, accuracy and kind as those.
pub fn clone_numerical(
    eps0: f64,
    n: u64,
    stronger: bool,
    delta: f64,
) -> Result<(f64, f64), MathError> {
    clone_epsilon(Clones::chosen(stronger), eps0, n, delta)
}

/// The exact one-round δ(ε) of the clone pair at (ε₀, n): (lower, upper),
/// [`fmt23_numerical_delta`] where `stronger` (k-ary randomized response only: the caller
/// checks), [`fmt21_numerical_delta`] otherwise. Relation, domain, accuracy and kind as those.
pub fn clone_numerical_delta(
    eps: f64,
    eps0: f64,
    n: u64,
    stronger: bool,
) -> Result<(f64, f64), MathError> {
    clone_delta(Clones::chosen(stronger), eps, eps0, n)
}

#[cfg(test)]
mod tests;
