//! Events and accountants: the accountants give the same bits as the computations they replace
//! (one release), runs of phases agree with Google's dp_accounting (a committed table from
//! `tools/external/dp_accounting_phases.py`), the order of phases does not matter, and what an
//! accountant cannot account is a typed error.

use amp_math::accounting::{
    calibrate_event, Accountant, EpochSampler, EpochSettings, Event, Grid, PldAccountant,
    RdpAccountant, Sampler, Search, Target,
};
use amp_math::batching::{
    allocation_atoms, deterministic_epsilon, reshuffled_lower_pair, Neighbours,
};
use amp_math::pld::{self, Band, Estimate, Noise};
use amp_math::rdp::Mechanism;
use amp_math::rdp::{default_orders, epsilon_for_delta, Conversion, Curve, Sampling};
use amp_math::risk::RiskTarget;
use amp_math::{MathError, Relation};
use proptest::prelude::*;

fn gauss(sigma: f64) -> Mechanism {
    Mechanism::Gaussian { sigma }
}

fn phase(sigma: f64, q: f64, steps: u64) -> Event {
    Event::poisson(gauss(sigma), q).repeated(steps)
}

fn bits(x: f64) -> u64 {
    x.to_bits()
}

#[test]
fn one_poisson_release_is_the_band_it_replaces_bit_for_bit() {
    for (sigma, q, steps) in [(1.5, 0.04, 2250u64), (0.8, 0.1, 100), (5.0, 1.0, 3)] {
        let event = phase(sigma, q, steps);
        // A fixed grid (the CLI's).
        let band = PldAccountant::with_step(1e-3).band(&event).unwrap();
        let want = Band::new(Noise::Gaussian(sigma), q, steps, 1e-3).unwrap();
        assert_eq!(band, want, "σ = {sigma}, q = {q}, k = {steps}");
        // A budget (the pages').
        let acc = PldAccountant::with_budget(29_500, pld::STEP_RANGE.0, EpochSettings::FINE);
        let band = acc.band(&event).unwrap();
        let want =
            Band::within(Noise::Gaussian(sigma), q, steps, 29_500, pld::STEP_RANGE.0).unwrap();
        assert_eq!(band, want);
        let b = acc.epsilon(&event, 1e-5).unwrap();
        let (u, l) = want.epsilon(1e-5).unwrap();
        assert_eq!((bits(b.upper), b.lower.map(bits)), (bits(u), Some(bits(l))));
        // The calibration's measure is the upper bound alone.
        let m = acc
            .measure(
                &event,
                Target::Epsilon {
                    epsilon: 1.0,
                    delta: 1e-5,
                },
            )
            .unwrap();
        assert_eq!(bits(m), bits(u));
    }
    // Laplace, and the Gaussian without sampling as a plain mechanism.
    let lap = Event::poisson(Mechanism::Laplace { scale: 2.0 }, 0.05).repeated(40);
    let band = PldAccountant::with_step(1e-3).band(&lap).unwrap();
    assert_eq!(
        band,
        Band::new(Noise::Laplace(2.0), 0.05, 40, 1e-3).unwrap()
    );
    let full = Event::Mechanism(gauss(3.0)).repeated(7);
    assert_eq!(
        PldAccountant::with_step(1e-3).band(&full).unwrap(),
        Band::new(Noise::Gaussian(3.0), 1.0, 7, 1e-3).unwrap()
    );
}

