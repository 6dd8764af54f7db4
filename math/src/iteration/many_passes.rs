//! The last iterate of noisy gradient descent run for many passes on a bounded set (Brown, lecture
//! notes "Privacy amplification", Theorem 3.1, after Altschuler & Talwar 2022, arXiv 2205.13710),
//! with every constant explicit.
//!
//! # Setting
//!
//! K ⊂ ℝ^d closed and convex with diameter D; every loss convex, M-smooth and L-Lipschitz on K;
//! η ≤ 2/M; the step w_{t+1} = Π_K(w_t − η(g_t(w_t) + Z_t)), Z_t ~ N(0, σ²I), g_t the average of
//! the gradients of step t's batch (b records; all n for a full batch); w_0 public; only the last
//! iterate w_T released; neighbouring data sets differ by **replacing** one record.
//!
//! # The argument (checked on the iteration page's openable proof)
//!
//! Feldman, Mironov, Talwar & Thakurta (2018, arXiv 1808.06651) bound the *shifted* Rényi
//! divergence D_α^{(z)}(μ‖ν) = inf{D_α(μ′‖ν) : W∞(μ, μ′) ≤ z} through two lemmas:
//! - shift reduction (their Lemma 20): adding N(0, ς²I) to both sides costs αa²/(2ς²) and buys a
//!   shift a: D_α^{(z)}(μ∗N ‖ ν∗N) ≤ D_α^{(z+a)}(μ‖ν) + αa²/(2ς²);
//! - contraction reduction (Lemma 21): maps ψ, ψ′ that are contractions with sup‖ψ − ψ′‖ ≤ s
//!   give D_α^{(z+s)}(ψ#μ‖ψ′#ν) ≤ D_α^{(z)}(μ‖ν).
//!
//! A gradient step on a convex M-smooth loss with η ≤ 2/M is a contraction, and so is Π_K. At a
//! step that uses the differing record the two runs' maps differ by at most s = 2ηL/b (an
//! average of b gradients, one of them replaced); at other steps they are the same map. The noise
//! on the iterate is ης. Walking back from the end over the last R steps, with shifts a_t ≥ 0 spent
//! at each step and the budget z_{t+1} = z_t + s_t − a_t kept ≥ 0 down to z_T = 0, gives
//! ε(α) ≤ Σ_t αa_t²/(2η²σ²) as soon as the divergence at the window's start, with shift z_τ, is 0.
//! It is, for z_τ = min(D, s·u) (u the record's uses before the window): after a projection both
//! iterates are in K, so W∞ ≤ D, and each use moves them apart by at most s (at τ = 0 they are
//! equal). So the chain may start anywhere, and a long run forgets its beginning.
//!
//! # Fixed batch schedules: full batch and cyclic ([`fixed_schedule_cost`])
//!
//! Full batch: s = 2ηL/n at every step. Cyclic: batches of b records in a public order repeated
//! every k = n/b steps, s = 2ηL/b at one step in k. The best shifts for a window solve
//! min Σa_t² subject to the prefix sums A_t ≤ z_τ + S_t (S_t the shift added by step t) with
//! equality at the end: the greatest convex minorant of the staircase z_τ + S_t, whose vertices for
//! evenly spaced uses are found in closed form (three cases, below). The record whose last use is
//! the run's last step is the worst of a cyclic epoch: a record whose uses sit o steps earlier
//! has, for each window, the same problem followed by o idle steps, and the bound grows with T
//! (a suffix of a window is a cheaper window), so its bound is at most that record's at T − o.
//!
//! Full batch, in closed form: ε(α) ≤ α/(2η²σ²)·min_R (min(D, (T − R)s) + R·s)²/R, which is T·s²
//! (composition) for T up to the burn-in 4D/s = 2Dn/(ηL) steps and 4Ds, i.e.
//! ε(α) = 4αDL/(nησ²), from there on.
//!
//! # Poisson batches ([`poisson_rdp`])
//!
//! Say, Denis & Pinot (arXiv 2511.18876, Theorem B.1) state Altschuler & Talwar's bound for
//! Poisson batches without hidden constants: split the noise σ² = σ₁² + σ₂², let σ₁ forget the
//! diameter over the last R steps (αD²/(2η²σ₁²R), the even split of the shift D) and σ₂ absorb each
//! step's sampled difference (the Poisson-subsampled Gaussian at rate q = b/n and noise multiplier
//! bσ₂/(2L), R times):
//! ε(α) ≤ min{ T·Q_α(σ), min over the split and 1 ≤ R ≤ T − 1 of R·Q_α(σ₂) + αD²/(2η²σ₁²R) }.
//! Q is [`crate::rdp::poisson_gaussian`], the divergence of the mixture from the Gaussian, which
//! Mironov, Talwar & Zhang (2019, arXiv 1908.10530, §3.3) show is the larger of the two directions
//! for the sampled Gaussian (checked again on every row of the reference table). At b = n it is
//! the full-batch bound with z_τ = D (Cauchy–Schwarz over the split).
//!
//! All results are **upper bounds** on the RDP (and, converted, on the ε at δ) of the last
//! iterate, for the worst record, replace one ([`super::RELATION`]). The minimisations are over
//! finite sets (every window when T ≤ 2,048, else [`windows`]; 31 splits; a grid of orders), and
//! every point of them is a valid bound, so a coarse set costs tightness, never validity.

