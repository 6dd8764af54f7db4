//! Privacy loss distributions (PLDs): tight (ε, δ) accounting of composed mechanisms, with a
//! certified upper bound and a matching lower bound.
//!
//! For a pair of output distributions (P, Q) of a mechanism on neighbouring inputs, the privacy
//! loss is L = log(dP/dQ)(X) with X ∼ P, and the hockey-stick divergence is
//! δ(ε) = E[(1 − e^{ε − L})₊] + P(L = ∞) (Dwork & Rothblum 2016; Sommer, Meiser & Mohammadi 2019;
//! Koskela, Jälkö & Honkela 2020). Composing mechanisms adds independent losses, so the PLD of a
//! composition is the convolution of the PLDs, computed here with one FFT.
//!
//! Discretisation on a grid of step h (Meiser & Mohammadi 2018, "privacy buckets"): the
//! *pessimistic* PLD moves the mass of every bucket (l − h, l] up to l, the *optimistic* one down to
//! l − h. Since (1 − e^{ε−l})₊ is increasing in l and the composed loss is the sum of the per-step
//! losses, coupling shows that δ from the pessimistic PLD is an upper bound and δ from the
//! optimistic one a lower bound on the true δ(ε) of the composition. Tails: the pessimistic PLD
//! puts the mass above its range at +∞ and the mass below at its lowest point; the optimistic one
//! puts the mass above at its highest point and drops the mass below. The FFT is cyclic: composed
//! mass outside the window wraps around; the window is chosen from Chernoff bounds so that this mass
//! is below `TAIL` on each side, and that bound is added to (pessimistic) or subtracted from
//! (optimistic) δ. Nothing is dropped without being accounted for.
//!
//! Accuracy: the true δ lies between the two estimates, up to floating-point rounding in the FFT
//! (of order 1e-16 times the number of buckets, far below the δ values of interest); their gap
//! shrinks linearly with h.

use crate::fft::{self, Chunk, Pair, LANES};
use crate::special::{exp, exp_m1, ln, ln_1p};
use crate::MathError;
use std::borrow::Cow;

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

/// Standard normal distribution function Φ(z), accurate in both tails (erfc).
fn normal_cdf(z: f64) -> f64 {
    0.5 * libm::erfc(-z / std::f64::consts::SQRT_2)
}

/// How a PLD's loss is distributed: a distribution function F(l) = P(L ≤ l) and survival function
/// S(l) = P(L > l), each accurate where it is small, and the support's ends (possibly infinite).
struct LossLaw<'a> {
    cdf: &'a dyn Fn(f64) -> f64,
    survival: &'a dyn Fn(f64) -> f64,
    /// The same two functions for the law of L under Q.
    q_cdf: &'a dyn Fn(f64) -> f64,
    q_survival: &'a dyn Fn(f64) -> f64,
    lo: f64,
    hi: f64,
    /// E_P[L] (the KL divergence of the direction), to within `mean_error`; NaN if unknown.
    mean: f64,
    mean_error: f64,
}

/// The share of a bucket's P-mass that the connect-the-dots split puts on the bucket's upper end
/// l + h, given its P-mass p and its Q-mass q (lower end l): e^h(p − e^l q)/expm1(h), clamped to
/// [0, p]. The two atoms (p − u at l, u at l + h) carry exactly the bucket's P- and Q-mass, and the
/// pair they form dominates the bucket's (Doroshenko, Ghazi, Kamath, Kumar & Manurangsi 2022,
/// "Connect the dots"), so δ computed from them is an upper bound.
fn upper_share(p: f64, q: f64, l: f64, h: f64) -> f64 {
    Split::new(h).upper(p, q, l)
}

/// [`upper_share`] for one grid step h, with e^h and expm1(h) computed once.
struct Split {
    exp_h: f64,
    exp_m1_h: f64,
}

impl Split {
    fn new(h: f64) -> Split {
        Split {
            exp_h: exp(h),
            exp_m1_h: exp_m1(h),
        }
    }

    /// [`upper_share`]`(p, q, l, h)`, the same value.
    fn upper(&self, p: f64, q: f64, l: f64) -> f64 {
        self.upper_exp(p, q, exp(l))
    }

    /// [`Split::upper`] given e^l (the same value).
    #[inline]
    fn upper_exp(&self, p: f64, q: f64, exp_l: f64) -> f64 {
        if p <= 0.0 {
            return 0.0;
        }
        let u = self.exp_h * (p - exp_l * q) / self.exp_m1_h;
        u.clamp(0.0, p)
    }
}

/// A law of the loss on the grid: its distribution function F(i·h) = P(L ≤ i·h) and survival
/// function S(i·h) = 1 − F(i·h), each accurate where it is small, as functions of the grid index i
/// and of some state `C` that they may read and fill in (a table of values shared between laws).
struct GridLaw<F, S> {
    cdf: F,
    sur: S,
}

/// The masses of the buckets (l_{k−1}, l_k], k = 1, 2, …, l_k = (first + k)·h, one after the
/// other, evaluating the law once per grid point: differences of F while F ≤ ½, of S after (the law
/// is monotone, so one switch), so that small masses in either tail keep their digits.
struct Buckets {
    next: i64,
    upper: bool,
    prev: f64,
}

