//! The smooth sensitivity of the median (Nissim, Raskhodnikova & Smith 2007, "Smooth sensitivity
//! and sampling in private data analysis", Section 3.1), in the form of Hu, Drechsler & Kim
//! ("Accuracy gains from privacy amplification through sampling for differential privacy"), eq. 4:
//!
//! S(y) = max_{k=0..n} e^{−kβ} · max_{t=0..k+1} (y_{m+t} − y_{m+t−k−1}),  m = (n + 1)/2,
//!
//! for sorted y_1 ≤ … ≤ y_n with n odd and β = ε/(2 log(2/δ)). Adding Laplace noise of scale
//! 2S/ε to the median gives (ε, δ)-DP (replace-one neighbours).
//!
//! Order statistics beyond the data: the paper does not say. We follow Nissim, Raskhodnikova &
//! Smith: the data lie in a public range [lo, hi], and y_i = lo for i < 1, y_i = hi for i > n.
//!
//! Speed. Writing i = m + t − k − 1 and j = m + t, eq. 4 is the maximum over pairs i ≤ m ≤ j of
//! f(i, j) = (y_j − y_i)·e^{−β(j − i − 1)} (pairs farther out than i = 0, j = n + 1 repeat the
//! bounds at a larger distance, so they never win). Two facts make this fast:
//! - f is multiplicatively supermodular: for i₁ < i₂ ≤ m ≤ j₁ < j₂,
//!   f(i₁, j₁)·f(i₂, j₂) ≥ f(i₁, j₂)·f(i₂, j₁) (the exponentials cancel and
//!   (c − a)(d − b) − (d − a)(c − b) = (d − c)(b − a) ≥ 0 for a ≤ b ≤ c ≤ d). So the largest
//!   maximiser j*(i) never decreases with i, and divide and conquer over i finds the maximum in
//!   O(L log L) evaluations instead of O(L²).
//! - Every pair at distance d = j − i − 1 has f ≤ (hi − lo)·e^{−βd}, so once that is below the best
//!   value found near the median, farther pairs cannot matter: L = min(n, ln((hi − lo)/S₀)/β).
//!
//! Tested against the literal O(n²) formula on random data (`tests::fast_equals_naive…`).

/// Extended order statistic (1-based): the data inside, the public bounds outside.
#[inline]
fn ext(y: &[f64], i: i64, lo: f64, hi: f64) -> f64 {
    if i < 1 {
        lo
    } else if i as usize > y.len() {
        hi
    } else {
        y[i as usize - 1]
    }
}

/// Eq. 4 of Hu, Drechsler & Kim literally: O(n²). For tests and for checking the fast version.
///
/// `sorted` must be sorted ascending with odd length; `lo ≤ sorted[0]`, `sorted[n−1] ≤ hi`.
pub fn smooth_sensitivity_naive(sorted: &[f64], beta: f64, lo: f64, hi: f64) -> f64 {
    let n = sorted.len() as i64;
    let m = (n + 1) / 2;
    let mut best = 0.0f64;
    for k in 0..=n {
        let w = libm::exp(-(k as f64) * beta);
        let mut inner = 0.0f64;
        for t in 0..=k + 1 {
            let d = ext(sorted, m + t, lo, hi) - ext(sorted, m + t - k - 1, lo, hi);
            inner = inner.max(d);
        }
        best = best.max(w * inner);
    }
    best
}

/// The weights e^{−βd}, d = 0, 1, …, computed once per β and reused across samples (a simulation
/// cell evaluates thousands of samples at the same β).
#[derive(Clone, Debug, PartialEq)]
pub struct SmoothWeights {
    beta: f64,
    w: Vec<f64>,
}

impl SmoothWeights {
    /// Weights for distances up to `max_distance`.
    pub fn new(beta: f64, max_distance: usize) -> SmoothWeights {
        let w = (0..=max_distance + 1)
            .map(|d| libm::exp(-(d as f64) * beta))
            .collect();
        SmoothWeights { beta, w }
    }

    /// β.
    pub fn beta(&self) -> f64 {
        self.beta
    }

    fn ensure(&mut self, max_distance: usize) {
        let have = self.w.len();
        if have < max_distance + 2 {
            let beta = self.beta;
            self.w
                .extend((have..max_distance + 2).map(|d| libm::exp(-(d as f64) * beta)));
        }
    }
}

