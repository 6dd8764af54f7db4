//! The mechanism flags shared by `rdp` and `account`: `--mechanism` picks the base mechanism and
//! its own parameter is required (σ, b, or ε with k); `--q` (with `--scheme`, `--n`) samples it.

use amp_math::accounting::{Event, Sampler};
use amp_math::rdp::Sampling;
use amp_math::subsampling::Scheme;
use amp_plots::figures::renyi::{self, RdpSetting};
use amp_plots::param as p;
use amp_plots::params::{ChoiceEnum, Mechanism, ParamValues, Value};
use clap::{Arg, ArgMatches};

use crate::args::{self, given};

/// The mechanism's flags.
pub fn args() -> Vec<Arg> {
    let mech = p::MECH.spec.name;
    vec![
        args::required(p::MECH),
        args::param(p::SIGMA).required_if_eq(mech, "gaussian"),
        args::param(p::SCALE).required_if_eq(mech, "laplace"),
        args::param(p::EPS).required_if_eq_any([
            (mech, "randomized-response"),
            (mech, "kary-randomized-response"),
        ]),
        args::param(p::K),
        args::param(p::Q),
        args::param(p::SCHEME).requires(p::Q.spec.name),
        args::param(p::N)
            .requires(p::Q.spec.name)
            .required_if_eq(p::SCHEME.spec.name, "without-replacement"),
    ]
}

/// The parameter values and the setting they describe; flags of another mechanism are refused.
pub fn setting(m: &ArgMatches) -> Result<(ParamValues, RdpSetting), String> {
    let mut values = args::values(m)?;
    let mech = values.choice(p::MECH);
    let why = format!("with --mechanism {}", mech.id());
    match mech {
        Mechanism::Gaussian => {
            args::refuse(m, p::SCALE, &why)?;
            args::refuse(m, p::EPS, &why)?;
            args::refuse(m, p::K, &why)?;
        }
        Mechanism::Laplace => {
            args::refuse(m, p::SIGMA, &why)?;
            args::refuse(m, p::EPS, &why)?;
            args::refuse(m, p::K, &why)?;
        }
        Mechanism::RandomizedResponse => {
            args::refuse(m, p::SIGMA, &why)?;
            args::refuse(m, p::SCALE, &why)?;
            args::refuse(m, p::K, &why)?;
        }
        Mechanism::KaryRandomizedResponse => {
            args::refuse(m, p::SIGMA, &why)?;
            args::refuse(m, p::SCALE, &why)?;
        }
    }
    if given(m, p::N) && values.choice(p::SCHEME) != Scheme::WithoutReplacement {
        return Err(
            "--n is used only with --scheme without-replacement (m = q·n of n records)".into(),
        );
    }
    if !given(m, p::Q) {
        // No sampling: the base mechanism (q = 1 under Poisson is the base curve).
        values.set(p::Q.spec, Value::Real(1.0))?;
    }
    let st = renyi::setting(&values).map_err(|e| e.to_string())?;
    Ok((values, st))
}

/// `steps` releases of the setting's mechanism as an event: on a Poisson sample at rate q (q = 1
/// when `--q` is not given, which the accountants treat as every record), or on m = q·n of n
/// records without replacement.
pub fn event(st: &RdpSetting, steps: u64) -> Event {
    let one = match (st.sampling, st.sizes) {
        (Sampling::Poisson { q }, _) => Event::poisson(st.mech, q),
        (Sampling::WithoutReplacement { .. }, Some((m, n))) => Event::Sampled {
            sampler: Sampler::WithoutReplacement { m, n },
            mechanism: st.mech,
        },
        _ => Event::Mechanism(st.mech),
    };
    one.repeated(steps)
}