#[test]
fn randomized_response_is_exact_on_a_step_dividing_epsilon() {
    let rr =
        Event::Mechanism(Mechanism::KaryRandomizedResponse { epsilon: 0.7, k: 4 }).repeated(30);
    let (step, pair) = PldAccountant::with_step(1e-3)
        .compose(&rr, Estimate::Pessimistic)
        .unwrap();
    let h = pld::step_dividing(0.7, 1e-3);
    assert_eq!(step, h);
    let want = pld::randomized_response(0.7, 4, h, Estimate::Pessimistic)
        .unwrap()
        .self_compose(30)
        .unwrap();
    assert_eq!(pair, want);
    assert_eq!(rr.relation(), Ok(Relation::ReplaceOne));
    // With a budget: the step still divides ε; a long run at a large ε is refused, not built.
    let acc = PldAccountant::with_budget(2_000, pld::STEP_RANGE.0, EpochSettings::FINE);
    let (step, _) = acc.compose(&rr, Estimate::Pessimistic).unwrap();
    assert!(((0.7 / step) - (0.7 / step).round()).abs() < 1e-9, "{step}");
    let long = Event::Mechanism(Mechanism::RandomizedResponse { epsilon: 5.0 }).repeated(1_000_000);
    let tiny = PldAccountant::with_budget(16, pld::STEP_RANGE.0, EpochSettings::FINE);
    match tiny.band(&long) {
        Err(e) => assert!(e.to_string().contains("randomized response"), "{e}"),
        Ok(b) => panic!("built a band of step {}", b.step),
    }
}

#[test]
fn epoch_samplers_alone_are_the_batching_bounds() {
    let (sigma, t, up, low) = (1.0, 100u64, 3u64, 2u64);
    let shuffled = Event::Epochs {
        sampler: EpochSampler::Shuffled,
        mechanism: gauss(sigma),
        steps_per_epoch: t,
        upper_epochs: up,
        lower_epochs: low,
    };
    let acc = PldAccountant::with_step(1e-3);
    let b = acc.epsilon(&shuffled, 1e-6).unwrap();
    let upper = deterministic_epsilon(sigma, up, Neighbours::ZeroOut, 1e-6).unwrap();
    let lower = reshuffled_lower_pair(sigma, t, low, 20_000, 1e-4)
        .unwrap()
        .epsilon_for_delta(1e-6)
        .unwrap();
    assert_eq!(bits(b.upper), bits(upper));
    assert_eq!(b.lower.map(bits), Some(bits(lower.min(upper))));
    assert_eq!(shuffled.relation(), Ok(Relation::ZeroOut));

    let balls = Event::Epochs {
        sampler: EpochSampler::BallsInBins,
        mechanism: gauss(sigma),
        steps_per_epoch: t,
        upper_epochs: up,
        lower_epochs: low,
    };
    let quick = PldAccountant {
        grid: Grid::Step(1e-3),
        epochs: EpochSettings::QUICK,
    };
    let g = EpochSettings::QUICK.log_step_for(sigma, t);
    // One epoch's atoms on the accountant's grid (1e-3), composed.
    let one_up = allocation_atoms(sigma, t, g, Estimate::Pessimistic)
        .unwrap()
        .pld(1e-3);
    let one_low = allocation_atoms(sigma, t, g, Estimate::Optimistic)
        .unwrap()
        .pld(1e-3);
    let want_up = one_up
        .self_compose(up)
        .unwrap()
        .epsilon_for_delta(1e-6)
        .unwrap();
    let want_low = one_low
        .self_compose(low)
        .unwrap()
        .epsilon_for_delta(1e-6)
        .unwrap();
    let b = quick.epsilon(&balls, 1e-6).unwrap();
    assert_eq!(bits(b.upper), bits(want_up));
    assert_eq!(b.lower.map(bits), Some(bits(want_low.min(want_up))));
    // Balls in bins never above shuffling's certified bound here, and below Poisson's band top?
    // (Not a theorem in general; only the ordering lower ≤ upper is.)
    assert!(b.lower.unwrap() <= b.upper);
}

