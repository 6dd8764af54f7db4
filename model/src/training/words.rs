//! The training run in words: the lengths, samplers and noises of its phases, and the copyable
//! privacy statements.

use super::*;

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
