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

/// The controls of one phase: its batch size, length and unit, sampler, and noise sizes.
struct PhaseParams {
    batch: Count,
    length: Pick<Length>,
    epochs: Real,
    steps: Count,
    batching: Pick<Batching>,
    sigma: Real,
    scale: Real,
}

/// The controls of the first phase (the run's own).
const FIRST: PhaseParams = PhaseParams {
    batch: p::BATCH,
    length: p::LENGTH,
    epochs: p::EPOCHS,
    steps: p::STEPS,
    batching: p::BATCHING,
    sigma: p::SIGMA,
    scale: p::SCALE,
};

/// The controls of phases 2, 3 and 4.
const LATER: [PhaseParams; MAX_PHASES - 1] = [
    PhaseParams {
        batch: p::BATCH_2,
        length: p::LENGTH_2,
        epochs: p::EPOCHS_2,
        steps: p::STEPS_2,
        batching: p::BATCHING_2,
        sigma: p::SIGMA_2,
        scale: p::SCALE_2,
    },
    PhaseParams {
        batch: p::BATCH_3,
        length: p::LENGTH_3,
        epochs: p::EPOCHS_3,
        steps: p::STEPS_3,
        batching: p::BATCHING_3,
        sigma: p::SIGMA_3,
        scale: p::SCALE_3,
    },
    PhaseParams {
        batch: p::BATCH_4,
        length: p::LENGTH_4,
        epochs: p::EPOCHS_4,
        steps: p::STEPS_4,
        batching: p::BATCHING_4,
        sigma: p::SIGMA_4,
        scale: p::SCALE_4,
    },
];

/// One phase's controls as read: its noise, batch size, length (in epochs or steps) and sampler.
struct PhaseInput {
    noise: Noise,
    batch: u64,
    by_epochs: bool,
    epochs: f64,
    steps: u64,
    batching: Batching,
}

/// One phase from its controls, or why it cannot be accounted for.
fn phase(
    values: &ParamValues,
    input: PhaseInput,
    which: &str,
) -> Result<TrainingPhase, ModelError> {
    let PhaseInput {
        noise,
        batch,
        by_epochs,
        epochs,
        steps,
        batching,
    } = input;
    let dataset = values.count(p::DATASET);
    if batch > dataset {
        return Err(ModelError::NotApplicable(format!(
            "{which}: the batch size B = {batch} cannot exceed the dataset size |x| = {dataset}"
        )));
    }
    // Gradient accumulation: A micro-batches of B summed before the noise, one noisy step.
    let accumulation = values.count(p::ACCUMULATION);
    let batch = batch.saturating_mul(accumulation);
    if batch > dataset {
        return Err(ModelError::NotApplicable(format!(
            "{which}: the effective batch A·B = {} cannot exceed the dataset size |x| = {dataset}",
            group_digits(batch)
        )));
    }
    let q = batch as f64 / dataset as f64;
    // Capped Poisson batches are Poisson batches with the run's cap M (`max-batch`).
    let batching = if batching == Batching::TruncatedPoisson {
        if values.count(p::MAX_BATCH) == 0 {
            return Err(ModelError::NotApplicable(format!(
                "{which}: capped Poisson batches need a maximum batch size M above 0"
            )));
        }
        Batching::Poisson
    } else {
        batching
    };
    let steps = if by_epochs {
        steps_for_epochs(epochs, q)
    } else {
        steps
    };
    if steps > MAX_STEPS {
        return Err(ModelError::NotApplicable(format!(
            "{} steps is more than this page accounts for (at most {})",
            group_digits(steps),
            group_digits(MAX_STEPS)
        )));
    }
    Ok(TrainingPhase {
        noise,
        batch,
        q,
        steps,
        by_epochs,
        batching,
    })
}

