//! Figures of the shuffling page (Brown, lecture notes "Privacy amplification", §1.3 and §2): every
//! published shuffle bound side by side, the inverse (the local ε₀ a central target allows),
//! shuffling against subsampling, the error of a mean in the three models, and subsampled
//! randomized response. The reader's setting, the bounds at it and the inverse are the model's
//! ([`amp_model::shuffle`]).

use amp_math::mean_error::{
    mean_error_central_laplace, mean_error_local_rr, mean_error_shuffled_rr,
};
use amp_math::shuffle::{
    fmt21_numerical, fmt21_published, largest_eps0_over, shuffle_epsilon_with,
    stronger_clones_exclude, subsampled_rr, Bound, Randomizer, ShuffleEpsilon, MAX_USERS,
};
use amp_math::subsampling::base_epsilon;

use super::{
    log_grid, log_range, Axis, Band, Chart, ChartResult, LegendCorner, Marker, ModelError, Role,
    Series,
};
use amp_format::short_number;
use amp_model::param as p;
use amp_model::params::ParamValues;
use amp_model::shuffle::{local_for_target, numerical, randomizer, setting};

mod rounds;
pub use rounds::*;

/// Palette index of each bound (its colour in every figure and in the table).
fn color(b: Bound) -> usize {
    match b {
        Bound::Efmrtt19 => 0,
        Bound::Bbgn19Hoeffding => 1,
        Bound::Bbgn19Bennett => 2,
        Bound::Fmt21 => 3,
        Bound::Fmt21Numerical => 4,
        Bound::Fmt23 | Bound::Fmt23Numerical => 5,
    }
}

/// Legend name of a bound, with the randomizer where it matters.
fn legend(b: Bound, r: Randomizer) -> String {
    match (b, r) {
        (Bound::Bbgn19Hoeffding | Bound::Bbgn19Bennett, Randomizer::KRr { k }) => {
            format!("{} for {k}-ary RR", b.name())
        }
        _ => b.name().to_string(),
    }
}

/// Points of one bound's curve along an axis, and the reasons it was left out where it was.
struct Curve {
    points: Vec<(f64, f64)>,
    invalid: Vec<&'static str>,
}

fn curve(xs: &[f64], at: impl Fn(f64) -> Option<ShuffleEpsilon>) -> Curve {
    let mut c = Curve {
        points: vec![],
        invalid: vec![],
    };
    for &x in xs {
        if let Some(r) = at(x) {
            match r.epsilon {
                Some(e) if r.valid && e.is_finite() && e > 0.0 => c.points.push((x, e)),
                _ => {
                    if let Some(why) = r.reason_invalid {
                        if !c.invalid.contains(&why) {
                            c.invalid.push(why);
                        }
                    }
                }
            }
        }
    }
    c
}

/// Adds one series per bound (the numerical one from its own evaluation, as a line), a note for
/// each bound left out somewhere on the axis, and the published method's range as a band.
fn add_bounds(
    chart: &mut Chart,
    xs: &[f64],
    r: Randomizer,
    at: impl Fn(Bound, f64) -> Option<ShuffleEpsilon>,
    axis: &str,
) {
    // FMT23's stronger clones hold for k-ary randomized response, not for every randomizer (its
    // erratum): one note instead of two curves that are invalid everywhere.
    let stronger = stronger_clones_exclude(r).is_none();
    if !stronger {
        chart.notes.push(
            "Stronger clones (FMT23): drawn for k-ary randomized response only; its erratum \
             withdrew the claim for every ε₀-LDP randomizer."
                .into(),
        );
    }
    for b in Bound::ALL.into_iter().filter(|&b| {
        b != Bound::Fmt21Numerical
            && (stronger || !matches!(b, Bound::Fmt23 | Bound::Fmt23Numerical))
    }) {
        let c = curve(xs, |x| at(b, x));
        if c.points.is_empty() {
            chart.notes.push(format!(
                "{}: not valid anywhere on this {axis} ({})",
                legend(b, r),
                c.invalid.join("; ")
            ));
            continue;
        }
        if !c.invalid.is_empty() {
            chart.notes.push(format!(
                "{}: drawn only where valid ({})",
                legend(b, r),
                c.invalid.join("; ")
            ));
        }
        chart.series.push(Series {
            label: legend(b, r),
            points: c.points,
            role: if matches!(b, Bound::Fmt21 | Bound::Fmt23) {
                Role::Bound(color(b))
            } else {
                Role::Family(color(b))
            },
        });
    }
}

