//! The relevance rules derived from the parameter groups give the same answer as the hand-written
//! rules they replaced, for every view, every parameter it shows and many values.

use amp_math::subsampling::Scheme;
use amp_model::param::{self as p, group};
use amp_model::params::{Domain, Length, Mechanism, ParamSpec, ParamValues, RandomizerKind, Value};
use amp_site::figures::FIGURES;
use amp_site::pages::{is_relevant, Page, View};

/// Whether a parameter's control matters for the current values: the rate p only for Poisson
/// sampling (and the dataset size |x| that sets the Poisson sample's size), the sizes m and n only
/// for the fixed-size schemes. Hidden controls keep their values.
///
/// Where the view shows a mechanism choice (the Rényi DP page), only the chosen mechanism's
/// parameter is relevant, the rate is q for both schemes, and n only sets m = q·n without
/// replacement.
fn old_is_relevant(view: View, values: &ParamValues, spec: &ParamSpec) -> bool {
    let shows = |q: &ParamSpec| view.params().iter().any(|s| s.name == q.name);
    let is = |q: &ParamSpec| spec.name == q.name;
    // Added with the tuning controls: the negative binomial's shape only for that law.
    if is(p::TUNING_SHAPE.spec) && shows(p::TUNING_LAW.spec) {
        return values.choice(p::TUNING_LAW) == amp_model::params::TuningLaw::NegativeBinomial;
    }
    // Added with the audit planner: each audit count for its kind of audit.
    if shows(p::AUDIT_MODE.spec) {
        let one_run = [
            p::AUDIT_CANARIES.spec,
            p::AUDIT_GUESSES.spec,
            p::AUDIT_CORRECT.spec,
            p::AUDIT_TARGET.spec,
        ];
        let many = [
            p::AUDIT_FALSE_POSITIVES.spec,
            p::AUDIT_RUNS_WITHOUT.spec,
            p::AUDIT_FALSE_NEGATIVES.spec,
            p::AUDIT_RUNS_WITH.spec,
            p::AUDIT_THRESHOLDS.spec,
        ];
        let mode = values.choice(p::AUDIT_MODE);
        if one_run.iter().any(|q| is(q)) {
            return mode == amp_model::params::AuditMode::OneRun;
        }
        if many.iter().any(|q| is(q)) {
            return mode == amp_model::params::AuditMode::ManyRuns;
        }
    }
    if shows(p::MECH.spec) {
        let mech = values.choice(p::MECH);
        let scheme = values.choice(p::SCHEME);
        return if is(p::SIGMA.spec) {
            mech == Mechanism::Gaussian
        } else if is(p::SCALE.spec) {
            mech == Mechanism::Laplace
        } else if is(p::EPS.spec) {
            matches!(
                mech,
                Mechanism::RandomizedResponse | Mechanism::KaryRandomizedResponse
            )
        } else if is(p::K.spec) {
            mech == Mechanism::KaryRandomizedResponse
        } else if is(p::Q.spec) && shows(p::FPR.spec) {
            // The risk page samples noise only; randomized response is accounted without it.
            matches!(mech, Mechanism::Gaussian | Mechanism::Laplace)
        } else if is(p::N.spec) {
            scheme == Scheme::WithoutReplacement
        } else if is(p::EPOCHS.spec) {
            values.choice(p::LENGTH) == Length::Epochs
        } else if is(p::STEPS.spec) {
            !shows(p::LENGTH.spec) || values.choice(p::LENGTH) == Length::Steps
        } else {
            true
        };
    }
    if shows(p::RANDOMIZER.spec) && is(p::K.spec) {
        return values.choice(p::RANDOMIZER) == RandomizerKind::KRr;
    }
    if shows(p::PASS_BATCHES.spec) && is(p::PASS_BATCH.spec) {
        return values.choice(p::PASS_BATCHES) != amp_math::iteration::many_passes::Batches::Full;
    }
    if !shows(p::SCHEME.spec) {
        return true;
    }
    let poisson = values.choice(p::SCHEME) == Scheme::Poisson;
    if is(p::P.spec) || is(p::DATASET.spec) {
        poisson
    } else if is(p::M.spec) || is(p::N.spec) {
        !poisson
    } else {
        true
    }
}

