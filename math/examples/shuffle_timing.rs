//! Timing of the shuffle bounds: `cargo run --release -p amp-math --example shuffle_timing`.
//!
//! For n = 1e4 … 1e7 users it times the exact clone-reduction ε (`fmt21_numerical`, both ends),
//! the published block method (`fmt21_published`), the blanket bounds and the inverse
//! `largest_eps0` of the exact bound. Each time is the best of a few runs, in milliseconds.
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here
use amp_math::shuffle::{self, Bound};
use std::time::Instant;

fn best_of<T>(runs: usize, mut f: impl FnMut() -> T) -> (T, f64) {
    let mut best = f64::INFINITY;
    let mut out = None;
    for _ in 0..runs {
        let t = Instant::now();
        let v = f();
        best = best.min(t.elapsed().as_secs_f64() * 1e3);
        out = Some(v);
    }
    (out.expect("at least one run"), best)
}

fn main() {
    let delta = 1e-6;
    for &eps0 in &[4.0, 1.0, 0.1] {
        for &n in &[10_000u64, 100_000, 1_000_000, 10_000_000] {
            let ((lo, hi), t_exact) =
                best_of(5, || shuffle::fmt21_numerical(eps0, n, delta).unwrap());
            let ((plo, phi), t_pub) =
                best_of(2, || shuffle::fmt21_published(eps0, n, delta).unwrap());
            let (h, t_h) = best_of(5, || {
                shuffle::shuffle_epsilon(Bound::Bbgn19Hoeffding, eps0, n, delta).unwrap()
            });
            let (b, t_b) = best_of(5, || {
                shuffle::shuffle_epsilon(Bound::Bbgn19Bennett, eps0, n, delta).unwrap()
            });
            let (inv, t_inv) = best_of(2, || {
                shuffle::largest_eps0(Bound::Fmt21Numerical, hi, n, delta).unwrap()
            });
            println!(
                "ε₀={eps0} n={n:>8}: exact [{lo:.6}, {hi:.6}] {t_exact:7.2} ms | published \
                 [{plo:.5}, {phi:.5}] {t_pub:8.2} ms | hoeffding {:.5} {t_h:.3} ms | bennett {:.5} \
                 {t_b:.3} ms | largest ε₀ for ε={hi:.4}: {:.6} {t_inv:7.2} ms",
                h.epsilon.unwrap(),
                b.epsilon.unwrap(),
                inv.eps0,
            );
        }
    }
}
