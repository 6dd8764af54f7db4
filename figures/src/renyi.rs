//! Figures and readouts of the Rényi DP page (Wang's slides on subsampled RDP, "Privacy
//! amplification by subsampling and Rényi DP").

use amp_math::rdp::{
    advanced_composition, default_orders, epsilon_for_delta, epsilon_for_delta_over_steps,
    guarantee_is_exact, naive_composition, optimal_composition, subsampled, Bound, Conversion,
    Converted, Curve, Mechanism, Sampling,
};
use amp_math::MathError;

use super::{log_grid, log_range, Axis, Chart, ChartResult, LegendCorner, Marker, Role, Series};
use amp_format::short_number;
use amp_model::param as p;
use amp_model::params::ParamValues;
use amp_model::renyi::{
    cached_curve, check_delta, mechanism, mechanism_label, setting, step_curve, RdpSetting,
};

/// Orders on the α axis of the curve figures: 90 log-spaced orders on [1.01, 1000], rounded to
/// whole orders from 16 on (where whole orders are dense on the axis, and the exact Gaussian sum
/// is cheaper than the fractional series).
fn plot_orders() -> Vec<f64> {
    let mut v: Vec<f64> = log_grid(1.01, 1000.0, 90)
        .into_iter()
        .map(|a| if a >= 16.0 { a.round() } else { a })
        .collect();
    v.dedup();
    v
}

/// Whole orders for the lower bound: 2, 3, … then log-spaced to 1000, without repeats.
fn whole_orders() -> Vec<f64> {
    let mut v: Vec<f64> = log_grid(2.0, 1000.0, 60)
        .iter()
        .map(|a| a.round())
        .collect();
    v.dedup();
    v
}

fn curve_points(orders: &[f64], f: impl Fn(f64) -> Result<f64, MathError>) -> Vec<(f64, f64)> {
    orders
        .iter()
        .filter_map(|&a| {
            let y = f(a).ok()?;
            (y > 0.0 && y.is_finite()).then_some((a, y))
        })
        .collect()
}

fn order_axis() -> Axis {
    Axis {
        label: "Rényi order α".into(),
        log: true,
        categories: vec![],
        min: 1.0,
        max: 1000.0,
    }
}

/// The comparison family of the base figure: five values of the mechanism's parameter.
fn base_family(m: &Mechanism) -> Vec<Mechanism> {
    match *m {
        Mechanism::Gaussian { .. } => [0.5, 1.0, 2.0, 5.0, 10.0]
            .map(|sigma| Mechanism::Gaussian { sigma })
            .to_vec(),
        Mechanism::Laplace { .. } => [0.25, 0.5, 1.0, 2.0, 5.0]
            .map(|scale| Mechanism::Laplace { scale })
            .to_vec(),
        Mechanism::RandomizedResponse { .. } => [0.1, 0.5, 1.0, 2.0, 5.0]
            .map(|epsilon| Mechanism::RandomizedResponse { epsilon })
            .to_vec(),
        Mechanism::KaryRandomizedResponse { k, .. } => [0.1, 0.5, 1.0, 2.0, 5.0]
            .map(|epsilon| Mechanism::KaryRandomizedResponse { epsilon, k })
            .to_vec(),
    }
}

