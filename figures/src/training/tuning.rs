//! `tuning-cost`: what a hyperparameter search costs, against the expected number of runs E[K]
//! (Papernot & Steinke, ICLR 2022, on the run's Rényi DP curve; the numbers are the training
//! page's, [`amp_model::tuning`]).

use super::*;
use amp_math::rdp::Curve;
use amp_math::tuning::Repetitions;
use amp_model::params::TuningLaw;
use amp_model::tuning::{law_at, repetitions, search, Tuned};

/// The expected numbers of runs drawn (log-spaced from 2), with the reader's E[K].
const POINTS: usize = 13;

/// `tuning-cost`: against E[K] (log axes), the ε at δ of a search that trains K times and
/// releases only its best run, for each law of K (geometric, logarithmic, Poisson, and the
/// truncated negative binomial at the reader's η when that is the law chosen), beside one run's
/// ε (Rényi DP, the same conversion) and ⌈E[K]⌉ runs all released (composed). The reader's E[K]
/// on the reader's law is marked. Upper bounds, add/remove one example, Poisson batches.
pub fn tuning_cost(values: &ParamValues) -> ChartResult {
    let t = setting(values)?;
    if t.records > 1 {
        return Err(ModelError::NotApplicable(
            "the search's bound needs one run's Rényi DP curve, which this page has for one \
             record per user only"
                .into(),
        ));
    }
    if t.max_batch > 0 {
        return Err(ModelError::NotApplicable(
            "the search's bound needs one run's Rényi DP curve, which this page has for uncapped \
             batches only (set the cap M to 0)"
                .into(),
        ));
    }
    if t.delta < 1e-11 {
        return Err(ModelError::NotApplicable(
            "the Poisson law's δ̂ comes from the run's loss distribution, which needs a δ of at \
             least 1e-11 (below, the PLD's rounding is more than 1% of δ)"
                .into(),
        ));
    }
    let one = RdpAccountant::default().curve(&t.poisson_event())?;
    let band = cached_band(&t, QUICK)?;
    let delta_hat = |e: f64| Ok(band.upper.delta_for_epsilon(e));
    let mean = values.real(p::TUNING_RUNS);
    let hi = (10.0 * mean).clamp(1_000.0, 1e6);
    let mut means = log_grid(2.0, hi, POINTS);
    if mean >= 2.0 {
        means.push(mean);
    }
    amp_math::heap_sort_by(&mut means, |a, b| a < b);
    means.dedup();
    let chosen = values.choice(p::TUNING_LAW);
    let run = |reps: Option<Repetitions>| search(&one, t.delta, reps, &delta_hat);
    let single = run(None)?;
    if single.one_run <= 0.0 {
        return Err(ModelError::NotApplicable(
            "at this noise and δ, one run has ε = 0 from Rényi DP (δ already covers the whole \
             privacy loss), which a log axis cannot show: a search costs nothing to draw"
                .into(),
        ));
    }
    let here = run(repetitions(values))?;
    let composed: Vec<(f64, f64)> = std::iter::once(1.0)
        .chain(means.iter().copied())
        .map(|m| Ok((m, one_composed(&one, t.delta, m)?)))
        .collect::<Result<_, ModelError>>()?;
    let mut all: Vec<f64> = composed.iter().map(|p| p.1).collect();
    all.push(single.one_run);
    let mut laws = Vec::new();
    for (i, law) in drawn_laws(chosen).into_iter().enumerate() {
        let line = law_line(&means, law, values, &|reps| run(Some(reps)))?;
        all.extend(line.iter().map(|p| p.1));
        laws.push((i, law, line));
    }
    let (lo, top) = log_range(all.iter());
    let mut c = Chart::new(
        Axis::numeric("expected runs E[K]", true, 1.0, hi),
        Axis::numeric("ε at δ", true, lo, top),
        LegendCorner::UpperLeft,
        summary(&t, &single, &here, mean),
    );
    c.series.push(Series {
        label: format!(
            "one run: ε ≤ {} (what reporting one run claims)",
            short_number(single.one_run, 3)
        ),
        points: vec![(1.0, single.one_run), (hi, single.one_run)],
        role: Role::Reference,
    });
    c.series.push(Series {
        label: "⌈E[K]⌉ runs all released (composed)".into(),
        points: composed,
        role: Role::Bound(0),
    });
    for (i, law, line) in laws {
        c.series.push(Series {
            label: format!("best of K, {}", law_name(law, values)),
            points: line,
            role: if law == chosen {
                Role::Highlight
            } else {
                Role::Family(i + 1)
            },
        });
    }
    c.markers.push(Marker {
        x: mean.max(1.0),
        y: here.search,
        label: format!("ε ≤ {}", short_number(here.search, 3)),
    });
    Ok(c)
}

/// The laws drawn: the three named ones, and the negative binomial at the reader's η when that
/// is the law chosen.
fn drawn_laws(chosen: TuningLaw) -> Vec<TuningLaw> {
    let mut laws = vec![
        TuningLaw::Geometric,
        TuningLaw::Logarithmic,
        TuningLaw::Poisson,
    ];
    if chosen == TuningLaw::NegativeBinomial {
        laws.push(TuningLaw::NegativeBinomial);
    }
    laws
}

/// The law's name in the legend.
fn law_name(law: TuningLaw, values: &ParamValues) -> String {
    match law {
        TuningLaw::Geometric => "geometric K (η = 1)".into(),
        TuningLaw::Logarithmic => "logarithmic K (η = 0)".into(),
        TuningLaw::NegativeBinomial => format!(
            "negative binomial K (η = {})",
            short_number(values.real(p::TUNING_SHAPE), 3)
        ),
        TuningLaw::Poisson => "Poisson K".into(),
    }
}

/// The search's ε at each mean of `means` under `law`.
fn law_line(
    means: &[f64],
    law: TuningLaw,
    values: &ParamValues,
    run: &dyn Fn(Repetitions) -> Result<Tuned, ModelError>,
) -> Result<Vec<(f64, f64)>, ModelError> {
    means
        .iter()
        .map(|&m| Ok((m, run(law_at(law, m, values))?.search)))
        .collect()
}

/// ε at δ of ⌈m⌉ runs composed (Rényi DP, improved conversion).
fn one_composed(one: &Curve, delta: f64, m: f64) -> Result<f64, ModelError> {
    Ok(rdp::epsilon_for_delta(&one.times(m.ceil()), delta, Conversion::Improved)?.epsilon)
}

/// The figure's caption.
fn summary(t: &Training, single: &Tuned, here: &Tuned, mean: f64) -> String {
    let at = if mean > 1.0 {
        format!(
            "At your E[K] = {} the search has ε ≤ {}, against {} for {} runs composed.",
            short_number(mean, 4),
            short_number(here.search, 4),
            short_number(here.composed, 4),
            group_digits(here.runs)
        )
    } else {
        "Set the expected number of runs above 1 to mark your search.".to_string()
    };
    format!(
        "A search that trains K times, with K random, and releases only its best run costs more \
         than one run (ε ≤ {} at δ = {}) and, from about ten runs on, much less than composing \
         them all (Papernot & Steinke 2022, from one run's Rényi DP curve; Poisson batches). {at}",
        short_number(single.one_run, 4),
        short_number(t.delta, 3),
    )
}