/// The smooth sensitivity of the median, the same value as [`smooth_sensitivity_naive`] in
/// O(L log L) (see the module documentation), given the order statistics through an accessor.
///
/// `get(i)` must return y_i for 1 ≤ i ≤ n (sorted ascending); it is only called for
/// |i − m| ≤ L + 1 where m = (n + 1)/2. `scratch` is reused between calls. Exact (a maximum of the
/// same terms, not an approximation).
pub fn smooth_sensitivity_with(
    n: usize,
    get: impl Fn(usize) -> f64,
    weights: &mut SmoothWeights,
    lo: f64,
    hi: f64,
    scratch: &mut Vec<f64>,
) -> f64 {
    let beta = weights.beta;
    let ni = n as i64;
    let m = (ni + 1) / 2;
    let y = |i: i64| -> f64 {
        if i < 1 {
            lo
        } else if i > ni {
            hi
        } else {
            get(i as usize)
        }
    };
    // The best of the nearest pairs (k = 0): the local sensitivity.
    let s0 = (y(m + 1) - y(m)).max(y(m) - y(m - 1));
    let span = hi - lo;
    // Pairs at distance d have f ≤ span·e^{−βd}; beyond `reach` none can beat s0.
    let reach = if s0 > 0.0 && beta > 0.0 && span > s0 {
        (crate::special::ln(span / s0) / beta).ceil().min(ni as f64) as i64
    } else if s0 > 0.0 && span <= s0 {
        0
    } else {
        ni
    };
    let i_lo = (m - reach - 1).max(0);
    let j_hi = (m + reach + 1).min(ni + 1);
    weights.ensure((j_hi - i_lo) as usize);
    let w = &weights.w;
    // The extended order statistics y_{i_lo} … y_{j_hi}, contiguous, bounds included.
    scratch.clear();
    scratch.extend((i_lo..=j_hi).map(y));
    let e = &scratch[..];
    // Row `i`: the largest maximiser of f(i, ·) over [jl, jh] and its value. Entries with j ≤ i
    // (only i = j = m) are 0. Slices keep the hot loop free of branches and bounds checks.
    let row_max = |i: i64, jl: i64, jh: i64| -> (i64, f64) {
        let yi = e[(i - i_lo) as usize];
        let j0 = jl.max(i + 1);
        let (mut arg, mut val) = if j0 > jl {
            (jl, 0.0)
        } else {
            (jl, f64::NEG_INFINITY)
        };
        if j0 <= jh {
            let ys = &e[(j0 - i_lo) as usize..=(jh - i_lo) as usize];
            let ws = &w[(j0 - i - 1) as usize..=(jh - i - 1) as usize];
            for (k, (&yj, &wk)) in ys.iter().zip(ws).enumerate() {
                let v = (yj - yi) * wk;
                if v >= val {
                    // ">=": the largest maximiser, which the monotonicity argument needs.
                    val = v;
                    arg = j0 + k as i64;
                }
            }
        }
        (arg, val)
    };
    let mut best = s0.max(0.0);
    // Divide and conquer over i in [i_lo, m], j in [m, j_hi].
    let mut stack = vec![(i_lo, m, m, j_hi)];
    while let Some((a, b, jl, jh)) = stack.pop() {
        if a > b {
            continue;
        }
        let mid = a + (b - a) / 2;
        let (arg, val) = row_max(mid, jl, jh);
        best = best.max(val);
        if val > 0.0 {
            stack.push((a, mid - 1, jl, arg));
            stack.push((mid + 1, b, arg, jh));
        } else {
            // All values 0 at mid (ties): the argument does not apply; search both halves fully.
            stack.push((a, mid - 1, jl, jh));
            stack.push((mid + 1, b, jl, jh));
        }
    }
    best
}

/// [`smooth_sensitivity_with`] on a sorted slice of odd length (weights computed here).
pub fn smooth_sensitivity(sorted: &[f64], beta: f64, lo: f64, hi: f64) -> f64 {
    let mut w = SmoothWeights::new(beta, 0);
    smooth_sensitivity_with(
        sorted.len(),
        |i| sorted[i - 1],
        &mut w,
        lo,
        hi,
        &mut Vec::new(),
    )
}

/// The local sensitivity of the median of odd-length sorted data in the public range [lo, hi]
/// (Hu, Drechsler & Kim, Definition 5 and §2.2; Nissim, Raskhodnikova & Smith 2007): the most the
/// median can move when one record is replaced by any value of the range,
///
/// Δ_L(y) = max(y_{m+1} − y_m, y_m − y_{m−1}),  m = (n + 1)/2,
///
/// with y_0 = lo and y_{n+1} = hi when n = 1. Replace-one neighbours. Exact. It is the k = 0 term
/// of [`smooth_sensitivity`], which is never below it. Releasing the median with noise scaled to
/// it is not private: the scale itself depends on the data (the paper's §2.2).
///
/// `sorted` must be sorted ascending with odd length; `lo ≤ sorted[0]`, `sorted[n−1] ≤ hi`.
pub fn local_sensitivity(sorted: &[f64], lo: f64, hi: f64) -> f64 {
    let n = sorted.len() as i64;
    let m = (n + 1) / 2;
    let y = |i: i64| ext(sorted, i, lo, hi);
    (y(m + 1) - y(m)).max(y(m) - y(m - 1))
}

