//! The last iterate over many passes (`amp_math::iteration::many_passes`) against the mpmath and
//! exact-rational table written by `tools/reference/last_iterate.py` (every window tried, a generic
//! convex hull over every position of the record, the sampled Gaussian by quadrature), and its
//! properties: never above composition, not decreasing with T, flat from the burn-in on, the full
//! batch's burn-in 2Dn/(ηL) and plateau 4αDL/(nησ²), Poisson batches at b = n equal to the full
//! batch's plateau, the closed form above the exact bound wherever it is shown.
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here

use amp_math::iteration::many_passes::{
    burn_in, closed_form_curve, epsilon_over_steps, fixed_schedule_best, fixed_schedule_cost,
    last_iterate, poisson_orders, poisson_rdp, uses, windows, Batches, ManyPasses, PoissonTable,
    EXHAUSTIVE_WINDOWS,
};
use amp_math::rdp::{poisson_gaussian, Conversion};

const TABLE: &str = include_str!("data/last_iterate.csv");

fn num(s: &str) -> f64 {
    s.parse().unwrap_or_else(|_| panic!("bad number {s:?}"))
}

fn run(batches: Batches, steps: u64, n: u64, b: u64, d: f64, sigma: f64, eta: f64) -> ManyPasses {
    ManyPasses {
        steps,
        records: n,
        batch: b,
        batches,
        diameter: d,
        sigma,
        step_size: eta,
        lipschitz: 1.0,
    }
}

fn rel(a: f64, b: f64) -> f64 {
    ((a - b) / b).abs()
}

#[test]
fn matches_the_reference_table() {
    let (mut rows, mut worst) = (0, 0.0f64);
    for line in TABLE.lines().skip(1) {
        let c: Vec<&str> = line.split(',').collect();
        assert_eq!(c.len(), 12, "malformed row {line}");
        let (n, b, t) = (num(c[1]) as u64, num(c[2]) as u64, num(c[3]) as u64);
        let (d, sigma, eta, alpha, expected) =
            (num(c[4]), num(c[5]), num(c[6]), num(c[8]), num(c[9]));
        let kind = match c[0] {
            "full" => Batches::Full,
            "cyclic" => Batches::Cyclic,
            _ => Batches::Poisson,
        };
        let r = run(kind, t.max(1), n, b, d, sigma, eta);
        let got = match kind {
            Batches::Poisson => {
                let table = PoissonTable::of(&r).unwrap();
                let j = poisson_orders().iter().position(|&a| a == alpha).unwrap();
                // The direction: the reverse divergence is the smaller (Mironov, Talwar & Zhang).
                let (other, one) = (num(c[10]), num(c[11]));
                assert!(other <= one, "{line}: the reverse direction is larger");
                let q = b as f64 / n as f64;
                let mine = poisson_gaussian(b as f64 * sigma / 2.0, q, alpha).unwrap();
                assert!(rel(mine, one) < 1e-8, "{line}: one step {mine}");
                if t == 0 {
                    table.rdp_at(j, None)
                } else {
                    assert_eq!(poisson_rdp(&r, alpha).unwrap(), table.rdp_at(j, Some(t)));
                    table.rdp_at(j, Some(t))
                }
            }
            _ => {
                if kind == Batches::Cyclic {
                    assert_eq!(
                        c[10], "0",
                        "{line}: the worst record is not the last step's"
                    );
                }
                alpha * r.use_slope() * fixed_schedule_best(&r).unwrap().0
            }
        };
        let e = rel(got, expected);
        worst = worst.max(e);
        assert!(e < 1e-8, "{line}: got {got}, relative error {e:e}");
        if kind == Batches::Full && t >= 2 * (d * n as f64 / eta) as u64 {
            assert!(rel(got, num(c[10])) < 1e-12, "{line}: not at the plateau");
        }
        rows += 1;
    }
    assert!(rows >= 40, "{rows} rows");
    eprintln!("last iterate: {rows} rows, worst relative error {worst:e}");
}

