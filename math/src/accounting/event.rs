//! Events: mechanisms, samplers and their composition, as plain data.

use crate::rdp::Mechanism;
use crate::{MathError, Relation};

/// How the records reach a mechanism at one step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Sampler {
    /// Each record independently with probability q (add or remove one record).
    Poisson {
        /// The sampling rate q ∈ (0, 1].
        q: f64,
    },
    /// A uniformly random subset of exactly m of the n records (replace one record).
    WithoutReplacement {
        /// Sample size m ≥ 1.
        m: u64,
        /// Dataset size n ≥ m.
        n: u64,
    },
    /// Poisson sampling of a user's R records, each independently with probability q; the
    /// guarantee is for adding or removing one user with all their records (user-level DP). Build
    /// it with [`Event::poisson_users`], which gives plain [`Sampler::Poisson`] for R = 1.
    PoissonUser {
        /// The sampling rate q ∈ (0, 1] of each record.
        q: f64,
        /// Records per user R ≥ 2.
        records: u64,
    },
    /// Poisson sampling at rate q from a dataset of n records, the batch then cut to at most m
    /// records (a uniform m of those drawn when more were): capped batches, as a memory limit
    /// imposes (add or remove one record; n counts the record). Build it with
    /// [`Event::truncated_poisson`].
    TruncatedPoisson {
        /// The sampling rate q ∈ (0, 1] of each record before the cap.
        q: f64,
        /// The cap m ≥ 1 on the batch size.
        max_batch: u64,
        /// Dataset size n ≥ 1, the record included.
        n: u64,
    },
    /// m independent uniform draws from the n records, a record possibly drawn several times
    /// (replace one record).
    WithReplacement {
        /// Draws m ≥ 1.
        m: u64,
        /// Dataset size n ≥ 1.
        n: u64,
    },
}

/// How a training loop that uses every example in exactly one step of each epoch forms its
/// batches (the samplers of `crate::batching`). Their guarantees hold for **zero-out** neighbours
/// (one example's clipped gradient replaced by 0; the dataset size is fixed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EpochSampler {
    /// The examples shuffled and cut into T batches of a fixed size, reshuffled every epoch.
    Shuffled,
    /// Each example placed in one uniformly random step of every epoch ("balls in bins").
    BallsInBins,
}

/// A privacy event: what is released, how the records reach it, and how often.
///
/// Build a DP-SGD run of k steps at rate q with noise multiplier σ as
/// `Event::poisson(Mechanism::Gaussian { sigma }, q).repeated(k)`, and a run of phases as
/// `Event::Composed(vec![phase_1, phase_2])`.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// One release of a mechanism on all the records (no sampling).
    Mechanism(Mechanism),
    /// One release of a mechanism on a random sample of the records.
    Sampled {
        /// How the sample is drawn.
        sampler: Sampler,
        /// What is released about it.
        mechanism: Mechanism,
    },
    /// Whole epochs of a training loop that uses each example once per epoch (Gaussian noise of
    /// multiplier σ on the clipped gradient sum, sensitivity 1). A run that stops inside an epoch
    /// lies between `lower_epochs` and `upper_epochs` whole epochs: upper bounds account the
    /// latter, lower bounds the former.
    Epochs {
        /// How batches are formed.
        sampler: EpochSampler,
        /// The noise on each batch's gradient sum (Gaussian only).
        mechanism: Mechanism,
        /// Steps (batches) per epoch T ≥ 1.
        steps_per_epoch: u64,
        /// Whole epochs the upper bounds account (≥ `lower_epochs`).
        upper_epochs: u64,
        /// Whole epochs the lower bounds account (≥ 1).
        lower_epochs: u64,
    },
    /// Random allocation without epochs: each record used in exactly k of T steps chosen
    /// uniformly at random, Gaussian noise of multiplier σ on each step's clipped gradient sum
    /// (sensitivity 1). Its guarantee holds for zero-out neighbours (as balls in bins, which is
    /// k = 1). Accounted alone (not inside a composition) by [`super::PldAccountant`].
    Allocation {
        /// The noise on each step's gradient sum (Gaussian only).
        mechanism: Mechanism,
        /// Steps T ≥ 1.
        steps: u64,
        /// Participations k, 1 ≤ k ≤ T.
        participations: u64,
    },
    /// One round of the shuffle model: each of n users applies an ε₀-LDP randomizer to their
    /// record and only the shuffled reports are released (replace one user's record). Accounted
    /// through the clone pair ([`crate::shuffle::clone_atoms`]): FMT21's clones for any ε₀-LDP
    /// randomizer, or with `stronger` FMT23's, which hold only for the randomizers of
    /// [`crate::shuffle::stronger_clones_exclude`] (k-ary randomized response): the caller checks.
    Shuffle {
        /// The local ε₀ of each report.
        eps0: f64,
        /// Users n ≥ 1.
        users: u64,
        /// FMT23's stronger clones (k-ary randomized response only).
        stronger: bool,
    },
    /// One event run `count` times in sequence, each run seeing the outputs of the earlier ones.
    Repeated {
        /// The event.
        event: Box<Event>,
        /// How many times, at least 1.
        count: u64,
    },
    /// Events run one after another on the same records (adaptively).
    Composed(Vec<Event>),
}

