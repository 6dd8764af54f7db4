//! Gaussian DP from a run's certified trade-off curve: the numeric μ of Gomez et al. 2025, its
//! regret and the error rate down to which it holds, and the certified TPR of each orientation of a
//! pair.

use super::*;

/// The error rate down to which a numeric μ is fitted by default: the floor of Gomez et al. 2025
/// and their `gdpnum` library (`err = 1e-10`): tests whose false-positive and false-negative rates
/// are both at least this are the ones the reported μ speaks for.
pub const GDP_FLOOR: f64 = 1e-10;

/// The numeric Gaussian-DP summary of a run's certified trade-off curve (Gomez, Kulynych,
/// Kaissis, Hayes, Balle, Honkela & Flemings 2025, "Gaussian DP for reporting differential
/// privacy guarantees in machine learning", arXiv 2503.10945; their `gdpnum` library).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GdpFit {
    /// The least μ with G_μ ≤ f at every test whose two error rates are both at least
    /// [`GDP_FLOOR`], f the certified (pessimistic) trade-off curve: an upper bound on the run's
    /// μ over those tests (the run is μ-GDP there, to the PLD's certified accuracy).
    pub mu: f64,
    /// The worst-case regret of reporting μ instead of the curve: the least Δ with
    /// f_s(α + Δ) − Δ ≤ G_μ(α) for all α (f_s the curve made symmetric, min(f, f⁻¹)), as Gomez et
    /// al. define it. 0 when the run is exactly μ-GDP.
    pub regret: f64,
    /// The smallest error rate down to which μ still holds: G_μ ≤ f at every test whose two error
    /// rates are both at least this (at most [`GDP_FLOOR`]; below it the curve's tail, where
    /// sampling makes the run less private than μ says, or the grid's truncated tail, breaks it).
    /// 0 when it holds for every test (down to the smallest double).
    pub alpha_min: f64,
}

/// The certified upper bound on TPR of one orientation of the pair, from the pessimistic δ of
/// both its directions (the upper envelopes of [`Tradeoff`]).
pub(super) struct Certified {
    pub(super) rem: Envelope,
    pub(super) add: Envelope,
}

impl Certified {
    /// From δ⁺ on an ascending grid: `pos` of the direction whose P holds the positive
    /// hypothesis, `neg` of the other.
    pub(super) fn new(epsilons: &[f64], pos: &[f64], neg: &[f64]) -> Certified {
        let ok = |e: f64| e.abs() < SLOPE_CAP;
        let rem = Envelope::new(
            epsilons
                .iter()
                .zip(pos)
                .filter(|(e, _)| ok(**e))
                .map(|(&e, &d)| remove_line(e, d)),
        );
        let first = epsilons.partition_point(|&e| e < ADD_FLOOR);
        let add = Envelope::new(
            epsilons[first..]
                .iter()
                .zip(&neg[first..])
                .filter(|(e, _)| ok(**e))
                .map(|(&e, &d)| add_line(e, d))
                .rev(),
        );
        Certified { rem, add }
    }

    pub(super) fn tpr(&self, alpha: f64) -> f64 {
        self.rem.at(alpha).min(self.add.at(alpha)).clamp(alpha, 1.0)
    }

    /// μ of the Gaussian curve through (α, TPR(α)); 0 on the diagonal.
    fn mu_at(&self, alpha: f64) -> f64 {
        mu_through(alpha, self.tpr(alpha))
    }

