//! The subsampling page's model (Steinke, "Privacy amplification by subsampling", Theorem 1; Brown,
//! lecture notes "Privacy amplification", Theorem 1.1; Hu, Drechsler & Kim, "Accuracy gains from
//! privacy amplification through sampling for differential privacy", Fig. 3): the reader's sampling
//! scheme, the x coordinate of their setting and the inclusion probability the theorem uses there,
//! read by the page's figures.

use crate::ModelError;
use amp_math::subsampling::{with_replacement_inclusion, Sampling, Scheme};

use super::sampling::sampling;
use crate::params::ParamValues;

/// The reader's scheme, the x coordinate of their setting (p or m/n) and the x-axis title.
pub struct Setting {
    /// The sampling scheme the values select, with its sizes.
    pub sampling: Sampling,
    /// p, or m/n for the fixed-size schemes.
    pub rate: f64,
    /// The probability the theorem uses at that rate (p, m/n or η).
    pub inclusion: f64,
    /// The dataset size n of the fixed-size schemes (NaN for Poisson sampling).
    pub n: f64,
    /// The title of the rate axis.
    pub x_label: &'static str,
}

/// The reader's [`Setting`].
pub fn setting(values: &ParamValues) -> Result<Setting, ModelError> {
    let s = sampling(values);
    let inclusion = s.inclusion_probability().map_err(ModelError::from)?;
    let (rate, n, x_label) = match s {
        Sampling::Poisson { p } => (p, f64::NAN, "sampling rate p"),
        Sampling::WithoutReplacement { m, n } => {
            (m as f64 / n as f64, n as f64, "sampling rate m/n")
        }
        Sampling::WithReplacement { m, n } => {
            (m as f64 / n as f64, n as f64, "draws per record m/n")
        }
    };
    Ok(Setting {
        sampling: s,
        rate,
        inclusion,
        n,
        x_label,
    })
}

impl Setting {
    /// The inclusion probability at another rate on the x axis, for the same scheme and n.
    pub fn inclusion_at(&self, rate: f64) -> Option<f64> {
        match self.sampling.scheme() {
            Scheme::WithReplacement => with_replacement_inclusion(rate * self.n, self.n).ok(),
            _ => Some(rate.min(1.0)),
        }
    }

    /// The neighbouring relation of the scheme, as a label.
    pub fn relation(&self) -> &'static str {
        self.sampling.relation().label()
    }
}
