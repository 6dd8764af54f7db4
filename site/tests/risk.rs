//! The risk page's numbers against what they must be: the exact Gaussian case, the order of the
//! bands and summaries, calibration that meets its target, and the figures' agreement with the
//! readouts.
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here

use amp_model::param as p;
use amp_model::params::{ParamValues, Value};
use amp_site::figures::FigureId;
use amp_site::pages::risk::{
    ADVANTAGE, ADVANTAGE_LOWER, BAYES, BAYES_LOWER, EPS_DELTA_TPR, GDP_ALPHA_MIN, GDP_MU,
    GDP_MU_CLT, GDP_REGRET, SENTENCE, SIGMA_FOR_ADVANTAGE, SIGMA_FOR_EPSILON, SIGMA_FOR_RISK,
    STEPS_FOR_RISK, TPR_AT_FPR, TPR_AT_FPR_LOWER, TPR_TABLE,
};
use amp_site::pages::{is_relevant, Page, Precision, View};

fn values(pairs: &[(&str, &str)]) -> ParamValues {
    let mut v = ParamValues::default();
    for (k, x) in pairs {
        let spec = amp_model::param::by_name(k).unwrap();
        v.set(spec, spec.parse(x).unwrap()).unwrap();
    }
    v
}

#[test]
fn without_sampling_the_gaussian_band_contains_its_exact_gdp_curve() {
    // σ = 2, k = 16: μ = 2 exactly. Φ(Φ⁻¹(0.01) + 2) and 2Φ(1) − 1 from mpmath (30 digits).
    let v = values(&[
        ("mech", "gaussian"),
        ("sigma", "2"),
        ("q", "1"),
        ("steps", "16"),
        ("fpr", "0.01"),
        ("prior", "0.2"),
        ("delta", "1e-5"),
    ]);
    let r = (Page::Risk.spec().readouts)(&v, Precision::Fine);
    let exact = 0.372_080_585_435_494_4;
    let (up, lo) = (
        r.number(&TPR_AT_FPR).unwrap(),
        r.number(&TPR_AT_FPR_LOWER).unwrap(),
    );
    assert!(lo <= exact && exact <= up, "{lo} ≤ {exact} ≤ {up}");
    assert!((up - lo) / exact < 1e-3, "band [{lo}, {up}]");
    assert_eq!(r.number(&GDP_MU_CLT).unwrap(), 2.0);
    // The numeric μ of the certified curve finds it (an upper bound, to the grid's accuracy),
    // with no regret, and holds down to the floor of 1e-10 at least.
    let mu = r.number(&GDP_MU).unwrap();
    assert!((2.0..=2.0 * (1.0 + 1e-5)).contains(&mu), "{mu}");
    assert!(r.number(&GDP_REGRET).unwrap() < 1e-5);
    assert!(r.number(&GDP_ALPHA_MIN).unwrap() <= 1e-10);
    // The advantage of μ-GDP is 2Φ(μ/2) − 1.
    let adv = 0.682_689_492_137_085_9;
    let (a_up, a_lo) = (
        r.number(&ADVANTAGE).unwrap(),
        r.number(&ADVANTAGE_LOWER).unwrap(),
    );
    assert!(a_lo <= adv && adv <= a_up, "{a_lo} ≤ {adv} ≤ {a_up}");
    // Bayes success at π = 0.2: at least 0.8 (guess "out"), within its band.
    let (b_up, b_lo) = (r.number(&BAYES).unwrap(), r.number(&BAYES_LOWER).unwrap());
    assert!(
        0.8 <= b_lo && b_lo <= b_up && b_up <= 1.0,
        "[{b_lo}, {b_up}]"
    );
    // What (ε, δ) alone allows is more than the curve itself.
    assert!(r.number(&EPS_DELTA_TPR).unwrap() > up);
    // The table: 0.1%, 1% (the reader's) and 10%; its 1% row is the readout.
    let rows = r.rows(&TPR_TABLE).unwrap().as_ref().unwrap();
    assert_eq!(rows.len(), 3);
    let yours = rows.iter().find(|row| row.tag == "yours").unwrap();
    assert_eq!(yours.value, Some(up));
    // The numeric μ's TPR at 1%: μ ≈ 2, Φ(Φ⁻¹(0.01) + 2) = 37.2%.
    assert_eq!(yours.notes[2], "37.2%", "{:?}", yours.notes);
    assert!(rows.windows(2).all(|w| w[0].value < w[1].value));
    let sentence = r.text(&SENTENCE).unwrap();
    assert!(sentence.contains("at most 1% of non-members"), "{sentence}");
}