impl Buckets {
    fn new<C, F, S>(c: &mut C, law: &GridLaw<F, S>, first: i64) -> Buckets
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
    fn mass<C, F, S>(&mut self, c: &mut C, law: &GridLaw<F, S>) -> f64
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
fn dot(a: &[f64], b: &[f64]) -> f64 {
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
    fn from_law(law: &LossLaw, step: f64, estimate: Estimate) -> Result<Pld, MathError> {
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
    fn grid(law: &LossLaw, step: f64) -> Result<(i64, usize), MathError> {
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
    fn from_grid<C, PF, PS, QF, QS>(
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
    fn from_atoms(atoms: &[(f64, f64)], step: f64, estimate: Estimate) -> Pld {
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

    /// Total finite mass.
    pub fn finite_mass(&self) -> f64 {
        self.masses.iter().sum()
    }

    /// log E[e^{tL}; L finite], relative to the largest exponent so nothing overflows. The
    /// factors e^{t·l_i} on the uniform grid are a geometric sequence: e^{t·l} exactly at the start
    /// of every block of (at most) 512 buckets times the powers of e^{th} (relative drift below
    /// 1e-13: this only sizes the FFT window, whose Chernoff bound has far more room than that),
    /// so each block is one dot product of the masses with those powers.
    fn ln_mgf(&self, t: f64) -> f64 {
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
    fn raw_delta(&self, epsilon: f64) -> f64 {
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
    fn raw_epsilon(&self, delta: f64) -> Result<f64, MathError> {
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
    fn eta(&self, e: f64) -> f64 {
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
    fn adjust(&self, epsilon: f64, raw: &dyn Fn(f64) -> f64) -> f64 {
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

/// A power k to raise spectra to, and how small |z|² must be for z^k to be negligible: below
/// 1e-250 in modulus (beyond anything a mass or δ can register), so those are set to 0.
#[derive(Clone, Copy)]
struct Power {
    k: u64,
    negligible: f64,
}

impl Power {
    fn new(k: u64) -> Power {
        let negligible = if k == 0 {
            -1.0
        } else {
            // |z^k| = (|z|²)^{k/2} ≤ 1e-250.
            exp(2.0 * ln(1e-250) / k as f64)
        };
        Power { k, negligible }
    }

    /// z ↦ z^k on each lane of (re, im), by binary powering: the same operations in the same
    /// order as for one number at a time, on fixed-length arrays so that the loops vectorise.
    fn apply(self, re: &mut [f64; LANES], im: &mut [f64; LANES]) {
        let largest = (0..LANES).fold(0.0f64, |m, j| m.max(re[j] * re[j] + im[j] * im[j]));
        if largest <= self.negligible {
            (*re, *im) = ([0.0; LANES], [0.0; LANES]);
            return;
        }
        let (mut rr, mut ri) = ([1.0; LANES], [0.0; LANES]);
        let mut k = self.k;
        while k > 0 {
            if k & 1 == 1 {
                for j in 0..LANES {
                    let (a, b) = (rr[j], ri[j]);
                    rr[j] = a * re[j] - b * im[j];
                    ri[j] = a * im[j] + b * re[j];
                }
            }
            k >>= 1;
            if k > 0 {
                for j in 0..LANES {
                    let (a, b) = (re[j], im[j]);
                    re[j] = a * a - b * b;
                    im[j] = a * b + b * a;
                }
            }
        }
        (*re, *im) = (rr, ri);
    }
}

/// Both half spectra of a [`Pair`] to their powers: X_a^{ka}, X_b^{kb}.
fn pow_pair(x: &mut Pair, ka: Power, kb: Power) {
    ka.apply(&mut x.ar, &mut x.ai);
    kb.apply(&mut x.br, &mut x.bi);
}

/// Where a composition's finite mass lies: its full support [lo, hi] in grid indices and the
/// window [i_lo, i_hi] outside which at most [`TAIL`] lies on each side.
struct Window {
    lo: i128,
    hi: i128,
    i_lo: i64,
    i_hi: i64,
}

impl Window {
    fn span(&self) -> usize {
        (self.i_hi - self.i_lo + 1) as usize
    }
}

fn check_parts<'a>(parts: &[(&'a Pld, u64)]) -> Result<Vec<(&'a Pld, u64)>, MathError> {
    let first = parts.first().ok_or(MathError::Inconsistent {
        reason: "nothing to compose".into(),
    })?;
    let (step, estimate) = (first.0.step, first.0.estimate);
    if parts
        .iter()
        .any(|(p, _)| p.step != step || p.estimate != estimate)
    {
        return Err(MathError::Inconsistent {
            reason: "PLDs composed together need the same grid step and rounding".into(),
        });
    }
    let kept: Vec<(&Pld, u64)> = parts.iter().copied().filter(|p| p.1 > 0).collect();
    if kept.is_empty() {
        return Err(MathError::Inconsistent {
            reason: "compose at least one step".into(),
        });
    }
    Ok(kept)
}

/// Chernoff: P(S ≥ a) ≤ e^{Σ kΛ(t) − t a} for t > 0 and P(S ≤ a) ≤ e^{Σ kΛ(−t) + t a}, minimised
/// over a geometric grid of t.
fn window(parts: &[(&Pld, u64)]) -> Window {
    let step = parts[0].0.step;
    let (mut lo, mut hi) = (0i128, 0i128);
    for (p, k) in parts {
        // In i128: at 10¹² steps the full support can leave i64; the window never does.
        lo += p.offset as i128 * *k as i128;
        hi += (p.offset + p.masses.len() as i64 - 1) as i128 * *k as i128;
    }
    let ln_tail = ln(TAIL);
    let (mut w_lo, mut w_hi) = (lo as f64 * step, hi as f64 * step);
    let mut t = 1e-2;
    while t <= 2e3 {
        let up: f64 = parts.iter().map(|(p, k)| *k as f64 * p.ln_mgf(t)).sum();
        let down: f64 = parts.iter().map(|(p, k)| *k as f64 * p.ln_mgf(-t)).sum();
        if up.is_finite() {
            w_hi = w_hi.min((up - ln_tail) / t);
        }
        if down.is_finite() {
            w_lo = w_lo.max(-(down - ln_tail) / t);
        }
        t *= 1.3;
    }
    let i_lo = ((w_lo / step).floor() as i128).max(lo) as i64;
    let i_hi = ((w_hi / step).ceil() as i128).min(hi).max(i_lo as i128) as i64;
    Window { lo, hi, i_lo, i_hi }
}

/// A PLD's masses (or nothing) as a signal, mass i at position i mod n (n, the length of `out`, a
/// transform length). Every entry is written before any is read, so fresh pages are only touched
/// once.
fn load(p: Option<&Pld>, out: &mut [f64]) {
    let masses = p.map_or(&[][..], |p| &p.masses[..]);
    let head = masses.len().min(out.len());
    out[..head].copy_from_slice(&masses[..head]);
    out[head..].fill(0.0);
    let n = out.len();
    for (i, &m) in masses.iter().enumerate().skip(head) {
        out[i % n] += m;
    }
}

/// Move the cyclic window of `v` from index rot, span values long (indices mod n = v.len(),
/// span ≤ n), to the front, each value clamped at 0: the same as `rotate_left(rot)` then clamping
/// the first span values, in about one pass over the window. A window that wraps around is two
/// pieces, the head v[rot..] and the tail v[..tail]: if the tail's place (after the head) ends
/// before the head starts, the tail moves up and then the head down; otherwise the shorter piece,
/// if short (at most n/32), is set aside while the other moves; otherwise `rotate_left`.
fn window_to_front(v: &mut [f64], rot: usize, span: usize) {
    let n = v.len();
    let head = (n - rot).min(span);
    let tail = span - head;
    if tail > 0 && span <= rot {
        // Backward: the tail's place may overlap where it is.
        for t in (0..tail).rev() {
            v[head + t] = v[t].max(0.0);
        }
        for t in 0..head {
            v[t] = v[rot + t].max(0.0);
        }
    } else if tail <= n / 32 {
        let saved: Vec<f64> = v[..tail].iter().map(|m| m.max(0.0)).collect();
        // Forward: each value is read before anything is written over it (t ≤ rot + t).
        for t in 0..head {
            v[t] = v[rot + t].max(0.0);
        }
        v[head..span].copy_from_slice(&saved);
    } else if head <= n / 32 {
        let saved: Vec<f64> = v[rot..].iter().map(|m| m.max(0.0)).collect();
        for t in (0..tail).rev() {
            v[head + t] = v[t].max(0.0);
        }
        v[..head].copy_from_slice(&saved);
    } else {
        v.rotate_left(rot);
        for m in &mut v[..span] {
            *m = m.max(0.0);
        }
    }
}

/// Read the composed PLD out of the inverse transform (its real or its imaginary parts), in place
/// if they are given as an owned vector.
fn read_out(parts: &[(&Pld, u64)], w: &Window, values: Cow<[f64]>) -> Pld {
    let n = values.len();
    let (step, estimate) = (parts[0].0.step, parts[0].0.estimate);
    // Window index j − i_lo is at position (j − lo) mod n = (j − i_lo + rot) mod n.
    let rot = (w.i_lo as i128 - w.lo).rem_euclid(n as i128) as usize;
    let masses: Vec<f64> = match values {
        Cow::Owned(mut v) => {
            window_to_front(&mut v, rot, w.span());
            v.truncate(w.span());
            v.shrink_to_fit();
            v
        }
        Cow::Borrowed(v) => v[rot..]
            .iter()
            .chain(v[..rot].iter())
            .cycle()
            .take(w.span())
            .map(|m| m.max(0.0))
            .collect(),
    };
    let finite_keep: f64 = parts
        .iter()
        .map(|(p, k)| crate::special::pow(1.0 - p.infinity, *k as f64))
        .product();
    let truncated = if (w.i_lo as i128) > w.lo { TAIL } else { 0.0 }
        + if (w.i_hi as i128) < w.hi { TAIL } else { 0.0 };
    let slack = truncated + parts.iter().map(|(p, k)| p.slack * *k as f64).sum::<f64>();
    let total = |f: fn(&Pld) -> f64| parts.iter().map(|(p, k)| f(p) * *k as f64).sum::<f64>();
    Pld {
        step,
        offset: w.i_lo,
        masses,
        infinity: 1.0 - finite_keep,
        slack,
        estimate,
        drift: total(|p| p.drift),
        spread: total(|p| p.spread),
        fail: total(|p| p.fail),
    }
}

/// The transform length for a window of `span` buckets: see [`fft::size_for`].
fn fft_size(span: usize) -> Result<usize, MathError> {
    let n = fft::size_for(span);
    if n > 1 << 26 {
        return Err(MathError::OutOfDomain {
            name: "h",
            value: n as f64,
            expected: "a grid step giving at most 2²⁶ buckets after composition",
        });
    }
    Ok(n)
}

/// Compose PLDs (each `count` times) by one FFT: the PLD of the composition, on the same grid.
/// All parts must share the grid step and the rounding. The window is where the composed finite
/// mass lies except for at most [`TAIL`] on each side (Chernoff bounds from each part's moment
/// generating function); that bound goes into `slack`.
pub fn compose(parts: &[(&Pld, u64)]) -> Result<Pld, MathError> {
    let parts = check_parts(parts)?;
    let w = window(&parts);
    let n = fft_size(w.span())?;
    let (re, _) = convolve(&parts, &[], n);
    Ok(read_out(&parts, &w, Cow::Owned(re)))
}

/// Two compositions at once, one as the real and one as the imaginary part of the same
/// transforms (both inputs and both outputs are real): half the FFT work of two [`compose`] calls.
pub fn compose_two(a: &[(&Pld, u64)], b: &[(&Pld, u64)]) -> Result<(Pld, Pld), MathError> {
    let (a, b) = (check_parts(a)?, check_parts(b)?);
    let (wa, wb) = (window(&a), window(&b));
    let n = fft_size(wa.span().max(wb.span()))?;
    let (re, im) = convolve(&a, &b, n);
    Ok((
        read_out(&a, &wa, Cow::Owned(re)),
        read_out(&b, &wb, Cow::Owned(im)),
    ))
}

/// The cyclic convolutions (length n) of the parts of `a` (real parts of the result) and of `b`
/// (imaginary parts; may be empty), each part `count` times, from one transform per part: the
/// signals of part r of both go in as a + ib, and since both are real their spectra are
/// conjugate-symmetric, so only f ≤ n/2 is raised to the powers. With one part each (the usual
/// case) this is done in place, chunk by chunk.
fn convolve(a: &[(&Pld, u64)], b: &[(&Pld, u64)], n: usize) -> (Vec<f64>, Vec<f64>) {
    let (mut re, mut im) = (vec![0.0; n], vec![0.0; n]);
    let scale = 1.0 / n as f64;
    let rounds = a.len().max(b.len());
    let mut acc = Half::zero(if rounds > 1 { n / 2 + 1 } else { 0 });
    for r in 0..rounds {
        load(a.get(r).map(|p| p.0), &mut re);
        load(b.get(r).map(|p| p.0), &mut im);
        fft::forward(&mut re, &mut im);
        let (ka, kb) = (a.get(r).map_or(0, |p| p.1), b.get(r).map_or(0, |p| p.1));
        let (ka, kb) = (Power::new(ka), Power::new(kb));
        for c in fft::half_chunks(n) {
            let mut x = Pair::split(&re, &im, &c);
            pow_pair(&mut x, ka, kb);
            if rounds == 1 {
                x.join(&mut re, &mut im, &c, scale);
            } else if r == 0 {
                acc.store(&x, &c);
            } else {
                let mut y = acc.get(&c);
                for (xr, xi, yr, yi) in [
                    (&x.ar, &x.ai, &mut y.ar, &mut y.ai),
                    (&x.br, &x.bi, &mut y.br, &mut y.bi),
                ] {
                    for j in 0..LANES {
                        let (u, v) = (yr[j], yi[j]);
                        yr[j] = u * xr[j] - v * xi[j];
                        yi[j] = u * xi[j] + v * xr[j];
                    }
                }
                acc.store(&y, &c);
            }
        }
    }
    if rounds > 1 {
        for c in fft::half_chunks(n) {
            acc.get(&c).join(&mut re, &mut im, &c, scale);
        }
    }
    fft::inverse_unscaled(&mut re, &mut im);
    (re, im)
}

/// The two PLDs of a mechanism under add/remove (remove: P is the output with the record, Q
/// without; add: the reverse). δ of the mechanism is the larger of the two δ.
#[derive(Clone, Debug, PartialEq)]
pub struct PldPair {
    /// P = with the record, Q = without.
    pub remove: Pld,
    /// P = without the record, Q = with.
    pub add: Pld,
}

impl PldPair {
    /// δ(ε): the larger of the two directions.
    pub fn delta_for_epsilon(&self, epsilon: f64) -> f64 {
        self.remove
            .delta_for_epsilon(epsilon)
            .max(self.add.delta_for_epsilon(epsilon))
    }

    /// [`Pld::delta_curve`] of both directions, the larger at each ε.
    pub fn delta_curve(&self, epsilons: &[f64]) -> Vec<f64> {
        self.remove
            .delta_curve(epsilons)
            .into_iter()
            .zip(self.add.delta_curve(epsilons))
            .map(|(a, b)| a.max(b))
            .collect()
    }

    /// ε(δ): the larger of the two directions' ε (each δ(ε) is decreasing).
    pub fn epsilon_for_delta(&self, delta: f64) -> Result<f64, MathError> {
        Ok(self
            .remove
            .epsilon_for_delta(delta)?
            .max(self.add.epsilon_for_delta(delta)?))
    }

    /// Composition of different mechanisms (each `count` times), both directions, by one packed
    /// FFT. All parts need the same grid step and rounding.
    pub fn compose(parts: &[(&PldPair, u64)]) -> Result<PldPair, MathError> {
        let remove: Vec<(&Pld, u64)> = parts.iter().map(|(p, k)| (&p.remove, *k)).collect();
        let add: Vec<(&Pld, u64)> = parts.iter().map(|(p, k)| (&p.add, *k)).collect();
        let (remove, add) = compose_two(&remove, &add)?;
        Ok(PldPair { remove, add })
    }

    /// The largest number of self-compositions whose ε at δ stays at most `target` (this PLD's
    /// rounding: pessimistic for a guaranteed budget), by doubling then bisection on whole steps,
    /// up to `limit`. 0 if one step already exceeds the target.
    pub fn max_steps(&self, delta: f64, target: f64, limit: u64) -> Result<u64, MathError> {
        crate::check_epsilon("target ε", target)?;
        let fits = |k: u64| -> Result<bool, MathError> {
            Ok(self.self_compose(k)?.epsilon_for_delta(delta)? <= target)
        };
        if !fits(1)? {
            return Ok(0);
        }
        let (mut lo, mut hi) = (1u64, 2u64);
        while hi <= limit && fits(hi)? {
            lo = hi;
            hi *= 2;
        }
        if hi > limit {
            if fits(limit)? {
                return Ok(limit);
            }
            hi = limit;
        }
        // fits(lo), not fits(hi).
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if fits(mid)? {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        Ok(lo)
    }

    /// k-fold self-composition of both directions.
    pub fn self_compose(&self, steps: u64) -> Result<PldPair, MathError> {
        let (remove, add) = compose_two(&[(&self.remove, steps)], &[(&self.add, steps)])?;
        Ok(PldPair { remove, add })
    }

    /// Buckets in the window of a k-fold self-composition (the larger of the two directions):
    /// what the FFT must hold, known before any transform is computed.
    pub fn composed_span(&self, steps: u64) -> usize {
        let k = steps.max(1);
        window(&[(&self.remove, k)])
            .span()
            .max(window(&[(&self.add, k)]).span())
    }

    /// The k-fold self-compositions for several k from one forward transform: the FFT is sized
    /// for the widest window, each k costs one inverse transform. Same results as
    /// [`PldPair::self_compose`] up to rounding (each k keeps its own window and truncation bound;
    /// a window shorter than the transform only wraps the mass already bounded by [`TAIL`]).
    pub fn self_compose_many(&self, steps: &[u64]) -> Result<Vec<PldPair>, MathError> {
        if steps.contains(&0) {
            return Err(MathError::Inconsistent {
                reason: "compose at least one step".into(),
            });
        }
        let windows: Vec<(Window, Window)> = steps
            .iter()
            .map(|&k| (window(&[(&self.remove, k)]), window(&[(&self.add, k)])))
            .collect();
        let span = windows
            .iter()
            .map(|(a, b)| a.span().max(b.span()))
            .max()
            .unwrap_or(1);
        let n = fft_size(span)?;
        let (mut re, mut im) = (vec![0.0; n], vec![0.0; n]);
        load(Some(&self.remove), &mut re);
        load(Some(&self.add), &mut im);
        fft::forward(&mut re, &mut im);
        let mut x = Half::zero(n / 2 + 1);
        for c in fft::half_chunks(n) {
            x.store(&Pair::split(&re, &im, &c), &c);
        }
        let scale = 1.0 / n as f64;
        let mut out = Vec::with_capacity(steps.len());
        for (&k, (wr, wa)) in steps.iter().zip(&windows) {
            let power = Power::new(k);
            for c in fft::half_chunks(n) {
                let mut y = x.get(&c);
                pow_pair(&mut y, power, power);
                y.join(&mut re, &mut im, &c, scale);
            }
            fft::inverse_unscaled(&mut re, &mut im);
            out.push(PldPair {
                remove: read_out(&[(&self.remove, k)], wr, Cow::Borrowed(&re)),
                add: read_out(&[(&self.add, k)], wa, Cow::Borrowed(&im)),
            });
        }
        Ok(out)
    }
}

/// The half spectra X_a, X_b (one frequency of each pair {f, n − f}, n/2 + 1 in all) of two real
/// signals, as split arrays in the order of [`fft::half_chunks`]. Which of f and n − f is kept
/// does not matter: the other is its exact conjugate, and stays so through products and powers.
struct Half {
    ar: Vec<f64>,
    ai: Vec<f64>,
    br: Vec<f64>,
    bi: Vec<f64>,
}

impl Half {
    fn zero(m: usize) -> Half {
        Half {
            ar: vec![0.0; m],
            ai: vec![0.0; m],
            br: vec![0.0; m],
            bi: vec![0.0; m],
        }
    }

    fn store(&mut self, x: &Pair, c: &Chunk) {
        let (h, len) = (c.h, c.len);
        self.ar[h..h + len].copy_from_slice(&x.ar[..len]);
        self.ai[h..h + len].copy_from_slice(&x.ai[..len]);
        self.br[h..h + len].copy_from_slice(&x.br[..len]);
        self.bi[h..h + len].copy_from_slice(&x.bi[..len]);
    }

    fn get(&self, c: &Chunk) -> Pair {
        let (h, len) = (c.h, c.len);
        let mut x = Pair::zero();
        x.ar[..len].copy_from_slice(&self.ar[h..h + len]);
        x.ai[..len].copy_from_slice(&self.ai[h..h + len]);
        x.br[..len].copy_from_slice(&self.br[h..h + len]);
        x.bi[..len].copy_from_slice(&self.bi[h..h + len]);
        x
    }
}

fn check_rate(q: f64) -> Result<(), MathError> {
    if q.is_nan() {
        return Err(MathError::NotANumber { name: "q" });
    }
    if !(q > 0.0 && q <= 1.0) {
        return Err(MathError::OutOfDomain {
            name: "q",
            value: q,
            expected: "in (0, 1]",
        });
    }
    Ok(())
}

/// x at which the mixture ratio 1 − q + q·e^{g} equals e^{v}: g = log((e^v − 1 + q)/q), for
/// v > log(1 − q); −∞ at or below.
fn mixture_exponent(v: f64, q: f64) -> f64 {
    mixture_exponent_ln(v, q, ln(q))
}

/// [`mixture_exponent`] given ln_q = ln(q) (the same value, one logarithm fewer).
fn mixture_exponent_ln(v: f64, q: f64, ln_q: f64) -> f64 {
    let num = exp_m1(v) + q;
    if num <= 0.0 {
        f64::NEG_INFINITY
    } else {
        ln(num) - ln_q
    }
}

/// The two distributions of the Poisson-subsampled Gaussian, N(0, σ²) and the mixture
/// (1 − q)N(0, σ²) + qN(1, σ²), at the points x_j = σ² log((e^{j·h} − 1 + q)/q) + ½ of the grid
/// (j = first, first + 1, …), each in its lower tail (distribution function: Φ(x_j/σ) and
/// (1 − q)Φ(x_j/σ) + qΦ((x_j − 1)/σ)) or its upper tail (survival function: Φ(−x_j/σ) and
/// (1 − q)Φ(−x_j/σ) + qΦ((1 − x_j)/σ)), whichever the law being discretised asks for (the one
/// accurate where it is small). The remove direction's laws at the loss l = j·h and the add
/// direction's at −l are all among these values, so each is computed once, with the same
/// expressions as the laws' own (so the same bits).
///
/// `gauss[k]` and `mixture[k]` keep the last value computed at x_{first + k}, negated if it is the
/// upper tail's (every value is ≥ 0, and −0.0 is told apart by its sign), NaN if none. They are
/// filled ahead, lower tails below each distribution's median and upper tails above (what the laws
/// ask for, except at a point or two next to the medians), block by block with one function
/// evaluated at a time (independent evaluations in a row run fastest); a value asked for in the
/// other tail is computed when asked for. Below the remove direction's smallest loss
/// (j·h ≤ log(1 − q), the indices below `start`) the laws are the constants 0 (lower tail) and 1
/// (upper tail), as in theirs.
struct GaussianTable {
    sigma: f64,
    q: f64,
    s2: f64,
    ln_q: f64,
    step: f64,
    first: i64,
    start: i64,
    gauss: Vec<f64>,
    mixture: Vec<f64>,
}

impl GaussianTable {
    /// The table for indices first..=last (floor = log(1 − q)), filled ahead.
    fn new(sigma: f64, q: f64, step: f64, first: i64, last: i64, floor: f64) -> GaussianTable {
        let mut start = first;
        while start <= last && start as f64 * step <= floor {
            start += 1;
        }
        let m = (last - first + 1).max(0) as usize;
        let from = (start - first).clamp(0, m as i64) as usize;
        let mut t = GaussianTable {
            sigma,
            q,
            s2: sigma * sigma,
            ln_q: ln(q),
            step,
            first,
            start,
            gauss: Vec::with_capacity(m),
            mixture: Vec::with_capacity(m),
        };
        // The medians: N(0, σ²)'s at x = 0, the mixture's where its distribution function
        // crosses ½ (bisections; both only decide which tail to fill ahead).
        let median = |below: &dyn Fn(f64) -> bool| {
            let (mut lo, mut hi) = (from, m);
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                if below(t.x(first + mid as i64)) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            lo
        };
        let g_med = median(&|x| x <= 0.0);
        let m_med = median(&|x| t.mixture_value(x, t.gauss_value(x, false), false) <= 0.5);
        t.gauss.resize(from, f64::NAN);
        t.mixture.resize(from, f64::NAN);
        // Block by block, in separate passes (evaluations of one function in a row run fastest):
        // the points, N(0, σ²)'s tails, the mixture's.
        let mut xs = [0.0; 512];
        for lo in (from..m).step_by(xs.len()) {
            let hi = (lo + xs.len()).min(m);
            let xs = &mut xs[..hi - lo];
            for (k, x) in (lo..hi).zip(xs.iter_mut()) {
                *x = t.x(first + k as i64);
            }
            for (k, &x) in (lo..hi).zip(xs.iter()) {
                let upper = k >= g_med;
                let g = t.gauss_value(x, upper);
                t.gauss.push(GaussianTable::keep(g, upper));
            }
            for (k, &x) in (lo..hi).zip(xs.iter()) {
                let (g_upper, upper) = (k >= g_med, k >= m_med);
                let a = if upper == g_upper {
                    t.gauss[k].abs()
                } else {
                    t.gauss_value(x, upper)
                };
                let v = t.mixture_value(x, a, upper);
                t.mixture.push(GaussianTable::keep(v, upper));
            }
        }
        t
    }

    /// x_j (for j ≥ start).
    #[inline]
    fn x(&self, j: i64) -> f64 {
        self.s2 * mixture_exponent_ln(j as f64 * self.step, self.q, self.ln_q) + 0.5
    }

    /// The value of tail `upper` if the table keeps it as `v`.
    #[inline]
    fn kept(v: f64, upper: bool) -> Option<f64> {
        (!v.is_nan() && v.is_sign_negative() == upper).then_some(v.abs())
    }

    /// How the table keeps the value v of tail `upper`.
    #[inline]
    fn keep(v: f64, upper: bool) -> f64 {
        if upper {
            -v
        } else {
            v
        }
    }

    /// N(0, σ²)'s tail at x: Φ(x/σ) (lower) or Φ(−x/σ) (upper).
    #[inline]
    fn gauss_value(&self, x: f64, upper: bool) -> f64 {
        normal_cdf(if upper {
            -x / self.sigma
        } else {
            x / self.sigma
        })
    }

    /// The mixture's tail at x given N(0, σ²)'s, a: (1 − q)a + qΦ((x − 1)/σ) (lower) or
    /// (1 − q)a + qΦ((1 − x)/σ) (upper).
    #[inline]
    fn mixture_value(&self, x: f64, a: f64, upper: bool) -> f64 {
        let b = normal_cdf(if upper {
            (1.0 - x) / self.sigma
        } else {
            (x - 1.0) / self.sigma
        });
        (1.0 - self.q) * a + self.q * b
    }

    /// `gauss_value` at point k, kept.
    #[inline]
    fn gauss_at(&mut self, k: usize, x: f64, upper: bool) -> f64 {
        let v = self.gauss_value(x, upper);
        self.gauss[k] = GaussianTable::keep(v, upper);
        v
    }

    /// The mixture's tail at point k (k ≥ start − first), kept, with N(0, σ²)'s.
    fn mixture_at(&mut self, k: usize, upper: bool) -> f64 {
        if let Some(v) = GaussianTable::kept(self.mixture[k], upper) {
            return v;
        }
        let x = self.x(self.first + k as i64);
        let a = match GaussianTable::kept(self.gauss[k], upper) {
            Some(a) => a,
            None => self.gauss_at(k, x, upper),
        };
        let v = self.mixture_value(x, a, upper);
        self.mixture[k] = GaussianTable::keep(v, upper);
        v
    }

    /// N(0, σ²)'s tail at x_j: Φ(x_j/σ) (lower) or Φ(−x_j/σ) (upper).
    #[inline]
    fn gauss(&mut self, j: i64, upper: bool) -> f64 {
        if j < self.start {
            return if upper { 1.0 } else { 0.0 };
        }
        let k = (j - self.first) as usize;
        match GaussianTable::kept(self.gauss[k], upper) {
            Some(v) => v,
            None => self.gauss_at(k, self.x(j), upper),
        }
    }

    /// The mixture's tail at x_j: (1 − q)Φ(x_j/σ) + qΦ((x_j − 1)/σ) (lower) or
    /// (1 − q)Φ(−x_j/σ) + qΦ((1 − x_j)/σ) (upper).
    #[inline]
    fn mixture(&mut self, j: i64, upper: bool) -> f64 {
        if j < self.start {
            return if upper { 1.0 } else { 0.0 };
        }
        self.mixture_at((j - self.first) as usize, upper)
    }
}

/// E_P[L] of the two directions of the Poisson-subsampled Gaussian (their KL divergences), with
/// an error bound: trapezoidal rule in t = x/σ on [−40, 40 + 1/σ] (exponentially convergent for
/// these analytic integrands; step min(1/8, σ/8) keeps the nearest complex singularity of
/// log(1 − q + q e^{…}), at distance ≥ πσ/2, many steps away), checked against the rule with twice
/// the step: the error returned is 10 times their difference plus 1e-15.
fn gaussian_loss_means(sigma: f64, q: f64) -> [(f64, f64); 2] {
    let loss = |x: f64| ln_1p(q * exp_m1((2.0 * x - 1.0) / (2.0 * sigma * sigma)));
    let phi = |t: f64| exp(-0.5 * t * t) / (2.0 * std::f64::consts::PI).sqrt();
    let rule = |h: f64| -> (f64, f64) {
        let (lo, hi) = (-40.0, 40.0 + 1.0 / sigma);
        let n = ((hi - lo) / h).ceil() as usize;
        let (mut r, mut a) = (0.0, 0.0);
        for i in 0..=n {
            let t = lo + i as f64 * h;
            let l = loss(sigma * t);
            r += ((1.0 - q) * phi(t) + q * phi(t - 1.0 / sigma)) * l;
            a -= phi(t) * l;
        }
        (r * h, a * h)
    };
    let h = (sigma / 8.0).min(0.125);
    let (r1, a1) = rule(h);
    let (r2, a2) = rule(2.0 * h);
    [
        (r1, 10.0 * (r1 - r2).abs() + 1e-15),
        (a1, 10.0 * (a1 - a2).abs() + 1e-15),
    ]
}

/// PLDs of the Poisson-subsampled Gaussian mechanism (sensitivity 1, noise σ, rate q), add/remove,
/// both directions.
///
/// Remove: P = (1 − q)N(0, σ²) + qN(1, σ²), Q = N(0, σ²); L(x) = log(1 − q + q e^{(2x − 1)/(2σ²)})
/// is increasing in x, so P(L ≤ l) = (1 − q)Φ(x_l/σ) + qΦ((x_l − 1)/σ) with
/// x_l = σ² log((e^l − 1 + q)/q) + ½. Add: P = N(0, σ²), Q the mixture, L = −(the same log), so
/// P(L ≤ l) = 1 − Φ(x_{−l}/σ). (Koskela, Jälkö & Honkela 2020; Zhu, Dong & Wang 2022.)
/// Pessimistic: δ is an upper bound; optimistic: a lower bound.
///
/// Both directions' laws (under P and under Q) are tails of the same two distributions, N(0, σ²)
/// and the mixture: the remove direction's at the grid point l = i·h at x_l, the add direction's
/// at x_{−l}, where the remove direction's are at its grid point of index −i. So x_l and each tail
/// value needed, Φ(±x_l/σ) and Φ(±(x_l − 1)/σ), are computed once per grid point and shared by the
/// four laws (a table of them; the same expressions, so the same masses bit for bit as
/// evaluating each law on its own).
pub fn poisson_gaussian(
    sigma: f64,
    q: f64,
    step: f64,
    estimate: Estimate,
) -> Result<PldPair, MathError> {
    if !(sigma > 0.0 && sigma.is_finite()) {
        return Err(MathError::OutOfDomain {
            name: "σ",
            value: sigma,
            expected: "a positive finite number",
        });
    }
    check_rate(q)?;
    let s2 = sigma * sigma;
    let means = match estimate {
        Estimate::Optimistic => gaussian_loss_means(sigma, q),
        Estimate::Pessimistic => [(f64::NAN, 0.0); 2],
    };
    let ln_q = ln(q);
    let x_of = |v: f64| s2 * mixture_exponent_ln(v, q, ln_q) + 0.5;
    let floor = ln_1p(-q); // the smallest loss of the remove direction (−∞ when q = 1)
                           // The laws as functions of the loss, for the grids' ranges and their tails; the masses come
                           // from the shared table below (the same values).
    let cdf_r = |l: f64| {
        if l <= floor {
            return 0.0;
        }
        let x = x_of(l);
        (1.0 - q) * normal_cdf(x / sigma) + q * normal_cdf((x - 1.0) / sigma)
    };
    let sur_r = |l: f64| {
        if l <= floor {
            return 1.0;
        }
        let x = x_of(l);
        (1.0 - q) * normal_cdf(-x / sigma) + q * normal_cdf((1.0 - x) / sigma)
    };
    // Under Q = N(0, σ²).
    let qcdf_r = |l: f64| {
        if l <= floor {
            0.0
        } else {
            normal_cdf(x_of(l) / sigma)
        }
    };
    let qsur_r = |l: f64| {
        if l <= floor {
            1.0
        } else {
            normal_cdf(-x_of(l) / sigma)
        }
    };
    let remove_law = LossLaw {
        cdf: &cdf_r,
        survival: &sur_r,
        q_cdf: &qcdf_r,
        q_survival: &qsur_r,
        lo: floor,
        hi: f64::INFINITY,
        mean: means[0].0,
        mean_error: means[0].1,
    };
    let cdf_a = |l: f64| {
        if -l <= floor {
            return 1.0;
        }
        normal_cdf(-x_of(-l) / sigma)
    };
    let sur_a = |l: f64| {
        if -l <= floor {
            return 0.0;
        }
        normal_cdf(x_of(-l) / sigma)
    };
    // Under Q = the mixture: Q(L ≤ l) = Q(X ≥ x_{−l}).
    let qcdf_a = |l: f64| {
        if -l <= floor {
            return 1.0;
        }
        let x = x_of(-l);
        (1.0 - q) * normal_cdf(-x / sigma) + q * normal_cdf((1.0 - x) / sigma)
    };
    let qsur_a = |l: f64| {
        if -l <= floor {
            return 0.0;
        }
        let x = x_of(-l);
        (1.0 - q) * normal_cdf(x / sigma) + q * normal_cdf((x - 1.0) / sigma)
    };
    let add_law = LossLaw {
        cdf: &cdf_a,
        survival: &sur_a,
        q_cdf: &qcdf_a,
        q_survival: &qsur_a,
        lo: f64::NEG_INFINITY,
        hi: -floor,
        mean: means[1].0,
        mean_error: means[1].1,
    };
    let r_grid @ (r_bottom, r_n) = Pld::grid(&remove_law, step)?;
    let a_grid @ (a_bottom, a_n) = Pld::grid(&add_law, step)?;
    // The table covers the remove grid's indices i and the add grid's −i.
    let first = r_bottom.min(-(a_bottom + a_n as i64 - 1));
    let last = (r_bottom + r_n as i64 - 1).max(-a_bottom);
    let mut table = GaussianTable::new(sigma, q, step, first, last, floor);
    // Remove: P is the mixture and Q = N(0, σ²), at x_i. Add: P = N(0, σ²) and Q the mixture, with
    // L ≤ l ⇔ X ≥ x_{−l}, so their distribution functions are the upper tails at x_{−i}.
    let remove_p = GridLaw {
        cdf: |t: &mut GaussianTable, i: i64| t.mixture(i, false),
        sur: |t: &mut GaussianTable, i: i64| t.mixture(i, true),
    };
    let remove_q = GridLaw {
        cdf: |t: &mut GaussianTable, i: i64| t.gauss(i, false),
        sur: |t: &mut GaussianTable, i: i64| t.gauss(i, true),
    };
    let add_p = GridLaw {
        cdf: |t: &mut GaussianTable, i: i64| t.gauss(-i, true),
        sur: |t: &mut GaussianTable, i: i64| t.gauss(-i, false),
    };
    let add_q = GridLaw {
        cdf: |t: &mut GaussianTable, i: i64| t.mixture(-i, true),
        sur: |t: &mut GaussianTable, i: i64| t.mixture(-i, false),
    };
    let remove = Pld::from_grid(
        &remove_law,
        step,
        estimate,
        r_grid,
        &mut table,
        &remove_p,
        &remove_q,
    );
    let add = Pld::from_grid(&add_law, step, estimate, a_grid, &mut table, &add_p, &add_q);
    Ok(PldPair { remove, add })
}

/// E_P[L] of the two directions of the Poisson-subsampled Laplace mechanism, with an error bound:
/// the atoms at x ≤ 0 and x ≥ 1 exactly, the middle ∫₀¹ by Simpson's rule with 8192 intervals,
/// checked against 4096 (error returned: 10 times the difference plus 1e-15).
fn laplace_loss_means(b: f64, q: f64) -> [(f64, f64); 2] {
    let loss = |x: f64| ln_1p(q * exp_m1((2.0 * x - 1.0) / b));
    let p0 = |x: f64| exp(-x / b) / (2.0 * b);
    let p1 = |x: f64| exp(-(1.0 - x) / b) / (2.0 * b);
    let simpson = |n: usize, f: &dyn Fn(f64) -> f64| -> f64 {
        let h = 1.0 / n as f64;
        let mut acc = f(0.0) + f(1.0);
        for i in 1..n {
            acc += f(i as f64 * h) * if i % 2 == 1 { 4.0 } else { 2.0 };
        }
        acc * h / 3.0
    };
    let e = exp(-1.0 / b);
    let (l_min, l_max) = (loss(0.0), loss(1.0));
    let remove_mid = |x: f64| loss(x) * ((1.0 - q) * p0(x) + q * p1(x));
    let add_mid = |x: f64| -loss(x) * p0(x);
    let remove_atoms =
        l_min * ((1.0 - q) * 0.5 + q * 0.5 * e) + l_max * ((1.0 - q) * 0.5 * e + q * 0.5);
    let add_atoms = -(l_min * 0.5 + l_max * 0.5 * e);
    let (r1, r2) = (simpson(8192, &remove_mid), simpson(4096, &remove_mid));
    let (a1, a2) = (simpson(8192, &add_mid), simpson(4096, &add_mid));
    [
        (remove_atoms + r1, 10.0 * (r1 - r2).abs() + 1e-15),
        (add_atoms + a1, 10.0 * (a1 - a2).abs() + 1e-15),
    ]
}

/// PLDs of the Poisson-subsampled Laplace mechanism (sensitivity 1, scale b, rate q), add/remove.
///
/// With g(x) = (|x| − |x − 1|)/b ∈ [−1/b, 1/b]: remove has P = (1 − q)Lap(0, b) + qLap(1, b),
/// Q = Lap(0, b), L(x) = log(1 − q + q e^{g(x)}), increasing, with atoms at both ends (x ≤ 0 and
/// x ≥ 1); add is the reverse pair with L = −(the same log) under Lap(0, b).
pub fn poisson_laplace(
    scale: f64,
    q: f64,
    step: f64,
    estimate: Estimate,
) -> Result<PldPair, MathError> {
    if !(scale > 0.0 && scale.is_finite()) {
        return Err(MathError::OutOfDomain {
            name: "b",
            value: scale,
            expected: "a positive finite number",
        });
    }
    check_rate(q)?;
    let b = scale;
    let means = match estimate {
        Estimate::Optimistic => laplace_loss_means(b, q),
        Estimate::Pessimistic => [(f64::NAN, 0.0); 2],
    };
    let lap_cdf = |x: f64, mu: f64| {
        if x < mu {
            0.5 * exp((x - mu) / b)
        } else {
            1.0 - 0.5 * exp((mu - x) / b)
        }
    };
    let lap_sur = |x: f64, mu: f64| {
        if x < mu {
            1.0 - 0.5 * exp((x - mu) / b)
        } else {
            0.5 * exp((mu - x) / b)
        }
    };
    let ratio_ln = |g: f64| ln_1p(q * exp_m1(g));
    let (l_min, l_max) = (ratio_ln(-1.0 / b), ratio_ln(1.0 / b));
    // x with g(x) = mixture_exponent(v): x = (b·g + 1)/2 inside (0, 1).
    let x_of = |v: f64| ((b * mixture_exponent(v, q) + 1.0) / 2.0).clamp(0.0, 1.0);
    let mix_cdf = |x: f64| (1.0 - q) * lap_cdf(x, 0.0) + q * lap_cdf(x, 1.0);
    let mix_sur = |x: f64| (1.0 - q) * lap_sur(x, 0.0) + q * lap_sur(x, 1.0);
    let cdf_r = |l: f64| {
        if l < l_min {
            0.0
        } else if l >= l_max {
            1.0
        } else {
            mix_cdf(x_of(l))
        }
    };
    let sur_r = |l: f64| {
        if l < l_min {
            1.0
        } else if l >= l_max {
            0.0
        } else {
            mix_sur(x_of(l))
        }
    };
    // Under Q = Lap(0, b).
    let qcdf_r = |l: f64| {
        if l < l_min {
            0.0
        } else if l >= l_max {
            1.0
        } else {
            lap_cdf(x_of(l), 0.0)
        }
    };
    let qsur_r = |l: f64| {
        if l < l_min {
            1.0
        } else if l >= l_max {
            0.0
        } else {
            lap_sur(x_of(l), 0.0)
        }
    };
    let remove = Pld::from_law(
        &LossLaw {
            cdf: &cdf_r,
            survival: &sur_r,
            q_cdf: &qcdf_r,
            q_survival: &qsur_r,
            lo: l_min,
            hi: l_max,
            mean: means[0].0,
            mean_error: means[0].1,
        },
        step,
        estimate,
    )?;
    // Add: L = −ratio_ln(g(x)) under Lap(0, b); L ≤ l ⇔ g(x) ≥ mixture_exponent(−l).
    let cdf_a = |l: f64| {
        if l < -l_max {
            0.0
        } else if l >= -l_min {
            1.0
        } else {
            lap_sur(x_of(-l), 0.0)
        }
    };
    let sur_a = |l: f64| {
        if l < -l_max {
            1.0
        } else if l >= -l_min {
            0.0
        } else {
            lap_cdf(x_of(-l), 0.0)
        }
    };
    // Under Q = the mixture.
    let qcdf_a = |l: f64| {
        if l < -l_max {
            0.0
        } else if l >= -l_min {
            1.0
        } else {
            mix_sur(x_of(-l))
        }
    };
    let qsur_a = |l: f64| {
        if l < -l_max {
            1.0
        } else if l >= -l_min {
            0.0
        } else {
            mix_cdf(x_of(-l))
        }
    };
    let add = Pld::from_law(
        &LossLaw {
            cdf: &cdf_a,
            survival: &sur_a,
            q_cdf: &qcdf_a,
            q_survival: &qsur_a,
            lo: -l_max,
            hi: -l_min,
            mean: means[1].0,
            mean_error: means[1].1,
        },
        step,
        estimate,
    )?;
    Ok(PldPair { remove, add })
}

/// PLD of k-ary randomized response with parameter ε (k = 2: binary), changing one person's
/// value: loss +ε with probability e^ε/(e^ε + k − 1), −ε with 1/(e^ε + k − 1), 0 with the rest.
/// Symmetric, so both directions are the same. With a grid step dividing ε the discretisation is
/// exact, and composition matches the binomial computation.
pub fn randomized_response(
    epsilon: f64,
    k: u64,
    step: f64,
    estimate: Estimate,
) -> Result<PldPair, MathError> {
    crate::check_epsilon("ε", epsilon)?;
    if k < 2 {
        return Err(MathError::OutOfDomain {
            name: "k",
            value: k as f64,
            expected: "at least 2",
        });
    }
    let den = exp(epsilon) + (k - 1) as f64;
    let p = exp(epsilon) / den;
    let r = 1.0 / den;
    let atoms = [(epsilon, p), (-epsilon, r), (0.0, (k - 2) as f64 * r)];
    let pld = Pld::from_atoms(&atoms, step, estimate);
    Ok(PldPair {
        remove: pld.clone(),
        add: pld,
    })
}

/// A grid step near `target` that divides `epsilon` exactly (so randomized response is exact).
pub fn step_dividing(epsilon: f64, target: f64) -> f64 {
    if epsilon <= 0.0 {
        return target;
    }
    epsilon / (epsilon / target).ceil()
}

/// The noise of an additive mechanism with sensitivity 1, run on a Poisson sample (DP-SGD's
/// step: the clipped gradient sum has sensitivity 1 in units of the clipping norm).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Noise {
    /// Gaussian noise of standard deviation σ (the noise multiplier).
    Gaussian(f64),
    /// Laplace noise of scale b (sensitivity measured in L1).
    Laplace(f64),
}

impl Noise {
    /// The pair of PLDs of one step at rate q ([`poisson_gaussian`] or [`poisson_laplace`]).
    pub fn poisson(self, q: f64, step: f64, estimate: Estimate) -> Result<PldPair, MathError> {
        match self {
            Noise::Gaussian(s) => poisson_gaussian(s, q, step, estimate),
            Noise::Laplace(b) => poisson_laplace(b, q, step, estimate),
        }
    }

    /// ε at δ of `steps` compositions from the pessimistic PLD alone on the grid step h: a
    /// certified upper bound (add/remove), what a calibration evaluates.
    pub fn upper_epsilon(
        self,
        q: f64,
        steps: u64,
        delta: f64,
        step: f64,
    ) -> Result<f64, MathError> {
        self.poisson(q, step, Estimate::Pessimistic)?
            .self_compose(steps)?
            .epsilon_for_delta(delta)
    }

    /// The same kind of noise with another size.
    pub fn with_size(self, size: f64) -> Noise {
        match self {
            Noise::Gaussian(_) => Noise::Gaussian(size),
            Noise::Laplace(_) => Noise::Laplace(size),
        }
    }
}

/// Finest and coarsest grid steps [`step_for_budget`] returns.
pub const STEP_RANGE: (f64, f64) = (1e-6, 100.0);

/// A grid step h for which `steps` compositions of the Poisson-subsampled `noise` at rate q need
/// about `buckets` buckets: the composed window's width W in loss units is measured on a coarse
/// probe grid (refined while it holds fewer than 256 buckets), then h = W / buckets, clamped to
/// [`STEP_RANGE`]. The cost of a composition is then about that of an FFT of `buckets` points,
/// whatever σ, q and k are; the price is accuracy (the band between the two estimates narrows
/// linearly with h), which the band shows.
pub fn step_for_budget(noise: Noise, q: f64, steps: u64, buckets: usize) -> Result<f64, MathError> {
    let mut probe = 1e-2;
    let width = loop {
        let span = noise
            .poisson(q, probe, Estimate::Pessimistic)?
            .composed_span(steps);
        if span >= 256 || probe < 1e-7 {
            break span as f64 * probe;
        }
        probe /= 30.0;
    };
    Ok((width / buckets.max(16) as f64).clamp(STEP_RANGE.0, STEP_RANGE.1))
}

/// The composed PLDs of both roundings on one grid: the true δ(ε) and ε(δ) of the composition lie
/// between their values.
#[derive(Clone, Debug, PartialEq)]
pub struct Band {
    /// The grid step used.
    pub step: f64,
    /// Pessimistic (certified upper bound on δ and ε).
    pub upper: PldPair,
    /// Optimistic (lower bound).
    pub lower: PldPair,
}

impl Band {
    /// `steps` compositions of the Poisson-subsampled `noise` at rate q on the grid step h.
    pub fn new(noise: Noise, q: f64, steps: u64, step: f64) -> Result<Band, MathError> {
        let upper = noise
            .poisson(q, step, Estimate::Pessimistic)?
            .self_compose(steps)?;
        let lower = noise
            .poisson(q, step, Estimate::Optimistic)?
            .self_compose(steps)?;
        Ok(Band { step, upper, lower })
    }

    /// The same on the grid step that fits `buckets` ([`step_for_budget`]), but never finer than
    /// `min_step` (pass [`DEFAULT_STEP`] to stop at the usual precision when the budget would allow
    /// more, or `STEP_RANGE.0` to spend the whole budget).
    pub fn within(
        noise: Noise,
        q: f64,
        steps: u64,
        buckets: usize,
        min_step: f64,
    ) -> Result<Band, MathError> {
        let h = step_for_budget(noise, q, steps, buckets)?.max(min_step);
        Band::new(noise, q, steps, h)
    }

    /// ε at δ: (certified upper bound, lower bound).
    pub fn epsilon(&self, delta: f64) -> Result<(f64, f64), MathError> {
        Ok((
            self.upper.epsilon_for_delta(delta)?,
            self.lower.epsilon_for_delta(delta)?,
        ))
    }

    /// δ at ε: (certified upper bound, lower bound).
    pub fn delta(&self, epsilon: f64) -> (f64, f64) {
        (
            self.upper.delta_for_epsilon(epsilon),
            self.lower.delta_for_epsilon(epsilon),
        )
    }
}

/// ε at δ of `steps` compositions of the Poisson-subsampled Gaussian: (certified upper bound,
/// lower bound), on the grid step `step` (add/remove).
pub fn gaussian_epsilon(
    sigma: f64,
    q: f64,
    steps: u64,
    delta: f64,
    step: f64,
) -> Result<(f64, f64), MathError> {
    Band::new(Noise::Gaussian(sigma), q, steps, step)?.epsilon(delta)
}

/// Smallest noise multiplier σ found with `epsilon(σ)` ≤ `target` (ε decreasing in σ), by Brent's
/// method in log σ to relative accuracy 1e-5, between σ = 0.2 and 10⁴. `NoSolution` when even
/// 10⁴ is not enough, or when 0.2 already meets the target (the answer is below the range).
pub fn calibrate_sigma(
    epsilon: impl FnMut(f64) -> Result<f64, MathError>,
    target: f64,
) -> Result<f64, MathError> {
    calibrate_sigma_within(epsilon, target, 1e-5)
}

/// [`calibrate_sigma`] to relative accuracy `rel` in σ (the σ returned still meets the target;
/// it exceeds the smallest such σ by at most about that fraction).
pub fn calibrate_sigma_within(
    mut epsilon: impl FnMut(f64) -> Result<f64, MathError>,
    target: f64,
    rel: f64,
) -> Result<f64, MathError> {
    crate::check_epsilon("target ε", target)?;
    let rel = rel.clamp(1e-9, 0.1);
    let (min, max) = (0.2f64, 1e4f64);
    let mut lo = 1.0f64.min(max);
    let mut hi;
    if epsilon(lo)? <= target {
        // Walk down until the target is missed.
        hi = lo;
        loop {
            lo = (lo / 2.0).max(min);
            if epsilon(lo)? > target {
                break;
            }
            if lo <= min {
                return Err(MathError::NoSolution {
                    reason: format!(
                        "σ = {min} already meets ε = {target}; smaller σ is not searched"
                    ),
                });
            }
            hi = lo;
        }
    } else {
        loop {
            hi = (lo * 4.0).min(max);
            if epsilon(hi)? <= target {
                break;
            }
            if hi >= max {
                return Err(MathError::NoSolution {
                    reason: format!("even σ = {max} gives more than ε = {target}"),
                });
            }
            lo = hi;
        }
    }
    let mut err = None;
    let s = crate::root::brent(
        |ls| match epsilon(exp(ls)) {
            Ok(e) => e - target,
            Err(e) => {
                err = Some(e);
                f64::NAN
            }
        },
        ln(lo),
        ln(hi),
        crate::root::Tolerance {
            abs: rel,
            rel: 0.0,
            max_iterations: 60,
        },
    );
    if let Some(e) = err {
        return Err(e);
    }
    // Brent returns a point within the tolerance of the crossing; step to the side that meets the
    // target.
    let s = exp(s?);
    let s = if epsilon(s)? <= target {
        s
    } else {
        s * (1.0 + 2.0 * rel)
    };
    Ok(s)
}

/// Complex numbers as (re, im), for [`fft`].
#[cfg(test)]
type C = (f64, f64);

/// The transform of `x` in natural order (scaled by 1/n if `inverse`), from [`fft`]'s bit-reversed
/// one.
#[cfg(test)]
fn fft(x: &mut [C], inverse: bool) {
    let n = x.len();
    let bits = n.trailing_zeros();
    let rev = |p: usize| {
        if bits == 0 {
            p
        } else {
            p.reverse_bits() >> (usize::BITS - bits)
        }
    };
    let (mut re, mut im): (Vec<f64>, Vec<f64>) = x.iter().copied().unzip();
    if inverse {
        let (r, i): (Vec<f64>, Vec<f64>) = (0..n).map(|p| (re[rev(p)], im[rev(p)])).unzip();
        (re, im) = (r, i);
        fft::inverse_unscaled(&mut re, &mut im);
        for (v, (r, i)) in x.iter_mut().zip(re.iter().zip(&im)) {
            *v = (r / n as f64, i / n as f64);
        }
    } else {
        fft::forward(&mut re, &mut im);
        for (p, v) in x.iter_mut().enumerate() {
            *v = (re[rev(p)], im[rev(p)]);
        }
    }
}

#[cfg(test)]
// Tests compare against std's functions on purpose (an independent computation).
#[allow(clippy::disallowed_methods)]
mod tests {
    use super::*;

    #[test]
    fn fft_round_trip_and_convolution() {
        let mut x: Vec<C> = (0..8).map(|i| (i as f64, 0.0)).collect();
        let orig = x.clone();
        fft(&mut x, false);
        fft(&mut x, true);
        for (a, b) in x.iter().zip(&orig) {
            assert!((a.0 - b.0).abs() < 1e-12 && a.1.abs() < 1e-12);
        }
    }

    /// The packed, bit-reversed pipeline against a direct convolution: one part (in place), two
    /// parts (accumulated half spectra), both packing slots, and [`compose`] alone.
    #[test]
    fn compositions_match_direct_convolution() {
        let pld = |masses: Vec<f64>, offset: i64| Pld {
            step: 0.1,
            offset,
            masses,
            infinity: 0.0,
            slack: 0.0,
            estimate: Estimate::Pessimistic,
            drift: 0.0,
            spread: 0.0,
            fail: 0.0,
        };
        let a = pld(vec![0.1, 0.4, 0.3, 0.2], -1);
        let b = pld(vec![0.5, 0.0, 0.25, 0.125, 0.125], 2);
        let conv = |x: &[f64], y: &[f64]| -> Vec<f64> {
            let mut out = vec![0.0; x.len() + y.len() - 1];
            for (i, u) in x.iter().enumerate() {
                for (j, v) in y.iter().enumerate() {
                    out[i + j] += u * v;
                }
            }
            out
        };
        let power = |x: &Pld, k: u64| -> (i64, Vec<f64>) {
            let mut m = vec![1.0];
            for _ in 0..k {
                m = conv(&m, &x.masses);
            }
            (x.offset * k as i64, m)
        };
        let check = |got: &Pld, want: (i64, Vec<f64>)| {
            for (i, &m) in want.1.iter().enumerate() {
                let j = (want.0 + i as i64 - got.offset) as usize;
                let g = if j < got.masses.len() {
                    got.masses[j]
                } else {
                    0.0
                };
                assert!((g - m).abs() < 1e-13, "index {i}: {g} vs {m}");
            }
        };
        let (x, y) = compose_two(&[(&a, 7)], &[(&b, 5)]).unwrap();
        check(&x, power(&a, 7));
        check(&y, power(&b, 5));
        let (y, x) = compose_two(&[(&b, 5)], &[(&a, 7)]).unwrap();
        check(&x, power(&a, 7));
        check(&y, power(&b, 5));
        check(&compose(&[(&a, 7)]).unwrap(), power(&a, 7));
        let (pa, pb) = (power(&a, 3), power(&b, 4));
        let both = (pa.0 + pb.0, conv(&pa.1, &pb.1));
        check(&compose(&[(&a, 3), (&b, 4)]).unwrap(), both.clone());
        let (x, y) = compose_two(&[(&a, 3), (&b, 4)], &[(&b, 2)]).unwrap();
        check(&x, both);
        check(&y, power(&b, 2));
    }

    /// The shared table of the Poisson-subsampled Gaussian gives the same bits as discretising each
    /// direction's laws on their own (the closures of the formulas in `poisson_gaussian`'s doc,
    /// through [`Pld::from_law`]), both roundings, q = 1 (no floor) included.
    #[test]
    fn gaussian_table_matches_the_laws() {
        for (sigma, q, step) in [
            (0.8, 0.1, 1e-3),
            (2.0, 0.01, 1e-3),
            (1.0, 1.0, 1e-2),
            (5.0, 0.001, 1e-4),
            (0.5, 0.9, 0.05),
        ] {
            let x_of = |v: f64| sigma * sigma * mixture_exponent(v, q) + 0.5;
            let floor = ln_1p(-q);
            let mix_lo =
                |x: f64| (1.0 - q) * normal_cdf(x / sigma) + q * normal_cdf((x - 1.0) / sigma);
            let mix_up =
                |x: f64| (1.0 - q) * normal_cdf(-x / sigma) + q * normal_cdf((1.0 - x) / sigma);
            let at = |v: f64, below: f64, f: &dyn Fn(f64) -> f64| {
                if v <= floor {
                    below
                } else {
                    f(x_of(v))
                }
            };
            let cdf_r = |l: f64| at(l, 0.0, &mix_lo);
            let sur_r = |l: f64| at(l, 1.0, &mix_up);
            let qcdf_r = |l: f64| at(l, 0.0, &|x| normal_cdf(x / sigma));
            let qsur_r = |l: f64| at(l, 1.0, &|x| normal_cdf(-x / sigma));
            let cdf_a = |l: f64| at(-l, 1.0, &|x| normal_cdf(-x / sigma));
            let sur_a = |l: f64| at(-l, 0.0, &|x| normal_cdf(x / sigma));
            let qcdf_a = |l: f64| at(-l, 1.0, &mix_up);
            let qsur_a = |l: f64| at(-l, 0.0, &mix_lo);
            for estimate in [Estimate::Pessimistic, Estimate::Optimistic] {
                let means = match estimate {
                    Estimate::Optimistic => gaussian_loss_means(sigma, q),
                    Estimate::Pessimistic => [(f64::NAN, 0.0); 2],
                };
                let law = |cdf, survival, q_cdf, q_survival, lo, hi, (mean, mean_error)| LossLaw {
                    cdf,
                    survival,
                    q_cdf,
                    q_survival,
                    lo,
                    hi,
                    mean,
                    mean_error,
                };
                let remove = law(
                    &cdf_r,
                    &sur_r,
                    &qcdf_r,
                    &qsur_r,
                    floor,
                    f64::INFINITY,
                    means[0],
                );
                let add = law(
                    &cdf_a,
                    &sur_a,
                    &qcdf_a,
                    &qsur_a,
                    f64::NEG_INFINITY,
                    -floor,
                    means[1],
                );
                let direct = (
                    Pld::from_law(&remove, step, estimate).unwrap(),
                    Pld::from_law(&add, step, estimate).unwrap(),
                );
                let shared = poisson_gaussian(sigma, q, step, estimate).unwrap();
                for (a, b) in [(&shared.remove, &direct.0), (&shared.add, &direct.1)] {
                    assert_eq!((a.offset, a.masses.len()), (b.offset, b.masses.len()));
                    let bits = |p: &Pld| p.masses.iter().map(|m| m.to_bits()).collect::<Vec<_>>();
                    assert_eq!(bits(a), bits(b), "σ = {sigma}, q = {q}, {estimate:?}");
                    assert_eq!(a.infinity.to_bits(), b.infinity.to_bits());
                    assert_eq!(a.drift.to_bits(), b.drift.to_bits());
                }
            }
        }
    }

    /// Moving the FFT's window to the front: every rotation and length against `rotate_left`
    /// (each branch: no wrap, the tail moved up first, either piece set aside, the fallback).
    #[test]
    fn window_to_front_matches_rotation() {
        let n = 64;
        let v: Vec<f64> = (0..n)
            .map(|i| if i % 5 == 0 { -(i as f64) } else { i as f64 })
            .collect();
        for rot in 0..n {
            for span in 1..=n {
                let mut want = v.clone();
                want.rotate_left(rot);
                want.truncate(span);
                for m in want.iter_mut() {
                    *m = m.max(0.0);
                }
                let mut got = v.clone();
                window_to_front(&mut got, rot, span);
                assert_eq!(&got[..span], &want[..], "rot {rot}, span {span}");
            }
        }
    }
}
