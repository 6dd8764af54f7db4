//! The privacy loss distribution accountant: every release of an event as a pair of PLDs on one
//! loss grid (both directions of the relation), composed by FFT ([`crate::pld`]), rounded up for
//! a certified upper bound and down for a lower bound.

use super::event::is_additive;
use super::{Accountant, Bounds, EpochSampler, Event, Sampler, Target};
use crate::batching::{
    affordable_log_step, allocation_atoms, deterministic_delta, deterministic_epsilon,
    deterministic_mu, reshuffled_lower_pair, AllocationAtoms, Neighbours,
};
use crate::pld::{
    gaussian_as_one, poisson_gaussian, poisson_gaussian_group, randomized_response, step_dividing,
    truncated_poisson_gaussian, Band, Estimate, Noise, PldPair, STEP_RANGE,
};
use crate::rdp::Mechanism;
use crate::MathError;

mod parts;
use parts::*;

/// How the loss grid's step is chosen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Grid {
    /// A fixed step h (dp_accounting's "value discretization interval"; the CLI's `--grid`):
    /// the cost grows with the composed loss's range over h.
    Step(f64),
    /// The step at which the composition needs about `buckets` FFT buckets (measured on a coarse
    /// probe grid; [`crate::pld::step_for_budget`] for one part), never finer than `min_step`:
    /// the cost is about one FFT of that size whatever the event, and the band shows the price.
    Budget {
        /// FFT buckets per composition.
        buckets: usize,
        /// The finest step allowed.
        min_step: f64,
    },
}

/// Settings of the analyses of the epoch samplers ([`EpochSampler`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpochSettings {
    /// Balls in bins: the requested log-grid step g of the sums (divided by σ when σ > 1, then
    /// coarsened to fit `work`).
    pub log_step: f64,
    /// Balls in bins: the work budget of one epoch's PLD
    /// ([`crate::batching::allocation_work`] units).
    pub work: f64,
    /// Shuffled batches: slices of the largest batch sum in the lower bound.
    pub slices: usize,
    /// Shuffled batches: the loss-grid step of the lower bound, and the finest step of a grid
    /// that holds it.
    pub lower_step: f64,
}

impl EpochSettings {
    /// The refined settings (the numbers a page settles on; the CLI's).
    pub const FINE: EpochSettings = EpochSettings {
        log_step: 4e-3,
        work: 1.2e9,
        slices: 20_000,
        lower_step: 1e-4,
    };
    /// The settings while a control moves: coarser sums and a lower bound on a tenth of the
    /// slices and a ten times coarser grid (about ten times faster; still valid bounds).
    pub const QUICK: EpochSettings = EpochSettings {
        log_step: 8e-3,
        work: 1.2e9,
        slices: 2_000,
        lower_step: 1e-3,
    };

    /// The log-grid step balls in bins uses at noise σ with T steps per epoch: the requested
    /// step over max(σ, 1), coarsened to the work budget, at least 1e-5.
    pub fn log_step_for(&self, sigma: f64, steps_per_epoch: u64) -> f64 {
        let wanted = self.log_step / sigma.max(1.0);
        affordable_log_step(sigma, steps_per_epoch, wanted, self.work).max(1e-5)
    }
}

/// The PLD accountant (Koskela, Jälkö & Honkela 2020; Doroshenko, Ghazi, Kamath, Kumar &
/// Manurangsi 2022; our FFT and bounds in [`crate::pld`]).
///
/// What it accounts, per release:
/// - Gaussian or Laplace noise (sensitivity 1) on all records or on a Poisson sample: both
///   directions of add/remove, exactly discretised ([`poisson_gaussian`],
///   [`crate::pld::poisson_laplace`]).
/// - Gaussian noise on a Poisson sample capped at m records (add/remove): the certified mixture
///   and the better of five worst-case datasets ([`truncated_poisson_gaussian`]).
/// - k-ary randomized response without sampling (replace one): its three loss atoms, exact on a
///   grid whose step divides ε when it is the only release.
/// - Shuffled epochs (zero-out): upper, the Gaussian mechanism at μ = √E/σ (exact for any order
///   of the batches, so for their mixture; analytic when alone); lower, Chua et al.'s pair through
///   the largest batch sum ([`reshuffled_lower_pair`]).
/// - Balls-in-bins epochs (zero-out): one epoch's pair from [`allocation_atoms`], composed over
///   the epochs.
///
/// Sampling with or without replacement of a fixed size has no PLD here
/// ([`MathError::Unsupported`]; the Rényi DP accountant bounds sampling without replacement).
/// All releases of an event go on one loss grid and are composed by one FFT per rounding.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PldAccountant {
    /// How the loss grid's step is chosen.
    pub grid: Grid,
    /// The epoch samplers' settings.
    pub epochs: EpochSettings,
}

