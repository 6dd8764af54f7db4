//! The shuffling page's model (seed 004, §1.3 and §2): the reader's setting and randomizer, every
//! published shuffle bound at that setting, the tightest valid one, the exact clone reduction, and
//! the inverse (the local ε₀ a central target allows). Read by the page's readouts and table, its
//! figures, the home page and `amplify shuffle`.

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
pub fn table(values: &ParamValues) -> Result<Vec<ShuffleEpsilon>, String> {
    let (eps0, n, delta) = setting(values);
    let r = randomizer(values);
    Bound::ALL
        .iter()
        .map(|&b| shuffle_epsilon_with(b, r, eps0, n, delta).map_err(|e| e.to_string()))
        .collect()
}

/// The tightest valid bound at the reader's setting.
pub fn tightest(values: &ParamValues) -> Result<ShuffleEpsilon, String> {
    let (eps0, n, delta) = setting(values);
    best_with(randomizer(values), eps0, n, delta).map_err(|e| e.to_string())
}

/// The exact clone-reduction ε at the reader's setting: (lower, certified upper).
pub fn numerical(values: &ParamValues) -> Result<(f64, f64), String> {
    let (eps0, n, delta) = setting(values);
    fmt21_numerical(eps0, n, delta).map_err(|e| e.to_string())
}

/// The largest local ε₀ that meets the target central ε at (n, δ), over every bound (each one
/// certifies its own answer, so the largest is the answer), with the bound that gives it and,
/// when that bound's validity box rather than the target stopped it, why.
pub fn local_for_target(
    values: &ParamValues,
) -> Result<(f64, Bound, Option<&'static str>), String> {
    let (_, n, delta) = setting(values);
    let target = values.real(p::TARGET_EPS);
    if target <= 0.0 {
        return Err("a target central ε of 0 allows no randomization".into());
    }
    largest_eps0_over(&Bound::ALL, randomizer(values), target, n, delta)
        .map(|(b, l)| (l.eps0, b, l.limited_by_validity))
        .map_err(|e| e.to_string())
}
