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
//! (X ∼ Q): L = −log((Σ_{i=1}^T Z_i)/T). At T = 1 both are the Gaussian mechanism's loss. Since
//! Σ_i V_i/T is the likelihood ratio, the remove direction's law is the add direction's sum
//! S = Σ_{i=1}^T Z_i tilted by S/T, so one law (of S under Q) gives both.
//!
//! **The computation** (our own scheme, in the spirit of the geometric-grid convolution of
//! Feldman & Shenfeld 2602.17284). Write S_n = Σ_{i ≤ n} V_i. The n-step pair (P_n, Q_n) has
//! likelihood ratio S_n/n, so the law of S_n under Q describes it whole: an outcome with S_n = s
//! and Q-mass m has P-mass m·s/n. The (a + b)-step pair is built from the a- and b-step pairs:
//! Q_{a+b} = Q_a ⊗ Q_b and S_{a+b} = S_a + S_b, independent under Q. We keep each law on a
//! geometric grid S ∈ {e^{kg}} and build S_T by repeated doubling, in two ways:
//! - **upper** (a pair that is more informative than the true one): the sum of two grid atoms,
//!   e^{mg}(1 + e^{−dg}), is *split* between the grid points just below and above it so that both
//!   its Q-mass and its P-mass are kept. Merging the two halves back is a post-processing, so the
//!   split pair dominates the unsplit one (Blackwell); and if (P′_a, Q′_a) and (P′_b, Q′_b)
//!   dominate the a- and b-step pairs through channels K_a and K_b, then K_a ⊗ K_b takes the
//!   (a + b)-pair built from the primes to the true one. By induction the final pair dominates
//!   the exact T-step pair, so every δ(ε), in both directions and after any number of epochs, is
//!   at least the true one.
//! - **lower** (less informative): the atoms whose sums fall near one grid point are *merged*
//!   into one atom (Q-masses and P-masses added), a post-processing of the pair built so far, so
//!   every δ(ε) is at most the true one. Each merged atom keeps its exact likelihood ratio (its
//!   P-mass over its Q-mass), so the grid only decides what is merged.
//!
//! Splitting and merging lose only where an atom straddles the threshold e^ε, so the bracket
//! narrows like g² (rounding each sum to a grid point, as this module once did, moves the loss by
//! up to g per doubling and narrows only like g). The one-step pair is discretised the same way:
//! each cell of the lognormal's Q-law split between its ends (upper) or made one atom (lower).
//!
//! Pairs of grid points d steps apart sum to e^{mg}(1 + e^{−dg}), so where the sum lands depends
//! on d only, and the share sent to the point above is linear in e^{−dg}:
//! (1 + e^{−dg} − e^{(r−1)g})/(e^{rg} − e^{(r−1)g}). Grouping the d with equal landing point r turns
//! the pair sum into range sums of two running sums (of the Q-masses and of the Q-masses times
//! e^{jg}): O(n·ln 2/g) per sum of two laws instead of O(n²). The far pairs (d large) land between
//! m and m + 1 and send the share e^{−dg}/(e^g − 1) up, with no rounding at all.

use super::check_run;
use crate::pld::{Estimate, Pld, PldPair};
use crate::special::{exp, exp_m1, ln, ln_1p, normal_cdf};
use crate::MathError;

mod doubling;
use doubling::*;

/// Loss atoms (loss, mass).
type Atoms = Vec<(f64, f64)>;

/// Default log-grid step g of the sums. The discretisation errs at second order in g (atoms are
/// split or merged, never moved), so this step already gives a bracket far narrower than the
/// ε's other uncertainties.
pub const DEFAULT_LOG_STEP: f64 = 4e-3;

/// Mass (under Q, and under P) of a sum's law at each end that each doubling may fold into the
/// kept range's end (or into the atoms at S = 0 and S = ∞ when bounding from above).
const TRIM: f64 = 1e-20;

/// Which side of the exact pair a discretised pair lies on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    /// More informative than the truth: every atom split between the two grid points around it.
    Upper,
    /// Less informative: atoms merged into cells.
    Lower,
}

