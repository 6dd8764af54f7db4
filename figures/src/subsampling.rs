//! Figures of the subsampling page (Steinke, "Privacy amplification by subsampling", Theorem 1;
//! Brown, lecture notes "Privacy amplification", Theorem 1.1; Hu, Drechsler & Kim, "Accuracy gains
//! from privacy amplification through sampling for differential privacy", Fig. 3). The reader's
//! setting is the model's ([`amp_model::subsampling`]).

use amp_math::subsampling::{amplified_epsilon, base_epsilon, Scheme};

use super::{
    log_grid, log_range, Axis, Band, Chart, ChartResult, LegendCorner, Marker, Role, Series,
};
use amp_format::short_number;
use amp_model::param as p;
use amp_model::params::ParamValues;
use amp_model::subsampling::{setting, Setting};

/// The base ε values drawn as a family on every figure of the page.
pub const FAMILY: [f64; 5] = [0.1, 0.5, 1.0, 2.0, 5.0];

/// Points per curve.
const POINTS: usize = 100;

/// The x range: from a tenth of the reader's rate (at most 1e-4) up to 1, or to twice the rate
/// when drawing with replacement at more than one draw per record.
fn x_range(st: &Setting) -> (f64, f64) {
    let lo = (st.rate / 10.0).clamp(1e-13, 1e-4);
    let hi = if st.rate > 1.0 { st.rate * 2.0 } else { 1.0 };
    (lo, hi)
}

/// Family members other than the reader's own value (which is drawn highlighted instead).
fn family(reader: f64) -> impl Iterator<Item = (usize, f64)> {
    FAMILY
        .into_iter()
        .enumerate()
        .filter(move |&(_, e)| (e - reader).abs() > 1e-9 * reader)
}

/// One curve against the rate (the x axis) for each family value and, highlighted, for the
/// reader's: y = f(value, inclusion probability at that rate). Points where f has no finite
/// positive value are left out (log axes).
fn rate_curves(
    st: &Setting,
    reader: f64,
    name: &str,
    f: impl Fn(f64, f64) -> Option<f64>,
) -> Vec<Series> {
    let (lo, hi) = x_range(st);
    let grid = log_grid(lo, hi, POINTS);
    let curve = |v: f64| -> Vec<(f64, f64)> {
        grid.iter()
            .filter_map(|&x| {
                let y = f(v, st.inclusion_at(x)?)?;
                (y > 0.0 && y.is_finite()).then_some((x, y))
            })
            .collect()
    };
    let mut series: Vec<Series> = family(reader)
        .map(|(i, v)| Series {
            label: format!("{name} = {}", short_number(v, 3)),
            points: curve(v),
            role: Role::Family(i),
        })
        .collect();
    series.push(Series {
        label: format!("your {name} = {}", short_number(reader, 4)),
        points: curve(reader),
        role: Role::Highlight,
    });
    series
}

/// `amplification-vs-rate`: ε′ against the rate for the family of base ε and the reader's ε.
pub fn vs_rate(values: &ParamValues) -> ChartResult {
    let st = setting(values)?;
    let eps = values.real(p::EPS);
    let (lo, hi) = x_range(&st);
    let series = rate_curves(&st, eps, "ε", |e, q| amplified_epsilon(e, q).ok());
    let here = amplified_epsilon(eps, st.inclusion)?;
    let (ylo, yhi) = log_range(series.iter().flat_map(|s| s.points.iter().map(|p| &p.1)));
    Ok(Chart {
        x: Axis {
            label: st.x_label.into(),
            log: true,
            categories: vec![],
            min: lo,
            max: hi,
        },
        y: Axis {
            label: "amplified ε′".into(),
            log: true,
            categories: vec![],
            min: ylo,
            max: yhi,
        },
        bands: vec![],
        boxes: vec![],
        series,
        markers: vec![Marker {
            x: st.rate,
            y: here,
            label: format!("ε′ = {}", short_number(here, 4)),
        }],
        legend: LegendCorner::UpperLeft,
        notes: vec![],
        heatmap: None,
        outlines: vec![],
        lower: None,
        summary: format!(
            "Amplified ε′ against the sampling rate on log axes, for base ε from 0.1 to 5 and for \
             your ε = {}. At your rate {} the amplified guarantee is ε′ = {} ({}).",
            short_number(eps, 4),
            short_number(st.rate, 4),
            short_number(here, 4),
            st.relation()
        ),
    })
}

