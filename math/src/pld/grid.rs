//! The discretised privacy loss distribution: the grid, the split of each bucket's mass, the
//! pessimistic and optimistic PLDs, and δ(ε) and ε(δ) read off them.

#[allow(unused_imports)]
use super::*;

/// Chernoff bound on the composed mass that leaves the FFT window, per side.
pub const TAIL: f64 = 1e-18;

/// Floating-point resolution of δ after an FFT composition: rounding in the transforms leaves
/// absolute errors of order 1e-15 in the composed masses, so every δ is widened by this much
/// (added to the upper bound, subtracted from the lower), and ε is only solved for δ ≥ 100 times it.
pub const RESOLUTION: f64 = 1e-13;

/// Default grid step of the privacy loss (dp_accounting's default value discretisation).
pub const DEFAULT_STEP: f64 = 1e-4;

/// Which way the buckets are rounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Estimate {
    /// Every loss rounded up: δ is an upper bound (certified).
    Pessimistic,
    /// Every loss rounded down: δ is a lower bound.
    Optimistic,
}

/// A discretised privacy loss distribution: mass `masses[i]` at loss (`offset` + i)·`step`, plus
/// mass `infinity` at +∞. `slack` is a bound on the mass misplaced by truncation so far (added to
/// δ when pessimistic, subtracted when optimistic).
#[derive(Clone, Debug, PartialEq)]
pub struct Pld {
    /// Grid step h > 0.
    pub step: f64,
    /// Grid index of `masses[0]`.
    pub offset: i64,
    /// Finite masses, each ≥ 0.
    pub masses: Vec<f64>,
    /// Mass at +∞ (outputs that Q cannot produce).
    pub infinity: f64,
    /// Bound on mass misplaced by window truncation.
    pub slack: f64,
    /// The rounding this PLD was built with.
    pub estimate: Estimate,
    /// Optimistic only: an upper bound on E[L̃ − L] summed over the composed steps, where L̃ is the
    /// rounded-down loss coupled with the true loss L (each step's L̃ − L lies in [−h, 0]).
    pub drift: f64,
    /// Optimistic only: Σ over steps of the squared range of L̃ − L (h² each), for Hoeffding's
    /// inequality; NaN when the true mean of a part is unknown (no tightening then).
    pub spread: f64,
    /// Optimistic only: the probability, summed over steps, that the coupling leaves its range
    /// (the truncated tails).
    pub fail: f64,
}

/// How a PLD's loss is distributed: a distribution function F(l) = P(L ≤ l) and survival function
/// S(l) = P(L > l), each accurate where it is small, and the support's ends (possibly infinite).
pub(super) struct LossLaw<'a> {
    pub(super) cdf: &'a dyn Fn(f64) -> f64,
    pub(super) survival: &'a dyn Fn(f64) -> f64,
    /// The same two functions for the law of L under Q.
    pub(super) q_cdf: &'a dyn Fn(f64) -> f64,
    pub(super) q_survival: &'a dyn Fn(f64) -> f64,
    pub(super) lo: f64,
    pub(super) hi: f64,
    /// E_P[L] (the KL divergence of the direction), to within `mean_error`; NaN if unknown.
    pub(super) mean: f64,
    pub(super) mean_error: f64,
}

/// The share of a bucket's P-mass that the connect-the-dots split puts on the bucket's upper end
/// l + h, given its P-mass p and its Q-mass q (lower end l): e^h(p − e^l q)/expm1(h), clamped to
/// [0, p]. The two atoms (p − u at l, u at l + h) carry exactly the bucket's P- and Q-mass, and the
/// pair they form dominates the bucket's (Doroshenko, Ghazi, Kamath, Kumar & Manurangsi 2022,
/// "Connect the dots"), so δ computed from them is an upper bound.
pub(super) fn upper_share(p: f64, q: f64, l: f64, h: f64) -> f64 {
    Split::new(h).upper(p, q, l)
}