/// The committed dp_accounting table of runs of phases: ours (pessimistic, grid 1e-4, dp_accounting's
/// default) within 0.2% of theirs, and theirs inside our band to 0.2%.
#[test]
fn runs_of_phases_agree_with_dp_accounting() {
    let table = include_str!("data/pld_dp_accounting_phases.csv");
    let mut rows = 0;
    for line in table.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let cols: Vec<&str> = line.split(',').collect();
        let phases: Vec<Event> = cols[0]
            .split('|')
            .map(|p| {
                let v: Vec<&str> = p.split(':').collect();
                phase(
                    v[0].parse().unwrap(),
                    v[1].parse().unwrap(),
                    v[2].parse().unwrap(),
                )
            })
            .collect();
        let delta: f64 = cols[1].parse().unwrap();
        let theirs: f64 = cols[2].parse().unwrap();
        let run = Event::Composed(phases.clone());
        let acc = PldAccountant::with_step(pld::DEFAULT_STEP);
        let b = acc.epsilon(&run, delta).unwrap();
        let lower = b.lower.unwrap();
        assert!(
            ((b.upper - theirs) / theirs).abs() <= 2e-3,
            "{line}: ours {} vs theirs {theirs}",
            b.upper
        );
        assert!(
            lower <= theirs * 1.002 && theirs <= b.upper * 1.002,
            "{line}: theirs {theirs} outside [{lower}, {}]",
            b.upper
        );
        // The order of the phases does not change ε (up to the FFT's rounding).
        let reversed = Event::Composed(phases.into_iter().rev().collect());
        let r = acc.epsilon(&reversed, delta).unwrap();
        assert!(
            ((r.upper - b.upper) / b.upper).abs() < 1e-9,
            "{line}: {} vs {}",
            r.upper,
            b.upper
        );
        rows += 1;
    }
    assert!(rows >= 14, "{rows} rows");
}

#[test]
fn two_phases_of_one_setting_are_one_phase_bit_for_bit() {
    let acc = PldAccountant::with_step(1e-3);
    let split = Event::Composed(vec![phase(1.1, 0.01, 400), phase(1.1, 0.01, 600)]);
    let whole = phase(1.1, 0.01, 1000);
    assert_eq!(acc.band(&split).unwrap(), acc.band(&whole).unwrap());
    let rdp = RdpAccountant::default();
    assert_eq!(
        rdp.converted(&split, 1e-5).unwrap(),
        rdp.converted(&whole, 1e-5).unwrap()
    );
}

#[test]
fn the_rdp_accountant_is_the_curve_it_replaces() {
    let rdp = RdpAccountant::default();
    let event = phase(1.3, 0.0025, 6000);
    let want = Curve::of(
        &gauss(1.3),
        Sampling::Poisson { q: 0.0025 },
        &default_orders(),
    )
    .unwrap()
    .times(6000.0);
    assert_eq!(rdp.curve(&event).unwrap(), want);
    let c = rdp.converted(&event, 1e-5).unwrap();
    assert_eq!(
        c,
        epsilon_for_delta(&want, 1e-5, Conversion::Improved).unwrap()
    );
    // TensorFlow Privacy's MNIST case, minimised over the order: 0.72406 at α = 19.1.
    assert!(
        (c.epsilon - 0.724_06).abs() < 1e-5 && c.order == 19.1,
        "{c:?}"
    );
    // Two phases: the sum of the curves.
    let run = Event::Composed(vec![phase(0.8, 0.01, 300), phase(1.5, 0.02, 1000)]);
    let a = rdp.curve(&phase(0.8, 0.01, 300)).unwrap();
    let b = rdp.curve(&phase(1.5, 0.02, 1000)).unwrap();
    let sum = rdp.curve(&run).unwrap();
    for i in 0..sum.rdp.len() {
        let s = a.rdp[i] + b.rdp[i];
        assert!(
            (sum.rdp[i] - s).abs() <= 1e-15 * s,
            "order {}",
            sum.orders[i]
        );
    }
    // RDP's ε is an upper bound: never below the PLD's lower bound.
    let pld_lower = PldAccountant::with_step(1e-4)
        .epsilon(&run, 1e-5)
        .unwrap()
        .lower
        .unwrap();
    assert!(rdp.epsilon(&run, 1e-5).unwrap().upper >= pld_lower);
    assert!(rdp.is_exact(&run).unwrap());
}

