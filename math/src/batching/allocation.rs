//! Balls-in-bins batches ("random allocation"): in every epoch each example is placed in one of the
//! T steps, uniformly at random and independently of the other examples and of other epochs, so
//! batch sizes vary little around B = N/T while each example is used exactly once per epoch.
//!
//! **The pair.** Under zero-out (one example's clipped gradient replaced by 0, N fixed; the same
//! pair arises for adding or removing it, since the other examples' steps do not move), with
//! scalar gradients that are 0 except the differing example's 1, one epoch releases the T noisy
//! step sums x ∈ ℝ^T:
//! P = (1/T) Σ_t N(e_t, σ²I_T) (with the example) and Q = N(0, σ²I_T) (without).
//! Chua, Ghazi, Harrison, Kamath, Kumar, Leeman, Manurangsi, Sinha & Zhang ("Balls-and-bins
//! sampling for DP-SGD", AISTATS 2025) show that this pair dominates the sampler for Gaussian noise,
//! and it is realised by the datasets just described, so its PLD is the sampler's exact PLD; E
//! epochs draw independent allocations, so their PLDs compose. Feldman & Shenfeld ("Privacy
//! amplification by random allocation", 2025, and the accounting of arXiv 2602.17284) analyse the
//! same pair.
//!
//! **The loss.** With V_i = exp(x_i/σ² − 1/(2σ²)), dP/dQ(x) = (1/T) Σ_i V_i. Remove direction
//! (X ∼ P; by symmetry the example is in step 1): L = log((Y + Σ_{i=2}^T Z_i)/T), where
//! log Y ∼ N(1/(2σ²), 1/σ²) and log Z_i ∼ N(−1/(2σ²), 1/σ²), all independent. Add direction
//! (X ∼ Q): L = −log((Σ_{i=1}^T Z_i)/T). At T = 1 both are the Gaussian mechanism's loss.
//!
//! **The computation** (our own scheme, in the spirit of the geometric-grid convolution of
//! Feldman & Shenfeld 2602.17284): the law of each sum of positive terms is kept on a geometric
//! grid V ∈ {e^{kg + s}}; the sum of two independent terms takes each pair of grid values to the
//! grid point above (or below) their sum, and n terms are summed by repeated doubling. Rounding
//! every sum up makes the remove direction's loss larger for every outcome, so δ from it is an
//! upper bound, and rounding down gives a lower bound (for the add direction the loss is −log of
//! the sum, so the roles swap). Only the law of L under P enters δ(ε) = E_P[(1 − e^{ε−L})₊] and its
//! compositions, and a loss that is larger outcome by outcome gives a larger δ for any number of
//! epochs, so the two roundings bracket the truth. Each doubling can move the log-sum by up to one
//! grid step g, so the bracket's width grows like g·log₂T per epoch.
//!
//! Pairs of grid values that are d steps apart sum to e^{mg}(1 + e^{−dg}) (m the larger index), so
//! their rounded index is m + r(d) with r depending on d only; grouping the d with equal r turns
//! the pair sum into range sums of prefix sums, O(n·ln 2/g) per sum of two laws instead of O(n²).
//! Pairs so far apart that 1 + e^{−dg} is below e^{g/64} are not rounded at all: instead the whole
//! grid moves by g/64 (the shift s), which keeps a sum dominated by one large term from paying a
//! full grid step at every doubling.

use super::check_run;
use crate::pld::{Estimate, Pld, PldPair};
use crate::special::{exp, ln, ln_1p, normal_cdf};
use crate::MathError;

/// Default log-grid step of the sums: the bracket of one epoch is about g·log₂T wide in the loss.
pub const DEFAULT_LOG_STEP: f64 = 1e-3;

/// Mass of a sum's law below or above its kept range that each doubling may move to the range's
/// end (towards the side the rounding allows) or to 0 / +∞.
const TRIM: f64 = 1e-20;

/// Which way sums are rounded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Round {
    Up,
    Down,
}

