//! How long one conversion takes with the refinement between orders (native, release).
#![allow(clippy::disallowed_methods)]
use amp_math::rdp::Mechanism;
use amp_math::rdp_accounting::*;
use std::time::Instant;

fn main() {
    let orders = default_orders();
    for (name, mech, sampling) in [
        (
            "gaussian poisson",
            Mechanism::Gaussian { sigma: 1.1 },
            Sampling::Poisson { q: 0.01 },
        ),
        (
            "laplace poisson",
            Mechanism::Laplace { scale: 0.5 },
            Sampling::Poisson { q: 0.01 },
        ),
        (
            "laplace wor",
            Mechanism::Laplace { scale: 0.5 },
            Sampling::WithoutReplacement { gamma: 0.01 },
        ),
    ] {
        let curve = Curve::of(&mech, sampling, &orders).unwrap().times(1000.0);
        let grid = Curve::sampled(curve.orders.clone(), curve.rdp.clone());
        let t = Instant::now();
        let n = 20;
        let mut r = None;
        for _ in 0..n {
            r = Some(epsilon_for_delta(&curve, 1e-5, Conversion::Improved).unwrap());
        }
        let refined = t.elapsed().as_secs_f64() / n as f64;
        let t = Instant::now();
        let g = epsilon_for_delta(&grid, 1e-5, Conversion::Improved).unwrap();
        let grid_t = t.elapsed().as_secs_f64();
        let steps: Vec<f64> = (0..48).map(|i| 10f64.powf(i as f64 / 8.0)).collect();
        let t = Instant::now();
        let _ = epsilon_for_delta_over_steps(
            &Curve::of(&mech, sampling, &orders).unwrap(),
            &steps,
            1e-5,
            Conversion::Improved,
        )
        .unwrap();
        let over = t.elapsed().as_secs_f64();
        println!(
            "{name}: refined {:.3} ms ({:?}), grid {:.4} ms ({} at {}), 48-step sweep {:.1} ms",
            refined * 1e3,
            r.unwrap(),
            grid_t * 1e3,
            g.epsilon,
            g.order,
            over * 1e3
        );
    }
}
