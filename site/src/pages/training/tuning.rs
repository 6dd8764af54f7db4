//! The training page's "Hyperparameter tuning" readouts: what a search that releases its best run
//! costs ([`amp_model::tuning`]; Papernot & Steinke 2022).

use super::*;
use amp_model::tuning;

/// Readout: ε at δ of a hyperparameter search that releases its best run (Papernot & Steinke).
pub const TUNED_EPSILON: ReadoutSpec = ReadoutSpec {
    id: "tuned-epsilon",
    label: "ε at δ of the whole search, best of K runs released (Rényi DP)",
    digits: 4,
    bound: BoundKind::Upper,
};
/// Readout: ε at δ of ⌈E[K]⌉ runs all released (composed).
pub const TUNED_COMPOSED: ReadoutSpec = ReadoutSpec {
    id: "tuned-composed-epsilon",
    label: "ε at δ if ⌈E[K]⌉ runs were all released (composed, Rényi DP)",
    digits: 4,
    bound: BoundKind::Upper,
};
/// Readout: the attacker's TPR at the FPR against the whole search.
pub const TUNED_TPR: ReadoutSpec = ReadoutSpec {
    id: "tuned-tpr-at-fpr",
    label: "Attacker's TPR at FPR α against the whole search (upper bound)",
    digits: 4,
    bound: BoundKind::Upper,
};
/// The warning against reporting one run's ε for a search (and against composing every run).
pub const TUNING_WARNING: NoteSpec = NoteSpec {
    id: "tuning-warning",
    kind: NoteKind::Warning,
};

/// The hyperparameter search's numbers and warning ([`amp_model::tuning`]); the sentence the
/// statement adds, when there is a search.
pub(super) fn push_tuning(
    r: &mut Readings,
    v: &ParamValues,
    run: &Result<Training, ModelError>,
    buckets: usize,
    rel: Relation,
) -> Option<String> {
    let reps = tuning::repetitions(v);
    let tuned = run.as_ref().map_err(Clone::clone).and_then(|t| {
        probe::span("tuning", || {
            cached_band(t, buckets).and_then(|band| tuning::tuned(t, reps, &band))
        })
    });
    let part = |f: fn(&tuning::Tuned) -> f64| tuned.as_ref().map(f).map_err(Clone::clone);
    r.push(&TUNED_EPSILON, part(|x| x.search), rel);
    r.push(&TUNED_COMPOSED, part(|x| x.composed), rel);
    r.push(
        &TUNED_TPR,
        tuned
            .as_ref()
            .map_err(Clone::clone)
            .and_then(|x| tuning::attacker_tpr(x, v.real(p::FPR))),
        rel,
    );
    let tight = run
        .as_ref()
        .ok()
        .and_then(|t| cached_band(t, buckets).ok()?.epsilon(t.delta).ok())
        .map(|e| e.0);
    let (Some(reps), Ok(x)) = (reps, &tuned) else {
        r.note(&TUNING_WARNING, None);
        return None;
    };
    r.note(&TUNING_WARNING, tight.map(|e| tuning::warning(reps, x, e)));
    Some(tuning::statement_words(reps, x))
}