/// `rdp-base`: ε(α) of the base mechanism against α, with a family of other parameter values and,
/// for the pure-DP mechanisms, their limit ε(∞).
pub fn base(values: &ParamValues) -> ChartResult {
    let mech = mechanism(values);
    mech.validate()?;
    let alpha = values.real(p::ALPHA);
    let orders = plot_orders();
    let mut series: Vec<Series> = base_family(&mech)
        .into_iter()
        .enumerate()
        .filter(|(_, m)| *m != mech)
        .map(|(i, m)| Series {
            label: mechanism_label(&m),
            points: curve_points(&orders, |a| m.rdp(a)),
            role: Role::Family(i),
        })
        .collect();
    series.push(Series {
        label: format!("your {}", mechanism_label(&mech)),
        points: curve_points(&orders, |a| mech.rdp(a)),
        role: Role::Highlight,
    });
    let inf = mech.rdp_infinity();
    if inf.is_finite() && inf > 0.0 {
        series.push(Series {
            label: format!("ε(∞) = {}: the pure ε", short_number(inf, 4)),
            points: vec![(1.0, inf), (1000.0, inf)],
            role: Role::Reference,
        });
    }
    let here = mech.rdp(alpha)?;
    let (ylo, yhi) = log_range(series.iter().flat_map(|s| s.points.iter().map(|p| &p.1)));
    Ok(Chart {
        x: order_axis(),
        y: Axis {
            label: "RDP ε(α)".into(),
            log: true,
            categories: vec![],
            min: ylo,
            max: yhi,
        },
        bands: vec![],
        boxes: vec![],
        series,
        markers: if here > 0.0 && alpha <= 1000.0 {
            vec![Marker {
                x: alpha,
                y: here,
                label: format!("ε({}) = {}", short_number(alpha, 4), short_number(here, 4)),
            }]
        } else {
            vec![]
        },
        legend: LegendCorner::UpperLeft,
        heatmap: None,
        outlines: vec![],
        lower: None,
        notes: vec![],
        summary: format!(
            "Rényi DP curves ε(α) against the order α on log axes for the {} mechanism family. \
             Yours ({}) has ε({}) = {}{}.",
            match mech {
                Mechanism::Gaussian { .. } => "Gaussian",
                Mechanism::Laplace { .. } => "Laplace",
                _ => "randomized-response",
            },
            mechanism_label(&mech),
            short_number(alpha, 4),
            short_number(here, 4),
            if inf.is_finite() {
                format!(", rising to ε(∞) = {}", short_number(inf, 4))
            } else {
                ", growing without bound".into()
            }
        ),
    })
}

/// The series of the subsampled-RDP figure, its notes, and whether the exact curve is known.
type SubsampledSeries = (Vec<Series>, Vec<String>, bool);

/// The subsampled-RDP figure's curves over `orders`: the base mechanism, the upper bound(s), the
/// lower bound and, where known, the exact curve; with the notes and whether the exact curve is
/// known.
fn subsampled_series(st: &RdpSetting, orders: &[f64]) -> SubsampledSeries {
    let mech = st.mech;
    let mut series = vec![Series {
        label: format!("base mechanism ({})", mechanism_label(&mech)),
        points: curve_points(orders, |a| mech.rdp(a)),
        role: Role::Reference,
    }];
    series.push(Series {
        label: format!("upper bound ({})", st.upper_source()),
        points: curve_points(orders, |a| subsampled(&mech, st.sampling, Bound::Upper, a)),
        role: Role::Bound(1),
    });
    if let (Sampling::WithoutReplacement { gamma }, Mechanism::Gaussian { .. }) =
        (st.sampling, mech)
    {
        // The general bound the Gaussian-specific one improves on (WBK 2019, Theorem 9).
        series.push(Series {
            label: "upper bound for any mechanism (their Theorem 9)".into(),
            points: curve_points(orders, |a| amp_math::rdp::wor_upper(&mech, gamma, a)),
            role: Role::Bound(3),
        });
    }
    series.push(Series {
        label: "lower bound (whole orders)".into(),
        points: curve_points(&whole_orders(), |a| {
            subsampled(&mech, st.sampling, Bound::Lower, a)
        }),
        role: Role::Bound(2),
    });
    let exact_known = guarantee_is_exact(&mech, st.sampling);
    let mut notes = vec![];
    if exact_known {
        series.push(Series {
            label: match mech {
                Mechanism::Gaussian { .. } => "exact (Mironov, Talwar & Zhang)".into(),
                _ => "exact (the larger direction of the divergence)".into(),
            },
            points: curve_points(orders, |a| subsampled(&mech, st.sampling, Bound::Exact, a)),
            role: Role::Highlight,
        });
        if let (Mechanism::Gaussian { sigma }, Sampling::Poisson { q }) = (mech, st.sampling) {
            if q > 0.0 && q < 1.0 {
                let fractional: Vec<f64> = orders
                    .iter()
                    .copied()
                    .filter(|a| a.fract() != 0.0 && *a < 16.0)
                    .collect();
                series.push(Series {
                    label: "signs dropped, as dp_accounting 0.6.0 does".into(),
                    points: curve_points(&fractional, |a| {
                        amp_math::rdp::poisson_gaussian_unsigned(sigma, q, a)
                    }),
                    role: Role::Scatter(5),
                });
            }
        }
    } else {
        notes.push(format!(
            "No exact curve is known for the {} under this scheme: the truth lies between the \
             bounds.",
            mechanism_label(&mech)
        ));
    }
    (series, notes, exact_known)
}

