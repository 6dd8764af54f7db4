//! The shuffling page's model (Brown, lecture notes "Privacy amplification", §1.3 and §2): the
//! reader's setting and randomizer, every published shuffle bound at that setting, the tightest
//! valid one, the exact clone reduction, and the inverse (the local ε₀ a central target allows).
//! Read by the page's readouts and table, its figures, the home page and `amplify shuffle`.

use crate::ModelError;
use amp_math::shuffle::{
    best_with, fmt21_numerical, largest_eps0_over, shuffle_epsilon_with, Bound, Randomizer,
    ShuffleEpsilon,
};

use crate::param as p;
use crate::params::{ParamValues, RandomizerKind};

/// The randomizer the privacy-blanket bounds may assume.
pub fn randomizer(values: &ParamValues) -> Randomizer {
    match values.choice(p::RANDOMIZER) {
        RandomizerKind::Generic => Randomizer::Generic,
        RandomizerKind::KRr => Randomizer::KRr {
            k: values.count(p::K),
        },
    }
}

/// The reader's setting: ε₀, n, δ.
pub fn setting(values: &ParamValues) -> (f64, u64, f64) {
    (
        values.real(p::EPS0),
        values.count(p::USERS),
        values.real(p::DELTA),
    )
}

/// Every bound at the reader's (ε₀, n, δ), in [`Bound::ALL`] order.
pub fn table(values: &ParamValues) -> Result<Vec<ShuffleEpsilon>, ModelError> {
    let (eps0, n, delta) = setting(values);
    let r = randomizer(values);
    Bound::ALL
        .iter()
        .map(|&b| shuffle_epsilon_with(b, r, eps0, n, delta).map_err(ModelError::from))
        .collect()
}

/// The tightest valid bound at the reader's setting.
pub fn tightest(values: &ParamValues) -> Result<ShuffleEpsilon, ModelError> {
    let (eps0, n, delta) = setting(values);
    best_with(randomizer(values), eps0, n, delta).map_err(ModelError::from)
}

/// The exact clone-reduction ε at the reader's setting: (lower, certified upper).
pub fn numerical(values: &ParamValues) -> Result<(f64, f64), ModelError> {
    let (eps0, n, delta) = setting(values);
    fmt21_numerical(eps0, n, delta).map_err(ModelError::from)
}

/// The largest local ε₀ that meets the target central ε at (n, δ), over every bound (each one
/// certifies its own answer, so the largest is the answer), with the bound that gives it and,
/// when that bound's validity box rather than the target stopped it, why.
pub fn local_for_target(
    values: &ParamValues,
) -> Result<(f64, Bound, Option<&'static str>), ModelError> {
    let (_, n, delta) = setting(values);
    let target = values.real(p::TARGET_EPS);
    if target <= 0.0 {
        return Err("a target central ε of 0 allows no randomization".into());
    }
    largest_eps0_over(&Bound::ALL, randomizer(values), target, n, delta)
        .map(|(b, l)| (l.eps0, b, l.limited_by_validity))
        .map_err(ModelError::from)
}

/// The PLD accountant of the shuffle model over many rounds at a bucket budget (the training
/// page's: [`crate::training::FINE`] for the CLI and the refined page, `QUICK` while a
/// control moves); the clone pair's loss concentrates as n grows, so a fixed step would not do.
pub fn rounds_accountant(buckets: usize) -> amp_math::accounting::PldAccountant {
    crate::training::accountant(buckets, amp_math::accounting::EpochSettings::FINE)
}

/// Whether the reader's randomizer allows FMT23's stronger clones (k-ary randomized response).
pub fn stronger_allowed(values: &ParamValues) -> bool {
    amp_math::shuffle::stronger_clones_exclude(randomizer(values)).is_none()
}

/// The reader's δ for R rounds: the composed loss distribution's FFT resolves δ down to 1e-11.
pub fn rounds_delta(values: &ParamValues) -> Result<f64, ModelError> {
    let delta = values.real(p::DELTA);
    if delta < 1e-11 {
        return Err(
            "composing rounds needs δ of at least 1e-11 (the loss distribution's FFT resolves no \
             smaller δ); the one-round bounds above take δ down to 1e-100"
                .into(),
        );
    }
    Ok(delta)
}

