//! Privacy loss distributions (PLDs): tight (ε, δ) accounting of composed mechanisms, with a
//! certified upper bound and a matching lower bound.
//!
//! For a pair of output distributions (P, Q) of a mechanism on neighbouring inputs, the privacy
//! loss is L = log(dP/dQ)(X) with X ∼ P, and the hockey-stick divergence is
//! δ(ε) = E[(1 − e^{ε − L})₊] + P(L = ∞) (Dwork & Rothblum 2016; Sommer, Meiser & Mohammadi 2019;
//! Koskela, Jälkö & Honkela 2020). Composing mechanisms adds independent losses, so the PLD of a
//! composition is the convolution of the PLDs, computed here with one FFT.
//!
//! Discretisation on a grid of step h (Meiser & Mohammadi 2018, "privacy buckets"): the
//! *pessimistic* PLD moves the mass of every bucket (l − h, l] up to l, the *optimistic* one down to
//! l − h. Since (1 − e^{ε−l})₊ is increasing in l and the composed loss is the sum of the per-step
//! losses, coupling shows that δ from the pessimistic PLD is an upper bound and δ from the
//! optimistic one a lower bound on the true δ(ε) of the composition. Tails: the pessimistic PLD
//! puts the mass above its range at +∞ and the mass below at its lowest point; the optimistic one
//! puts the mass above at its highest point and drops the mass below. The FFT is cyclic: composed
//! mass outside the window wraps around; the window is chosen from Chernoff bounds so that this mass
//! is below `TAIL` on each side, and that bound is added to (pessimistic) or subtracted from
//! (optimistic) δ. Nothing is dropped without being accounted for.
//!
//! Accuracy: the true δ lies between the two estimates, up to floating-point rounding in the FFT
//! (of order 1e-16 times the number of buckets, far below the δ values of interest); their gap
//! shrinks linearly with h.

use crate::fft::{self, Chunk, Pair, LANES};
use crate::special::{exp, exp_m1, ln, ln_1p};
use crate::MathError;
use std::borrow::Cow;

mod calibration;
mod composition;
mod grid;
mod group;
mod mechanisms;
mod truncated;

pub use calibration::{
    gaussian_as_one, gaussian_epsilon, step_dividing, step_for_budget, Band, Noise, STEP_RANGE,
};
pub use composition::{compose, compose_two};
pub use grid::{Estimate, Pld, DEFAULT_STEP, RESOLUTION, TAIL};
pub use group::{poisson_gaussian_group, MAX_RECORDS};
pub use mechanisms::{poisson_gaussian, poisson_laplace, randomized_response, PldPair};
pub use truncated::{truncated_poisson_gaussian, truncation, Truncation};

/// Complex numbers as (re, im), for [`fft`].
#[cfg(test)]
type C = (f64, f64);

/// The transform of `x` in natural order (scaled by 1/n if `inverse`), from [`fft`]'s bit-reversed
/// one.
#[cfg(test)]
fn fft(x: &mut [C], inverse: bool) {
    let n = x.len();
    let bits = n.trailing_zeros();
    let rev = |p: usize| {
        if bits == 0 {
            p
        } else {
            p.reverse_bits() >> (usize::BITS - bits)
        }
    };
    let (mut re, mut im): (Vec<f64>, Vec<f64>) = x.iter().copied().unzip();
    if inverse {
        let (r, i): (Vec<f64>, Vec<f64>) = (0..n).map(|p| (re[rev(p)], im[rev(p)])).unzip();
        (re, im) = (r, i);
        fft::inverse_unscaled(&mut re, &mut im);
        for (v, (r, i)) in x.iter_mut().zip(re.iter().zip(&im)) {
            *v = (r / n as f64, i / n as f64);
        }
    } else {
        fft::forward(&mut re, &mut im);
        for (p, v) in x.iter_mut().enumerate() {
            *v = (re[rev(p)], im[rev(p)]);
        }
    }
}

