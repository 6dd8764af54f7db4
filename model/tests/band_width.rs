//! The training page's refined band ([`cached_band`] at [`FINE`]) is at most 1% of ε wide for
//! every ε ≥ 0.01 on a grid of runs (σ, q, steps, δ), except where the grid step has reached its
//! finest, 1e-6, which is then the reason (σ = 10 at q = 0.001 over 10,000 steps: 1.1%).

use amp_model::params::ParamValues;
use amp_model::training::{cached_band, setting, BAND_WIDTH, FINE};

fn run(sigma: f64, q: f64, steps: u64, delta: f64) -> ParamValues {
    let mut v = ParamValues::default();
    let n = (256.0 / q).round() as u64;
    for (k, x) in [
        ("mech", "gaussian".to_string()),
        ("dataset", n.to_string()),
        ("batch", "256".into()),
        ("sigma", sigma.to_string()),
        ("length", "steps".into()),
        ("steps", steps.to_string()),
        ("delta", delta.to_string()),
    ] {
        let spec = amp_model::param::by_name(k).unwrap();
        v.set(spec, spec.parse(&x).unwrap()).unwrap();
    }
    v
}

#[test]
fn the_refined_band_is_at_most_one_percent_of_epsilon_wide() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for sigma in [0.8, 1.0, 3.0, 10.0] {
        for q in [0.001, 0.01, 0.1] {
            for steps in [100, 10_000] {
                for delta in [1e-5, 1e-7] {
                    let t = setting(&run(sigma, q, steps, delta)).unwrap();
                    let band = cached_band(&t, FINE).unwrap();
                    let (upper, lower) = band.epsilon(delta).unwrap();
                    if upper < 0.01 {
                        continue;
                    }
                    checked += 1;
                    let width = (upper - lower) / upper;
                    if width > BAND_WIDTH && band.step > 1e-6 {
                        failures.push(format!(
                            "σ {sigma}, q {q}, {steps} steps, δ {delta}: [{lower}, {upper}] is \
                             {:.3}% wide on step {}",
                            100.0 * width,
                            band.step
                        ));
                    }
                }
            }
        }
    }
    assert!(checked >= 30, "{checked}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
