//! Figures of the limits page (Steinke, "Limits of privacy amplification by
//! subsampling"). Poisson sampling, add/remove neighbours, Laplace mechanisms throughout. The
//! regime calculator's sentence is the model's ([`amp_model::limits`]).

use amp_math::limits::{
    mse_break_even_rate, mse_standard, mse_subsampled_terms, noise_factor_bound, noise_ratio,
    ratio_floor, regime, steps_for_proportional, taylor_terms, Duration,
};
use amp_math::subsampling::base_epsilon;

use super::{
    log_grid, log_range, Axis, Band, Chart, ChartResult, Heatmap, LegendCorner, Marker, Outline,
    Role, Series,
};
use amp_format::short_number;
use amp_model::param as p;
use amp_model::params::ParamValues;

/// Rates drawn as a family in `noise-ratio-vs-epsilon` (the post's figure).
pub const RATE_FAMILY: [f64; 4] = [0.001, 0.01, 0.1, 0.5];
/// Values of c drawn as a family in `noise-ratio-fixed-c`.
pub const C_FAMILY: [f64; 5] = [0.5, 1.0, 2.0, 5.0, 10.0];
/// Points per curve.
const POINTS: usize = 160;

fn err(e: amp_math::MathError) -> String {
    e.to_string()
}

fn others(family: &'static [f64], reader: f64) -> impl Iterator<Item = (usize, f64)> {
    family
        .iter()
        .copied()
        .enumerate()
        .filter(move |&(_, v)| (v - reader).abs() > 1e-9 * reader)
}

fn ratio_axis() -> Axis {
    Axis {
        label: "noise ratio R = p·ε_p/ε".into(),
        log: false,
        categories: vec![],
        min: 0.0,
        max: 1.05,
    }
}

/// `noise-ratio-vs-epsilon`: R against ε for several rates and the reader's, with the band of
/// eq. 6 (p/(p + ε) ≤ R ≤ 1) at the reader's rate.
pub fn ratio_vs_epsilon(values: &ParamValues) -> ChartResult {
    let (eps, p) = (values.real(p::EPS), values.real(p::P));
    let here = noise_ratio(eps, p).map_err(err)?;
    let lo = (eps / 3.0).min(1e-4);
    let hi = (eps * 1.5).clamp(10.0, 500.0);
    let grid = log_grid(lo, hi, POINTS);
    let curve = |q: f64| -> Vec<(f64, f64)> {
        grid.iter()
            .filter_map(|&e| noise_ratio(e, q).ok().map(|r| (e, r)))
            .collect()
    };
    let mut c = Chart::new(
        Axis {
            label: "ε".into(),
            log: true,
            categories: vec![],
            min: lo,
            max: hi,
        },
        ratio_axis(),
        LegendCorner::LowerLeft,
        format!(
            "The noise ratio R = p·ε_p/ε against ε on a log axis, for sampling rates 0.001 to 0.5 \
             and your p = {}. R = 1 means subsampling is free; it stays near 1 only while ε is small \
             compared with p. At your ε = {} and p = {}, R = {}: the subsampled mechanism adds {}× \
             the noise.",
            short_number(p, 4),
            short_number(eps, 4),
            short_number(p, 4),
            short_number(here, 4),
            short_number(1.0 / here, 4)
        ),
    );
    c.bands.push(Band {
        label: format!("p/(p+ε) ≤ R ≤ 1 at p = {}", short_number(p, 4)),
        points: grid.iter().map(|&e| (e, p / (p + e), 1.0)).collect(),
    });
    for (i, q) in others(&RATE_FAMILY, p) {
        c.series.push(Series {
            label: format!("p = {}", short_number(q, 3)),
            points: curve(q),
            role: Role::Family(i),
        });
    }
    c.series.push(Series {
        label: format!("your p = {}", short_number(p, 4)),
        points: curve(p),
        role: Role::Highlight,
    });
    c.markers.push(Marker {
        x: eps,
        y: here,
        label: format!("R = {}", short_number(here, 4)),
    });
    Ok(c)
}