use super::check_count;
use crate::rdp::{
    epsilon_for_delta, epsilon_for_delta_over_steps, poisson_gaussian, Conversion, Converted, Curve,
};
use crate::{check_positive, MathError};

/// How each step's batch is formed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Batches {
    /// Every step uses all n records (noisy gradient descent).
    Full,
    /// Batches of b records in a fixed public order, the same every epoch of n/b steps.
    Cyclic,
    /// Each record joins each step's batch with probability b/n, independently.
    Poisson,
}

/// T ≤ this: every window R ∈ [1, T] is tried.
pub const EXHAUSTIVE_WINDOWS: u64 = 2048;

/// Number of noise splits σ₁² = λσ² tried for Poisson batches: λ = i/32, i = 1..31.
pub const SPLITS: usize = 31;

/// Many passes of projected noisy gradient descent on a bounded convex set (see the module
/// documentation for the assumptions).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ManyPasses {
    /// T ≥ 1: noisy steps.
    pub steps: u64,
    /// n ≥ 1: records in the data set.
    pub records: u64,
    /// b, 1 ≤ b ≤ n: records per batch (the expected number for Poisson; ignored for a full batch).
    pub batch: u64,
    /// How batches are formed.
    pub batches: Batches,
    /// D > 0: diameter of the set K the iterates are projected onto.
    pub diameter: f64,
    /// σ > 0: standard deviation of the Gaussian noise added to each step's averaged gradient.
    pub sigma: f64,
    /// η > 0: step size.
    pub step_size: f64,
    /// L > 0: bound on every record's gradient norm on K.
    pub lipschitz: f64,
}

impl ManyPasses {
    /// Check the parameters: counts in [1, 2^53], b ≤ n, b dividing n for cyclic batches (every
    /// batch then has b records), the reals positive and finite, and the one-use RDP slope finite.
    pub fn validate(&self) -> Result<(), MathError> {
        check_count("T", self.steps)?;
        check_count("n", self.records)?;
        check_count("b", self.batch)?;
        check_positive("D", self.diameter)?;
        check_positive("σ", self.sigma)?;
        check_positive("η", self.step_size)?;
        check_positive("L", self.lipschitz)?;
        if self.batches != Batches::Full && self.batch > self.records {
            return Err(MathError::Inconsistent {
                reason: format!(
                    "a batch of b = {} records is larger than the data set (n = {})",
                    self.batch, self.records
                ),
            });
        }
        if self.batches == Batches::Cyclic && !self.records.is_multiple_of(self.batch) {
            return Err(MathError::Inconsistent {
                reason: format!(
                    "cyclic batches need b to divide n (n = {}, b = {}), so that every batch has b records",
                    self.records, self.batch
                ),
            });
        }
        let slope = self.use_slope();
        if !(slope * super::MAX_ORDER).is_finite() || !(self.diameter_in_shifts() * 4.0).is_finite()
        {
            return Err(MathError::Inconsistent {
                reason: "L/σ or D/(ηL) is too large: the bound overflows".into(),
            });
        }
        Ok(())
    }

