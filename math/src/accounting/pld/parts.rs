//! The releases of a general event prepared once for any grid step (additive noise and randomized
//! response as formulas, balls-in-bins epochs as atoms, shuffled epochs as parameters), and the
//! errors of a grid too fine.

use super::*;

/// The releases of a general event, ready to be put on any grid step: additive noise and
/// randomized response as formulas, balls-in-bins epochs as their atoms (computed once, the
/// expensive part), shuffled epochs as their parameters.
pub(super) struct Parts {
    pub(super) parts: Vec<(Part, u64)>,
}

pub(super) enum Part {
    /// Additive noise on a Poisson sample at rate q (1: all records).
    Noise(Noise, f64),
    /// k-ary randomized response at ε, no sampling.
    Rr(f64, u64),
    /// Gaussian noise σ on a Poisson sample at rate q of users' R records each (user-level).
    User(f64, f64, u64),
    /// Gaussian noise σ on a Poisson sample at rate q from n records capped at m records.
    Capped(f64, f64, u64, u64),
    /// Shuffled epochs: σ, T, whole epochs for the upper and the lower bound.
    Shuffled(f64, u64, u64, u64),
    /// Balls-in-bins epochs: σ, T, the log-grid step of the sums, whole epochs for the upper
    /// and the lower bound.
    Balls(f64, u64, f64, u64, u64),
    /// One round of the shuffle model: ε₀, n, stronger clones.
    Clones(f64, u64, bool),
}

impl Parts {
    pub(super) fn new(acc: &PldAccountant, leaves: &[(&Event, u64)]) -> Result<Parts, MathError> {
        let mut parts = Vec::with_capacity(leaves.len());
        for &(leaf, count) in leaves {
            let part = match *leaf {
                Event::Mechanism(m) => (mechanism_part(m, 1.0)?, count),
                Event::Sampled {
                    sampler: Sampler::Poisson { q },
                    mechanism,
                } => (mechanism_part(mechanism, q)?, count),
                Event::Sampled {
                    sampler: Sampler::PoissonUser { q, records },
                    mechanism: Mechanism::Gaussian { sigma },
                } => (Part::User(sigma, q, records), count),
                Event::Sampled {
                    sampler: Sampler::TruncatedPoisson { q, max_batch, n },
                    mechanism: Mechanism::Gaussian { sigma },
                } => (Part::Capped(sigma, q, n, max_batch), count),
                Event::Sampled { sampler, .. } => {
                    return Err(MathError::Unsupported {
                        reason: format!(
                            "the PLD accountant handles Poisson sampling; {} is accounted by Rényi DP here",
                            match sampler {
                                Sampler::PoissonUser { .. } =>
                                    "a user's several records with other than Gaussian noise has no accountant and",
                                Sampler::TruncatedPoisson { .. } =>
                                    "capped batches with other than Gaussian noise have no accountant and",
                                Sampler::WithoutReplacement { .. } =>
                                    "sampling without replacement",
                                _ => "sampling with replacement has no accountant and",
                            }
                        ),
                    })
                }
                Event::Epochs {
                    sampler,
                    mechanism: Mechanism::Gaussian { sigma },
                    steps_per_epoch,
                    upper_epochs,
                    lower_epochs,
                } => {
                    let (up, low) = (upper_epochs * count, lower_epochs * count);
                    match sampler {
                        EpochSampler::Shuffled => {
                            (Part::Shuffled(sigma, steps_per_epoch, up, low), 1)
                        }
                        EpochSampler::BallsInBins => {
                            let g = acc.epochs.log_step_for(sigma, steps_per_epoch);
                            (Part::Balls(sigma, steps_per_epoch, g, up, low), 1)
                        }
                    }
                }
                Event::Epochs { .. } => {
                    return Err(MathError::Unsupported {
                        reason: "shuffled and balls-in-bins batches are analysed here for \
                                 Gaussian noise only"
                            .into(),
                    })
                }
                Event::Allocation {
                    mechanism: Mechanism::Gaussian { sigma },
                    steps,
                    participations: 1,
                } => {
                    let g = acc.epochs.log_step_for(sigma, steps);
                    (Part::Balls(sigma, steps, g, count, count), 1)
                }
                Event::Allocation { .. } => {
                    return Err(MathError::Unsupported {
                        reason: "random allocation (each example in k of T steps) is accounted \
                                 alone here, not composed with other events"
                            .into(),
                    })
                }
                Event::Shuffle {
                    eps0,
                    users,
                    stronger,
                } => (Part::Clones(eps0, users, stronger), count),
                Event::Repeated { .. } | Event::Composed(_) => {
                    return Err(MathError::Inconsistent {
                        reason: "internal: a leaf of an event is a single release".into(),
                    })
                }
            };
            parts.push(part);
        }
        Ok(Parts { parts })
    }