/// The reader's run, or why it cannot be accounted for.
pub fn setting(values: &ParamValues) -> Result<Training, ModelError> {
    let noise = |sigma: Real, scale: Real| match values.choice(p::MECH) {
        MechanismChoice::Gaussian => Ok(Noise::Gaussian(values.real(sigma))),
        MechanismChoice::Laplace => Ok(Noise::Laplace(values.real(scale))),
        MechanismChoice::RandomizedResponse | MechanismChoice::KaryRandomizedResponse => Err(
            "DP-SGD adds Gaussian or Laplace noise to the clipped gradients; \
             randomized response is on the Rényi DP page"
                .to_string(),
        ),
    };
    let count = values.choice::<PhaseCount>(p::PHASES).count();
    let read = |i: usize, c: &PhaseParams| -> Result<TrainingPhase, ModelError> {
        phase(
            values,
            PhaseInput {
                noise: noise(c.sigma, c.scale)?,
                batch: values.count(c.batch),
                by_epochs: values.choice(c.length) == Length::Epochs,
                epochs: values.real(c.epochs),
                steps: values.count(c.steps),
                batching: values.choice(c.batching),
            },
            &format!("phase {}", i + 1),
        )
    };
    let first = read(0, &FIRST)?;
    let mut more = [None; MAX_PHASES - 1];
    for (i, (slot, c)) in more.iter_mut().zip(&LATER).enumerate().take(count - 1) {
        *slot = Some(read(i + 1, c)?);
    }
    let dataset = values.count(p::DATASET);
    let delta = values.real(p::DELTA);
    if delta < 1e-11 {
        return Err("the tight accountant needs δ of at least 1e-11".into());
    }
    Training {
        noise: first.noise,
        q: first.q,
        steps: first.steps,
        delta,
        dataset,
        batch: first.batch,
        by_epochs: first.by_epochs,
        batching: first.batching,
        more,
        records: values.count(p::RECORDS),
        // A cap of |x| or more never binds: no cap.
        max_batch: Some(values.count(p::MAX_BATCH))
            .filter(|&m| m < dataset)
            .unwrap_or(0),
        accumulation: values.count(p::ACCUMULATION),
        bands: 1,
        reader: (dataset, first.steps),
    }
    .banded(values.count(p::BANDS))
}

/// Warnings about the setting that do not stop the accounting (shown beside the readouts).
pub fn warnings(t: &Training) -> Vec<String> {
    let mut out = Vec::new();
    let own = t.phases().iter().any(|ph| ph.batching != Batching::Poisson);
    if own && !t.is_phased() {
        out.push(
            "The tight ε is for Poisson sampling, not for your loop: it is what a Poisson \
             accountant would report. Your loop's own band is under \u{201c}How batches are \
             formed\u{201d}, on the zero-out relation."
                .into(),
        );
    } else if own {
        out.push(
            "The tight ε treats every phase as Poisson-sampled: it is what a Poisson \
             accountant would report. Your run, each phase with its own sampler, is in the \
             statement below and the attacker's numbers, on the zero-out relation."
                .into(),
        );
    }
    if t.accumulation > 1 {
        out.push(format!(
            "With A = {} accumulation steps, B = {} is a micro-batch: each step samples one batch \
             of expected size A·B = {} and splits it into A micro-batches, and the noise is added \
             once to their sum, so the rate is q = A·B/|x| = {} and the run has {} noisy steps. An \
             accountant given the micro-batch as the batch size would count A times as many steps \
             at rate B/|x| and report a smaller ε (the readout below).",
            group_digits(t.accumulation),
            group_digits(t.batch / t.accumulation),
            group_digits(t.batch),
            short_number(t.q, 4),
            group_digits(t.total_steps())
        ));
    }
    if t.max_batch > 0 && t.max_batch < t.batch {
        out.push(format!(
            "The cap M = {} is below the expected batch size B = {}: most steps are cut to M, so \
             the run uses fewer examples than B per step, and an example that displaces another \
             moves the gradient sum by up to 2C. Set B to what you can afford, or M above it.",
            group_digits(t.max_batch),
            group_digits(t.batch)
        ));
    }
    if let Err(e) = t.check_records(None) {
        out.push(format!(
            "The tight ε above is for Poisson batches; {e}, so your loop's own numbers are not shown."
        ));
    }
    if t.delta >= 1.0 / t.reader.0 as f64 {
        out.push(format!(
            "δ = {} is at least 1/|x| = {}: a mechanism that publishes one random example \
             outright meets such a δ. Choose δ well below 1/|x|.",
            short_number(t.delta, 3),
            short_number(1.0 / t.reader.0 as f64, 3)
        ));
    }
    out
}

