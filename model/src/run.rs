//! A run made of phases, and the run file that holds it (JSON): what `amplify account --run FILE`
//! reads and the training page's "Download run" / "Open run" write and read. Each phase has its
//! own mechanism, noise, sampler and length; the run is the composition of its phases
//! ([`amp_math::accounting::Event::Composed`]).
//!
//! ```json
//! {"delta": 1e-5, "phases": [
//!   {"mechanism": "gaussian", "sigma": 0.8, "sampling": {"scheme": "poisson", "q": 0.01}, "steps": 300},
//!   {"mechanism": "gaussian", "sigma": 1.5, "sampling": {"scheme": "balls-in-bins",
//!     "dataset_size": 60000, "batch_size": 1200}, "epochs": 2}]}
//! ```
//!
//! Fields: `mechanism` (`gaussian` with `sigma`, `laplace` with `scale`, `randomized-response` with
//! `eps`, `kary-randomized-response` with `eps` and `k`); `sampling.scheme`: `none` (or no
//! `sampling`), `poisson` (with `q`, or `dataset_size` and `batch_size` for q = B/|x|),
//! `without-replacement` (`m`, `n`), `shuffle` or `balls-in-bins` (`dataset_size`, `batch_size`:
//! T = round(|x|/B) steps per epoch); the length as `steps` or `epochs` (epochs need a sampler
//! with a rate). Each number is checked against the declaration of the app's control of the same
//! quantity, with the same message, prefixed by where it is (`phases[1].sigma: …`).

use amp_math::accounting::{EpochSampler, Event, Sampler};
use amp_math::rdp::Mechanism;

use crate::json::Json;
use crate::param as p;
use crate::params::{Param, Value};

/// A run: δ and its phases, in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// The δ at which ε is reported.
    pub delta: f64,
    /// The phases, in the order they run (the order does not change the guarantee).
    pub phases: Vec<Phase>,
}

/// One phase of a run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Phase {
    /// What each step releases.
    pub mechanism: Mechanism,
    /// How each step's records are chosen.
    pub sampling: PhaseSampling,
    /// How long the phase runs.
    pub length: Length,
}

/// How a phase's steps choose their records.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PhaseSampling {
    /// Every record at every step.
    None,
    /// Poisson sampling at rate q (given as `q`, or as B/|x| with the sizes kept for the text).
    Poisson {
        /// The rate.
        q: f64,
        /// |x| and B when the rate was given by them.
        sizes: Option<(u64, u64)>,
    },
    /// m of n without replacement.
    WithoutReplacement {
        /// Sample size.
        m: u64,
        /// Dataset size.
        n: u64,
    },
    /// Shuffled fixed-size batches or balls in bins: |x| examples in batches of B.
    Epochs {
        /// Which sampler.
        sampler: EpochSampler,
        /// |x|.
        dataset: u64,
        /// B.
        batch: u64,
    },
}

/// A phase's length.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Length {
    /// Steps.
    Steps(u64),
    /// Epochs (passes over the data at the phase's rate).
    Epochs(f64),
}

/// Steps of `epochs` passes at rate q: epochs/q rounded, at least 1.
pub fn steps_for_epochs(epochs: f64, q: f64) -> u64 {
    (epochs / q).round().clamp(1.0, u64::MAX as f64) as u64
}

/// The shape of a run of shuffled or balls-in-bins batches: T = round(|x|/B) (at least 1) steps per
/// epoch, and the whole epochs its length spans (rounded up for upper bounds, down to at least
/// one for lower bounds; within 1% of a whole number counts as that number). `steps` is the run's
/// length in steps; with `by_epochs` the epochs are steps·B/|x| (the steps themselves rounded from
/// the epochs the reader gave), else steps/T.
pub fn epoch_shape(dataset: u64, batch: u64, steps: u64, by_epochs: bool) -> (u64, u64, u64) {
    let steps_per_epoch = ((dataset as f64 / batch as f64).round() as u64).max(1);
    let q = batch as f64 / dataset as f64;
    let mut e = if by_epochs {
        steps as f64 * q
    } else {
        steps as f64 / steps_per_epoch as f64
    };
    if (e - e.round()).abs() <= 0.01 * e.round() {
        e = e.round();
    }
    (
        steps_per_epoch,
        (e.ceil() as u64).max(1),
        (e.floor() as u64).max(1),
    )
}

