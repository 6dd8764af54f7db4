//! The training page's model: a DP-SGD run of one or more phases (the machine-learning
//! regime of Steinke's "Limits of privacy amplification by subsampling"; issue 6; runs of phases,
//! issue 34), as events ([`amp_math::accounting::Event`]), accounted with privacy loss
//! distributions ([`PldAccountant`]) beside Rényi DP, under add/remove one example (Poisson
//! sampling) or zero-out (the other samplers).
//!
//! Cost is bounded by a budget of FFT buckets per composition rather than by a fixed grid step
//! ([`Grid::Budget`]): what follows a slider uses [`QUICK`], the numbers shown once the controls
//! rest use [`FINE`]. A coarser grid never makes the upper bound invalid, only the band between the
//! two bounds wider, and the band is always shown.

use crate::ModelError;
use std::rc::Rc;

use amp_math::accounting::{
    calibrate_event, EpochSampler, EpochSettings, Event, PldAccountant, RdpAccountant, Search,
    Target,
};
use amp_math::pld::{self, Noise};
use amp_math::rdp::{Converted, Mechanism, Sampling};

use super::memo::remembered;
use super::renyi::RdpSetting;
use super::run::{epoch_shape, steps_for_epochs, Length as RunLength, Phase, PhaseSampling, Run};
use crate::param as p;
use crate::params::{
    Batching, Count, Length, Mechanism as MechanismChoice, ParamValues, PhaseCount, Pick, Real,
};
use amp_format::{group_digits, short_number};

mod controls;
pub use controls::*;

mod words;
pub use words::*;

mod account;
pub use account::*;

/// FFT buckets per composition for numbers that follow a slider (about 10 ms natively). Budgets
/// are 90% of a power of two, so that the Chernoff window's slack does not double the transform.
pub const QUICK: usize = 29_500;
/// FFT buckets per composition for the refined numbers (grid step about [`pld::DEFAULT_STEP`]
/// for DP-SGD runs of about 2,000–10,000 steps at ε ≈ 7; finer for smaller ε).
pub const FINE: usize = 236_000;
/// Budget per composition in the ε-against-epochs figure (one forward transform, one inverse per
/// point).
pub const FIGURE: usize = 14_700;
/// Budget per evaluation inside a calibration for a figure (many evaluations per point).
pub const CALIBRATION: usize = 1_840;
/// Most steps the page accounts for (in one phase).
pub const MAX_STEPS: u64 = 1_000_000_000;
/// What a figure about one phase says of a run of several (its sweeps vary the first phase's
/// batch size, rate or epochs).
pub const FIRST_PHASE_ONLY: &str =
    "With several phases, this figure is about the first phase alone (its batch size, rate and length).";

/// Most phases a run on the page has.
pub const MAX_PHASES: usize = 4;

/// One phase of the reader's run: its noise, batches, length and sampler.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainingPhase {
    /// The noise added to the clipped gradient sum (sensitivity 1).
    pub noise: Noise,
    /// B (expected batch size).
    pub batch: u64,
    /// Sampling rate q = B/|x|.
    pub q: f64,
    /// Steps k.
    pub steps: u64,
    /// Whether the length was given in epochs (else in steps).
    pub by_epochs: bool,
    /// How the loop forms its batches.
    pub batching: Batching,
}