#[test]
fn the_calibrated_noise_meets_the_target_and_a_little_less_does_not() {
    let mut v = values(&[
        ("mech", "gaussian"),
        ("q", "0.01"),
        ("steps", "500"),
        ("fpr", "0.01"),
        ("target-tpr", "0.04"),
        ("delta", "1e-5"),
        ("target-eps", "1"),
    ]);
    let r = (Page::Risk.spec().readouts)(&v, Precision::Fine);
    let s = r.number(&SIGMA_FOR_RISK).unwrap();
    let s_eps = r.number(&SIGMA_FOR_EPSILON).unwrap();
    assert!(s < s_eps, "σ for the attack {s}, for ε {s_eps}");
    // The refined calibration evaluates on the quick budget's grid: the quick readouts at σ meet
    // the target, at 1% less σ they do not.
    v.set(p::SIGMA.spec, Value::Real(s)).unwrap();
    let at = (Page::Risk.spec().readouts)(&v, Precision::Quick);
    assert!(at.number(&TPR_AT_FPR).unwrap() <= 0.04);
    v.set(p::SIGMA.spec, Value::Real(0.99 * s)).unwrap();
    let below = (Page::Risk.spec().readouts)(&v, Precision::Quick);
    assert!(below.number(&TPR_AT_FPR).unwrap() > 0.04);
    // The advantage target: met at its σ, missed at 1% less.
    let s_adv = r.number(&SIGMA_FOR_ADVANTAGE).unwrap();
    let target = v.real(p::TARGET_ADVANTAGE);
    v.set(p::SIGMA.spec, Value::Real(s_adv)).unwrap();
    let at = (Page::Risk.spec().readouts)(&v, Precision::Quick);
    assert!(at.number(&ADVANTAGE).unwrap() <= target);
    v.set(p::SIGMA.spec, Value::Real(0.99 * s_adv)).unwrap();
    let below = (Page::Risk.spec().readouts)(&v, Precision::Quick);
    assert!(below.number(&ADVANTAGE).unwrap() > target);
    // The inverse in steps, at σ = 1: the quick readouts meet the target after the steps found
    // and miss it one step later (the refined search evaluates on the quick budget's grid).
    v.set(p::SIGMA.spec, Value::Real(1.0)).unwrap();
    let r = (Page::Risk.spec().readouts)(&v, Precision::Fine);
    let k = r.number(&STEPS_FOR_RISK).unwrap() as u64;
    assert!(k > 1, "{k}");
    v.set(p::STEPS.spec, Value::Count(k)).unwrap();
    let at = (Page::Risk.spec().readouts)(&v, Precision::Quick);
    assert!(at.number(&TPR_AT_FPR).unwrap() <= 0.04);
    v.set(p::STEPS.spec, Value::Count(k + 1)).unwrap();
    let after = (Page::Risk.spec().readouts)(&v, Precision::Quick);
    assert!(after.number(&TPR_AT_FPR).unwrap() > 0.04);
    // A target at or below the FPR has no answer, said in words.
    v.set(p::TARGET_TPR.spec, Value::Real(0.01)).unwrap();
    let r = (Page::Risk.spec().readouts)(&v, Precision::Quick);
    assert!(r.number(&SIGMA_FOR_RISK).is_err());
}

#[test]
fn randomized_response_is_accounted_without_sampling_and_has_no_noise_to_calibrate() {
    let v = values(&[
        ("mech", "randomized-response"),
        ("eps", "1"),
        ("steps", "4"),
    ]);
    assert!(!is_relevant(View::Page(Page::Risk), &v, p::Q.spec));
    assert!(is_relevant(View::Page(Page::Renyi), &v, p::Q.spec));
    let r = (Page::Risk.spec().readouts)(&v, Precision::Quick);
    assert!(r.number(&SIGMA_FOR_RISK).is_err());
    // No closed-form μ for randomized response; the numeric one of its curve exists (its
    // privacy loss is bounded, so it is μ-GDP for a finite μ).
    assert!(r.number(&GDP_MU_CLT).is_err());
    let mu = r.number(&GDP_MU).unwrap();
    assert!(mu > 0.0 && mu.is_finite(), "{mu}");
    // One release of binary randomized response at ε = 1 (k = 1 here is not the default 4).
    let one = values(&[
        ("mech", "randomized-response"),
        ("eps", "1"),
        ("steps", "1"),
    ]);
    let r = (Page::Risk.spec().readouts)(&one, Precision::Quick);
    // Its curve is exactly the (ε, 0) region: TPR = e·α for α ≤ 1/(1 + e).
    let tpr = r.number(&TPR_AT_FPR).unwrap();
    let exact = std::f64::consts::E * 0.01;
    assert!((tpr - exact).abs() < 1e-9, "{tpr} vs {exact}");
    assert!(r.text(&SENTENCE).unwrap().contains("person's value"));
}