#[test]
fn what_an_accountant_cannot_account_is_a_typed_error() {
    let wor = Event::Sampled {
        sampler: Sampler::WithoutReplacement { m: 10, n: 1000 },
        mechanism: gauss(1.0),
    }
    .repeated(10);
    let err = PldAccountant::with_step(1e-3)
        .epsilon(&wor, 1e-5)
        .unwrap_err();
    assert!(matches!(err, MathError::Unsupported { .. }), "{err}");
    assert!(err.to_string().contains("Rényi DP"), "{err}");
    // … which the RDP accountant bounds.
    assert!(RdpAccountant::default().epsilon(&wor, 1e-5).is_ok());
    let wr = Event::Sampled {
        sampler: Sampler::WithReplacement { m: 10, n: 1000 },
        mechanism: gauss(1.0),
    };
    assert!(matches!(
        RdpAccountant::default().epsilon(&wr, 1e-5),
        Err(MathError::Unsupported { .. })
    ));
    let epochs = Event::Epochs {
        sampler: EpochSampler::BallsInBins,
        mechanism: gauss(1.0),
        steps_per_epoch: 10,
        upper_epochs: 1,
        lower_epochs: 1,
    };
    assert!(matches!(
        RdpAccountant::default().epsilon(&epochs, 1e-5),
        Err(MathError::Unsupported { .. })
    ));
    let risk = Target::Risk(RiskTarget::Advantage(0.1));
    assert!(matches!(
        RdpAccountant::default().measure(&phase(1.0, 0.01, 10), risk),
        Err(MathError::Unsupported { .. })
    ));
    let sampled_rr = Event::poisson(Mechanism::RandomizedResponse { epsilon: 1.0 }, 0.1);
    assert!(matches!(
        PldAccountant::with_step(1e-3).epsilon(&sampled_rr, 1e-5),
        Err(MathError::Unsupported { .. })
    ));
}

#[test]
fn a_run_too_long_for_any_grid_says_so_in_the_readers_terms() {
    let event = phase(0.1, 1.0, 1_000_000_000_000);
    let err = PldAccountant::with_step(1e-4)
        .epsilon(&event, 1e-5)
        .unwrap_err()
        .to_string();
    assert!(err.contains("far beyond any useful guarantee"), "{err}");
    assert!(!err.contains("13510798882111488"), "{err}");
}

#[test]
fn mixed_samplers_compose_under_zero_out() {
    let balls = Event::Epochs {
        sampler: EpochSampler::BallsInBins,
        mechanism: gauss(1.0),
        steps_per_epoch: 50,
        upper_epochs: 2,
        lower_epochs: 2,
    };
    let shuffled = Event::Epochs {
        sampler: EpochSampler::Shuffled,
        mechanism: gauss(1.0),
        steps_per_epoch: 50,
        upper_epochs: 2,
        lower_epochs: 2,
    };
    let poisson = phase(1.0, 0.02, 100);
    let acc = PldAccountant {
        grid: Grid::Budget {
            buckets: 29_500,
            min_step: pld::STEP_RANGE.0,
        },
        epochs: EpochSettings::QUICK,
    };
    for other in [balls, shuffled] {
        let run = Event::Composed(vec![poisson.clone(), other.clone()]);
        assert_eq!(run.relation(), Ok(Relation::ZeroOut));
        let both = acc.epsilon(&run, 1e-6).unwrap();
        let alone = acc.epsilon(&poisson, 1e-6).unwrap();
        let second = acc.epsilon(&other, 1e-6).unwrap();
        let lower = both.lower.unwrap();
        assert!(lower <= both.upper, "{lower} > {}", both.upper);
        // Composing more never makes the run more private.
        assert!(both.upper >= alone.upper && both.upper >= second.upper);
        // And never costs more than adding the parts' ε (basic composition at δ split in two is
        // weaker than this, so compare with the parts at half the δ).
        let (a, b) = (
            acc.epsilon(&poisson, 5e-7).unwrap().upper,
            acc.epsilon(&other, 5e-7).unwrap().upper,
        );
        assert!(both.upper <= a + b + 1e-9, "{} > {a} + {b}", both.upper);
    }
}