    /// Records averaged in a step: n for a full batch, else b.
    pub fn batch_size(&self) -> u64 {
        match self.batches {
            Batches::Full => self.records,
            _ => self.batch,
        }
    }

    /// s = 2ηL/b: how far one use of the replaced record moves a step's map. Exact.
    pub fn shift(&self) -> f64 {
        2.0 * self.step_size * self.lipschitz / self.batch_size() as f64
    }

    /// k: steps between two uses of a record under a fixed schedule (1 for a full batch, n/b for
    /// cyclic batches); n/b rounded up for Poisson batches (an epoch's expected length).
    pub fn epoch_steps(&self) -> u64 {
        match self.batches {
            Batches::Full => 1,
            _ => self.records.div_ceil(self.batch),
        }
    }

    /// ρ = s²/(2η²σ²) = ½(2L/(bσ))²: the RDP slope of one use, ε(α) = αρ (a Gaussian step).
    pub fn use_slope(&self) -> f64 {
        let r = 2.0 * self.lipschitz / (self.batch_size() as f64 * self.sigma);
        0.5 * r * r
    }

    /// d = D/s: the diameter in units of one use's shift.
    pub fn diameter_in_shifts(&self) -> f64 {
        self.diameter / self.shift()
    }

    /// The same run with another number of steps.
    pub fn with_steps(&self, steps: u64) -> ManyPasses {
        ManyPasses { steps, ..*self }
    }
}

/// Σa_t²/s² of the best shifts over the last `window` steps of a fixed schedule, for the record
/// used at the run's last step and every k steps before it (the worst record; module
/// documentation), with z_τ = min(d, u), d = D/s, u its uses before the window.
///
/// The greatest convex minorant of the points (0, 0), the corners (c + (i − 1)k, z + i − 1)
/// just before each of the m uses in the window (c + 1 the first use's position) and the end
/// (R, z + m): when c > 0 and zk ≤ c it runs to the first corner, along the corners (slope 1/k)
/// and up the last step: z²/c + (m − 1)/k + 1; otherwise straight to the end when R < z + m,
/// (z + m)²/R, or to the last corner and up: (z + m − 1)²/(R − 1) + 1.
///
/// Exact for the problem it solves (closed form). Domain: 1 ≤ window ≤ steps, k ≥ 1, d ≥ 0.
pub fn fixed_schedule_cost(steps: u64, window: u64, k: u64, d: f64) -> f64 {
    let m = (window - 1) / k + 1;
    let total = (steps - 1) / k + 1;
    let z = d.min((total - m) as f64);
    if window == 1 {
        return (z + 1.0) * (z + 1.0);
    }
    let c = window - 1 - (m - 1) * k;
    let (mf, kf, cf, rf) = (m as f64, k as f64, c as f64, window as f64);
    if c > 0 && z * kf <= cf {
        return z * z / cf + (mf - 1.0) / kf + 1.0;
    }
    if rf < z + mf {
        (z + mf) * (z + mf) / rf
    } else {
        (z + mf - 1.0) * (z + mf - 1.0) / (rf - 1.0) + 1.0
    }
}