impl PhaseSampling {
    /// The sampling rate (1 without sampling).
    pub fn rate(&self) -> f64 {
        match *self {
            PhaseSampling::None => 1.0,
            PhaseSampling::Poisson { q, .. } => q,
            PhaseSampling::WithoutReplacement { m, n } => m as f64 / n as f64,
            PhaseSampling::Epochs { dataset, batch, .. } => batch as f64 / dataset as f64,
        }
    }

    /// The scheme's id in the run file.
    pub fn id(&self) -> &'static str {
        match self {
            PhaseSampling::None => "none",
            PhaseSampling::Poisson { .. } => "poisson",
            PhaseSampling::WithoutReplacement { .. } => "without-replacement",
            PhaseSampling::Epochs {
                sampler: EpochSampler::Shuffled,
                ..
            } => "shuffle",
            PhaseSampling::Epochs {
                sampler: EpochSampler::BallsInBins,
                ..
            } => "balls-in-bins",
        }
    }
}

impl Phase {
    /// The phase's length in steps.
    pub fn steps(&self) -> u64 {
        match self.length {
            Length::Steps(k) => k,
            Length::Epochs(e) => steps_for_epochs(e, self.sampling.rate()),
        }
    }

    /// The phase as an event.
    pub fn event(&self) -> Event {
        let steps = self.steps();
        match self.sampling {
            PhaseSampling::None => Event::Mechanism(self.mechanism).repeated(steps),
            PhaseSampling::Poisson { q, .. } => Event::poisson(self.mechanism, q).repeated(steps),
            PhaseSampling::WithoutReplacement { m, n } => Event::Sampled {
                sampler: Sampler::WithoutReplacement { m, n },
                mechanism: self.mechanism,
            }
            .repeated(steps),
            PhaseSampling::Epochs {
                sampler,
                dataset,
                batch,
            } => {
                let (t, up, low) = epoch_shape(
                    dataset,
                    batch,
                    steps,
                    matches!(self.length, Length::Epochs(_)),
                );
                Event::Epochs {
                    sampler,
                    mechanism: self.mechanism,
                    steps_per_epoch: t,
                    upper_epochs: up,
                    lower_epochs: low,
                }
            }
        }
    }

    /// The phase as a JSON object (the run file's form).
    pub fn to_json(&self) -> Json {
        let num = |x: f64| Json::Number(x);
        let mut m: Vec<(String, Json)> = Vec::new();
        let mut put = |k: &str, v: Json| m.push((k.to_string(), v));
        match self.mechanism {
            Mechanism::Gaussian { sigma } => {
                put("mechanism", Json::Text("gaussian".into()));
                put("sigma", num(sigma));
            }
            Mechanism::Laplace { scale } => {
                put("mechanism", Json::Text("laplace".into()));
                put("scale", num(scale));
            }
            Mechanism::RandomizedResponse { epsilon } => {
                put("mechanism", Json::Text("randomized-response".into()));
                put("eps", num(epsilon));
            }
            Mechanism::KaryRandomizedResponse { epsilon, k } => {
                put("mechanism", Json::Text("kary-randomized-response".into()));
                put("eps", num(epsilon));
                put("k", num(k as f64));
            }
        }
        let mut s: Vec<(String, Json)> =
            vec![("scheme".into(), Json::Text(self.sampling.id().into()))];
        match self.sampling {
            PhaseSampling::None => {}
            PhaseSampling::Poisson { q, sizes: None } => s.push(("q".into(), num(q))),
            PhaseSampling::Poisson {
                sizes: Some((dataset, batch)),
                ..
            }
            | PhaseSampling::Epochs { dataset, batch, .. } => {
                s.push(("dataset_size".into(), num(dataset as f64)));
                s.push(("batch_size".into(), num(batch as f64)));
            }
            PhaseSampling::WithoutReplacement { m: size, n } => {
                s.push(("m".into(), num(size as f64)));
                s.push(("n".into(), num(n as f64)));
            }
        }
        put("sampling", Json::Object(s));
        match self.length {
            Length::Steps(k) => put("steps", num(k as f64)),
            Length::Epochs(e) => put("epochs", num(e)),
        }
        Json::Object(m)
    }
}

