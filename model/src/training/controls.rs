//! The training page's controls read as a run (its phases, the warnings about it) and a run file's
//! run written back as the page's values.

use super::*;

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