/// The PLD accountant at a budget of buckets, with the balls-in-bins and shuffle settings of the
/// precision (`quick`: those that follow a slider).
pub fn accountant(buckets: usize, epochs: EpochSettings) -> PldAccountant {
    PldAccountant::with_budget(buckets, pld::STEP_RANGE.0, epochs)
}

/// The composed band of an event at a budget, remembered for the last few (the readouts, the
/// attacker's numbers and the figures ask for the same ones).
pub fn band_of(event: &Event, acc: &PldAccountant) -> Result<Rc<pld::Band>, ModelError> {
    type Key = (Event, PldAccountant);
    thread_local! {
        static SLOT: super::memo::Slot<Key, pld::Band> = const { std::cell::RefCell::new(Vec::new()) };
    }
    remembered(&SLOT, (event.clone(), *acc), || {
        acc.band(event).map_err(ModelError::from)
    })
}

/// The composed band of the reader's run with Poisson sampling in every phase (the tight ε), at
/// a budget. At the refined budget ([`FINE`] or more) the band is kept at most [`BAND_WIDTH`] of
/// ε wide where ε ≥ 0.01 at the run's δ: a wider one (long runs at a small rate: 3.5% at σ = 3,
/// q = 0.001, 10,000 steps) is computed again with the budget its width asks for (the width
/// shrinks linearly with the grid step), at most [`MAX_REFINE`] times [`FINE`]; if even that is
/// not enough, that band, wider than asked, is the one shown.
pub fn cached_band(t: &Training, buckets: usize) -> Result<Rc<pld::Band>, ModelError> {
    let event = t.poisson_event();
    let band = band_of(&event, &accountant(buckets, EpochSettings::FINE))?;
    if buckets < FINE || band.step <= pld::STEP_RANGE.0 {
        return Ok(band);
    }
    let Ok((upper, lower)) = band.epsilon(t.delta) else {
        return Ok(band);
    };
    let wide = (upper - lower) / (BAND_WIDTH * 0.9 * upper);
    if upper < 0.01 || wide <= 1.0 {
        return Ok(band);
    }
    let more = (buckets as f64 * wide).min((MAX_REFINE * FINE) as f64) as usize;
    if more <= buckets {
        return Ok(band);
    }
    band_of(&event, &accountant(more, EpochSettings::FINE))
}

/// The widest refined band, relative to ε ([`cached_band`]): 1%.
pub const BAND_WIDTH: f64 = 0.01;
/// The most budget the refinement of a band spends, in multiples of [`FINE`].
pub const MAX_REFINE: usize = 4;

/// The noise (σ, or b for Laplace), the same in every phase, whose certified ε at δ over the run
/// (Poisson sampling) is at most `target`, to relative accuracy `rel`, at a budget.
pub fn calibrate(t: &Training, target: f64, buckets: usize, rel: f64) -> Result<f64, ModelError> {
    calibrate_event(
        &accountant(buckets, EpochSettings::FINE),
        |s| t.with_noise(s).poisson_event(),
        Target::Epsilon {
            epsilon: target,
            delta: t.delta,
        },
        Search::Noise { rel },
    )
    .map_err(ModelError::from)
}