impl Run {
    /// The whole run as one event: its phases composed.
    pub fn event(&self) -> Event {
        match &self.phases[..] {
            [one] => one.event(),
            many => Event::Composed(many.iter().map(Phase::event).collect()),
        }
    }

    /// The run file's text (one line per phase).
    pub fn to_json(&self) -> String {
        let phases: Vec<String> = self
            .phases
            .iter()
            .map(|ph| format!("    {}", ph.to_json().write()))
            .collect();
        format!(
            "{{\n  \"delta\": {},\n  \"phases\": [\n{}\n  ]\n}}\n",
            Json::Number(self.delta).write(),
            phases.join(",\n")
        )
    }

    /// Read a run file. The error is one line naming the field (`phases[2].sampling.q: …`).
    pub fn from_json(text: &str) -> Result<Run, String> {
        let doc = Json::parse(text)?;
        let Json::Object(members) = &doc else {
            return Err("the run file must be a JSON object with \"delta\" and \"phases\"".into());
        };
        known(members, "", &["delta", "phases"])?;
        let delta = real(&doc, "delta", "delta", p::DELTA)?;
        if delta <= 0.0 {
            return Err("delta: δ must be above 0 (the accountants report ε at δ > 0)".into());
        }
        let phases = match doc.get("phases") {
            Some(Json::Array(items)) if !items.is_empty() => items,
            Some(Json::Array(_)) => return Err("phases: a run needs at least one phase".into()),
            Some(_) => return Err("phases: must be a list of phases".into()),
            None => return Err("phases: missing (a list of phases)".into()),
        };
        if phases.len() > MAX_PHASES {
            return Err(format!(
                "phases: at most {MAX_PHASES} phases (got {})",
                phases.len()
            ));
        }
        let phases = phases
            .iter()
            .enumerate()
            .map(|(i, ph)| phase(ph, &format!("phases[{}]", i + 1)))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Run { delta, phases })
    }
}

/// Most phases a run file may hold.
pub const MAX_PHASES: usize = 100;

fn known(members: &[(String, Json)], at: &str, allowed: &[&str]) -> Result<(), String> {
    match members.iter().find(|(k, _)| !allowed.contains(&k.as_str())) {
        Some((k, _)) => Err(format!(
            "{at}{}{k}: unknown field (expected one of: {})",
            if at.is_empty() { "" } else { "." },
            allowed.join(", ")
        )),
        None => Ok(()),
    }
}

/// A number field checked by a parameter's declaration.
fn real(obj: &Json, key: &str, at: &str, param: impl Param) -> Result<f64, String> {
    let spec = param.spec();
    let x = match obj.get(key) {
        Some(Json::Number(x)) => *x,
        Some(_) => return Err(format!("{at}: must be a number")),
        None => return Err(format!("{at}: missing ({})", spec.label)),
    };
    let v = match spec.domain {
        crate::params::Domain::Count { .. } => {
            if x.fract() != 0.0 || x < 0.0 || x > u64::MAX as f64 {
                return Err(format!(
                    "{at}: {} must be a whole number (got {x})",
                    spec.symbol
                ));
            }
            Value::Count(x as u64)
        }
        _ => Value::Real(x),
    };
    spec.check(v)
        .map_err(|e| format!("{at}: {e} (got {})", Json::Number(x).write()))?;
    Ok(x)
}

