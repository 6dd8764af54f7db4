//! Figures of the iteration page (Brown, lecture notes "Privacy amplification", §3): privacy of the
//! last iterate of one pass of noisy SGD, by the position of the record, with and without
//! amplification by iteration (Feldman, Mironov, Talwar & Thakurta 2018). The run and the readouts
//! are the model's ([`amp_model::iteration`]).

use amp_math::iteration::many_passes::{Accountant, Batches, ClosedForm};
use amp_math::iteration::{
    composition_epsilon, epsilon_by_position, epsilon_by_position_scheduled, plot_positions,
    NoiseSchedule, OnePassSgd,
};
use amp_math::rdp::{epsilon_for_delta, Conversion};

use super::{log_range, Axis, Chart, ChartResult, LegendCorner, Marker, ModelError, Role, Series};
use amp_format::short_number;
use amp_model::iteration::{inapplicable, many_passes as many_pass_run, run};
use amp_model::param as p;
use amp_model::params::ParamValues;

/// Positions evaluated for the curve (every position when T is at most this).
const POINTS: usize = 400;

/// The position axis, 1 to T (around the one position when T = 1).
fn position_range(big_t: u64) -> (f64, f64) {
    if big_t > 1 {
        (1.0, big_t as f64)
    } else {
        (0.5, 1.5)
    }
}

/// A chart of the last iterate's ε (log axis) against the record's position.
fn position_chart(x: (f64, f64), y: (f64, f64), summary: String) -> Chart {
    Chart::new(
        Axis::numeric(
            "position t of the record (step it is used in)",
            false,
            x.0,
            x.1,
        ),
        Axis::numeric("ε of the last iterate at δ", true, y.0, y.1),
        LegendCorner::UpperLeft,
        summary,
    )
}

/// ε at δ of one record's own step (what every record gets without amplification), or the
/// reason there is nothing to draw when that is already 0: δ this large, or noise σ·b this large,
/// needs no ε, and 0 has no place on a log axis.
fn step_epsilon(sgd: &OnePassSgd, delta: f64) -> Result<f64, ModelError> {
    let flat = composition_epsilon(sgd, delta, Conversion::Improved)?.epsilon;
    if flat.is_finite() && flat > 0.0 {
        return Ok(flat);
    }
    Err(ModelError::NotApplicable(format!(
        "at δ = {} with σ·b = {} a record's step already costs ε = 0 (this much δ or noise needs \
         no ε), so there is nothing to amplify",
        short_number(delta, 3),
        short_number(sgd.sigma * sgd.batch as f64, 3)
    )))
}

