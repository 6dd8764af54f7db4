//! Reproduces the median simulation of Hu, Drechsler & Kim ("Accuracy gains from privacy
//! amplification through sampling for differential privacy") at the paper's settings and prints
//! what it finds next to the paper's numbers.
//! `cargo run --release -p amp-math --example median_paper [seed]`
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here
use amp_math::median_sim::{
    five_numbers, Population, SimConfig, Simulation, PAPER_EPSILONS, PAPER_RATES,
};
use std::time::Instant;

fn main() {
    let seed: u64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2024);
    for pop in [Population::LogNormal, Population::Bimodal] {
        let t = Instant::now();
        let mut sim = Simulation::new(SimConfig {
            population: pop,
            population_size: 10_001,
            seed,
            runs: 1000,
            epsilons: PAPER_EPSILONS.to_vec(),
            rates: PAPER_RATES.to_vec(),
        })
        .expect("config");
        sim.run_to_end();
        println!(
            "{}: full Figure 8/13 grid (6 ε × 10 rates × 1000 runs) in {:.2} s",
            pop.id(),
            t.elapsed().as_secs_f64()
        );
        println!("  population median {:.4}", sim.population().median());
        for c in sim.cells() {
            if [0.01, 0.1].contains(&c.rate) && [0.1, 0.5, 1.0].contains(&c.epsilon) {
                let f = five_numbers(&c.sensitivity_ratio);
                println!(
                    "  ε = {:<4} n = {:<5} median sensitivity ratio {:.2} (quartiles {:.2}–{:.2})",
                    c.epsilon, c.n, f[2], f[1], f[3]
                );
            }
        }
        for (i, p) in sim.population_cells().iter().enumerate() {
            let best = sim.cells()[i * PAPER_RATES.len()..(i + 1) * PAPER_RATES.len()]
                .iter()
                .map(|c| (c.mse(), c.rate))
                .fold((f64::INFINITY, 0.0), |a, b| if b.0 < a.0 { b } else { a });
            println!(
                "  ε = {:<4}: population log MSE {:.2}; best sample log MSE {:.2} at rate {} → {}",
                p.epsilon,
                p.mse().ln(),
                best.0.ln(),
                best.1,
                if best.0 < p.mse() { "gain" } else { "no gain" }
            );
        }
    }
}