/// The law of a positive random variable V: mass `masses[i]` at V = exp((offset + i)·g + shift),
/// `zero` at V = 0, `inf` at V = +∞.
#[derive(Clone, Debug)]
struct Law {
    offset: i64,
    shift: f64,
    masses: Vec<f64>,
    zero: f64,
    inf: f64,
}

/// The grid and its rounding rule: g, the direction, the shift c that each sum adds (+c up, −c
/// down), and the groups (r, d_lo, d_hi) of index distances d with the same index increment r.
struct Summer {
    g: f64,
    round: Round,
    c: f64,
    groups: Vec<(i64, i64, i64)>,
}

impl Summer {
    fn new(g: f64, round: Round) -> Summer {
        let c = g / 64.0;
        // x(d) = log(1 + e^{−dg}): a pair d apart sums to e^{mg + x(d)}.
        let r = |d: i64| -> i64 {
            let x = ln_1p(exp(-(d as f64) * g));
            let v = match round {
                // e^{mg + x} ≤ e^{(m + r)g + c}: r ≥ (x − c)/g.
                Round::Up => ((x - c) / g + 1e-9).ceil(),
                // e^{mg + x} ≥ e^{(m + r)g − c}: r ≤ (x + c)/g.
                Round::Down => ((x + c) / g - 1e-9).floor(),
            };
            (v as i64).max(0)
        };
        let mut groups = Vec::new();
        let mut d = 0i64;
        loop {
            let rd = r(d);
            if rd == 0 {
                groups.push((0, d, i64::MAX));
                break;
            }
            let start = d;
            while r(d + 1) == rd {
                d += 1;
            }
            groups.push((rd, start, d));
            d += 1;
        }
        Summer {
            g,
            round,
            c,
            groups,
        }
    }

    /// The law of log V ∼ N(mu, sd²) on the grid: cells of width g rounded up (or down); below
    /// mu − 7.5·sd (up) or mu − 12·sd (down) the mass goes to the lowest point (up) or to 0 (down),
    /// above mu + 9·sd to +∞ (up) or to the highest point (down).
    fn lognormal(&self, mu: f64, sd: f64) -> Law {
        let g = self.g;
        let below = match self.round {
            Round::Up => 7.5,
            Round::Down => 12.0,
        };
        let lo = ((mu - below * sd) / g).floor() as i64;
        let hi = ((mu + 9.0 * sd) / g).ceil() as i64;
        let z = |k: i64| (k as f64 * g - mu) / sd;
        // P(z1 < Z ≤ z2) from the tail that keeps it accurate.
        let cell = |z1: f64, z2: f64| {
            if z2 <= 0.0 {
                (normal_cdf(z2) - normal_cdf(z1)).max(0.0)
            } else {
                (normal_cdf(-z1) - normal_cdf(-z2)).max(0.0)
            }
        };
        let n = (hi - lo + 1) as usize;
        let mut masses = vec![0.0; n];
        let (mut zero, mut inf) = (0.0, 0.0);
        match self.round {
            Round::Up => {
                masses[0] = normal_cdf(z(lo));
                for (i, m) in masses.iter_mut().enumerate().skip(1) {
                    let k = lo + i as i64;
                    *m = cell(z(k - 1), z(k));
                }
                inf = normal_cdf(-z(hi));
            }
            Round::Down => {
                zero = normal_cdf(z(lo));
                for (i, m) in masses.iter_mut().enumerate().take(n - 1) {
                    let k = lo + i as i64;
                    *m = cell(z(k), z(k + 1));
                }
                masses[n - 1] = normal_cdf(-z(hi));
            }
        }
        Law {
            offset: lo,
            shift: 0.0,
            masses,
            zero,
            inf,
        }
    }