/// `iteration-privacy-by-position`: ε at δ of the last iterate for the record used at step t,
/// against t, under plain composition (flat) and with amplification by iteration.
pub fn privacy_by_position(values: &ParamValues) -> ChartResult {
    let sgd = run(values);
    let delta = values.real(p::DELTA);
    let big_t = sgd.steps;
    let flat = step_epsilon(&sgd, delta)?;
    let positions = plot_positions(big_t, POINTS)?;
    let why_not = inapplicable(values);
    let amplified: Vec<(f64, f64)> = if why_not.is_some() {
        vec![]
    } else {
        epsilon_by_position(&sgd, &positions, delta, Conversion::Improved)?
            .iter()
            .zip(&positions)
            .filter(|(c, _)| c.epsilon.is_finite() && c.epsilon > 0.0)
            .map(|(c, &t)| (t as f64, c.epsilon))
            .collect()
    };
    let (x_min, x_max) = position_range(big_t);
    let ys: Vec<f64> = amplified
        .iter()
        .map(|p| p.1)
        .chain(std::iter::once(flat))
        .collect();
    let (y_lo, y_hi) = log_range(ys.iter());
    let first = amplified.first().map(|p| p.1);
    let summary = match first {
        Some(e1) => format!(
            "ε at δ = {} of the last iterate of {} noisy SGD steps (b = {} records per step, σ = {} in units of the gradient bound, replace-one), by the step t at which a record is used: {} for the first record, rising to {} for the last, which is also what every record gets without amplification. Below: the first record's ε as a one-pass run grows from 1 to 100 times your T (more steps, each with its own records): it only falls. Many passes over the same records are the figure further down.",
            short_number(delta, 3),
            big_t,
            sgd.batch,
            short_number(sgd.sigma, 4),
            short_number(e1, 4),
            short_number(flat, 4)
        ),
        None => format!(
            "ε at δ = {} of a record's step without amplification: {} at every position (amplification by iteration does not apply at these parameters).",
            short_number(delta, 3),
            short_number(flat, 4)
        ),
    };
    let mut chart = position_chart((x_min, x_max), (y_lo, y_hi), summary);
    chart.series.push(Series {
        label: "no amplification (the record's own step)".into(),
        points: vec![(x_min, flat), (x_max, flat)],
        role: Role::Bound(0),
    });
    if let Some(why) = why_not {
        chart.notes.push(why);
    } else {
        chart.series.push(Series {
            label: "amplification by iteration (FMTT 2018)".into(),
            points: amplified,
            role: Role::Highlight,
        });
        if let Some(e1) = first {
            chart.markers.push(Marker {
                x: 1.0,
                y: e1,
                label: format!("t = 1: {}", short_number(e1, 3)),
            });
        }
        chart.lower = Some(Box::new(first_record_over_runs(&sgd, delta, flat)?));
    }
    Ok(chart)
}

/// The lower panel: the first record's ε as the run grows, T from 1 to 100 times the reader's
/// (Brown, Theorem 3.1: the last iterate's privacy loss does not grow with T; in the one
/// pass analysed here it falls, like 1/T in Rényi DP). The record's ε depends only on the
/// T − t + 1 steps from its own to the end, so one run of 100·T steps read at the positions
/// 100·T − T′ + 1 gives every run length T′ at once.
fn first_record_over_runs(sgd: &OnePassSgd, delta: f64, flat: f64) -> ChartResult {
    let longest = sgd.steps.saturating_mul(100).clamp(10, 1_000_000_000);
    let mut lengths: Vec<u64> = super::log_grid(1.0, longest as f64, 40)
        .iter()
        .map(|x| x.round() as u64)
        .collect();
    lengths.dedup();
    let long = OnePassSgd {
        steps: longest,
        ..*sgd
    };
    let positions: Vec<u64> = lengths.iter().map(|&m| longest - m + 1).collect();
    let points: Vec<(f64, f64)> =
        epsilon_by_position(&long, &positions, delta, Conversion::Improved)?
            .iter()
            .zip(&lengths)
            .filter(|(c, _)| c.epsilon.is_finite() && c.epsilon > 0.0)
            .map(|(c, &m)| (m as f64, c.epsilon))
            .collect();
    let (lo, hi) = log_range(points.iter().map(|p| &p.1).chain([&flat]));
    let mut c = Chart::new(
        Axis::numeric(
            "steps T of a one-pass run (the record used first)",
            true,
            1.0,
            longest as f64,
        ),
        Axis::numeric("ε of the last iterate at δ", true, lo, hi),
        LegendCorner::UpperRight,
        String::new(),
    );
    c.series = vec![
        Series {
            label: "releasing every iterate (its one step)".into(),
            points: vec![(1.0, flat), (longest as f64, flat)],
            role: Role::Bound(0),
        },
        Series {
            label: "the first record, last iterate only".into(),
            points,
            role: Role::Highlight,
        },
    ];
    c.markers.push(Marker {
        x: sgd.steps as f64,
        y: epsilon_by_position(sgd, &[1], delta, Conversion::Improved)?[0].epsilon,
        label: format!("your T = {}", sgd.steps),
    });
    Ok(c)
}