/// The windows R tried for T steps when T > [`EXHAUSTIVE_WINDOWS`]: 1 to 256, T, 256 points
/// spaced evenly in log, and around each of d·k (where the forgetting is cheapest) and T − d·k
/// (where the run's start stops mattering) the 129 windows within 64 steps and the epoch-aligned
/// windows jk and jk + 1 for 17 epochs j; each log point also aligned to its epoch. Sorted, no
/// repeats, all in [1, T].
pub fn windows(steps: u64, k: u64, d: f64) -> Vec<u64> {
    if steps <= EXHAUSTIVE_WINDOWS {
        return (1..=steps).collect();
    }
    let mut v: Vec<u64> = (1..=256).collect();
    v.push(steps);
    let align = |r: u64, v: &mut Vec<u64>| {
        let j = r / k;
        v.extend([r, j * k, j * k + 1]);
    };
    let ln_t = crate::special::ln(steps as f64);
    for i in 0..256 {
        let g = crate::special::exp(ln_t * i as f64 / 255.0).round() as u64;
        align(g.clamp(1, steps), &mut v);
    }
    let kf = k as f64;
    for centre in [d * kf, steps as f64 - d * kf] {
        if !(centre.is_finite() && centre >= 1.0 && centre <= steps as f64) {
            continue;
        }
        let c = centre.round() as u64;
        for j in 0..=128u64 {
            v.push((c + j).saturating_sub(64));
        }
        let e = c / k;
        for j in e.saturating_sub(8)..=e + 8 {
            v.extend([j * k, j * k + 1]);
        }
    }
    v.retain(|&r| (1..=steps).contains(&r));
    crate::heap_sort_by(&mut v, |a, b| a < b);
    v.dedup();
    v
}

/// The best window for a fixed schedule: (min over [`windows`] of [`fixed_schedule_cost`], the
/// window attaining it). Upper bound (a minimum over valid bounds).
pub fn fixed_schedule_best(run: &ManyPasses) -> Result<(f64, u64), MathError> {
    run.validate()?;
    if run.batches == Batches::Poisson {
        return Err(MathError::Inconsistent {
            reason: "Poisson batches have no fixed schedule (use poisson_rdp)".into(),
        });
    }
    let (k, d) = (run.epoch_steps(), run.diameter_in_shifts());
    let mut best = (f64::INFINITY, run.steps);
    for r in windows(run.steps, k, d) {
        let c = fixed_schedule_cost(run.steps, r, k, d);
        if c < best.0 {
            best = (c, r);
        }
    }
    Ok(best)
}

/// The worst record's uses in T steps of a fixed schedule: ⌊(T − 1)/k⌋ + 1 (T for a full batch).
pub fn uses(run: &ManyPasses) -> u64 {
    (run.steps - 1) / run.epoch_steps() + 1
}

/// The orders at which the Poisson bound is evaluated: whole numbers 2 to 32, every 4 to 64, every
/// 16 to 256 (51 orders; whole orders keep the subsampled Gaussian a finite sum).
pub fn poisson_orders() -> Vec<f64> {
    let mut v: Vec<f64> = (2..=32).map(|a| a as f64).collect();
    v.extend((36..=64).step_by(4).map(|a| a as f64));
    v.extend((80..=256).step_by(16).map(|a| a as f64));
    v
}

/// What the Poisson bound needs at each order, computed once for a run and reused for every T:
/// Q_α(σ) and Q_α(σ√(1 − λ)) for each split λ = i/32.
#[derive(Clone, Debug, PartialEq)]
pub struct PoissonTable {
    /// The orders ([`poisson_orders`]).
    pub orders: Vec<f64>,
    /// Q_α(σ) at each order: one step's RDP, the composition's per-step cost.
    pub whole: Vec<f64>,
    /// Q_α(σ₂) at each order (rows) and split (columns).
    pub split: Vec<[f64; SPLITS]>,
    /// αD²/(2η²σ²) at each order: the forgetting term's numerator (divided by λR).
    pub forget: Vec<f64>,
}

/// The split λ = σ₁²/σ² of column i.
pub fn split_fraction(i: usize) -> f64 {
    (i + 1) as f64 / (SPLITS + 1) as f64
}

impl PoissonTable {
    /// The table for a run with Poisson batches (or any run read as Poisson at rate b/n).
    pub fn of(run: &ManyPasses) -> Result<PoissonTable, MathError> {
        run.validate()?;
        let q = run.batch as f64 / run.records as f64;
        let nu = |s: f64| run.batch as f64 * s / (2.0 * run.lipschitz);
        let orders = poisson_orders();
        let mut whole = Vec::with_capacity(orders.len());
        let mut split = Vec::with_capacity(orders.len());
        let mut forget = Vec::with_capacity(orders.len());
        let r = run.diameter / (run.step_size * run.sigma);
        for &a in &orders {
            whole.push(poisson_gaussian(nu(run.sigma), q, a)?);
            let mut row = [0.0; SPLITS];
            for (i, cell) in row.iter_mut().enumerate() {
                let s2 = run.sigma * (1.0 - split_fraction(i)).sqrt();
                *cell = poisson_gaussian(nu(s2), q, a)?;
            }
            split.push(row);
            forget.push(0.5 * a * r * r);
        }
        Ok(PoissonTable {
            orders,
            whole,
            split,
            forget,
        })
    }