    /// The law of A + B (independent), rounded this summer's way.
    fn add(&self, a: &Law, b: &Law) -> Law {
        let shift = match self.round {
            Round::Up => a.shift.max(b.shift) + self.c,
            Round::Down => a.shift.min(b.shift) - self.c,
        };
        let r0 = self.groups[0].0;
        let a_hi = a.offset + a.masses.len() as i64 - 1;
        let b_hi = b.offset + b.masses.len() as i64 - 1;
        let lo = a.offset.min(b.offset);
        let hi = a_hi.max(b_hi) + r0;
        let mut out = vec![0.0; (hi - lo + 1) as usize];
        // Pairs with the larger index in `x` (at distance d ≥ d_min) against `y`: for each group
        // (r, d_lo, d_hi), out[k + r] += x[k]·Σ_{j = k − d_hi}^{k − d_lo} y[j], the range sums read
        // off padded running sums (a slice operation per group, which the compiler vectorises).
        let d_fin = self.groups.last().map_or(0, |g| g.1);
        let mut pairs = |x: &Law, y: &Law, d_min: i64| {
            let nx = x.masses.len() as i64;
            // y's running sums on indices (relative to y.offset) from first to last, both
            // inclusive: pre[i] = Σ_{j < i} y[j], suf[i] = Σ_{j ≥ i} y[j].
            // (All of y is inside: the last group's sums start at y's first point.)
            let first = (x.offset - y.offset - d_fin - 1).min(0);
            let last = (x.offset + nx - y.offset + 1).max(y.masses.len() as i64);
            let (pre, suf) = running_sums(&y.masses, first, last);
            let total = suf[0];
            let half = 0.5 * total.hi;
            let at = |i: i64| (i - first) as usize;
            for &(r, d_lo, d_hi) in &self.groups {
                let d_lo = d_lo.max(d_min);
                if d_lo > d_hi {
                    continue;
                }
                // For x index k (position i = k − x.offset): the sum over y[k − d_hi ..= k − d_lo]
                // is pre[k − d_lo + 1 − y.offset] − pre[k − d_hi − y.offset].
                let top = at(x.offset - d_lo + 1 - y.offset);
                let o = (x.offset + r - lo) as usize;
                let dst = &mut out[o..o + nx as usize];
                if d_hi == i64::MAX {
                    // The sum over all of y below k − d_lo.
                    for ((d, &m), (&p, &s)) in dst
                        .iter_mut()
                        .zip(&x.masses)
                        .zip(pre[top..].iter().zip(&suf[top..]))
                    {
                        let v = if p.hi <= half {
                            p.minus(Acc::default())
                        } else {
                            total.minus(s)
                        };
                        *d += m * v.max(0.0);
                    }
                } else {
                    let bot = at(x.offset - d_hi - y.offset);
                    for ((d, &m), ((&p1, &p0), (&s1, &s0))) in dst.iter_mut().zip(&x.masses).zip(
                        pre[top..]
                            .iter()
                            .zip(&pre[bot..])
                            .zip(suf[top..].iter().zip(&suf[bot..])),
                    ) {
                        let v = if p1.hi <= half {
                            p1.minus(p0)
                        } else {
                            s0.minus(s1)
                        };
                        *d += m * v.max(0.0);
                    }
                }
            }
        };
        pairs(a, b, 0);
        pairs(b, a, 1);
        // A term at 0 (only when rounding down, and with mass below Φ(−12) ≈ 2e-33 per term):
        // the sum is rounded down to 0 as well, which keeps the law in one piece (keeping the
        // other term would leave copies of it at every partial count's location).
        let a_fin = 1.0 - a.zero - a.inf;
        let b_fin = 1.0 - b.zero - b.inf;
        let law = Law {
            offset: lo,
            shift,
            masses: out,
            zero: a.zero * b.zero + a.zero * b_fin + b.zero * a_fin,
            inf: a.inf + b.inf - a.inf * b.inf,
        };
        self.trim(law)
    }

