//! The attacker's view (amp_math::risk) against mpmath (tools/reference/risk.py) and the exact
//! cases the issue names: the Gaussian mechanism is μ-GDP, randomized response has a
//! piecewise-linear curve, (ε, δ) gives the four-segment region.

use amp_math::pld::{randomized_response, step_dividing, Band, Estimate, Noise, PldPair};
use amp_math::risk::*;
use amp_math::special::normal_quantile;

struct Row {
    kind: String,
    x: [String; 4],
    value: f64,
}

fn rows() -> Vec<Row> {
    let text = include_str!("data/risk.csv");
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')).skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), 6, "{line}");
        out.push(Row {
            kind: f[0].to_string(),
            x: [f[1], f[2], f[3], f[4]].map(str::to_string),
            value: f[5].parse().unwrap(),
        });
    }
    out
}

fn num(s: &str) -> f64 {
    s.parse().unwrap()
}

fn rel(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs().max(1e-300)
}

#[test]
fn normal_quantile_matches_mpmath() {
    let mut n = 0;
    for r in rows().iter().filter(|r| r.kind == "quantile") {
        let p = num(&r.x[0]);
        let z = normal_quantile(p);
        // Near p = 1 the input itself is only known to 1e-16 absolute: compare in p's units.
        let tol = if p > 0.99 { 1e-10 } else { 1e-14 };
        assert!(
            (z - r.value).abs() <= tol * r.value.abs().max(1.0),
            "p = {p}: {z} vs {}",
            r.value
        );
        n += 1;
    }
    assert!(n >= 10);
}

#[test]
fn gdp_curve_matches_mpmath() {
    let mut n = 0;
    for r in rows().iter().filter(|r| r.kind == "gdp") {
        let (mu, a) = (num(&r.x[0]), num(&r.x[1]));
        let t = gdp_tpr(mu, a).unwrap();
        assert!(
            rel(t, r.value) <= 1e-13,
            "μ = {mu}, α = {a}: {t} vs {}",
            r.value
        );
        // And back: the μ through that point.
        if r.value < 1.0 - 1e-9 {
            let m = gdp_mu_for_tpr(a, t).unwrap();
            assert!(
                (m - mu).abs() <= 1e-9 * mu.max(1.0),
                "μ = {mu}, α = {a}: {m}"
            );
        }
        n += 1;
    }
    assert!(n >= 20);
}

#[test]
fn clt_mu_matches_mpmath() {
    for r in rows().iter().filter(|r| r.kind == "clt") {
        let (q, s, k) = (num(&r.x[0]), num(&r.x[1]), num(&r.x[2]) as u64);
        let m = clt_mu(q, s, k).unwrap();
        assert!(rel(m, r.value) <= 1e-14, "{q} {s} {k}: {m} vs {}", r.value);
    }
}

#[test]
fn eps_delta_region_matches_the_canonical_pair() {
    let mut n = 0;
    for r in rows().iter().filter(|r| r.kind == "epsdelta") {
        let (e, d, a) = (num(&r.x[0]), num(&r.x[1]), num(&r.x[2]));
        let t = eps_delta_tpr(e, d, a).unwrap();
        assert!(
            (t - r.value).abs() <= 1e-14,
            "ε = {e}, δ = {d}, α = {a}: {t} vs {}",
            r.value
        );
        // A profile of that single point gives the same.
        assert_eq!(profile_tpr(&[(e, d)], a).unwrap(), t);
        n += 1;
    }
    assert!(n >= 25);
}

