use amp_math::pld::{self, Estimate};
use std::time::Instant;
fn main() {
    let reps = 20;
    for (sigma, q, steps) in [(1.5, 0.04, 2250u64), (1.0, 0.01, 10_000)] {
        let (mut tb, mut tw, mut tc, mut te) = (f64::MAX, f64::MAX, f64::MAX, f64::MAX);
        let mut e = 0.0;
        for _ in 0..reps {
            let t = Instant::now();
            let p =
                pld::poisson_gaussian(sigma, q, pld::DEFAULT_STEP, Estimate::Pessimistic).unwrap();
            tb = tb.min(t.elapsed().as_secs_f64());
            let t = Instant::now();
            std::hint::black_box(p.composed_span(steps));
            tw = tw.min(t.elapsed().as_secs_f64());
            let t = Instant::now();
            let c = p.self_compose(steps).unwrap();
            tc = tc.min(t.elapsed().as_secs_f64());
            let t = Instant::now();
            e = c.epsilon_for_delta(1e-5).unwrap();
            te = te.min(t.elapsed().as_secs_f64());
        }
        println!("σ={sigma} q={q} k={steps}: build {:.2} window {:.2} compose {:.2} eps {:.2} ms; ε = {e:.15}", tb*1e3, tw*1e3, tc*1e3, te*1e3);
    }
}
