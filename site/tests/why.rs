//! The pictures of why (`neighbour-densities`, `known-inclusion`) against closed forms computed
//! here independently: the densities integrate to their mass, the losses are the log-ratios of the
//! densities, and the extremes of the hidden-sample loss are Theorem 1's ε′ and its other end.
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here

use amp_model::params::ParamValues;
use amp_site::figures::{Chart, FigureId};

fn chart(id: FigureId, pairs: &[(&str, &str)]) -> Chart {
    let mut v = ParamValues::default();
    for (k, x) in pairs {
        let spec = amp_model::param::by_name(k).unwrap();
        v.set(spec, spec.parse(x).unwrap()).unwrap();
    }
    id.spec().chart(&v).unwrap()
}

fn series<'a>(c: &'a Chart, label_part: &str) -> &'a [(f64, f64)] {
    &c.series
        .iter()
        .find(|s| s.label.contains(label_part))
        .unwrap_or_else(|| panic!("no series with {label_part:?}"))
        .points
}

/// Trapezoid rule over the drawn points.
fn area(points: &[(f64, f64)]) -> f64 {
    points
        .windows(2)
        .map(|w| (w[1].0 - w[0].0) * (w[0].1 + w[1].1) / 2.0)
        .sum()
}

fn max_y(points: &[(f64, f64)]) -> f64 {
    points.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max)
}

fn min_y(points: &[(f64, f64)]) -> f64 {
    points.iter().map(|p| p.1).fold(f64::INFINITY, f64::min)
}

#[test]
fn laplace_hidden_loss_runs_between_the_two_ends_of_theorem_1() {
    for (eps, p) in [(1.0f64, 0.01f64), (0.3, 0.5), (4.0, 0.1), (2.0, 1.0)] {
        let (e, r) = (eps.to_string(), p.to_string());
        let c = chart(
            FigureId::NeighbourDensities,
            &[("noise", "laplace"), ("eps", &e), ("p", &r)],
        );
        let lower = c.lower.as_deref().unwrap();
        let hidden = series(lower, "p =");
        let top = (1.0 - p + p * eps.exp()).ln();
        let bottom = (1.0 - p + p * (-eps).exp()).ln();
        assert!((max_y(hidden) - top).abs() <= 1e-12 * top, "ε {eps}, p {p}");
        assert!(
            (min_y(hidden) - bottom).abs() <= 1e-12 * bottom.abs(),
            "ε {eps}, p {p}"
        );
        let plain = series(lower, "no sampling");
        assert!((max_y(plain) - eps).abs() <= 1e-12 * eps);
        assert!((min_y(plain) + eps).abs() <= 1e-12 * eps);
        // The marker is Theorem 1's ε′.
        assert!((lower.markers[0].y - top).abs() <= 1e-12 * top);
        // Each density holds its mass over [−5b, 1 + 5b]: one tail beyond 5b, the other beyond
        // 5b + 1 = (5 + ε)b, so 1 − ½e^{−5}(1 + e^{−ε}), to the grid's accuracy (the trapezoid
        // rule over 403 points).
        let mass = 1.0 - 0.5 * (-5.0f64).exp() * (1.0 + (-eps).exp());
        for s in &c.series {
            let a = area(&s.points);
            assert!((a - mass).abs() < 2e-3, "{}: {a}", s.label);
        }
    }
}