/// [`calibrate`] of the first phase alone at another rate and length (the figures' sweeps).
pub fn calibrate_at(
    t: &Training,
    q: f64,
    steps: u64,
    target: f64,
    buckets: usize,
    rel: f64,
) -> Result<f64, ModelError> {
    let one = Training {
        q,
        steps,
        more: [None; MAX_PHASES - 1],
        batching: Batching::Poisson,
        ..*t
    };
    calibrate(&one, target, buckets, rel)
}

/// The Rényi DP ε of the run with Poisson sampling in every phase (improved conversion); none
/// for several records per user.
pub fn rdp_epsilon(t: &Training) -> Result<Converted, ModelError> {
    if t.max_batch > 0 {
        return Err(
            "no Rényi DP for capped batches here (the PLD band above accounts them)".into(),
        );
    }
    if t.records > 1 {
        return Err(ModelError::NotApplicable(format!(
            "no Rényi DP for a user with R = {} records here (the tight band above is exact to its grid)",
            t.records
        )));
    }
    RdpAccountant::default()
        .converted(&t.poisson_event(), t.delta)
        .map_err(ModelError::from)
}

/// Everything the readouts show.
#[derive(Clone, Debug, PartialEq)]
pub struct Account {
    /// Certified upper bound on ε at δ (pessimistic PLD).
    pub upper: f64,
    /// Lower bound on ε at δ (optimistic PLD).
    pub lower: f64,
    /// The grid step used.
    pub step: f64,
    /// ε from Rényi DP (improved conversion) with its order.
    pub rdp: Result<Converted, ModelError>,
    /// The noise for the target ε (certified), or why there is none.
    pub calibrated: Result<f64, ModelError>,
    /// Whether these are the refined numbers.
    pub fine: bool,
    /// ε for one user from a record's guarantee by the group-privacy lemma (None: no finite ε),
    /// or why there is none; R = 1: the tight ε itself.
    pub group_lemma: Result<Option<f64>, ModelError>,
    /// With gradient accumulation (A > 1), the certified ε an accountant would report if it took
    /// the micro-batch for the batch ([`Training::as_if_micro_batches`]): below the true one. The
    /// tight ε itself when A = 1.
    pub micro: Result<f64, ModelError>,
    /// The first phase's cap as probabilities per step ([`pld::truncation`]): t (the batch is
    /// cut to M) and the rate an example is in the batch; t = 0 and q without a cap.
    pub cap: pld::Truncation,
}

/// [`pld::truncation`] of a run's first phase: t = 0 and the rate q when it has no cap (M = 0)
/// or a cap no batch can reach.
pub fn cap_of(t: &Training) -> Result<pld::Truncation, ModelError> {
    if t.max_batch == 0 {
        return Ok(pld::Truncation {
            truncated: 0.0,
            rate_when_truncated: 0.0,
            rate: t.q,
            untruncated: 1.0,
        });
    }
    pld::truncation(t.dataset, t.q, t.max_batch).map_err(ModelError::from)
}

/// The readouts at a budget: [`QUICK`] while the controls move, [`FINE`] once they rest.
pub fn account(values: &ParamValues, fine: bool) -> Result<Account, ModelError> {
    let t = setting(values)?;
    t.check_records(Some(Batching::Poisson))?;
    let band = cached_band(&t, if fine { FINE } else { QUICK })?;
    let (upper, lower) = band.epsilon(t.delta).map_err(ModelError::from)?;
    let rdp = rdp_epsilon(&t);
    let (cal_budget, cal_rel) = if fine { (QUICK, 1e-4) } else { (3_680, 1e-3) };
    let calibrated = calibrate(&t, values.real(p::TARGET_EPS), cal_budget, cal_rel);
    let group_lemma = if t.records > 1 {
        amp_math::accounting::group_lemma_epsilon(
            &t.poisson_event(),
            t.records,
            t.delta,
            &accountant(if fine { FINE } else { QUICK }, EpochSettings::FINE),
        )
        .map_err(ModelError::from)
    } else {
        // One record per user: the lemma is the identity.
        Ok(Some(upper))
    };
    Ok(Account {
        upper,
        lower,
        step: band.step,
        rdp,
        calibrated,
        fine,
        group_lemma,
        micro: if t.accumulation > 1 {
            cached_band(&t.as_if_micro_batches(), if fine { FINE } else { QUICK })
                .and_then(|b| b.epsilon(t.delta).map_err(ModelError::from))
                .map(|e| e.0)
        } else {
            Ok(upper)
        },
        cap: cap_of(&t)?,
    })
}

