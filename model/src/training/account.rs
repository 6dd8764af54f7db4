//! The training run accounted: the PLD accountant at a budget, the composed and refined bands, the
//! calibration of the noise, the Rényi DP ε, and everything the readouts show.

use super::*;

/// The PLD accountant at a budget of buckets, with the balls-in-bins and shuffle settings of the
/// precision (`quick`: those that follow a slider).
pub fn accountant(buckets: usize, epochs: EpochSettings) -> PldAccountant {
    PldAccountant::with_budget(buckets, pld::STEP_RANGE.0, epochs)
}

/// The composed band of an event at a budget, remembered for the last few (the readouts, the
/// attacker's numbers and the figures ask for the same ones).
pub fn band_of(event: &Event, acc: &PldAccountant) -> Result<Rc<pld::Band>, ModelError> {
    type Key = (Event, PldAccountant);
    thread_local! {
        static SLOT: crate::memo::Slot<Key, pld::Band> = const { std::cell::RefCell::new(Vec::new()) };
    }
    remembered(&SLOT, (event.clone(), *acc), || {
        acc.band(event).map_err(ModelError::from)
    })
}

/// The composed band of the reader's run with Poisson sampling in every phase (the tight ε), at
/// a budget. At the refined budget ([`FINE`] or more) the band is kept at most [`BAND_WIDTH`] of
/// ε wide where ε ≥ 0.01 at the run's δ: a wider one (long runs at a small rate: 3.5% at σ = 3,
/// q = 0.001, 10,000 steps) is computed again with the budget its width asks for (the width
/// shrinks linearly with the grid step), at most [`MAX_REFINE`] times [`FINE`]; if even that is
/// not enough, that band, wider than asked, is the one shown.
pub fn cached_band(t: &Training, buckets: usize) -> Result<Rc<pld::Band>, ModelError> {
    let event = t.poisson_event();
    let band = band_of(&event, &accountant(buckets, EpochSettings::FINE))?;
    if buckets < FINE || band.step <= pld::STEP_RANGE.0 {
        return Ok(band);
    }
    let Ok((upper, lower)) = band.epsilon(t.delta) else {
        return Ok(band);
    };
    let wide = (upper - lower) / (BAND_WIDTH * 0.9 * upper);
    if upper < 0.01 || wide <= 1.0 {
        return Ok(band);
    }
    let more = (buckets as f64 * wide).min((MAX_REFINE * FINE) as f64) as usize;
    if more <= buckets {
        return Ok(band);
    }
    band_of(&event, &accountant(more, EpochSettings::FINE))
}

/// The widest refined band, relative to ε ([`cached_band`]): 1%.
pub const BAND_WIDTH: f64 = 0.01;
/// The most budget the refinement of a band spends, in multiples of [`FINE`].
pub const MAX_REFINE: usize = 4;

/// The noise (σ, or b for Laplace), the same in every phase, whose certified ε at δ over the run
/// (Poisson sampling) is at most `target`, to relative accuracy `rel`, at a budget.
pub fn calibrate(t: &Training, target: f64, buckets: usize, rel: f64) -> Result<f64, ModelError> {
    calibrate_event(
        &accountant(buckets, EpochSettings::FINE),
        |s| t.with_noise(s).poisson_event(),
        Target::Epsilon {
            epsilon: target,
            delta: t.delta,
        },
        Search::Noise { rel },
    )
    .map_err(ModelError::from)
}

/// [`calibrate`] of the first phase alone at another rate and length (the figures' sweeps).
pub fn calibrate_at(
    t: &Training,
    q: f64,
    steps: u64,
    target: f64,
    buckets: usize,
    rel: f64,
) -> Result<f64, ModelError> {
    let one = Training {
        q,
        steps,
        more: [None; MAX_PHASES - 1],
        batching: Batching::Poisson,
        ..*t
    };
    calibrate(&one, target, buckets, rel)
}