/// The summary of the subsampled-RDP figure at order `alpha`: the upper and lower bounds there
/// and, when the exact curve is known, its value `here`.
fn subsampled_summary(
    st: &RdpSetting,
    alpha: f64,
    exact_known: bool,
    here: f64,
    upper_at: Option<f64>,
    lower_at: Option<f64>,
) -> String {
    let mech = st.mech;
    format!(
        "RDP of the subsampled {} ({}) against α on log axes: the base curve, the upper and \
         lower bounds{}. At α = {}: upper bound {}, lower bound (at α = {}) {}{}.",
        mechanism_label(&mech),
        st.sampling_label(),
        match (exact_known, st.sampling, mech) {
            (true, _, _) => " and the exact curve",
            (false, Sampling::WithoutReplacement { .. }, Mechanism::Gaussian { .. }) => {
                " (the Gaussian's own, Theorem 27, under the general Theorem 9)"
            }
            _ => "",
        },
        short_number(alpha, 4),
        upper_at.map_or("none".into(), |v| short_number(v, 4)),
        short_number(alpha.round().max(2.0), 4),
        lower_at.map_or("none".into(), |v| short_number(v, 4)),
        if exact_known {
            format!(", exact {}", short_number(here, 4))
        } else {
            String::new()
        }
    )
}

/// `rdp-subsampled`: base, upper bound, lower bound and (Poisson Gaussian) exact curves against α.
pub fn subsampled_fig(values: &ParamValues) -> ChartResult {
    let st = setting(values)?;
    let alpha = values.real(p::ALPHA);
    let orders = plot_orders();
    let mech = st.mech;
    let (series, notes, exact_known) = subsampled_series(&st, &orders);
    let here = subsampled(
        &mech,
        st.sampling,
        if exact_known {
            Bound::Exact
        } else {
            Bound::Upper
        },
        alpha,
    )?;
    let (ylo, yhi) = log_range(series.iter().flat_map(|s| s.points.iter().map(|p| &p.1)));
    let upper_at = subsampled(&mech, st.sampling, Bound::Upper, alpha).ok();
    let lower_at = subsampled(&mech, st.sampling, Bound::Lower, alpha.round().max(2.0)).ok();
    Ok(Chart {
        x: order_axis(),
        y: Axis {
            label: "RDP ε(α) of the subsampled mechanism".into(),
            log: true,
            categories: vec![],
            min: ylo,
            max: yhi,
        },
        bands: vec![],
        boxes: vec![],
        series,
        markers: if here > 0.0 && alpha <= 1000.0 {
            vec![Marker {
                x: alpha,
                y: here,
                label: format!(
                    "{} ε({}) = {}",
                    if exact_known { "exact" } else { "upper" },
                    short_number(alpha, 4),
                    short_number(here, 4)
                ),
            }]
        } else {
            vec![]
        },
        legend: LegendCorner::UpperLeft,
        heatmap: None,
        outlines: vec![],
        lower: None,
        notes,
        summary: subsampled_summary(&st, alpha, exact_known, here, upper_at, lower_at),
    })
}

/// The k axis: 48 log-spaced step counts from 1 to max(10⁶, 10 × the reader's steps), at most 10⁹.
fn steps_grid(steps: f64) -> Vec<f64> {
    log_grid(1.0, (10.0 * steps).clamp(1e6, 1e9), 48)
}

fn steps_axis(grid: &[f64]) -> Axis {
    Axis {
        label: "compositions k".into(),
        log: true,
        categories: vec![],
        min: 1.0,
        max: *grid.last().unwrap_or(&1e5),
    }
}