/// `iteration-noise-schedule` (Brown: "add less noise to early steps"): ε at δ of the
/// last iterate by position for three ways of spending the same total noise variance T·σ²: σ at
/// every step, variance growing linearly with the step, and all of it at the last step. By FMTT's
/// Theorem 22 a record's Rényi DP is α·Δ²/(2 Σ_{s≥t} σ_s²): only the noise from its own step on
/// protects it, so moving noise later protects the late records more, and putting it all at the
/// end gives every record the first record's ε (output perturbation).
pub fn noise_schedule(values: &ParamValues) -> ChartResult {
    if let Some(why) = inapplicable(values) {
        return Err(ModelError::NotApplicable(why));
    }
    let sgd = run(values);
    let delta = values.real(p::DELTA);
    step_epsilon(&sgd, delta)?;
    let big_t = sgd.steps;
    let positions = plot_positions(big_t, POINTS)?;
    let schedules = [
        (NoiseSchedule::Constant, "σ at every step"),
        (
            NoiseSchedule::LinearVariance,
            "variance growing with the step (less noise early)",
        ),
        (
            NoiseSchedule::AtTheEnd,
            "all of it at the last step (output perturbation)",
        ),
    ];
    let (x_min, x_max) = position_range(big_t);
    let mut series = Vec::new();
    let mut ends = Vec::new();
    let mut notes = Vec::new();
    for (i, (schedule, label)) in schedules.into_iter().enumerate() {
        let eps =
            epsilon_by_position_scheduled(&sgd, schedule, &positions, delta, Conversion::Improved)?;
        let points: Vec<(f64, f64)> = eps
            .iter()
            .zip(&positions)
            .filter(|(c, _)| c.epsilon.is_finite() && c.epsilon > 0.0)
            .map(|(c, &t)| (t as f64, c.epsilon))
            .collect();
        // The first and last records' ε, drawn or not (0 has no place on the log axis).
        if let (Some(a), Some(b)) = (eps.first(), eps.last()) {
            ends.push((a.epsilon, b.epsilon));
        }
        if points.is_empty() {
            notes.push(format!(
                "{label}: ε = 0 at every position at this δ, so it is not drawn on the log axis."
            ));
        }
        // One step: the one position, drawn across the axis.
        let points = match points[..] {
            [(_, e)] => vec![(x_min, e), (x_max, e)],
            _ => points,
        };
        series.push(Series {
            label: label.into(),
            points,
            role: Role::Family(i),
        });
    }
    if ends.len() != 3 || series.iter().all(|s| s.points.is_empty()) {
        return Err(ModelError::NotApplicable(
            "ε is zero or not finite at every position at these settings".into(),
        ));
    }
    series.retain(|s| !s.points.is_empty());
    let (y_lo, y_hi) = log_range(series.iter().flat_map(|s| s.points.iter().map(|p| &p.1)));
    let summary = format!(
        "ε at δ = {} of the last iterate of {} noisy SGD steps by the step t at which a record is \
         used, for three ways to spend the same total noise variance T·σ² (b = {} records per step, \
         σ = {} in units of the gradient bound, replace-one). σ at every step: {} for the first record, {} for the last. \
         Variance growing with the step: {} and {}. All at the last step: {} for every record. A \
         record is protected only by the noise from its own step on.",
        short_number(delta, 3),
        big_t,
        sgd.batch,
        short_number(sgd.sigma, 4),
        short_number(ends[0].0, 4),
        short_number(ends[0].1, 4),
        short_number(ends[1].0, 4),
        short_number(ends[1].1, 4),
        short_number(ends[2].0, 4),
    );
    let mut chart = position_chart((x_min, x_max), (y_lo, y_hi), summary);
    chart.series = series;
    chart.notes = notes;
    Ok(chart)
}