/// [`upper_share`] for one grid step h, with e^h and expm1(h) computed once.
pub(super) struct Split {
    pub(super) exp_h: f64,
    pub(super) exp_m1_h: f64,
}

impl Split {
    pub(super) fn new(h: f64) -> Split {
        Split {
            exp_h: exp(h),
            exp_m1_h: exp_m1(h),
        }
    }

    /// [`upper_share`]`(p, q, l, h)`, the same value.
    pub(super) fn upper(&self, p: f64, q: f64, l: f64) -> f64 {
        self.upper_exp(p, q, exp(l))
    }

    /// [`Split::upper`] given e^l (the same value).
    #[inline]
    pub(super) fn upper_exp(&self, p: f64, q: f64, exp_l: f64) -> f64 {
        if p <= 0.0 {
            return 0.0;
        }
        // A bucket whose Q-mass is 0 (or underflowed) goes whole to its upper end, which is what
        // the formula gives wherever e^l is finite; where e^l overflows (losses above 709, a
        // user with many records) the product would be ∞·0.
        if q == 0.0 {
            return p;
        }
        let u = self.exp_h * (p - exp_l * q) / self.exp_m1_h;
        u.clamp(0.0, p)
    }
}

/// A law of the loss on the grid: its distribution function F(i·h) = P(L ≤ i·h) and survival
/// function S(i·h) = 1 − F(i·h), each accurate where it is small, as functions of the grid index i
/// and of some state `C` that they may read and fill in (a table of values shared between laws).
pub(super) struct GridLaw<F, S> {
    pub(super) cdf: F,
    pub(super) sur: S,
}

/// The masses of the buckets (l_{k−1}, l_k], k = 1, 2, …, l_k = (first + k)·h, one after the
/// other, evaluating the law once per grid point: differences of F while F ≤ ½, of S after (the law
/// is monotone, so one switch), so that small masses in either tail keep their digits.
pub(super) struct Buckets {
    pub(super) next: i64,
    pub(super) upper: bool,
    pub(super) prev: f64,
}

impl Buckets {
    pub(super) fn new<C, F, S>(c: &mut C, law: &GridLaw<F, S>, first: i64) -> Buckets
    where
        F: Fn(&mut C, i64) -> f64,
        S: Fn(&mut C, i64) -> f64,
    {
        let mut prev = (law.cdf)(c, first);
        let upper = prev > 0.5;
        if upper {
            prev = (law.sur)(c, first);
        }
        Buckets {
            next: first + 1,
            upper,
            prev,
        }
    }

    /// The mass of the next bucket.
    #[inline]
    pub(super) fn mass<C, F, S>(&mut self, c: &mut C, law: &GridLaw<F, S>) -> f64
    where
        F: Fn(&mut C, i64) -> f64,
        S: Fn(&mut C, i64) -> f64,
    {
        let i = self.next;
        self.next += 1;
        let (mass, value) = if self.upper {
            let s = (law.sur)(c, i);
            (self.prev - s, s)
        } else {
            let f = (law.cdf)(c, i);
            if f <= 0.5 {
                (f - self.prev, f)
            } else {
                let s = (law.sur)(c, i);
                self.upper = true;
                (1.0 - s - self.prev, s)
            }
        };
        self.prev = value;
        mass.max(0.0)
    }
}

