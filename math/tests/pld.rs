//! The PLD accountant against independent values: the Gaussian mechanism's exact δ (Balle & Wang
//! 2018) for q = 1, where the composed PLD is known in closed form; randomized response composed k
//! times against the exact binomial sum; and Opacus's published PRV test value.
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here

use amp_math::pld::{self, Estimate};
use amp_math::rdp::gaussian_delta;

fn bracket(sigma: f64, q: f64, steps: u64, step: f64) -> (pld::PldPair, pld::PldPair) {
    let hi = pld::poisson_gaussian(sigma, q, step, Estimate::Pessimistic)
        .unwrap()
        .self_compose(steps)
        .unwrap();
    let lo = pld::poisson_gaussian(sigma, q, step, Estimate::Optimistic)
        .unwrap()
        .self_compose(steps)
        .unwrap();
    (hi, lo)
}

/// k Gaussian mechanisms with noise σ are one with noise σ/√k, whose δ(ε) is exact.
#[test]
fn full_gaussian_composition_brackets_the_exact_delta() {
    for (sigma, steps) in [(1.0, 1u64), (2.0, 10), (5.0, 100), (0.8, 3)] {
        let (hi, lo) = bracket(sigma, 1.0, steps, 1e-3);
        for eps in [0.0, 0.5, 1.0, 2.0, 4.0] {
            let exact = gaussian_delta(sigma / (steps as f64).sqrt(), eps).unwrap();
            let (u, l) = (hi.delta_for_epsilon(eps), lo.delta_for_epsilon(eps));
            assert!(
                l <= exact * (1.0 + 1e-9) + 1e-15 && exact <= u * (1.0 + 1e-9) + 1e-15,
                "σ = {sigma}, k = {steps}, ε = {eps}: {l:e} ≤ {exact:e} ≤ {u:e} fails"
            );
            // Connect the dots keeps the upper bound close to the truth.
            assert!(
                u <= exact * 1.01 + 1e-14,
                "upper bound too loose: {u:e} vs {exact:e}"
            );
        }
    }
}

/// Binary randomized response composed k times: the loss is ε·(2B − k) with B ∼ Bin(k, p).
#[test]
fn randomized_response_composition_is_the_binomial_sum() {
    for (eps, k) in [(0.5f64, 10u64), (1.0, 100), (0.1, 1000)] {
        let step = pld::step_dividing(eps, 1e-3);
        let c = pld::randomized_response(eps, 2, step, Estimate::Pessimistic)
            .unwrap()
            .self_compose(k)
            .unwrap();
        let p = eps.exp() / (eps.exp() + 1.0);
        for target in [0.0, 1.0, 3.0] {
            // δ(t) = Σ_j C(k,j) p^j (1−p)^{k−j} (1 − e^{t − ε(2j − k)})₊, summed in f64 with
            // log-binomials (independent of the FFT).
            let mut exact = 0.0;
            for j in 0..=k {
                let l = eps * (2.0 * j as f64 - k as f64);
                if l > target {
                    let lb = amp_math::special::ln_binomial_whole(k, j);
                    let w = (lb + j as f64 * p.ln() + (k - j) as f64 * (1.0 - p).ln()).exp();
                    exact += w * (1.0 - (target - l).exp());
                }
            }
            let got = c.delta_for_epsilon(target);
            assert!(
                (got - exact).abs() <= 1e-12 + 1e-9 * exact,
                "ε = {eps}, k = {k}, t = {target}: {got:e} vs {exact:e}"
            );
        }
    }
}

