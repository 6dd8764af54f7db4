//! Where the training page's time goes, natively:
//! `cargo run --release -p amp-site --example training_profile`.
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here
use amp_math::pld::{self, Estimate, Noise};
use std::time::Instant;

fn main() {
    for (sigma, q, k) in [(5.0, 256.0 / 60000.0, 703u64), (1.0, 0.01, 10_000)] {
        let n = Noise::Gaussian(sigma);
        for budget in [1usize << 12, 1 << 15, 1 << 18] {
            let t = Instant::now();
            let h = pld::step_for_budget(n, q, k, budget).unwrap();
            let t1 = t.elapsed();
            let b = pld::Band::new(n, q, k, h).unwrap();
            let t2 = t.elapsed();
            let e = b.epsilon(1e-6).unwrap();
            println!(
                "σ={sigma} q={q:.4} k={k} budget {budget}: h = {h:.3e}, probe {:.1} ms, band {:.1} ms, ε = {e:?}",
                t1.as_secs_f64() * 1e3,
                (t2 - t1).as_secs_f64() * 1e3,
            );
        }
        let ks: Vec<u64> = (1..=16).map(|i| 2 * k * i / 16).collect();
        let h = pld::step_for_budget(n, q, 2 * k, 1 << 14).unwrap();
        let t = Instant::now();
        let p = n.poisson(q, h, Estimate::Optimistic).unwrap();
        let t1 = t.elapsed();
        let many = p.self_compose_many(&ks).unwrap();
        let t2 = t.elapsed();
        let eps: Vec<f64> = many
            .iter()
            .map(|m| m.epsilon_for_delta(1e-6).unwrap())
            .collect();
        let t3 = t.elapsed();
        println!(
            "  16 compositions (optimistic, 2^14): build {:.1} ms, compose {:.1} ms, ε {:.1} ms (last {:.4})",
            t1.as_secs_f64() * 1e3,
            (t2 - t1).as_secs_f64() * 1e3,
            (t3 - t2).as_secs_f64() * 1e3,
            eps[15]
        );
    }
}
