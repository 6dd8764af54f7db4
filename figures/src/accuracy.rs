//! Figures of the accuracy page (Hu, Drechsler & Kim, "Accuracy gains from privacy
//! amplification through sampling for differential privacy"). Sampling without replacement,
//! replace-one neighbours. The simulation they read is the model's
//! ([`amp_model::accuracy::sim_config`]).

use amp_math::accuracy::{
    mean_noise_ratio, mean_noise_ratio_naive, mean_variances, rate_for_variance_fraction,
    variance_fraction,
};
use amp_math::median::local_sensitivity;
use amp_math::median_sim::{
    generate_population, private_releases, quantiles, Simulation, PAPER_EPSILONS,
};

use super::{
    log_grid, log_range, Axis, Band, BoxStat, Chart, ChartResult, LegendCorner, Marker, Role,
    Series,
};
use amp_format::short_number;
use amp_model::accuracy::sim_config;
use amp_model::param as p;
use amp_model::params::{ParamValues, ShowNaive};
use amp_model::risk::percent;

mod simulated;
pub use simulated::{
    median_mse_vs_rate, noise_magnitude, private_estimates, sample_medians, sensitivity_ratio,
};

const POINTS: usize = 160;

fn err(e: amp_math::MathError) -> String {
    e.to_string()
}

fn chart(x: Axis, y: Axis, legend: LegendCorner) -> Chart {
    Chart::new(x, y, legend, String::new())
}

/// ε values of the family drawn in `variance-fraction-q`.
const Q_FAMILY: [f64; 4] = [0.01, 0.1, 1.0, 3.0];

/// `variance-fraction-q` (Figure 4): q = 1 − ε²/ε_n² against the sampling rate, the reader's
/// target q marked at the rate that reaches it.
pub fn variance_fraction_q(values: &ParamValues) -> ChartResult {
    let (eps, target, rate) = (
        values.real(p::EPS),
        values.real(p::TARGET_Q),
        values.real(p::RATE),
    );
    let grid: Vec<f64> = (0..=POINTS)
        .map(|i| 0.001 + 0.999 * i as f64 / POINTS as f64)
        .collect();
    let curve = |e: f64| -> Vec<(f64, f64)> {
        grid.iter()
            .filter_map(|&r| variance_fraction(e, r).ok().map(|q| (r, q)))
            .collect()
    };
    let mut c = chart(
        Axis::numeric("sampling rate n/N", false, 0.0, 1.0),
        Axis::numeric("q = 1 − ε²/ε_n²", false, 0.0, 1.02),
        LegendCorner::UpperRight,
    );
    for (i, e) in Q_FAMILY.iter().copied().enumerate() {
        if (e - eps).abs() > 1e-9 * eps {
            c.series.push(Series {
                label: format!("ε = {}", short_number(e, 3)),
                points: curve(e),
                role: Role::Family(i),
            });
        }
    }
    c.series.push(Series {
        label: format!("your ε = {}", short_number(eps, 4)),
        points: curve(eps),
        role: Role::Highlight,
    });
    c.series.push(Series {
        label: format!("target q = {}", short_number(target, 3)),
        points: vec![(0.0, target), (1.0, target)],
        role: Role::Reference,
    });
    let here = variance_fraction(eps, rate).map_err(err)?;
    c.markers.push(Marker {
        x: rate,
        y: here,
        label: format!("q = {}", short_number(here, 3)),
    });
    let at = rate_for_variance_fraction(eps, target);
    if let Ok(r) = at {
        c.markers.push(Marker {
            x: r,
            y: target,
            label: format!("{}%", short_number(100.0 * r, 4)),
        });
    }
    c.summary = format!(
        "The fraction q = 1 − ε²/ε_n² against the sampling rate: if the sensitivity does not depend on \
         the sample size, the sample can only be more accurate when its sampling variance is below \
         q·V_N. For your ε = {}, q reaches {} at a sampling rate of {}; at your rate {} it is {}.",
        short_number(eps, 4),
        short_number(target, 3),
        at.map(|r| format!("{}%", short_number(100.0 * r, 4)))
            .unwrap_or_else(|e| e.to_string()),
        short_number(rate, 4),
        short_number(here, 4)
    );
    Ok(c)
}