/// Opacus's PRV accountant test (σ = 1.5, q = 0.04, 2250 steps, δ = 1e-5): ε = 6.77740, an upper
/// estimate within its default ε error of 0.01 (math-reference). The true ε lies in our band, and
/// our certified upper bound is within that 0.01 of theirs.
#[test]
fn opacus_prv_test_case() {
    let t = std::time::Instant::now();
    let (hi, lo) = bracket(1.5, 0.04, 2250, 1e-4);
    let (u, l) = (
        hi.epsilon_for_delta(1e-5).unwrap(),
        lo.epsilon_for_delta(1e-5).unwrap(),
    );
    eprintln!("Opacus case: ε ∈ [{l}, {u}] in {:?}", t.elapsed());
    assert!(l <= u);
    assert!(l <= u && l <= 6.7774, "[{l}, {u}]");
    assert!((u - 6.7774).abs() <= 0.01, "[{l}, {u}]");
}

/// The certified upper bound converges as the grid is refined (connect the dots: its error does
/// not grow with the number of steps like rounding up would), and the lower bound approaches it.
#[test]
fn finer_grid_narrows_the_band() {
    let (hi1, lo1) = bracket(1.5, 0.04, 2250, 2e-4);
    let (hi2, lo2) = bracket(1.5, 0.04, 2250, 5e-5);
    let (u1, l1) = (
        hi1.epsilon_for_delta(1e-5).unwrap(),
        lo1.epsilon_for_delta(1e-5).unwrap(),
    );
    let (u2, l2) = (
        hi2.epsilon_for_delta(1e-5).unwrap(),
        lo2.epsilon_for_delta(1e-5).unwrap(),
    );
    eprintln!("h = 2e-4: [{l1}, {u1}]; h = 5e-5: [{l2}, {u2}]");
    assert!(
        l1 <= l2 && l2 <= u2 && u2 <= u1 + 1e-9,
        "[{l1}, {u1}] then [{l2}, {u2}]"
    );
    assert!(u1 - u2 < 0.01, "upper bound moved by {}", u1 - u2);
}

/// Laplace with scale b, one step, q = 1: δ(ε) = 1 − e^{(ε − 1/b)/2} for ε < 1/b (both directions).
/// With q < 1 the subsampled mechanism is pure ε′-DP with ε′ = log(1 + q(e^{1/b} − 1)) (Steinke,
/// "Privacy amplification by subsampling"): δ vanishes from one grid step above ε′ on, and not
/// below.
#[test]
fn laplace_single_step_matches_closed_forms() {
    let h = 1e-4;
    for b in [0.5, 1.0, 2.0] {
        let hi = pld::poisson_laplace(b, 1.0, h, Estimate::Pessimistic).unwrap();
        let lo = pld::poisson_laplace(b, 1.0, h, Estimate::Optimistic).unwrap();
        for eps in [0.0, 0.2 / b, 0.9 / b] {
            let exact = 1.0 - ((eps - 1.0 / b) / 2.0).exp();
            let (u, l) = (hi.delta_for_epsilon(eps), lo.delta_for_epsilon(eps));
            assert!(
                l <= exact + 1e-12 && exact <= u + 1e-12,
                "b = {b}, ε = {eps}: {l} ≤ {exact} ≤ {u}"
            );
            assert!(u - exact < 1e-4, "b = {b}, ε = {eps}: {u} vs {exact}");
        }
        for q in [0.01, 0.3] {
            let eps_p = (q * (1.0 / b).exp_m1()).ln_1p();
            let p = pld::poisson_laplace(b, q, h, Estimate::Pessimistic).unwrap();
            assert!(
                p.delta_for_epsilon(eps_p + h) <= 2.0 * pld::RESOLUTION,
                "b = {b}, q = {q}"
            );
            assert!(p.delta_for_epsilon(eps_p * 0.9) > 0.0, "b = {b}, q = {q}");
            let lo = pld::poisson_laplace(b, q, h, Estimate::Optimistic).unwrap();
            assert!(lo.delta_for_epsilon(eps_p * 0.5) <= p.delta_for_epsilon(eps_p * 0.5));
        }
    }
}