/// The length of a phase in words: "2,250 steps" or "2,250 steps (90 epochs)".
fn length_words(ph: &TrainingPhase) -> String {
    if ph.by_epochs {
        format!(
            "{} steps ({} epochs)",
            group_digits(ph.steps),
            short_number(ph.epochs(), 4)
        )
    } else {
        format!("{} steps", group_digits(ph.steps))
    }
}

/// Gradient accumulation in words, after the batch size and rate (else nothing).
fn accumulation_words(t: &Training) -> String {
    if t.accumulation <= 1 {
        return String::new();
    }
    format!(
        ", each split into {} micro-batches of {} whose clipped gradients are summed before the \
         noise is added",
        group_digits(t.accumulation),
        group_digits(t.batch / t.accumulation)
    )
}

/// The cap on the batches when there is one, in words (else nothing).
fn capped_words(t: &Training, a: &Account) -> String {
    if t.max_batch == 0 {
        return String::new();
    }
    format!(
        ", capped at {} examples (when more are drawn, a random {0} are kept; a step's batch is \
         cut with probability {}, and an example is in a step's batch with probability {})",
        group_digits(t.max_batch),
        short_number(a.cap.truncated, 3),
        short_number(a.cap.rate, 4)
    )
}

/// How a phase forms its batches, in words.
fn sampler_words(b: Batching) -> &'static str {
    match b {
        Batching::Poisson | Batching::TruncatedPoisson => {
            "Poisson-sampled batches of expected size"
        }
        Batching::Shuffle => "batches of fixed size",
        Batching::BallsInBins => "balls-in-bins batches of expected size",
        Batching::Allocation => {
            "randomly allocated batches (each example in k steps) of expected size"
        }
    }
}

/// The noise of a phase in words, for the statement.
fn noise_words(noise: Noise) -> String {
    match noise {
        Noise::Gaussian(s) => format!(
            "Gaussian noise of standard deviation {}·C (noise multiplier σ = {0}) added to the sum \
             of per-example gradients clipped to L2 norm C",
            short_number(s, 4)
        ),
        Noise::Laplace(b) => format!(
            "Laplace noise of scale {}·C added to the sum of per-example gradients clipped to L1 \
             norm C",
            short_number(b, 4)
        ),
    }
}

/// A copyable privacy statement of a one-phase run with Poisson sampling, in plain words.
pub fn statement(t: &Training, a: &Account) -> String {
    if t.bands > 1 {
        return banded_statement(t, a);
    }
    let neighbours = if t.records > 1 {
        let lemma = match &a.group_lemma {
            Ok(Some(e)) => format!(
                "the group-privacy lemma applied to one example's guarantee would give ε = {}",
                short_number(*e, 4)
            ),
            _ => "the group-privacy lemma applied to one example's guarantee gives no finite ε"
                .to_string(),
        };
        format!(
            "one person, each person contributing {} examples (the mixture of Gaussians of \
             their examples in a Poisson batch; {lemma})",
            group_digits(t.records)
        )
    } else {
        "one example".to_string()
    };
    format!(
        "Training with DP-SGD on {} examples, {} {} (rate q = {}){}, {}, for {}, \
         satisfies (ε, δ)-differential privacy with ε = {} and δ = {}, for datasets that differ by \
         adding or removing {neighbours}. The ε is a certified upper bound from a privacy loss \
         distribution accountant (grid step {}); the exact ε of this mechanism is at least {}.",
        group_digits(t.dataset),
        sampler_words(t.batching),
        group_digits(t.batch),
        short_number(t.q, 4),
        accumulation_words(t) + &capped_words(t, a),
        noise_words(t.noise),
        length_words(&t.first()),
        short_number(a.upper, 4),
        short_number(t.delta, 3),
        short_number(a.step, 2),
        short_number(a.lower, 4),
    )
}