/// Run lengths for the many-pass figure: 64 points spaced evenly in log from 1 to `top`, with the
/// reader's T, the burn-in and the end of the first epoch and the step after it (where cyclic
/// batches part from composition), whole, within [1, top], sorted, without repeats.
fn run_lengths(top: u64, extra: [u64; 4]) -> Vec<u64> {
    let mut v: Vec<u64> = super::log_grid(1.0, top as f64, 64)
        .iter()
        .map(|x| (x.round() as u64).max(1))
        .chain(extra)
        .filter(|t| (1..=top).contains(t))
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// `iteration-many-passes` (Brown, Theorem 3.1, after Altschuler & Talwar 2022): ε at δ of the
/// last iterate after T steps over many passes on a bounded set, against releasing every iterate,
/// for T from 1 to ten times the burn-in (or the reader's T), log axes; the burn-in marked, the
/// plateau drawn, and for Poisson batches the closed form where its conditions hold.
pub fn many_passes(values: &ParamValues) -> ChartResult {
    if let Some(why) = inapplicable(values) {
        return Err(ModelError::NotApplicable(why));
    }
    let run = many_pass_run(values);
    let delta = values.real(p::DELTA);
    let accountant = Accountant::new(&run)?;
    let li = accountant.last_iterate(delta, Conversion::Improved)?;
    let burn = (li.burn_in.round() as u64).max(1);
    let top = burn
        .max(run.steps)
        .saturating_mul(10)
        .clamp(100, 1_000_000_000_000);
    let epoch = run.epoch_steps();
    let lengths = run_lengths(top, [run.steps, burn, epoch, epoch + 1]);
    let eps = accountant.over_steps(&lengths, delta, Conversion::Improved)?;
    let pos = |e: f64| e.is_finite() && e > 0.0;
    let pick =
        |f: fn(&(amp_math::rdp::Converted, amp_math::rdp::Converted)) -> f64| -> Vec<(f64, f64)> {
            lengths
                .iter()
                .zip(&eps)
                .map(|(&t, c)| (t as f64, f(c)))
                .filter(|p| pos(p.1))
                .collect()
        };
    let last = pick(|c| c.0.epsilon);
    let composed = pick(|c| c.1.epsilon);
    let closed = closed_form_points(&run, &lengths, delta)?;
    if last.is_empty() {
        return Err(ModelError::NotApplicable(
            "ε is zero at every run length at this δ and noise, so there is nothing to draw on a log axis".into(),
        ));
    }
    let plateau = li.plateau.epsilon;
    let (y_lo, y_hi) = log_range(
        last.iter()
            .chain(&composed)
            .chain(&closed)
            .map(|p| &p.1)
            .chain([&plateau]),
    );
    let at_t = eps
        .get(lengths.iter().position(|&t| t == run.steps).unwrap_or(0))
        .map_or(f64::NAN, |c| c.0.epsilon);
    let summary = many_pass_summary(
        &run,
        delta,
        top,
        (agree_until(&last, &composed), burn),
        plateau,
        at_t,
    );
    let mut chart = Chart::new(
        Axis::numeric("steps T over many passes", true, 1.0, top as f64),
        Axis::numeric("ε of the last iterate at δ", true, y_lo, y_hi),
        LegendCorner::UpperLeft,
        summary,
    );
    chart.series.push(Series {
        label: "every iterate released (composition)".into(),
        points: composed,
        role: Role::Bound(0),
    });
    // The plateau across the whole range, under the last iterate's curve: the level it climbs to.
    chart.series.push(Series {
        label: format!("plateau ε = {}", short_number(plateau, 3)),
        points: vec![(1.0, plateau), (top as f64, plateau)],
        role: Role::Reference,
    });
    chart.series.push(Series {
        label: "last iterate only".into(),
        points: last,
        role: Role::Highlight,
    });
    if closed.is_empty() {
        if run.batches == Batches::Poisson {
            chart.notes.push("The closed form 8αL²/(n²σ²)·min{T, Dn/(Lη)} is not drawn: its conditions (q ≤ 1/5, noise multiplier bσ/(2√2) ≥ 4) do not hold here.".into());
        }
    } else {
        chart.series.push(Series {
            label: "closed form 8αL²/(n²σ²)·min{T, Dn/(Lη)}".into(),
            points: closed,
            role: Role::Bound(1),
        });
    }
    chart.markers.push(Marker {
        x: burn as f64,
        y: plateau,
        label: format!("burn-in ≈ {}", short_number(burn as f64, 3)),
    });
    if pos(at_t) {
        chart.markers.push(Marker {
            x: run.steps as f64,
            y: at_t,
            label: format!("your T: {}", short_number(at_t, 3)),
        });
    }
    Ok(chart)
}

/// The closed form 8αL²/(n²σ²)·min{T, Dn/(Lη)} at δ for each run length, for Poisson batches
/// where its conditions hold (else none).
fn closed_form_points(
    run: &amp_math::iteration::many_passes::ManyPasses,
    lengths: &[u64],
    delta: f64,
) -> Result<Vec<(f64, f64)>, ModelError> {
    let mut closed = Vec::new();
    if run.batches != Batches::Poisson {
        return Ok(closed);
    }
    if let Some(cf) = ClosedForm::of(run)? {
        for &t in lengths {
            let e = epsilon_for_delta(&cf.curve(t), delta, Conversion::Improved)?.epsilon;
            if e.is_finite() && e > 0.0 {
                closed.push((t as f64, e));
            }
        }
    }
    Ok(closed)
}

/// The longest run (of the drawn lengths) up to which the last iterate's bound equals
/// composition's (within 0.1%): full and Poisson batches agree until about the burn-in, cyclic
/// batches only during the first epoch (later uses are followed by more noisy steps).
fn agree_until(last: &[(f64, f64)], composed: &[(f64, f64)]) -> f64 {
    let mut upto = 0.0;
    for (l, c) in last.iter().zip(composed) {
        if l.0 != c.0 || (l.1 - c.1).abs() > 1e-3 * c.1 {
            break;
        }
        upto = l.0;
    }
    upto
}

/// The many-pass figure's summary: the run, where the two curves part, the burn-in, the plateau
/// and the reader's T.
fn many_pass_summary(
    run: &amp_math::iteration::many_passes::ManyPasses,
    delta: f64,
    top: u64,
    (agree, burn): (f64, u64),
    plateau: f64,
    at_t: f64,
) -> String {
    let batches = match run.batches {
        Batches::Full => format!("full batches of all n = {} records", run.records),
        Batches::Cyclic => format!(
            "cyclic batches of b = {} of n = {} records",
            run.batch, run.records
        ),
        Batches::Poisson => format!(
            "Poisson batches at rate b/n = {}/{}",
            run.batch, run.records
        ),
    };
    let parting = if agree >= 0.5 * burn as f64 {
        format!(
            "The two agree until the burn-in at about {} steps",
            short_number(burn as f64, 4)
        )
    } else {
        format!(
            "The two agree up to about {} steps, after which the last iterate's bound grows more slowly (each later use is followed by more noisy steps), until the burn-in at about {} steps",
            short_number(agree.max(1.0), 4),
            short_number(burn as f64, 4)
        )
    };
    format!(
        "ε at δ = {} of the last iterate of noisy gradient descent with {}, σ = {}, η = {}, diameter D = {} (L = 1, replace-one, the worst record), against releasing every iterate, for runs of 1 to {} steps. {}; from there the last iterate stays at the plateau ε = {} while composition keeps growing. At your T = {}: {}.",
        short_number(delta, 3),
        batches,
        short_number(run.sigma, 4),
        short_number(run.step_size, 4),
        short_number(run.diameter, 4),
        short_number(top as f64, 3),
        parting,
        short_number(plateau, 4),
        run.steps,
        short_number(at_t, 4),
    )
}