    /// The bound at order index j after `steps` steps (`None` for the plateau, T → ∞):
    /// min{T·Q(σ), min over splits and R ≤ T − 1 of R·Q(σ₂) + F/(λR)}.
    pub fn rdp_at(&self, j: usize, steps: Option<u64>) -> f64 {
        let mut best = steps.map_or(f64::INFINITY, |t| t as f64 * self.whole[j]);
        let top = steps.map_or(f64::INFINITY, |t| t as f64 - 1.0);
        if top < 1.0 {
            return best;
        }
        for (i, &qv) in self.split[j].iter().enumerate() {
            let f = self.forget[j] / split_fraction(i);
            let g = |r: f64| r * qv + f / r;
            let star = if qv > 0.0 { (f / qv).sqrt() } else { top };
            for r in [star.floor(), star.ceil()] {
                let r = r.clamp(1.0, top);
                best = best.min(g(r));
            }
        }
        best
    }

    /// The RDP curve of the last iterate after `steps` steps (`None`: the plateau).
    pub fn curve(&self, steps: Option<u64>) -> Curve {
        let rdp = (0..self.orders.len())
            .map(|j| self.rdp_at(j, steps))
            .collect();
        Curve::sampled(self.orders.clone(), rdp)
    }

    /// The composition's curve, T·Q_α(σ).
    pub fn composition(&self, steps: u64) -> Curve {
        Curve::sampled(
            self.orders.clone(),
            self.whole.iter().map(|q| q * steps as f64).collect(),
        )
    }
}

/// Rényi DP at order α (one of [`poisson_orders`]) of the last iterate with Poisson batches: the
/// Say–Denis–Pinot form of the module documentation. Upper bound; replace one.
pub fn poisson_rdp(run: &ManyPasses, alpha: f64) -> Result<f64, MathError> {
    let table = PoissonTable::of(run)?;
    let j = table
        .orders
        .iter()
        .position(|&a| a == alpha)
        .ok_or(MathError::OutOfDomain {
            name: "α",
            value: alpha,
            expected: "one of the orders of poisson_orders()",
        })?;
    Ok(table.rdp_at(j, Some(run.steps)))
}

/// The numbers the iteration page reports for many passes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LastIterate {
    /// ε at δ of the last iterate after T steps (worst record).
    pub last: Converted,
    /// ε at δ when every iterate is released (composition over the record's uses).
    pub composition: Converted,
    /// ε at δ of the last iterate for any number of steps (T → ∞).
    pub plateau: Converted,
    /// Steps after which plain composition would exceed the plateau (at the plateau's order).
    pub burn_in: f64,
}

/// Steps long enough that the fixed-schedule bound has reached its plateau: four burn-ins
/// (4·4dk) and at least 8 epochs, capped at 2^53.
fn plateau_steps(run: &ManyPasses) -> u64 {
    let k = run.epoch_steps() as f64;
    let t = (16.0 * run.diameter_in_shifts() * k + 8.0 * k + 2.0).min(9.0e15);
    t as u64
}

/// A run made ready for many questions: for Poisson batches its [`PoissonTable`] (the costly part,
/// independent of T) built once.
#[derive(Clone, Debug, PartialEq)]
pub struct Accountant {
    run: ManyPasses,
    table: Option<PoissonTable>,
}

impl Accountant {
    /// Validate the run and build what every T shares.
    pub fn new(run: &ManyPasses) -> Result<Accountant, MathError> {
        run.validate()?;
        let table = match run.batches {
            Batches::Poisson => Some(PoissonTable::of(run)?),
            _ => None,
        };
        Ok(Accountant { run: *run, table })
    }