/// The reader's training run. The fields describe its first phase (the page's own controls, and
/// all of a one-phase run); `more` holds the phases after it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Training {
    /// The noise added to the clipped gradient sum (sensitivity 1).
    pub noise: Noise,
    /// Sampling rate q = B/|x|.
    pub q: f64,
    /// Steps k.
    pub steps: u64,
    /// δ.
    pub delta: f64,
    /// |x|.
    pub dataset: u64,
    /// B (expected batch size).
    pub batch: u64,
    /// Whether the length was given in epochs (else in steps).
    pub by_epochs: bool,
    /// How the loop forms its batches (the tight PLD numbers are for Poisson sampling; the other
    /// samplers have their own bands, [`super::batching`]).
    pub batching: Batching,
    /// The phases after the first, in order.
    pub more: [Option<TrainingPhase>; MAX_PHASES - 1],
    /// Records per user R (1: record-level DP; more: each phase's Poisson batches sample the
    /// user's R records independently, and the guarantee is for one user).
    pub records: u64,
    /// The cap M on every Poisson batch (0: none): more than M drawn, a random M are kept
    /// ([`amp_math::accounting::Sampler::TruncatedPoisson`]).
    pub max_batch: u64,
    /// Gradient accumulation steps A (1: none): the page's batch sizes are micro-batches, and
    /// every phase's `batch` (and so q and the steps) is the effective batch A·B.
    pub accumulation: u64,
    /// Bands b of a banded matrix factorisation (1: DP-SGD). With b > 1 the run is held as what
    /// is accounted ([`Training::banded`]): one group of ⌊|x|/b⌋ examples, rate b·B/|x|, ⌈T/b⌉
    /// steps; `reader` keeps the dataset size and steps the reader gave.
    pub bands: u64,
    /// The reader's |x| and steps T (the same as `dataset` and `steps` when b = 1).
    pub reader: (u64, u64),
}

impl TrainingPhase {
    /// Epochs the steps make: k·q.
    pub fn epochs(&self) -> f64 {
        self.steps as f64 * self.q
    }

    /// The phase as an event with the given sampler (its own, or another to compare): Poisson
    /// sampling at q for its steps (of users' R records each, [`Event::poisson_users`]), or whole
    /// epochs of the other samplers ([`epoch_shape`]; record-level only, an R > 1 is refused
    /// there by [`Training::check_records`]).
    pub fn event(&self, dataset: u64, records: u64, max_batch: u64, sampler: Batching) -> Event {
        let mechanism = mechanism(self.noise);
        let epochs = |sampler| {
            let (t, up, low) = epoch_shape(dataset, self.batch, self.steps, self.by_epochs);
            Event::Epochs {
                sampler,
                mechanism,
                steps_per_epoch: t,
                upper_epochs: up,
                lower_epochs: low,
            }
        };
        match sampler {
            Batching::Poisson | Batching::TruncatedPoisson => {
                self.step(dataset, records, max_batch).repeated(self.steps)
            }
            Batching::Shuffle => epochs(EpochSampler::Shuffled),
            Batching::BallsInBins => epochs(EpochSampler::BallsInBins),
            Batching::Allocation => Event::Allocation {
                mechanism,
                steps: self.steps,
                participations: self.participations(),
            },
        }
    }

    /// With random allocation, the steps k each example takes part in: the phase's epochs T·q
    /// rounded to a whole number, between 1 and T (each batch then holds k·|x|/T examples on
    /// average, the reader's B when T·q is whole).
    pub fn participations(&self) -> u64 {
        ((self.steps as f64 * self.q).round() as u64).clamp(1, self.steps.max(1))
    }

    /// One Poisson step of the phase: of users' R records each ([`Event::poisson_users`]), or
    /// capped at M examples when M > 0 ([`Event::truncated_poisson`]; R = 1 then, as
    /// [`Training::check_records`] requires).
    pub fn step(&self, dataset: u64, records: u64, max_batch: u64) -> Event {
        let mechanism = mechanism(self.noise);
        if max_batch > 0 {
            Event::truncated_poisson(mechanism, self.q, max_batch, dataset)
        } else {
            Event::poisson_users(mechanism, self.q, records)
        }
    }

    /// The same phase with another noise size.
    pub fn with_noise(self, size: f64) -> TrainingPhase {
        TrainingPhase {
            noise: self.noise.with_size(size),
            ..self
        }
    }
}

impl Training {
    /// Epochs the first phase's steps make: k·q.
    pub fn epochs(&self) -> f64 {
        self.first().epochs()
    }