/// `noise-ratio-fixed-c`: R with ε = c·p against p for several c and the reader's, each with its
/// floor log(1 + c)/c (eq. 8).
pub fn ratio_fixed_c(values: &ParamValues) -> ChartResult {
    let (cv, p) = (values.real(p::C), values.real(p::P));
    let lo = (p / 3.0).min(1e-6);
    let grid = log_grid(lo, 1.0, POINTS);
    let curve = |c: f64| -> Vec<(f64, f64)> {
        grid.iter()
            .filter_map(|&q| noise_ratio(c * q, q).ok().map(|r| (q, r)))
            .collect()
    };
    let floor = |c: f64| ratio_floor(c).map_err(err);
    let mut c = Chart::new(
        Axis {
            label: "sampling rate p".into(),
            log: true,
            categories: vec![],
            min: lo,
            max: 1.0,
        },
        ratio_axis(),
        LegendCorner::LowerLeft,
        String::new(),
    );
    for (i, k) in others(&C_FAMILY, cv) {
        c.series.push(Series {
            label: format!("c = {}", short_number(k, 3)),
            points: curve(k),
            role: Role::Family(i),
        });
        let f = floor(k)?;
        c.series.push(Series {
            label: String::new(),
            points: vec![(lo, f), (1.0, f)],
            role: Role::Bound(i),
        });
    }
    c.series.push(Series {
        label: "dashed: each curve's floor log(1+c)/c".into(),
        points: vec![],
        role: Role::Reference,
    });
    let f = floor(cv)?;
    c.series.push(Series {
        label: format!("your c = {}", short_number(cv, 4)),
        points: curve(cv),
        role: Role::Highlight,
    });
    c.series.push(Series {
        label: format!("your floor = {}", short_number(f, 4)),
        points: vec![(lo, f), (1.0, f)],
        role: Role::HighlightBound,
    });
    let at = (cv * p <= amp_math::MAX_EPSILON)
        .then(|| noise_ratio(cv * p, p).ok())
        .flatten();
    if let Some(r) = at {
        c.markers.push(Marker {
            x: p,
            y: r,
            label: format!("R = {}", short_number(r, 4)),
        });
    }
    c.summary = format!(
        "The noise ratio R with ε = c·p against the sampling rate p on a log axis, for c from 0.5 \
         to 10 and your c = {}, each with its floor log(1 + c)/c, which R approaches as p → 0. Your \
         floor is {}: with ε ≤ {}·p the subsampled mechanism adds at most {}× the noise.",
        short_number(cv, 4),
        short_number(f, 4),
        short_number(cv, 4),
        short_number(1.0 / f, 5)
    );
    Ok(c)
}

/// `noise-bound-vs-c`: c/log(1 + c) against c (eq. 8), the reader's c marked.
pub fn bound_vs_c(values: &ParamValues) -> ChartResult {
    let cv = values.real(p::C);
    let here = noise_factor_bound(cv).map_err(err)?;
    let lo = (cv / 3.0).min(1e-3);
    let hi = (cv * 3.0).max(1e4);
    let grid = log_grid(lo, hi, POINTS);
    let points: Vec<(f64, f64)> = grid
        .iter()
        .filter_map(|&c| noise_factor_bound(c).ok().map(|b| (c, b)))
        .collect();
    let (ylo, yhi) = log_range(points.iter().map(|p| &p.1));
    let mut ch = Chart::new(
        Axis {
            label: "c = ε/p".into(),
            log: true,
            categories: vec![],
            min: lo,
            max: hi,
        },
        Axis {
            label: "noise factor bound c/log(1+c)".into(),
            log: true,
            categories: vec![],
            min: ylo.min(0.9),
            max: yhi,
        },
        LegendCorner::UpperLeft,
        format!(
            "The bound c/log(1 + c) on how many times more noise the subsampled mechanism adds when \
             ε ≤ c·p, against c on log axes. It is close to 1 for small c and grows almost linearly \
             for large c. At your c = {} it is {}.",
            short_number(cv, 4),
            short_number(here, 5)
        ),
    );
    ch.series.push(Series {
        label: "c/log(1+c)".into(),
        points,
        role: Role::Highlight,
    });
    ch.markers.push(Marker {
        x: cv,
        y: here,
        label: format!("{}×", short_number(here, 5)),
    });
    Ok(ch)
}

/// The curves of `taylor-orders`: exact ε_p, the three orders' approximations (positive values
/// only), their relative errors, and the ε from which the second order is negative.
type TaylorPoints = (
    Vec<(f64, f64)>,
    [Vec<(f64, f64)>; 3],
    [Vec<(f64, f64)>; 3],
    Option<f64>,
);

