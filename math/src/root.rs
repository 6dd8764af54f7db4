//! The project's one bracketing root finder (Brent's method), reused by every inverse.
//!
//! Brent (1973), "Algorithms for Minimization without Derivatives", ch. 4: inverse quadratic
//! interpolation with a bisection safeguard. It keeps a bracket [b, c] with a sign change, so it
//! always converges; each step either interpolates or halves.

use crate::MathError;

/// Stopping rule for [`brent`]: stop when the bracket is narrower than `abs + rel·|x|`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerance {
    /// Absolute width of the final bracket.
    pub abs: f64,
    /// Width relative to the root.
    pub rel: f64,
    /// Iteration budget; exceeding it is [`MathError::NoConvergence`].
    pub max_iterations: usize,
}

impl Tolerance {
    /// Relative accuracy near machine precision (4 ulp), for inverses that must round-trip.
    pub const TIGHT: Tolerance = Tolerance {
        abs: 0.0,
        rel: 4.0 * f64::EPSILON,
        // Brent needs ~10 evaluations on smooth simple roots; a triple root at 1e-7 needs ~220.
        max_iterations: 500,
    };
}

/// Find x in [lo, hi] with f(x) = 0, given that f(lo) and f(hi) differ in sign (or one is 0).
///
/// Returns an x whose bracket is narrower than the tolerance. Errors: [`MathError::NotBracketed`]
/// if both ends have the same sign, [`MathError::NotANumber`] if f returns NaN,
/// [`MathError::NoConvergence`] if the iteration budget runs out.
pub fn brent<F: FnMut(f64) -> f64>(
    mut f: F,
    lo: f64,
    hi: f64,
    tol: Tolerance,
) -> Result<f64, MathError> {
    let (mut a, mut b) = (lo, hi);
    let (mut fa, mut fb) = (f(a), f(b));
    if fa.is_nan() || fb.is_nan() {
        return Err(MathError::NotANumber {
            name: "root-finder function value",
        });
    }
    if fa == 0.0 {
        return Ok(a);
    }
    if fb == 0.0 {
        return Ok(b);
    }
    if (fa > 0.0) == (fb > 0.0) {
        return Err(MathError::NotBracketed { f_lo: fa, f_hi: fb });
    }
    // c is the point that, with b, brackets the root; d the last step, e the one before.
    let (mut c, mut fc) = (a, fa);
    let mut d = b - a;
    let mut e = d;
    for _ in 0..tol.max_iterations {
        if (fb > 0.0) == (fc > 0.0) {
            c = a;
            fc = fa;
            d = b - a;
            e = d;
        }
        if fc.abs() < fb.abs() {
            // Keep b as the best estimate.
            a = b;
            b = c;
            c = a;
            fa = fb;
            fb = fc;
            fc = fa;
        }
        let tol1 = 2.0 * f64::EPSILON * b.abs() + 0.5 * (tol.abs + tol.rel * b.abs());
        let half = 0.5 * (c - b);
        if half.abs() <= tol1 || fb == 0.0 {
            return Ok(b);
        }
        if e.abs() >= tol1 && fa.abs() > fb.abs() {
            // Try interpolation: secant if only two points, inverse quadratic otherwise.
            let s = fb / fa;
            let (mut p, mut q);
            if a == c {
                p = 2.0 * half * s;
                q = 1.0 - s;
            } else {
                let qa = fa / fc;
                let r = fb / fc;
                p = s * (2.0 * half * qa * (qa - r) - (b - a) * (r - 1.0));
                q = (qa - 1.0) * (r - 1.0) * (s - 1.0);
            }
            if p > 0.0 {
                q = -q;
            } else {
                p = -p;
            }
            // Accept the interpolated step only if it stays well inside the bracket and shrinks fast.
            if 2.0 * p < (3.0 * half * q - (tol1 * q).abs()).min((e * q).abs()) {
                e = d;
                d = p / q;
            } else {
                d = half;
                e = d;
            }
        } else {
            d = half;
            e = d;
        }
        a = b;
        fa = fb;
        b += if d.abs() > tol1 {
            d
        } else {
            tol1.copysign(half)
        };
        fb = f(b);
        if fb.is_nan() {
            return Err(MathError::NotANumber {
                name: "root-finder function value",
            });
        }
    }
    Err(MathError::NoConvergence {
        iterations: tol.max_iterations,
    })
}