    /// The first phase.
    pub fn first(&self) -> TrainingPhase {
        TrainingPhase {
            noise: self.noise,
            batch: self.batch,
            q: self.q,
            steps: self.steps,
            by_epochs: self.by_epochs,
            batching: self.batching,
        }
    }

    /// Every phase, in order.
    pub fn phases(&self) -> Vec<TrainingPhase> {
        std::iter::once(self.first())
            .chain(self.more.iter().flatten().copied())
            .collect()
    }

    /// Whether the run has more than one phase.
    pub fn is_phased(&self) -> bool {
        self.more.iter().any(Option::is_some)
    }

    /// The whole run as an event, every phase with `sampler` (`None`: each with its own). With
    /// Poisson sampling this is what a Poisson accountant reports (the page's tight ε).
    pub fn event(&self, sampler: Option<Batching>) -> Event {
        let events: Vec<Event> = self
            .phases()
            .iter()
            .map(|ph| {
                ph.event(
                    self.dataset,
                    self.records,
                    self.max_batch,
                    sampler.unwrap_or(ph.batching),
                )
            })
            .collect();
        match <[Event; 1]>::try_from(events) {
            Ok([one]) => one,
            Err(many) => Event::Composed(many),
        }
    }

    /// One Poisson step of the first phase (what a figure of one step draws).
    pub fn step_event(&self) -> Event {
        self.first()
            .step(self.dataset, self.records, self.max_batch)
    }

    /// Whether the run is accounted through its events rather than one Poisson-subsampled
    /// mechanism's formulas: several phases, several records per user, or capped batches.
    pub fn needs_events(&self) -> bool {
        self.is_phased() || self.records > 1 || self.max_batch > 0
    }

    /// Whether the run can be accounted with `sampler` in every phase (`None`: each its own):
    /// several records per user, and capped batches, are accounted for Poisson batches with
    /// Gaussian noise only, and not together.
    pub fn check_records(&self, sampler: Option<Batching>) -> Result<(), ModelError> {
        if self.is_phased()
            && self
                .phases()
                .iter()
                .any(|ph| sampler.unwrap_or(ph.batching) == Batching::Allocation)
        {
            return Err(
                "random allocation (each example in k of the run's steps) is accounted here for a \
                 run of one phase"
                    .into(),
            );
        }
        if self.bands > 1
            && sampler.is_some_and(|s| !matches!(s, Batching::Poisson | Batching::TruncatedPoisson))
        {
            return Err(ModelError::NotApplicable(format!(
                "banded noise (b = {}) is accounted here for cyclic Poisson sampling only",
                self.bands
            )));
        }
        if self.max_batch > 0 {
            if self.records > 1 {
                return Err(
                    "a cap on the batch size is accounted here for one record per user only \
                     (R = 1)"
                        .into(),
                );
            }
            if self.phases().iter().any(|ph| {
                !matches!(
                    sampler.unwrap_or(ph.batching),
                    Batching::Poisson | Batching::TruncatedPoisson
                )
            }) {
                return Err(ModelError::NotApplicable(format!(
                    "with batches capped at M = {}, only Poisson batches are accounted here",
                    group_digits(self.max_batch)
                )));
            }
            if self
                .phases()
                .iter()
                .any(|ph| !matches!(ph.noise, Noise::Gaussian(_)))
            {
                return Err(ModelError::NotApplicable(format!(
                    "with batches capped at M = {}, Gaussian noise only",
                    group_digits(self.max_batch)
                )));
            }
            return Ok(());
        }
        if self.records == 1 {
            return Ok(());
        }
        if self
            .phases()
            .iter()
            .any(|ph| sampler.unwrap_or(ph.batching) != Batching::Poisson)
        {
            return Err(ModelError::NotApplicable(format!(
                "with R = {} records per user, only Poisson batches are accounted here",
                self.records
            )));
        }
        if self
            .phases()
            .iter()
            .any(|ph| !matches!(ph.noise, Noise::Gaussian(_)))
        {
            return Err(ModelError::NotApplicable(format!(
                "with R = {} records per user, Gaussian noise only (the mixture of Gaussians)",
                self.records
            )));
        }
        Ok(())
    }

