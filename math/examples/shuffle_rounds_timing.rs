//! Timing and a look at the shuffle model over R rounds: the PLD band of the clone pair against
//! the one-round exact value (R = 1), the classic compositions and Rényi DP.
//! Run: cargo run --release -p amp-math --example shuffle_rounds_timing
use amp_math::accounting::{Accountant, EpochSettings, Event, PldAccountant, RdpAccountant};
use amp_math::shuffle::{composed_guarantee_epsilon, fmt21_numerical, rdp_orders};
use std::time::Instant;

fn main() {
    // The pages' and the CLI's accountant (the training page's refined bucket budget).
    let acc = PldAccountant::with_budget(236_000, amp_math::pld::STEP_RANGE.0, EpochSettings::FINE);
    for &(n, eps0) in &[
        (1_000u64, 2.0),
        (10_000, 1.0),
        (100_000, 4.0),
        (1_000_000, 1.0),
        (10_000_000, 3.0),
    ] {
        let delta = 1e-6;
        let (lo1, hi1) = fmt21_numerical(eps0, n, delta).unwrap();
        println!("n = {n}, ε₀ = {eps0}: one round exact [{lo1:.6}, {hi1:.6}]");
        for &r in &[1u64, 10, 100] {
            let ev = Event::Shuffle {
                eps0,
                users: n,
                stronger: false,
            }
            .repeated(r);
            let t = Instant::now();
            let b = acc.epsilon(&ev, delta).unwrap();
            let tp = t.elapsed();
            let t = Instant::now();
            let naive = composed_guarantee_epsilon(
                &|d| fmt21_numerical(eps0, n, d).map(|x| x.1),
                &|e| amp_math::shuffle::fmt21_numerical_delta(e, eps0, n).map(|x| x.1),
                eps0,
                r,
                delta,
            )
            .unwrap();
            let tn = t.elapsed();
            let t = Instant::now();
            let rdp = RdpAccountant {
                orders: rdp_orders(),
                ..Default::default()
            }
            .epsilon(&ev, delta)
            .unwrap()
            .upper;
            let tr = t.elapsed();
            println!(
                "  R = {r:5}: PLD [{:.6}, {:.6}] ({:.1} ms)  naive {:.4} {} ({:.1} ms)  RDP {:.4} ({:.1} ms)",
                b.lower.unwrap(),
                b.upper,
                tp.as_secs_f64() * 1e3,
                naive.0,
                naive.1,
                tn.as_secs_f64() * 1e3,
                rdp,
                tr.as_secs_f64() * 1e3
            );
        }
    }
}