impl PldAccountant {
    /// An accountant on a fixed grid step h, with the refined epoch settings.
    pub fn with_step(step: f64) -> PldAccountant {
        PldAccountant {
            grid: Grid::Step(step),
            epochs: EpochSettings::FINE,
        }
    }

    /// An accountant on a bucket budget (never finer than `min_step`), with the given epoch
    /// settings.
    pub fn with_budget(buckets: usize, min_step: f64, epochs: EpochSettings) -> PldAccountant {
        PldAccountant {
            grid: Grid::Budget { buckets, min_step },
            epochs,
        }
    }

    /// The composed PLD pairs of both roundings on one grid: δ(ε) and ε(δ) of the event lie
    /// between their values (the pessimistic ones certified).
    pub fn band(&self, event: &Event) -> Result<Band, MathError> {
        event.validate()?;
        let leaves = event.leaves();
        if let [(leaf, count)] = leaves[..] {
            if let Some(band) = self.single_band(leaf, count)? {
                return Ok(band);
            }
        }
        let parts = Parts::new(self, &leaves)?;
        let step = self.step_of(&parts)?;
        Ok(Band {
            step,
            upper: parts.compose(self, step, Estimate::Pessimistic)?,
            lower: parts.compose(self, step, Estimate::Optimistic)?,
        })
    }

    /// The composed PLD pair of one rounding and the grid step it is on (a calibration needs
    /// only the pessimistic one). The same pair as the corresponding half of
    /// [`PldAccountant::band`].
    pub fn compose(&self, event: &Event, estimate: Estimate) -> Result<(f64, PldPair), MathError> {
        event.validate()?;
        let leaves = event.leaves();
        if let [(leaf, count)] = leaves[..] {
            if let Some(one) = self.single(leaf, count, estimate)? {
                return Ok(one);
            }
        }
        let parts = Parts::new(self, &leaves)?;
        let step = self.step_of(&parts)?;
        Ok((step, parts.compose(self, step, estimate)?))
    }

    /// One release that is the whole event and is not accounted the general way: randomized
    /// response (its grid step divides ε, so its PLD is exact) and the epoch samplers (their own
    /// grids). `None` for the general way.
    fn single(
        &self,
        leaf: &Event,
        count: u64,
        estimate: Estimate,
    ) -> Result<Option<(f64, PldPair)>, MathError> {
        if let Some((epsilon, k)) = unsampled_rr(leaf) {
            return Ok(Some(self.rr(epsilon, k, count, estimate)?));
        }
        // k Gaussian releases on all the records as one at σ/√k ([`gaussian_as_one`]), on the
        // grid step the run composed would have: the pair [`Band::new`] gives.
        if let Some(one) = unsampled_gaussian(leaf).and_then(|s| gaussian_as_one(s, count)) {
            let parts = Parts::new(self, &[(leaf, count)])?;
            let step = self.step_of(&parts)?;
            let pair = Noise::Gaussian(one)
                .poisson(1.0, step, estimate)?
                .self_compose(1)
                .map_err(|e| too_fine(e, step))?;
            return Ok(Some((step, pair)));
        }
        Ok(match *leaf {
            Event::Epochs {
                sampler,
                mechanism: Mechanism::Gaussian { sigma },
                steps_per_epoch,
                upper_epochs,
                lower_epochs,
            } => {
                let (up, low) = (upper_epochs * count, lower_epochs * count);
                Some(match (sampler, estimate) {
                    (EpochSampler::Shuffled, Estimate::Pessimistic) => {
                        let step = self.shuffle_step(sigma, up)?;
                        (step, shuffle_upper(sigma, up, step)?)
                    }
                    (EpochSampler::Shuffled, Estimate::Optimistic) => {
                        let step = self.shuffle_step(sigma, up)?;
                        let pair =
                            lower_pair(sigma, steps_per_epoch, low, self.epochs.slices, step)?;
                        (step, pair)
                    }
                    // Balls in bins goes the general way (its atoms on the budget's grid).
                    (EpochSampler::BallsInBins, _) => return Ok(None),
                })
            }
            // One participation is one epoch of balls in bins: the general way, as that event.
            Event::Allocation {
                participations: 1, ..
            } => None,
            Event::Allocation {
                mechanism: Mechanism::Gaussian { sigma },
                steps,
                participations,
            } => Some(self.allocation(sigma, steps, participations, count, estimate)?),
            _ => None,
        })
    }