/// A discretised n-step pair, described by the law under Q of the sum S = Σ V_i (the pair's
/// likelihood ratio is S/n): atom k has Q-mass `q[k]` and weight `w[k]` = Q-mass × S, so that its
/// P-mass is `w[k]/n`. Upper pairs keep atom k exactly at S = e^{(offset + k)g}, so that
/// w[k] = q[k]·e^{(offset + k)g}; they may also hold `zero` (Q-mass at S = 0, no P-mass) and `inf`
/// (weight at S = ∞, no Q-mass). Lower pairs hold cells labelled by k whose atom lies near
/// e^{(offset + k)g} wherever the merges put it (S = w[k]/q[k]), and no zero or inf.
#[derive(Clone, Debug)]
struct Law {
    offset: i64,
    q: Vec<f64>,
    w: Vec<f64>,
    zero: f64,
    inf: f64,
    terms: u64,
    /// The grid step is the base step over 2^level.
    level: u32,
}

impl Law {
    fn total_q(&self) -> f64 {
        self.q.iter().sum::<f64>() + self.zero
    }

    /// The relative standard deviation of S under Q (atoms at S = 0 or ∞ aside): the scale the
    /// grid step must resolve.
    fn relative_sd(&self, g: f64, side: Side) -> f64 {
        let (mut m1, mut m2) = (0.0, 0.0);
        for (i, (&q, &w)) in self.q.iter().zip(&self.w).enumerate() {
            if q > 0.0 {
                let s = match side {
                    Side::Upper => exp((self.offset + i as i64) as f64 * g),
                    Side::Lower => w / q,
                };
                m1 += w;
                m2 += w * s;
            }
        }
        if m1 > 0.0 {
            (m2 / (m1 * m1) - 1.0).max(0.0).sqrt()
        } else {
            0.0
        }
    }

    /// The same law on the grid 2^`by` times finer (exactly: grid point k is point k·2^by).
    fn refined(&self, by: u32) -> Law {
        if by == 0 {
            return self.clone();
        }
        let f = 1usize << by;
        let n = (self.q.len() - 1) * f + 1;
        let (mut q, mut w) = (vec![0.0; n], vec![0.0; n]);
        for (i, (&qi, &wi)) in self.q.iter().zip(&self.w).enumerate() {
            q[i * f] = qi;
            w[i * f] = wi;
        }
        Law {
            offset: self.offset * f as i64,
            q,
            w,
            level: self.level + by,
            ..*self
        }
    }
}

/// The grid and the groups (r, d_lo, d_hi) of index distances d sharing one index increment r,
/// with each group's split coefficients (upper side).
struct Summer {
    g: f64,
    side: Side,
    groups: Vec<(i64, i64, i64)>,
    /// Per group (upper side): u_r = e^{(r−1)g} − 1 and 1/(e^{rg} − e^{(r−1)g}).
    split: Vec<(f64, f64)>,
}

impl Summer {
    fn new(g: f64, side: Side) -> Summer {
        // x(d) = log(1 + e^{−dg}): grid points d apart sum to e^{mg + x(d)}.
        let r = |d: i64| -> i64 {
            let x = ln_1p(exp(-(d as f64) * g)) / g;
            match side {
                // The grid point at or above the sum; the sum is split with the one below it.
                Side::Upper => (x.ceil() as i64).max(1),
                // The cell the sum is merged into: the nearest label.
                Side::Lower => x.round() as i64,
            }
        };
        let last = match side {
            Side::Upper => 1,
            Side::Lower => 0,
        };
        let mut groups = Vec::new();
        let mut d = 0i64;
        loop {
            let rd = r(d);
            if rd <= last {
                groups.push((last, d, i64::MAX));
                break;
            }
            let start = d;
            while r(d + 1) == rd {
                d += 1;
            }
            groups.push((rd, start, d));
            d += 1;
        }
        let split = groups
            .iter()
            .map(|&(r, _, _)| {
                let below = (r - 1) as f64 * g;
                (exp_m1(below), 1.0 / (exp(below) * exp_m1(g)))
            })
            .collect();
        Summer {
            g,
            side,
            groups,
            split,
        }
    }