/// The numerical clone bound along an axis: the exact line and the published method's band.
fn add_numerical(
    chart: &mut Chart,
    xs: &[f64],
    exact: impl Fn(f64) -> Option<f64>,
    published: impl Fn(f64) -> Option<(f64, f64)>,
) {
    let line: Vec<(f64, f64)> = xs
        .iter()
        .filter_map(|&x| {
            exact(x)
                .filter(|e| e.is_finite() && *e > 0.0)
                .map(|e| (x, e))
        })
        .collect();
    let band: Vec<(f64, f64, f64)> = xs
        .iter()
        .filter_map(|&x| {
            published(x)
                .filter(|(lo, hi)| lo.is_finite() && hi.is_finite() && *lo > 0.0 && hi >= lo)
                .map(|(lo, hi)| (x, lo, hi))
        })
        .collect();
    if !band.is_empty() {
        chart.bands.push(Band {
            label: "Clones, numerical, as published: its two runs".into(),
            points: band,
        });
    }
    chart.series.push(Series {
        label: "Clones, numerical, exact (this page)".into(),
        points: line,
        role: Role::Highlight,
    });
}

fn y_axis_of(chart: &Chart, extra: &[f64]) -> (f64, f64) {
    let ys: Vec<f64> = chart
        .series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .chain(
            chart
                .bands
                .iter()
                .flat_map(|b| b.points.iter().map(|p| p.2)),
        )
        .chain(extra.iter().copied())
        .collect();
    log_range(ys.iter())
}

/// Largest n at which the published method's range is drawn: beyond, it costs tens of
/// milliseconds per point and its band is thinner than a line (the table still shows it at the
/// reader's n).
pub const PUBLISHED_MAX_USERS: f64 = 1e7;

/// Users on the x axis of `shuffle-epsilon-vs-users`: from 100 (or n/100) to 10⁸ (or 100·n),
/// within [2, 10⁹].
fn users_axis(n: u64) -> (f64, f64) {
    let n = n as f64;
    let lo = (n / 100.0).clamp(2.0, 100.0);
    let hi = (n * 100.0).max(1e8).min(MAX_USERS as f64);
    (lo, hi)
}

/// `shuffle-epsilon-vs-users`: central ε against n at the reader's ε₀ and δ, every bound.
pub fn epsilon_vs_users(values: &ParamValues) -> ChartResult {
    let (eps0, n, delta) = setting(values);
    let r = randomizer(values);
    let (lo, hi) = users_axis(n);
    let xs: Vec<f64> = log_grid(lo, hi, 36)
        .into_iter()
        .map(|x| x.round())
        .collect();
    let mut chart = Chart::new(
        Axis::numeric("users n", true, lo, hi),
        Axis::numeric("central ε (replace one)", true, 0.01, 1.0),
        LegendCorner::LowerLeft,
        String::new(),
    );
    add_bounds(
        &mut chart,
        &xs,
        r,
        |b, x| shuffle_epsilon_with(b, r, eps0, x as u64, delta).ok(),
        "axis",
    );
    add_numerical(
        &mut chart,
        &xs,
        |x| fmt21_numerical(eps0, x as u64, delta).ok().map(|p| p.1),
        |x| {
            (x <= PUBLISHED_MAX_USERS)
                .then(|| fmt21_published(eps0, x as u64, delta).ok())
                .flatten()
        },
    );
    // Its lower run is not monotone in n there: that is the method's own output, drawn as computed
    // rather than smoothed.
    if lo < 1e4 {
        chart.notes.push(
            "Below about 10⁴ users the published method's lower run jumps from one n to the next (\
             at times up to ε₀, not monotone in n): its band is drawn as computed, not smoothed."
                .into(),
        );
    }
    if hi > PUBLISHED_MAX_USERS {
        chart.notes.push(
            "The published method's range is drawn up to n = 10⁷; beyond, it is thinner than the line."
                .into(),
        );
    }
    chart.series.push(Series {
        label: "no amplification (ε₀)".into(),
        points: vec![(lo, eps0), (hi, eps0)],
        role: Role::Reference,
    });
    let here = numerical(values)?;
    chart.markers.push(Marker {
        x: n as f64,
        y: here.1,
        label: format!("n = {n}: {}", short_number(here.1, 4)),
    });
    let (y_lo, y_hi) = y_axis_of(&chart, &[eps0]);
    chart.y.min = y_lo;
    chart.y.max = y_hi;
    chart.summary = format!(
        "Central ε at δ = {} after shuffling the reports of n users, each ε₀ = {}-LDP, for n from {} to {}, by every published bound valid there. At your n = {n} the exact clone reduction gives {}.",
        short_number(delta, 3),
        short_number(eps0, 4),
        short_number(lo, 3),
        short_number(hi, 3),
        short_number(here.1, 5)
    );
    Ok(chart)
}

