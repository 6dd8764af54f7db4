//! The audit planner of the risk page: what an audit of the reader's run can prove
//! ([`amp_math::audit`]). From the audit plan ([`crate::param::group::AUDIT`]): the ε a one-run
//! audit certifies from the reader's counts (or a many-run audit from its error counts), what all
//! r guesses right would certify, the guesses needed for a target ε, and what an ideal attacker
//! against this run would typically certify, from the run's certified trade-off curve: at most the
//! accountant's ε, and usually far less. Lower bounds on ε (add/remove one canary), except the
//! typical value, an estimate.

use amp_format::{group_digits, short_number};
use amp_math::audit::{
    guesses_needed, many_run_epsilon, one_run_epsilon, perfect_guesses_epsilon,
    typical_one_run_epsilon,
};

use crate::param as p;
use crate::params::{AuditMode, ParamValues};
use crate::risk::Attack;
use crate::ModelError;

/// How many FPRs the ideal attacker's test is tried at (log-spaced, 1e-6 to 0.5), refined and
/// while a control moves.
pub const FPRS: usize = 8;
/// See [`FPRS`].
pub const QUICK_FPRS: usize = 3;

/// An audit plan read from the values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    /// One run or many.
    pub mode: AuditMode,
    /// Canaries m (one run).
    pub canaries: u64,
    /// Guesses r ≤ m.
    pub guesses: u64,
    /// Right guesses v ≤ r.
    pub correct: u64,
    /// The ε to certify (for the guesses needed).
    pub target: f64,
    /// Confidence c.
    pub confidence: f64,
    /// δ of the null hypothesis (the run's δ).
    pub delta: f64,
    /// Many runs: false positives, runs without, false negatives, runs with, thresholds tried.
    pub counts: [u64; 5],
}

impl Plan {
    /// The plan at these values (δ: the run's).
    pub fn of(values: &ParamValues) -> Plan {
        Plan {
            mode: values.choice(p::AUDIT_MODE),
            canaries: values.count(p::AUDIT_CANARIES),
            guesses: values.count(p::AUDIT_GUESSES),
            correct: values.count(p::AUDIT_CORRECT),
            target: values.real(p::AUDIT_TARGET),
            confidence: values.real(p::AUDIT_CONFIDENCE),
            delta: values.real(p::DELTA),
            counts: [
                values.count(p::AUDIT_FALSE_POSITIVES),
                values.count(p::AUDIT_RUNS_WITHOUT),
                values.count(p::AUDIT_FALSE_NEGATIVES),
                values.count(p::AUDIT_RUNS_WITH),
                values.count(p::AUDIT_THRESHOLDS),
            ],
        }
    }

    /// The ε the reader's counts certify (lower bound at confidence c).
    pub fn certified(&self) -> Result<f64, ModelError> {
        match self.mode {
            AuditMode::OneRun => one_run_epsilon(
                self.canaries,
                self.guesses,
                self.correct,
                self.delta,
                self.confidence,
            ),
            AuditMode::ManyRuns => {
                let [fp, without, fneg, with, thresholds] = self.counts;
                many_run_epsilon(
                    fp,
                    without,
                    fneg,
                    with,
                    thresholds,
                    self.delta,
                    self.confidence,
                )
            }
        }
        .map_err(ModelError::from)
    }

    /// The ε all r guesses right would certify (one run; lower bound).
    pub fn perfect(&self) -> Result<f64, ModelError> {
        self.one_run_only()?;
        if self.delta == 0.0 {
            return perfect_guesses_epsilon(self.guesses, self.confidence)
                .map_err(ModelError::from);
        }
        one_run_epsilon(
            self.canaries,
            self.guesses,
            self.guesses,
            self.delta,
            self.confidence,
        )
        .map_err(ModelError::from)
    }

    /// The fewest guesses, all right, on the m canaries that certify the target ε.
    pub fn needed(&self) -> Result<u64, ModelError> {
        self.one_run_only()?;
        guesses_needed(self.target, 1.0, self.canaries, self.delta, self.confidence)?.ok_or_else(
            || {
                ModelError::NotApplicable(format!(
                "even {} right guesses out of {0} certify less than ε = {}: more canaries needed",
                group_digits(self.canaries),
                short_number(self.target, 3)
            ))
            },
        )
    }

    fn one_run_only(&self) -> Result<(), ModelError> {
        match self.mode {
            AuditMode::OneRun => Ok(()),
            AuditMode::ManyRuns => Err(ModelError::NotApplicable(
                "a one-run audit's number (choose the one-run audit)".into(),
            )),
        }
    }
}

