//! The mechanism flags shared by `rdp` and `account`: `--mechanism` picks the base mechanism and
//! its own parameter is required (σ, b, or ε with k); `--q` (with `--scheme`, `--n`) samples it.

use amp_math::accounting::{Event, Sampler};
use amp_math::rdp::Sampling;
use amp_model::param::{self as p, group};
use amp_model::params::{ParamValues, Value};
use amp_model::renyi::{self, RdpSetting};
use clap::{Arg, ArgMatches};

use crate::args::{self, given};

/// The mechanism's flags: the mechanism group (its parameter required for the chosen
/// mechanism; k keeps its default) and how records reach it (n required without replacement).
pub fn args() -> Vec<Arg> {
    let mut out = args::group(&group::MECHANISM, &[p::K.spec]);
    out[0] = args::required(p::MECH);
    out.extend(args::group(&group::RDP_SAMPLING, &[]).into_iter().map(|a| {
        if a.get_id() == p::Q.spec.name {
            a
        } else {
            a.requires(p::Q.spec.name)
        }
    }));
    out
}

/// The parameter values and the setting they describe; a flag the chosen mechanism or scheme does
/// not read is refused (by the groups' rules).
pub fn setting(m: &ArgMatches) -> Result<(ParamValues, RdpSetting), String> {
    let mut values = args::values(m)?;
    args::refuse_irrelevant(m, &group::MECHANISM, &values)?;
    args::refuse_irrelevant(m, &group::RDP_SAMPLING, &values)?;
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
