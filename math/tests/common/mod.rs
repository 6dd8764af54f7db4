//! Helpers shared by the property tests (each test file that needs them has `mod common;`).
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here
use proptest::prelude::*;

/// Any float a hostile caller might pass: NaN, ±∞, ±0, the extremes of the range, a few
/// in-range values, arbitrary bit patterns, magnitudes spread over 10^±300, and the usual domain of
/// ε (1e-12 to 50).
pub fn any_f64() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(f64::NAN),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        Just(0.0),
        Just(-0.0),
        Just(1.0),
        Just(-1e-300),
        Just(5e-324),
        Just(f64::MIN_POSITIVE),
        Just(f64::MAX),
        Just(1e-100),
        Just(100.0),
        Just(500.0),
        any::<f64>(),
        -10.0..10.0f64,
        (-300.0..300.0f64).prop_map(|x| 10f64.powf(x)),
        // The usual domain of ε, 1e-12 to 50, log-uniformly.
        (-12.0..50f64.log10()).prop_map(|x| 10f64.powf(x)),
    ]
}
