//! The training page's "What each library reports" readouts: what Opacus, dp_accounting and
//! TensorFlow Privacy print for the run under their own defaults, and why each differs from the
//! certified band ([`amp_model::libraries`]).

use super::*;
use amp_model::libraries;

/// Readout: what Opacus prints by default (its PRV accountant), predicted.
pub const LIB_OPACUS_PRV: ReadoutSpec = ReadoutSpec {
    id: "library-opacus-prv",
    label: "Opacus, default PRV accountant, prints about",
    digits: 4,
    bound: BoundKind::Estimate,
};
/// Readout: what Opacus's RDP accountant prints.
pub const LIB_OPACUS_RDP: ReadoutSpec = ReadoutSpec {
    id: "library-opacus-rdp",
    label: "Opacus, RDP accountant, prints",
    digits: 4,
    bound: BoundKind::Exact,
};
/// Readout: what Opacus's Gaussian (central-limit) accountant prints.
pub const LIB_OPACUS_GDP: ReadoutSpec = ReadoutSpec {
    id: "library-opacus-gdp",
    label: "Opacus, Gaussian accountant, prints",
    digits: 4,
    bound: BoundKind::Exact,
};
/// Readout: what dp_accounting's RDP accountant prints.
pub const LIB_DPACC_RDP: ReadoutSpec = ReadoutSpec {
    id: "library-dp-accounting-rdp",
    label: "dp_accounting, RDP accountant, prints",
    digits: 4,
    bound: BoundKind::Exact,
};
/// Readout: what dp_accounting's PLD accountant prints (about the certified upper bound).
pub const LIB_DPACC_PLD: ReadoutSpec = ReadoutSpec {
    id: "library-dp-accounting-pld",
    label: "dp_accounting, PLD accountant, prints about",
    digits: 4,
    bound: BoundKind::Estimate,
};
/// Readout: what TensorFlow Privacy's compute_dp_sgd_privacy prints.
pub const LIB_TF_PRIVACY: ReadoutSpec = ReadoutSpec {
    id: "library-tf-privacy",
    label: "TensorFlow Privacy, compute_dp_sgd_privacy, prints",
    digits: 4,
    bound: BoundKind::Exact,
};
/// Sentences: the cause of each library's gap to the certified band (one per line).
pub const LIBRARY_CAUSES: NoteSpec = NoteSpec {
    id: "library-causes",
    kind: NoteKind::Small,
};

/// What each library prints for the run ([`amp_model::libraries`]), and why each differs.
pub(super) fn push_libraries(
    r: &mut Readings,
    v: &ParamValues,
    run: &Result<Training, ModelError>,
    buckets: usize,
    bands: &Samplers,
) {
    let own = match v.choice(p::BATCHING) {
        Batching::Shuffle => bands.shuffle.as_ref().ok(),
        Batching::BallsInBins => bands.balls.as_ref().ok(),
        Batching::Allocation => bands.allocation.as_ref().ok(),
        Batching::Poisson | Batching::TruncatedPoisson => None,
    };
    let reports = run.as_ref().map_err(Clone::clone).and_then(|t| {
        let epochs = if t.by_epochs {
            v.real(p::EPOCHS)
        } else {
            t.steps as f64 * t.batch as f64 / t.dataset as f64
        };
        probe::span("libraries", || {
            cached_band(t, buckets)
                .and_then(|band| libraries::reports(t, epochs, &band, buckets, own))
        })
    });
    let part = |f: fn(&libraries::Reports) -> f64| reports.as_ref().map(f).map_err(Clone::clone);
    let rel = Relation::AddRemove;
    r.push(&LIB_OPACUS_PRV, part(|x| x.opacus_prv), rel);
    r.push(&LIB_OPACUS_RDP, part(|x| x.opacus_rdp), rel);
    r.push(
        &LIB_OPACUS_GDP,
        reports
            .as_ref()
            .map_err(Clone::clone)
            .and_then(|x| x.opacus_gdp.clone()),
        rel,
    );
    r.push(&LIB_DPACC_RDP, part(|x| x.dp_accounting_rdp), rel);
    r.push(&LIB_DPACC_PLD, part(|x| x.dp_accounting_pld), rel);
    r.push(&LIB_TF_PRIVACY, part(|x| x.tf_privacy), rel);
    r.note(
        &LIBRARY_CAUSES,
        reports.as_ref().ok().map(|x| x.causes.join("\n")),
    );
}