/// The greatest convex minorant of the prefix budget B_t = z + uses up to t, from (0, 0), by a
/// generic lower hull over every point (the closed form's independent check).
fn hull_cost(steps: u64, window: u64, k: u64, d: f64) -> f64 {
    let used = |step: u64| (steps - step).is_multiple_of(k);
    let tau = steps - window;
    let before = (1..=tau).filter(|&s| used(s)).count() as f64;
    let z = d.min(before);
    let mut pts = vec![(0.0, 0.0)];
    let mut cum = z;
    for t in 1..=window {
        if used(tau + t) {
            cum += 1.0;
        }
        pts.push((t as f64, cum));
    }
    let mut hull: Vec<(f64, f64)> = Vec::new();
    for p in pts {
        while hull.len() >= 2 {
            let (a, b) = (hull[hull.len() - 2], hull[hull.len() - 1]);
            if (b.1 - a.1) * (p.0 - a.0) >= (p.1 - a.1) * (b.0 - a.0) {
                hull.pop();
            } else {
                break;
            }
        }
        hull.push(p);
    }
    hull.windows(2)
        .map(|w| (w[1].1 - w[0].1).powi(2) / (w[1].0 - w[0].0))
        .sum()
}

#[test]
fn the_closed_form_window_cost_is_the_hull() {
    for k in [1u64, 2, 3, 7] {
        for d in [0.0, 0.3, 1.0, 2.5, 7.0, 40.0] {
            for steps in [1u64, 5, 23, 60] {
                for window in 1..=steps {
                    let a = fixed_schedule_cost(steps, window, k, d);
                    let b = hull_cost(steps, window, k, d);
                    assert!(
                        (a - b).abs() <= 1e-12 * b.max(1.0),
                        "k {k} d {d} T {steps} R {window}: {a} vs {b}"
                    );
                }
            }
        }
    }
}

#[test]
fn the_windows_tried_find_the_best_beyond_the_exhaustive_range() {
    let cases = [1u64, 3, 10, 100, 1000]
        .into_iter()
        .flat_map(|k| [0.5, 3.2, 40.0, 500.0, 30_000.5].map(|d| (k, d)))
        .flat_map(|(k, d)| [EXHAUSTIVE_WINDOWS + 1, 12_345, 300_001].map(|t| (k, d, t)));
    for (k, d, steps) in cases {
        let exhaustive = (1..=steps)
            .map(|r| fixed_schedule_cost(steps, r, k, d))
            .fold(f64::INFINITY, f64::min);
        let tried = windows(steps, k, d)
            .into_iter()
            .map(|r| fixed_schedule_cost(steps, r, k, d))
            .fold(f64::INFINITY, f64::min);
        assert!(
            tried >= exhaustive && rel(tried, exhaustive) < 1e-12,
            "k {k} d {d}: {tried} vs {exhaustive}"
        );
    }
}

#[test]
fn full_batch_burn_in_and_plateau_in_closed_form() {
    // n = 1000, D = 1, η = 0.1: burn-in 2Dn/(ηL) = 20,000 steps, plateau 4αDL/(nησ²).
    for (n, d, sigma, eta) in [
        (1000u64, 1.0, 1.0, 0.1),
        (60_000, 2.0, 5.0, 0.05),
        (250, 0.5, 2.0, 1.0),
    ] {
        let r = run(Batches::Full, 10, n, n, d, sigma, eta);
        let burn = 2.0 * d * n as f64 / eta;
        let level = 4.0 * d / (n as f64 * eta * sigma * sigma);
        let slope = |t: u64| r.use_slope() * fixed_schedule_best(&r.with_steps(t)).unwrap().0;
        // Exact when D/s is a whole number of windows, else the best whole window is a hair above.
        let dd = d / r.shift();
        let plateau = slope(1 << 40);
        assert!(
            plateau >= level * (1.0 - 1e-12) && rel(plateau, level) < 1.0 / (dd * dd),
            "{plateau} vs {level}"
        );
        let level = plateau;
        let b = burn_in(slope, level).unwrap();
        assert!((b as f64 - burn).abs() <= 1.0, "burn-in {b} vs {burn}");
        let li = last_iterate(&r.with_steps(b * 3), 1e-6, Conversion::Improved).unwrap();
        assert!((li.burn_in - burn).abs() <= 1.0);
        // Below the burn-in the last iterate costs what composition does: T·ρ.
        for t in [1u64, 7, (burn / 3.0) as u64, (burn as u64) - 1] {
            assert!(rel(slope(t), t as f64 * r.use_slope()) < 1e-12, "T {t}");
        }
    }
}