/// The R rounds of the reader's setting as an event.
fn rounds_event(values: &ParamValues, stronger: bool) -> amp_math::accounting::Event {
    let (eps0, n, _) = setting(values);
    amp_math::accounting::Event::Shuffle {
        eps0,
        users: n,
        stronger,
    }
    .repeated(values.count(p::ROUNDS))
}

/// The composed band of the R rounds at a budget, remembered (the ε readouts and the attacker
/// share it).
fn rounds_band(
    values: &ParamValues,
    stronger: bool,
    buckets: usize,
) -> Result<std::rc::Rc<amp_math::pld::Band>, ModelError> {
    crate::training::band_of(&rounds_event(values, stronger), &rounds_accountant(buckets))
}

/// R rounds at the reader's (ε₀, n, δ, R): the certified band from the clone pair's composed PLD
/// and the classic composition of the one-round ε (FMT23's stronger clones when `stronger`), at
/// a bucket budget.
pub fn rounds(
    values: &ParamValues,
    stronger: bool,
    buckets: usize,
) -> Result<amp_math::shuffle::RoundsEpsilon, ModelError> {
    let (eps0, n, _) = setting(values);
    let delta = rounds_delta(values)?;
    let band = rounds_band(values, stronger, buckets)?;
    amp_math::shuffle::rounds_epsilon_of(&band, eps0, n, stronger, values.count(p::ROUNDS), delta)
        .map_err(ModelError::from)
}

/// Rényi DP of the same R rounds: the clone pair's curve on [`amp_math::shuffle::rdp_orders`],
/// times R, converted at δ (an upper bound).
pub fn rounds_rdp(values: &ParamValues, stronger: bool) -> Result<f64, ModelError> {
    use amp_math::accounting::{Accountant, RdpAccountant};
    let delta = rounds_delta(values)?;
    let acc = RdpAccountant {
        orders: amp_math::shuffle::rdp_orders(),
        ..Default::default()
    };
    acc.epsilon(&rounds_event(values, stronger), delta)
        .map(|b| b.upper)
        .map_err(ModelError::from)
}

/// The largest ε₀ per round for the central target after R rounds (certified), at a budget and
/// to a relative accuracy, remembered (it does not depend on ε₀, so moving ε₀ costs nothing here).
pub fn rounds_local_for_target(
    values: &ParamValues,
    stronger: bool,
    buckets: usize,
    rel: f64,
) -> Result<f64, ModelError> {
    type Key = (u64, bool, u64, u64, u64, usize, u64);
    thread_local! {
        static SLOT: crate::memo::Slot<Key, f64> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let (_, n, _) = setting(values);
    let delta = rounds_delta(values)?;
    let (r, target) = (values.count(p::ROUNDS), values.real(p::TARGET_EPS));
    let key = (
        n,
        stronger,
        r,
        delta.to_bits(),
        target.to_bits(),
        buckets,
        rel.to_bits(),
    );
    crate::memo::remembered(&SLOT, key, || {
        amp_math::shuffle::largest_eps0_rounds(
            &rounds_accountant(buckets),
            n,
            stronger,
            r,
            delta,
            target,
            rel,
        )
        .map_err(ModelError::from)
    })
    .map(|x| *x)
}

/// The optimal attacker after R rounds at the reader's (ε₀, n, R): the trade-off band from both
/// roundings of the clone pair composed R times, at a budget, remembered.
pub fn rounds_attack(
    values: &ParamValues,
    stronger: bool,
    buckets: usize,
) -> Result<std::rc::Rc<crate::risk::Attack>, ModelError> {
    type Key = (amp_math::accounting::Event, usize);
    thread_local! {
        static SLOT: crate::memo::Slot<Key, crate::risk::Attack> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let event = rounds_event(values, stronger);
    crate::memo::remembered(&SLOT, (event, buckets), || {
        let band = rounds_band(values, stronger, buckets)?;
        crate::risk::Attack::new(band.step, band.upper.clone(), band.lower.clone())
    })
}