    /// `count` rounds of random allocation, k ≥ 2 of T steps each (Gaussian noise σ; k = 1 is one
    /// epoch of balls in bins and goes the general way).
    ///
    /// Upper bound (Feldman & Shenfeld 2025, "Privacy amplification by random allocation",
    /// Thm. 4.1's decomposition): with T = kf + r (0 ≤ r < k), the k-of-T allocation is dominated
    /// by k independent allocations of one step each, k − r of them among f steps and r among
    /// f + 1: one epoch of balls in bins each ([`allocation_atoms`], the dominating side),
    /// composed. k = T is T Gaussian steps, exactly.
    ///
    /// Lower bound: the sum of the T noisy outputs (a post-processing): with the example it is centred
    /// at k, without at 0, with standard deviation σ√T, so the Gaussian mechanism at μ = k/(σ√T)
    /// per round, exact; k = T is the run itself.
    fn allocation(
        &self,
        sigma: f64,
        steps: u64,
        k: u64,
        count: u64,
        estimate: Estimate,
    ) -> Result<(f64, PldPair), MathError> {
        let f = steps / k;
        let r = steps % k;
        let g = self.epochs.log_step_for(sigma, f.max(1));
        let times_floor = (k - r).saturating_mul(count);
        // The upper bound's composition sizes the grid (both roundings share it).
        let step = self.budget_step(&|h| {
            let mut v = vec![(
                balls_atoms(sigma, f, g, Estimate::Pessimistic)?.pld(h),
                times_floor,
            )];
            if r > 0 {
                v.push((
                    balls_atoms(sigma, f + 1, g, Estimate::Pessimistic)?.pld(h),
                    r * count,
                ));
            }
            Ok(v)
        })?;
        match estimate {
            Estimate::Pessimistic => {
                let floor = balls_atoms(sigma, f, g, estimate)?.pld(step);
                if r == 0 {
                    return Ok((step, over(floor, times_floor)?));
                }
                let ceil = balls_atoms(sigma, f + 1, g, estimate)?.pld(step);
                let pair = PldPair::compose(&[(&floor, times_floor), (&ceil, r * count)])
                    .map_err(|e| too_fine(e, step))?;
                Ok((step, pair))
            }
            Estimate::Optimistic => {
                // μ = k/(σ√T) per round, √count rounds: one Gaussian of noise 1/μ_total.
                let mu = k as f64 / (sigma * (steps as f64).sqrt()) * (count as f64).sqrt();
                Ok((step, poisson_gaussian(1.0 / mu, 1.0, step, estimate)?))
            }
        }
    }

    /// [`PldAccountant::single`] for both roundings.
    fn single_band(&self, leaf: &Event, count: u64) -> Result<Option<Band>, MathError> {
        let Some((step, upper)) = self.single(leaf, count, Estimate::Pessimistic)? else {
            return Ok(None);
        };
        let (_, lower) =
            self.single(leaf, count, Estimate::Optimistic)?
                .ok_or(MathError::Inconsistent {
                    reason: "internal: one rounding of a single release is missing".into(),
                })?;
        Ok(Some(Band { step, upper, lower }))
    }

    /// `count` releases of k-ary randomized response at ε without sampling, on a step that
    /// divides ε (exact): a fixed grid's step moved to divide ε; under a budget, the step whose
    /// composed window fits the budget, moved to divide ε, refused when that is still four times
    /// too long (a long run at a large ε would need a grid finer than the budget allows, and a
    /// step that does not divide ε would swamp the loss with rounding).
    fn rr(
        &self,
        epsilon: f64,
        k: u64,
        count: u64,
        estimate: Estimate,
    ) -> Result<(f64, PldPair), MathError> {
        let step = self.rr_step(epsilon, k, count)?;
        let (h, pair) = rr_release(epsilon, k, step, estimate)?;
        Ok((h, pair.self_compose(count).map_err(|e| too_fine(e, h))?))
    }