/// The composition figure's curves of ε against the step counts of `grid` at `delta`: RDP with
/// both conversions (and from the general upper bound where the exact curve is drawn), then
/// naive, advanced and optimal composition of the amplified (ε, δ).
fn composition_series(
    st: &RdpSetting,
    curve: &Curve,
    grid: &[f64],
    delta: f64,
    exact: bool,
) -> Vec<Series> {
    let conv_points = |c: &Curve, conv: Conversion| -> Vec<(f64, f64)> {
        epsilon_for_delta_over_steps(c, grid, delta, conv)
            .map(|all| {
                grid.iter()
                    .zip(all)
                    .filter(|(_, c)| c.epsilon > 0.0 && c.epsilon.is_finite())
                    .map(|(&k, c)| (k, c.epsilon))
                    .collect()
            })
            .unwrap_or_default()
    };
    let rdp_name = if exact { "RDP" } else { "RDP (upper bound)" };
    let mut series = vec![
        Series {
            label: format!("{rdp_name}, improved conversion"),
            points: conv_points(curve, Conversion::Improved),
            role: Role::Highlight,
        },
        Series {
            label: format!("{rdp_name}, classic conversion"),
            points: conv_points(curve, Conversion::Classic),
            role: Role::Family(1),
        },
    ];
    if exact && st.sampling != Sampling::Full && st.sampling.rate() < 1.0 {
        if let Ok(c) = cached_curve(st, true) {
            series.push(Series {
                label: "RDP from the general upper bound, improved".into(),
                points: conv_points(&c, Conversion::Improved),
                role: Role::Bound(2),
            });
        }
    }
    // The (ε, δ) composition lines are smooth on log axes: every other k is enough (each point
    // inverts the Gaussian's δ(ε) once per δ split).
    let comp_points = |f: fn(&Mechanism, Sampling, f64, f64) -> Result<_, MathError>| {
        grid.iter()
            .enumerate()
            .filter(|(i, _)| i % 2 == 0 || *i + 1 == grid.len())
            .filter_map(|(_, &k)| {
                let c: amp_math::rdp::Composed = f(&st.mech, st.sampling, k, delta).ok()?;
                (c.epsilon > 0.0 && c.epsilon.is_finite()).then_some((k, c.epsilon))
            })
            .collect::<Vec<_>>()
    };
    series.push(Series {
        label: "naive composition of the amplified (ε, δ)".into(),
        points: comp_points(naive_composition),
        role: Role::Family(3),
    });
    series.push(Series {
        label: "advanced composition of the amplified (ε, δ)".into(),
        points: comp_points(advanced_composition),
        role: Role::Family(4),
    });
    // Kairouz, Oh & Viswanath's optimal composition: the best any theorem can do with only the
    // per-step (ε, δ); defined here up to k = 10⁶.
    series.push(Series {
        label: "optimal composition of the amplified (ε, δ)".into(),
        points: comp_points(optimal_composition),
        role: Role::Family(5),
    });
    series
}

/// The composition figure's summary at the reader's `steps`: RDP's ε there (`here`, improved
/// conversion) and what naive, advanced and optimal composition give.
fn composition_summary(st: &RdpSetting, delta: f64, steps: f64, here: &Converted) -> String {
    let adv_here = advanced_composition(&st.mech, st.sampling, steps, delta).ok();
    let naive_here = naive_composition(&st.mech, st.sampling, steps, delta).ok();
    let optimal_here = optimal_composition(&st.mech, st.sampling, steps, delta).ok();
    format!(
        "Overall ε at δ = {} against the number of compositions k (log axes) for the {} with {}. \
         At k = {}: RDP with the improved conversion gives ε = {} (order {}), naive composition \
         {}, advanced composition {}, optimal composition of the per-step (ε, δ) {}.",
        short_number(delta, 3),
        mechanism_label(&st.mech),
        st.sampling_label(),
        short_number(steps, 6),
        short_number(here.epsilon, 4),
        short_number(here.order, 4),
        naive_here.map_or("none".into(), |c| short_number(c.epsilon, 4)),
        adv_here.map_or("none".into(), |c| short_number(c.epsilon, 4)),
        optimal_here.map_or("none (computed up to k = 10⁶)".into(), |c| short_number(
            c.epsilon, 4
        )),
    )
}