/// Exact ε_p and its first three Taylor orders in ε on a log grid of ε from `lo` to `hi` at rate
/// `p`, with each order's relative error and where the second order turns negative.
fn taylor_points(p: f64, lo: f64, hi: f64) -> TaylorPoints {
    let grid = log_grid(lo, hi, POINTS);
    let mut exact = Vec::new();
    let mut approx: [Vec<(f64, f64)>; 3] = Default::default();
    let mut errors: [Vec<(f64, f64)>; 3] = Default::default();
    let mut negative_from: Option<f64> = None;
    for &e in &grid {
        let (Ok(x), Ok(t)) = (base_epsilon(e, p), taylor_terms(e, p)) else {
            continue;
        };
        exact.push((e, x));
        let mut sum = 0.0;
        for k in 0..3 {
            sum += t[k];
            if sum > 0.0 {
                approx[k].push((e, sum));
            } else if k == 1 && negative_from.is_none() {
                negative_from = Some(e);
            }
            // Errors below double precision are drawn at its floor, 1e-17 (at p = 1 every order
            // is exact).
            let rel = ((sum - x) / x).abs().max(1e-17);
            if rel.is_finite() {
                errors[k].push((e, rel));
            }
        }
    }
    (exact, approx, errors, negative_from)
}

/// The summary of `taylor-orders`, with the first order's relative error at the reader's ε.
fn taylor_summary(eps: f64, p: f64) -> Result<String, String> {
    let t = taylor_terms(eps, p).map_err(err)?;
    let x = base_epsilon(eps, p).map_err(err)?;
    let rel1 = ((t[0] - x) / x).abs();
    Ok(format!(
        "Top: ε_p = log(1 + (e^ε − 1)/p) against ε at p = {}, with its first-, second- and \
         third-order Taylor approximations in ε. Bottom: their relative errors. The first-order \
         story ε_p ≈ ε/p holds while ε is well below p; at your ε = {} (ε/p = {}) the first-order \
         approximation is off by {}%.",
        short_number(p, 4),
        short_number(eps, 4),
        short_number(eps / p, 3),
        short_number(rel1 * 100.0, 3)
    ))
}

/// `taylor-orders`: exact ε_p and its first-, second- and third-order Taylor approximations in ε
/// (eq. 5) against ε at the reader's p; below, their relative errors.
pub fn taylor_orders(values: &ParamValues) -> ChartResult {
    let (eps, p) = (values.real(p::EPS), values.real(p::P));
    let lo = (p * 1e-3).min(eps / 3.0).max(1e-12);
    let hi = (p * 1e3).max(eps * 3.0).min(500.0);
    let (exact, mut approx, mut errors, negative_from) = taylor_points(p, lo, hi);
    let ys = exact.iter().chain(approx.iter().flatten()).map(|p| &p.1);
    let (ylo, yhi) = log_range(ys);
    let yhi = yhi.min(exact.last().map(|p| p.1 * 100.0).unwrap_or(yhi));
    let names = ["first order ε/p", "second order", "third order"];
    let x_axis = Axis {
        label: "ε".into(),
        log: true,
        categories: vec![],
        min: lo,
        max: hi,
    };
    let mut top = Chart::new(
        x_axis.clone(),
        Axis {
            label: "ε_p".into(),
            log: true,
            categories: vec![],
            min: ylo,
            max: yhi,
        },
        LegendCorner::UpperLeft,
        String::new(),
    );
    for k in 0..3 {
        top.series.push(Series {
            label: names[k].into(),
            points: std::mem::take(&mut approx[k]),
            role: Role::Bound(k),
        });
    }
    top.series.push(Series {
        label: format!("exact ε_p at p = {}", short_number(p, 4)),
        points: exact,
        role: Role::Highlight,
    });
    if let Ok(x) = base_epsilon(eps, p) {
        top.markers.push(Marker {
            x: eps,
            y: x,
            label: format!("ε_p = {}", short_number(x, 4)),
        });
    }
    if p == 1.0 {
        top.notes
            .push("At p = 1 there is no sampling: ε_p = ε and every order is exact.".into());
    }
    if let Some(e) = negative_from {
        top.notes.push(format!(
            "The second-order approximation is negative from ε ≈ {} (ε/p ≈ {}) on and is left out \
             of the log axis there.",
            short_number(e, 3),
            short_number(e / p, 3)
        ));
    }
    let (elo, ehi) = log_range(errors.iter().flatten().map(|p| &p.1));
    let mut bottom = Chart::new(
        x_axis,
        Axis {
            label: "relative error".into(),
            log: true,
            categories: vec![],
            min: elo.max(1e-17),
            max: ehi.min(1e6),
        },
        LegendCorner::UpperLeft,
        String::new(),
    );
    for k in 0..3 {
        bottom.series.push(Series {
            label: names[k].into(),
            points: std::mem::take(&mut errors[k]),
            role: Role::Bound(k),
        });
    }
    top.summary = taylor_summary(eps, p)?;
    top.lower = Some(Box::new(bottom));
    Ok(top)
}