    /// The neighbouring relation of the run's guarantee with Poisson batches: add or remove one
    /// example, or one user with all their records when R > 1.
    pub fn relation(&self) -> amp_math::Relation {
        if self.records > 1 {
            amp_math::Relation::AddRemoveUser
        } else {
            amp_math::Relation::AddRemove
        }
    }

    /// The run as an accountant would see it if each micro-batch of a gradient-accumulation run
    /// were taken for the batch (the mistake of jax_privacy#234): every phase at rate q/A for A
    /// times its steps, the same noise. Itself when A = 1.
    pub fn as_if_micro_batches(&self) -> Training {
        let a = self.accumulation.max(1);
        let mut t = *self;
        let shrink = |ph: &mut TrainingPhase| {
            ph.batch = (ph.batch / a).max(1);
            ph.q /= a as f64;
            ph.steps = ph.steps.saturating_mul(a);
        };
        let mut first = t.first();
        shrink(&mut first);
        t.batch = first.batch;
        t.q = first.q;
        t.steps = first.steps;
        for ph in t.more.iter_mut().flatten() {
            shrink(ph);
        }
        t.accumulation = 1;
        t
    }

    /// The run with Poisson sampling in every phase (the page's tight ε).
    pub fn poisson_event(&self) -> Event {
        self.event(Some(Batching::Poisson))
    }

    /// The same run with one noise size in every phase (what a calibration varies).
    pub fn with_noise(&self, size: f64) -> Training {
        let mut t = *self;
        t.noise = t.noise.with_size(size);
        for ph in t.more.iter_mut().flatten() {
            *ph = ph.with_noise(size);
        }
        t
    }

    /// The same run with every phase's length scaled by `factor` (at least one step each).
    pub fn scaled(&self, factor: f64) -> Training {
        let scale = |k: u64| ((k as f64 * factor).round() as u64).max(1);
        let mut t = *self;
        t.steps = scale(t.steps);
        for ph in t.more.iter_mut().flatten() {
            ph.steps = scale(ph.steps);
        }
        t
    }

    /// The run with its noise correlated over `bands` = b steps by a banded matrix factorisation
    /// (DP-FTRL / BandMF), as it is accounted (itself when b = 1). Source: Choquette-Choo,
    /// McMahan, Rush & Thakurta (2023), "(Amplified) banded matrix factorization", arXiv
    /// 2306.08153, Thm. 4 (amplification by cyclic Poisson sampling); the reduction is
    /// jax_privacy 2.0's `amplified_bandmf_event`. The |x| examples are split into b groups used
    /// in turn (step t draws from group t mod b), each step Poisson-sampling its group at rate
    /// q' = b·B/|x|. With the strategy matrix's columns normalised to L2 norm ≤ 1 (the
    /// assumption under which σ is the noise multiplier) and b-banded, one example's ⌈T/b⌉
    /// participations touch disjoint blocks of the noise, and the run is exactly as private as
    /// DP-SGD at rate q' for ⌈T/b⌉ steps (add/remove one example): an upper bound when b does
    /// not divide T (some groups take part ⌊T/b⌋ times), exact otherwise. That run is what is
    /// returned: q = q', steps = ⌈T/b⌉, |x| = ⌊|x|/b⌋ (the smallest group, so that B/|x| is at
    /// least q' in the figures' sweeps). Refused, with the reason, for several phases, other
    /// samplers, several records per user, a cap, Laplace noise, and b·B > |x|.
    pub fn banded(self, bands: u64) -> Result<Training, ModelError> {
        if bands <= 1 {
            return Ok(self);
        }
        let why = |what: &str| {
            Err(ModelError::NotApplicable(format!(
                "banded noise (b = {bands}) is accounted here {what}"
            )))
        };
        if self.is_phased() {
            return why("for a run of one phase");
        }
        if self.batching != Batching::Poisson || self.max_batch > 0 {
            return why(
                "for its own sampling, cyclic Poisson: choose Poisson batches without a cap",
            );
        }
        if self.records > 1 {
            return why("for one record per user (R = 1)");
        }
        if !matches!(self.noise, Noise::Gaussian(_)) {
            return why("for Gaussian noise only");
        }
        let (n, b) = (self.dataset, bands);
        if b.saturating_mul(self.batch) > n {
            return Err(ModelError::NotApplicable(format!(
                "with b = {b} bands each group has {} examples, fewer than the batch B = {}: at \
                 most |x|/B = {} bands",
                group_digits(n / b),
                group_digits(self.batch),
                group_digits(n / self.batch)
            )));
        }
        Ok(Training {
            q: (self.q * b as f64).min(1.0),
            steps: self.steps.div_ceil(b),
            dataset: n / b,
            bands: b,
            ..self
        })
    }