/// The composed randomized response band (the grid step divides ε, so the discretisation is
/// exact and both bounds meet) against the Neyman–Pearson test on the enumerated outputs.
#[test]
fn randomized_response_band_matches_the_enumerated_test() {
    let mut n = 0;
    for r in rows().iter().filter(|r| r.kind == "rr") {
        let (e, k, steps, a) = (
            num(&r.x[0]),
            num(&r.x[1]) as u64,
            num(&r.x[2]) as u64,
            num(&r.x[3]),
        );
        let h = step_dividing(e, 1e-3);
        let up = randomized_response(e, k, h, Estimate::Pessimistic)
            .unwrap()
            .self_compose(steps)
            .unwrap();
        let lo = randomized_response(e, k, h, Estimate::Optimistic)
            .unwrap()
            .self_compose(steps)
            .unwrap();
        let t = Tradeoff::from_pairs(&up, &lo).unwrap();
        let (u, l) = t.tpr(a).unwrap();
        assert!(
            u >= r.value - 1e-12,
            "ε {e} k {k} × {steps}, α {a}: upper {u} < {}",
            r.value
        );
        assert!(
            l <= r.value + 1e-12,
            "ε {e} k {k} × {steps}, α {a}: lower {l} > {}",
            r.value
        );
        // Exact discretisation: the upper bound is the curve up to the FFT resolution; the lower
        // one loses at most a factor e^h on α.
        assert!(
            u - r.value <= 1e-11,
            "ε {e} k {k} × {steps}, α {a}: upper {u} vs {}",
            r.value
        );
        assert!(
            r.value - l <= 2.0 * h * r.value,
            "ε {e} k {k} × {steps}, α {a}: lower {l} vs {}",
            r.value
        );
        n += 1;
    }
    assert!(n >= 40);
}

/// The Gaussian mechanism without sampling is exactly μ-GDP with μ = √k/σ: the band contains
/// Φ(Φ⁻¹(α) + μ) and is narrower than 1e-3 relative at α ∈ {0.001, 0.01, 0.1}.
#[test]
fn gaussian_band_contains_the_gdp_curve_and_is_narrow() {
    for &(sigma, steps) in &[(1.0, 1u64), (2.0, 100), (0.8, 10), (5.0, 1000), (3.0, 7)] {
        let band = Band::new(Noise::Gaussian(sigma), 1.0, steps, 1e-4).unwrap();
        let t = Tradeoff::from_band(&band).unwrap();
        let mu = gaussian_mu(sigma, steps).unwrap();
        for a in [0.001, 0.01, 0.1] {
            let g = gdp_tpr(mu, a).unwrap();
            let (u, l) = t.tpr(a).unwrap();
            assert!(
                l <= g && g <= u + 1e-12,
                "σ {sigma} k {steps} α {a}: {l} ≤ {g} ≤ {u}"
            );
            assert!(
                (u - l) / g < 1e-3,
                "σ {sigma} k {steps} α {a}: band {l}..{u}"
            );
        }
    }
}

/// Bayes success from the band's δ brackets the direct maximisation over thresholds (Gaussian,
/// one step: the pair N(0, σ²), N(1, σ²) is the pair N(0, 1), N(μ, 1) with μ = 1/σ).
#[test]
fn bayes_success_brackets_the_direct_maximisation() {
    let mut n = 0;
    for r in rows().iter().filter(|r| r.kind == "bayes") {
        let (mu, prior) = (num(&r.x[0]), num(&r.x[1]));
        let band = Band::new(Noise::Gaussian(1.0 / mu), 1.0, 1, 1e-4).unwrap();
        let up = bayes_success(|e| band.upper.delta_for_epsilon(e), prior).unwrap();
        let lo = bayes_success(|e| band.lower.delta_for_epsilon(e), prior).unwrap();
        assert!(
            lo <= r.value + 1e-12 && r.value <= up + 1e-12,
            "μ {mu} π {prior}: {lo} {} {up}",
            r.value
        );
        assert!(up - lo <= 1e-4, "μ {mu} π {prior}: {lo}..{up}");
        n += 1;
    }
    assert!(n >= 15);
}

/// Subsampling pulls the curve towards the diagonal: at every FPR the band at q is below the band
/// at q = 1, and above the diagonal; the upper bound never exceeds the (ε, δ) region of the same
/// run's certified ε at that δ.
#[test]
fn subsampling_lowers_the_curve_and_the_eps_delta_region_is_looser() {
    let (sigma, steps) = (1.0, 100u64);
    let full =
        Tradeoff::from_band(&Band::new(Noise::Gaussian(sigma), 1.0, steps, 1e-3).unwrap()).unwrap();
    let band = Band::new(Noise::Gaussian(sigma), 0.01, steps, 1e-4).unwrap();
    let sub = Tradeoff::from_band(&band).unwrap();
    let delta = 1e-5;
    let (eps, _) = band.epsilon(delta).unwrap();
    for a in [1e-5, 1e-3, 0.01, 0.1, 0.5] {
        let (su, sl) = sub.tpr(a).unwrap();
        let (fu, fl) = full.tpr(a).unwrap();
        assert!(sl <= su && a <= sl, "α {a}: {sl} {su}");
        assert!(fl <= fu && su < fl, "α {a}: sampled {su} vs full {fl}");
        let region = eps_delta_tpr(eps, delta, a).unwrap();
        assert!(
            su <= region + 1e-12,
            "α {a}: {su} vs the (ε, δ) region {region}"
        );
    }
}

