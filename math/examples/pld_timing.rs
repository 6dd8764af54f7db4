//! Timing of the PLD accountant's stages (pessimistic and optimistic, both directions):
//! `cargo run --release -p amp-math --example pld_timing`.
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here
use amp_math::pld::{self, Estimate};
use std::time::Instant;

fn main() {
    for (sigma, q, steps) in [
        (1.5, 0.04, 2250u64),
        (1.0, 0.01, 10_000),
        (0.8, 0.1, 10_000),
        (5.0, 0.001, 10_000),
    ] {
        for est in [Estimate::Pessimistic, Estimate::Optimistic] {
            let t = Instant::now();
            let p = pld::poisson_gaussian(sigma, q, pld::DEFAULT_STEP, est).unwrap();
            let t1 = t.elapsed();
            let c = p.self_compose(steps).unwrap();
            let t2 = t.elapsed();
            let e = c.epsilon_for_delta(1e-5).unwrap();
            let t3 = t.elapsed();
            println!(
                "σ={sigma} q={q} k={steps} {est:?}: build {:.1} ms ({} buckets), compose {:.1} ms ({} buckets), ε = {e:.6} in {:.1} ms; total {:.1} ms",
                t1.as_secs_f64() * 1e3,
                p.remove.masses.len(),
                (t2 - t1).as_secs_f64() * 1e3,
                c.remove.masses.len(),
                (t3 - t2).as_secs_f64() * 1e3,
                t3.as_secs_f64() * 1e3
            );
        }
    }
}