/// Composing the same PLD in two parts equals composing it at once; a mixture of Gaussian and
/// Laplace steps lies between the pure compositions' ε.
#[test]
fn composition_of_parts_and_of_different_mechanisms() {
    let h = 1e-3;
    let g = pld::poisson_gaussian(1.0, 0.05, h, Estimate::Pessimistic).unwrap();
    let l = pld::poisson_laplace(1.0, 0.05, h, Estimate::Pessimistic).unwrap();
    let once = g.self_compose(50).unwrap().epsilon_for_delta(1e-5).unwrap();
    let parts = pld::PldPair::compose(&[(&g, 20), (&g, 30)])
        .unwrap()
        .epsilon_for_delta(1e-5)
        .unwrap();
    assert!((once - parts).abs() < 1e-9, "{once} vs {parts}");
    let ll = l.self_compose(50).unwrap().epsilon_for_delta(1e-5).unwrap();
    let mixed = pld::PldPair::compose(&[(&g, 25), (&l, 25)])
        .unwrap()
        .epsilon_for_delta(1e-5)
        .unwrap();
    assert!(
        mixed >= once.min(ll) - 1e-9 && mixed <= once.max(ll) + 1e-9,
        "{once} {mixed} {ll}"
    );
}

/// The step budget is the inverse of ε(steps): k steps fit, k + 1 do not (the accountants'
/// calibration over the number of steps, on a fixed grid).
#[test]
fn the_most_steps_invert_the_composition() {
    use amp_math::accounting::{calibrate_event, Event, PldAccountant, Search, Target};
    use amp_math::rdp::Mechanism;
    let g = pld::poisson_gaussian(1.0, 0.01, 1e-3, Estimate::Pessimistic).unwrap();
    let acc = PldAccountant::with_step(1e-3);
    let run = |k: f64| Event::poisson(Mechanism::Gaussian { sigma: 1.0 }, 0.01).repeated(k as u64);
    let target = |epsilon: f64| Target::Epsilon {
        epsilon,
        delta: 1e-5,
    };
    let k =
        calibrate_event(&acc, run, target(1.0), Search::Count { limit: 1_000_000 }).unwrap() as u64;
    let eps = |k: u64| g.self_compose(k).unwrap().epsilon_for_delta(1e-5).unwrap();
    assert!(k > 1, "{k}");
    assert!(
        eps(k) <= 1.0 && eps(k + 1) > 1.0,
        "k = {k}: {} {}",
        eps(k),
        eps(k + 1)
    );
    // Even one step misses a tiny target: no answer, said so.
    assert!(calibrate_event(&acc, run, target(1e-6), Search::Count { limit: 10 }).is_err());
}

#[test]
fn many_compositions_from_one_transform_match_single_ones() {
    let pair = pld::poisson_gaussian(1.2, 0.02, 2e-3, Estimate::Pessimistic).unwrap();
    let ks = [1u64, 7, 100, 1500];
    let many = pair.self_compose_many(&ks).unwrap();
    for (k, m) in ks.iter().zip(&many) {
        let one = pair.self_compose(*k).unwrap();
        for eps in [0.0, 0.5, 2.0] {
            let (a, b) = (one.delta_for_epsilon(eps), m.delta_for_epsilon(eps));
            assert!(
                (a - b).abs() <= 1e-12 + 1e-9 * a,
                "k = {k}, ε = {eps}: single {a:e}, many {b:e}"
            );
        }
    }
    assert!(pair.self_compose_many(&[3, 0]).is_err());
}