/// The band's shape: non-decreasing and concave in α (β convex, non-increasing), TPR ≤ α + δ(0)
/// (β ≥ 1 − α − δ(0)), and the advantage max(TPR − α) equals δ(0) on a fine α grid.
#[test]
fn band_is_monotone_concave_and_bounded_by_the_advantage() {
    let band = Band::new(Noise::Laplace(2.0), 0.05, 50, 1e-4).unwrap();
    let t = Tradeoff::from_band(&band).unwrap();
    let (adv_up, adv_lo) = band.delta(0.0);
    let alphas: Vec<f64> = (0..=2000).map(|i| i as f64 / 2000.0).collect();
    let curve = t.curve(&alphas);
    let mut best = (0.0f64, 0.0f64);
    for i in 0..alphas.len() {
        let (u, l) = curve[i];
        assert!(l <= u);
        assert!(
            u <= alphas[i] + adv_up + 1e-12,
            "α {}: {u} vs adv {adv_up}",
            alphas[i]
        );
        best = (best.0.max(u - alphas[i]), best.1.max(l - alphas[i]));
        if i > 0 {
            assert!(u >= curve[i - 1].0 && l >= curve[i - 1].1 - 1e-15);
        }
        if i > 0 && i + 1 < alphas.len() {
            // Concave: the midpoint is above the chord (up to rounding).
            let chord = 0.5 * (curve[i - 1].0 + curve[i + 1].0);
            assert!(
                u >= chord - 1e-13,
                "α {}: {u} below chord {chord}",
                alphas[i]
            );
        }
    }
    assert!((best.0 - adv_up).abs() <= 1e-3, "{best:?} vs {adv_up}");
    assert!(
        best.1 <= adv_up && best.1 >= adv_lo - 1e-3,
        "{best:?} vs {adv_lo}"
    );
}

/// A single randomized response step (ε, 0)-DP: the band is the (ε, 0) region exactly.
#[test]
fn binary_randomized_response_is_the_pure_dp_region() {
    for e in [0.1, 1.0, 3.0] {
        let h = step_dividing(e, 1e-3);
        let up: PldPair = randomized_response(e, 2, h, Estimate::Pessimistic).unwrap();
        let lo = randomized_response(e, 2, h, Estimate::Optimistic).unwrap();
        let t = Tradeoff::from_pairs(&up, &lo).unwrap();
        for a in [0.0, 1e-3, 0.05, 0.2, 0.6, 1.0] {
            let (u, l) = t.tpr(a).unwrap();
            let region = eps_delta_tpr(e, 0.0, a).unwrap();
            assert!((u - region).abs() <= 1e-12, "ε {e} α {a}: {u} vs {region}");
            assert!(
                region - l <= 2.0 * h * region + 1e-12,
                "ε {e} α {a}: {l} vs {region}"
            );
        }
    }
}

#[test]
fn bad_inputs_are_errors_not_numbers() {
    assert!(gdp_tpr(f64::NAN, 0.1).is_err());
    assert!(gdp_tpr(1.0, 1.5).is_err());
    assert!(gdp_tpr(-1.0, 0.1).is_err());
    assert!(eps_delta_tpr(1.0, 1e-5, -0.1).is_err());
    assert!(eps_delta_tpr(f64::NAN, 1e-5, 0.1).is_err());
    assert!(gdp_mu_for_tpr(0.5, 0.1).is_err());
    assert!(gaussian_mu(0.0, 10).is_err());
    assert!(clt_mu(0.0, 1.0, 10).is_err());
    assert!(bayes_success(|_| 0.0, 0.0).is_err());
    assert!(bayes_success(|_| 0.0, 1.0).is_err());
    assert!(RiskTarget::Tpr {
        fpr: 0.1,
        tpr: 0.05
    }
    .check()
    .is_err());
    assert!(RiskTarget::Advantage(1.0).check().is_err());
    assert!(Tradeoff::from_profile(&[0.0, 1.0], &[0.1], &[0.1, 0.0]).is_err());
    assert!(Tradeoff::from_profile(&[1.0, 0.0], &[0.1, 0.0], &[0.1, 0.0]).is_err());
    let band = Band::new(Noise::Gaussian(1.0), 1.0, 1, 1e-3).unwrap();
    let t = Tradeoff::from_band(&band).unwrap();
    assert!(t.tpr(f64::NAN).is_err());
    assert!(t.curve(&[2.0])[0].0.is_nan());
    // Edges: TPR(0) is the mass at infinite loss (none for the Gaussian), TPR(1) = 1.
    let (u0, l0) = t.tpr(0.0).unwrap();
    assert!(u0 <= 1e-12 && l0 == 0.0);
    assert_eq!(t.tpr(1.0).unwrap(), (1.0, 1.0));
}