    /// The one-step pair: log V ∼ N(−sd²/2, sd²) under Q and N(sd²/2, sd²) under P (the Gaussian
    /// mechanism with noise multiplier 1/sd). Upper: the mass of each grid cell split between its
    /// two ends so that both Q- and P-mass are kept, the tails split with S = 0 and S = ∞; lower:
    /// each cell of width g around a grid point one atom, the tails merged into the end cells.
    fn lognormal(&self, sd: f64) -> Law {
        let g = self.g;
        let a = 0.5 * sd * sd;
        let lo = ((-a - 12.0 * sd) / g).floor() as i64;
        let hi = ((a + 9.5 * sd) / g).ceil() as i64;
        // P(z1 < Z ≤ z2) from the tail that keeps it accurate.
        let cell = |z1: f64, z2: f64| {
            if z2 <= 0.0 {
                (normal_cdf(z2) - normal_cdf(z1)).max(0.0)
            } else {
                (normal_cdf(-z1) - normal_cdf(-z2)).max(0.0)
            }
        };
        // (Q, P) mass of log V in (x1, x2].
        let mass = |x1: f64, x2: f64| {
            (
                cell((x1 + a) / sd, (x2 + a) / sd),
                cell((x1 - a) / sd, (x2 - a) / sd),
            )
        };
        let n = (hi - lo + 1) as usize;
        let (mut q, mut w) = (vec![0.0; n], vec![0.0; n]);
        let (mut zero, mut inf) = (0.0, 0.0);
        let x = |k: i64| k as f64 * g;
        match self.side {
            Side::Upper => {
                let em1 = exp_m1(g);
                for i in 0..n - 1 {
                    let k = lo + i as i64;
                    let (qc, pc) = mass(x(k), x(k + 1));
                    // Q-mass to the upper end: (P − e^{kg}Q)/(e^{(k+1)g} − e^{kg}).
                    let up = ((pc * exp(-x(k)) - qc) / em1).clamp(0.0, qc);
                    q[i] += qc - up;
                    q[i + 1] += up;
                }
                let (qb, pb) = mass(f64::NEG_INFINITY, x(lo));
                let to_lo = (pb * exp(-x(lo))).min(qb);
                q[0] += to_lo;
                zero = qb - to_lo;
                let (qa, pa) = mass(x(hi), f64::INFINITY);
                q[n - 1] += qa;
                inf = (pa - exp(x(hi)) * qa).max(0.0);
                for (i, (wi, qi)) in w.iter_mut().zip(&q).enumerate() {
                    *wi = qi * exp(x(lo + i as i64));
                }
            }
            Side::Lower => {
                for i in 0..n {
                    let k = lo + i as i64;
                    let x1 = if i == 0 {
                        f64::NEG_INFINITY
                    } else {
                        x(k) - 0.5 * g
                    };
                    let x2 = if i == n - 1 {
                        f64::INFINITY
                    } else {
                        x(k) + 0.5 * g
                    };
                    (q[i], w[i]) = mass(x1, x2);
                }
            }
        }
        Law {
            offset: lo,
            q,
            w,
            zero,
            inf,
            terms: 1,
            level: 0,
        }
    }