impl Event {
    /// One release of `mechanism` on a Poisson sample at rate q.
    pub fn poisson(mechanism: Mechanism, q: f64) -> Event {
        Event::Sampled {
            sampler: Sampler::Poisson { q },
            mechanism,
        }
    }

    /// One release of `mechanism` on a Poisson sample at rate q of records that belong to users
    /// with R records each, for user-level neighbours: [`Sampler::PoissonUser`], or
    /// [`Event::poisson`] itself when R = 1 (so a one-record user is today's event, exactly).
    pub fn poisson_users(mechanism: Mechanism, q: f64, records: u64) -> Event {
        if records == 1 {
            return Event::poisson(mechanism, q);
        }
        Event::Sampled {
            sampler: Sampler::PoissonUser { q, records },
            mechanism,
        }
    }

    /// One release of `mechanism` on a Poisson sample at rate q from n records, capped at m
    /// records ([`Sampler::TruncatedPoisson`]); a cap of n or more never binds and gives
    /// [`Event::poisson`] itself.
    pub fn truncated_poisson(mechanism: Mechanism, q: f64, max_batch: u64, n: u64) -> Event {
        if max_batch >= n {
            return Event::poisson(mechanism, q);
        }
        Event::Sampled {
            sampler: Sampler::TruncatedPoisson { q, max_batch, n },
            mechanism,
        }
    }

    /// The records per user the event's guarantee covers (1 unless a part samples users).
    pub fn records_per_user(&self) -> u64 {
        self.leaves()
            .iter()
            .map(|(leaf, _)| match leaf {
                Event::Sampled {
                    sampler: Sampler::PoissonUser { records, .. },
                    ..
                } => *records,
                _ => 1,
            })
            .max()
            .unwrap_or(1)
    }

    /// The same event for one record: every user-level Poisson sample ([`Sampler::PoissonUser`])
    /// replaced by a Poisson sample of records at the same rate (what the group-privacy lemma
    /// starts from).
    pub fn record_level(&self) -> Event {
        match self {
            Event::Sampled {
                sampler: Sampler::PoissonUser { q, .. },
                mechanism,
            } => Event::poisson(*mechanism, *q),
            Event::Repeated { event, count } => event.record_level().repeated(*count),
            Event::Composed(parts) => {
                Event::Composed(parts.iter().map(Event::record_level).collect())
            }
            other => other.clone(),
        }
    }

    /// This event run `count` times.
    pub fn repeated(self, count: u64) -> Event {
        Event::Repeated {
            event: Box::new(self),
            count,
        }
    }

    /// The single releases this event is made of, each with how many times it runs, equal
    /// releases merged (in order of first appearance). Composition is commutative, so this is all
    /// an accountant needs.
    pub fn leaves(&self) -> Vec<(&Event, u64)> {
        let mut out: Vec<(&Event, u64)> = Vec::new();
        self.collect_leaves(1, &mut out);
        out
    }

    fn collect_leaves<'a>(&'a self, times: u64, out: &mut Vec<(&'a Event, u64)>) {
        match self {
            Event::Repeated { event, count } => {
                event.collect_leaves(times.saturating_mul(*count), out)
            }
            Event::Composed(parts) => {
                for p in parts {
                    p.collect_leaves(times, out);
                }
            }
            leaf => match out.iter_mut().find(|(e, _)| *e == leaf) {
                Some((_, k)) => *k = k.saturating_add(times),
                None => out.push((leaf, times)),
            },
        }
    }