/// Calibrating σ to a risk target: the σ found meets it, 0.1% less does not, and the σ for a TPR
/// target is below the σ for the ε that the same TPR would need under (ε, δ)-DP's region — the
/// point of calibrating to the risk one cares about.
#[test]
fn sigma_for_risk_round_trips() {
    let (q, steps, h) = (0.01, 1000u64, 1e-3);
    let target = RiskTarget::Tpr {
        fpr: 0.01,
        tpr: 0.05,
    };
    let s = sigma_for_risk(q, steps, target, h).unwrap();
    let risk = |s: f64| {
        let pair = Noise::Gaussian(s)
            .poisson(q, h, Estimate::Pessimistic)
            .unwrap()
            .self_compose(steps)
            .unwrap();
        target.risk(&pair).unwrap()
    };
    assert!(risk(s) <= 0.05, "{s}: {}", risk(s));
    assert!(risk(s * 0.999) > 0.05, "{s}: {}", risk(s * 0.999));
    let adv = RiskTarget::Advantage(0.1);
    let sa = sigma_for_risk(q, steps, adv, h).unwrap();
    let pair = Noise::Gaussian(sa)
        .poisson(q, h, Estimate::Pessimistic)
        .unwrap()
        .self_compose(steps)
        .unwrap();
    assert!(pair.delta_for_epsilon(0.0) <= 0.1);
    assert!(sigma_for_risk(q, steps, RiskTarget::Advantage(2.0), h).is_err());
}

/// σ whose certified risk over `steps` Poisson-sampled Gaussian steps at rate q meets the target,
/// on the loss grid h (the accountants' calibration, relative accuracy 1e-4).
fn sigma_for_risk(
    q: f64,
    steps: u64,
    target: RiskTarget,
    h: f64,
) -> Result<f64, amp_math::MathError> {
    use amp_math::accounting::{calibrate_event, Event, PldAccountant, Search, Target};
    calibrate_event(
        &PldAccountant::with_step(h),
        |s| Event::poisson(amp_math::rdp::Mechanism::Gaussian { sigma: s }, q).repeated(steps),
        Target::Risk(target),
        Search::Noise { rel: 1e-4 },
    )
}

/// Without sampling, k Gaussian steps are exactly (√k/σ)-GDP, and the accountant composes them as
/// one release at noise σ/√k: the attacker's band of the whole run (through the CLI's path, the
/// PLD accountant at grid 1e-4) contains mpmath's TPR and is at most 1e-3 wide relative to it
/// at μ ≈ 3.2 (σ = 10, 1,000 steps), where composing step by step left it 1.7e-3 wide.
#[test]
fn gaussian_run_band_is_narrow_and_contains_the_exact_gdp_curve() {
    use amp_math::accounting::{Event, PldAccountant};
    use amp_math::rdp::Mechanism;
    let mut n = 0;
    for r in rows().iter().filter(|r| r.kind == "gdprun") {
        let (sigma, steps, a) = (num(&r.x[0]), num(&r.x[1]) as u64, num(&r.x[2]));
        let event = Event::Mechanism(Mechanism::Gaussian { sigma }).repeated(steps);
        let band = PldAccountant::with_step(1e-4).band(&event).unwrap();
        let t = Tradeoff::from_band(&band).unwrap();
        let (up, lo) = t.tpr(a).unwrap();
        assert!(
            lo <= r.value && r.value <= up,
            "σ = {sigma}, {steps} steps, α = {a}: {lo} ≤ {} ≤ {up}",
            r.value
        );
        assert!(
            (up - lo) / r.value <= 1e-3,
            "σ = {sigma}, {steps} steps, α = {a}: [{lo}, {up}]"
        );
        n += 1;
    }
    assert_eq!(n, 9);
}