/// `mean-variance-vs-rate` (eqs. 6–7): V_n/V_N split into its sampling and noise parts, against
/// the rate, for the reader's N, R and S²_N.
pub fn mean_variance_vs_rate(values: &ParamValues) -> ChartResult {
    let (eps, rate) = (values.real(p::EPS), values.real(p::RATE));
    let (big_n, range, s2) = (
        values.count(p::POPULATION_SIZE) as f64,
        values.real(p::RANGE),
        values.real(p::POP_VARIANCE),
    );
    let lo = (1.0 / big_n).max((rate / 3.0).min(1e-4));
    let grid = log_grid(lo, 1.0, POINTS);
    let (mut total, mut sampling, mut noise) = (Vec::new(), Vec::new(), Vec::new());
    for &r in &grid {
        if let Ok(v) = mean_variances(eps, r, big_n, range, s2) {
            total.push((r, v.sample_total() / v.population));
            if v.sampling > 0.0 {
                sampling.push((r, v.sampling / v.population));
            }
            noise.push((r, v.sample_noise / v.population));
        }
    }
    let here = mean_variances(eps, rate, big_n, range, s2).map_err(err)?;
    let ratio = here.sample_total() / here.population;
    let ys = total
        .iter()
        .chain(noise.iter())
        .chain(sampling.iter())
        .map(|p| &p.1);
    let (ylo, yhi) = log_range(ys.chain(std::iter::once(&1.0)));
    let mut c = chart(
        Axis::numeric("sampling rate n/N", true, lo, 1.0),
        Axis::numeric("variance relative to V_N", true, ylo, yhi),
        LegendCorner::UpperRight,
    );
    c.series.push(Series {
        label: "V_N (the population, noise only)".into(),
        points: vec![(lo, 1.0), (1.0, 1.0)],
        role: Role::Reference,
    });
    c.series.push(Series {
        label: "sampling part (1 − n/N)S²/n".into(),
        points: sampling,
        role: Role::Bound(0),
    });
    c.series.push(Series {
        label: "noise part 2(R/(ε_n n))²".into(),
        points: noise,
        role: Role::Bound(2),
    });
    c.series.push(Series {
        label: "V_n / V_N".into(),
        points: total,
        role: Role::Highlight,
    });
    c.markers.push(Marker {
        x: rate,
        y: ratio,
        label: format!("{}×", short_number(ratio, 3)),
    });
    c.summary = format!(
        "The variance of the private sample mean V_n relative to the private population mean's V_N, \
         against the sampling rate on log axes, split into sampling and noise parts, for N = {}, \
         R = {}, S² = {} and ε = {}. The noise part alone is already at least V_N (eq. 8), so the \
         sample mean is never more accurate. At your rate {} V_n/V_N = {}.",
        short_number(big_n, 7),
        short_number(range, 4),
        short_number(s2, 4),
        short_number(eps, 4),
        short_number(rate, 4),
        short_number(ratio, 4)
    );
    Ok(c)
}

/// Rates drawn in `mean-noise-ratio`.
const R_FAMILY: [f64; 4] = [1e-4, 0.01, 0.1, 0.5];

/// The lower panel of `mean-noise-ratio` with the naive formula shown: r − 1 at ε ≤ 10⁻⁴, stable
/// and naive, where the naive formula's rounding lifts r above 1.
fn naive_panel(grid: &[f64], rate: f64, naive_pts: &[(f64, f64)]) -> Chart {
    // Lower panel: r − 1 in the tiny-ε regime, where the artifact lives.
    let tiny: Vec<f64> = grid.iter().copied().filter(|&e| e <= 1e-4).collect();
    let stable: Vec<(f64, f64)> = tiny
        .iter()
        .filter_map(|&e| mean_noise_ratio(e, rate).ok().map(|v| (e, v - 1.0)))
        .collect();
    let raw: Vec<(f64, f64)> = naive_pts
        .iter()
        .filter(|p| p.0 <= 1e-4)
        .map(|&(e, v)| (e, v - 1.0))
        .collect();
    let a = raw
        .iter()
        .chain(stable.iter())
        .map(|p| p.1.abs())
        .fold(1e-12f64, f64::max)
        .min(2.0);
    let mut lower = chart(
        Axis::numeric("ε", true, 1e-14, 1e-4),
        Axis::numeric("r − 1", false, -1.1 * a, 1.1 * a),
        LegendCorner::LowerRight,
    );
    lower.series.push(Series {
        label: "r = 1".into(),
        points: vec![(1e-14, 0.0), (1e-4, 0.0)],
        role: Role::Reference,
    });
    lower.series.push(Series {
        label: "stable: always below 0".into(),
        points: stable,
        role: Role::Highlight,
    });
    lower.series.push(Series {
        label: "naive: rounding noise".into(),
        points: raw,
        role: Role::Scatter(5),
    });
    lower
}