    /// The grid step (before it is moved to divide ε) for `count` releases of randomized response.
    fn rr_step(&self, epsilon: f64, k: u64, count: u64) -> Result<f64, MathError> {
        Ok(match self.grid {
            Grid::Step(h) => h,
            Grid::Budget { buckets, .. } => {
                let probe = step_dividing(epsilon, (epsilon / 4.0).min(0.05));
                let (_, up) = rr_release(epsilon, k, probe, Estimate::Pessimistic)?;
                let width = up.composed_span(count) as f64 * probe;
                let h = step_dividing(epsilon, (width / buckets.max(16) as f64).max(1e-300));
                let (_, up) = rr_release(epsilon, k, h, Estimate::Pessimistic)?;
                if up.composed_span(count) > 4 * buckets {
                    return Err(MathError::Inconsistent {
                        reason: format!(
                            "{count} releases of randomized response at ε = {} need a loss grid \
                             longer than a budget of about {buckets} buckets allows",
                            crate::error::short(epsilon)
                        ),
                    });
                }
                h
            }
        })
    }

    /// One release of a one-release event (no sampler, or Poisson sampling of records or of a
    /// user's records; randomized response without sampling), both roundings, on the grid step this accountant uses for `count` of
    /// them: for sweeps over the count, which compose each count from these pairs (one forward
    /// transform; [`PldPair::self_compose_many`]). Returns the step and the (pessimistic,
    /// optimistic) pairs.
    pub fn release(&self, leaf: &Event, count: u64) -> Result<(f64, PldPair, PldPair), MathError> {
        leaf.validate()?;
        if let Some((epsilon, k)) = unsampled_rr(leaf) {
            let step = self.rr_step(epsilon, k, count)?;
            let (h, up) = rr_release(epsilon, k, step, Estimate::Pessimistic)?;
            let (_, lo) = rr_release(epsilon, k, step, Estimate::Optimistic)?;
            return Ok((h, up, lo));
        }
        let parts = Parts::new(self, &[(leaf, count)])?;
        if !matches!(
            parts.parts[..],
            [(
                Part::Noise(..) | Part::User(..) | Part::Capped(..) | Part::Clones(..),
                _
            )]
        ) {
            return Err(MathError::Unsupported {
                reason:
                    "one release of additive noise, randomized response or a shuffle round only"
                        .into(),
            });
        }
        let step = self.step_of(&parts)?;
        let up = parts.pairs(self, step, Estimate::Pessimistic)?;
        let lo = parts.pairs(self, step, Estimate::Optimistic)?;
        Ok((step, up[0].0.clone(), lo[0].0.clone()))
    }

    /// The grid step of shuffled epochs composed alone (the Gaussian at μ = √E/σ and the lower
    /// bound's pair share it): the budget's step for the Gaussian, at least the lower bound's own
    /// step; a fixed step as given.
    fn shuffle_step(&self, sigma: f64, epochs: u64) -> Result<f64, MathError> {
        Ok(match self.grid {
            Grid::Step(h) => h,
            Grid::Budget { buckets, .. } => {
                let mu = deterministic_mu(sigma, epochs, Neighbours::ZeroOut)?;
                crate::pld::step_for_budget(Noise::Gaussian(1.0 / mu), 1.0, 1, buckets)?
                    .max(self.epochs.lower_step)
            }
        })
    }

    /// The grid step for the parts of a general event: a fixed step, or the budget's, measured on
    /// a coarse probe grid (refined while the composed window holds fewer than 256 buckets), as
    /// [`crate::pld::step_for_budget`] does for one part.
    fn step_of(&self, parts: &Parts) -> Result<f64, MathError> {
        let h = self.budget_step(&|probe| parts.pairs(self, probe, Estimate::Pessimistic))?;
        Ok(if parts.has_shuffled() {
            h.max(self.epochs.lower_step)
        } else {
            h
        })
    }

