//! The risk page's planners: the audit planner's readouts, the cost of a hyperparameter search, and
//! the calibrations (the noise or the steps for a target risk).

use super::*;

/// The audit planner ([`amp_model::audit`]): the counts' certified ε, all guesses right, the
/// guesses needed, an ideal attacker's typical ε, and the sentence against the accountant.
pub(super) fn push_audit(
    v: &ParamValues,
    acc: &Result<(Run, std::rc::Rc<Attack>), ModelError>,
    relation: amp_math::Relation,
    precision: Precision,
    r: &mut Readings,
) {
    let plan = audit::Plan::of(v);
    let fprs = match precision {
        Precision::Quick => audit::QUICK_FPRS,
        Precision::Fine => audit::FPRS,
    };
    let certified = plan.certified();
    r.push(&AUDIT_CERTIFIED, certified.clone(), relation);
    r.push(&AUDIT_PERFECT, plan.perfect(), relation);
    r.push(&AUDIT_NEEDED, plan.needed().map(|n| n as f64), relation);
    let typical = acc
        .as_ref()
        .map_err(Clone::clone)
        .and_then(|(_, a)| audit::typical(a, plan.canaries, &plan, fprs));
    r.push_bound(
        &AUDIT_TYPICAL,
        typical.clone().map(|t| t.0),
        relation,
        BoundKind::Estimate,
    );
    let accountant = acc
        .as_ref()
        .ok()
        .and_then(|(run, a)| epsilon_at_delta(a, run.delta).ok());
    let text = match (certified, accountant) {
        (Ok(c), Some(e)) => Some(audit::sentence(&plan, c, typical.ok().map(|t| t.0), e)),
        _ => None,
    };
    r.note(&AUDIT_SENTENCE, text);
}

/// Whether the run is one of a hyperparameter search (the tuning readouts apply).
pub(super) fn searched(v: &ParamValues) -> bool {
    v.real(p::TUNING_RUNS) > 1.0
}

/// The hyperparameter search over this run ([`amp_model::tuning`]): its ε, the attacker's TPR
/// against it, and the warning; δ̂ for Poisson K from the run's certified PLD.
pub(super) fn push_tuning(
    v: &ParamValues,
    acc: &Result<(Run, std::rc::Rc<Attack>), ModelError>,
    relation: amp_math::Relation,
    r: &mut Readings,
) {
    let reps = tuning::repetitions(v);
    let tuned = acc
        .as_ref()
        .map_err(Clone::clone)
        .and_then(|(run, a)| tuning::tuned_risk(run, a, reps));
    r.push(
        &RISK_TUNED_EPSILON,
        tuned.as_ref().map(|x| x.search).map_err(Clone::clone),
        relation,
    );
    let fpr = v.real(p::FPR);
    r.push(
        &RISK_TUNED_TPR,
        tuned
            .as_ref()
            .map_err(Clone::clone)
            .and_then(|x| tuning::attacker_tpr(x, fpr)),
        relation,
    );
    let text = match (acc, reps, &tuned) {
        (Ok((run, a)), Some(reps), Ok(x)) => epsilon_at_delta(a, run.delta)
            .ok()
            .map(|tight| tuning::warning(reps, x, tight)),
        _ => None,
    };
    r.note(&RISK_TUNING_WARNING, text);
}

/// The calibrations: the steps and the noise σ that hold the attacker to the reader's TPR, the
/// σ for the reader's advantage and for the reader's ε, and the sentence comparing the two σ.
pub(super) fn calibrations(
    v: &ParamValues,
    run: &Result<Run, ModelError>,
    relation: amp_math::Relation,
    (cal_budget, cal_rel): (usize, f64),
    r: &mut Readings,
) {
    let noise = run.as_ref().map_err(Clone::clone).and_then(|r| {
        r.noise().map(|n| (*r, n)).ok_or_else(|| {
            ModelError::NotApplicable("randomized response has no noise to calibrate".to_string())
        })
    });
    let for_risk = noise.clone().and_then(|(r, n)| {
        noise_for(
            n,
            r.q,
            r.steps,
            r.records,
            Target::Risk(RiskTarget::Tpr {
                fpr: r.fpr,
                tpr: r.target_tpr,
            }),
            cal_budget,
            cal_rel,
        )
    });
    let for_steps = run.as_ref().map_err(Clone::clone).and_then(|r| {
        steps_for_risk(
            r,
            r.q,
            RiskTarget::Tpr {
                fpr: r.fpr,
                tpr: r.target_tpr,
            },
            cal_budget,
            MAX_STEPS,
        )
    });
    r.push(&STEPS_FOR_RISK, for_steps.map(|k| k as f64), relation);
    let for_adv = noise.clone().and_then(|(r, n)| {
        noise_for(
            n,
            r.q,
            r.steps,
            r.records,
            Target::Risk(RiskTarget::Advantage(v.real(p::TARGET_ADVANTAGE))),
            cal_budget,
            cal_rel,
        )
    });
    r.push(&SIGMA_FOR_ADVANTAGE, for_adv, relation);
    let for_eps = noise.clone().and_then(|(r, n)| {
        noise_for(
            n,
            r.q,
            r.steps,
            r.records,
            r.epsilon_target(),
            cal_budget,
            cal_rel,
        )
    });
    r.push(&SIGMA_FOR_RISK, for_risk.clone(), relation);
    r.push(&SIGMA_FOR_EPSILON, for_eps.clone(), relation);
    let cal_text = match (&noise, &for_risk, &for_eps) {
        (Ok((run, _)), Ok(a), Ok(b)) => Some(format!(
            "Holding the attacker to TPR ≤ {} at α = {} needs {} of the noise that ε ≤ {} at δ = {} needs.",
            percent(run.target_tpr),
            percent(run.fpr),
            percent(a / b),
            short_number(run.target_eps, 3),
            short_number(run.delta, 2)
        )),
        _ => None,
    };
    r.note(&CALIBRATION_NOTE, cal_text);
}