/// `shuffle-epsilon-vs-local`: central ε against ε₀ at the reader's n and δ, every bound.
pub fn epsilon_vs_local(values: &ParamValues) -> ChartResult {
    let (eps0, n, delta) = setting(values);
    let r = randomizer(values);
    let (lo, hi) = ((eps0 / 10.0).min(0.05), (eps0 * 2.0).clamp(10.0, 30.0));
    let xs = log_grid(lo, hi, 40);
    let mut chart = Chart::new(
        Axis::numeric("local ε₀ of each user", true, lo, hi),
        Axis::numeric("central ε (replace one)", true, 0.01, 1.0),
        LegendCorner::UpperLeft,
        String::new(),
    );
    add_bounds(
        &mut chart,
        &xs,
        r,
        |b, x| shuffle_epsilon_with(b, r, x, n, delta).ok(),
        "axis",
    );
    add_numerical(
        &mut chart,
        &xs,
        |x| fmt21_numerical(x, n, delta).ok().map(|p| p.1),
        |x| {
            (n as f64 <= PUBLISHED_MAX_USERS)
                .then(|| fmt21_published(x, n, delta).ok())
                .flatten()
        },
    );
    chart.series.push(Series {
        label: "no amplification (ε = ε₀)".into(),
        points: vec![(lo, lo), (hi, hi)],
        role: Role::Reference,
    });
    let here = numerical(values)?;
    chart.markers.push(Marker {
        x: eps0,
        y: here.1,
        label: format!(
            "ε₀ = {}: {}",
            short_number(eps0, 3),
            short_number(here.1, 4)
        ),
    });
    let (y_lo, y_hi) = y_axis_of(&chart, &[]);
    chart.y.min = y_lo.max(lo / 1e4);
    chart.y.max = y_hi.min(hi * 1.6);
    chart.summary = format!(
        "Central ε at δ = {} after shuffling n = {n} reports, against each user's local ε₀ from {} to {}, by every published bound valid there. At your ε₀ = {} the exact clone reduction gives {}.",
        short_number(delta, 3),
        short_number(lo, 3),
        short_number(hi, 3),
        short_number(eps0, 4),
        short_number(here.1, 5)
    );
    Ok(chart)
}

