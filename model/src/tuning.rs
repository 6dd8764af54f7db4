//! What a hyperparameter search costs: the training run is repeated a random number K of times
//! (each time with other hyperparameters) and only the best run is released. The reader sets
//! E[K] and the law of K ([`crate::param::group::TUNING`]); the search's ε at δ comes from
//! Papernot & Steinke's bounds on one run's Rényi DP curve ([`amp_math::tuning`]), beside one
//! run's ε and the ε of ⌈E[K]⌉ runs all released (composed). Poisson K takes its δ̂ from the run's
//! certified PLD (the theorem needs only a valid (ε̂, δ̂) guarantee of one run, and the PLD's is
//! tighter than any RDP conversion); the negative binomial's λ̂ is the best on the order grid.
//! All upper bounds, on the run's relation (add/remove one example, Poisson batches).

use amp_format::short_number;
use amp_math::accounting::RdpAccountant;
use amp_math::pld;
use amp_math::rdp::{epsilon_for_delta, Conversion, Curve};
use amp_math::tuning::{repeat_and_select, Repetitions};

use crate::param as p;
use crate::params::{ParamValues, TuningLaw};
use crate::renyi::rdp_profile_points;
use crate::training::Training;
use crate::ModelError;

/// The law of K at these values, or `None` at E[K] = 1 (one run, no search).
pub fn repetitions(values: &ParamValues) -> Option<Repetitions> {
    let mean = values.real(p::TUNING_RUNS);
    if mean <= 1.0 {
        return None;
    }
    Some(law_at(values.choice(p::TUNING_LAW), mean, values))
}

/// The law `law` with mean `mean` (the negative binomial with the reader's shape η).
pub fn law_at(law: TuningLaw, mean: f64, values: &ParamValues) -> Repetitions {
    match law {
        TuningLaw::Geometric => Repetitions::geometric(mean),
        TuningLaw::Logarithmic => Repetitions::logarithmic(mean),
        TuningLaw::NegativeBinomial => Repetitions::NegativeBinomial {
            shape: values.real(p::TUNING_SHAPE),
            mean,
        },
        TuningLaw::Poisson => Repetitions::Poisson { mean },
    }
}

/// The search's numbers, all ε at the run's δ from Rényi DP (improved conversion; upper bounds).
#[derive(Clone, Debug, PartialEq)]
pub struct Tuned {
    /// One run's ε.
    pub one_run: f64,
    /// The search's ε (best of K released).
    pub search: f64,
    /// The order at which the search's ε is attained.
    pub order: f64,
    /// ⌈E[K]⌉: the runs of [`Tuned::composed`].
    pub runs: u64,
    /// ε of ⌈E[K]⌉ runs all released (composed).
    pub composed: f64,
    /// The search's RDP curve (for the attacker's numbers).
    pub curve: Curve,
}

/// The search's numbers for a run with Poisson batches (its composed band `band` gives Poisson
/// K its δ̂). Refused where the page has no Rényi DP curve of the run (a cap, several records).
pub fn tuned(
    t: &Training,
    reps: Option<Repetitions>,
    band: &pld::Band,
) -> Result<Tuned, ModelError> {
    if t.max_batch > 0 || t.records > 1 {
        return Err(ModelError::NotApplicable(
            "the search's bound needs one run's Rényi DP curve, which this page has for uncapped \
             batches and one record per person only"
                .into(),
        ));
    }
    let one = RdpAccountant::default().curve(&t.poisson_event())?;
    search(&one, t.delta, reps, &|e| {
        Ok(band.upper.delta_for_epsilon(e))
    })
}

/// The search over the risk page's run ([`crate::risk::Run`]; its attack's certified PLD gives
/// Poisson K its δ̂). Refused for several records per person (no Rényi DP curve there).
pub fn tuned_risk(
    run: &crate::risk::Run,
    attack: &crate::risk::Attack,
    reps: Option<Repetitions>,
) -> Result<Tuned, ModelError> {
    if run.records > 1 {
        return Err(ModelError::NotApplicable(
            "the search's bound needs one run's Rényi DP curve, which this page has for one \
             record per person only"
                .into(),
        ));
    }
    let one = crate::renyi::step_curve(&run.rdp_setting())?.times(run.steps as f64);
    search(&one, run.delta, reps, &|e| {
        Ok(attack.upper.delta_for_epsilon(e))
    })
}

/// The search's numbers from one run's RDP curve at δ, with `delta_hat(ε̂)` a δ̂ at which one run
/// is (ε̂, δ̂)-DP (Poisson K only; [`amp_math::tuning::repeat_and_select`]). No search (`None`,
/// E[K] = 1): the run itself, whose numbers are then all one run's.
pub fn search(
    one: &Curve,
    delta: f64,
    reps: Option<Repetitions>,
    delta_hat: &dyn Fn(f64) -> Result<f64, amp_math::MathError>,
) -> Result<Tuned, ModelError> {
    let at = |c: &Curve| epsilon_for_delta(c, delta, Conversion::Improved);
    let single = at(one)?;
    let Some(reps) = reps else {
        return Ok(Tuned {
            one_run: single.epsilon,
            search: single.epsilon,
            order: single.order,
            runs: 1,
            composed: single.epsilon,
            curve: one.clone(),
        });
    };
    let curve = repeat_and_select(one, reps, delta_hat)?;
    let best = at(&curve)?;
    let runs = reps.mean().ceil() as u64;
    Ok(Tuned {
        one_run: single.epsilon,
        search: best.epsilon,
        order: best.order,
        runs,
        composed: at(&one.times(runs as f64))?.epsilon,
        curve,
    })
}

