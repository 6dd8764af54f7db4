//! Banded matrix factorisation on the training page (`bands`, [`Training::banded`]): jax_privacy
//! 2.0's `amplified_bandmf_event` composed by dp_accounting 0.6.0
//! (`tools/external/jax_privacy_bandmf.py` → `math/tests/data/jax_privacy_bandmf.csv`), the limit
//! b = 1 (DP-SGD, bit for bit), monotonicity in b, the refusals, and the figure.
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here

use amp_model::params::ParamValues;
use amp_model::training::{cached_band, setting, FINE};
use amp_site::figures::FigureId;
use amp_site::pages::training::{STATEMENT, TIGHT};
use amp_site::pages::{Page, Precision};

const JAX: &str = include_str!("../../math/tests/data/jax_privacy_bandmf.csv");

fn values(pairs: &[(&str, &str)]) -> ParamValues {
    let mut v = ParamValues::default();
    for (k, x) in pairs {
        let spec = amp_model::param::by_name(k).unwrap();
        v.set(spec, spec.parse(x).unwrap()).unwrap();
    }
    v
}

fn run(n: u64, batch: u64, steps: u64, sigma: f64, bands: u64) -> ParamValues {
    values(&[
        ("mech", "gaussian"),
        ("dataset", &n.to_string()),
        ("batch", &batch.to_string()),
        ("length", "steps"),
        ("steps", &steps.to_string()),
        ("sigma", &sigma.to_string()),
        ("delta", "1e-5"),
        ("bands", &bands.to_string()),
    ])
}

fn band(v: &ParamValues) -> (f64, f64) {
    let t = setting(v).unwrap();
    cached_band(&t, FINE).unwrap().epsilon(t.delta).unwrap()
}

#[test]
fn jax_privacy_is_inside_our_band() {
    let rows: Vec<Vec<f64>> = JAX
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("n,"))
        .map(|l| l.split(',').map(|x| x.parse().unwrap()).collect())
        .collect();
    assert!(rows.len() >= 15, "{} rows", rows.len());
    for r in &rows {
        let (n, batch, steps, sigma, bands, theirs) = (
            r[0] as u64,
            r[1] as u64,
            r[2] as u64,
            r[3],
            r[4] as u64,
            r[6],
        );
        let (up, lo) = band(&run(n, batch, steps, sigma, bands));
        // Their pessimistic grid (1e-4) rounds each of the two PLDs up by at most one interval.
        let grid = 2e-4;
        let at = format!("N = {n}, B = {batch}, T = {steps}, σ = {sigma}, b = {bands}");
        assert!(
            lo <= theirs + grid,
            "{at}: our lower {lo} above their {theirs}"
        );
        assert!(
            up >= theirs - grid - 1e-3 * theirs,
            "{at}: our upper {up} below their {theirs}"
        );
        assert!(
            up <= theirs * (1.0 + 1e-3) + grid,
            "{at}: our upper {up} far above their {theirs}"
        );
    }
}

#[test]
fn one_band_is_dp_sgd_bit_for_bit_and_more_bands_cost_more() {
    let plain = values(&[
        ("mech", "gaussian"),
        ("dataset", "60000"),
        ("batch", "256"),
        ("length", "steps"),
        ("steps", "703"),
        ("sigma", "1"),
        ("delta", "1e-5"),
    ]);
    let page = |v: &ParamValues| {
        (Page::Training.spec().readouts)(v, Precision::Fine)
            .number(&TIGHT)
            .unwrap()
    };
    let one = run(60000, 256, 703, 1.0, 1);
    assert_eq!(page(&plain).to_bits(), page(&one).to_bits());
    assert_eq!(setting(&plain).unwrap(), setting(&one).unwrap());
    // At a fixed σ, more bands mean fewer but denser participations: ε grows with b here.
    let mut last = 0.0;
    for b in [1u64, 2, 3, 5, 8, 20, 64, 234] {
        let (up, lo) = band(&run(60000, 256, 703, 1.0, b));
        assert!(lo <= up && up > last, "b = {b}: {lo}..{up} after {last}");
        last = up;
    }
    // b = T: each example at most once, at rate T·B/|x| ≤ 1: one Poisson-sampled Gaussian step.
    let t = setting(&run(60000, 256, 200, 1.0, 200)).unwrap();
    assert_eq!((t.steps, t.q), (1, 200.0 * 256.0 / 60000.0));
    let text = (Page::Training.spec().readouts)(&run(60000, 256, 703, 1.0, 8), Precision::Quick)
        .text(&STATEMENT)
        .unwrap()
        .to_string();
    assert!(
        text.contains("banded") && text.contains("at most 88 steps"),
        "{text}"
    );
}

#[test]
fn corners_are_refused_with_a_sentence() {
    for (extra, says) in [
        (("bands", "300"), "at most |x|/B = 234 bands"),
        (("batching", "shuffle"), "cyclic Poisson"),
        (("records-per-user", "4"), "one record per user"),
        (("max-batch", "300"), "without a cap"),
        (("mech", "laplace"), "Gaussian noise only"),
        (("phases", "2"), "one phase"),
    ] {
        let mut v = run(60000, 256, 703, 1.0, 8);
        let spec = amp_model::param::by_name(extra.0).unwrap();
        v.set(spec, spec.parse(extra.1).unwrap()).unwrap();
        let e = setting(&v).expect_err(extra.0);
        assert!(e.to_string().contains(says), "{extra:?}: {e}");
        let r = (Page::Training.spec().readouts)(&v, Precision::Quick);
        assert!(r.number(&TIGHT).is_err(), "{extra:?}");
    }
}

#[test]
fn the_figure_marks_the_readers_bands_at_the_readouts_number() {
    let v = run(60000, 256, 703, 1.0, 8);
    let chart = FigureId::BandedNoise.spec().chart(&v).unwrap();
    let mark = &chart.markers[0];
    assert_eq!(mark.x, 8.0);
    let (up, _) = band(&v);
    // The figure's grid is coarser: its certified ε is above the refined one, close to it.
    assert!(
        mark.y >= up * (1.0 - 1e-9) && mark.y <= up * 1.01,
        "{} vs {up}",
        mark.y
    );
    let ups = &chart.series[0].points;
    assert!(ups.windows(2).all(|w| w[1].1 > w[0].1), "{ups:?}");
    let lower = chart.lower.as_ref().expect("σ for the target");
    let sig = &lower.series[0].points;
    assert!(sig.windows(2).all(|w| w[1].1 >= w[0].1), "{sig:?}");
    assert_eq!(sig[0].0, 1.0);
}

#[test]
fn a_run_file_opens_as_dp_sgd() {
    use amp_model::training::values_for_run;
    let plain = setting(&run(60000, 256, 703, 1.0, 1))
        .unwrap()
        .run()
        .unwrap();
    let opened = values_for_run(&plain, &run(60000, 256, 703, 1.0, 8)).unwrap();
    let spec = amp_model::param::by_name("bands").unwrap();
    assert_eq!(opened.get(spec), amp_model::params::Value::Count(1));
}
