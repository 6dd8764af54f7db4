//! Opacus 1.6 (Meta's DP-SGD library for PyTorch), its accountants as `opacus/accountants/`
//! computes them: how its `PrivacyEngine` turns a data loader into a sampling rate and a number
//! of steps, its RDP accountant (`RDPAccountant`: its order grid and conversion) and its
//! Gaussian accountant (`GaussianAccountant`: the central-limit μ). Its default accountant, PRV
//! (Gopi, Lee & Wutschitz 2021), is a numerical composition with its own error bound and is not
//! reproduced here: the app compares it with the certified band instead. Add/remove neighbours,
//! Poisson batches, the Gaussian mechanism with noise multiplier σ.
//!
//! How these differ from this crate's own accounting: the rate is 1/⌈|x|/B⌉ (one over the
//! number of batches of the loader it was handed), not B/|x|; the RDP grid is fixed (1.1 to 10.9
//! by 0.1, then 12 to 63: no order 11 and none above 63); the conversion is Balle et al.'s
//! without the zero floor; the Gaussian accountant's μ is an approximation (the central limit),
//! not a bound.

use crate::rdp::poisson_gaussian;
use crate::risk::clt_mu;
use crate::special::{ln, ln_1p};
use crate::MathError;

/// Opacus's default orders (`RDPAccountant.DEFAULT_ALPHAS`): 1.1, 1.2, …, 10.9, then 12, 13, …,
/// 63 (151 orders; 11 is not among them).
pub fn orders() -> Vec<f64> {
    let mut v: Vec<f64> = (1..100).map(|x| 1.0 + x as f64 / 10.0).collect();
    v.extend((12..64).map(|a| a as f64));
    v
}

/// The sampling rate and the steps per epoch Opacus uses for a data loader of |x| = `dataset`
/// records in batches of `batch` (`PrivacyEngine.make_private`: `sample_rate = 1 /
/// len(data_loader)`, and a Poisson loader yields that many batches per epoch): q = 1/⌈|x|/B⌉ and
/// ⌈|x|/B⌉ steps. Exact (integer arithmetic).
pub fn loader(dataset: u64, batch: u64) -> Result<(f64, u64), MathError> {
    if batch == 0 || dataset == 0 || batch > dataset {
        return Err(MathError::OutOfDomain {
            name: "B",
            value: batch as f64,
            expected: "a batch size from 1 to the dataset size",
        });
    }
    let batches = dataset.div_ceil(batch);
    Ok((1.0 / batches as f64, batches))
}

/// (ε, order) at δ of `steps` steps at rate q and noise σ, as `RDPAccountant.get_epsilon`
/// computes it: at each of [`orders`] the RDP of the Poisson-subsampled Gaussian (whole orders
/// by the binomial sum; fractional orders by the signed series, `_compute_log_a_for_frac_alpha`,
/// whose value is the exact one: [`poisson_gaussian`]) times the steps, converted by
/// ε(α) − (ln δ + ln α)/(α − 1) + ln((α − 1)/α) (Balle et al. 2020, Theorem 21), the smallest
/// over the grid. No floor at 0 (the library returns a negative ε where δ alone covers the
/// loss). An upper bound on the true ε; 0 < q ≤ 1, σ > 0, 0 < δ < 1.
pub fn rdp_epsilon(sigma: f64, q: f64, steps: u64, delta: f64) -> Result<(f64, f64), MathError> {
    crate::check_delta("δ", delta)?;
    if delta == 0.0 {
        return Err(MathError::OutOfDomain {
            name: "δ",
            value: delta,
            expected: "above 0",
        });
    }
    let mut best = (f64::INFINITY, f64::NAN);
    for a in orders() {
        let r = poisson_gaussian(sigma, q, a)? * steps as f64;
        let e = r + ln_1p(-1.0 / a) - (ln(delta) + ln(a)) / (a - 1.0);
        if e < best.0 {
            best = (e, a);
        }
    }
    if best.0.is_finite() {
        Ok(best)
    } else {
        Err(MathError::NoSolution {
            reason: "ε is infinite at every order of the grid".into(),
        })
    }
}

/// μ of `GaussianAccountant` with Poisson batches (`compute_mu_poisson`): q·√(k(e^{1/σ²} − 1)),
/// the central-limit approximation ([`clt_mu`]; Bu, Dong, Long & Su 2020). Not a bound.
pub fn gdp_mu(sigma: f64, q: f64, steps: u64) -> Result<f64, MathError> {
    clt_mu(q, sigma, steps)
}

/// ε at δ of `GaussianAccountant.get_epsilon` (Poisson batches): the ε at which μ-GDP has δ,
/// δ = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2), solved exactly (the library's `brentq` on [0, 500]
/// agrees to its tolerance, about 1e-12). Where even ε = 0 meets δ the library's root search
/// fails (no sign change); so does this, with that reason. An approximation of the true ε from
/// the central limit theorem, which can be below it (Gopi et al. 2021).
pub fn gdp_epsilon(sigma: f64, q: f64, steps: u64, delta: f64) -> Result<f64, MathError> {
    let mu = gdp_mu(sigma, q, steps)?;
    if mu <= 0.0 {
        return Err(MathError::NoSolution {
            reason: "μ = 0: the Gaussian accountant's root search has no sign change".into(),
        });
    }
    // μ-GDP is the Gaussian mechanism with noise 1/μ at sensitivity 1.
    let s = 1.0 / mu;
    if crate::rdp::gaussian_delta(s, 0.0)? <= delta {
        return Err(MathError::NoSolution {
            reason: "δ is met at ε = 0: the Gaussian accountant's root search on [0, 500] has no \
                     sign change and raises"
                .into(),
        });
    }
    crate::rdp::gaussian_epsilon(s, delta)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grid_and_the_loader_are_opacuss() {
        let o = orders();
        assert_eq!(o.len(), 151);
        assert_eq!((o[0], o[98], o[99], o[150]), (1.1, 10.9, 12.0, 63.0));
        assert!(!o.contains(&11.0));
        // 60,000 records in batches of 256: 235 batches (the last one short), q = 1/235.
        assert_eq!(loader(60_000, 256).unwrap(), (1.0 / 235.0, 235));
        assert_eq!(loader(60_000, 600).unwrap(), (0.01, 100));
        assert!(loader(10, 11).is_err());
    }

    #[test]
    fn the_gaussian_accountant_refuses_where_its_root_search_fails() {
        assert!(gdp_epsilon(50.0, 0.001, 1, 1e-5).is_err());
        let e = gdp_epsilon(1.0, 0.01, 1000, 1e-5).unwrap();
        assert!(e > 0.0 && e < 10.0, "{e}");
    }
}