/// `shuffle-vs-subsample`: for each central target ε, the local ε₀ shuffling n users allows
/// (largest over the bounds) and the per-step ε Poisson subsampling at rate p allows.
pub fn shuffle_vs_subsample(values: &ParamValues) -> ChartResult {
    let (_, n, delta) = setting(values);
    let r = randomizer(values);
    let p = values.real(p::P);
    let target = values.real(p::TARGET_EPS);
    let (lo, hi) = (
        0.01f64.min(target / 2.0).max(1e-4),
        10.0f64.max(target * 2.0).min(50.0),
    );
    // The largest ε₀ meeting each target over all bounds, root-found per target (each answer is
    // checked to meet its target; interpolating a forward curve would overstate ε₀ where the
    // bound rises steeply).
    let shuffle: Vec<(f64, f64)> = log_grid(lo, hi, 24)
        .into_iter()
        .filter_map(|t| {
            largest_eps0_over(&Bound::ALL, r, t, n, delta)
                .ok()
                .map(|(_, l)| (t, l.eps0))
        })
        .collect();
    let subsample: Vec<(f64, f64)> = log_grid(lo, hi, 30)
        .iter()
        .filter_map(|&t| {
            base_epsilon(t, p)
                .ok()
                .filter(|e| e.is_finite() && *e > 0.0)
                .map(|e| (t, e))
        })
        .collect();
    let mut chart = Chart::new(
        Axis::numeric("target central ε", true, lo, hi),
        Axis::numeric("ε each user / each step may spend", true, 0.01, 1.0),
        LegendCorner::UpperLeft,
        String::new(),
    );
    chart.series.push(Series {
        label: format!("shuffling n = {n} users: local ε₀ (replace one)"),
        points: shuffle,
        role: Role::Highlight,
    });
    chart.series.push(Series {
        label: format!(
            "Poisson subsampling at p = {}: base ε (add/remove one)",
            short_number(p, 3)
        ),
        points: subsample,
        role: Role::Family(1),
    });
    chart.series.push(Series {
        label: "no amplification".into(),
        points: vec![(lo, lo), (hi, hi)],
        role: Role::Reference,
    });
    let here_shuffle = local_for_target(values).ok().map(|l| l.0);
    let here_sub = base_epsilon(target, p).ok().filter(|e| e.is_finite());
    if let Some(e) = here_shuffle {
        chart.markers.push(Marker {
            x: target,
            y: e,
            label: format!("ε₀ = {}", short_number(e, 4)),
        });
    }
    let (y_lo, y_hi) = y_axis_of(&chart, &[]);
    chart.y.min = y_lo;
    chart.y.max = y_hi;
    chart.summary = format!(
        "For a central target ε between {} and {} at δ = {}, the largest local ε₀ each of n = {n} users may use before shuffling, and the largest ε a mechanism may use on a Poisson sample at rate p = {} (the subsampling theorem inverted; add/remove). At your target {}: ε₀ = {} by shuffling, ε = {} by subsampling.",
        short_number(lo, 3),
        short_number(hi, 3),
        short_number(delta, 3),
        short_number(p, 3),
        short_number(target, 4),
        here_shuffle.map_or("—".into(), |e| short_number(e, 4)),
        here_sub.map_or("—".into(), |e| short_number(e, 4)),
    );
    Ok(chart)
}

/// The population mean the error figure assumes: ½, where the sampling variance is largest.
pub const MEAN: f64 = 0.5;

/// `error-central-local-shuffle`: the error privacy adds to the mean of n bits (its standard
/// deviation), against n, at the reader's central ε (and δ for shuffling), in the central
/// (Laplace), local (randomized response) and shuffle (randomized response at the ε₀ the clone
/// reduction allows) models, beside the sampling error every estimate has.
pub fn error_central_local_shuffle(values: &ParamValues) -> ChartResult {
    let (_, n, delta) = setting(values);
    let eps = values.real(p::TARGET_EPS);
    if eps <= 0.0 {
        return Err("the error of a private mean needs a target ε above 0".into());
    }
    let (lo, hi) = users_axis(n);
    let xs = log_grid(lo, hi, 24);
    let series = |f: &dyn Fn(u64) -> Option<f64>| -> Vec<(f64, f64)> {
        xs.iter()
            .filter_map(|&x| {
                f(x.round() as u64)
                    .filter(|e| e.is_finite() && *e > 0.0)
                    .map(|e| (x.round(), e))
            })
            .collect()
    };
    let central = series(&|m| {
        mean_error_central_laplace(m, eps, MEAN)
            .ok()
            .map(|e| e.privacy_sd)
    });
    let local = series(&|m| mean_error_local_rr(m, eps, MEAN).ok().map(|e| e.privacy_sd));
    let shuffled = series(&|m| {
        mean_error_shuffled_rr(m, eps, delta, Bound::Fmt21Numerical, MEAN)
            .ok()
            .map(|e| e.privacy_sd)
    });
    let sampling = series(&|m| Some((MEAN * (1.0 - MEAN) / m as f64).sqrt()));
    let mut chart = Chart::new(
        Axis::numeric("users n", true, lo, hi),
        Axis::numeric(
            "error added by privacy (standard deviation)",
            true,
            1e-4,
            1.0,
        ),
        LegendCorner::LowerLeft,
        String::new(),
    );
    chart.series.push(Series {
        label: "local: randomized response".into(),
        points: local,
        role: Role::Family(0),
    });
    chart.series.push(Series {
        label: "shuffled randomized response".into(),
        points: shuffled,
        role: Role::Highlight,
    });
    chart.series.push(Series {
        label: "central: Laplace".into(),
        points: central,
        role: Role::Family(2),
    });
    chart.series.push(Series {
        label: "sampling error (every estimate has it)".into(),
        points: sampling,
        role: Role::Reference,
    });
    let at =
        |f: fn(u64, f64, f64) -> Result<amp_math::mean_error::MeanError, amp_math::MathError>| {
            f(n, eps, MEAN).ok().map(|e| e.privacy_sd)
        };
    let here_shuffle = mean_error_shuffled_rr(n, eps, delta, Bound::Fmt21Numerical, MEAN).ok();
    if let Some(e) = &here_shuffle {
        chart.markers.push(Marker {
            x: n as f64,
            y: e.privacy_sd,
            label: format!("n = {n}: {}", short_number(e.privacy_sd, 3)),
        });
    }
    let (y_lo, y_hi) = y_axis_of(&chart, &[]);
    chart.y.min = y_lo;
    chart.y.max = y_hi;
    let show = |x: Option<f64>| x.map_or("—".into(), |e| short_number(e, 3));
    chart.summary = format!(
        "Standard deviation that privacy adds to the mean of n bits at central ε = {} against n: local randomized response, randomized response shuffled (local ε₀ from the exact clone reduction at δ = {}), and central Laplace noise; the sampling error of a mean of ½ is drawn for scale. At your n = {n}: {} local, {} shuffled, {} central.",
        short_number(eps, 4),
        short_number(delta, 3),
        show(at(mean_error_local_rr)),
        show(here_shuffle.map(|e| e.privacy_sd)),
        show(at(mean_error_central_laplace)),
    );
    Ok(chart)
}