fn text<'a>(obj: &'a Json, key: &str, at: &str) -> Result<&'a str, String> {
    match obj.get(key) {
        Some(Json::Text(s)) => Ok(s),
        Some(_) => Err(format!("{at}: must be a string")),
        None => Err(format!("{at}: missing")),
    }
}

/// A phase's mechanism from its "mechanism" member and that mechanism's own parameters (any
/// other mechanism's parameter refused).
fn phase_mechanism(ph: &Json, at: &str) -> Result<Mechanism, String> {
    let field = |k: &str| format!("{at}.{k}");
    let kind = text(ph, "mechanism", &field("mechanism"))?;
    let refuse = |keys: &[&str]| -> Result<(), String> {
        match keys.iter().find(|k| ph.get(k).is_some()) {
            Some(k) => Err(format!(
                "{}: not used with the mechanism \"{kind}\"",
                field(k)
            )),
            None => Ok(()),
        }
    };
    let mechanism = match kind {
        "gaussian" => {
            refuse(&["scale", "eps", "k"])?;
            Mechanism::Gaussian {
                sigma: real(ph, "sigma", &field("sigma"), p::SIGMA)?,
            }
        }
        "laplace" => {
            refuse(&["sigma", "eps", "k"])?;
            Mechanism::Laplace {
                scale: real(ph, "scale", &field("scale"), p::SCALE)?,
            }
        }
        "randomized-response" => {
            refuse(&["sigma", "scale", "k"])?;
            Mechanism::RandomizedResponse {
                epsilon: real(ph, "eps", &field("eps"), p::EPS)?,
            }
        }
        "kary-randomized-response" => {
            refuse(&["sigma", "scale"])?;
            Mechanism::KaryRandomizedResponse {
                epsilon: real(ph, "eps", &field("eps"), p::EPS)?,
                k: real(ph, "k", &field("k"), p::K)? as u64,
            }
        }
        other => {
            return Err(format!(
                "{}: \"{other}\" is not one of: gaussian, laplace, randomized-response, kary-randomized-response",
                field("mechanism")
            ))
        }
    };
    Ok(mechanism)
}

fn phase(ph: &Json, at: &str) -> Result<Phase, String> {
    let Json::Object(members) = ph else {
        return Err(format!("{at}: must be an object"));
    };
    known(
        members,
        at,
        &[
            "mechanism",
            "sigma",
            "scale",
            "eps",
            "k",
            "sampling",
            "steps",
            "epochs",
        ],
    )?;
    let field = |k: &str| format!("{at}.{k}");
    let mechanism = phase_mechanism(ph, at)?;
    let sampling = match ph.get("sampling") {
        None => PhaseSampling::None,
        Some(s) => sampling(s, &field("sampling"))?,
    };
    if matches!(sampling, PhaseSampling::Epochs { .. })
        && !matches!(mechanism, Mechanism::Gaussian { .. })
    {
        return Err(format!(
            "{}: shuffled and balls-in-bins batches are analysed for Gaussian noise only",
            field("sampling")
        ));
    }
    let length = match (ph.get("steps"), ph.get("epochs")) {
        (Some(_), Some(_)) => return Err(format!("{at}: give \"steps\" or \"epochs\", not both")),
        (Some(_), None) => Length::Steps(real(ph, "steps", &field("steps"), p::STEPS)? as u64),
        (None, Some(_)) => {
            if sampling == PhaseSampling::None {
                return Err(format!(
                    "{}: epochs need a sampler (without sampling every step is an epoch; give \"steps\")",
                    field("epochs")
                ));
            }
            Length::Epochs(real(ph, "epochs", &field("epochs"), p::EPOCHS)?)
        }
        (None, None) => {
            return Err(format!(
                "{at}: missing its length (\"steps\" or \"epochs\")"
            ))
        }
    };
    let phase = Phase {
        mechanism,
        sampling,
        length,
    };
    if phase.steps() > MAX_STEPS {
        return Err(format!(
            "{at}: {} steps is more than a phase may run (at most {MAX_STEPS})",
            phase.steps()
        ));
    }
    Ok(phase)
}

