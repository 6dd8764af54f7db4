//! The training page's readouts in parts: a run's band, the four samplers on the zero-out relation
//! and their sentence, and the accounting's grid step and status.

use super::*;

/// The bands of the four samplers on the zero-out relation (each from its own accountant).
pub(super) struct Samplers {
    pub(super) poisson: Result<batching::Band, ModelError>,
    pub(super) shuffle: Result<batching::Band, ModelError>,
    pub(super) balls: Result<batching::Band, ModelError>,
    pub(super) allocation: Result<batching::Band, ModelError>,
}

/// The accountant's numbers of the run as the reader forms its batches: the tight band, RDP, the
/// calibrated noise, the group lemma, the micro-batch's ε, the cap and the grid step.
pub(super) fn push_account(r: &mut Readings, acc: &Result<Account, ModelError>, rel: Relation) {
    let field = |f: fn(&Account) -> Result<f64, ModelError>| acc.clone().and_then(|a| f(&a));
    r.push(&TIGHT, field(|a| Ok(a.upper)), rel);
    r.push(&TIGHT_LOWER, field(|a| Ok(a.lower)), rel);
    r.push(
        &RDP_EPSILON,
        field(|a| a.rdp.as_ref().map(|c| c.epsilon).map_err(Clone::clone)),
        rel,
    );
    r.push(
        &RDP_ORDER,
        field(|a| a.rdp.as_ref().map(|c| c.order).map_err(Clone::clone)),
        rel,
    );
    r.push(
        &RDP_GAP,
        field(|a| {
            let c = a.rdp.as_ref().map_err(Clone::clone)?;
            if a.upper > 0.0 {
                Ok(c.epsilon / a.upper)
            } else {
                Err("the tight ε is 0".into())
            }
        }),
        rel,
    );
    r.push(&CALIBRATED, field(|a| a.calibrated.clone()), rel);
    r.push(
        &GROUP_LEMMA,
        field(|a| match &a.group_lemma {
            Ok(Some(e)) => Ok(*e),
            Ok(None) => Err(
                "infinite: no δ₁ makes the lemma's δ small enough (the tight band above is finite)"
                    .into(),
            ),
            Err(e) => Err(e.clone()),
        }),
        rel,
    );
    r.push(&MICRO_EPSILON, field(|a| a.micro.clone()), rel);
    r.push(&CAP_CUT, field(|a| Ok(a.cap.truncated)), rel);
    r.push(&CAP_RATE, field(|a| Ok(a.cap.rate)), rel);
    r.push(&GRID_STEP, field(|a| Ok(a.step)), rel);
}

/// Each sampler's ε on the zero-out relation (Poisson's on the run's own relation where it has
/// a user-level or capped pair).
pub(super) fn push_samplers(
    r: &mut Readings,
    run: &Result<Training, ModelError>,
    rel: Relation,
    bands: &Samplers,
) {
    let Samplers {
        poisson,
        shuffle,
        balls,
        allocation,
    } = bands;
    const Z: Relation = batching::RELATION;
    // Zero-out and add/remove are one pair for Poisson sampling; for a user with several
    // records it is the user-level pair.
    // Capped batches: the add/remove band (zero-out would be Poisson at the capped rate).
    let capped = run.as_ref().is_ok_and(|t| t.max_batch > 0);
    let poisson_rel = if rel == Relation::AddRemoveUser || capped {
        rel
    } else {
        Z
    };
    r.push(&EPS_POISSON, poisson.clone().map(|b| b.upper), poisson_rel);
    r.push(&EPS_SHUFFLE, shuffle.clone().map(|b| b.upper), Z);
    r.push(&EPS_SHUFFLE_LOWER, shuffle.clone().map(|b| b.lower), Z);
    r.push(&EPS_BNB, balls.clone().map(|b| b.upper), Z);
    r.push(&EPS_BNB_LOWER, balls.clone().map(|b| b.lower), Z);
    r.push(&EPS_ALLOC, allocation.clone().map(|b| b.upper), Z);
    r.push(&EPS_ALLOC_LOWER, allocation.clone().map(|b| b.lower), Z);
}

/// How the samplers' numbers were computed, in one sentence.
pub(super) fn samplers_sentence(t: &Training) -> String {
    if t.bands > 1 {
        return format!(
            "With b = {} bands the run forms its batches by cyclic Poisson sampling (the \
             Poisson line, add/remove one example, is its ε); shuffling, balls in bins \
             and random allocation are not combined with banded noise here.",
            group_digits(t.bands)
        );
    }
    let e = batching::epochs(t);
    let epochs = if e.upper == e.lower {
        format!("{} epochs", e.upper)
    } else {
        format!("{} to {} epochs", e.lower, e.upper)
    };
    let shape = if t.is_phased() {
        format!(
            "every phase formed the same way (phase 1: T = {} steps per epoch, {epochs})",
            e.steps_per_epoch
        )
    } else {
        format!("T = {} steps per epoch, {epochs}", e.steps_per_epoch)
    };
    let k = t.first().participations();
    format!(
        "All on the zero-out relation (one example's gradient replaced by 0; for Poisson \
         sampling the same pair as add/remove), sensitivity 1: {shape}. Shuffling is \
         reshuffled every epoch; its upper bound holds for any order. Random allocation \
         has no epochs: each example is in exactly k = {} of the T = {} steps (the epochs \
         rounded; batches of {} on average).",
        group_digits(k),
        group_digits(t.steps),
        short_number(k as f64 * t.dataset as f64 / t.steps.max(1) as f64, 4)
    )
}

/// The grid step of a page's accountant (its readout whose id ends in `grid-step`: computed, not
/// shown as a number), for the [`Widget::AccountingStatus`] line.
pub fn grid_step(r: &Readings) -> Option<f64> {
    r.numbers
        .iter()
        .find(|x| x.spec.id.ends_with("grid-step"))
        .and_then(|x| x.value.clone().ok())
}

/// The [`Widget::AccountingStatus`] line: whether the numbers are the quick or the refined
/// ones, and on which grid.
pub fn accounting_status(step: Option<f64>, refined: bool) -> String {
    match (step, refined) {
        (Some(h), true) => format!("Refined: grid step h = {}.", short_number(h, 3)),
        (Some(h), false) => format!(
            "Quick numbers (grid step h = {}); refining on a finer grid…",
            short_number(h, 3)
        ),
        (None, _) => String::new(),
    }
}