    /// Check every parameter of the event: the mechanisms' own ([`Mechanism::validate`]), rates
    /// in (0, 1], sample sizes, epoch counts, and at least one release.
    pub fn validate(&self) -> Result<(), MathError> {
        match self {
            Event::Mechanism(m) => m.validate(),
            Event::Sampled { sampler, mechanism } => validate_sampled(sampler, mechanism),
            Event::Epochs {
                mechanism,
                steps_per_epoch,
                upper_epochs,
                lower_epochs,
                ..
            } => validate_epochs(mechanism, *steps_per_epoch, *upper_epochs, *lower_epochs),
            Event::Allocation {
                mechanism,
                steps,
                participations,
            } => validate_allocation(mechanism, *steps, *participations),
            Event::Shuffle { eps0, users, .. } => {
                crate::shuffle::check_eps0(*eps0)?;
                crate::shuffle::check_users(*users)
            }
            Event::Repeated { event, count } => {
                if *count == 0 {
                    return Err(MathError::Inconsistent {
                        reason: "an event is repeated at least once".into(),
                    });
                }
                event.validate()
            }
            Event::Composed(parts) => {
                if parts.is_empty() {
                    return Err(MathError::Inconsistent {
                        reason: "compose at least one event".into(),
                    });
                }
                parts.iter().try_for_each(Event::validate)?;
                self.relation().map(|_| ())
            }
        }
    }

    /// The neighbouring relation the event's guarantee holds for.
    ///
    /// - Additive noise (Gaussian, Laplace) on all records or on a Poisson sample: add/remove one
    ///   record. Randomized response and the fixed-size samplers (with or without replacement):
    ///   replace one. Shuffled and balls-in-bins epochs: zero-out (one example's contribution set
    ///   to 0).
    /// - A composition holds for the relation its parts share. The add/remove pair of additive
    ///   noise on a Poisson sample (or on everything) with sensitivity 1 is also its zero-out pair
    ///   (the record's contribution is present or 0, the dataset size does not enter), so
    ///   add/remove parts compose with zero-out parts under zero-out. Any other mix is
    ///   [`MathError::Inconsistent`]: their guarantees speak of different pairs of datasets.
    pub fn relation(&self) -> Result<Relation, MathError> {
        match self {
            Event::Mechanism(m) => Ok(if is_additive(m) {
                Relation::AddRemove
            } else {
                Relation::ReplaceOne
            }),
            Event::Sampled { sampler, mechanism } => Ok(match sampler {
                Sampler::Poisson { .. } if is_additive(mechanism) => Relation::AddRemove,
                Sampler::PoissonUser { .. } => Relation::AddRemoveUser,
                Sampler::TruncatedPoisson { .. } => Relation::AddRemove,
                _ => Relation::ReplaceOne,
            }),
            Event::Epochs { .. } | Event::Allocation { .. } => Ok(Relation::ZeroOut),
            Event::Shuffle { .. } => Ok(crate::shuffle::RELATION),
            Event::Repeated { event, .. } => event.relation(),
            Event::Composed(parts) => {
                let mut out: Option<Relation> = None;
                for p in parts {
                    let r = p.relation()?;
                    out = Some(match (out, r) {
                        (None, r) => r,
                        (Some(a), b) if a == b => a,
                        (Some(Relation::AddRemove), Relation::ZeroOut)
                        | (Some(Relation::ZeroOut), Relation::AddRemove) => Relation::ZeroOut,
                        (Some(a), b) => {
                            return Err(MathError::Inconsistent {
                                reason: format!(
                                    "these events hold for different neighbouring relations ({} and {}); \
                                     compose events of one relation",
                                    a.label(),
                                    b.label()
                                ),
                            })
                        }
                    });
                }
                out.ok_or_else(|| MathError::Inconsistent {
                    reason: "compose at least one event".into(),
                })
            }
        }
    }