/// `mse-comparison`: the mean squared error of the standard and the subsampled Laplace mechanism
/// against p at the reader's n and ε (eqs. 1–2), with and without the sampling term, the
/// break-even rate of [`mse_break_even_rate`] marked.
pub fn mse_comparison(values: &ParamValues) -> ChartResult {
    let (eps, n, p) = (values.real(p::EPS), values.real(p::N), values.real(p::P));
    let standard = mse_standard(eps, n).map_err(err)?;
    let be = mse_break_even_rate(eps, n).map_err(err)?;
    let lo = (p / 3.0)
        .min(1e-6)
        .min(be.map_or(1.0, |b| b / 3.0))
        .max(1e-15);
    let grid = log_grid(lo, 1.0, POINTS);
    let mut noise = Vec::new();
    let mut total = Vec::new();
    for &q in &grid {
        if let Ok((s, z)) = mse_subsampled_terms(eps, q, n) {
            noise.push((q, z));
            total.push((q, s + z));
        }
    }
    let flat = vec![(lo, standard), (1.0, standard)];
    let ys = noise
        .iter()
        .chain(total.iter())
        .chain(flat.iter())
        .map(|p| &p.1);
    let (ylo, yhi) = log_range(ys);
    let mut c = Chart::new(
        Axis {
            label: "sampling rate p".into(),
            log: true,
            categories: vec![],
            min: lo,
            max: 1.0,
        },
        Axis {
            label: "mean squared error".into(),
            log: true,
            categories: vec![],
            min: ylo,
            max: yhi,
        },
        LegendCorner::UpperRight,
        String::new(),
    );
    c.series.push(Series {
        label: "standard: 2/(εn)²".into(),
        points: flat,
        role: Role::Reference,
    });
    c.series.push(Series {
        label: "subsampled, privacy noise only".into(),
        points: noise,
        role: Role::Bound(0),
    });
    c.series.push(Series {
        label: "subsampled, with sampling error 1/(pn)".into(),
        points: total,
        role: Role::Highlight,
    });
    let (s_here, z_here) = mse_subsampled_terms(eps, p, n).map_err(err)?;
    c.markers.push(Marker {
        x: p,
        y: s_here + z_here,
        label: format!("your p: {}", short_number(s_here + z_here, 3)),
    });
    let be_text = match be {
        Some(b) => {
            let (s, z) = mse_subsampled_terms(eps, b, n).map_err(err)?;
            c.markers.push(Marker {
                x: b,
                y: s + z,
                label: format!("break-even p = {}", short_number(b, 3)),
            });
            format!(
                "Below p = {} the privacy noise dominates the subsampled mechanism's error; above \
                 it the sampling error does.",
                short_number(b, 3)
            )
        }
        None => "At these settings the privacy noise dominates at every rate.".into(),
    };
    c.summary = format!(
        "Mean squared error of a mean of [0, 1] values over n = {} records at ε = {}, against the \
         sampling rate on log axes: the standard Laplace mechanism (flat, {}), the subsampled one's \
         privacy noise alone, and with its non-private sampling error. {} At your p = {} the \
         subsampled MSE is {}.",
        short_number(n, 6),
        short_number(eps, 4),
        short_number(standard, 3),
        be_text,
        short_number(p, 4),
        short_number(s_here + z_here, 3)
    );
    Ok(c)
}

