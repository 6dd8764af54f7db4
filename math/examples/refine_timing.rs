//! How long the RDP curves and one conversion take (native, release):
//! `cargo run --release -p amp-math --example refine_timing`.
#![allow(clippy::disallowed_methods)]
use amp_math::rdp::*;
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
            "k-rr poisson",
            Mechanism::KaryRandomizedResponse {
                epsilon: 2.0,
                k: 10,
            },
            Sampling::Poisson { q: 0.01 },
        ),
        (
            "laplace wor",
            Mechanism::Laplace { scale: 0.5 },
            Sampling::WithoutReplacement { gamma: 0.01 },
        ),
    ] {
        let t = Instant::now();
        let one = Curve::of(&mech, sampling, &orders).unwrap();
        let curve_ms = t.elapsed().as_secs_f64() * 1e3;
        let curve = one.times(1000.0);
        let grid = Curve::sampled(curve.orders.clone(), curve.rdp.clone());
        let n = 20;
        let t = Instant::now();
        let mut r = None;
        for _ in 0..n {
            r = Some(epsilon_for_delta(&curve, 1e-5, Conversion::Improved).unwrap());
        }
        let refined = t.elapsed().as_secs_f64() * 1e3 / n as f64;
        let g = epsilon_for_delta(&grid, 1e-5, Conversion::Improved).unwrap();
        let steps: Vec<f64> = (0..48).map(|i| 10f64.powf(i as f64 / 8.0)).collect();
        let t = Instant::now();
        let _ = epsilon_for_delta_over_steps(&one, &steps, 1e-5, Conversion::Improved).unwrap();
        let over = t.elapsed().as_secs_f64() * 1e3;
        let r = r.unwrap();
        println!(
            "{name}: curve on 154 orders {curve_ms:.2} ms; 1000 steps at δ = 1e-5: ε {} at α {} \
             ({refined:.3} ms), on the grid alone {} at α {}; 48-step sweep {over:.2} ms",
            r.epsilon, r.order, g.epsilon, g.order
        );
    }
}