    /// The pair of a + b steps from those of a and of b: S = S_a + S_b with S_a, S_b independent
    /// under Q; upper atoms split exactly, lower atoms merged.
    fn add(&self, a: &Law, b: &Law) -> Law {
        let g = self.g;
        let r0 = self.groups[0].0;
        let a_hi = a.offset + a.q.len() as i64 - 1;
        let b_hi = b.offset + b.q.len() as i64 - 1;
        let lo = a.offset.min(b.offset);
        let hi = a_hi.max(b_hi) + r0;
        let len = (hi - lo + 1) as usize;
        let mut out_q = vec![0.0; len];
        let mut out_w = vec![0.0; len];
        let d_fin = self.groups.last().map_or(0, |g| g.1);
        // Pairs with the larger index in `x` (distance d ≥ d_min) against `y`: for each group,
        // the range sums A = Σ q_y[j], B = Σ w_y[j] over j ∈ [k − d_hi, k − d_lo], read off
        // padded running sums.
        let mut pairs = |x: &Law, y: &Law, d_min: i64| {
            let nx = x.q.len() as i64;
            let first = (x.offset - y.offset - d_fin - 1).min(0);
            let last = (x.offset + nx - y.offset + 1).max(y.q.len() as i64);
            let sq = Sums::new(&y.q, first, last);
            let sw = Sums::new(&y.w, first, last);
            let at = |i: i64| (i - first) as usize;
            // e^{−kg} for the upper split (B·e^{−kg} = Σ q_y[j]·e^{−dg}).
            let decay: Vec<f64> = match self.side {
                Side::Upper => (0..nx).map(|i| exp(-((x.offset + i) as f64) * g)).collect(),
                Side::Lower => Vec::new(),
            };
            for (gi, &(r, d_lo, d_hi)) in self.groups.iter().enumerate() {
                let d_lo = d_lo.max(d_min);
                if d_lo > d_hi {
                    continue;
                }
                // Skip groups that reach below y's first point for every k.
                if x.offset + nx - 1 - d_lo < y.offset {
                    continue;
                }
                let top = at(x.offset - d_lo + 1 - y.offset);
                let bot = if d_hi == i64::MAX {
                    None
                } else {
                    Some(at(x.offset - d_hi - y.offset))
                };
                let o = (x.offset + r - lo) as usize;
                let nxu = nx as usize;
                match self.side {
                    Side::Upper => {
                        let (u, inv) = self.split[gi];
                        // dst[i + 1] is the grid point at or above the sum, dst[i] the one below.
                        let dst = &mut out_q[o - 1..o + nxu];
                        for i in 0..nxu {
                            let qa = sq.range(top + i, bot.map(|b| b + i));
                            if qa <= 0.0 {
                                continue;
                            }
                            let wb = sw.range(top + i, bot.map(|b| b + i));
                            let up = ((wb * decay[i] - u * qa) * inv).clamp(0.0, qa);
                            let m = x.q[i];
                            dst[i + 1] += m * up;
                            dst[i] += m * (qa - up);
                        }
                    }
                    Side::Lower => {
                        for i in 0..nxu {
                            let qa = sq.range(top + i, bot.map(|b| b + i));
                            let wb = sw.range(top + i, bot.map(|b| b + i));
                            out_q[o + i] += x.q[i] * qa;
                            out_w[o + i] += x.w[i] * qa + x.q[i] * wb;
                        }
                    }
                }
            }
        };
        pairs(a, b, 0);
        pairs(b, a, 1);
        let (mut zero, mut inf) = (0.0, 0.0);
        if self.side == Side::Upper {
            // S_a = 0 leaves S = S_b on its grid point, and the reverse.
            for (x, y) in [(a, b), (b, a)] {
                if x.zero > 0.0 {
                    let o = (y.offset - lo) as usize;
                    for (d, &m) in out_q[o..o + y.q.len()].iter_mut().zip(&y.q) {
                        *d += x.zero * m;
                    }
                }
            }
            zero = a.zero * b.zero;
            inf = a.inf * b.total_q() + b.inf * a.total_q();
            for (i, (wi, qi)) in out_w.iter_mut().zip(&out_q).enumerate() {
                *wi = qi * exp((lo + i as i64) as f64 * g);
            }
        }
        let law = Law {
            offset: lo,
            q: out_q,
            w: out_w,
            zero,
            inf,
            terms: a.terms + b.terms,
            level: a.level,
        };
        self.trim(law)
    }

    /// Drop negligible ends (at most [`TRIM`] of Q-mass and of P-mass from each end): upper pairs
    /// split them with S = 0 and the first kept point, or with the last kept point and S = ∞;
    /// lower pairs merge them into the end cells.
    fn trim(&self, mut law: Law) -> Law {
        let n = law.q.len();
        let scale = 1.0 / law.terms as f64;
        let small = |qs: f64, ws: f64| qs <= TRIM && ws * scale <= TRIM;
        let (mut first, mut qb, mut wb) = (0usize, 0.0, 0.0);
        while first + 1 < n && small(qb + law.q[first], wb + law.w[first]) {
            qb += law.q[first];
            wb += law.w[first];
            first += 1;
        }
        let (mut last, mut qa, mut wa) = (n - 1, 0.0, 0.0);
        while last > first && small(qa + law.q[last], wa + law.w[last]) {
            qa += law.q[last];
            wa += law.w[last];
            last -= 1;
        }
        if first == 0 && last == n - 1 {
            return law;
        }
        let mut q = law.q[first..=last].to_vec();
        let mut w = law.w[first..=last].to_vec();
        let k = q.len() - 1;
        match self.side {
            Side::Upper => {
                let at = |i: usize| exp((law.offset + i as i64) as f64 * self.g);
                let (s_first, s_last) = (at(first), at(last));
                // Below: S < s_first split with 0 and s_first (Q and weight kept).
                let to_first = (wb / s_first).min(qb);
                q[0] += to_first;
                w[0] += to_first * s_first;
                law.zero += qb - to_first;
                // Above: S > s_last split with s_last and ∞.
                q[k] += qa;
                w[k] += qa * s_last;
                law.inf += (wa - qa * s_last).max(0.0);
            }
            Side::Lower => {
                q[0] += qb;
                w[0] += wb;
                q[k] += qa;
                w[k] += wa;
            }
        }
        law.offset += first as i64;
        law.q = q;
        law.w = w;
        law
    }
}