/// The statement of a run with banded noise ([`Training::banded`]).
fn banded_statement(t: &Training, a: &Account) -> String {
    let (n, steps) = t.reader;
    format!(
        "Training with DP-FTRL on {} examples, the noise correlated over {} steps by a banded \
         matrix factorisation whose strategy matrix has columns of L2 norm at most 1 (the \
         examples split into {1} groups used in turn, each step Poisson-sampling its group at \
         rate {}, batches of expected size {}), {}, for {} steps, satisfies (ε, δ)-differential \
         privacy with ε = {} and δ = {}, for datasets that differ by adding or removing one \
         example. Each example takes part in at most {} steps, at least {} apart, and the ε is a \
         certified upper bound from a privacy loss distribution accountant for that many Poisson \
         steps at that rate (amplification by cyclic Poisson sampling, Choquette-Choo et al. \
         2023; grid step {}); the exact ε of this accounting is at least {}.",
        group_digits(n),
        group_digits(t.bands),
        short_number(t.q, 4),
        group_digits(t.batch),
        noise_words(t.noise),
        group_digits(steps),
        short_number(a.upper, 4),
        short_number(t.delta, 3),
        group_digits(t.steps),
        group_digits(t.bands),
        short_number(a.step, 2),
        short_number(a.lower, 4),
    )
}

/// A copyable privacy statement of a run of phases, each with its own sampler, quoting the band
/// of the run as its phases form batches (`upper`, `lower`, on the grid step `step`) and the
/// relation it holds for.
pub fn phased_statement(
    t: &Training,
    upper: f64,
    lower: f64,
    step: f64,
    relation: amp_math::Relation,
) -> String {
    let phases: Vec<String> = t
        .phases()
        .iter()
        .enumerate()
        .map(|(i, ph)| {
            format!(
                "({}) {} {} (rate q = {}), {}, for {}",
                i + 1,
                sampler_words(ph.batching),
                group_digits(ph.batch),
                short_number(ph.q, 4),
                noise_words(ph.noise),
                length_words(ph)
            )
        })
        .collect();
    let neighbours = match relation {
        amp_math::Relation::AddRemove => "differ by adding or removing one example",
        _ => {
            "differ in one example whose gradient is replaced by zero (replacing it by another \
             example doubles the sensitivity)"
        }
    };
    format!(
        "Training with DP-SGD on {} examples in {} phases, {}, satisfies (ε, δ)-differential \
         privacy with ε = {} and δ = {}, for datasets that {neighbours}. The ε is a certified upper \
         bound from a privacy loss distribution accountant composing the phases (grid step {}); \
         the exact ε of this training run is at least {}.",
        group_digits(t.dataset),
        t.phases().len(),
        phases.join("; "),
        short_number(upper, 4),
        short_number(t.delta, 3),
        short_number(step, 2),
        short_number(lower, 4),
    )
}