    /// Drop negligible ends: at most [`TRIM`] of mass from each end moves to the kept range's end
    /// or to 0 / +∞, whichever is on the side of the rounding.
    fn trim(&self, mut law: Law) -> Law {
        let n = law.masses.len();
        let (mut first, mut below) = (0usize, 0.0);
        while first + 1 < n && below + law.masses[first] <= TRIM {
            below += law.masses[first];
            first += 1;
        }
        let (mut last, mut above) = (n - 1, 0.0);
        while last > first && above + law.masses[last] <= TRIM {
            above += law.masses[last];
            last -= 1;
        }
        let mut masses = law.masses[first..=last].to_vec();
        match self.round {
            Round::Up => {
                masses[0] += below;
                law.inf += above;
            }
            Round::Down => {
                law.zero += below;
                let k = masses.len() - 1;
                masses[k] += above;
            }
        }
        law.offset += first as i64;
        law.masses = masses;
        law
    }

    /// The law of the sum of `n` ≥ 1 independent copies, by doubling.
    fn sum_of(&self, x: &Law, n: u64) -> Law {
        let mut acc: Option<Law> = None;
        let mut base = x.clone();
        let mut k = n;
        loop {
            if k & 1 == 1 {
                acc = Some(match acc {
                    None => base.clone(),
                    Some(a) => self.add(&a, &base),
                });
            }
            k >>= 1;
            if k == 0 {
                break;
            }
            base = self.add(&base, &base);
        }
        acc.unwrap_or(base)
    }
}

/// A running sum carried in two parts (value and rounding error, Knuth's TwoSum), so that the
/// difference of two of them is accurate to the last bit of the difference itself.
#[derive(Clone, Copy, Default)]
struct Acc {
    hi: f64,
    lo: f64,
}

impl Acc {
    fn add(self, x: f64) -> Acc {
        let s = self.hi + x;
        let bb = s - self.hi;
        let err = (self.hi - (s - bb)) + (x - bb);
        Acc {
            hi: s,
            lo: self.lo + err,
        }
    }

    /// self − other.
    #[inline]
    fn minus(self, other: Acc) -> f64 {
        (self.hi - other.hi) + (self.lo - other.lo)
    }
}

/// Running sums of `m` (total mass T) on the indices `first..=last` (indices outside m's range
/// hold no mass): pre[i] = Σ_{j < i} m[j] and suf[i] = Σ_{j ≥ i} m[j], each accumulated from its own
/// end (compensated) so that both are accurate where they are small. A range sum is the difference
/// of whichever of the two is small there (both give the same value in exact arithmetic).
fn running_sums(m: &[f64], first: i64, last: i64) -> (Vec<Acc>, Vec<Acc>) {
    let len = (last - first + 1).max(0) as usize;
    let mut pre = vec![Acc::default(); len];
    let mut suf = vec![Acc::default(); len];
    let get = |i: i64| -> f64 {
        if i >= 0 && (i as usize) < m.len() {
            m[i as usize]
        } else {
            0.0
        }
    };
    let mut acc = Acc::default();
    for (p, i) in pre.iter_mut().zip(first..) {
        *p = acc;
        acc = acc.add(get(i));
    }
    let mut acc = Acc::default();
    for (s, i) in suf.iter_mut().rev().zip((first..=last).rev()) {
        acc = acc.add(get(i));
        *s = acc;
    }
    (pre, suf)
}

/// Loss atoms (loss, P-mass) of log(V/T) (`sign` = 1) or −log(V/T) (`sign` = −1) for V with law
/// `law`; V = 0 or ∞ gives ±∞.
fn atoms(law: &Law, g: f64, t: u64, sign: f64) -> Vec<(f64, f64)> {
    let ln_t = ln(t as f64);
    let mut v: Vec<(f64, f64)> = law
        .masses
        .iter()
        .enumerate()
        .filter(|(_, &m)| m > 0.0)
        .map(|(i, &m)| {
            let lv = (law.offset + i as i64) as f64 * g + law.shift;
            (sign * (lv - ln_t), m)
        })
        .collect();
    v.push((sign * f64::INFINITY, law.inf));
    v.push((-sign * f64::INFINITY, law.zero));
    v
}