/// Work units of one [`allocation_atoms`] call (one rounding), in units of roughly a nanosecond
/// natively: about (1/σ² + 21.5/σ)/g grid points, ln 2/g split groups, 2·⌈log₂T⌉ + 2 sums, and a
/// factor 4 for the two running sums each group reads and the split it makes.
pub fn allocation_work(sigma: f64, steps_per_epoch: u64, log_step: f64) -> f64 {
    let points = (1.0 / (sigma * sigma) + 21.5 / sigma) / log_step;
    let groups = 0.7 / log_step;
    // ⌈log₂T⌉ from the bits of T − 1.
    let levels = (64 - (steps_per_epoch.max(2) - 1).leading_zeros()) as f64;
    let sums = 2.0 * levels + 2.0;
    4.0 * points * groups * sums
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
/// [`AllocationAtoms::loss_step`]. Pessimistic: δ from it (and from its compositions) is an upper bound on the
/// sampler's δ; optimistic: a lower bound. See the module notes for the pair (Chua et al. 2025)
/// and the computation; the two bracket the exact value, their gap shrinking like g² in the sums
/// (g = `log_step`) and like the loss step in the optimistic grid's rounding down. Domain: σ > 0,
/// 1 ≤ T ≤ 10⁸, g ∈ [1e-5, 0.1]. Cost O(n·log T·ln 2/g) with n ≈ (1/σ² + 21.5/σ)/g grid points
/// ([`allocation_work`]).
pub fn allocation_pld(
    sigma: f64,
    steps_per_epoch: u64,
    log_step: f64,
    estimate: Estimate,
) -> Result<PldPair, MathError> {
    let atoms = allocation_atoms(sigma, steps_per_epoch, log_step, estimate)?;
    Ok(atoms.pld(atoms.loss_step(log_step)))
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
    let side = match estimate {
        Estimate::Pessimistic => Side::Upper,
        Estimate::Optimistic => Side::Lower,
    };
    let mut d = Doubler::new(log_step, side);
    let one = d.summer(0).lognormal(1.0 / sigma);
    let sum = d.sum_of(&one, steps_per_epoch);
    let (remove, add) = atoms(&sum, log_step, side);
    Ok(AllocationAtoms {
        remove,
        add,
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
    /// Which side of the true pair the atoms' pair lies on: pessimistic, split (dominating);
    /// optimistic, merged (dominated); and so how they go on a loss grid.
    pub estimate: Estimate,
}

impl AllocationAtoms {
    /// A loss-grid step for these atoms: 2⁻¹⁶ of the span of the remove direction's finite losses
    /// (so that a concentrated loss, as after many steps, still gets a fine grid), at most
    /// `log_step`/16 and at least 1e-7.
    pub fn loss_step(&self, log_step: f64) -> f64 {
        let finite = self.remove.iter().filter(|a| a.0.is_finite() && a.1 > 0.0);
        let (lo, hi) = finite.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), a| {
            (lo.min(a.0), hi.max(a.0))
        });
        let span = if hi > lo { hi - lo } else { 1.0 };
        (span / 65536.0).clamp(1e-7, log_step / 16.0)
    }

    /// The PLDs of both directions on the loss grid of step `step` (> 0): pessimistic, connect
    /// the dots; optimistic, each loss rounded down. The atoms are the exact loss law of a pair
    /// that dominates (upper) or is dominated by (lower) the true one, so the optimistic PLD keeps
    /// the Hoeffding tightening of its lower bound.
    pub fn pld(&self, step: f64) -> PldPair {
        PldPair {
            remove: Pld::from_loss_atoms(&self.remove, step, self.estimate, true),
            add: Pld::from_loss_atoms(&self.add, step, self.estimate, true),
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
mod tests;
