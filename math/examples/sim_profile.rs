//! Time per cell of the Figure 8 grid (development aid). `cargo run --release -p amp-math --example sim_profile`
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here
use amp_math::median_sim::{Population, SimConfig, Simulation, PAPER_EPSILONS, PAPER_RATES};
use std::time::Instant;
fn main() {
    for &eps in &PAPER_EPSILONS {
        let mut line = format!("ε = {eps:<5}");
        for &rate in &PAPER_RATES {
            let mut sim = Simulation::new(SimConfig {
                population: Population::LogNormal,
                population_size: 10_001,
                seed: 1,
                runs: 1000,
                epsilons: vec![eps],
                rates: vec![rate],
            })
            .unwrap();
            let t = Instant::now();
            sim.run_to_end();
            line += &format!(" {:>6.0}", t.elapsed().as_secs_f64() * 1000.0);
        }
        println!("{line}  (ms per 1000 runs, rates 0.01, 0.1 … 0.9)");
    }
}