#[test]
fn the_losses_are_the_log_ratios_of_the_drawn_densities() {
    for noise in ["laplace", "gaussian"] {
        let c = chart(
            FigureId::NeighbourDensities,
            &[("noise", noise), ("eps", "1.5"), ("p", "0.2")],
        );
        let lower = c.lower.as_deref().unwrap();
        let (n0, n1, mix) = (
            series(&c, "M(x):"),
            series(&c, "M(x′)"),
            series(&c, "sampled at"),
        );
        let (plain, hidden) = (series(lower, "no sampling"), series(lower, "p ="));
        for i in (0..n0.len()).step_by(7) {
            let o = n0[i].0;
            assert_eq!(o, plain[i].0);
            let want = (n1[i].1 / n0[i].1).ln();
            assert!((plain[i].1 - want).abs() < 1e-9, "{noise} at {o}");
            let want = (mix[i].1 / n0[i].1).ln();
            assert!((hidden[i].1 - want).abs() < 1e-9, "{noise} at {o}");
            // The mixture is pulled towards M(x): (1 − p) of the way.
            assert!((mix[i].1 - (0.8 * n0[i].1 + 0.2 * n1[i].1)).abs() <= 1e-15 + 1e-12 * mix[i].1);
        }
        if noise == "gaussian" {
            // σ = 1/ε: the loss is ε²(o − ½), a straight line with no maximum and no marker.
            let (a, b) = (plain[0], plain[plain.len() - 1]);
            assert!(((b.1 - a.1) / (b.0 - a.0) - 2.25).abs() < 1e-9);
            assert!(lower.markers.is_empty());
            // Far out, the hidden sample lowers the loss by about log(1/p).
            let gap = b.1 - hidden[hidden.len() - 1].1;
            assert!((gap - 5f64.ln()).abs() < 0.01, "{gap}");
        }
    }
}

#[test]
fn disclosed_inclusion_keeps_the_full_epsilon() {
    let c = chart(
        FigureId::KnownInclusion,
        &[("noise", "laplace"), ("eps", "2"), ("p", "0.05")],
    );
    let lower = c.lower.as_deref().unwrap();
    let sampled = series(lower, "person sampled");
    assert!((max_y(sampled) - 2.0).abs() < 1e-12);
    let labels: Vec<f64> = lower.markers.iter().map(|m| m.y).collect();
    let amplified = (1.0 - 0.05 + 0.05 * 2f64.exp()).ln();
    assert!(
        labels.iter().any(|&y| (y - 2.0).abs() < 1e-12),
        "{labels:?}"
    );
    assert!(
        labels.iter().any(|&y| (y - amplified).abs() < 1e-12),
        "{labels:?}"
    );
    assert!(c.summary.contains("no pure-DP guarantee better than ε"));
}

