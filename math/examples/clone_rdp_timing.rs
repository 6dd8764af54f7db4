//! Timing and values of the clone reductions' Rényi DP (`fmt21_rdp`, `fmt23_rdp`).
//! Run: cargo run --release -p amp-math --example clone_rdp_timing
use amp_math::shuffle::{fmt21_rdp, fmt23_rdp, Randomizer};
use std::time::Instant;

fn main() {
    let krr = Randomizer::KRr { k: 2 };
    for (eps0, n) in [
        (1.0, 1000u64),
        (1.0, 100_000),
        (4.0, 100_000),
        (1.0, 1_000_000),
        (0.1, 1_000_000_000),
    ] {
        for lambda in [2.0, 8.0, 32.0] {
            let t = Instant::now();
            let a = fmt21_rdp(eps0, n, lambda).unwrap();
            let ta = t.elapsed();
            let t = Instant::now();
            let b = fmt23_rdp(krr, eps0, n, lambda).unwrap();
            let tb = t.elapsed();
            println!(
                "ε₀ = {eps0}, n = {n}, λ = {lambda}: clones [{:.9e}, {:.9e}] ({ta:.2?}), stronger [{:.9e}, {:.9e}] ({tb:.2?})",
                a.0, a.1, b.0, b.1
            );
        }
    }
}