/// `amplification-vs-epsilon`: ε′ against ε at the reader's rate, between pε and
/// min(ε, p(e^ε − 1)), with the no-amplification line ε′ = ε.
pub fn vs_epsilon(values: &ParamValues) -> ChartResult {
    let st = setting(values)?;
    let eps = values.real(p::EPS);
    let q = st.inclusion;
    let lo = (eps / 10.0).min(1e-3);
    let hi = 50.0;
    let grid = log_grid(lo, hi, POINTS);
    let mut exact = Vec::with_capacity(POINTS);
    let mut lower = Vec::with_capacity(POINTS);
    let mut upper = Vec::with_capacity(POINTS);
    let mut band = Vec::with_capacity(POINTS);
    for &e in &grid {
        let Ok(y) = amplified_epsilon(e, q) else {
            continue;
        };
        let (l, u) = (q * e, e.min(q * amp_math::special::exp_m1(e)));
        if y > 0.0 && l > 0.0 {
            exact.push((e, y));
            lower.push((e, l));
            upper.push((e, u));
            band.push((e, l, u));
        }
    }
    let here = amplified_epsilon(eps, q)?;
    let identity: Vec<(f64, f64)> = grid.iter().map(|&e| (e, e)).collect();
    let (ylo, yhi) = log_range(lower.iter().chain(identity.iter()).map(|p| &p.1));
    let rate_name = match st.sampling.scheme() {
        Scheme::Poisson => "p",
        Scheme::WithoutReplacement => "m/n",
        Scheme::WithReplacement => "η",
    };
    Ok(Chart {
        x: Axis {
            label: "base ε".into(),
            log: true,
            categories: vec![],
            min: lo,
            max: hi,
        },
        y: Axis {
            label: "amplified ε′".into(),
            log: true,
            categories: vec![],
            min: ylo,
            max: yhi,
        },
        boxes: vec![],
        bands: vec![Band {
            label: "between the bounds".into(),
            points: band,
        }],
        series: vec![
            Series {
                label: "no amplification: ε′ = ε".into(),
                points: identity,
                role: Role::Reference,
            },
            Series {
                label: format!("upper bound min(ε, {rate_name}(e^ε − 1))"),
                points: upper,
                role: Role::Bound(1),
            },
            Series {
                label: format!("lower bound {rate_name}·ε"),
                points: lower,
                role: Role::Bound(2),
            },
            Series {
                label: format!("ε′ at {rate_name} = {}", short_number(q, 4)),
                points: exact,
                role: Role::Highlight,
            },
        ],
        markers: vec![Marker {
            x: eps,
            y: here,
            label: format!("ε′ = {}", short_number(here, 4)),
        }],
        legend: LegendCorner::UpperLeft,
        notes: vec![],
        heatmap: None,
        outlines: vec![],
        lower: None,
        summary: format!(
            "Amplified ε′ against base ε on log axes at {rate_name} = {}, between the lower bound \
             {rate_name}·ε and the upper bound min(ε, {rate_name}(e^ε − 1)). For small ε the curve \
             follows {rate_name}·ε; for large ε it approaches ε − log(1/{rate_name}). At your ε = {} \
             the amplified ε′ = {} ({}).",
            short_number(q, 4),
            short_number(eps, 4),
            short_number(here, 4),
            st.relation()
        ),
    })
}

/// `sample-budget`: the base ε a sample may spend so that the release meets a target ε′,
/// against the rate (Hu, Drechsler & Kim, Section 3: a 1% sample may spend 5.1523 for ε′ = 1).
pub fn sample_budget(values: &ParamValues) -> ChartResult {
    let st = setting(values)?;
    let target = values.real(p::EPS);
    let (lo, hi) = x_range(&st);
    let mut notes = Vec::new();
    let series = rate_curves(&st, target, "target ε′", |t, q| base_epsilon(t, q).ok());
    let here = base_epsilon(target, st.inclusion)?;
    if here > 50.0 {
        notes.push(format!(
            "At your rate the sample may spend ε = {}: beyond any meaningful guarantee.",
            short_number(here, 4)
        ));
    }
    let (ylo, yhi) = log_range(series.iter().flat_map(|s| s.points.iter().map(|p| &p.1)));
    Ok(Chart {
        x: Axis {
            label: st.x_label.into(),
            log: true,
            categories: vec![],
            min: lo,
            max: hi,
        },
        y: Axis {
            label: "base ε the sample may spend".into(),
            log: true,
            categories: vec![],
            min: ylo,
            max: yhi,
        },
        bands: vec![],
        boxes: vec![],
        series,
        markers: vec![Marker {
            x: st.rate,
            y: here,
            label: format!("ε = {}", short_number(here, 5)),
        }],
        legend: LegendCorner::LowerLeft,
        notes,
        heatmap: None,
        outlines: vec![],
        lower: None,
        summary: format!(
            "The base ε a mechanism run on the sample may use so that the whole release meets a \
             target ε′, against the sampling rate on log axes. For your target ε′ = {} at rate {} \
             the sample may spend ε = {} ({}).",
            short_number(target, 4),
            short_number(st.rate, 4),
            short_number(here, 5),
            st.relation()
        ),
    })
}