#[cfg(test)]
// Tests compare against std's functions on purpose (an independent computation).
#[allow(clippy::disallowed_methods)]
mod tests {
    use super::composition::window_to_front;
    use super::grid::LossLaw;
    use super::mechanisms::{gaussian_loss_means, mixture_exponent};
    use super::*;
    use crate::special::normal_cdf;

    #[test]
    fn fft_round_trip_and_convolution() {
        let mut x: Vec<C> = (0..8).map(|i| (i as f64, 0.0)).collect();
        let orig = x.clone();
        fft(&mut x, false);
        fft(&mut x, true);
        for (a, b) in x.iter().zip(&orig) {
            assert!((a.0 - b.0).abs() < 1e-12 && a.1.abs() < 1e-12);
        }
    }

    /// The packed, bit-reversed pipeline against a direct convolution: one part (in place), two
    /// parts (accumulated half spectra), both packing slots, and [`compose`] alone.
    #[test]
    fn compositions_match_direct_convolution() {
        let pld = |masses: Vec<f64>, offset: i64| Pld {
            step: 0.1,
            offset,
            masses,
            infinity: 0.0,
            slack: 0.0,
            estimate: Estimate::Pessimistic,
            drift: 0.0,
            spread: 0.0,
            fail: 0.0,
        };
        let a = pld(vec![0.1, 0.4, 0.3, 0.2], -1);
        let b = pld(vec![0.5, 0.0, 0.25, 0.125, 0.125], 2);
        let conv = |x: &[f64], y: &[f64]| -> Vec<f64> {
            let mut out = vec![0.0; x.len() + y.len() - 1];
            for (i, u) in x.iter().enumerate() {
                for (j, v) in y.iter().enumerate() {
                    out[i + j] += u * v;
                }
            }
            out
        };
        let power = |x: &Pld, k: u64| -> (i64, Vec<f64>) {
            let mut m = vec![1.0];
            for _ in 0..k {
                m = conv(&m, &x.masses);
            }
            (x.offset * k as i64, m)
        };
        let check = |got: &Pld, want: (i64, Vec<f64>)| {
            for (i, &m) in want.1.iter().enumerate() {
                let j = (want.0 + i as i64 - got.offset) as usize;
                let g = if j < got.masses.len() {
                    got.masses[j]
                } else {
                    0.0
                };
                assert!((g - m).abs() < 1e-13, "index {i}: {g} vs {m}");
            }
        };
        let (x, y) = compose_two(&[(&a, 7)], &[(&b, 5)]).unwrap();
        check(&x, power(&a, 7));
        check(&y, power(&b, 5));
        let (y, x) = compose_two(&[(&b, 5)], &[(&a, 7)]).unwrap();
        check(&x, power(&a, 7));
        check(&y, power(&b, 5));
        check(&compose(&[(&a, 7)]).unwrap(), power(&a, 7));
        let (pa, pb) = (power(&a, 3), power(&b, 4));
        let both = (pa.0 + pb.0, conv(&pa.1, &pb.1));
        check(&compose(&[(&a, 3), (&b, 4)]).unwrap(), both.clone());
        let (x, y) = compose_two(&[(&a, 3), (&b, 4)], &[(&b, 2)]).unwrap();
        check(&x, both);
        check(&y, power(&b, 2));
    }

