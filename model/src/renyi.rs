//! The Rényi DP page's model (Wang's slides on subsampled RDP, "Privacy amplification by
//! subsampling and Rényi DP"): the reader's mechanism and sampling, the per-step curve
//! (remembered), the subsampled curves at the reader's order, and the composition at the reader's
//! steps. Also what the training and risk pages read of Rényi DP.

use amp_math::accounting::{Event, Sampler};
use amp_math::rdp::{
    default_orders, epsilon_for_delta, guarantee_is_exact, ln_delta_at_order, subsampled, Bound,
    Conversion, Converted, Curve, Mechanism, Sampling,
};
use amp_math::subsampling::Scheme;

use crate::param as p;
use crate::params::{Mechanism as MechanismChoice, ParamValues};
use crate::ModelError;
use amp_format::{group_digits, short_number};

/// The reader's mechanism and sampling.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RdpSetting {
    /// The base mechanism.
    pub mech: Mechanism,
    /// How records reach it.
    pub sampling: Sampling,
    /// For sampling without replacement, the sample size m = round(q·n) and n.
    pub sizes: Option<(u64, u64)>,
}

/// The base mechanism the values select.
pub fn mechanism(values: &ParamValues) -> Mechanism {
    match values.choice(p::MECH) {
        MechanismChoice::Gaussian => Mechanism::Gaussian {
            sigma: values.real(p::SIGMA),
        },
        MechanismChoice::Laplace => Mechanism::Laplace {
            scale: values.real(p::SCALE),
        },
        MechanismChoice::RandomizedResponse => Mechanism::RandomizedResponse {
            epsilon: values.real(p::EPS),
        },
        MechanismChoice::KaryRandomizedResponse => Mechanism::KaryRandomizedResponse {
            epsilon: values.real(p::EPS),
            k: values.count(p::K),
        },
    }
}

/// The mechanism in words with its parameter: "Gaussian, σ = 5".
pub fn mechanism_label(m: &Mechanism) -> String {
    match *m {
        Mechanism::Gaussian { sigma } => format!("Gaussian, σ = {}", short_number(sigma, 4)),
        Mechanism::Laplace { scale } => format!("Laplace, b = {}", short_number(scale, 4)),
        Mechanism::RandomizedResponse { epsilon } => {
            format!("randomized response, ε = {}", short_number(epsilon, 4))
        }
        Mechanism::KaryRandomizedResponse { epsilon, k } => format!(
            "{k}-ary randomized response, ε = {}",
            short_number(epsilon, 4)
        ),
    }
}

/// The reader's setting, or why there is none (sampling with replacement has no RDP bound here;
/// an empty sample).
pub fn setting(values: &ParamValues) -> Result<RdpSetting, ModelError> {
    let mech = mechanism(values);
    mech.validate()?;
    let q = values.real(p::Q);
    let (sampling, sizes) = match values.choice(p::SCHEME) {
        Scheme::WithoutReplacement => {
            let n = values.count(p::N);
            let m = (q * n as f64).round() as u64;
            if m == 0 {
                return Err(ModelError::NotApplicable(format!(
                    "q·n = {} rounds to an empty sample; raise q or n",
                    short_number(q * n as f64, 3)
                )));
            }
            (
                Sampling::WithoutReplacement {
                    gamma: m as f64 / n as f64,
                },
                Some((m, n)),
            )
        }
        Scheme::WithReplacement => {
            return Err(
                "Rényi DP amplification is known here for Poisson sampling and sampling \
                        without replacement; choose one of those schemes"
                    .into(),
            )
        }
        Scheme::Poisson => (Sampling::Poisson { q }, None),
    };
    Ok(RdpSetting {
        mech,
        sampling,
        sizes,
    })
}

impl RdpSetting {
    /// "Poisson, q = 0.001 (add/remove one)" or "m = 60 of n = 60,000 (replace one)".
    pub fn sampling_label(&self) -> String {
        match (self.sampling, self.sizes) {
            (Sampling::WithoutReplacement { .. }, Some((m, n))) => format!(
                "m = {} of n = {} without replacement",
                group_digits(m),
                group_digits(n)
            ),
            (s, _) => format!("Poisson, q = {}", short_number(s.rate(), 4)),
        }
    }

    /// The names of the upper bound's source.
    pub fn upper_source(&self) -> &'static str {
        match (self.sampling, self.mech) {
            (Sampling::WithoutReplacement { .. }, Mechanism::Gaussian { .. }) => {
                "Wang, Balle & Kasiviswanathan, for the Gaussian"
            }
            (Sampling::WithoutReplacement { .. }, _) => "Wang, Balle & Kasiviswanathan",
            _ => "Zhu & Wang",
        }
    }
}

/// The reader's subsampled curves at one order: base, exact, upper and lower (each when it
/// exists).
#[derive(Clone, Debug, PartialEq)]
pub struct AtOrder {
    /// The order.
    pub alpha: f64,
    /// The base mechanism's ε(α).
    pub base: f64,
    /// The exact subsampled ε(α), or why there is none.
    pub exact: Result<f64, ModelError>,
    /// The upper bound.
    pub upper: Result<f64, ModelError>,
    /// The lower bound (whole orders only).
    pub lower: Result<f64, ModelError>,
}