#[test]
fn group_rules_match_the_rules_they_replaced() {
    let mut views: Vec<View> = Page::ALL.iter().map(|&p| View::Page(p)).collect();
    views.extend(FIGURES.iter().map(View::Embed));
    let mut checked = 0;
    for view in views {
        let shown = view.params();
        let choices: Vec<&ParamSpec> = shown
            .iter()
            .copied()
            .filter(|s| matches!(s.domain, Domain::Choice(_)))
            // The tuning law and the audit's kind govern their own groups alone: checked on their
            // own below, so as not to multiply the combinations by their options.
            .filter(|s| s.name != p::TUNING_LAW.spec.name && s.name != p::AUDIT_MODE.spec.name)
            .collect();
        // Every combination of the view's choices (the rules only look at choices).
        let sizes: Vec<usize> = choices
            .iter()
            .map(|s| match s.domain {
                Domain::Choice(o) => o.len(),
                _ => 1,
            })
            .collect();
        let combos: usize = sizes.iter().product();
        for mut c in 0..combos {
            let mut values = ParamValues::default();
            for (spec, n) in choices.iter().zip(&sizes) {
                values.set(spec, Value::Choice(c % n)).unwrap();
                c /= n;
            }
            for spec in shown {
                // The phases of a training run are new: their own rules are checked below.
                let phase_control = [&group::PHASE_2, &group::PHASE_3, &group::PHASE_4]
                    .iter()
                    .any(|g| g.params.iter().any(|q| q.name == spec.name))
                    || spec.name == p::PHASES.spec.name;
                if phase_control || spec.name == p::TUNING_SHAPE.spec.name {
                    continue;
                }
                // The one intended change: the gaussian-noise-ratio embed now follows its
                // length choice (the old rules showed its epochs and steps fields both, since
                // they looked at the length choice only beside a mechanism choice).
                if matches!(view, View::Embed(f) if f.id == amp_site::figures::FigureId::GaussianNoiseRatio)
                    && (spec.name == p::EPOCHS.spec.name || spec.name == p::STEPS.spec.name)
                {
                    let length = values.choice(p::LENGTH);
                    let want = (spec.name == p::EPOCHS.spec.name) == (length == Length::Epochs);
                    assert_eq!(is_relevant(view, &values, spec), want);
                    continue;
                }
                assert_eq!(
                    is_relevant(view, &values, spec),
                    old_is_relevant(view, &values, spec),
                    "{view:?}, {}",
                    spec.name
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}

#[test]
fn a_phase_shows_while_the_run_has_it() {
    use amp_model::params::{Batching, PhaseCount};
    let view = View::Page(Page::Training);
    for n in 1..=4 {
        for mech in [Mechanism::Gaussian, Mechanism::Laplace] {
            for length in [Length::Epochs, Length::Steps] {
                let mut v = ParamValues::default();
                v.set_choice(p::PHASES, PhaseCount::of(n));
                v.set_choice(p::MECH, mech);
                v.set_choice(p::LENGTH_3, length);
                v.set_choice(p::BATCHING_3, Batching::Shuffle);
                let shows = |spec: &ParamSpec| is_relevant(view, &v, spec);
                assert_eq!(shows(p::BATCH_2.spec), n >= 2);
                assert_eq!(shows(p::BATCH_4.spec), n >= 4);
                assert_eq!(shows(p::BATCHING_3.spec), n >= 3);
                assert_eq!(
                    shows(p::SIGMA_3.spec),
                    n >= 3 && mech == Mechanism::Gaussian
                );
                assert_eq!(shows(p::SCALE_3.spec), n >= 3 && mech == Mechanism::Laplace);
                assert_eq!(shows(p::EPOCHS_3.spec), n >= 3 && length == Length::Epochs);
                assert_eq!(shows(p::STEPS_3.spec), n >= 3 && length == Length::Steps);
                // Phase 2's own length unit is left at its default (epochs).
                assert!(!shows(p::STEPS_2.spec));
                assert!(shows(p::PHASES.spec));
            }
        }
    }
}

/// The negative binomial's shape η is shown for that law of the tuning runs only, wherever the
/// tuning controls are.
#[test]
fn the_tuning_shape_follows_its_law() {
    let mut seen = 0;
    for page in Page::ALL {
        let view = View::Page(page);
        if !view
            .params()
            .iter()
            .any(|s| s.name == p::TUNING_LAW.spec.name)
        {
            continue;
        }
        seen += 1;
        for (i, law) in <amp_model::params::TuningLaw as amp_model::params::ChoiceEnum>::CHOICES
            .iter()
            .enumerate()
        {
            let mut values = ParamValues::default();
            values.set(p::TUNING_LAW.spec, Value::Choice(i)).unwrap();
            assert_eq!(
                is_relevant(view, &values, p::TUNING_SHAPE.spec),
                law.id == "negative-binomial",
                "{page:?}, {}",
                law.id
            );
            assert!(is_relevant(view, &values, p::TUNING_RUNS.spec));
        }
    }
    assert_eq!(
        seen, 2,
        "the training and risk pages have the tuning controls"
    );
}

/// Each audit count is shown for its kind of audit only (one run or many runs), on the risk page.
#[test]
fn the_audit_counts_follow_the_kind_of_audit() {
    let view = View::Page(Page::Risk);
    for (i, _) in <amp_model::params::AuditMode as amp_model::params::ChoiceEnum>::CHOICES
        .iter()
        .enumerate()
    {
        let mut values = ParamValues::default();
        values.set(p::AUDIT_MODE.spec, Value::Choice(i)).unwrap();
        for spec in view.params() {
            assert_eq!(
                is_relevant(view, &values, spec),
                old_is_relevant(view, &values, spec),
                "{i}, {}",
                spec.name
            );
        }
    }
}