    /// Where the curve meets β = α (TPR(α) + α = 1): the end of the half with α ≤ β.
    fn diagonal(&self) -> f64 {
        let (mut lo, mut hi) = (0.0f64, 0.5f64);
        for _ in 0..200 {
            let mid = 0.5 * (lo + hi);
            if mid <= lo || mid >= hi {
                break;
            }
            if self.tpr(mid) + mid < 1.0 {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// The kinks of the piecewise-linear TPR bound in (lo, hi), with lo and hi, ascending: where
    /// either envelope changes line, and where the two envelopes cross.
    fn kinks(&self, lo: f64, hi: f64) -> Vec<f64> {
        // Each envelope's starts ascend: merged in one pass.
        let inside = |v: &[f64]| {
            let from = v.partition_point(|&x| x <= lo);
            let to = v.partition_point(|&x| x < hi);
            v[from..to.max(from)].to_vec()
        };
        let (a, b) = (inside(&self.rem.starts), inside(&self.add.starts));
        let mut xs = Vec::with_capacity(a.len() + b.len() + 2);
        xs.push(lo);
        let (mut i, mut j) = (0, 0);
        while i < a.len() || j < b.len() {
            let next = if j >= b.len() || (i < a.len() && a[i] <= b[j]) {
                i += 1;
                a[i - 1]
            } else {
                j += 1;
                b[j - 1]
            };
            if next > *xs.last().unwrap_or(&lo) {
                xs.push(next);
            }
        }
        if hi > *xs.last().unwrap_or(&lo) {
            xs.push(hi);
        }
        let mut out = Vec::with_capacity(xs.len() * 2);
        for w in xs.windows(2) {
            out.push(w[0]);
            let mid = 0.5 * (w[0] + w[1]);
            if let (Some((a1, b1)), Some((a2, b2))) = (self.rem.line_at(mid), self.add.line_at(mid))
            {
                if b1 != b2 {
                    let x = (a2 - a1) / (b1 - b2);
                    if x > w[0] && x < w[1] {
                        out.push(x);
                    }
                }
            }
        }
        out.push(hi);
        out
    }

    /// The largest μ over the curve's points with floor ≤ α ≤ the diagonal.
    fn sup_mu(&self, floor: f64) -> f64 {
        let end = self.diagonal();
        if end <= floor {
            return self.mu_at(floor.min(0.5));
        }
        let kinks = self.kinks(floor, end);
        // Blocks of 32 kinks. Every line of the envelopes bounds the TPR from above everywhere,
        // so on a block [x_a, x_b] the TPR is at most L = min(the line active just right of x_a,
        // the line active just left of x_b), which is concave with one kink x_c; G_μ's TPR is
        // concave, so μ at x_a, x_c and x_b bounds μ over the block. The largest such bound is
        // an upper bound on the curve's μ that exceeds the exact maximum over the kinks by the
        // curvature within a block only (about 1e-7 relative at the default grid), at a 30th
        // of the cost of evaluating every kink.
        const BLOCK: usize = 32;
        let mut best = 0.0f64;
        let mut left = self.mu_at(kinks[0]);
        let mut i = 0;
        while i + 1 < kinks.len() {
            let j = (i + BLOCK).min(kinks.len() - 1);
            let right = self.mu_at(kinks[j]);
            let (la, lb) = (
                self.active_line(kinks[i], kinks[i + 1]),
                self.active_line(kinks[j - 1], kinks[j]),
            );
            let mut bound = left.max(right);
            if la.1 != lb.1 {
                let xc = (lb.0 - la.0) / (la.1 - lb.1);
                if xc > kinks[i] && xc < kinks[j] {
                    bound = bound.max(mu_through(xc, la.0 + la.1 * xc));
                }
            }
            if !bound.is_finite() {
                // The bound reached TPR = 1: the kinks themselves, exactly.
                bound = kinks[i..=j]
                    .iter()
                    .map(|&a| self.mu_at(a))
                    .fold(0.0, f64::max);
            }
            best = best.max(bound);
            left = right;
            i = j;
        }
        best.max(left)
    }

    /// The line of the bound on (x0, x1), an interval between two adjacent kinks.
    fn active_line(&self, x0: f64, x1: f64) -> (f64, f64) {
        let mid = 0.5 * (x0 + x1);
        let value = |l: Option<(f64, f64)>| l.map_or(f64::INFINITY, |(a, b)| a + b * mid);
        let (r, a) = (self.rem.line_at(mid), self.add.line_at(mid));
        match (r, a) {
            (Some(r), Some(a)) => {
                if value(Some(r)) <= value(Some(a)) {
                    r
                } else {
                    a
                }
            }
            (Some(l), None) | (None, Some(l)) => l,
            // No line: TPR ≤ 1 only (α ↦ 1 as a line).
            (None, None) => (1.0, 0.0),
        }
    }

    /// The smallest α ≤ `floor` down to which μ holds (G_μ(α′) ≥ f(α′) for all α′ in [α, floor]);
    /// 0 if it holds down to the smallest double.
    fn holds_down_to(&self, mu: f64, floor: f64) -> f64 {
        let tiny = f64::MIN_POSITIVE;
        let fails = |a: f64| self.tpr(a) > gdp_tpr_unchecked(mu, a) * (1.0 + 1e-12) + 1e-300;
        // Descending: the kinks below the floor, then the smallest double.
        let mut pts = self.kinks(tiny, floor);
        pts.reverse();
        let mut above = floor;
        for a in pts {
            if fails(a) {
                // Between two kinks the bound is a line and G_μ's TPR is concave: one crossing.
                let (mut lo, mut hi) = (ln(a), ln(above));
                for _ in 0..100 {
                    let mid = 0.5 * (lo + hi);
                    if fails(exp(mid)) {
                        lo = mid;
                    } else {
                        hi = mid;
                    }
                }
                return exp(hi).min(floor);
            }
            above = a;
        }
        // Below the last kink the bound is one line; it held at the smallest double.
        0.0
    }
}

/// μ of the Gaussian curve through (α, t): Φ⁻¹(t) − Φ⁻¹(α), with t clamped to [α, 1] (0 on the
/// diagonal, +∞ at t = 1).
fn mu_through(alpha: f64, t: f64) -> f64 {
    let t = t.clamp(alpha, 1.0);
    if t <= alpha {
        return 0.0;
    }
    normal_quantile(t) - normal_quantile(alpha)
}

/// TPR of μ-GDP at α, for α in [0, 1] (no checks).
fn gdp_tpr_unchecked(mu: f64, alpha: f64) -> f64 {
    if alpha <= 0.0 {
        return 0.0;
    }
    if alpha >= 1.0 {
        return 1.0;
    }
    normal_cdf(normal_quantile(alpha) + mu)
}

impl Envelope {
    /// The line that is least at α, if any.
    fn line_at(&self, alpha: f64) -> Option<(f64, f64)> {
        let i = self.starts.partition_point(|&s| s <= alpha);
        (i > 0).then(|| self.lines[i - 1])
    }
}

/// The numeric Gaussian-DP μ of a run from its composed pessimistic pair (a certified upper
/// bound on δ in both directions), with its regret and the smallest error rate down to which it
/// holds ([`GdpFit`]; Gomez et al. 2025, arXiv 2503.10945, as their `gdpnum` 0.1.2 computes it
/// from dp_accounting's PLD). Upper bound on μ over tests with both error rates at least
/// [`GDP_FLOOR`].
///
/// μ-GDP asks G_μ ≤ T(P, Q) for both orders of every neighbouring pair; G_μ is symmetric, so
/// checking T(P, Q) on the half of its curve where α ≤ β and T(Q, P) likewise covers both (the
/// other half of each is the mirror of the other's). Each half is piecewise linear (the least of
/// the lines δ⁺(ε) + e^ε α of [`Tradeoff`]) and G_μ's TPR is concave in α, so it is enough to
/// check the kinks: μ = max over kinks of Φ⁻¹(TPR) − Φ⁻¹(α). The regret is computed on 2,400
/// points of the symmetric curve min(T(P,Q), T(Q,P)) per half (bisection to 1e-12 each).
/// Add/remove (either order); any mechanism the PLD accountant composes. O(grid) plus the regret.
pub fn gdp_fit(upper: &PldPair) -> Result<GdpFit, MathError> {
    let epsilons = lattice(&[upper])?;
    let rem = upper.remove.delta_curve(&epsilons);
    let add = upper.add.delta_curve(&epsilons);
    // With the record as the positive hypothesis, and without it.
    let halves = [
        Certified::new(&epsilons, &rem, &add),
        Certified::new(&epsilons, &add, &rem),
    ];
    // Where the curve meets β = α below the floor, no test on it has both error rates at or
    // above the floor (μ above about 12.7): nothing to fit there.
    let end = halves[0].diagonal().min(halves[1].diagonal());
    if end <= GDP_FLOOR {
        return Err(MathError::Inconsistent {
            reason: "no test on the certified curve has both error rates at least 1e-10 (μ above \
                     about 12.7), so there is no numeric μ over them"
                .into(),
        });
    }
    let mu = halves
        .iter()
        .map(|h| h.sup_mu(GDP_FLOOR))
        .fold(0.0, f64::max);
    if !mu.is_finite() {
        return Err(MathError::Inconsistent {
            reason: "the certified trade-off curve is not Gaussian-DP for any finite μ".into(),
        });
    }
    let alpha_min = halves
        .iter()
        .map(|h| h.holds_down_to(mu, GDP_FLOOR))
        .fold(0.0, f64::max);
    // Regret on the symmetric curve: its half with α ≤ β (the other is its mirror, and so is G_μ).
    let mut alphas: Vec<f64> = (0..=2000).map(|i| end * i as f64 / 2000.0).collect();
    if end > GDP_FLOOR {
        let (l0, l1) = (ln(GDP_FLOOR), ln(end));
        alphas.extend((0..400).map(|i| exp(l0 + (l1 - l0) * i as f64 / 400.0)));
    }
    let g = |x: f64| 1.0 - gdp_tpr_unchecked(mu, x);
    let mut regret = 0.0f64;
    for a in alphas {
        let b = 1.0 - halves[0].tpr(a).max(halves[1].tpr(a));
        if b <= g(a) {
            continue;
        }
        // b − Δ − G_μ(a − Δ) falls from > 0 at Δ = 0 to < 0 at Δ = a.
        let (mut lo, mut hi) = (0.0f64, a);
        while hi - lo > 1e-12 {
            let mid = 0.5 * (lo + hi);
            if b - mid > g(a - mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        regret = regret.max(lo);
    }
    Ok(GdpFit {
        mu,
        regret,
        alpha_min,
    })
}
