//! Why subsampling amplifies, as numbers: the output densities on two neighbouring datasets and
//! the privacy loss between them, with the sample hidden and disclosed (the figures
//! `neighbour-densities` and `known-inclusion`).
//!
//! The setting is Poisson sampling at rate p under add/remove: x′ = x plus one person, a query of
//! sensitivity 1 with f(x) = 0 and f(x′) = 1. Without sampling the outputs are M(x) = N₀ and
//! M(x′) = N₁, the noise distribution centred at 0 and at 1. With the sample hidden, the person is
//! in it with probability p, so the output on x′ is the mixture (1 − p)·N₀ + p·N₁ (Steinke,
//! "Privacy amplification by subsampling", proof of Theorem 1; Brown, lecture notes "Privacy
//! amplification", §1) while the output on x stays N₀.
//!
//! Privacy loss at an output o: L(o) = log(N₁(o)/N₀(o)) without sampling, and with the sample
//! hidden log((1 − p) + p·e^{L(o)}), computed as a log-sum-exp. For Laplace noise of scale b = 1/ε,
//! L(o) = (|o| − |o − 1|)/b runs between −ε and ε, so the hidden-sample loss stays within
//! [log(1 + p(e^{−ε} − 1)), log(1 + p(e^ε − 1))], the upper end being Theorem 1's ε′. For Gaussian
//! noise of σ = 1/ε (an ε-GDP mechanism, Dong, Roth & Su 2022), L(o) = ε²(o − ½) has no maximum:
//! the hidden sample lowers the loss by about log(1/p) far out, but no pure-DP ε bounds it.

use amp_math::special::{exp, ln, ln_1p, log_add_exp};

use crate::params::Noise;

/// The noise distribution and its scale (b or σ).
pub struct Density {
    /// Laplace or Gaussian.
    pub noise: Noise,
    /// b for Laplace noise, σ for Gaussian noise.
    pub scale: f64,
}

impl Density {
    /// Density at o of the noise centred at `centre`.
    pub fn at(&self, o: f64, centre: f64) -> f64 {
        let z = (o - centre) / self.scale;
        match self.noise {
            Noise::Laplace => exp(-z.abs()) / (2.0 * self.scale),
            Noise::Gaussian => exp(-0.5 * z * z) / (self.scale * core::f64::consts::TAU.sqrt()),
        }
    }

    /// L(o) = log(N₁(o)/N₀(o)).
    pub fn loss(&self, o: f64) -> f64 {
        let s = self.scale;
        match self.noise {
            Noise::Laplace => (o.abs() - (o - 1.0).abs()) / s,
            Noise::Gaussian => (o - 0.5) / (s * s),
        }
    }
}

/// The hidden-sample loss log((1 − p) + p·e^{L}); at p = 1 it is L.
pub fn mixed_loss(p: f64, l: f64) -> f64 {
    if p >= 1.0 {
        l
    } else {
        log_add_exp(ln_1p(-p), ln(p) + l)
    }
}