/// Work units (grid points × rounding groups × sums) of one [`allocation_pld`] call, in units of
/// one multiply-add: about 16.5/(σg) points, ln 2/g groups, 2·⌈log₂T⌉ + 2 sums, two directions.
pub fn allocation_work(sigma: f64, steps_per_epoch: u64, log_step: f64) -> f64 {
    let points = 16.5 / (sigma * log_step);
    let groups = 0.7 / log_step;
    // ⌈log₂T⌉ from the bits of T − 1.
    let levels = (64 - (steps_per_epoch.max(2) - 1).leading_zeros()) as f64;
    let sums = 2.0 * levels + 2.0;
    2.0 * points * groups * sums
}

/// Work above which [`allocation_pld`] refuses (tens of seconds natively).
pub const MAX_ALLOCATION_WORK: f64 = 2e10;

/// The finest log-grid step not below `requested` whose [`allocation_work`] stays within `budget`
/// (the step grows as 1/√work), capped at 0.05.
pub fn affordable_log_step(sigma: f64, steps_per_epoch: u64, requested: f64, budget: f64) -> f64 {
    let w = allocation_work(sigma, steps_per_epoch, requested);
    if w <= budget {
        return requested;
    }
    (requested * (w / budget).sqrt() * 1.0001).min(0.05)
}

fn check_grid(steps_per_epoch: u64, log_step: f64) -> Result<(), MathError> {
    if steps_per_epoch == 0 || steps_per_epoch > 100_000_000 {
        return Err(MathError::OutOfDomain {
            name: "steps per epoch",
            value: steps_per_epoch as f64,
            expected: "between 1 and 10⁸",
        });
    }
    if !(1e-5..=0.1).contains(&log_step) {
        return Err(MathError::OutOfDomain {
            name: "log-grid step",
            value: log_step,
            expected: "between 1e-5 and 0.1",
        });
    }
    Ok(())
}

/// The PLD of one epoch of balls-in-bins batching with T = `steps_per_epoch` steps and noise
/// multiplier σ (zero-out or add/remove, sensitivity 1): both directions, on a loss grid of step
/// `log_step`/4. Pessimistic: δ from it (and from its compositions) is an upper bound on the
/// sampler's δ; optimistic: a lower bound. See the module notes for the pair (Chua et al. 2025)
/// and the computation; the two bracket the exact value, about g·log₂T apart per epoch
/// (g = `log_step`). Domain: σ > 0, 1 ≤ T ≤ 10⁸, g ∈ [1e-5, 0.1]. Cost O(n·log T·ln 2/g) with
/// n ≈ 16.5/(σg) grid points.
pub fn allocation_pld(
    sigma: f64,
    steps_per_epoch: u64,
    log_step: f64,
    estimate: Estimate,
) -> Result<PldPair, MathError> {
    Ok(allocation_atoms(sigma, steps_per_epoch, log_step, estimate)?.pld(log_step / 4.0))
}