    /// The shared table of the Poisson-subsampled Gaussian gives the same bits as discretising each
    /// direction's laws on their own (the closures of the formulas in `poisson_gaussian`'s doc,
    /// through [`Pld::from_law`]), both roundings, q = 1 (no floor) included.
    #[test]
    fn gaussian_table_matches_the_laws() {
        for (sigma, q, step) in [
            (0.8, 0.1, 1e-3),
            (2.0, 0.01, 1e-3),
            (1.0, 1.0, 1e-2),
            (5.0, 0.001, 1e-4),
            (0.5, 0.9, 0.05),
        ] {
            let x_of = |v: f64| sigma * sigma * mixture_exponent(v, q) + 0.5;
            let floor = ln_1p(-q);
            let mix_lo =
                |x: f64| (1.0 - q) * normal_cdf(x / sigma) + q * normal_cdf((x - 1.0) / sigma);
            let mix_up =
                |x: f64| (1.0 - q) * normal_cdf(-x / sigma) + q * normal_cdf((1.0 - x) / sigma);
            let at = |v: f64, below: f64, f: &dyn Fn(f64) -> f64| {
                if v <= floor {
                    below
                } else {
                    f(x_of(v))
                }
            };
            let cdf_r = |l: f64| at(l, 0.0, &mix_lo);
            let sur_r = |l: f64| at(l, 1.0, &mix_up);
            let qcdf_r = |l: f64| at(l, 0.0, &|x| normal_cdf(x / sigma));
            let qsur_r = |l: f64| at(l, 1.0, &|x| normal_cdf(-x / sigma));
            let cdf_a = |l: f64| at(-l, 1.0, &|x| normal_cdf(-x / sigma));
            let sur_a = |l: f64| at(-l, 0.0, &|x| normal_cdf(x / sigma));
            let qcdf_a = |l: f64| at(-l, 1.0, &mix_up);
            let qsur_a = |l: f64| at(-l, 0.0, &mix_lo);
            for estimate in [Estimate::Pessimistic, Estimate::Optimistic] {
                let means = match estimate {
                    Estimate::Optimistic => gaussian_loss_means(sigma, q),
                    Estimate::Pessimistic => [(f64::NAN, 0.0); 2],
                };
                let law = |cdf, survival, q_cdf, q_survival, lo, hi, (mean, mean_error)| LossLaw {
                    cdf,
                    survival,
                    q_cdf,
                    q_survival,
                    lo,
                    hi,
                    mean,
                    mean_error,
                };
                let remove = law(
                    &cdf_r,
                    &sur_r,
                    &qcdf_r,
                    &qsur_r,
                    floor,
                    f64::INFINITY,
                    means[0],
                );
                let add = law(
                    &cdf_a,
                    &sur_a,
                    &qcdf_a,
                    &qsur_a,
                    f64::NEG_INFINITY,
                    -floor,
                    means[1],
                );
                let direct = (
                    Pld::from_law(&remove, step, estimate).unwrap(),
                    Pld::from_law(&add, step, estimate).unwrap(),
                );
                let shared = poisson_gaussian(sigma, q, step, estimate).unwrap();
                for (a, b) in [(&shared.remove, &direct.0), (&shared.add, &direct.1)] {
                    assert_eq!((a.offset, a.masses.len()), (b.offset, b.masses.len()));
                    let bits = |p: &Pld| p.masses.iter().map(|m| m.to_bits()).collect::<Vec<_>>();
                    assert_eq!(bits(a), bits(b), "σ = {sigma}, q = {q}, {estimate:?}");
                    assert_eq!(a.infinity.to_bits(), b.infinity.to_bits());
                    // The same value, or both NaN (a NaN's sign bit depends on how the compiler
                    // evaluates the expression, so it differs between debug and release builds).
                    assert!(
                        a.drift.to_bits() == b.drift.to_bits()
                            || (a.drift.is_nan() && b.drift.is_nan()),
                        "{} vs {}",
                        a.drift,
                        b.drift
                    );
                }
            }
        }
    }

    /// Moving the FFT's window to the front: every rotation and length against `rotate_left`
    /// (each branch: no wrap, the tail moved up first, either piece set aside, the fallback).
    #[test]
    fn window_to_front_matches_rotation() {
        let n = 64;
        let v: Vec<f64> = (0..n)
            .map(|i| if i % 5 == 0 { -(i as f64) } else { i as f64 })
            .collect();
        for rot in 0..n {
            for span in 1..=n {
                let mut want = v.clone();
                want.rotate_left(rot);
                want.truncate(span);
                for m in want.iter_mut() {
                    *m = m.max(0.0);
                }
                let mut got = v.clone();
                window_to_front(&mut got, rot, span);
                assert_eq!(&got[..span], &want[..], "rot {rot}, span {span}");
            }
        }
    }
}