    /// The sensitivity the noise is scaled to: every additive mechanism here adds noise to a query
    /// of sensitivity 1 (σ and b are multipliers of the sensitivity: L2 for the Gaussian, L1 for
    /// Laplace). `None` when no part of the event adds noise (randomized response perturbs a
    /// value instead).
    pub fn sensitivity(&self) -> Option<f64> {
        self.leaves()
            .iter()
            .filter_map(|(leaf, _)| match leaf {
                Event::Mechanism(m) | Event::Sampled { mechanism: m, .. } => {
                    is_additive(m).then_some(1.0)
                }
                Event::Epochs { .. } | Event::Allocation { .. } => Some(1.0),
                _ => None,
            })
            .reduce(f64::max)
    }

    /// The number of releases (steps) the event makes: the repetitions of its parts, with
    /// `upper_epochs`·T for epochs.
    pub fn releases(&self) -> u64 {
        self.leaves()
            .iter()
            .map(|(leaf, k)| match leaf {
                Event::Epochs {
                    steps_per_epoch,
                    upper_epochs,
                    ..
                } => k.saturating_mul(steps_per_epoch.saturating_mul(*upper_epochs)),
                Event::Allocation { steps, .. } => k.saturating_mul(*steps),
                _ => *k,
            })
            .fold(0u64, u64::saturating_add)
    }
}

/// Whether a mechanism adds noise to a sensitivity-1 query (Gaussian, Laplace) rather than
/// randomizing a value.
pub(super) fn is_additive(m: &Mechanism) -> bool {
    matches!(m, Mechanism::Gaussian { .. } | Mechanism::Laplace { .. })
}

/// The checks of one sampled release ([`Event::Sampled`]): the mechanism's own, then the
/// sampler's rate, sizes and the noise it is accounted for.
fn validate_sampled(sampler: &Sampler, mechanism: &Mechanism) -> Result<(), MathError> {
    mechanism.validate()?;
    match *sampler {
        Sampler::Poisson { q } => crate::check_rate("q", q),
        Sampler::PoissonUser { q, records } => {
            crate::check_rate("q", q)?;
            if !(2..=crate::pld::MAX_RECORDS).contains(&records) {
                return Err(MathError::OutOfDomain {
                    name: "records per user",
                    value: records as f64,
                    expected: "a whole number from 1 to 64",
                });
            }
            if !matches!(mechanism, Mechanism::Gaussian { .. }) {
                return Err(MathError::Unsupported {
                    reason: "several records per user are accounted here for \
                             Gaussian noise only"
                        .into(),
                });
            }
            Ok(())
        }
        Sampler::TruncatedPoisson { q, max_batch, n } => {
            crate::check_rate("q", q)?;
            if n == 0 || max_batch == 0 {
                return Err(MathError::Inconsistent {
                    reason: "a capped batch needs a dataset of at least one record \
                             and a cap of at least one"
                        .into(),
                });
            }
            if !matches!(mechanism, Mechanism::Gaussian { .. }) {
                return Err(MathError::Unsupported {
                    reason: "capped Poisson batches are accounted here for Gaussian \
                             noise only"
                        .into(),
                });
            }
            Ok(())
        }
        Sampler::WithoutReplacement { m, n } | Sampler::WithReplacement { m, n } => {
            if m == 0 || n == 0 {
                return Err(MathError::Inconsistent {
                    reason: "a sample needs at least one record of at least one".into(),
                });
            }
            if matches!(sampler, Sampler::WithoutReplacement { .. }) && m > n {
                return Err(MathError::Inconsistent {
                    reason: format!(
                        "a sample of m = {m} without replacement cannot exceed the n = {n} records"
                    ),
                });
            }
            Ok(())
        }
    }
}

/// The checks of whole epochs ([`Event::Epochs`]): Gaussian noise, at least one step per epoch
/// and at least one epoch, the lower count not above the upper.
fn validate_epochs(
    mechanism: &Mechanism,
    steps_per_epoch: u64,
    upper_epochs: u64,
    lower_epochs: u64,
) -> Result<(), MathError> {
    mechanism.validate()?;
    if !matches!(mechanism, Mechanism::Gaussian { .. }) {
        return Err(MathError::Unsupported {
            reason: "shuffled and balls-in-bins batches are analysed here for Gaussian \
                     noise only"
                .into(),
        });
    }
    if steps_per_epoch == 0 || lower_epochs == 0 || lower_epochs > upper_epochs {
        return Err(MathError::Inconsistent {
            reason: "epochs need at least one step each, and at least one epoch".into(),
        });
    }
    Ok(())
}