/// The minimiser of a unimodal `f` on [lo, hi] by golden-section search (Kiefer 1953; Press et al.,
/// "Numerical Recipes", §10.2): each of the `iterations` steps keeps the sub-interval that must hold
/// the minimum and shrinks it by g = (√5 − 1)/2 ≈ 0.618, reusing one of its two inner points, so the
/// answer is within (hi − lo)·g^iterations of the true minimiser (100 steps: 1.3e-21 of the
/// width, below double precision). Exact only for unimodal `f`; for any other `f` it returns some
/// point of [lo, hi]. Never calls `f` outside [lo, hi].
pub fn golden_section_min(f: &impl Fn(f64) -> f64, lo: f64, hi: f64, iterations: usize) -> f64 {
    let g = 0.5 * (5f64.sqrt() - 1.0);
    let (mut a, mut b) = (lo, hi);
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..iterations {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    if fc < fd {
        c
    } else {
        d
    }
}

#[cfg(test)]
// Tests compare against std's functions on purpose (an independent computation).
#[allow(clippy::disallowed_methods)]
mod tests {
    use super::*;

    #[test]
    fn golden_section_finds_an_interior_minimum_and_an_end() {
        let x = golden_section_min(&|x: f64| (x - 2.0) * (x - 2.0), 0.0, 5.0, 100);
        assert!((x - 2.0).abs() < 1e-8, "{x}");
        // Increasing on the whole interval: the minimum is the left end.
        let x = golden_section_min(&|x: f64| x * x, 1.0, 3.0, 100);
        assert!((x - 1.0).abs() < 1e-8, "{x}");
        // Never evaluated outside the interval.
        let x = golden_section_min(
            &|x: f64| {
                assert!((-1.0..=4.0).contains(&x), "{x}");
                -x
            },
            -1.0,
            4.0,
            60,
        );
        assert!((x - 4.0).abs() < 1e-8, "{x}");
    }

    #[test]
    fn finds_sqrt2_to_tolerance() {
        let r = brent(|x| x * x - 2.0, 0.0, 2.0, Tolerance::TIGHT).unwrap();
        assert!((r - 2f64.sqrt()).abs() <= 4.0 * f64::EPSILON * 2.0);
    }

    #[test]
    fn reports_missing_bracket() {
        let r = brent(|x| x * x + 1.0, -1.0, 1.0, Tolerance::TIGHT);
        assert!(matches!(r, Err(MathError::NotBracketed { .. })));
    }

    #[test]
    fn reports_nan() {
        let r = brent(|_| f64::NAN, 0.0, 1.0, Tolerance::TIGHT);
        assert!(matches!(r, Err(MathError::NotANumber { .. })));
    }

    #[test]
    fn handles_steep_and_flat_functions() {
        // A root at 1e-7 of a function that is flat elsewhere.
        let r = brent(|x| (x - 1e-7).powi(3), 0.0, 1.0, Tolerance::TIGHT).unwrap();
        assert!((r - 1e-7).abs() < 1e-9, "{r}");
        let r = brent(|x| (x * 50.0).exp() - 10.0, 0.0, 1.0, Tolerance::TIGHT).unwrap();
        assert!((r - 10f64.ln() / 50.0).abs() < 1e-15);
    }

    #[test]
    fn runs_out_of_iterations_with_tiny_budget() {
        let tol = Tolerance {
            abs: 0.0,
            rel: 0.0,
            max_iterations: 2,
        };
        let r = brent(|x| x.powi(3) - 0.3, 0.0, 1.0, tol);
        assert!(matches!(r, Err(MathError::NoConvergence { .. })));
    }
}
