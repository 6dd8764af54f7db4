//! Times each registry figure's chart computation at default parameters (native, release):
//! `cargo run --release -p amp-site --example time_figures`.
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here
use amp_model::params::ParamValues;
use amp_site::figures::FIGURES;

fn main() {
    let v = ParamValues::default();
    for f in FIGURES.iter().filter(|f| !f.is_simulated()) {
        let t = std::time::Instant::now();
        let n = 20;
        for _ in 0..n {
            std::hint::black_box(f.chart(&v).ok());
        }
        println!(
            "{:<28} {:>8.3} ms",
            f.id,
            t.elapsed().as_secs_f64() * 1e3 / n as f64
        );
    }
}