/// The checks of random allocation ([`Event::Allocation`]): Gaussian noise and 1 ≤ k ≤ T.
fn validate_allocation(
    mechanism: &Mechanism,
    steps: u64,
    participations: u64,
) -> Result<(), MathError> {
    mechanism.validate()?;
    if !matches!(mechanism, Mechanism::Gaussian { .. }) {
        return Err(MathError::Unsupported {
            reason: "random allocation is analysed here for Gaussian noise only".into(),
        });
    }
    if participations == 0 || participations > steps {
        return Err(MathError::Inconsistent {
            reason: format!(
                "each example takes part in k = {participations} of T = {steps} \
                 steps: k must be from 1 to T"
            ),
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gauss(sigma: f64) -> Mechanism {
        Mechanism::Gaussian { sigma }
    }

    #[test]
    fn leaves_merge_equal_releases_and_multiply_repetitions() {
        let a = Event::poisson(gauss(1.0), 0.01);
        let b = Event::poisson(gauss(2.0), 0.01);
        let run = Event::Composed(vec![
            a.clone().repeated(300),
            b.clone().repeated(10).repeated(5),
            a.clone().repeated(700),
        ]);
        assert_eq!(run.leaves(), vec![(&a, 1000), (&b, 50)]);
        assert_eq!(run.releases(), 1050);
        assert_eq!(run.relation(), Ok(Relation::AddRemove));
        assert_eq!(run.sensitivity(), Some(1.0));
        assert!(run.validate().is_ok());
    }

    #[test]
    fn relations_come_from_the_events() {
        let rr = Event::Mechanism(Mechanism::RandomizedResponse { epsilon: 1.0 });
        assert_eq!(rr.relation(), Ok(Relation::ReplaceOne));
        assert_eq!(rr.sensitivity(), None);
        let wor = Event::Sampled {
            sampler: Sampler::WithoutReplacement { m: 10, n: 100 },
            mechanism: gauss(1.0),
        };
        assert_eq!(wor.relation(), Ok(Relation::ReplaceOne));
        let bnb = Event::Epochs {
            sampler: EpochSampler::BallsInBins,
            mechanism: gauss(1.0),
            steps_per_epoch: 100,
            upper_epochs: 3,
            lower_epochs: 2,
        };
        assert_eq!(bnb.relation(), Ok(Relation::ZeroOut));
        assert_eq!(bnb.releases(), 300);
        // Poisson (add/remove) then balls in bins: both hold for zero-out.
        let mixed = Event::Composed(vec![Event::poisson(gauss(1.0), 0.1).repeated(5), bnb]);
        assert_eq!(mixed.relation(), Ok(Relation::ZeroOut));
        // Randomized response with Gaussian noise: no common relation.
        let bad = Event::Composed(vec![rr, Event::Mechanism(gauss(1.0))]);
        let err = bad.relation().unwrap_err().to_string();
        assert!(err.contains("different neighbouring relations"), "{err}");
        assert!(bad.validate().is_err());
    }

    #[test]
    fn bad_events_are_refused_with_a_reason() {
        let zero_rate = Event::poisson(gauss(1.0), 0.0);
        assert!(zero_rate.validate().is_err());
        assert!(Event::poisson(gauss(-1.0), 0.5).validate().is_err());
        assert!(Event::poisson(gauss(1.0), 0.5)
            .repeated(0)
            .validate()
            .is_err());
        assert!(Event::Composed(vec![]).validate().is_err());
        let big = Event::Sampled {
            sampler: Sampler::WithoutReplacement { m: 101, n: 100 },
            mechanism: gauss(1.0),
        };
        assert!(big
            .validate()
            .unwrap_err()
            .to_string()
            .contains("cannot exceed"));
        let laplace_epochs = Event::Epochs {
            sampler: EpochSampler::Shuffled,
            mechanism: Mechanism::Laplace { scale: 1.0 },
            steps_per_epoch: 10,
            upper_epochs: 1,
            lower_epochs: 1,
        };
        assert!(matches!(
            laplace_epochs.validate(),
            Err(MathError::Unsupported { .. })
        ));
    }
}