    /// ε at δ after each of `steps` (last iterate) and of composition; the fixed schedules
    /// convert the linear curve αρf in one sweep.
    pub fn over_steps(
        &self,
        steps: &[u64],
        delta: f64,
        conversion: Conversion,
    ) -> Result<Vec<(Converted, Converted)>, MathError> {
        if let Some(table) = &self.table {
            return steps
                .iter()
                .map(|&t| {
                    check_count("T", t)?;
                    Ok((
                        epsilon_for_delta(&table.curve(Some(t)), delta, conversion)?,
                        epsilon_for_delta(&table.composition(t), delta, conversion)?,
                    ))
                })
                .collect();
        }
        let base = one_use_curve(&self.run);
        let mut factors = Vec::with_capacity(2 * steps.len());
        for &t in steps {
            let r = self.run.with_steps(t);
            factors.push(fixed_schedule_best(&r)?.0);
            factors.push(uses(&r) as f64);
        }
        let eps = epsilon_for_delta_over_steps(&base, &factors, delta, conversion)?;
        Ok(eps.chunks(2).map(|p| (p[0], p[1])).collect())
    }

    /// The last iterate's RDP curve after `steps` steps (the worst record): for Poisson batches
    /// the table's bound minimised over the window and the noise split at each order, for the
    /// fixed schedules the one-use curve αρ times the best window's cost. An upper bound on
    /// D_α(w_T ‖ w′_T) at each order (replace one), so every (ε, δ) read off it holds both ways
    /// round.
    pub fn last_curve(&self, steps: u64) -> Result<Curve, MathError> {
        check_count("T", steps)?;
        if let Some(table) = &self.table {
            return Ok(table.curve(Some(steps)));
        }
        let cost = fixed_schedule_best(&self.run.with_steps(steps))?.0;
        Ok(one_use_curve(&self.run).times(cost))
    }

    /// [`LastIterate`] at δ. Upper bounds (replace one); the burn-in is read off the bound
    /// ([`burn_in`]).
    pub fn last_iterate(
        &self,
        delta: f64,
        conversion: Conversion,
    ) -> Result<LastIterate, MathError> {
        let run = &self.run;
        if let Some(table) = &self.table {
            let plateau = epsilon_for_delta(&table.curve(None), delta, conversion)?;
            let j = table
                .orders
                .iter()
                .position(|&a| a == plateau.order)
                .unwrap_or(0);
            let level = table.rdp_at(j, None);
            return Ok(LastIterate {
                last: epsilon_for_delta(&table.curve(Some(run.steps)), delta, conversion)?,
                composition: epsilon_for_delta(&table.composition(run.steps), delta, conversion)?,
                plateau,
                burn_in: burn_in(|t| table.rdp_at(j, Some(t)), level)? as f64,
            });
        }
        let long = run.with_steps(plateau_steps(run).max(run.steps));
        let f_plateau = fixed_schedule_best(&long)?.0;
        let base = one_use_curve(run);
        let eps = epsilon_for_delta_over_steps(
            &base,
            &[fixed_schedule_best(run)?.0, uses(run) as f64, f_plateau],
            delta,
            conversion,
        )?;
        let cost = |t: u64| fixed_schedule_best(&run.with_steps(t)).map_or(f64::INFINITY, |c| c.0);
        Ok(LastIterate {
            last: eps[0],
            composition: eps[1],
            plateau: eps[2],
            burn_in: burn_in(cost, f_plateau)? as f64,
        })
    }
}

/// [`Accountant::over_steps`] for one run.
pub fn epsilon_over_steps(
    run: &ManyPasses,
    steps: &[u64],
    delta: f64,
    conversion: Conversion,
) -> Result<Vec<(Converted, Converted)>, MathError> {
    Accountant::new(run)?.over_steps(steps, delta, conversion)
}

fn one_use_curve(run: &ManyPasses) -> Curve {
    let orders = super::orders();
    let rho = run.use_slope();
    let rdp = orders.iter().map(|a| a * rho).collect();
    Curve::sampled(orders, rdp)
}

