//! A small seeded random number generator and the distributions the simulations need.
//!
//! - Generator: xoshiro256** (Blackman & Vigna, "Scrambled linear pseudorandom number
//!   generators", 2021), its state filled from the seed by SplitMix64 (Steele, Lea & Flood 2014),
//!   as its authors recommend. Integer arithmetic only, so identical on every platform.
//! - Floating-point draws use [`crate::special`] (pure-Rust libm), so the app (wasm) and the CLI
//!   (native) produce bit-identical samples for the same seed.
//!
//! Not cryptographic: these draws simulate the mechanisms for figures, they do not protect data.

use crate::special::{exp, ln, ln_1p};

/// xoshiro256** state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rng {
    s: [u64; 4],
}

/// One step of SplitMix64: the next value of the sequence that starts at `state`.
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A seed derived from a base seed and a list of tags (e.g. a cell's ε and rate), so that each part
/// of a simulation has its own stream, independent of the order or chunking of the work.
pub fn derive_seed(seed: u64, tags: &[u64]) -> u64 {
    let mut state = seed;
    let mut h = splitmix64(&mut state);
    for &t in tags {
        state ^= t.wrapping_mul(0xD6E8_FEB8_6659_FD93);
        h ^= splitmix64(&mut state);
    }
    h
}

impl Rng {
    /// A generator seeded from one 64-bit number.
    pub fn new(seed: u64) -> Rng {
        let mut st = seed;
        let s = [
            splitmix64(&mut st),
            splitmix64(&mut st),
            splitmix64(&mut st),
            splitmix64(&mut st),
        ];
        Rng { s }
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let result = self.s[1].wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        let t = self.s[1] << 17;
        self.s[2] ^= self.s[0];
        self.s[3] ^= self.s[1];
        self.s[1] ^= self.s[2];
        self.s[0] ^= self.s[3];
        self.s[2] ^= t;
        self.s[3] = self.s[3].rotate_left(45);
        result
    }

    /// Uniform on [0, 1), 53 random bits.
    #[inline]
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform on (0, 1): never exactly 0, for logarithms.
    #[inline]
    pub fn uniform_open(&mut self) -> f64 {
        ((self.next_u64() >> 11) as f64 + 0.5) * (1.0 / (1u64 << 53) as f64)
    }

    /// Uniform integer in [0, n), n ≥ 1, without bias (Lemire 2019, "Fast random integer generation
    /// in an interval": multiply, and reject the few low products that would bias the result).
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let mut m = (self.next_u64() as u128) * (n as u128);
        let mut low = m as u64;
        if low < n {
            let threshold = n.wrapping_neg() % n;
            while low < threshold {
                m = (self.next_u64() as u128) * (n as u128);
                low = m as u64;
            }
        }
        (m >> 64) as u64
    }

    /// Standard normal, by Marsaglia's polar method (one value per call; the pair's second value is
    /// discarded so the stream does not depend on call history).
    pub fn normal(&mut self) -> f64 {
        loop {
            let u = 2.0 * self.uniform() - 1.0;
            let v = 2.0 * self.uniform() - 1.0;
            let s = u * u + v * v;
            if s > 0.0 && s < 1.0 {
                return u * libm::sqrt(-2.0 * ln(s) / s);
            }
        }
    }

    /// Gamma(shape, 1) by Marsaglia & Tsang (2000), "A simple method for generating gamma
    /// variables"; shapes below 1 use Gamma(shape + 1)·U^{1/shape}.
    pub fn gamma(&mut self, shape: f64) -> f64 {
        if shape < 1.0 {
            let g = self.gamma(shape + 1.0);
            return g * exp(ln(self.uniform_open()) / shape);
        }
        let d = shape - 1.0 / 3.0;
        let c = 1.0 / libm::sqrt(9.0 * d);
        loop {
            let x = self.normal();
            let v = 1.0 + c * x;
            if v <= 0.0 {
                continue;
            }
            let v = v * v * v;
            let u = self.uniform_open();
            if ln(u) < 0.5 * x * x + d - d * v + d * ln(v) {
                return d * v;
            }
        }
    }

    /// Beta(a, b) as G_a/(G_a + G_b).
    pub fn beta(&mut self, a: f64, b: f64) -> f64 {
        let x = self.gamma(a);
        let y = self.gamma(b);
        x / (x + y)
    }

    /// Laplace(0, scale) by inverting its distribution function.
    pub fn laplace(&mut self, scale: f64) -> f64 {
        let u = self.uniform_open() - 0.5;
        let mag = -scale * ln_1p(-2.0 * u.abs());
        if u < 0.0 {
            -mag
        } else {
            mag
        }
    }
}

#[cfg(test)]
// Tests compare against std's functions on purpose (an independent computation).
#[allow(clippy::disallowed_methods)]
mod tests {
    use super::*;

    /// The published first outputs of SplitMix64 from seed 1234567 (the reference implementation's
    /// test vector).
    #[test]
    fn splitmix64_matches_its_reference_vector() {
        let mut s = 1_234_567u64;
        let got: Vec<u64> = (0..5).map(|_| splitmix64(&mut s)).collect();
        assert_eq!(
            got,
            vec![
                6_457_827_717_110_365_317,
                3_203_168_211_198_807_973,
                9_817_491_932_198_370_423,
                4_593_380_528_125_082_431,
                16_408_922_859_458_223_821
            ]
        );
    }

    #[test]
    fn moments_are_right() {
        let mut r = Rng::new(42);
        let n = 200_000;
        let (mut s1, mut s2) = (0.0, 0.0);
        for _ in 0..n {
            let x = r.normal();
            s1 += x;
            s2 += x * x;
        }
        assert!((s1 / n as f64).abs() < 0.01 && (s2 / n as f64 - 1.0).abs() < 0.02);
        // Beta(2, 10): mean 2/12, variance 20/(144·13).
        let (mut m1, mut m2) = (0.0, 0.0);
        for _ in 0..n {
            let x = r.beta(2.0, 10.0);
            assert!((0.0..=1.0).contains(&x));
            m1 += x;
            m2 += x * x;
        }
        let mean = m1 / n as f64;
        let var = m2 / n as f64 - mean * mean;
        assert!((mean - 2.0 / 12.0).abs() < 0.002, "{mean}");
        assert!((var - 20.0 / (144.0 * 13.0)).abs() < 0.001, "{var}");
        // Laplace(0, 2): variance 8.
        let v: f64 = (0..n).map(|_| r.laplace(2.0).powi(2)).sum::<f64>() / n as f64;
        assert!((v - 8.0).abs() < 0.15, "{v}");
    }

    #[test]
    fn below_is_uniform_and_in_range() {
        let mut r = Rng::new(7);
        let mut counts = [0u32; 7];
        for _ in 0..70_000 {
            counts[r.below(7) as usize] += 1;
        }
        for c in counts {
            assert!((9_500..10_500).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn same_seed_same_stream_and_derived_seeds_differ() {
        let a: Vec<u64> = {
            let mut r = Rng::new(9);
            (0..4).map(|_| r.next_u64()).collect()
        };
        let b: Vec<u64> = {
            let mut r = Rng::new(9);
            (0..4).map(|_| r.next_u64()).collect()
        };
        assert_eq!(a, b);
        assert_ne!(derive_seed(9, &[1, 2]), derive_seed(9, &[2, 1]));
        assert_ne!(derive_seed(9, &[1]), derive_seed(10, &[1]));
    }
}
