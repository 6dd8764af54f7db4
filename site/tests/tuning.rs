//! The figure `tuning-cost` against the training page's tuning readouts and the properties of a
//! search's cost (Papernot & Steinke 2022): at least one run's ε, below ⌈E[K]⌉ runs composed from
//! about ten runs on, growing with E[K]; each law of K drawn, the reader's marked at the readout.

use amp_model::params::ParamValues;
use amp_site::figures::{Chart, FigureId, Role};
use amp_site::pages::training::{TUNED_COMPOSED, TUNED_EPSILON};
use amp_site::pages::{Page, Precision};

fn values(pairs: &[(&str, &str)]) -> ParamValues {
    let mut v = ParamValues::default();
    for (k, x) in pairs {
        let spec = amp_model::param::by_name(k).unwrap();
        v.set(spec, spec.parse(x).unwrap()).unwrap();
    }
    v
}

/// Opacus's MNIST-like run: σ = 1.1, q = 256/60,000, 15 epochs, δ = 1e-5.
fn run(extra: &[(&str, &str)]) -> ParamValues {
    let mut pairs = vec![
        ("mech", "gaussian"),
        ("dataset", "60000"),
        ("batch", "256"),
        ("sigma", "1.1"),
        ("epochs", "15"),
        ("delta", "1e-5"),
    ];
    pairs.extend_from_slice(extra);
    values(&pairs)
}

fn series<'a>(chart: &'a Chart, starts: &str) -> &'a [(f64, f64)] {
    &chart
        .series
        .iter()
        .find(|s| s.label.starts_with(starts))
        .unwrap_or_else(|| panic!("no series {starts}"))
        .points
}

#[test]
fn every_law_costs_more_than_one_run_and_less_than_composing_from_ten_runs() {
    let v = run(&[("tuning-runs", "20"), ("tuning-law", "geometric")]);
    let chart = FigureId::TuningCost.spec().chart(&v).unwrap();
    let one = series(&chart, "one run")[0].1;
    let composed = series(&chart, "⌈E[K]⌉ runs");
    let laws: Vec<_> = chart
        .series
        .iter()
        .filter(|s| s.label.starts_with("best of K"))
        .collect();
    assert_eq!(laws.len(), 3, "geometric, logarithmic and Poisson");
    for law in &laws {
        let pts = &law.points;
        assert!(pts.len() >= 13, "{}: {} points", law.label, pts.len());
        for w in pts.windows(2) {
            assert!(
                w[1].1 >= w[0].1,
                "{}: not growing with E[K] {w:?}",
                law.label
            );
        }
        for &(m, e) in pts.iter() {
            assert!(
                e > one,
                "{} at E[K] = {m}: {e} ≤ one run's {one}",
                law.label
            );
            if m >= 10.0 {
                let c = composed.iter().find(|p| p.0 == m).unwrap().1;
                assert!(e < c, "{} at E[K] = {m}: {e} ≥ {c} composed", law.label);
            }
        }
    }
    // The geometric law is the reader's: drawn as the highlight, and the only one.
    let highlighted: Vec<_> = laws.iter().filter(|s| s.role == Role::Highlight).collect();
    assert_eq!(highlighted.len(), 1);
    assert!(highlighted[0].label.contains("geometric"));
}

#[test]
fn the_marker_is_the_readouts_search_and_the_composed_line_the_readouts_composition() {
    for law in ["geometric", "logarithmic", "negative-binomial"] {
        let v = run(&[
            ("tuning-runs", "20"),
            ("tuning-law", law),
            ("tuning-shape", "0.5"),
        ]);
        let chart = FigureId::TuningCost.spec().chart(&v).unwrap();
        let readings = (Page::Training.spec().readouts)(&v, Precision::Quick);
        let search = readings.number(&TUNED_EPSILON).unwrap();
        let composed = readings.number(&TUNED_COMPOSED).unwrap();
        let mark = &chart.markers[0];
        assert_eq!(mark.x, 20.0);
        // No PLD in these laws' bounds: the same number.
        assert!(
            (mark.y / search - 1.0).abs() < 1e-12,
            "{law}: {} vs {search}",
            mark.y
        );
        let c = series(&chart, "⌈E[K]⌉ runs")
            .iter()
            .find(|p| p.0 == 20.0)
            .unwrap()
            .1;
        assert!(
            (c / composed - 1.0).abs() < 1e-12,
            "{law}: {c} vs {composed}"
        );
    }
    // The negative binomial at the reader's η is drawn only when it is the law chosen.
    let nb = run(&[("tuning-runs", "20"), ("tuning-law", "negative-binomial")]);
    let chart = FigureId::TuningCost.spec().chart(&nb).unwrap();
    assert!(chart
        .series
        .iter()
        .any(|s| s.label.contains("negative binomial")));
    let chart = FigureId::TuningCost.spec().chart(&run(&[])).unwrap();
    assert!(!chart
        .series
        .iter()
        .any(|s| s.label.contains("negative binomial")));
}

#[test]
fn poissons_cost_grows_with_the_mean_faster_than_the_logarithmic_laws() {
    // The Poisson bound carries E[K]·δ̂: cheapest at a few runs, dearest at a thousand here.
    let chart = FigureId::TuningCost.spec().chart(&run(&[])).unwrap();
    let (poisson, log) = (
        series(&chart, "best of K, Poisson"),
        series(&chart, "best of K, logarithmic"),
    );
    assert!(poisson[0].1 < log[0].1, "{poisson:?} {log:?}");
    assert!(poisson.last().unwrap().1 > log.last().unwrap().1);
}

#[test]
fn refusals_say_why() {
    let err = |v: ParamValues| {
        FigureId::TuningCost
            .spec()
            .chart(&v)
            .unwrap_err()
            .to_string()
    };
    assert!(err(run(&[("records-per-user", "4")])).contains("one record per user"));
    assert!(err(run(&[("max-batch", "300")])).contains("uncapped"));
    assert!(err(run(&[("delta", "1e-12")])).contains("δ of at least 1e-11"));
    assert!(err(run(&[("sigma", "500"), ("delta", "0.9")])).contains("one run has ε = 0"));
}