/// [`Accountant::last_iterate`] for one run.
pub fn last_iterate(
    run: &ManyPasses,
    delta: f64,
    conversion: Conversion,
) -> Result<LastIterate, MathError> {
    Accountant::new(run)?.last_iterate(delta, conversion)
}

/// The burn-in: the fewest steps T at which `bound(T)` (the last iterate's RDP at one order, or
/// its cost) is within 10⁻⁹ relative of its plateau `level`, found by doubling and bisection (the
/// bound does not decrease with T: a window's suffix is a cheaper window). From there on the last
/// iterate's bound no longer grows; plain composition keeps growing linearly.
pub fn burn_in(bound: impl Fn(u64) -> f64, level: f64) -> Result<u64, MathError> {
    let reached = |t: u64| bound(t) >= level * (1.0 - 1e-9);
    let mut hi = 1u64;
    while !reached(hi) {
        if hi >= 1 << 53 {
            return Err(MathError::NoSolution {
                reason: "the bound does not reach its plateau within 2^53 steps".into(),
            });
        }
        hi = (hi * 2).min(1 << 53);
    }
    if hi == 1 {
        return Ok(1);
    }
    let mut lo = hi / 2;
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if reached(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Ok(hi)
}

/// The closed form 8αL²/(n²σ²)·min{T, Dn/(Lη)} (Altschuler & Talwar's bound with the constant of
/// Mironov, Talwar & Zhang's 2αq²/ν² for the sampled Gaussian), known to hold at this run on the
/// orders [`ClosedForm::orders`]: q ≤ 1/5 and noise multiplier bσ/(2√2·L) ≥ 4 (their conditions, at
/// the half split the closed form's plateau uses), and at each order the exact Q_α(σ) ≤ 2αq²/ν²
/// and Q_α(σ/√2) ≤ 2αq²/ν₂² (so the closed form is at least this module's bound there).
#[derive(Clone, Debug, PartialEq)]
pub struct ClosedForm {
    /// The orders at which it is shown.
    pub orders: Vec<f64>,
    /// 8L²/(n²σ²): the RDP per order and per step.
    pub coefficient: f64,
    /// Dn/(Lη): the steps after which it stops growing.
    pub horizon: f64,
}

impl ClosedForm {
    /// The closed form for a run, or `None` where no order qualifies.
    pub fn of(run: &ManyPasses) -> Result<Option<ClosedForm>, MathError> {
        run.validate()?;
        let q = run.batch as f64 / run.records as f64;
        let nu = run.batch as f64 * run.sigma / (2.0 * run.lipschitz);
        let nu2 = nu / core::f64::consts::SQRT_2;
        if q > 0.2 || nu2 < 4.0 {
            return Ok(None);
        }
        let mut orders = Vec::new();
        for a in poisson_orders() {
            let q1 = poisson_gaussian(nu, q, a)?;
            let q2 = poisson_gaussian(nu2, q, a)?;
            if q1 <= 2.0 * a * q * q / (nu * nu) && q2 <= 2.0 * a * q * q / (nu2 * nu2) {
                orders.push(a);
            }
        }
        let (n, l, s) = (run.records as f64, run.lipschitz, run.sigma);
        Ok((!orders.is_empty()).then(|| ClosedForm {
            orders,
            coefficient: 8.0 * l * l / (n * n * s * s),
            horizon: run.diameter * n / (l * run.step_size),
        }))
    }

    /// Its RDP curve after `steps` steps.
    pub fn curve(&self, steps: u64) -> Curve {
        let h = (steps as f64).min(self.horizon);
        let rdp = self
            .orders
            .iter()
            .map(|a| a * self.coefficient * h)
            .collect();
        Curve::sampled(self.orders.clone(), rdp)
    }
}

/// [`ClosedForm::of`]'s curve at the run's T. Upper bound where shown.
pub fn closed_form_curve(run: &ManyPasses) -> Result<Option<Curve>, MathError> {
    Ok(ClosedForm::of(run)?.map(|c| c.curve(run.steps)))
}
