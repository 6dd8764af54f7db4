//! Rényi differential privacy (Mironov 2017) of base and subsampled mechanisms, composition, and
//! conversion to (ε, δ), and the (ε, δ) composition theorems Wang's slides
//! ("Privacy amplification by subsampling and Rényi DP") compare RDP against.
//!
//! A mechanism is (α, ε(α))-RDP when the Rényi divergence of order α between its outputs on
//! neighbouring inputs is at most ε(α). All mechanisms here have sensitivity 1.
//!
//! Numerics. Every curve is ε(α) = log(A)/(α − 1) for a moment A ≥ 1 that is often 1 + tiny (small
//! sampling rates, large noise); computing log(A) from A loses all digits below 1e-16. So A − 1 is
//! computed directly, as a sum whose terms do not cancel, and ε(α) = log1p(A − 1)/(α − 1), in log
//! space where A − 1 could overflow.
//!
//! One file per concept, everything re-exported here:
//!
//! - `mechanism.rs`: [`Mechanism`] and its base curves, [`MAX_ORDER`];
//! - `subsampled_gaussian.rs`: the exact Poisson-subsampled Gaussian ([`poisson_gaussian`]);
//! - `poisson_laplace_rr.rs`: the exact Poisson-subsampled Laplace and randomized response
//!   ([`poisson_exact`]);
//! - `bounds.rs`: upper and lower bounds under Poisson sampling and sampling without replacement
//!   ([`poisson_upper`], [`wor_upper`], [`wor_upper_gaussian`], [`wor_lower`]);
//! - `sampling.rs`: [`Sampling`], [`Bound`] and the curve of a scheme and bound ([`subsampled`],
//!   [`guarantee`]);
//! - `curve.rs`: [`Curve`] over a grid of orders, [`compose`], [`default_orders`];
//! - `conversion.rs`: RDP → (ε, δ) ([`Conversion`], [`epsilon_for_delta`], [`delta_for_epsilon`]);
//! - `composition.rs`: the Gaussian's exact δ(ε) ([`gaussian_delta`]) and naive and advanced
//!   composition of (ε, δ) guarantees.

mod bounds;
mod composition;
mod conversion;
mod curve;
mod mechanism;
mod poisson_laplace_rr;
mod sampling;
mod subsampled_gaussian;

pub use bounds::{poisson_upper, wor_lower, wor_upper, wor_upper_gaussian};
pub use composition::{
    advanced_composition, base_epsilon_delta, gaussian_delta, gaussian_epsilon, naive_composition,
    optimal_composition, optimal_composition_epsilon, Composed, OPTIMAL_MAX_STEPS,
};
pub use conversion::{
    delta_for_epsilon, epsilon_at_order, epsilon_for_delta, epsilon_for_delta_over_steps,
    ln_delta_at_order, Conversion, Converted,
};
pub use curve::{compose, default_orders, Curve, Term};
pub(crate) use mechanism::check_order;
pub use mechanism::{Mechanism, MAX_ORDER};
pub(crate) use poisson_laplace_rr::excess;
pub use poisson_laplace_rr::{poisson_directions, poisson_exact};
pub use sampling::{guarantee, guarantee_is_exact, subsampled, Bound, Sampling};
pub use subsampled_gaussian::{
    poisson_gaussian, poisson_gaussian_integer, poisson_gaussian_unsigned,
};
