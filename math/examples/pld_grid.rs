//! How the PLD band narrows with the grid step h, and what each step costs:
//! `cargo run --release -p amp-math --example pld_grid`.
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here
use amp_math::pld::{self, Estimate};
use std::time::Instant;

fn main() {
    for (sigma, q, steps) in [
        (1.5, 0.04, 2250u64),
        (1.0, 0.01, 10_000),
        (5.0, 0.001, 10_000),
    ] {
        for h in [1e-2, 3e-3, 1e-3, 3e-4, 1e-4, 3e-5] {
            let t = Instant::now();
            let hi = pld::poisson_gaussian(sigma, q, h, Estimate::Pessimistic)
                .and_then(|p| p.self_compose(steps))
                .and_then(|c| c.epsilon_for_delta(1e-5))
                .unwrap();
            let t1 = t.elapsed();
            let lo = pld::poisson_gaussian(sigma, q, h, Estimate::Optimistic)
                .and_then(|p| p.self_compose(steps))
                .and_then(|c| c.epsilon_for_delta(1e-5))
                .unwrap();
            let t2 = t.elapsed();
            println!(
                "σ={sigma} q={q} k={steps} h={h:e}: [{lo:.6}, {hi:.6}] width {:.3}%  pessimistic {:.1} ms, both {:.1} ms",
                100.0 * (hi - lo) / hi,
                t1.as_secs_f64() * 1e3,
                t2.as_secs_f64() * 1e3
            );
        }
    }
}