#[test]
fn budgeted_grid_fits_its_budget_and_its_band_holds_the_fine_value() {
    // The Opacus case: the fine band is [6.7540, 6.7688] (h = 1e-4).
    let noise = pld::Noise::Gaussian(1.5);
    let h = pld::step_for_budget(noise, 0.04, 2250, 30_000).unwrap();
    let pair = noise.poisson(0.04, h, Estimate::Pessimistic).unwrap();
    let span = pair.composed_span(2250);
    assert!(
        (20_000..=45_000).contains(&span),
        "h = {h:e} gives {span} buckets for a budget of 30000"
    );
    let band = pld::Band::within(noise, 0.04, 2250, 30_000, pld::STEP_RANGE.0).unwrap();
    let (hi, lo) = band.epsilon(1e-5).unwrap();
    assert!(lo <= 6.7540 && hi >= 6.7688, "coarse band [{lo}, {hi}]");
    assert!(hi < 6.7688 * 1.002, "coarse upper bound {hi} is loose");
    // δ of the band brackets, too.
    let (dh, dl) = band.delta(6.76);
    assert!(dl <= dh && dl > 0.0);
    // A small budget still gives a valid (wider) band.
    let small = pld::Band::within(noise, 0.04, 2250, 2_000, pld::STEP_RANGE.0).unwrap();
    let (shi, slo) = small.epsilon(1e-5).unwrap();
    assert!(
        slo <= lo + 1e-9 && shi >= hi - 1e-9,
        "[{slo}, {shi}] vs [{lo}, {hi}]"
    );
    // Laplace goes through the same path.
    let lap = pld::Band::within(pld::Noise::Laplace(2.0), 0.01, 1000, 8_000, 1e-4).unwrap();
    let (lh, ll) = lap.epsilon(1e-5).unwrap();
    assert!(ll <= lh && lh.is_finite() && ll > 0.0);
}

#[test]
fn calibration_to_a_stated_accuracy_meets_the_target() {
    let eps = |s: f64| {
        pld::Band::within(pld::Noise::Gaussian(s), 0.01, 1000, 4_000, 1e-4)
            .and_then(|b| b.epsilon(1e-5))
            .map(|e| e.0)
    };
    let s = amp_math::accounting::calibrate(
        eps,
        2.0,
        amp_math::accounting::Search::Noise { rel: 1e-3 },
    )
    .unwrap();
    assert!(eps(s).unwrap() <= 2.0);
    assert!(
        eps(s / 1.01).unwrap() > 2.0,
        "σ = {s} is more than 1% above the smallest"
    );
}

#[test]
fn delta_curve_matches_the_exact_sweep() {
    for est in [Estimate::Pessimistic, Estimate::Optimistic] {
        let c = pld::poisson_gaussian(1.0, 0.02, 1e-3, est)
            .unwrap()
            .self_compose(500)
            .unwrap();
        let eps: Vec<f64> = (0..80).map(|i| -0.5 + i as f64 * 0.07).collect();
        let curve = c.delta_curve(&eps);
        for (e, d) in eps.iter().zip(&curve) {
            let exact = c.delta_for_epsilon(*e);
            assert!(
                (d - exact).abs() <= 1e-14 + 1e-9 * exact,
                "{est:?} ε = {e}: curve {d:e}, sweep {exact:e}"
            );
        }
    }
}

#[test]
fn results_do_not_depend_on_earlier_transforms() {
    // The FFT's tables are cached per size: a composition must give the same bits whether or not
    // smaller (or larger) transforms ran before it (the app runs a quick pass before the refined one).
    let run = |h: f64| {
        pld::poisson_gaussian(1.5, 0.04, h, Estimate::Pessimistic)
            .unwrap()
            .self_compose(2250)
            .unwrap()
            .epsilon_for_delta(1e-5)
            .unwrap()
    };
    let h = 0.00011114406779661017;
    let fresh = std::thread::spawn(move || run(h)).join().unwrap();
    let after_small = std::thread::spawn(move || {
        run(8e-4);
        run(h)
    })
    .join()
    .unwrap();
    let after_large = std::thread::spawn(move || {
        run(3e-5);
        run(h)
    })
    .join()
    .unwrap();
    assert_eq!(
        fresh.to_bits(),
        after_small.to_bits(),
        "{fresh} vs {after_small}"
    );
    assert_eq!(
        fresh.to_bits(),
        after_large.to_bits(),
        "{fresh} vs {after_large}"
    );
}