/// The largest TPR at FPR `fpr` an attacker can reach against the search (from its RDP curve's
/// (ε, δ) profile: an upper bound).
pub fn attacker_tpr(tuned: &Tuned, fpr: f64) -> Result<f64, ModelError> {
    let points = rdp_profile_points(&tuned.curve, 4.0 * tuned.search.max(0.5), 64);
    amp_math::risk::profile_tpr(&points, fpr).map_err(ModelError::from)
}

/// The law of K in words.
pub fn law_words(reps: Repetitions) -> String {
    let mean = short_number(reps.mean(), 4);
    match reps {
        Repetitions::Poisson { .. } => format!("Poisson with mean {mean}"),
        Repetitions::NegativeBinomial { shape, .. } => {
            if shape == 1.0 {
                format!("geometric with mean {mean}")
            } else if shape == 0.0 {
                format!("logarithmic with mean {mean}")
            } else {
                format!(
                    "truncated negative binomial with shape η = {} and mean {mean}",
                    short_number(shape, 3)
                )
            }
        }
    }
}

/// The warning against the two mistakes: reporting one run's ε (`tight`: the run's certified ε)
/// for the search, and composing every run.
pub fn warning(reps: Repetitions, tuned: &Tuned, tight: f64) -> String {
    let composed = if tuned.composed > tuned.search {
        format!(
            "composing {} runs (ε = {}) overstates it",
            tuned.runs,
            short_number(tuned.composed, 4)
        )
    } else {
        format!(
            "at so few runs, composing {} of them (ε = {}) is the smaller bound, and the one to report",
            tuned.runs,
            short_number(tuned.composed, 4)
        )
    };
    format!(
        "A search that trains K times (K {}) and releases only its best run has ε = {} at this δ \
         (Papernot & Steinke 2022, from Rényi DP), not one run's ε = {} (tight; {} from Rényi DP): \
         reporting one run's ε for it understates it, and {composed}. The bound needs K random: for \
         a fixed number of runs, only composing them is known to bound the best one released.",
        law_words(reps),
        short_number(tuned.search, 4),
        short_number(tight, 4),
        short_number(tuned.one_run, 4),
    )
}

/// The search in words for the privacy statement.
pub fn statement_words(reps: Repetitions, tuned: &Tuned) -> String {
    format!(
        "The run is one of K runs of a hyperparameter search (K {}), of which only the best is \
         released: the whole search satisfies (ε = {}, δ)-differential privacy (Papernot & Steinke \
         2022, from Rényi DP).",
        law_words(reps),
        short_number(tuned.search, 4)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{ParamValues, Value};
    use crate::training::{cached_band, setting, QUICK};

    fn at(mean: f64, law: &str) -> ParamValues {
        let mut v = ParamValues::default();
        v.set(p::TUNING_RUNS.spec, Value::Real(mean)).unwrap();
        v.set_text(p::TUNING_LAW.spec, law).unwrap();
        v
    }

    #[test]
    fn one_run_is_no_search_and_each_law_is_read() {
        assert_eq!(repetitions(&ParamValues::default()), None);
        assert_eq!(
            repetitions(&at(10.0, "geometric")),
            Some(Repetitions::geometric(10.0))
        );
        assert_eq!(
            repetitions(&at(10.0, "poisson")),
            Some(Repetitions::Poisson { mean: 10.0 })
        );
        let nb = repetitions(&at(10.0, "negative-binomial")).unwrap();
        assert_eq!(
            nb,
            Repetitions::NegativeBinomial {
                shape: 0.5,
                mean: 10.0
            }
        );
    }

    /// The search costs more than one run and, at 50 runs, less than 50 runs composed (under
    /// half for the negative binomial laws; Poisson K costs most: its bound pays E[K]·δ̂).
    #[test]
    fn the_search_lies_between_one_run_and_all_runs_composed() {
        for law in ["geometric", "logarithmic", "negative-binomial", "poisson"] {
            let v = at(50.0, law);
            let t = setting(&v).unwrap();
            let band = cached_band(&t, QUICK).unwrap();
            let tu = tuned(&t, repetitions(&v), &band).unwrap();
            assert!(tu.search > tu.one_run, "{law}: {tu:?}");
            let share = if law == "poisson" { 0.6 } else { 0.5 };
            assert!(tu.search < share * tu.composed, "{law}: {tu:?}");
            assert_eq!(tu.runs, 50);
            let tpr = attacker_tpr(&tu, 0.01).unwrap();
            assert!((0.01..=1.0).contains(&tpr));
            let w = warning(repetitions(&v).unwrap(), &tu, 0.5);
            assert!(w.contains("overstates"), "{w}");
        }
        // No search: every number is one run's.
        let v = ParamValues::default();
        let t = setting(&v).unwrap();
        let band = cached_band(&t, QUICK).unwrap();
        let one = tuned(&t, None, &band).unwrap();
        assert_eq!(
            (one.search, one.composed, one.runs),
            (one.one_run, one.one_run, 1)
        );
    }
}