/// `subsampled-rr`: exact ε of randomized response on a Poisson sample at rate p, against p, with
/// the linear heuristic εp and the subsampling theorem.
pub fn subsampled_rr_fig(values: &ParamValues) -> ChartResult {
    let eps = values.real(p::EPS);
    let p = values.real(p::P);
    let lo = (p / 10.0).clamp(1e-9, 1e-4);
    let xs = log_grid(lo, 1.0, 120);
    let pick = |f: fn(&amp_math::shuffle::SubsampledRr) -> f64| -> Vec<(f64, f64)> {
        xs.iter()
            .filter_map(|&x| {
                subsampled_rr(eps, x)
                    .ok()
                    .map(|s| f(&s))
                    .filter(|y| y.is_finite() && *y > 0.0)
                    .map(|y| (x, y))
            })
            .collect()
    };
    let here = subsampled_rr(eps, p)?;
    let mut chart = Chart::new(
        Axis::numeric("sampling rate p", true, lo, 1.0),
        Axis::numeric("ε of the subsampled randomized response", true, 0.01, 1.0),
        LegendCorner::UpperLeft,
        String::new(),
    );
    chart.series.push(Series {
        label: "subsampling theorem log(1 + p(e^ε − 1))".into(),
        points: pick(|s| s.theorem),
        role: Role::Bound(0),
    });
    chart.series.push(Series {
        label: "linear heuristic εp".into(),
        points: pick(|s| s.linear),
        role: Role::Family(1),
    });
    chart.series.push(Series {
        label: "exact ε of the composite mechanism".into(),
        points: pick(|s| s.exact),
        role: Role::Highlight,
    });
    chart.markers.push(Marker {
        x: p,
        y: here.exact,
        label: format!(
            "p = {}: {}",
            short_number(p, 3),
            short_number(here.exact, 4)
        ),
    });
    let (y_lo, y_hi) = y_axis_of(&chart, &[]);
    chart.y.min = y_lo;
    chart.y.max = y_hi;
    chart.summary = format!(
        "Randomized response with ε = {} run on a Poisson sample (a record outside the sample is replaced by a fair coin), against the rate p: the exact ε of the whole mechanism, the heuristic εp and the subsampling theorem. At p = {}: exact {}, εp = {}, theorem {}.",
        short_number(eps, 4),
        short_number(p, 3),
        short_number(here.exact, 4),
        short_number(here.linear, 4),
        short_number(here.theorem, 4)
    );
    Ok(chart)
}