    pub(super) fn has_shuffled(&self) -> bool {
        self.parts
            .iter()
            .any(|(p, _)| matches!(p, Part::Shuffled(..)))
    }

    /// Every part as a PLD pair of one rounding on the grid step h, with how often it is
    /// composed.
    pub(super) fn pairs(
        &self,
        acc: &PldAccountant,
        step: f64,
        estimate: Estimate,
    ) -> Result<Vec<(PldPair, u64)>, MathError> {
        self.parts
            .iter()
            .map(|(part, count)| {
                Ok(match part {
                    Part::Noise(noise, q) => (noise.poisson(*q, step, estimate)?, *count),
                    Part::User(sigma, q, r) => (
                        poisson_gaussian_group(*sigma, *q, *r, step, estimate)?,
                        *count,
                    ),
                    Part::Capped(sigma, q, n, m) => (
                        truncated_poisson_gaussian(*sigma, *q, *n, *m, step, estimate)?,
                        *count,
                    ),
                    Part::Rr(epsilon, k) => {
                        (randomized_response(*epsilon, *k, step, estimate)?, *count)
                    }
                    Part::Shuffled(sigma, t, up, low) => match estimate {
                        Estimate::Pessimistic => (shuffle_upper(*sigma, *up, step)?, 1),
                        Estimate::Optimistic => {
                            (lower_pair(*sigma, *t, *low, acc.epochs.slices, step)?, 1)
                        }
                    },
                    Part::Balls(sigma, t, g, up, low) => {
                        let atoms = balls_atoms(*sigma, *t, *g, estimate)?;
                        let count = match estimate {
                            Estimate::Pessimistic => *up,
                            Estimate::Optimistic => *low,
                        };
                        (atoms.pld(step), count)
                    }
                    Part::Clones(eps0, n, stronger) => (
                        clone_atoms_memo(*eps0, *n, *stronger, estimate)?.pld(step),
                        *count,
                    ),
                })
            })
            .collect()
    }

    /// The composition of every part of one rounding on the grid step h.
    pub(super) fn compose(
        &self,
        acc: &PldAccountant,
        step: f64,
        estimate: Estimate,
    ) -> Result<PldPair, MathError> {
        let pairs = self.pairs(acc, step, estimate)?;
        let refs: Vec<(&PldPair, u64)> = pairs.iter().map(|(p, k)| (p, *k)).collect();
        PldPair::compose(&refs).map_err(|e| too_fine(e, step))
    }
}

fn mechanism_part(m: Mechanism, q: f64) -> Result<Part, MathError> {
    Ok(match m {
        Mechanism::Gaussian { sigma } => Part::Noise(Noise::Gaussian(sigma), q),
        Mechanism::Laplace { scale } => Part::Noise(Noise::Laplace(scale), q),
        Mechanism::RandomizedResponse { epsilon } if q == 1.0 => Part::Rr(epsilon, 2),
        Mechanism::KaryRandomizedResponse { epsilon, k } if q == 1.0 => Part::Rr(epsilon, k),
        _ => {
            debug_assert!(!is_additive(&m));
            return Err(MathError::Unsupported {
                reason: "the PLD accountant handles randomized response without sampling only"
                    .into(),
            });
        }
    })
}

/// A composition that would not fit the FFT, said in the reader's terms.
pub(super) fn too_fine(e: MathError, step: f64) -> MathError {
    match e {
        MathError::OutOfDomain {
            name: "h", value, ..
        } => MathError::Inconsistent {
            reason: format!(
                "this run's privacy loss spreads over {} grid steps of h = {}, more than the \
                 accountant holds (2²⁶): its ε is far beyond any useful guarantee; account \
                 fewer steps or more noise, or use a coarser grid",
                crate::error::short(value),
                crate::error::short(step)
            ),
        },
        e => e,
    }
}