    /// The grid step of this accountant for the pessimistic pairs `pairs_at(h)` (each composed
    /// its number of times): fixed, or the composed window's width over the bucket budget
    /// (probed on coarse grids), never below the budget's finest step.
    fn budget_step(
        &self,
        pairs_at: &dyn Fn(f64) -> Result<Vec<(PldPair, u64)>, MathError>,
    ) -> Result<f64, MathError> {
        match self.grid {
            Grid::Step(h) => Ok(h),
            Grid::Budget { buckets, min_step } => {
                let mut probe = 1e-2;
                let width = loop {
                    let pairs = pairs_at(probe)?;
                    let refs: Vec<(&PldPair, u64)> = pairs.iter().map(|(p, k)| (p, *k)).collect();
                    let span = PldPair::composed_span_of(&refs);
                    if span >= 256 || probe < 1e-7 {
                        break span as f64 * probe;
                    }
                    probe /= 30.0;
                };
                let h = (width / buckets.max(16) as f64).clamp(STEP_RANGE.0, STEP_RANGE.1);
                Ok(h.max(min_step))
            }
        }
    }
}

/// [`reshuffled_lower_pair`], remembered.
fn lower_pair(
    sigma: f64,
    steps_per_epoch: u64,
    epochs: u64,
    slices: usize,
    step: f64,
) -> Result<PldPair, MathError> {
    type Key = (u64, u64, u64, usize, u64);
    thread_local! {
        static SLOT: crate::memo::Slot<Key, PldPair> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let key = (
        sigma.to_bits(),
        steps_per_epoch,
        epochs,
        slices,
        step.to_bits(),
    );
    crate::memo::remembered(&SLOT, key, || {
        reshuffled_lower_pair(sigma, steps_per_epoch, epochs, slices, step)
    })
    .map(|p| (*p).clone())
}

/// [`allocation_atoms`] of one epoch, remembered (the expensive part; placing them on a loss
/// grid is cheap).
fn balls_atoms(
    sigma: f64,
    steps_per_epoch: u64,
    log_step: f64,
    estimate: Estimate,
) -> Result<std::rc::Rc<AllocationAtoms>, MathError> {
    type Key = (u64, u64, u64, Estimate);
    thread_local! {
        static SLOT: crate::memo::Slot<Key, AllocationAtoms> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let key = (
        sigma.to_bits(),
        steps_per_epoch,
        log_step.to_bits(),
        estimate,
    );
    crate::memo::remembered(&SLOT, key, || {
        allocation_atoms(sigma, steps_per_epoch, log_step, estimate)
    })
}

/// [`crate::shuffle::clone_atoms`] of one round, remembered (moving the number of rounds or δ
/// does not recompute them).
fn clone_atoms_memo(
    eps0: f64,
    users: u64,
    stronger: bool,
    estimate: Estimate,
) -> Result<std::rc::Rc<crate::shuffle::CloneAtoms>, MathError> {
    type Key = (u64, u64, bool, Estimate);
    thread_local! {
        static SLOT: crate::memo::Slot<Key, crate::shuffle::CloneAtoms> = const { std::cell::RefCell::new(Vec::new()) };
    }
    crate::memo::remembered(&SLOT, (eps0.to_bits(), users, stronger, estimate), || {
        crate::shuffle::clone_atoms(eps0, users, stronger, estimate)
    })
}

/// The pessimistic PLD of E shuffled epochs: the Gaussian mechanism at μ = √E/σ (sensitivity 1),
/// on the grid step h.
fn shuffle_upper(sigma: f64, epochs: u64, step: f64) -> Result<PldPair, MathError> {
    let mu = deterministic_mu(sigma, epochs, Neighbours::ZeroOut)?;
    poisson_gaussian(1.0 / mu, 1.0, step, Estimate::Pessimistic)
}

/// One epoch's pair composed over `epochs` epochs (itself for one).
fn over(one: PldPair, epochs: u64) -> Result<PldPair, MathError> {
    if epochs == 1 {
        Ok(one)
    } else {
        one.self_compose(epochs)
    }
}

impl Accountant for PldAccountant {
    fn name(&self) -> &'static str {
        "the PLD accountant"
    }

    /// (certified upper bound, lower bound). Shuffled epochs alone: the upper bound is the
    /// analytic Gaussian ε at μ = √E/σ (exact for any fixed order), the lower bound from
    /// [`reshuffled_lower_pair`] on the lower bound's own grid; both epoch samplers report a
    /// lower bound of at most the upper one.
    fn epsilon(&self, event: &Event, delta: f64) -> Result<Bounds, MathError> {
        if let Some((sigma, t, up, low)) = lone_shuffle(event) {
            event.validate()?;
            let upper = deterministic_epsilon(sigma, up, Neighbours::ZeroOut, delta)?;
            let lower = lower_pair(sigma, t, low, self.epochs.slices, self.epochs.lower_step)?
                .epsilon_for_delta(delta)?;
            return Ok(Bounds {
                upper,
                lower: Some(lower.min(upper)),
            });
        }
        let (upper, lower) = self.band(event)?.epsilon(delta)?;
        let lower = if is_lone_epochs(event) {
            lower.min(upper)
        } else {
            lower
        };
        Ok(Bounds {
            upper,
            lower: Some(lower),
        })
    }

    fn delta(&self, event: &Event, epsilon: f64) -> Result<Bounds, MathError> {
        crate::check_epsilon("ε", epsilon)?;
        if let Some((sigma, t, up, low)) = lone_shuffle(event) {
            event.validate()?;
            let upper = deterministic_delta(sigma, up, Neighbours::ZeroOut, epsilon)?;
            let lower = lower_pair(sigma, t, low, self.epochs.slices, self.epochs.lower_step)?
                .delta_for_epsilon(epsilon);
            return Ok(Bounds {
                upper,
                lower: Some(lower.min(upper)),
            });
        }
        let (upper, lower) = self.band(event)?.delta(epsilon);
        Ok(Bounds {
            upper,
            lower: Some(lower),
        })
    }

    /// From the pessimistic composition alone (half the work of a band): ε at δ, δ at ε, the
    /// attacker's TPR at an FPR or advantage ([`crate::risk::RiskTarget::risk`]).
    fn measure(&self, event: &Event, target: Target) -> Result<f64, MathError> {
        if let (Some((sigma, _, up, _)), Target::Epsilon { delta, .. }) =
            (lone_shuffle(event), target)
        {
            event.validate()?;
            return deterministic_epsilon(sigma, up, Neighbours::ZeroOut, delta);
        }
        let (_, upper) = self.compose(event, Estimate::Pessimistic)?;
        match target {
            Target::Epsilon { delta, .. } => upper.epsilon_for_delta(delta),
            Target::Delta { epsilon, .. } => Ok(upper.delta_for_epsilon(epsilon)),
            Target::Risk(r) => r.risk(&upper),
        }
    }
}

/// k-ary randomized response at ε on a grid step moved to divide ε (so its PLD is exact): the
/// step used and the pair.
fn rr_release(
    epsilon: f64,
    k: u64,
    step: f64,
    estimate: Estimate,
) -> Result<(f64, PldPair), MathError> {
    let h = step_dividing(epsilon, step);
    randomized_response(epsilon, k, h, estimate).map(|p| (h, p))
}

/// (ε, k) of k-ary randomized response on every record (no sampler, or Poisson sampling at
/// rate 1), binary as k = 2.
fn unsampled_rr(leaf: &Event) -> Option<(f64, u64)> {
    let m = match *leaf {
        Event::Mechanism(m) => m,
        Event::Sampled {
            sampler: Sampler::Poisson { q: 1.0 },
            mechanism,
        } => mechanism,
        _ => return None,
    };
    match m {
        Mechanism::RandomizedResponse { epsilon } => Some((epsilon, 2)),
        Mechanism::KaryRandomizedResponse { epsilon, k } => Some((epsilon, k)),
        _ => None,
    }
}

/// σ when the event is one release of the Gaussian mechanism on all the records.
fn unsampled_gaussian(leaf: &Event) -> Option<f64> {
    match *leaf {
        Event::Mechanism(Mechanism::Gaussian { sigma })
        | Event::Sampled {
            sampler: Sampler::Poisson { q: 1.0 },
            mechanism: Mechanism::Gaussian { sigma },
        } => Some(sigma),
        _ => None,
    }
}

/// (σ, T, upper epochs, lower epochs) when the event is shuffled epochs alone.
fn lone_shuffle(event: &Event) -> Option<(f64, u64, u64, u64)> {
    match event.leaves()[..] {
        [(
            Event::Epochs {
                sampler: EpochSampler::Shuffled,
                mechanism: Mechanism::Gaussian { sigma },
                steps_per_epoch,
                upper_epochs,
                lower_epochs,
            },
            count,
        )] => Some((
            *sigma,
            *steps_per_epoch,
            upper_epochs.saturating_mul(count),
            lower_epochs.saturating_mul(count),
        )),
        _ => None,
    }
}

/// Whether the event is epochs of one sampler alone.
fn is_lone_epochs(event: &Event) -> bool {
    matches!(
        event.leaves()[..],
        [(Event::Epochs { .. } | Event::Allocation { .. }, _)]
    )
}
