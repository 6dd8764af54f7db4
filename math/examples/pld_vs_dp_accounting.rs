//! Timing and ε of our PLD accountant against Google's dp_accounting, case by case:
//! `cargo run --release -p amp-math --example pld_vs_dp_accounting [CSV] [--repeat N]`.
//!
//! Reads a table written by `tools/external/dp_accounting_pld.py` (columns
//! q,sigma,steps,delta,epsilon,seconds; default `math/tests/data/pld_dp_accounting.csv`) and, for
//! every row, times ours the same way (one run after a warm-up, or the fastest of `--repeat N`
//! runs, the same option as the generator's `--cases` mode): the pessimistic upper bound alone
//! (build, compose, solve for ε: the fair comparison with dp_accounting's single pessimistic
//! number), and `pld::gaussian_epsilon` (upper and lower). Ratios are their seconds over ours.
//! `tools/external/bench_pld.sh` re-times dp_accounting on a few cases and runs this on them, so
//! both sides are timed on the same machine in the same run.
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here
use amp_math::pld::{self, Estimate};
use std::time::Instant;

fn upper_only(sigma: f64, q: f64, steps: u64, delta: f64) -> Result<f64, amp_math::MathError> {
    pld::poisson_gaussian(sigma, q, pld::DEFAULT_STEP, Estimate::Pessimistic)?
        .self_compose(steps)?
        .epsilon_for_delta(delta)
}

/// The result of `f` and the fastest of `repeat` timed runs, in seconds.
fn fastest<T>(repeat: usize, mut f: impl FnMut() -> T) -> (T, f64) {
    let t = Instant::now();
    let mut out = f();
    let mut best = t.elapsed().as_secs_f64();
    for _ in 1..repeat {
        let t = Instant::now();
        out = f();
        best = best.min(t.elapsed().as_secs_f64());
    }
    (out, best)
}

fn main() {
    let (mut path, mut repeat) = (None, 1usize);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--repeat" {
            repeat = args
                .next()
                .and_then(|n| n.parse::<usize>().ok())
                .expect("--repeat needs a positive integer")
                .max(1);
        } else {
            path = Some(a);
        }
    }
    let path = path.unwrap_or_else(|| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/pld_dp_accounting.csv"
        )
        .to_string()
    });
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let mut rows = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with('#') || line.starts_with("q,") {
            continue;
        }
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), 6, "expected 6 fields: {line}");
        let n = |i: usize| -> f64 { f[i].parse().unwrap_or_else(|_| panic!("bad field: {line}")) };
        let steps: u64 = f[2].parse().unwrap_or_else(|_| panic!("bad steps: {line}"));
        rows.push((n(0), n(1), steps, n(3), n(4), n(5)));
    }
    println!(
        "{path}: {} cases; ours timed as the fastest of {repeat} run(s)",
        rows.len()
    );

    // Warm-up (page faults, allocator), as dp_accounting's generator does.
    upper_only(1.0, 0.04, 100, 1e-5).unwrap();

    println!(
        "{:>6} {:>4} {:>6} | {:>9} {:>9} {:>7} {:>9} {:>7} | {:>13} {:>13} {:>13} {:>10}",
        "q",
        "σ",
        "steps",
        "theirs s",
        "upper s",
        "ratio",
        "both s",
        "ratio",
        "ε theirs",
        "ε upper",
        "ε lower",
        "upper/th−1"
    );
    let (mut t_theirs, mut t_upper, mut t_both) = (0.0, 0.0, 0.0);
    let mut failed = 0;
    for &(q, sigma, steps, delta, theirs, their_s) in &rows {
        let (up, s_up) = fastest(repeat, || upper_only(sigma, q, steps, delta));
        let (both, s_both) = fastest(repeat, || {
            pld::gaussian_epsilon(sigma, q, steps, delta, pld::DEFAULT_STEP)
        });
        t_theirs += their_s;
        t_upper += s_up;
        t_both += s_both;
        let (eu, el) = match (&up, &both) {
            (Ok(u), Ok((_, l))) => (*u, *l),
            _ => {
                failed += 1;
                println!("{q:>6} {sigma:>4} {steps:>6} | error: {up:?} {both:?}");
                continue;
            }
        };
        println!(
            "{q:>6} {sigma:>4} {steps:>6} | {their_s:>9.4} {s_up:>9.4} {:>7.2} {s_both:>9.4} {:>7.2} | {theirs:>13.9} {eu:>13.9} {el:>13.9} {:>+10.1e}",
            their_s / s_up,
            their_s / s_both,
            eu / theirs - 1.0
        );
    }
    println!(
        "total over {} cases ({failed} failed): theirs {t_theirs:.3} s; ours upper only {t_upper:.3} s \
         (ratio {:.2}); ours upper + lower {t_both:.3} s (ratio {:.2})",
        rows.len(),
        t_theirs / t_upper,
        t_theirs / t_both
    );
}
