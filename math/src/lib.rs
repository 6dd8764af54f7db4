//! The mathematics of Amplification Explorer.
//!
//! Pure Rust with no web or plotting dependency. Every public function states its formula, its
//! source, the neighbouring relation it holds for, its domain, its measured accuracy and whether it
//! is exact or a bound. Values whose name starts with `ln_` are natural logarithms.
//!
//! All elementary functions go through [`special`], which uses the pure-Rust `libm` crate, so the
//! command-line tool (native) and the web app (wasm32) compute bit-identical numbers.
#![forbid(unsafe_code)]
// The house rule: no function over 100 lines (clippy's count of code lines).
#![warn(clippy::too_many_lines)]
#![deny(missing_docs)]

pub mod accounting;
pub mod accuracy;
pub mod audit;
pub mod batching;
pub mod error;
mod fft;
pub mod iteration;
pub mod libraries;
pub mod limits;
pub mod mean_error;
pub mod median;
pub mod median_sim;
pub mod memo;
pub mod pld;
pub mod rdp;
pub mod risk;
pub mod rng;
pub mod root;
pub mod shuffle;
pub mod special;
pub mod subsampling;
pub mod tuning;

pub use error::MathError;

/// The neighbouring relation a guarantee is stated for.
///
/// Results under different relations are not comparable: a mechanism with sensitivity 1 under
/// add/remove has sensitivity up to 2 under replace-one for many queries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Relation {
    /// Datasets differ by adding or removing one record.
    AddRemove,
    /// Datasets of the same size differ by replacing one record.
    ReplaceOne,
    /// Datasets differ by adding or removing one user with all of their records (user-level DP;
    /// each user has the same number of records).
    AddRemoveUser,
    /// Datasets of the same size differ in one record, replaced by one that contributes nothing
    /// (a zero gradient in DP-SGD). For Poisson sampling its pair is the add/remove one.
    ZeroOut,
}

impl Relation {
    /// A short machine name (`add-remove`, `replace-one`, `zero-out`), used in JSON output and URLs.
    pub fn id(self) -> &'static str {
        match self {
            Relation::AddRemove => "add-remove",
            Relation::ReplaceOne => "replace-one",
            Relation::AddRemoveUser => "add-remove-user",
            Relation::ZeroOut => "zero-out",
        }
    }

    /// A short human label, as shown on the badges next to numbers.
    pub fn label(self) -> &'static str {
        match self {
            Relation::AddRemove => "add/remove one",
            Relation::ReplaceOne => "replace one",
            Relation::AddRemoveUser => "add/remove one user",
            Relation::ZeroOut => "zero out one",
        }
    }
}

/// An (ε, δ) differential-privacy guarantee.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EpsDelta {
    /// The privacy-loss bound ε ≥ 0.
    pub epsilon: f64,
    /// The failure probability δ ∈ [0, 1).
    pub delta: f64,
}

impl EpsDelta {
    /// Build a guarantee, checking ε ∈ [0, [`MAX_EPSILON`]] and δ ∈ [0, 1).
    pub fn new(epsilon: f64, delta: f64) -> Result<Self, MathError> {
        check_epsilon("ε", epsilon)?;
        check_delta("δ", delta)?;
        Ok(Self { epsilon, delta })
    }
}

/// Largest ε accepted anywhere in the crate.
///
/// Reason: formulas contain e^ε; at ε = 709.8 it overflows f64. 500 leaves room for products with
/// other factors, and no meaningful guarantee is anywhere near it.
pub const MAX_EPSILON: f64 = 500.0;

/// Check that `value` is a finite ε in [0, [`MAX_EPSILON`]].
pub fn check_epsilon(name: &'static str, value: f64) -> Result<(), MathError> {
    if value.is_nan() {
        return Err(MathError::NotANumber { name });
    }
    if !(0.0..=MAX_EPSILON).contains(&value) {
        return Err(MathError::OutOfDomain {
            name,
            value,
            expected: "between 0 and 500",
        });
    }
    Ok(())
}

/// Check that `value` is a δ in [0, 1).
pub fn check_delta(name: &'static str, value: f64) -> Result<(), MathError> {
    if value.is_nan() {
        return Err(MathError::NotANumber { name });
    }
    if !(0.0..1.0).contains(&value) {
        return Err(MathError::OutOfDomain {
            name,
            value,
            expected: "at least 0 and below 1",
        });
    }
    Ok(())
}