#[test]
fn without_sampling_the_drawn_gaussian_pld_is_the_normal_law_of_the_loss() {
    // q = 1 (the batch is the whole dataset), σ = 4, 16 steps: the loss of k Gaussian steps of
    // sensitivity 1 is N(μ, 2μ) with μ = k/(2σ²) = 0.5 (Dong, Roth & Su 2022; Sommer et al. 2019).
    let c = chart(
        FigureId::PrivacyLossDistribution,
        &[
            ("dataset", "1000"),
            ("batch", "1000"),
            ("mech", "gaussian"),
            ("sigma", "4"),
            ("length", "steps"),
            ("steps", "16"),
            ("delta", "1e-5"),
        ],
    );
    let run = &c.series.last().unwrap().points;
    let width = run[1].0 - run[0].0;
    let (mut mass, mut mean) = (0.0, 0.0);
    for &(x, y) in run.iter() {
        mass += y * width;
        mean += x * y * width;
    }
    mean /= mass;
    let var = run
        .iter()
        .map(|&(x, y)| (x - mean).powi(2) * y * width)
        .sum::<f64>()
        / mass;
    assert!((mass - 1.0).abs() < 1e-6, "{mass}");
    assert!((mean - 0.5).abs() < 2e-3, "{mean}");
    // Binning adds width²/12 to the variance.
    assert!((var - 1.0 - width * width / 12.0).abs() < 5e-3, "{var}");
    // At the centre the density is the normal one (averaged over a bin).
    let pdf = |x: f64| (-(x - 0.5f64).powi(2) / 2.0).exp() / (2.0 * std::f64::consts::PI).sqrt();
    for &(x, y) in run.iter().filter(|p| (p.0 - 0.5).abs() < 2.0) {
        assert!(
            (y - pdf(x)).abs() < 2e-3 * pdf(x) + 1e-4,
            "{x}: {y} vs {}",
            pdf(x)
        );
    }
    // The ε marked meets δ for this 1-GDP run: δ(ε) = Φ(½ − ε) − e^ε Φ(−½ − ε) (Balle & Wang
    // 2018); the shaded mass is P(L > ε) = 1 − Φ(ε − ½), at least δ.
    let eps = c.markers[0].x;
    let phi = |z: f64| amp_math::special::normal_cdf(z);
    let delta = phi(-eps + 0.5) - eps.exp() * phi(-eps - 0.5);
    assert!((delta - 1e-5).abs() < 1e-7, "ε {eps}: δ {delta}");
    let tail = 1.0 - phi(eps - 0.5);
    let shaded = &c.bands[0];
    assert!(shaded.label.contains("P(L > ε)"));
    let stated: f64 = shaded.label["P(L > ε) = ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!((stated - tail).abs() < 0.01 * tail, "{stated} vs {tail}");
    assert!((shaded.points[0].0 - eps).abs() < 1e-12);
    assert!(tail >= 1e-5);
}

#[test]
fn the_regime_map_draws_steinkes_line_where_the_step_epsilon_is_c_times_p() {
    // ε*/√k = c·B/|x| at k = (ε*|x|/(cB))², that is ε*²|x|/(c²B) epochs (up to k's rounding up).
    let c = chart(
        FigureId::RegimeMap,
        &[("dataset", "60000"), ("total-eps", "3"), ("c", "2")],
    );
    let line = series(&c, "c·p");
    assert!(line.len() > 30);
    for &(b, e) in line {
        let b = b.round();
        let want = 9.0 * 60000.0 / (4.0 * b);
        assert!(
            e >= want * (1.0 - 1e-12) && e <= want + b / 60000.0 + 1e-9,
            "B {b}: {e} vs {want}"
        );
    }
}

#[test]
fn zcdp_keeps_the_unsampled_slope_and_tcdp_meets_the_curve_at_omega() {
    // At ω = 2 the tCDP line touches the curve at α = 2, where the Poisson-subsampled Gaussian's
    // RDP has the closed form log(1 + q²(e^{1/σ²} − 1)) (Mironov, Talwar & Zhang 2019).
    let (sigma, q) = (2.0f64, 0.05f64);
    let c = chart(
        FigureId::RdpCdpLines,
        &[
            ("mech", "gaussian"),
            ("sigma", "2"),
            ("scheme", "poisson"),
            ("q", "0.05"),
            ("alpha", "2"),
        ],
    );
    let at_two = (q * q * ((1.0 / (sigma * sigma)).exp() - 1.0)).ln_1p();
    assert!(
        (c.markers[0].y - at_two).abs() < 1e-12 * at_two,
        "{} vs {at_two}",
        c.markers[0].y
    );
    let curve = series(&c, "exact");
    let zcdp = series(&c, "zCDP");
    let tcdp = series(&c, "tCDP");
    // Both are lines through the origin: zCDP's slope is the unsampled 1/(2σ²) = 0.125.
    for &(a, y) in zcdp {
        assert!((y / a - 0.125).abs() < 1e-15);
    }
    for &(a, y) in curve {
        assert!(y <= a * 0.125, "the curve crosses the zCDP line at α {a}");
        if let Some(&(_, t)) = tcdp.iter().find(|p| p.0 == a) {
            assert!(
                y <= t * (1.0 + 1e-12),
                "the curve crosses the tCDP line at α {a}"
            );
        }
    }
    assert!(tcdp.iter().all(|p| p.0 <= 2.0));
    // Far out the curve's slope approaches the unsampled one: no zCDP ρ below 1/(2σ²) holds.
    let (a, y) = *curve.last().unwrap();
    assert!(y / a > 0.9 * 0.125, "slope {} at α {a}", y / a);
    // Other mechanisms and schemes are refused in a sentence.
    let mut v = ParamValues::default();
    v.set_text(amp_model::param::MECH.spec, "laplace").unwrap();
    assert!(FigureId::RdpCdpLines.spec().chart(&v).is_err());
}

#[test]
fn the_first_records_epsilon_only_falls_as_the_run_grows() {
    let c = chart(
        FigureId::IterationPrivacyByPosition,
        &[("iterations", "200")],
    );
    let lower = c.lower.as_deref().unwrap();
    let run = series(lower, "last iterate only");
    let flat = series(lower, "every iterate")[0].1;
    // A run of one step is that step: no amplification.
    assert_eq!(run[0].0, 1.0);
    assert!(
        (run[0].1 - flat).abs() < 1e-9 * flat,
        "{} vs {flat}",
        run[0].1
    );
    for w in run.windows(2) {
        assert!(
            w[1].1 < w[0].1,
            "rises between T = {} and {}",
            w[0].0,
            w[1].0
        );
    }
    assert_eq!(run.last().unwrap().0, 20_000.0);
    // The reader's run, read from the long one, is the upper panel's first record.
    assert_eq!(lower.markers[0].x, 200.0);
    assert!((lower.markers[0].y - c.markers[0].y).abs() < 1e-12 * c.markers[0].y);
    let at_200 = run.iter().find(|p| p.0 == 200.0).map(|p| p.1);
    if let Some(e) = at_200 {
        assert!((e - c.markers[0].y).abs() < 1e-9 * e);
    }
}

/// Wang's slides, sampling without replacement: for the Gaussian the figure draws the
/// Gaussian-specific upper bound (WBK 2019, Theorem 27) and the general one (Theorem 9) it
/// improves on; the first is never above the second and well below it at σ = 5, γ = 0.01.
#[test]
fn without_replacement_gaussian_shows_both_upper_bounds() {
    let c = chart(
        FigureId::RdpSubsampled,
        &[
            ("mech", "gaussian"),
            ("sigma", "5"),
            ("scheme", "without-replacement"),
            ("q", "0.01"),
            ("n", "100000"),
        ],
    );
    let tight = series(&c, "for the Gaussian");
    let general = series(&c, "any mechanism");
    assert_eq!(tight.len(), general.len());
    let mut below = 0;
    for (t, g) in tight.iter().zip(general) {
        assert_eq!(t.0, g.0);
        assert!(t.1 <= g.1, "α {}: {} above {}", t.0, t.1, g.1);
        if t.1 < 0.8 * g.1 {
            below += 1;
        }
    }
    assert!(below > 10, "{below}");
    // Laplace keeps the one general bound.
    let c = chart(
        FigureId::RdpSubsampled,
        &[("mech", "laplace"), ("scheme", "without-replacement")],
    );
    assert!(c.series.iter().all(|s| !s.label.contains("any mechanism")));
}

/// Brown's "less noise early", drawn: three schedules with the same total variance. The first
/// record's ε is the same under all three; the growing schedule is never above σ at every step;
/// output perturbation is flat at the first record's ε.
#[test]
fn noise_schedules_share_the_first_record_and_order_the_rest() {
    let c = chart(
        FigureId::IterationNoiseSchedule,
        &[("iterations", "1000"), ("sigma", "5")],
    );
    let constant = series(&c, "σ at every step");
    let growing = series(&c, "growing");
    let end = series(&c, "last step");
    assert_eq!(constant.len(), growing.len());
    let first = constant[0].1;
    assert!((growing[0].1 / first - 1.0).abs() < 1e-12);
    for p in end {
        assert!((p.1 / first - 1.0).abs() < 1e-12, "{p:?}");
    }
    for (a, b) in constant.iter().zip(growing) {
        assert_eq!(a.0, b.0);
        assert!(
            b.1 <= a.1 * (1.0 + 1e-12),
            "t {}: {} above {}",
            a.0,
            b.1,
            a.1
        );
    }
    assert!(growing.last().unwrap().1 < 0.8 * constant.last().unwrap().1);
}