#[test]
fn never_above_composition_never_decreasing_and_flat_after_the_burn_in() {
    let runs = [
        run(Batches::Full, 1, 1000, 1000, 1.0, 1.0, 0.1),
        run(Batches::Cyclic, 1, 1000, 10, 1.0, 1.0, 0.1),
        run(Batches::Cyclic, 1, 600, 200, 3.0, 2.0, 0.5),
        run(Batches::Poisson, 1, 1000, 10, 1.0, 1.0, 0.1),
        run(Batches::Poisson, 1, 60_000, 256, 1.0, 1.1, 0.05),
    ];
    let steps: Vec<u64> = (0..40).map(|i| (1.6f64.powi(i)).round() as u64).collect();
    for r in runs {
        let eps = epsilon_over_steps(&r, &steps, 1e-5, Conversion::Improved).unwrap();
        let li = last_iterate(&r, 1e-5, Conversion::Improved).unwrap();
        let mut last = 0.0;
        for (&t, (li_t, comp)) in steps.iter().zip(&eps) {
            assert!(li_t.epsilon <= comp.epsilon * (1.0 + 1e-12), "{r:?} T {t}");
            assert!(
                li_t.epsilon >= last * (1.0 - 1e-9),
                "{r:?} T {t}: decreased"
            );
            assert!(
                li_t.epsilon <= li.plateau.epsilon * (1.0 + 1e-9),
                "{r:?} T {t}: above the plateau"
            );
            last = li_t.epsilon;
        }
        let b = li.burn_in as u64;
        let after =
            epsilon_over_steps(&r, &[b, 3 * b, 1000 * b], 1e-5, Conversion::Improved).unwrap();
        for (li_t, _) in &after {
            assert!(
                rel(li_t.epsilon, li.plateau.epsilon) < 1e-6,
                "{r:?}: {} vs plateau {}",
                li_t.epsilon,
                li.plateau.epsilon
            );
        }
    }
}

#[test]
fn poisson_at_the_full_batch_has_the_full_batch_plateau() {
    let full = run(Batches::Full, 1 << 30, 1000, 1000, 1.0, 1.0, 0.1);
    let pois = run(Batches::Poisson, 1 << 30, 1000, 1000, 1.0, 1.0, 0.1);
    let table = PoissonTable::of(&pois).unwrap();
    for (j, &a) in table.orders.iter().enumerate().take(20) {
        let f = a * full.use_slope() * fixed_schedule_best(&full).unwrap().0;
        assert!(rel(table.rdp_at(j, None), f) < 1e-9, "α {a}");
    }
}

#[test]
fn the_closed_form_is_shown_only_above_the_exact_bound() {
    let mut shown = 0;
    for (n, b, sigma) in [
        (60_000u64, 256u64, 40.0),
        (60_000, 600, 20.0),
        (1000, 10, 1.0),
        (1000, 500, 40.0),
    ] {
        for t in [10u64, 1000, 100_000, 10_000_000] {
            let r = run(Batches::Poisson, t, n, b, 1.0, sigma, 0.1);
            let Some(cf) = closed_form_curve(&r).unwrap() else {
                continue;
            };
            let table = PoissonTable::of(&r).unwrap();
            for (&a, &v) in cf.orders.iter().zip(&cf.rdp) {
                let j = table.orders.iter().position(|&o| o == a).unwrap();
                assert!(
                    table.rdp_at(j, Some(t)) <= v * (1.0 + 1e-6),
                    "n {n} b {b} σ {sigma} T {t} α {a}"
                );
                shown += 1;
            }
        }
    }
    assert!(
        shown > 50,
        "the closed form was shown at {shown} points only"
    );
    // Outside its conditions (q > 1/5, or noise multiplier below 4) it is not shown.
    assert!(
        closed_form_curve(&run(Batches::Poisson, 10, 1000, 500, 1.0, 1.0, 0.1))
            .unwrap()
            .is_none()
    );
    assert!(
        closed_form_curve(&run(Batches::Poisson, 10, 1000, 10, 1.0, 1.0, 0.1))
            .unwrap()
            .is_none()
    );
}

#[test]
fn bad_runs_are_refused() {
    let ok = run(Batches::Cyclic, 10, 100, 10, 1.0, 1.0, 0.1);
    assert!(ok.validate().is_ok());
    assert!(ManyPasses { batch: 200, ..ok }.validate().is_err());
    assert!(ManyPasses { batch: 7, ..ok }.validate().is_err());
    assert!(ManyPasses {
        diameter: 0.0,
        ..ok
    }
    .validate()
    .is_err());
    assert!(ManyPasses {
        sigma: f64::NAN,
        ..ok
    }
    .validate()
    .is_err());
    assert!(ManyPasses { steps: 0, ..ok }.validate().is_err());
    assert!(poisson_rdp(
        &ManyPasses {
            batches: Batches::Poisson,
            ..ok
        },
        2.5
    )
    .is_err());
    assert_eq!(uses(&ManyPasses { steps: 25, ..ok }), 3);
}