    /// Steps over all phases.
    pub fn total_steps(&self) -> u64 {
        self.phases().iter().map(|ph| ph.steps).sum()
    }

    /// Epochs over all phases.
    pub fn total_epochs(&self) -> f64 {
        self.phases().iter().map(TrainingPhase::epochs).sum()
    }

    /// The Rényi DP view of the first phase's mechanism.
    pub fn rdp_setting(&self) -> RdpSetting {
        RdpSetting {
            mech: mechanism(self.noise),
            sampling: Sampling::Poisson { q: self.q },
            sizes: None,
        }
    }

    /// The noise in words: "Gaussian noise, σ = 1.1" (the first phase's).
    pub fn noise_label(&self) -> String {
        match self.noise {
            Noise::Gaussian(s) => format!("Gaussian noise, σ = {}", short_number(s, 4)),
            Noise::Laplace(b) => format!("Laplace noise, b = {}", short_number(b, 4)),
        }
    }

    /// The run as a run file ([`Run`]): each phase with its own sampler, Poisson phases by their
    /// dataset and batch sizes, the length as the reader gave it (with b > 1 bands, the DP-SGD run
    /// it is accounted as, [`Training::banded`]). Random allocation has no place in a run file:
    /// refused with the reason.
    pub fn run(&self) -> Result<Run, ModelError> {
        if self
            .phases()
            .iter()
            .any(|ph| ph.batching == Batching::Allocation)
        {
            return Err(
                "a run file holds Poisson, shuffled and balls-in-bins phases; random allocation \
                 is accounted by amplify account --batching allocation"
                    .into(),
            );
        }
        let phases = self
            .phases()
            .iter()
            .map(|ph| Phase {
                mechanism: mechanism(ph.noise),
                sampling: match ph.batching {
                    Batching::Poisson => PhaseSampling::Poisson {
                        q: ph.q,
                        sizes: Some((self.dataset, ph.batch)),
                    },
                    b => PhaseSampling::Epochs {
                        sampler: if b == Batching::Shuffle {
                            EpochSampler::Shuffled
                        } else {
                            EpochSampler::BallsInBins
                        },
                        dataset: self.dataset,
                        batch: ph.batch,
                    },
                },
                length: if ph.by_epochs {
                    RunLength::Epochs(ph.epochs())
                } else {
                    RunLength::Steps(ph.steps)
                },
            })
            .collect();
        Ok(Run {
            delta: self.delta,
            phases,
        })
    }
}

/// The base mechanism of a noise.
pub fn mechanism(noise: Noise) -> Mechanism {
    match noise {
        Noise::Gaussian(sigma) => Mechanism::Gaussian { sigma },
        Noise::Laplace(scale) => Mechanism::Laplace { scale },
    }
}