/// `mean-noise-ratio` (eq. 8, Figure 5): r(ε, n/N) against ε, computed stably; with `naive=show`
/// the naive double-precision formula beside it, and below, r − 1 at tiny ε where the naive one
/// rises above 1 (impossible: r ≤ 1 always).
pub fn mean_noise_ratio_fig(values: &ParamValues) -> ChartResult {
    let (eps, rate) = (values.real(p::EPS), values.real(p::RATE));
    let naive = values.choice(p::NAIVE) == ShowNaive::Show;
    let grid = log_grid(1e-14, 10.0, POINTS);
    let curve = |r: f64| -> Vec<(f64, f64)> {
        grid.iter()
            .filter_map(|&e| mean_noise_ratio(e, r).ok().map(|v| (e, v)))
            .collect()
    };
    let mut c = chart(
        Axis::numeric("ε", true, 1e-14, 10.0),
        Axis::numeric("r(ε, n/N) = noise variance ratio", false, 0.0, 1.05),
        LegendCorner::LowerLeft,
    );
    for (i, r) in R_FAMILY.iter().copied().enumerate() {
        if (r - rate).abs() > 1e-9 * rate {
            c.series.push(Series {
                label: format!("n/N = {}", short_number(r, 3)),
                points: curve(r),
                role: Role::Family(i),
            });
        }
    }
    c.series.push(Series {
        label: format!("your n/N = {}", short_number(rate, 4)),
        points: curve(rate),
        role: Role::Highlight,
    });
    c.series.push(Series {
        label: "r = 1".into(),
        points: vec![(1e-14, 1.0), (10.0, 1.0)],
        role: Role::Reference,
    });
    let here = mean_noise_ratio(eps, rate).map_err(err)?;
    c.markers.push(Marker {
        x: eps,
        y: here,
        label: format!("r = {}", short_number(here, 4)),
    });
    let naive_pts: Vec<(f64, f64)> = grid
        .iter()
        .map(|&e| (e, mean_noise_ratio_naive(e, rate)))
        .filter(|p| p.1.is_finite())
        .collect();
    let above = naive_pts.iter().filter(|p| p.1 > 1.0).count();
    if naive {
        let top = naive_pts
            .iter()
            .map(|p| p.1)
            .fold(1.05f64, f64::max)
            .min(3.0);
        c.y.max = top * 1.02;
        c.series.push(Series {
            label: "naive double-precision eq. 8".into(),
            points: naive_pts.clone(),
            role: Role::Scatter(5),
        });
        c.lower = Some(Box::new(naive_panel(&grid, rate, &naive_pts)));
    }
    c.summary = format!(
        "The ratio r of the population mean's noise variance to the sample mean's, against ε on a \
         log axis: computed stably it never exceeds 1 (the sample always needs at least as much \
         noise) and tends to 1 as ε → 0. At your ε = {} and n/N = {}, r = {}. Typed naively in double \
         precision, eq. 8 exceeds 1 at {} of the {} values of ε drawn: rounding in exp(ε) − 1 and \
         log(1 + x), not mathematics{}.",
        short_number(eps, 4),
        short_number(rate, 4),
        short_number(here, 6),
        above,
        naive_pts.len(),
        if naive { " (drawn as grey dots)" } else { "; switch the naive formula on to see it" }
    );
    Ok(c)
}

/// A density histogram of sorted values over their range: the bin width, the density per bin,
/// and its step outline (each bin flat over its width) as a curve and as a band from 0.
struct Histogram {
    width: f64,
    dens: Vec<f64>,
    steps: Vec<(f64, f64)>,
    band: Vec<(f64, f64, f64)>,
}