/// `rdp-composition`: ε against k at the reader's δ, for RDP with both conversions and for naive
/// and advanced composition of the amplified (ε, δ) guarantee.
pub fn composition_fig(values: &ParamValues) -> ChartResult {
    let st = setting(values)?;
    let delta = check_delta(values)?;
    let steps = values.real(p::STEPS);
    let grid = steps_grid(steps);
    let curve = step_curve(&st)?;
    let exact = guarantee_is_exact(&st.mech, st.sampling);
    let series = composition_series(&st, &curve, &grid, delta, exact);
    let here = epsilon_for_delta(&curve.times(steps), delta, Conversion::Improved)?;
    let (ylo, yhi) = log_range(series.iter().flat_map(|s| s.points.iter().map(|p| &p.1)));
    Ok(Chart {
        x: steps_axis(&grid),
        y: Axis {
            label: format!("overall ε at δ = {}", short_number(delta, 3)),
            log: true,
            categories: vec![],
            min: ylo,
            max: yhi,
        },
        bands: vec![],
        boxes: vec![],
        series,
        markers: if here.epsilon > 0.0 {
            vec![Marker {
                x: steps,
                y: here.epsilon,
                label: format!(
                    "k = {}: ε = {}",
                    short_number(steps, 6),
                    short_number(here.epsilon, 4)
                ),
            }]
        } else {
            vec![]
        },
        legend: LegendCorner::UpperLeft,
        heatmap: None,
        outlines: vec![],
        lower: None,
        notes: vec![],
        summary: composition_summary(&st, delta, steps, &here),
    })
}

/// `rdp-optimal-order`: the order that minimises each conversion, against k. The y axis shows
/// α* − 1 on a log scale, so orders just above 1 (1.001, 1.01, 1.1) stay apart.
pub fn optimal_order_fig(values: &ParamValues) -> ChartResult {
    let st = setting(values)?;
    let delta = check_delta(values)?;
    let steps = values.real(p::STEPS);
    let grid = steps_grid(steps);
    let curve = step_curve(&st)?;
    let orders = |conv: Conversion| -> Vec<(f64, f64)> {
        epsilon_for_delta_over_steps(&curve, &grid, delta, conv)
            .map(|all| {
                grid.iter()
                    .zip(all)
                    .map(|(&k, c)| (k, c.order - 1.0))
                    .filter(|&(_, o)| o > 0.0 && o.is_finite())
                    .collect()
            })
            .unwrap_or_default()
    };
    let o = default_orders();
    let (lo, hi) = (o[0], o[o.len() - 1]);
    let series = vec![
        Series {
            label: "optimal order, improved conversion".into(),
            points: orders(Conversion::Improved),
            role: Role::Highlight,
        },
        Series {
            label: "optimal order, classic conversion".into(),
            points: orders(Conversion::Classic),
            role: Role::Family(1),
        },
        Series {
            label: format!(
                "ends of the order grid ({} and {})",
                short_number(lo, 4),
                short_number(hi, 4)
            ),
            points: vec![],
            role: Role::Reference,
        },
        Series {
            label: String::new(),
            points: vec![(1.0, lo - 1.0), (*grid.last().unwrap_or(&1e5), lo - 1.0)],
            role: Role::Reference,
        },
        Series {
            label: String::new(),
            points: vec![(1.0, hi - 1.0), (*grid.last().unwrap_or(&1e5), hi - 1.0)],
            role: Role::Reference,
        },
    ];
    let here = epsilon_for_delta(&curve.times(steps), delta, Conversion::Improved)?;
    Ok(Chart {
        x: steps_axis(&grid),
        y: Axis {
            label: "α* − 1 (optimal order minus one)".into(),
            log: true,
            categories: vec![],
            min: 5e-4,
            max: 2000.0,
        },
        bands: vec![],
        boxes: vec![],
        series,
        markers: vec![Marker {
            x: steps,
            y: here.order - 1.0,
            label: format!("α* = {}", short_number(here.order, 4)),
        }],
        legend: LegendCorner::LowerLeft,
        heatmap: None,
        outlines: vec![],
        lower: None,
        notes: vec![],
        summary: format!(
            "The Rényi order at which the conversion to (ε, δ) is smallest, against k (log axes), \
             for the {} with {} at δ = {}. At k = {} it is α* = {} (improved conversion); it falls \
             towards 1 as k grows.",
            mechanism_label(&st.mech),
            st.sampling_label(),
            short_number(delta, 3),
            short_number(steps, 6),
            short_number(here.order, 4)
        ),
    })
}