/// The Rényi DP ε of the run with Poisson sampling in every phase (improved conversion); none
/// for several records per user.
pub fn rdp_epsilon(t: &Training) -> Result<Converted, ModelError> {
    if t.max_batch > 0 {
        return Err(
            "no Rényi DP for capped batches here (the PLD band above accounts them)".into(),
        );
    }
    if t.records > 1 {
        return Err(ModelError::NotApplicable(format!(
            "no Rényi DP for a user with R = {} records here (the tight band above is exact to its grid)",
            t.records
        )));
    }
    RdpAccountant::default()
        .converted(&t.poisson_event(), t.delta)
        .map_err(ModelError::from)
}

/// Everything the readouts show.
#[derive(Clone, Debug, PartialEq)]
pub struct Account {
    /// Certified upper bound on ε at δ (pessimistic PLD).
    pub upper: f64,
    /// Lower bound on ε at δ (optimistic PLD).
    pub lower: f64,
    /// The grid step used.
    pub step: f64,
    /// ε from Rényi DP (improved conversion) with its order.
    pub rdp: Result<Converted, ModelError>,
    /// The noise for the target ε (certified), or why there is none.
    pub calibrated: Result<f64, ModelError>,
    /// Whether these are the refined numbers.
    pub fine: bool,
    /// ε for one user from a record's guarantee by the group-privacy lemma (None: no finite ε),
    /// or why there is none; R = 1: the tight ε itself.
    pub group_lemma: Result<Option<f64>, ModelError>,
    /// With gradient accumulation (A > 1), the certified ε an accountant would report if it took
    /// the micro-batch for the batch ([`Training::as_if_micro_batches`]): below the true one. The
    /// tight ε itself when A = 1.
    pub micro: Result<f64, ModelError>,
    /// The first phase's cap as probabilities per step ([`pld::truncation`]): t (the batch is
    /// cut to M) and the rate an example is in the batch; t = 0 and q without a cap.
    pub cap: pld::Truncation,
}

/// [`pld::truncation`] of a run's first phase: t = 0 and the rate q when it has no cap (M = 0)
/// or a cap no batch can reach.
pub fn cap_of(t: &Training) -> Result<pld::Truncation, ModelError> {
    if t.max_batch == 0 {
        return Ok(pld::Truncation {
            truncated: 0.0,
            rate_when_truncated: 0.0,
            rate: t.q,
            untruncated: 1.0,
        });
    }
    pld::truncation(t.dataset, t.q, t.max_batch).map_err(ModelError::from)
}

/// The readouts at a budget: [`QUICK`] while the controls move, [`FINE`] once they rest.
pub fn account(values: &ParamValues, fine: bool) -> Result<Account, ModelError> {
    let t = setting(values)?;
    t.check_records(Some(Batching::Poisson))?;
    let band = cached_band(&t, if fine { FINE } else { QUICK })?;
    let (upper, lower) = band.epsilon(t.delta).map_err(ModelError::from)?;
    let rdp = rdp_epsilon(&t);
    let (cal_budget, cal_rel) = if fine { (QUICK, 1e-4) } else { (3_680, 1e-3) };
    let calibrated = calibrate(&t, values.real(p::TARGET_EPS), cal_budget, cal_rel);
    let group_lemma = if t.records > 1 {
        amp_math::accounting::group_lemma_epsilon(
            &t.poisson_event(),
            t.records,
            t.delta,
            &accountant(if fine { FINE } else { QUICK }, EpochSettings::FINE),
        )
        .map_err(ModelError::from)
    } else {
        // One record per user: the lemma is the identity.
        Ok(Some(upper))
    };
    Ok(Account {
        upper,
        lower,
        step: band.step,
        rdp,
        calibrated,
        fine,
        group_lemma,
        micro: if t.accumulation > 1 {
            cached_band(&t.as_if_micro_batches(), if fine { FINE } else { QUICK })
                .and_then(|b| b.epsilon(t.delta).map_err(ModelError::from))
                .map(|e| e.0)
        } else {
            Ok(upper)
        },
        cap: cap_of(&t)?,
    })
}