/// The "usual machine-learning region" outlined on the regime map: one to five epochs, batches of
/// 32 to 4096 (the footnote on batch sizes in Steinke, part 2: moderate constants such as 32, up to
/// what the hardware parallelises).
pub const ML_EPOCHS: (f64, f64) = (1.0, 5.0);
/// Batch sizes of the outlined region.
pub const ML_BATCH: (f64, f64) = (32.0, 4096.0);
/// Cells of the regime map along batch size and along epochs.
pub const MAP_CELLS: (usize, usize) = (44, 32);

/// `regime-map`: the noise factor 1/R over batch size × epochs for the reader's dataset size and
/// overall ε*, the reader's point marked, the usual ML region outlined.
pub fn regime_map(values: &ParamValues) -> ChartResult {
    let dataset = values.count(p::DATASET);
    let total = values.real(p::TOTAL_EPS);
    let (batch, epochs) = (values.count(p::BATCH), values.real(p::EPOCHS));
    let bx = (1.0, dataset as f64);
    let ey = (0.01f64.min(epochs / 2.0), 1000f64.max(epochs * 2.0));
    let x_edges = log_grid(bx.0, bx.1, MAP_CELLS.0 + 1);
    let y_edges = log_grid(ey.0, ey.1, MAP_CELLS.1 + 1);
    let mut cells = Vec::with_capacity(MAP_CELLS.0 * MAP_CELLS.1);
    for j in 0..MAP_CELLS.1 {
        let e = (y_edges[j] * y_edges[j + 1]).sqrt();
        for i in 0..MAP_CELLS.0 {
            let b = ((x_edges[i] * x_edges[i + 1]).sqrt().round() as u64).clamp(1, dataset);
            cells.push(
                regime(dataset, b, Duration::Epochs(e), total)
                    .map(|r| r.noise_factor)
                    .unwrap_or(f64::NAN),
            );
        }
    }
    let here = regime(dataset, batch, Duration::Epochs(epochs), total).map_err(err)?;
    let mut c = Chart::new(
        Axis {
            label: "batch size B".into(),
            log: true,
            categories: vec![],
            min: bx.0,
            max: bx.1,
        },
        Axis {
            label: "epochs".into(),
            log: true,
            categories: vec![],
            min: ey.0,
            max: ey.1,
        },
        LegendCorner::UpperLeft,
        String::new(),
    );
    c.heatmap = Some(Heatmap {
        x_edges,
        y_edges,
        values: cells,
        label: "noise factor 1/R".into(),
        log_color: true,
    });
    c.outlines.push(Outline {
        x: (ML_BATCH.0.min(bx.1), ML_BATCH.1.min(bx.1)),
        y: ML_EPOCHS,
        label: "usual ML".into(),
    });
    // Steinke's asymptotic point: the epochs at which the per-step ε reaches c·p, for each
    // batch size; above the line a run is in the proportional regime.
    let ratio = values.real(p::C);
    let line: Vec<(f64, f64)> = log_grid(bx.0, bx.1, 60)
        .into_iter()
        .filter_map(|b| {
            let (_, e) = steps_for_proportional(dataset, b.round() as u64, total, ratio).ok()?;
            (e.is_finite() && e > 0.0).then_some((b, e))
        })
        .collect();
    c.series.push(Series {
        label: format!("ε per step = c·p at c = {}", short_number(ratio, 3)),
        points: line,
        role: Role::HighlightBound,
    });
    c.markers.push(Marker {
        x: batch as f64,
        y: epochs,
        label: format!("{}×", short_number(here.noise_factor, 3)),
    });
    c.summary = format!(
        "The noise factor 1/R (how many times more noise the subsampled mechanism adds) over batch \
         size and epochs, both on log axes, for a dataset of {} records and an overall budget \
         ε* = {} (½ε*²-zCDP, so each of k steps may use ε*/√k). The outlined region, one to five \
         epochs with batches of 32 to 4096, is where training usually runs. The dashed line is \
         where the per-step ε falls to c·p (c = {}): ε*²·|x|/(c²·B) epochs, so a fixed batch needs \
         a number of epochs growing like |x| (Steinke, “Limits of privacy amplification by \
         subsampling”). At your batch {} and {} epochs the factor is {} (bound {}).",
        dataset,
        short_number(total, 4),
        short_number(ratio, 3),
        batch,
        short_number(epochs, 4),
        short_number(here.noise_factor, 4),
        short_number(here.noise_factor_bound, 4)
    );
    Ok(c)
}