#[test]
fn the_trade_off_figure_marks_the_readout_in_both_views() {
    for view in ["beta", "roc"] {
        let v = values(&[
            ("mech", "gaussian"),
            ("sigma", "1"),
            ("q", "0.01"),
            ("steps", "1000"),
            ("fpr", "0.001"),
            ("view", view),
        ]);
        let chart = FigureId::TradeoffCurve.spec().chart(&v).unwrap();
        let r = (Page::Risk.spec().readouts)(&v, Precision::Quick);
        let tpr = r.number(&TPR_AT_FPR).unwrap();
        let m = &chart.markers[0];
        assert_eq!(m.x, 0.001);
        let want = if view == "roc" { tpr } else { 1.0 - tpr };
        assert_eq!(m.y, want, "{view}");
        assert_eq!(chart.x.log, view == "roc");
        // The band, the certified curve, (ε, δ), Rényi DP, the numeric and the central-limit
        // GDP curves and random guessing.
        assert_eq!(chart.series.len(), 6, "{view}");
        assert_eq!(chart.bands.len(), 1);
    }
    // At the smallest α the control allows, the reader's point is still inside the log axes.
    let v = values(&[
        ("fpr", "1e-9"),
        ("view", "roc"),
        ("sigma", "1"),
        ("q", "0.01"),
    ]);
    let chart = FigureId::TradeoffCurve.spec().chart(&v).unwrap();
    let m = &chart.markers[0];
    assert!(
        chart.x.min <= m.x && m.x <= chart.x.max,
        "{} not in [{}, {}]",
        m.x,
        chart.x.min,
        chart.x.max
    );
    assert!(chart.y.min <= m.y && m.y <= chart.y.max);
}

#[test]
fn the_training_pages_attacker_follows_the_loops_sampler() {
    // σ = 2 and 4 epochs of T = 100 steps: a shuffled loop's certified trade-off is μ-GDP with
    // μ = √4/2 = 1 exactly (every fixed order composes four Gaussian steps). Φ(Φ⁻¹(0.01) + 1) and
    // 2Φ(1/2) − 1 from mpmath (30 digits).
    use amp_math::Relation;
    use amp_site::pages::training::{RUN_ADVANTAGE, RUN_ATTACK, RUN_BAYES, RUN_TPR};
    let run = |batching: &str| {
        let v = values(&[
            ("dataset", "1000"),
            ("batch", "10"),
            ("length", "epochs"),
            ("epochs", "4"),
            ("mech", "gaussian"),
            ("sigma", "2"),
            ("delta", "1e-5"),
            ("fpr", "0.01"),
            ("prior", "0.5"),
            ("batching", batching),
        ]);
        (Page::Training.spec().readouts)(&v, Precision::Fine)
    };
    let shuffle = run("shuffle");
    let tpr = shuffle.number(&RUN_TPR).unwrap();
    let exact = 0.092_362_248_073_693_94;
    assert!(
        exact <= tpr && tpr < exact * 1.001,
        "shuffled TPR {tpr} against μ-GDP's {exact}"
    );
    let adv = shuffle.number(&RUN_ADVANTAGE).unwrap();
    let exact_adv = 0.382_924_922_548_026_2;
    assert!(
        exact_adv <= adv && adv < exact_adv + 1e-3,
        "advantage {adv} against {exact_adv}"
    );
    assert_eq!(shuffle.get(&RUN_TPR).unwrap().relation, Relation::ZeroOut);
    // At the prior ½ the best guess succeeds with (1 + advantage)/2.
    let bayes = shuffle.number(&RUN_BAYES).unwrap();
    assert!(
        (bayes - (1.0 + adv) / 2.0).abs() < 1e-6,
        "{bayes} against {adv}"
    );
    assert!(shuffle.text(&RUN_ATTACK).unwrap().contains("1%"));
    // Balls in bins is never above fixed batches, and not below what α alone gives; Poisson is
    // on add/remove, the same pair.
    let balls = run("balls-in-bins");
    let b = balls.number(&RUN_TPR).unwrap();
    assert!(0.01 <= b && b < tpr, "balls in bins {b}, shuffle {tpr}");
    assert!(balls.number(&RUN_ADVANTAGE).unwrap() < adv);
    assert_eq!(balls.get(&RUN_TPR).unwrap().relation, Relation::ZeroOut);
    let poisson = run("poisson");
    assert_eq!(poisson.get(&RUN_TPR).unwrap().relation, Relation::AddRemove);
    assert!(poisson.number(&RUN_TPR).unwrap() < tpr);
}