/// Check that `value` is positive and finite (a noise scale, a step size, a Lipschitz constant).
pub fn check_positive(name: &'static str, value: f64) -> Result<(), MathError> {
    if value.is_nan() {
        return Err(MathError::NotANumber { name });
    }
    if !(value > 0.0 && value.is_finite()) {
        return Err(MathError::OutOfDomain {
            name,
            value,
            expected: "a positive finite number",
        });
    }
    Ok(())
}

/// Check that `value` is a probability in [0, 1].
pub fn check_probability(name: &'static str, value: f64) -> Result<(), MathError> {
    if value.is_nan() {
        return Err(MathError::NotANumber { name });
    }
    if !(0.0..=1.0).contains(&value) {
        return Err(MathError::OutOfDomain {
            name,
            value,
            expected: "between 0 and 1",
        });
    }
    Ok(())
}

/// Check that `value` is a sampling rate in (0, 1]: a probability, and not 0 (an empty sample
/// amplifies nothing and divides by zero in the inverses).
pub fn check_rate(name: &'static str, value: f64) -> Result<(), MathError> {
    check_probability(name, value)?;
    if value == 0.0 {
        return Err(MathError::OutOfDomain {
            name,
            value,
            expected: "above 0 and at most 1",
        });
    }
    Ok(())
}

/// Sort floats ascending in IEEE 754 total order (`f64::total_cmp`: −0 before +0, NaNs at the
/// ends by sign). Not a formula: one shared sort ([`heap_sort_by`]) so the wasm carries one small
/// copy of the sorting code (the arrays sorted are at most a population of 10⁵ values, once).
pub fn sort_floats(v: &mut [f64]) {
    heap_sort_by(v, |a, b| a.total_cmp(b).is_lt());
}

/// Sort in place so that no element is `less` than one before it: an unstable heap sort,
/// O(n log n) comparisons, no allocation. Not a formula: for the short lists of grid points and
/// index ranges and the simulations' populations, where the standard library's sort would add
/// several kilobytes of wasm per element type. `less` must be a strict weak order.
pub fn heap_sort_by<T>(v: &mut [T], mut less: impl FnMut(&T, &T) -> bool) {
    // Move v[i] down the max-heap v[..end].
    let mut sift = |v: &mut [T], mut i: usize, end: usize| loop {
        let mut child = 2 * i + 1;
        if child >= end {
            return;
        }
        if child + 1 < end && less(&v[child], &v[child + 1]) {
            child += 1;
        }
        if !less(&v[i], &v[child]) {
            return;
        }
        v.swap(i, child);
        i = child;
    };
    let n = v.len();
    for i in (0..n / 2).rev() {
        sift(v, i, n);
    }
    for end in (1..n).rev() {
        v.swap(0, end);
        sift(v, 0, end);
    }
}

#[cfg(test)]
mod sort_tests {
    #[test]
    fn heap_sort_agrees_with_the_standard_sort() {
        // Deterministic pseudo-random lists of every length up to 70, with many ties, and tuples.
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for n in 0..70 {
            let mut a: Vec<i64> = (0..n).map(|_| (next() % 23) as i64 - 11).collect();
            let mut b = a.clone();
            super::heap_sort_by(&mut a, |x, y| x < y);
            b.sort_unstable();
            assert_eq!(a, b, "n = {n}");
            let mut t: Vec<(i64, i64)> = (0..n)
                .map(|_| ((next() % 5) as i64, (next() % 7) as i64))
                .collect();
            let mut u = t.clone();
            super::heap_sort_by(&mut t, |x, y| x < y);
            u.sort_unstable();
            assert_eq!(t, u, "tuples, n = {n}");
            // Descending order by a key.
            let mut d: Vec<u64> = (0..n).map(|_| next() % 1000).collect();
            super::heap_sort_by(&mut d, |x, y| x > y);
            assert!(d.windows(2).all(|w| w[0] >= w[1]), "n = {n}");
        }
    }

    #[test]
    fn sort_floats_orders_totally() {
        let mut v = vec![
            3.0,
            -0.0,
            f64::INFINITY,
            0.0,
            -2.5,
            1e-300,
            f64::NEG_INFINITY,
            3.0,
        ];
        super::sort_floats(&mut v);
        let bits: Vec<u64> = v.iter().map(|x| x.to_bits()).collect();
        let want: Vec<u64> = [
            f64::NEG_INFINITY,
            -2.5,
            -0.0,
            0.0,
            1e-300,
            3.0,
            3.0,
            f64::INFINITY,
        ]
        .iter()
        .map(|x| x.to_bits())
        .collect();
        assert_eq!(bits, want);
    }
}
