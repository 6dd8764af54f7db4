//! Native timing of the training page's computations at a few settings:
//! `cargo run --release -p amp-site --example training_timing`.
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here
use amp_model::training;
use amp_site::figures::figure;
use amp_site::pages::parse_query;
use std::time::Instant;

fn main() {
    for q in [
        "?page=training",
        "?page=training&sigma=1&dataset=60000&batch=600&length=steps&steps=10000&delta=1e-5",
        "?page=training&sigma=1.5&dataset=60000&batch=2400&length=steps&steps=2250&delta=1e-5",
        "?page=training&sigma=0.8&dataset=60000&batch=6000&length=steps&steps=10000&delta=1e-5",
    ] {
        let v = parse_query(q).values;
        println!("{q}");
        for fine in [false, true] {
            let t = Instant::now();
            let a = training::account(&v, fine);
            println!(
                "  account(fine = {fine}): {:.1} ms {:?}",
                t.elapsed().as_secs_f64() * 1e3,
                a.as_ref()
                    .map(|a| (a.upper, a.lower, a.step, a.calibrated.clone()))
            );
        }
        for id in [
            "epsilon-vs-epochs",
            "privacy-profile",
            "noise-for-target",
            "gaussian-noise-ratio",
        ] {
            let t = Instant::now();
            let c = figure(id).unwrap().chart(&v);
            println!(
                "  {id}: {:.1} ms {}",
                t.elapsed().as_secs_f64() * 1e3,
                c.map(|c| c.summary).unwrap_or_else(|e| e.to_string())
            );
        }
    }
}
