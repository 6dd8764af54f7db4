//! The Rényi DP accountant: every release of an event as its RDP curve on a grid of orders,
//! composed by adding the curves (Mironov 2017, Prop. 1), converted to (ε, δ) at the best order.

use super::{Accountant, Bounds, Event, Sampler};
use crate::rdp::Mechanism;
use crate::rdp::{
    compose, default_orders, delta_for_epsilon, epsilon_for_delta, guarantee_is_exact, Conversion,
    Converted, Curve, Sampling,
};
use crate::MathError;

/// The Rényi DP accountant: each release's guarantee curve (exact where known: the base
/// mechanisms, every mechanism here under Poisson sampling; the Wang, Balle & Kasiviswanathan
/// upper bound without replacement), summed over the releases, converted to (ε, δ) with
/// `conversion` minimised over the orders (refined between the grid's orders where the curve is
/// exact; [`epsilon_for_delta`]). Upper bounds only. Sampling with replacement and the epoch
/// samplers have no RDP analysis here ([`MathError::Unsupported`]).
#[derive(Clone, Debug, PartialEq)]
pub struct RdpAccountant {
    /// The grid of orders α > 1 (default: [`default_orders`]).
    pub orders: Vec<f64>,
    /// RDP → (ε, δ).
    pub conversion: Conversion,
}

impl Default for RdpAccountant {
    fn default() -> Self {
        RdpAccountant {
            orders: default_orders(),
            conversion: Conversion::Improved,
        }
    }
}

impl RdpAccountant {
    /// The event's composed RDP curve on the accountant's orders.
    pub fn curve(&self, event: &Event) -> Result<Curve, MathError> {
        event.validate()?;
        let curves = event
            .leaves()
            .into_iter()
            .map(|(leaf, count)| Ok((self.release(leaf)?, count as f64)))
            .collect::<Result<Vec<(Curve, f64)>, MathError>>()?;
        match &curves[..] {
            [(one, count)] => Ok(one.times(*count)),
            many => compose(&many.iter().map(|(c, k)| (c, *k)).collect::<Vec<_>>()),
        }
    }

    /// The curve of one release (remembered for the last few: moving the number of steps or δ
    /// does not recompute it; the exact Laplace curve is a quadrature at every order).
    pub fn release(&self, leaf: &Event) -> Result<Curve, MathError> {
        type Key = (Mechanism, Sampling, Vec<f64>);
        thread_local! {
            static SLOT: crate::memo::Slot<Key, Curve> = const { std::cell::RefCell::new(Vec::new()) };
        }
        if let Event::Shuffle {
            eps0,
            users,
            stronger,
        } = *leaf
        {
            return self.shuffle_release(eps0, users, stronger);
        }
        let (mechanism, sampling) = release_of(leaf)?;
        crate::memo::remembered(&SLOT, (mechanism, sampling, self.orders.clone()), || {
            Curve::of(&mechanism, sampling, &self.orders)
        })
        .map(|c| (*c).clone())
    }

    /// One shuffle round's curve: the clone pair's Rényi divergence at each order, its certified
    /// upper value (as [`crate::shuffle::fmt21_rdp`], [`crate::shuffle::fmt23_rdp`], the bracket
    /// refined to 1e-3 of the value); ε₀ (every
    /// order of an ε₀-DP release) where (λ − 1)ε₀ > 700 puts the order outside their domain.
    fn shuffle_release(&self, eps0: f64, users: u64, stronger: bool) -> Result<Curve, MathError> {
        type Key = (u64, u64, bool, Vec<f64>);
        thread_local! {
            static SLOT: crate::memo::Slot<Key, Curve> = const { std::cell::RefCell::new(Vec::new()) };
        }
        let key = (eps0.to_bits(), users, stronger, self.orders.clone());
        crate::memo::remembered(&SLOT, key, || {
            let rdp = self
                .orders
                .iter()
                .map(|&a| {
                    if (a - 1.0) * eps0 > 700.0 {
                        return Ok(eps0);
                    }
                    let upper = crate::shuffle::clone_rdp_upper(eps0, users, stronger, a)?;
                    Ok(upper.min(eps0))
                })
                .collect::<Result<Vec<f64>, MathError>>()?;
            Ok(Curve::sampled(self.orders.clone(), rdp))
        })
        .map(|c| (*c).clone())
    }