/// Σ a_i b_i with eight partial sums (so that it vectorises).
pub(super) fn dot(a: &[f64], b: &[f64]) -> f64 {
    let mut acc = [0.0; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f64 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    for (x, y) in ca.zip(cb) {
        for k in 0..8 {
            acc[k] += x[k] * y[k];
        }
    }
    acc.iter().sum::<f64>() + tail
}

impl Pld {
    pub(super) fn from_law(law: &LossLaw, step: f64, estimate: Estimate) -> Result<Pld, MathError> {
        let grid = Pld::grid(law, step)?;
        let at = |f: &dyn Fn(f64) -> f64, i: i64| f(i as f64 * step);
        let p = GridLaw {
            cdf: |_: &mut (), i: i64| at(law.cdf, i),
            sur: |_: &mut (), i: i64| at(law.survival, i),
        };
        let q = GridLaw {
            cdf: |_: &mut (), i: i64| at(law.q_cdf, i),
            sur: |_: &mut (), i: i64| at(law.q_survival, i),
        };
        Ok(Pld::from_grid(law, step, estimate, grid, &mut (), &p, &q))
    }

    /// The grid of a law: the index of its lowest point and the number of points (its support,
    /// cut where the tails beyond hold less than `TAIL`·1e-2 each).
    pub(super) fn grid(law: &LossLaw, step: f64) -> Result<(i64, usize), MathError> {
        if !(step > 0.0 && step.is_finite()) {
            return Err(MathError::OutOfDomain {
                name: "h",
                value: step,
                expected: "a positive grid step",
            });
        }
        // Range: the support, truncated where the tail mass is below TAIL·1e-2 (each side): the
        // crossing is bracketed by doubling from a few grid steps, then narrowed by bisection, so
        // a PLD whose losses are all tiny gets a range to match.
        let eta = TAIL * 1e-2;
        let reach = |tail: &dyn Fn(f64) -> f64, sign: f64| -> Result<f64, MathError> {
            let mut b = 4.0 * step;
            while tail(sign * b) > eta {
                b *= 2.0;
                if b > 1e6 {
                    return Err(MathError::NoConvergence { iterations: 64 });
                }
            }
            let mut a = b / 2.0;
            if tail(sign * a) <= eta {
                return Ok(sign * b);
            }
            for _ in 0..40 {
                let m = 0.5 * (a + b);
                if tail(sign * m) > eta {
                    a = m;
                } else {
                    b = m;
                }
                if b - a <= step {
                    break;
                }
            }
            Ok(sign * b)
        };
        let top = if law.hi.is_finite() {
            law.hi
        } else {
            reach(law.survival, 1.0)?.max(law.lo.max(0.0) + step)
        };
        let bottom = if law.lo.is_finite() {
            law.lo
        } else {
            reach(law.cdf, -1.0)?.min(law.hi.min(0.0) - step)
        };
        let i_top = (top / step).ceil() as i64;
        let i_bottom = (bottom / step).floor() as i64;
        let n = (i_top - i_bottom + 1) as usize;
        if n > 50_000_000 {
            return Err(MathError::OutOfDomain {
                name: "h",
                value: step,
                expected: "a grid step giving at most 5·10⁷ buckets",
            });
        }
        Ok((i_bottom, n))
    }

    /// The PLD of a law on its grid (n points from index i_bottom, from [`Pld::grid`]), with the
    /// law under P (and under Q, used when pessimistic) given at the grid points by `p_law` and
    /// `q_law` (reading and filling in the state `c`); `law` gives the tails beyond the grid and
    /// the mean. `p_law` and `q_law` must be the same functions as `law`'s at the grid points.
    pub(super) fn from_grid<C, PF, PS, QF, QS>(
        law: &LossLaw,
        step: f64,
        estimate: Estimate,
        (i_bottom, n): (i64, usize),
        c: &mut C,
        p_law: &GridLaw<PF, PS>,
        q_law: &GridLaw<QF, QS>,
    ) -> Pld
    where
        PF: Fn(&mut C, i64) -> f64,
        PS: Fn(&mut C, i64) -> f64,
        QF: Fn(&mut C, i64) -> f64,
        QS: Fn(&mut C, i64) -> f64,
    {
        let i_top = i_bottom + n as i64 - 1;
        let mut masses = vec![0.0; n];
        let l_at = |i: i64| i as f64 * step;
        // Bucket k covers (l_{k−1}, l_k]. Pessimistic: connect the dots (split between both ends
        // so as to keep its P- and Q-mass); optimistic: all of it at the lower end.
        let mut p_buckets = Buckets::new(c, p_law, i_bottom);
        match estimate {
            Estimate::Pessimistic => {
                let split = Split::new(step);
                let mut q_buckets = Buckets::new(c, q_law, i_bottom);
                // e^l at the buckets' lower ends, a block at a time (independent evaluations in a
                // row run fastest).
                let mut exp_l = [0.0; 512];
                for lo in (1..n).step_by(exp_l.len()) {
                    let hi = (lo + exp_l.len()).min(n);
                    for (k, e) in (lo..hi).zip(exp_l.iter_mut()) {
                        *e = exp(l_at(i_bottom + k as i64 - 1));
                    }
                    for (k, &e) in (lo..hi).zip(exp_l.iter()) {
                        let p = p_buckets.mass(c, p_law);
                        let q = q_buckets.mass(c, q_law);
                        let u = split.upper_exp(p, q, e);
                        masses[k] += u;
                        masses[k - 1] += p - u;
                    }
                }
            }
            Estimate::Optimistic => {
                for k in 1..n {
                    masses[k - 1] += p_buckets.mass(c, p_law);
                }
            }
        }
        let below = (law.cdf)(l_at(i_bottom));
        let above = (law.survival)(l_at(i_top));
        let mut infinity = 0.0;
        let (mut drift, mut spread, mut fail) = (0.0, 0.0, 0.0);
        match estimate {
            Estimate::Pessimistic => {
                masses[0] += below;
                infinity += above;
            }
            Estimate::Optimistic => {
                // Coupling: inside the range L̃ = the bucket's lower end, so L̃ − L ∈ [−h, 0];
                // its mean over that event is Σ m l − E[L; inside] ≤ Σ m l − E[L] + (the tails'
                // share of E[L], bounded by their mass times the largest |l|) + the mean's error.
                let inside: f64 = masses
                    .iter()
                    .enumerate()
                    .map(|(k, m)| m * l_at(i_bottom + k as i64))
                    .sum();
                let reach = l_at(i_bottom).abs().max(l_at(i_top).abs()) + 1.0;
                drift = inside - law.mean + law.mean_error + (below + above) * reach * 2.0;
                spread = if law.mean.is_finite() {
                    step * step
                } else {
                    f64::NAN
                };
                fail = below + above;
                masses[n - 1] += above;
            }
        }
        Pld {
            step,
            offset: i_bottom,
            masses,
            infinity,
            slack: 0.0,
            estimate,
            drift,
            spread,
            fail,
        }
    }

    /// A PLD with finitely many atoms (loss, mass), loss = +∞ allowed, rounded to the grid.
    pub(super) fn from_atoms(atoms: &[(f64, f64)], step: f64, estimate: Estimate) -> Pld {
        let mut finite: Vec<(i64, f64)> = Vec::new();
        for &(l, m) in atoms.iter().filter(|(l, _)| l.is_finite()) {
            let x = l / step;
            // Within 1e-9 of a grid point is that grid point (losses like ε on a grid of step
            // ε/n).
            let r = x.round();
            if (x - r).abs() <= 1e-9 * x.abs().max(1.0) {
                finite.push((r as i64, m));
                continue;
            }
            let lower = x.floor();
            match estimate {
                Estimate::Pessimistic => {
                    // Connect the dots: the atom (m, m e^{−l}) split between its grid neighbours.
                    let a = lower * step;
                    let u = upper_share(m, m * exp(-l), a, step);
                    finite.push((lower as i64 + 1, u));
                    finite.push((lower as i64, m - u));
                }
                Estimate::Optimistic => finite.push((lower as i64, m)),
            }
        }
        let infinity: f64 = atoms
            .iter()
            .filter(|(l, _)| !l.is_finite())
            .map(|a| a.1)
            .sum();
        let finite: Vec<(i64, f64)> = finite;
        // Optimistic coupling: each finite atom rounded down, exactly; no tails.
        let true_mean: f64 = atoms
            .iter()
            .filter(|(l, _)| l.is_finite())
            .map(|&(l, m)| l * m)
            .sum();
        let grid_mean: f64 = finite.iter().map(|&(i, m)| i as f64 * step * m).sum();
        let (drift, spread) = match estimate {
            Estimate::Optimistic => (grid_mean - true_mean + 1e-15, step * step),
            Estimate::Pessimistic => (0.0, 0.0),
        };
        let lo = finite.iter().map(|a| a.0).min().unwrap_or(0);
        let hi = finite.iter().map(|a| a.0).max().unwrap_or(0);
        let mut masses = vec![0.0; (hi - lo + 1) as usize];
        for (i, m) in finite {
            masses[(i - lo) as usize] += m;
        }
        Pld {
            step,
            offset: lo,
            masses,
            infinity,
            slack: 0.0,
            estimate,
            drift,
            spread,
            fail: 0.0,
        }
    }

    /// A PLD from finitely many atoms (loss, P-mass): a loss of +∞ adds to the mass at infinity,
    /// one of −∞ is dropped (it adds nothing to δ). Finite losses are rounded to the grid of step
    /// `step` as [`Estimate`] says (the pessimistic way by the connect-the-dots split, which keeps
    /// each atom's P- and Q-mass). `exact`: the atoms are the true law of the loss; if they are
    /// themselves rounded (up for a pessimistic PLD, down for an optimistic one), pass false, and
    /// the optimistic PLD gives up the Hoeffding tightening of its lower bound, which assumes a
    /// rounding error of at most one grid step.
    pub fn from_loss_atoms(
        atoms: &[(f64, f64)],
        step: f64,
        estimate: Estimate,
        exact: bool,
    ) -> Pld {
        let kept: Vec<(f64, f64)> = atoms
            .iter()
            .copied()
            .filter(|&(l, m)| m > 0.0 && l != f64::NEG_INFINITY)
            .collect();
        let mut pld = Pld::from_atoms(&kept, step, estimate);
        if !exact && estimate == Estimate::Optimistic {
            pld.spread = f64::NAN;
        }
        pld
    }

    /// Total finite mass.
    pub fn finite_mass(&self) -> f64 {
        self.masses.iter().sum()
    }

    /// log E[e^{tL}; L finite], relative to the largest exponent so nothing overflows. The
    /// factors e^{t·l_i} on the uniform grid are a geometric sequence: e^{t·l} exactly at the start
    /// of every block of (at most) 512 buckets times the powers of e^{th} (relative drift below
    /// 1e-13: this only sizes the FFT window, whose Chernoff bound has far more room than that),
    /// so each block is one dot product of the masses with those powers.
    pub(super) fn ln_mgf(&self, t: f64) -> f64 {
        let first = self.masses.iter().position(|&m| m > 0.0);
        let last = self.masses.iter().rposition(|&m| m > 0.0);
        let (Some(first), Some(last)) = (first, last) else {
            return f64::NEG_INFINITY;
        };
        let l = |i: usize| (self.offset + i as i64) as f64 * self.step;
        let shift = (t * l(first)).max(t * l(last));
        let x = t * self.step;
        // Blocks short enough that the powers e^{x·j} stay far from overflow.
        let block = ((600.0 / x.abs()) as usize).clamp(1, 512);
        let ratio = exp(x);
        let mut powers = Vec::with_capacity(block);
        let mut f = 1.0;
        for _ in 0..block {
            powers.push(f);
            f *= ratio;
        }
        let mut sum = 0.0;
        for (b, ms) in self.masses[first..=last].chunks(block).enumerate() {
            let start = exp(t * l(first + b * block) - shift);
            if start > 0.0 {
                sum += start * dot(ms, &powers[..ms.len()]);
            }
        }
        shift + ln(sum)
    }

    /// δ(ε) of this discrete PLD itself: P(L = ∞) + Σ_{l > ε} m_l (1 − e^{ε − l}).
    pub(super) fn raw_delta(&self, epsilon: f64) -> f64 {
        let mut d = 0.0;
        for (i, &m) in self.masses.iter().enumerate().rev() {
            let l = (self.offset + i as i64) as f64 * self.step;
            if l <= epsilon {
                break;
            }
            d += m * -exp_m1(epsilon - l);
        }
        d + self.infinity
    }

    /// The smallest ε (possibly negative) with `raw_delta(ε)` ≤ `delta`, exactly: δ(ε) is
    /// continuous and decreasing, and between two grid points it is P(∞) + A − e^ε·B for fixed
    /// sums A, B. (Negative ε matter for the optimistic bound, which shifts ε afterwards.)
    pub(super) fn raw_epsilon(&self, delta: f64) -> Result<f64, MathError> {
        if self.infinity >= delta {
            return Err(MathError::NoSolution {
                reason: format!(
                    "the mass at infinite loss ({:.3e}) already reaches δ = {delta:e}",
                    self.infinity
                ),
            });
        }
        // a = Σ m and c = Σ m e^{l_below − l} over the active losses l (kept relative to the
        // current l_below so nothing overflows at large losses; one step down multiplies by e^{−h}).
        let (mut a, mut c) = (0.0, 0.0);
        let shrink = exp(-self.step);
        let target = delta - self.infinity;
        let mut last = f64::NEG_INFINITY;
        for (i, &m) in self.masses.iter().enumerate().rev() {
            let l = (self.offset + i as i64) as f64 * self.step;
            let l_below = l - self.step;
            a += m;
            c = (c + m) * shrink;
            last = l_below;
            // δ at ε = l_below with the losses ≥ l active: a − c.
            if a - c > target {
                if c <= 0.0 {
                    return Ok(l);
                }
                // a − e^{ε − l_below}·c = target.
                let e = l_below + ln((a - target) / c);
                return Ok(e.clamp(l_below, l));
            }
        }
        // δ stays below the target down to the lowest loss: every ε above it qualifies.
        Ok(last)
    }

    /// Hoeffding: with probability ≥ 1 − e, the composed rounded-down loss exceeds the true one
    /// by at most η = drift + √(spread·log(1/e)/2) (each step's difference lies in an interval of
    /// squared width `spread`/k, with mean at most `drift`/k).
    pub(super) fn eta(&self, e: f64) -> f64 {
        self.drift + (self.spread * ln(1.0 / e) / 2.0).sqrt()
    }

    /// δ(ε): an upper bound on the true δ if pessimistic (plus the truncation slack), a lower bound
    /// if optimistic. The optimistic bound is the larger of the plain one, δ̃(ε) − slack, and the
    /// coupling bound δ̃(ε + η(e)) − e − fail − slack over e ∈ {10⁻², 10⁻³, 10⁻⁴}·δ̃(ε): with
    /// probability 1 − e the true composed loss is at least the rounded-down one minus η, which
    /// removes most of the k·h/2 by which rounding down shifts the composition (Gopi, Lee &
    /// Wutschitz 2021 bound the PRV discretisation the same way). ε may be negative.
    pub fn delta_for_epsilon(&self, epsilon: f64) -> f64 {
        self.adjust(epsilon, &|e| self.raw_delta(e))
    }

    /// [`Pld::delta_for_epsilon`] at many ε at once, in O(buckets + points) instead of
    /// O(buckets) per point: suffix sums S_i = Σ_{j≥i} m_j and T_i = Σ_{j≥i} m_j e^{l_i − l_j}
    /// (each ≤ S_i, so nothing overflows) give δ̃(ε) = P(∞) + S_i − e^{ε − l_i}·T_i for ε in
    /// (l_{i−1}, l_i]. The subtraction loses at most about 1e-16·S_i absolutely: for drawing a
    /// profile; the readouts use the exact sweep.
    pub fn delta_curve(&self, epsilons: &[f64]) -> Vec<f64> {
        let n = self.masses.len();
        let mut s = vec![0.0; n + 1];
        let mut t = vec![0.0; n + 1];
        let shrink = exp(-self.step);
        for i in (0..n).rev() {
            s[i] = s[i + 1] + self.masses[i];
            t[i] = self.masses[i] + shrink * t[i + 1];
        }
        let raw = |e: f64| -> f64 {
            if !e.is_finite() {
                return if e > 0.0 { self.infinity } else { 1.0 };
            }
            // The first grid index whose loss exceeds e.
            let pos = (e / self.step).floor() as i128 + 1 - self.offset as i128;
            if pos >= n as i128 {
                return self.infinity;
            }
            let i = pos.max(0) as usize;
            let l = (self.offset + i as i64) as f64 * self.step;
            (s[i] - exp(e - l) * t[i]).max(0.0) + self.infinity
        };
        epsilons.iter().map(|&e| self.adjust(e, &raw)).collect()
    }

    /// The estimate's correction of a raw δ̃ (see [`Pld::delta_for_epsilon`]).
    pub(super) fn adjust(&self, epsilon: f64, raw: &dyn Fn(f64) -> f64) -> f64 {
        let d = raw(epsilon);
        match self.estimate {
            Estimate::Pessimistic => (d + self.slack + RESOLUTION).min(1.0),
            Estimate::Optimistic => {
                let mut best = d - self.slack - RESOLUTION;
                // The coupling's failure probabilities e are taken relative to the rounded-down
                // δ̃ at ε shifted back by the drift: far out, δ̃(ε) itself can be 0 (every loss
                // was rounded below ε) while the shifted one is not.
                let scale = d.max(raw(epsilon + self.drift.min(0.0)));
                if self.spread.is_finite() && scale > 0.0 {
                    for f in [1e-2, 1e-3, 1e-4] {
                        let e = f * scale;
                        let v =
                            raw(epsilon + self.eta(e)) - e - self.fail - self.slack - RESOLUTION;
                        best = best.max(v);
                    }
                }
                best.clamp(0.0, 1.0)
            }
        }
    }

    /// ε(δ): the smallest ε ≥ 0 whose `delta_for_epsilon` is at most δ for the pessimistic PLD (an
    /// upper bound on the true ε); for the optimistic one the largest lower bound of the plain
    /// ε̃(δ + slack) and ε̃(δ + e + fail + slack) − η(e), e ∈ {10⁻¹, 10⁻², 10⁻³}·δ.
    /// `NoSolution` if even ε → ∞ leaves more than δ (the mass at +∞ and the slack exceed δ).
    pub fn epsilon_for_delta(&self, delta: f64) -> Result<f64, MathError> {
        crate::check_delta("δ", delta)?;
        if delta < 100.0 * RESOLUTION {
            return Err(MathError::OutOfDomain {
                name: "δ",
                value: delta,
                expected: "at least 1e-11 (below, FFT rounding is more than 1% of δ)",
            });
        }
        let widen = self.slack + RESOLUTION;
        match self.estimate {
            Estimate::Pessimistic => {
                if widen >= delta {
                    return Err(MathError::NoSolution {
                        reason: format!("the truncation bound already exceeds δ = {delta:e}"),
                    });
                }
                Ok(self.raw_epsilon(delta - widen)?.max(0.0))
            }
            Estimate::Optimistic => {
                let mut best = self.raw_epsilon(delta + widen)?;
                if self.spread.is_finite() {
                    for f in [1e-1, 1e-2, 1e-3] {
                        let e = f * delta;
                        if let Ok(v) = self.raw_epsilon(delta + e + self.fail + widen) {
                            best = best.max(v - self.eta(e));
                        }
                    }
                }
                Ok(best.max(0.0))
            }
        }
    }
}