/// The page's parameter values showing a run file's run (the training page's "Open run"), on top
/// of `values`: δ, the mechanism, |x|, and each phase's batch size, length, sampler and noise. A run
/// the page cannot show is refused with the reason (the bands are set to 1): more than [`MAX_PHASES`] phases, randomized
/// response, sampling without sampler or without replacement, phases on datasets of different
/// sizes, Gaussian and Laplace noise mixed. (The caller checks the constraints between
/// parameters (the pages' `check_together`), as for any change of values.) A Poisson phase given by its rate alone gets the batch
/// size round(q·|x|), |x| from the other phases or the page.
pub fn values_for_run(run: &Run, values: &ParamValues) -> Result<ParamValues, ModelError> {
    if run.phases.len() > MAX_PHASES {
        return Err(ModelError::NotApplicable(format!(
            "the page shows at most {MAX_PHASES} phases (the file has {}); amplify account --run accounts any number",
            run.phases.len()
        )));
    }
    let sizes = |ph: &Phase| match ph.sampling {
        PhaseSampling::Poisson {
            sizes: Some((d, _)),
            ..
        }
        | PhaseSampling::Epochs { dataset: d, .. } => Some(d),
        _ => None,
    };
    let datasets: Vec<u64> = run.phases.iter().filter_map(sizes).collect();
    if datasets.windows(2).any(|w| w[0] != w[1]) {
        return Err("the page's phases share one dataset size; this file's phases differ".into());
    }
    let dataset = datasets
        .first()
        .copied()
        .unwrap_or_else(|| values.count(p::DATASET));
    let gaussian = matches!(run.phases[0].mechanism, Mechanism::Gaussian { .. });
    let mut v = values.clone();
    let set =
        |v: &mut ParamValues, spec: &'static crate::params::ParamSpec, x: crate::params::Value| {
            v.set(spec, x).map_err(|e| format!("{}: {e}", spec.label))
        };
    use crate::params::Value;
    set(&mut v, p::DATASET.spec, Value::Count(dataset))?;
    set(&mut v, p::DELTA.spec, Value::Real(run.delta))?;
    // A run file's phases are DP-SGD phases: no banded noise (b = 1).
    set(&mut v, p::BANDS.spec, Value::Count(1))?;
    v.set_choice(
        p::MECH,
        if gaussian {
            MechanismChoice::Gaussian
        } else {
            MechanismChoice::Laplace
        },
    );
    v.set_choice(p::PHASES, PhaseCount::of(run.phases.len()));
    for (i, (ph, slot)) in run
        .phases
        .iter()
        .zip(std::iter::once(&FIRST).chain(&LATER))
        .enumerate()
    {
        let which = format!("phase {}", i + 1);
        let (batch, batching) = match ph.sampling {
            PhaseSampling::Poisson { q, sizes } => (
                sizes.map_or(((q * dataset as f64).round() as u64).max(1), |(_, b)| b),
                Batching::Poisson,
            ),
            PhaseSampling::Epochs { sampler, batch, .. } => (
                batch,
                match sampler {
                    EpochSampler::Shuffled => Batching::Shuffle,
                    EpochSampler::BallsInBins => Batching::BallsInBins,
                },
            ),
            PhaseSampling::None | PhaseSampling::WithoutReplacement { .. } => {
                return Err(ModelError::NotApplicable(format!(
                "{which}: the page forms batches by Poisson sampling, shuffling or balls in bins; \
                     this phase has {} (amplify account --run accounts it)",
                ph.sampling.id()
            )))
            }
        };
        match (ph.mechanism, gaussian) {
            (Mechanism::Gaussian { sigma }, true) => {
                set(&mut v, slot.sigma.spec, Value::Real(sigma))?
            }
            (Mechanism::Laplace { scale }, false) => {
                set(&mut v, slot.scale.spec, Value::Real(scale))?
            }
            _ => {
                return Err(ModelError::NotApplicable(format!(
                    "{which}: the page's phases all add Gaussian noise or all Laplace noise"
                )))
            }
        }
        set(&mut v, slot.batch.spec, Value::Count(batch))?;
        v.set_choice(slot.batching, batching);
        match ph.length {
            RunLength::Steps(k) => {
                v.set_choice(slot.length, Length::Steps);
                set(&mut v, slot.steps.spec, Value::Count(k))?;
            }
            RunLength::Epochs(e) => {
                v.set_choice(slot.length, Length::Epochs);
                set(&mut v, slot.epochs.spec, Value::Real(e))?;
            }
        }
    }
    Ok(v)
}