fn histogram(sorted: &[f64], bins: usize) -> Histogram {
    let (mn, mx) = (sorted[0], sorted[sorted.len() - 1]);
    let width = ((mx - mn) / bins as f64).max(f64::MIN_POSITIVE);
    let mut counts = vec![0usize; bins];
    for &v in sorted {
        let b = (((v - mn) / width) as usize).min(bins - 1);
        counts[b] += 1;
    }
    let total = sorted.len() as f64;
    let dens: Vec<f64> = counts.iter().map(|&c| c as f64 / (total * width)).collect();
    let mut steps = Vec::with_capacity(2 * bins);
    let mut band = Vec::with_capacity(2 * bins);
    for (b, &d) in dens.iter().enumerate() {
        let (a, z) = (mn + b as f64 * width, mn + (b + 1) as f64 * width);
        steps.push((a, d));
        steps.push((z, d));
        band.push((a, 0.0, d));
        band.push((z, 0.0, d));
    }
    Histogram {
        width,
        dens,
        steps,
        band,
    }
}

/// `population-density` (Figures 1 and 9): a histogram density of the generated population with
/// its median marked.
pub fn population_density(values: &ParamValues) -> ChartResult {
    let cfg = sim_config(values)?;
    let pop = generate_population(cfg.population, cfg.population_size, cfg.seed).map_err(err)?;
    let (mn, mx) = (pop.sorted[0], pop.sorted[pop.sorted.len() - 1]);
    let bins = 80usize;
    let Histogram {
        width,
        dens,
        steps,
        band,
    } = histogram(&pop.sorted, bins);
    let ymax = dens.iter().copied().fold(0.0, f64::max) * 1.1;
    let median = pop.median();
    let mb = (((median - mn) / width) as usize).min(bins - 1);
    let mut c = chart(
        Axis::numeric("value", false, mn, mx),
        Axis::numeric("density", false, 0.0, ymax.max(f64::MIN_POSITIVE)),
        LegendCorner::UpperRight,
    );
    c.bands.push(Band {
        label: format!(
            "{} population, N = {}",
            cfg.population.name(),
            pop.sorted.len()
        ),
        points: band,
    });
    c.series.push(Series {
        label: String::new(),
        points: steps,
        role: Role::Family(0),
    });
    c.markers.push(Marker {
        x: median,
        y: dens[mb],
        label: format!("median {}", short_number(median, 4)),
    });
    // The local sensitivity (Hu, Drechsler & Kim, Definition 5): the larger gap beside the median,
    // drawn as a bracket from the median to that neighbour, just above the density at the median
    // (and clear of the axis). On the bimodal population it spans the empty gap between the modes
    // (§4.4).
    let local = local_sensitivity(&pop.sorted, pop.range.0, pop.range.1);
    let n = pop.sorted.len();
    let (below, above) = (
        pop.sorted[(n / 2).saturating_sub(1)],
        pop.sorted[(n / 2 + 1).min(n - 1)],
    );
    let neighbour = if above - median >= median - below {
        above
    } else {
        below
    };
    c.series.push(Series {
        label: format!(
            "gap to the median's neighbour: local sensitivity {}",
            short_number(local, 3)
        ),
        points: {
            let top = dens[mb] + 0.06 * ymax;
            let tick = 0.03 * ymax;
            vec![
                (median, top - tick),
                (median, top),
                (neighbour, top),
                (neighbour, top - tick),
            ]
        },
        role: Role::Family(1),
    });
    c.summary = format!(
        "A histogram of the simulated population ({}, N = {}, seed {}), from {} to {}; its median, \
         {}, sits where the density is {}. The median's local sensitivity (the larger gap between \
         it and a neighbouring value, the most one changed record can move it) is {}, against \
         the global sensitivity R = {} (the public range){}.",
        values.choice(p::POPULATION).id(),
        n,
        cfg.seed,
        short_number(mn, 4),
        short_number(mx, 4),
        short_number(median, 4),
        if dens[mb] < 0.1 * ymax { "low" } else { "high" },
        short_number(local, 3),
        short_number(pop.range.1 - pop.range.0, 4),
        if local > 0.0 {
            format!(
                ", {} times smaller",
                short_number((pop.range.1 - pop.range.0) / local, 3)
            )
        } else {
            String::new()
        },
    );
    // The paper's Figure 1 draws one population on both sides; here the releases beside it have
    // their own control, so say when the two differ.
    let released = values.choice(p::ESTIMATES_POPULATION).population();
    if released != cfg.population {
        c.summary.push_str(&format!(
            " The figure of the whole population's releases draws another population, {}.",
            released.name()
        ));
    }
    Ok(c)
}