#[test]
fn calibration_holds_the_target_over_a_run_of_phases() {
    // The σ that, used in both phases (each keeping its rate and length), meets ε = 2 at δ = 1e-5.
    let acc = PldAccountant::with_step(1e-3);
    let run = |s: f64| Event::Composed(vec![phase(s, 0.01, 300), phase(s, 0.02, 1000)]);
    let target = Target::Epsilon {
        epsilon: 2.0,
        delta: 1e-5,
    };
    let s = calibrate_event(&acc, run, target, Search::Noise { rel: 1e-5 }).unwrap();
    assert!(acc.epsilon(&run(s), 1e-5).unwrap().upper <= 2.0);
    assert!(acc.epsilon(&run(s * 0.99), 1e-5).unwrap().upper > 2.0);
    // The most steps of the second phase that still meet the target.
    let more = |k: f64| Event::Composed(vec![phase(1.2, 0.01, 300), phase(1.2, 0.02, k as u64)]);
    let k = calibrate_event(&acc, more, target, Search::Count { limit: 1 << 30 }).unwrap() as u64;
    assert!(acc.epsilon(&more(k as f64), 1e-5).unwrap().upper <= 2.0);
    assert!(acc.epsilon(&more((k + 1) as f64), 1e-5).unwrap().upper > 2.0);
    // The largest rate of one phase that meets it.
    let rate = |q: f64| phase(1.0, q, 1000);
    let q = calibrate_event(
        &acc,
        rate,
        target,
        Search::Rate {
            floor: 1e-6,
            rel: 1e-4,
        },
    )
    .unwrap();
    assert!(acc.epsilon(&rate(q), 1e-5).unwrap().upper <= 2.0);
    assert!(acc.epsilon(&rate(q * 1.001), 1e-5).unwrap().upper > 2.0);
    // RDP through the same function.
    let rdp = RdpAccountant::default();
    let s_rdp = calibrate_event(&rdp, run, target, Search::Noise { rel: 1e-5 }).unwrap();
    assert!(
        s_rdp >= s * 0.999,
        "RDP needs at least the PLD's noise: {s_rdp} vs {s}"
    );
    // An attack target: the PLD accountant bounds it, through the same function.
    let tpr = Target::Risk(RiskTarget::Tpr {
        fpr: 0.01,
        tpr: 0.05,
    });
    let s_tpr = calibrate_event(&acc, run, tpr, Search::Noise { rel: 1e-4 }).unwrap();
    assert!(acc.measure(&run(s_tpr), tpr).unwrap() <= 0.05);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Lower ≤ upper; more steps in a phase never lower ε; the order of phases does not matter.
    #[test]
    fn bands_are_ordered_monotone_and_commutative(
        s1 in 0.7f64..4.0, s2 in 0.7f64..4.0,
        q1 in 0.001f64..0.2, q2 in 0.001f64..0.2,
        k1 in 1u64..400, k2 in 1u64..400,
    ) {
        let acc = PldAccountant::with_budget(8_000, pld::STEP_RANGE.0, EpochSettings::QUICK);
        let a = phase(s1, q1, k1);
        let b = phase(s2, q2, k2);
        let ab = acc.epsilon(&Event::Composed(vec![a.clone(), b.clone()]), 1e-5).unwrap();
        prop_assert!(ab.lower.unwrap() <= ab.upper + 1e-12);
        let ba = acc.epsilon(&Event::Composed(vec![b.clone(), a.clone()]), 1e-5).unwrap();
        prop_assert!((ab.upper - ba.upper).abs() <= 1e-9 * ab.upper.max(1e-9));
        let longer = acc
            .epsilon(&Event::Composed(vec![a, phase(s2, q2, k2 + 50)]), 1e-5)
            .unwrap();
        // A longer run on a (possibly) coarser grid: compare certified with certified, allowing
        // the band's width for the grid change.
        prop_assert!(longer.upper >= ab.lower.unwrap() - 1e-9);
    }
}