/// β = ε/(2 log(2/δ)), the smoothing rate of Hu, Drechsler & Kim, eq. 4 (Nissim, Raskhodnikova &
/// Smith's choice for (ε, δ)-DP with Laplace noise).
pub fn smoothing_beta(epsilon: f64, delta: f64) -> f64 {
    epsilon / (2.0 * libm::log(2.0 / delta))
}

#[cfg(test)]
// Tests compare against std's functions on purpose (an independent computation).
#[allow(clippy::disallowed_methods)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// The median of `y` with record `i` replaced by `v`.
    fn median_replaced(y: &[f64], i: usize, v: f64) -> f64 {
        let mut z = y.to_vec();
        z[i] = v;
        z.sort_by(f64::total_cmp);
        z[z.len() / 2]
    }

    #[test]
    fn local_sensitivity_is_the_largest_move_of_one_replacement() {
        // The definition itself: replace each record by each candidate value (the range's ends
        // and every data value, which include the extremes of each move) and take the largest
        // change of the median.
        let mut r = Rng::new(7);
        for trial in 0..200 {
            let n = 2 * (r.below(12) as usize) + 1;
            let mut y: Vec<f64> = (0..n)
                .map(|_| {
                    if trial % 3 == 0 {
                        (r.below(4) as f64) / 3.0
                    } else {
                        r.uniform()
                    }
                })
                .collect();
            y.sort_by(f64::total_cmp);
            let (lo, hi) = (0.0, 1.0);
            let base = y[n / 2];
            let mut candidates = y.clone();
            candidates.extend([lo, hi]);
            let brute = (0..n)
                .flat_map(|i| candidates.iter().map(move |&v| (i, v)))
                .map(|(i, v)| (median_replaced(&y, i, v) - base).abs())
                .fold(0.0, f64::max);
            let ls = local_sensitivity(&y, lo, hi);
            assert_eq!(ls, brute, "trial {trial}: {y:?}");
            // The smooth sensitivity's k = 0 term: never above it.
            assert!(ls <= smooth_sensitivity(&y, 0.1, lo, hi));
        }
    }

    #[test]
    fn fast_equals_naive_on_random_data() {
        let mut r = Rng::new(2024);
        for trial in 0..400 {
            let n = 2 * (r.below(60) as usize) + 1;
            let kind = trial % 4;
            let mut y: Vec<f64> = (0..n)
                .map(|_| match kind {
                    0 => r.uniform(),
                    1 => libm::exp(5.0 + 0.5 * r.normal()) / 3000.0,
                    2 => (r.below(5) as f64) / 4.0, // many ties
                    _ => r.beta(2.0, 10.0),
                })
                .map(|v: f64| v.clamp(0.0, 1.0))
                .collect();
            y.sort_by(|a, b| a.total_cmp(b));
            let beta = [0.001, 0.01, 0.1, 0.5, 2.0][trial % 5];
            let a = smooth_sensitivity_naive(&y, beta, 0.0, 1.0);
            let b = smooth_sensitivity(&y, beta, 0.0, 1.0);
            assert!(
                (a - b).abs() <= 1e-12 * a.max(1e-300),
                "trial {trial}, n = {n}, β = {beta}: naive {a}, fast {b}"
            );
        }
    }

    #[test]
    fn single_record_and_constant_data() {
        assert_eq!(
            smooth_sensitivity(&[0.3], 0.1, 0.0, 1.0),
            smooth_sensitivity_naive(&[0.3], 0.1, 0.0, 1.0)
        );
        let y = vec![0.5; 7];
        assert_eq!(
            smooth_sensitivity(&y, 0.2, 0.0, 1.0),
            smooth_sensitivity_naive(&y, 0.2, 0.0, 1.0)
        );
    }

    #[test]
    fn beta_of_the_paper() {
        // N = 10001, δ = 1/(2N), ε = 0.1: β = 0.1/(2 log(40004)).
        let b = smoothing_beta(0.1, 1.0 / 20002.0);
        assert!((b - 0.1 / (2.0 * 40_004f64.ln())).abs() < 1e-16);
    }
}