/// What an ideal attacker's one-run audit of this run would typically certify with m canaries:
/// the best over a grid of FPRs of the estimate [`typical_one_run_epsilon`], each canary guessed
/// by a test at the run's certified TPR (an upper bound on any attacker's, so this overstates
/// what a real audit gets), at `fprs` FPRs ([`FPRS`], [`QUICK_FPRS`]). An estimate; with the FPR
/// it is reached at.
pub fn typical(
    attack: &Attack,
    canaries: u64,
    plan: &Plan,
    fprs: usize,
) -> Result<(f64, f64), ModelError> {
    let mut best = (0.0, f64::NAN);
    let fprs = fprs.max(2);
    for i in 0..fprs {
        let fpr = 1e-6 * amp_math::special::pow(0.5e6, i as f64 / (fprs - 1) as f64);
        let tpr = attack.tradeoff.tpr(fpr)?.0;
        let e = typical_one_run_epsilon(canaries, tpr, fpr, plan.delta, plan.confidence)?;
        if e > best.0 || best.1.is_nan() {
            best = (e, fpr);
        }
    }
    Ok(best)
}

/// The audit in words: what the reader's counts certify, against the accountant's ε, and what an
/// ideal attacker would typically reach; the gap named.
pub fn sentence(plan: &Plan, certified: f64, typical: Option<f64>, accountant: f64) -> String {
    let what = match plan.mode {
        AuditMode::OneRun => format!(
            "{} right guesses out of {} on {} canaries",
            group_digits(plan.correct),
            group_digits(plan.guesses),
            group_digits(plan.canaries)
        ),
        AuditMode::ManyRuns => {
            let [fp, without, fneg, with, t] = plan.counts;
            format!(
                "{} false positives in {} runs without the canary and {} false negatives in {} \
                 runs with it (best of {t} thresholds)",
                group_digits(fp),
                group_digits(without),
                group_digits(fneg),
                group_digits(with)
            )
        }
    };
    let typical = typical.map_or(String::new(), |t| {
        format!(
            " An ideal attacker against this run would typically certify about ε ≥ {} with {} \
             canaries.",
            short_number(t, 3),
            group_digits(plan.canaries)
        )
    });
    let head = format!(
        "With {what}, the audit proves ε ≥ {} at δ = {} (confidence {}); the accountant proves \
         ε ≤ {}.",
        short_number(certified, 4),
        short_number(plan.delta, 3),
        short_number(plan.confidence, 4),
        short_number(accountant, 4),
    );
    if certified > accountant {
        return format!(
            "{head} They cannot both hold: if the training really has the accountant's guarantee, \
             counts like these happen with probability below {}. Look for a bug in the training \
             code or in its accounting (a sampler or a noise scale other than the accountant \
             assumed).{typical}",
            short_number(1.0 - plan.confidence, 3)
        );
    }
    format!(
        "{head} Neither is wrong: the gap of {} is what this audit cannot see, not a flaw in \
         either.{typical}",
        short_number(accountant - certified, 3)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Value;
    use crate::risk::{attack, epsilon_at_delta, setting, QUICK};

    /// The audit never certifies more than the accountant's ε: what an ideal attacker typically
    /// certifies from the run's own certified curve stays below it, over runs from weak to
    /// strong privacy and canaries from 100 to 10⁶.
    #[test]
    fn an_audit_never_certifies_more_than_the_accountant() {
        for (sigma, q, steps) in [
            (0.6, 1.0, 1u64),
            (1.0, 1.0, 1),
            (2.0, 0.01, 1000),
            (5.0, 0.001, 100),
            (0.8, 0.1, 100),
        ] {
            let mut v = ParamValues::default();
            v.set_text(p::MECH.spec, "gaussian").unwrap();
            v.set(p::SIGMA.spec, Value::Real(sigma)).unwrap();
            v.set(p::Q.spec, Value::Real(q)).unwrap();
            v.set(p::STEPS.spec, Value::Count(steps)).unwrap();
            let run = setting(&v).unwrap();
            let a = attack(&run, QUICK).unwrap();
            let accountant = epsilon_at_delta(&a, run.delta).unwrap();
            let plan = Plan::of(&v);
            for m in [100u64, 10_000, 1_000_000] {
                let (e, _) = typical(&a, m, &plan, FPRS).unwrap();
                assert!(
                    e <= accountant,
                    "σ = {sigma}, q = {q}, {steps} steps, m = {m}: audit {e} > accountant {accountant}"
                );
            }
        }
    }

    #[test]
    fn the_plan_reads_its_mode() {
        let mut v = ParamValues::default();
        // 55 right guesses of 100 prove nothing (P[Bin(100, ½) ≥ 55] ≈ 0.18).
        let plan = Plan::of(&v);
        assert_eq!(plan.certified().unwrap(), 0.0);
        assert!(plan.perfect().unwrap() >= plan.certified().unwrap());
        let r = plan.needed().unwrap();
        assert!(r <= plan.canaries);
        v.set_text(p::AUDIT_MODE.spec, "many-runs").unwrap();
        let many = Plan::of(&v);
        assert!(many.certified().unwrap() > 1.0);
        assert!(many.perfect().is_err() && many.needed().is_err());
    }
}