/// The loss atoms behind [`allocation_pld`], before they are put on a loss grid: the expensive
/// part (the sums on the geometric grid), so that one epoch can be placed on several loss grids
/// ([`AllocationAtoms::pld`]), e.g. the grid of a run it is composed into. Same domain.
pub fn allocation_atoms(
    sigma: f64,
    steps_per_epoch: u64,
    log_step: f64,
    estimate: Estimate,
) -> Result<AllocationAtoms, MathError> {
    check_run(sigma, 1)?;
    check_grid(steps_per_epoch, log_step)?;
    let work = allocation_work(sigma, steps_per_epoch, log_step);
    if work > MAX_ALLOCATION_WORK {
        return Err(MathError::OutOfDomain {
            name: "σ",
            value: sigma,
            expected: "large enough for this log-grid step (the sums would take too long; use a coarser step)",
        });
    }
    let t = steps_per_epoch;
    let a = 0.5 / (sigma * sigma);
    let sd = 1.0 / sigma;
    // Upper bound: remove sums rounded up, add sums rounded down; lower bound the reverse.
    let (remove_round, add_round) = match estimate {
        Estimate::Pessimistic => (Round::Up, Round::Down),
        Estimate::Optimistic => (Round::Down, Round::Up),
    };
    let direction = |round: Round, remove: bool| -> Vec<(f64, f64)> {
        let s = Summer::new(log_step, round);
        let z = s.lognormal(-a, sd);
        let sum = if remove {
            let y = s.lognormal(a, sd);
            if t == 1 {
                y
            } else {
                s.add(&y, &s.sum_of(&z, t - 1))
            }
        } else {
            s.sum_of(&z, t)
        };
        let sign = if remove { 1.0 } else { -1.0 };
        atoms(&sum, log_step, t, sign)
    };
    Ok(AllocationAtoms {
        remove: direction(remove_round, true),
        add: direction(add_round, false),
        estimate,
    })
}

/// One epoch of balls-in-bins as loss atoms (loss, P-mass) of both directions, rounded on the
/// geometric grid the way `estimate` says ([`allocation_atoms`]).
#[derive(Clone, Debug, PartialEq)]
pub struct AllocationAtoms {
    /// P = with the example's gradient, Q = zeroed.
    pub remove: Vec<(f64, f64)>,
    /// The reverse.
    pub add: Vec<(f64, f64)>,
    /// How the sums were rounded (and so how the atoms go on a loss grid).
    pub estimate: Estimate,
}

impl AllocationAtoms {
    /// The PLDs of both directions on the loss grid of step `step` (> 0), rounded the same way
    /// as the atoms (pessimistic: connect the dots; optimistic: down). The atoms are already
    /// rounded, so the optimistic PLD gives up the Hoeffding tightening of its lower bound.
    pub fn pld(&self, step: f64) -> PldPair {
        PldPair {
            remove: Pld::from_loss_atoms(&self.remove, step, self.estimate, false),
            add: Pld::from_loss_atoms(&self.add, step, self.estimate, false),
        }
    }
}