/// Most steps in one phase.
pub const MAX_STEPS: u64 = 1_000_000_000_000;

fn sampling(s: &Json, at: &str) -> Result<PhaseSampling, String> {
    let Json::Object(members) = s else {
        return Err(format!("{at}: must be an object with a \"scheme\""));
    };
    let scheme = text(s, "scheme", &format!("{at}.scheme"))?;
    let field = |k: &str| format!("{at}.{k}");
    let sizes = || -> Result<(u64, u64), String> {
        let d = real(s, "dataset_size", &field("dataset_size"), p::DATASET)? as u64;
        let b = real(s, "batch_size", &field("batch_size"), p::BATCH)? as u64;
        if b > d {
            return Err(format!(
                "{}: the batch size B = {b} cannot exceed the dataset size |x| = {d}",
                field("batch_size")
            ));
        }
        Ok((d, b))
    };
    Ok(match scheme {
        "none" => {
            known(members, at, &["scheme"])?;
            PhaseSampling::None
        }
        "poisson" => {
            if s.get("q").is_some() {
                known(members, at, &["scheme", "q"])?;
                PhaseSampling::Poisson {
                    q: real(s, "q", &field("q"), p::Q)?,
                    sizes: None,
                }
            } else {
                known(members, at, &["scheme", "dataset_size", "batch_size"])?;
                let (d, b) = sizes()?;
                PhaseSampling::Poisson {
                    q: b as f64 / d as f64,
                    sizes: Some((d, b)),
                }
            }
        }
        "without-replacement" => {
            known(members, at, &["scheme", "m", "n"])?;
            let m = real(s, "m", &field("m"), p::M)? as u64;
            let n = real(s, "n", &field("n"), p::N)? as u64;
            if m > n {
                return Err(format!("{}: m = {m} cannot exceed n = {n}", field("m")));
            }
            PhaseSampling::WithoutReplacement { m, n }
        }
        "shuffle" | "balls-in-bins" => {
            known(members, at, &["scheme", "dataset_size", "batch_size"])?;
            let (dataset, batch) = sizes()?;
            PhaseSampling::Epochs {
                sampler: if scheme == "shuffle" {
                    EpochSampler::Shuffled
                } else {
                    EpochSampler::BallsInBins
                },
                dataset,
                batch,
            }
        }
        other => {
            return Err(format!(
                "{}: \"{other}\" is not one of: none, poisson, without-replacement, shuffle, balls-in-bins",
                field("scheme")
            ))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = r#"{"delta": 1e-5, "phases": [
        {"mechanism": "gaussian", "sigma": 0.8, "sampling": {"scheme": "poisson", "q": 0.01}, "steps": 300},
        {"mechanism": "gaussian", "sigma": 1.5, "sampling": {"scheme": "poisson", "q": 0.02}, "steps": 1000}]}"#;

    #[test]
    fn reads_the_issues_example_and_writes_it_back() {
        let run = Run::from_json(EXAMPLE).unwrap();
        assert_eq!(run.delta, 1e-5);
        assert_eq!(run.phases.len(), 2);
        assert_eq!(run.phases[1].steps(), 1000);
        assert_eq!(
            run.event(),
            Event::Composed(vec![
                Event::poisson(Mechanism::Gaussian { sigma: 0.8 }, 0.01).repeated(300),
                Event::poisson(Mechanism::Gaussian { sigma: 1.5 }, 0.02).repeated(1000),
            ])
        );
        let again = Run::from_json(&run.to_json()).unwrap();
        assert_eq!(again, run);
    }

    #[test]
    fn every_sampler_and_length() {
        let text = r#"{"delta": 1e-6, "phases": [
          {"mechanism": "gaussian", "sigma": 1, "sampling": {"scheme": "shuffle", "dataset_size": 1000, "batch_size": 10}, "epochs": 2},
          {"mechanism": "gaussian", "sigma": 1, "sampling": {"scheme": "balls-in-bins", "dataset_size": 1000, "batch_size": 10}, "steps": 250},
          {"mechanism": "laplace", "scale": 2, "sampling": {"scheme": "poisson", "dataset_size": 1000, "batch_size": 10}, "epochs": 1},
          {"mechanism": "kary-randomized-response", "eps": 0.5, "k": 3, "steps": 4},
          {"mechanism": "gaussian", "sigma": 2, "sampling": {"scheme": "without-replacement", "m": 10, "n": 100}, "steps": 5}]}"#;
        let run = Run::from_json(text).unwrap();
        let events: Vec<Event> = run.phases.iter().map(Phase::event).collect();
        assert!(matches!(
            events[0],
            Event::Epochs {
                sampler: EpochSampler::Shuffled,
                steps_per_epoch: 100,
                upper_epochs: 2,
                lower_epochs: 2,
                ..
            }
        ));
        // 250 steps of 100 per epoch: between 2 and 3 epochs.
        assert!(matches!(
            events[1],
            Event::Epochs {
                upper_epochs: 3,
                lower_epochs: 2,
                ..
            }
        ));
        assert_eq!(run.phases[2].steps(), 100);
        assert_eq!(Run::from_json(&run.to_json()).unwrap(), run);
    }

    #[test]
    fn a_bad_file_names_the_field() {
        for (text, want) in [
            ("[]", "JSON object"),
            ("{\"delta\": 1e-5}", "phases: missing"),
            ("{\"delta\": 1e-5, \"phases\": []}", "at least one phase"),
            ("{\"delta\": 2, \"phases\": []}", "delta: δ"),
            ("{\"delta\": 1e-5, \"phases\": [{\"mechanism\": \"gaussian\", \"sigma\": 0.01, \"steps\": 3}]}", "phases[1].sigma: σ"),
            ("{\"delta\": 1e-5, \"phases\": [{\"mechanism\": \"gaussian\", \"sigma\": 1, \"sampling\": {\"scheme\": \"poisson\", \"q\": 2}, \"steps\": 3}]}", "phases[1].sampling.q"),
            ("{\"delta\": 1e-5, \"phases\": [{\"mechanism\": \"gaussian\", \"sigma\": 1}]}", "phases[1]: missing its length"),
            ("{\"delta\": 1e-5, \"phases\": [{\"mechanism\": \"gaussian\", \"sigma\": 1, \"steps\": 1.5}]}", "whole number"),
            ("{\"delta\": 1e-5, \"phases\": [{\"mechanism\": \"gauss\", \"steps\": 1}]}", "phases[1].mechanism"),
            ("{\"delta\": 1e-5, \"phases\": [{\"mechanism\": \"gaussian\", \"sigma\": 1, \"steps\": 1, \"colour\": 1}]}", "phases[1].colour: unknown field"),
            ("{\"delta\": 1e-5, \"phases\": [{\"mechanism\": \"laplace\", \"scale\": 1, \"sampling\": {\"scheme\": \"shuffle\", \"dataset_size\": 100, \"batch_size\": 10}, \"steps\": 10}]}", "Gaussian noise only"),
            ("{\"delta\": 1e-5, \"phases\": [{\"mechanism\": \"gaussian\", \"sigma\": 1, \"sampling\": {\"scheme\": \"poisson\", \"dataset_size\": 10, \"batch_size\": 100}, \"steps\": 10}]}", "cannot exceed"),
            ("{\"delta\": 1e-5, \"phases\": [{\"mechanism\": \"gaussian\", \"sigma\": 1, \"epochs\": 2}]}", "need a sampler"),
        ] {
            let err = Run::from_json(text).unwrap_err();
            assert!(err.contains(want), "{text}: {err}");
            assert!(!err.contains('\n'), "one line: {err}");
        }
    }
}
