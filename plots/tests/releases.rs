//! `private-estimates` (seed 002, Figure 1 right and Figure 2): the drawn boxes against the
//! Laplace distribution's own quantiles, computed here.
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here

use amp_plots::figures::{Chart, FigureId};
use amp_plots::params::ParamValues;

fn chart(pairs: &[(&str, &str)]) -> Chart {
    let mut v = ParamValues::default();
    for (k, x) in pairs {
        let spec = amp_plots::params::by_name(k).unwrap();
        v.set(spec, spec.parse(x).unwrap()).unwrap();
    }
    FigureId::PrivateEstimates.spec().chart(&v).unwrap()
}

#[test]
fn boxes_follow_the_laplace_quantiles_of_each_release() {
    // The paper's setting: Beta(2, 10), N = 10001, 1000 runs, on [0, 1] (R = 1).
    let c = chart(&[
        ("population", "beta"),
        ("N", "10001"),
        ("runs", "1000"),
        ("seed", "1"),
    ]);
    assert_eq!(c.boxes.len(), 9);
    assert_eq!(c.x.categories.len(), 3);
    // |Laplace(b)| is exponential with mean b: its quantile at u is −b·ln(1 − u).
    let q = |b: f64, u: f64| -b * (1.0 - u).ln();
    for (i, eps) in [0.1, 0.5, 1.0].into_iter().enumerate() {
        let mean_box = &c.boxes[3 * i];
        let gs_box = &c.boxes[3 * i + 1];
        let ss_box = &c.boxes[3 * i + 2];
        for (b, scale, what) in [
            (mean_box, 1.0 / (10_001.0 * eps), "mean"),
            (gs_box, 1.0 / eps, "median GS"),
        ] {
            // Quartiles and median to 15%, the 97.5% whisker to 20% (1000 draws).
            for (k, u, tol) in [
                (1, 0.25, 0.15),
                (2, 0.5, 0.15),
                (3, 0.75, 0.15),
                (4, 0.975, 0.2),
            ] {
                let want = q(scale, u);
                assert!(
                    (b.stats[k] / want - 1.0).abs() < tol,
                    "{what}, ε {eps}, quantile {u}: {} vs {want}",
                    b.stats[k]
                );
            }
        }
        // Smooth sensitivity: far below global (Figure 2's point), and the mean's error far below
        // both (Figure 1: its sensitivity is R/N).
        assert!(ss_box.stats[2] < gs_box.stats[2] / 10.0, "ε {eps}");
        assert!(mean_box.stats[2] < ss_box.stats[2], "ε {eps}");
    }
    // The paper: at ε = 0.1 the global-sensitivity medians range "from about −50 to 100"; ours
    // spread over tens in both directions too.
    let span = c
        .summary
        .split("range from ")
        .nth(1)
        .and_then(|t| t.split(" at ε = 0.1").next())
        .unwrap();
    let (lo, hi) = span.split_once(" to ").unwrap();
    let (lo, hi): (f64, f64) = (lo.parse().unwrap(), hi.parse().unwrap());
    assert!(lo < -25.0 && hi > 25.0 && hi - lo < 250.0, "{span}");
    // The reference line is the data's whole range.
    let line = c
        .series
        .iter()
        .find(|s| s.label.contains("whole range"))
        .unwrap();
    assert_eq!(line.points[0].1, 1.0);
}