/// [`AtOrder`] at the reader's α.
pub fn at_order(values: &ParamValues) -> Result<AtOrder, ModelError> {
    let st = setting(values)?;
    let alpha = values.real(p::ALPHA);
    let base = st.mech.rdp(alpha)?;
    let get = |b: Bound| subsampled(&st.mech, st.sampling, b, alpha).map_err(ModelError::from);
    Ok(AtOrder {
        alpha,
        base,
        exact: get(Bound::Exact),
        upper: get(Bound::Upper),
        lower: get(Bound::Lower),
    })
}

/// The composition of the reader's `steps` steps: improved and classic conversions at δ.
#[derive(Clone, Debug, PartialEq)]
pub struct Composition {
    /// Improved conversion (ε, δ, optimal order).
    pub improved: Converted,
    /// Classic conversion.
    pub classic: Converted,
    /// Whether the per-step curve is exact (false: the upper bound).
    pub exact: bool,
}

/// The reader's δ for a conversion, or why there is none (δ = 0).
pub fn check_delta(values: &ParamValues) -> Result<f64, ModelError> {
    let delta = values.real(p::DELTA);
    if delta <= 0.0 {
        return Err("converting Rényi DP to (ε, δ) needs δ above 0".into());
    }
    Ok(delta)
}

/// A curve of `st` on the default order grid, remembered for the last setting: the readouts and
/// two figures of the page all need the same per-step curve, and moving δ or k must not
/// recompute it. `upper` selects the general upper bound instead of the guarantee curve.
pub fn cached_curve(st: &RdpSetting, upper: bool) -> Result<Curve, ModelError> {
    type Entry = Option<(Mechanism, Sampling, bool, Curve)>;
    thread_local! {
        static LAST: std::cell::RefCell<[Entry; 2]> = const { std::cell::RefCell::new([None, None]) };
    }
    let slot = usize::from(upper);
    let hit = LAST.with(|c| {
        c.borrow()[slot].as_ref().and_then(|(m, s, u, curve)| {
            (*m == st.mech && *s == st.sampling && *u == upper).then(|| curve.clone())
        })
    });
    if let Some(c) = hit {
        return Ok(c);
    }
    let orders = default_orders();
    let curve = if upper {
        Curve::upper(&st.mech, st.sampling, &orders)?
    } else {
        Curve::of(&st.mech, st.sampling, &orders)?
    };
    LAST.with(|c| c.borrow_mut()[slot] = Some((st.mech, st.sampling, upper, curve.clone())));
    Ok(curve)
}

/// The per-step guarantee curve (exact where known, else the upper bound) on the default order
/// grid.
pub fn step_curve(st: &RdpSetting) -> Result<Curve, ModelError> {
    cached_curve(st, false)
}

/// δ(ε) of a (composed) Rényi DP curve for drawing a profile: the improved conversion minimised
/// over the curve's own orders only, without the search between them that
/// [`amp_math::rdp::delta_for_epsilon`] adds (as in
/// [`amp_math::rdp::epsilon_for_delta_over_steps`]). An upper bound on that function's
/// δ, within a few per cent of it on the default grid (see the test in `site/tests/risk.rs`), and
/// about 50 times cheaper: a curve of a few dozen points costs well under a millisecond. `None`
/// where no order gives a finite δ.
pub fn drawn_rdp_delta(curve: &Curve, epsilon: f64) -> Option<f64> {
    let ln_delta = curve
        .orders
        .iter()
        .zip(&curve.rdp)
        .map(|(&a, &r)| ln_delta_at_order(r, a, epsilon, Conversion::Improved))
        .fold(f64::INFINITY, f64::min);
    ln_delta
        .is_finite()
        .then(|| amp_math::special::exp(ln_delta))
}

/// The (ε, δ(ε)) guarantees a Rényi curve gives at `n + 1` evenly spaced ε from 0 to `e_far`
/// ([`drawn_rdp_delta`]; points where no order gives a finite δ are left out). Each is a valid
/// guarantee, so any subset bounds an attacker ([`amp_math::risk::profile_tpr`]).
pub fn rdp_profile_points(curve: &Curve, e_far: f64, n: u32) -> Vec<(f64, f64)> {
    (0..=n)
        .filter_map(|i| {
            let e = e_far * i as f64 / n as f64;
            drawn_rdp_delta(curve, e).map(|d| (e, d))
        })
        .collect()
}

/// [`Composition`] at the reader's steps and δ.
pub fn composition(values: &ParamValues) -> Result<Composition, ModelError> {
    let st = setting(values)?;
    let delta = check_delta(values)?;
    let curve = step_curve(&st)?.times(values.real(p::STEPS));
    let conv = |c| epsilon_for_delta(&curve, delta, c).map_err(|e| e.to_string());
    Ok(Composition {
        improved: conv(Conversion::Improved)?,
        classic: conv(Conversion::Classic)?,
        exact: guarantee_is_exact(&st.mech, st.sampling),
    })
}

impl RdpSetting {
    /// `steps` releases of the mechanism as an event: on a Poisson sample at rate q (q = 1, the
    /// CLI's setting without `--q`, which the accountants treat as every record), or on m = q·n of
    /// n records without replacement.
    pub fn event(&self, steps: u64) -> Event {
        let one = match (self.sampling, self.sizes) {
            (Sampling::WithoutReplacement { .. }, Some((m, n))) => Event::Sampled {
                sampler: Sampler::WithoutReplacement { m, n },
                mechanism: self.mech,
            },
            (Sampling::Full, _) => Event::Mechanism(self.mech),
            (s, _) => Event::poisson(self.mech, s.rate()),
        };
        one.repeated(steps)
    }
}