/// The bracket (lower, upper) of ε at δ for E epochs of balls-in-bins batching (T steps per
/// epoch, noise multiplier σ, sensitivity 1 under zero-out or add/remove): the optimistic and the
/// pessimistic [`allocation_pld`] composed E times. The upper value is certified; the exact ε lies
/// in between. δ ∈ [1e-11, 1).
pub fn allocation_epsilon(
    sigma: f64,
    steps_per_epoch: u64,
    epochs: u64,
    delta: f64,
    log_step: f64,
) -> Result<(f64, f64), MathError> {
    check_run(sigma, epochs)?;
    let mut out = [0.0; 2];
    for (i, est) in [Estimate::Optimistic, Estimate::Pessimistic]
        .into_iter()
        .enumerate()
    {
        let one = allocation_pld(sigma, steps_per_epoch, log_step, est)?;
        let all = if epochs == 1 {
            one
        } else {
            one.self_compose(epochs)?
        };
        out[i] = all.epsilon_for_delta(delta)?;
    }
    Ok((out[0], out[1]))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The grid law of one lognormal keeps all its mass, and its mean is within the rounding of
    /// the true mean e^{mu + sd²/2}.
    #[test]
    fn lognormal_keeps_mass_and_brackets_the_mean() {
        let (mu, sd) = (-0.5, 1.0);
        let truth = exp(mu + 0.5 * sd * sd);
        for (round, sign) in [(Round::Up, 1.0), (Round::Down, -1.0)] {
            let s = Summer::new(1e-3, round);
            let l = s.lognormal(mu, sd);
            let total: f64 = l.masses.iter().sum::<f64>() + l.zero + l.inf;
            assert!((total - 1.0).abs() < 1e-13, "{total}");
            let mean: f64 = l
                .masses
                .iter()
                .enumerate()
                .map(|(i, m)| m * exp((l.offset + i as i64) as f64 * 1e-3))
                .sum();
            assert!(sign * (mean - truth) >= 0.0, "{round:?}: {mean} vs {truth}");
            assert!((mean - truth).abs() < 2e-3 * truth, "{mean} vs {truth}");
        }
    }

    /// Sums: the mean of the sum of n lognormals is n times the mean, within the rounding, and
    /// rounding up gives the larger sum.
    #[test]
    fn sums_bracket_the_mean() {
        let (mu, sd) = (-0.5, 1.0);
        let truth = exp(mu + 0.5 * sd * sd);
        for n in [2u64, 3, 10, 37] {
            let mut means = [0.0; 2];
            for (j, round) in [Round::Up, Round::Down].into_iter().enumerate() {
                let s = Summer::new(1e-3, round);
                let l = s.sum_of(&s.lognormal(mu, sd), n);
                let total: f64 = l.masses.iter().sum::<f64>() + l.zero + l.inf;
                assert!((total - 1.0).abs() < 1e-12, "n {n}: {total}");
                means[j] = l
                    .masses
                    .iter()
                    .enumerate()
                    .map(|(i, m)| m * exp((l.offset + i as i64) as f64 * 1e-3 + l.shift))
                    .sum();
            }
            let nt = n as f64 * truth;
            assert!(means[0] >= nt && means[1] <= nt, "n {n}: {means:?} vs {nt}");
            assert!(means[0] - means[1] < 0.02 * nt, "n {n}: {means:?}");
        }
    }

    #[test]
    fn groups_cover_every_distance_once() {
        for round in [Round::Up, Round::Down] {
            let s = Summer::new(1e-2, round);
            let mut next = 0;
            for &(r, lo, hi) in &s.groups {
                assert_eq!(lo, next);
                assert!(r >= 0 && hi >= lo);
                next = hi.saturating_add(1);
            }
            assert_eq!(s.groups.last().unwrap().2, i64::MAX);
        }
    }

    /// The grouped sum equals the plain pairwise one: every pair (i, j) of grid points put at
    /// max(i, j) + r(|i − j|).
    #[test]
    fn grouped_sum_is_the_pairwise_sum() {
        for round in [Round::Up, Round::Down] {
            let s = Summer::new(0.02, round);
            let a = s.lognormal(-0.3, 0.8);
            let b = s.sum_of(&s.lognormal(0.4, 0.6), 3);
            let fast = s.add(&a, &b);
            let r = |d: i64| s.groups.iter().find(|g| g.1 <= d && d <= g.2).unwrap().0;
            let mut slow = std::collections::BTreeMap::<i64, f64>::new();
            for (i, &x) in a.masses.iter().enumerate() {
                for (j, &y) in b.masses.iter().enumerate() {
                    let (ki, kj) = (a.offset + i as i64, b.offset + j as i64);
                    *slow.entry(ki.max(kj) + r((ki - kj).abs())).or_default() += x * y;
                }
            }
            let zero = a.zero * b.zero
                + a.zero * b.masses.iter().sum::<f64>()
                + b.zero * a.masses.iter().sum::<f64>();
            assert!((fast.zero - zero).abs() <= 1e-12 * zero + 2.0 * TRIM);
            let mut moved = 0.0;
            for (&k, &m) in &slow {
                let i = k - fast.offset;
                let got = if i >= 0 && (i as usize) < fast.masses.len() {
                    fast.masses[i as usize]
                } else {
                    moved += m;
                    0.0
                };
                if i > 0 && (i as usize) < fast.masses.len() - 1 {
                    assert!(
                        (got - m).abs() <= 1e-18 + 1e-13 * m,
                        "{round:?} k {k}: {got} vs {m}"
                    );
                }
            }
            assert!(moved <= 2.0 * TRIM, "{moved}");
        }
    }
}