/// `rdp-cdp-lines` (Wang's slides, "Comparing to zCDP and tCDP"): the Rényi curve of
/// the Poisson-subsampled Gaussian mechanism (exact, Mironov, Talwar & Zhang 2019) under its best
/// zCDP line and its best tCDP line.
///
/// zCDP (Bun & Steinke 2016) is a line ρα above the whole curve, for every α > 1. The subsampled
/// curve is below the unsampled α/(2σ²) and approaches its slope as α → ∞ (the largest term of its
/// moment is q^α·e^{α(α−1)/(2σ²)}), so the least such ρ is 1/(2σ²): exactly the unsampled
/// mechanism's, no amplification. tCDP (Bun, Dwork, Rothblum & Steinke 2018) only asks for the
/// line up to a threshold ω (here the reader's α), so its ρ = max over α ≤ ω of ε(α)/α falls with
/// q. Add/remove; the curve is exact, the lines are the tightest of their form over the drawn
/// orders and ω.
pub fn cdp_lines(values: &ParamValues) -> ChartResult {
    let st = setting(values)?;
    let (Mechanism::Gaussian { sigma }, Sampling::Poisson { q }) = (st.mech, st.sampling) else {
        return Err("drawn for the Gaussian mechanism under Poisson sampling; choose those".into());
    };
    let omega = values.real(p::ALPHA);
    let orders = plot_orders();
    let exact = |a: f64| amp_math::rdp::poisson_gaussian(sigma, q, a);
    let curve = curve_points(&orders, exact);
    let rho_z = 0.5 / (sigma * sigma);
    // The tCDP ρ: the steepest ratio ε(α)/α up to ω, ω itself included.
    let rho_t = curve
        .iter()
        .filter(|(a, _)| *a <= omega)
        .map(|(a, y)| y / a)
        .chain(exact(omega).ok().map(|y| y / omega))
        .fold(0.0, f64::max);
    let line = |rho: f64, top: f64| -> Vec<(f64, f64)> {
        orders
            .iter()
            .filter(|a| **a <= top)
            .map(|&a| (a, rho * a))
            .collect()
    };
    let ends = [rho_t * orders[0], rho_z * orders[orders.len() - 1]];
    let (ylo, yhi) = log_range(curve.iter().map(|p| &p.1).chain(&ends));
    let mut c = Chart::new(
        order_axis(),
        Axis::numeric("ε(α)", true, ylo, yhi),
        LegendCorner::UpperLeft,
        String::new(),
    );
    let (rz, rt, om) = (
        short_number(rho_z, 3),
        short_number(rho_t, 3),
        short_number(omega, 4),
    );
    // The tCDP line last, over the curve it hugs.
    c.series = vec![
        Series {
            label: format!("best zCDP line ρα, ρ = 1/(2σ²) = {rz}: the unsampled mechanism's"),
            points: line(rho_z, f64::INFINITY),
            role: Role::Bound(1),
        },
        Series {
            label: format!(
                "subsampled Gaussian, exact (σ = {}, q = {})",
                short_number(sigma, 4),
                short_number(q, 4)
            ),
            points: curve,
            role: Role::Highlight,
        },
        Series {
            label: format!("best tCDP line up to ω = {om}: ρ = {rt}"),
            points: line(rho_t, omega),
            role: Role::Bound(2),
        },
    ];
    c.markers.push(Marker {
        x: omega,
        y: rho_t * omega,
        label: format!("tCDP to ω = {om}"),
    });
    c.summary = format!(
        "The Rényi DP curve of the Gaussian mechanism with σ = {} under Poisson sampling at q = {}, \
         against the order α on log axes, with the least line ρα above it for every order (zCDP) \
         and up to ω = {om} only (tCDP). zCDP must hold as α grows without bound, where the \
         subsampled curve's slope approaches the unsampled 1/(2σ²), so its ρ stays {rz} whatever \
         q is: zCDP does not amplify. The tCDP line only has to cover the orders up to ω: ρ = {rt}, \
         {} times smaller.",
        short_number(sigma, 4),
        short_number(q, 4),
        short_number(rho_z / rho_t, 3)
    );
    Ok(c)
}