    /// ε at δ with the order it is attained at.
    pub fn converted(&self, event: &Event, delta: f64) -> Result<Converted, MathError> {
        epsilon_for_delta(&self.curve(event)?, delta, self.conversion)
    }

    /// δ at ε with the order it is attained at.
    pub fn converted_delta(&self, event: &Event, epsilon: f64) -> Result<Converted, MathError> {
        delta_for_epsilon(&self.curve(event)?, epsilon, self.conversion)
    }

    /// Whether the event's curve is exact (else an upper bound on the RDP curve; the (ε, δ) from
    /// either is an upper bound).
    pub fn is_exact(&self, event: &Event) -> Result<bool, MathError> {
        event.leaves().into_iter().try_fold(true, |all, (leaf, _)| {
            if matches!(leaf, Event::Shuffle { .. }) {
                return Ok(false);
            }
            let (m, s) = release_of(leaf)?;
            Ok(all && guarantee_is_exact(&m, s))
        })
    }
}

/// The mechanism and sampling of one release, or why Rényi DP does not account it here.
pub(super) fn release_of(leaf: &Event) -> Result<(Mechanism, Sampling), MathError> {
    match *leaf {
        Event::Mechanism(m) => Ok((m, Sampling::Full)),
        Event::Sampled {
            sampler: Sampler::Poisson { q },
            mechanism,
        } => Ok((mechanism, Sampling::Poisson { q })),
        Event::Sampled {
            sampler: Sampler::WithoutReplacement { m, n },
            mechanism,
        } => Ok((
            mechanism,
            Sampling::WithoutReplacement {
                gamma: m as f64 / n as f64,
            },
        )),
        Event::Sampled {
            sampler: Sampler::PoissonUser { .. },
            ..
        } => Err(MathError::Unsupported {
            reason: "Rényi DP of a user with several records is not computed here; the PLD \
                     accountant accounts it"
                .into(),
        }),
        Event::Sampled {
            sampler: Sampler::TruncatedPoisson { .. },
            ..
        } => Err(MathError::Unsupported {
            reason: "Rényi DP of capped Poisson batches is not computed here; the PLD accountant \
                     accounts them"
                .into(),
        }),
        Event::Sampled {
            sampler: Sampler::WithReplacement { .. },
            ..
        } => Err(MathError::Unsupported {
            reason: "Rényi DP amplification is known here for Poisson sampling and sampling \
                     without replacement, not with replacement"
                .into(),
        }),
        Event::Allocation { .. } => Err(MathError::Unsupported {
            reason: "random allocation has no Rényi DP analysis here; use the PLD accountant"
                .into(),
        }),
        Event::Epochs { .. } => Err(MathError::Unsupported {
            reason: "shuffled and balls-in-bins batches have no Rényi DP analysis here; use the \
                     PLD accountant"
                .into(),
        }),
        Event::Shuffle { .. } => Err(MathError::Unsupported {
            reason: "a shuffle round's Rényi DP is the clone pair's curve, not a mechanism's"
                .into(),
        }),
        Event::Repeated { .. } | Event::Composed(_) => Err(MathError::Inconsistent {
            reason: "internal: a leaf of an event is a single release".into(),
        }),
    }
}

impl Accountant for RdpAccountant {
    fn name(&self) -> &'static str {
        "the Rényi DP accountant"
    }

    fn epsilon(&self, event: &Event, delta: f64) -> Result<Bounds, MathError> {
        Ok(Bounds {
            upper: self.converted(event, delta)?.epsilon,
            lower: None,
        })
    }

    fn delta(&self, event: &Event, epsilon: f64) -> Result<Bounds, MathError> {
        Ok(Bounds {
            upper: self.converted_delta(event, epsilon)?.delta,
            lower: None,
        })
    }
}