/// The Rényi DP profile the figures draw (minimised over the grid's orders only) is an upper bound
/// on the refined conversion's δ, and within 5% of it, for DP-SGD runs across the pages' range.
#[test]
fn drawn_rdp_profile_bounds_the_refined_one_closely() {
    use amp_math::rdp::{self, default_orders, Conversion, Curve, Mechanism, Sampling};
    use amp_model::renyi::drawn_rdp_delta;
    let mut worst: f64 = 0.0;
    let mut checked = 0;
    for (sigma, q, steps) in [
        (1.0, 0.01, 1_000.0),
        (5.0, 256.0 / 60_000.0, 703.0),
        (0.8, 0.004, 10_000.0),
        (2.0, 0.1, 50.0),
        (1.0, 1.0, 1.0),
    ] {
        let curve = Curve::of(
            &Mechanism::Gaussian { sigma },
            Sampling::Poisson { q },
            &default_orders(),
        )
        .unwrap()
        .times(steps);
        for i in 0..=32 {
            let e = 0.25 * i as f64;
            let refined = rdp::delta_for_epsilon(&curve, e, Conversion::Improved)
                .unwrap()
                .delta;
            let drawn = drawn_rdp_delta(&curve, e).unwrap();
            if refined < 1e-12 {
                continue;
            }
            assert!(
                drawn >= refined * (1.0 - 1e-12),
                "σ {sigma}, q {q}, k {steps}, ε {e}: {drawn} < {refined}"
            );
            worst = worst.max(drawn / refined - 1.0);
            checked += 1;
        }
    }
    assert!(checked > 60, "{checked}");
    assert!(
        worst < 0.05,
        "drawn δ up to {:.2}% above the refined one",
        100.0 * worst
    );
    println!(
        "drawn δ at most {:.3}% above the refined one",
        100.0 * worst
    );
}

/// The iteration page's attacker view ([`amp_model::iteration::attack_tpr`]) on a curve that is
/// exactly a Gaussian mechanism's, ε(α) = αμ²/2: it never claims less than the Gaussian's own
/// optimal test reaches, Φ(Φ⁻¹(α) + μ) (Dong, Roth & Su 2019; values from mpmath at 30 digits),
/// and it stays within the loss of reading a Rényi curve as (ε, δ) pairs.
#[test]
fn the_attacker_view_of_a_renyi_curve_bounds_the_gaussian_test() {
    use amp_math::rdp::{default_orders, Curve};
    for (mu, exact) in [
        (0.25, 0.018_930_894_265_546_31),
        (0.5, 0.033_898_939_122_842_78),
        (1.0, 0.092_362_248_073_693_94),
        (2.0, 0.372_080_585_435_494_3),
    ] {
        let orders = default_orders();
        let rdp = orders.iter().map(|a| a * mu * mu / 2.0).collect();
        let tpr = amp_model::iteration::attack_tpr(&Curve::sampled(orders, rdp), 0.01).unwrap();
        assert!(tpr >= exact, "μ = {mu}: {tpr} below the Gaussian's {exact}");
        assert!(
            tpr <= 1.6 * exact,
            "μ = {mu}: {tpr} against the Gaussian's {exact}"
        );
    }
}

/// The attacker view of the many-pass bound moves as the bound does: it grows with T before the
/// burn-in (about 20,000 steps at the defaults) and stays put after it.
#[test]
fn the_many_pass_attacker_view_levels_off_after_the_burn_in() {
    let at = |t: &str| {
        amp_model::iteration::many_pass_readouts(&values(&[("pass-steps", t)]))
            .attack
            .unwrap()
    };
    let (a, b, c, d) = (at("100"), at("2000"), at("200000"), at("2000000"));
    assert!(0.01 < a && a < b && b < c, "{a} {b} {c}");
    assert!((c - d).abs() <= 1e-9 * c, "{c} {d}");
    // Never above what the readout's own (ε, δ) allows, up to the grid's spacing in ε (under a
    // tenth of ε here): δ + e^{1.1ε}·1% at the last iterate's ε at δ = 10⁻⁶.
    for t in ["100", "200000"] {
        let m = amp_model::iteration::many_pass_readouts(&values(&[("pass-steps", t)]));
        let (eps, tpr) = (m.last.unwrap(), m.attack.unwrap());
        assert!(
            tpr <= 1e-6 + (1.1 * eps).exp() * 0.01,
            "T = {t}: {tpr} at ε = {eps}"
        );
    }
}
