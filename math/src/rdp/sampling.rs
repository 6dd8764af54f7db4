//! How the records reach the mechanism (all of them, Poisson sampling, sampling without
//! replacement), which curve of the subsampled mechanism is wanted (exact, upper or lower bound),
//! and the dispatch to the formula that gives it: the subsampled curves by scheme and bound.

use super::{
    poisson_exact, poisson_gaussian, poisson_upper, wor_lower, wor_upper, wor_upper_gaussian,
    Mechanism, MAX_ORDER,
};
use crate::MathError;

/// How the records reach the mechanism.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Sampling {
    /// Every record, every time (the base mechanism).
    Full,
    /// Poisson sampling: each record independently with probability q (add/remove).
    Poisson {
        /// q ∈ [0, 1].
        q: f64,
    },
    /// A uniformly random subset of a fixed fraction γ = m/n (replace-one).
    WithoutReplacement {
        /// γ ∈ [0, 1].
        gamma: f64,
    },
}

impl Sampling {
    /// The neighbouring relation the curves hold for.
    pub fn relation(&self) -> crate::Relation {
        match self {
            Sampling::WithoutReplacement { .. } => crate::Relation::ReplaceOne,
            _ => crate::Relation::AddRemove,
        }
    }

    /// The sampling probability (1 for [`Sampling::Full`]).
    pub fn rate(&self) -> f64 {
        match *self {
            Sampling::Full => 1.0,
            Sampling::Poisson { q } => q,
            Sampling::WithoutReplacement { gamma } => gamma,
        }
    }
}

/// Which curve of a subsampled mechanism.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// The exact RDP (known for the base mechanisms and every mechanism here under Poisson
    /// sampling; not without replacement).
    Exact,
    /// A proven upper bound (Zhu & Wang for Poisson, Wang, Balle & Kasiviswanathan without
    /// replacement).
    Upper,
    /// A lower bound from a concrete pair of data sets (integer orders only).
    Lower,
}

impl Bound {
    /// Machine name: `exact`, `upper`, `lower`.
    pub fn id(self) -> &'static str {
        match self {
            Bound::Exact => "exact",
            Bound::Upper => "upper",
            Bound::Lower => "lower",
        }
    }
}

/// ε(α) of `mech` under `sampling`, as the chosen `bound`.
///
/// | sampling | exact | upper | lower |
/// |---|---|---|---|
/// | full | base curve | base curve | base curve |
/// | Poisson, Gaussian | [`poisson_gaussian`] (MTZ 2019) | [`poisson_upper`] (ZW 2019) | [`wor_lower`]'s sum, integer α |
/// | Poisson, others | [`poisson_exact`] (both directions) | [`poisson_upper`] | the same sum, integer α |
/// | without replacement, Gaussian | — | [`wor_upper_gaussian`] (WBK 2019, Thm. 27) | [`wor_lower`] (WBK 2019, Prop. 11), integer α |
/// | without replacement, others | — | [`wor_upper`] (WBK 2019, Thm. 9) | the same, integer α |
///
/// The lower sum Σ_j C(α,j)γ^j(1−γ)^{α−j}e^{(j−1)ε(j)} is the divergence of one concrete pair for
/// a mechanism whose worst pair attains ε(j) at every order (true of all four mechanisms here), so
/// it bounds the subsampled RDP from below under either scheme; under Poisson sampling it is the
/// remove direction of the divergence, which equals the exact value for the Gaussian (proved) and,
/// on the reference table, for the other three mechanisms. "—" is a [`MathError::NoSolution`] naming what is missing.
pub fn subsampled(
    mech: &Mechanism,
    sampling: Sampling,
    bound: Bound,
    alpha: f64,
) -> Result<f64, MathError> {
    mech.validate()?;
    let rate = sampling.rate();
    crate::check_probability("q", rate)?;
    if let Sampling::Full = sampling {
        return mech.rdp(alpha);
    }
    if bound == Bound::Lower {
        if !(alpha.fract() == 0.0 && alpha >= 2.0) {
            return Err(MathError::NoSolution {
                reason: format!(
                    "the lower bound exists at whole orders only (α = {alpha}); interpolating a lower \
                     bound would not be a bound"
                ),
            });
        }
        if alpha > MAX_ORDER {
            return Err(MathError::OutOfDomain {
                name: "α",
                value: alpha,
                expected: "above 1 and at most 10,000",
            });
        }
        return wor_lower(mech, rate, alpha as u64);
    }
    match (sampling, bound) {
        (Sampling::Poisson { q }, Bound::Exact) => match *mech {
            Mechanism::Gaussian { sigma } => poisson_gaussian(sigma, q, alpha),
            _ => poisson_exact(mech, q, alpha),
        },
        (Sampling::Poisson { q }, _) => poisson_upper(mech, q, alpha),
        (Sampling::WithoutReplacement { .. }, Bound::Exact) => Err(MathError::NoSolution {
            reason: "no exact RDP is known under sampling without replacement; use the upper or \
                     lower bound"
                .into(),
        }),
        (Sampling::WithoutReplacement { gamma }, _) => match *mech {
            Mechanism::Gaussian { sigma } => wor_upper_gaussian(sigma, gamma, alpha),
            _ => wor_upper(mech, gamma, alpha),
        },
        (Sampling::Full, _) => unreachable_full(),
    }
}

fn unreachable_full() -> Result<f64, MathError> {
    Err(MathError::Inconsistent {
        reason: "internal: full sampling handled above".into(),
    })
}

/// The tightest curve that is still a guarantee: exact where known, otherwise the upper bound.
/// This is what composition and conversion use.
pub fn guarantee(mech: &Mechanism, sampling: Sampling, alpha: f64) -> Result<f64, MathError> {
    match subsampled(mech, sampling, Bound::Exact, alpha) {
        Err(MathError::NoSolution { .. }) => subsampled(mech, sampling, Bound::Upper, alpha),
        other => other,
    }
}

/// Whether [`guarantee`] is exact (true) or an upper bound (false) for this combination.
pub fn guarantee_is_exact(_mech: &Mechanism, sampling: Sampling) -> bool {
    match sampling {
        Sampling::Full => true,
        // Exact for every mechanism here: the Gaussian (Mironov, Talwar & Zhang 2019) and the
        // others from both directions of the divergence (`poisson_laplace_rr`).
        Sampling::Poisson { .. } => true,
        Sampling::WithoutReplacement { gamma } => gamma == 0.0,
    }
}

#[cfg(test)]
// Tests compare against std's functions on purpose (an independent computation).
#[allow(clippy::disallowed_methods)]
mod tests {
    use super::*;

    /// Found by mutation testing (tools/mutants.sh): the names, relations and rates, and the
    /// lower bound's domain, which no other test pinned down.
    #[test]
    fn names_relations_and_the_lower_bounds_domain() {
        use crate::Relation;
        assert_eq!(Sampling::Full.relation(), Relation::AddRemove);
        assert_eq!(Sampling::Poisson { q: 0.1 }.relation(), Relation::AddRemove);
        assert_eq!(
            Sampling::WithoutReplacement { gamma: 0.1 }.relation(),
            Relation::ReplaceOne
        );
        assert_eq!(Sampling::Full.rate(), 1.0);
        assert_eq!(Sampling::Poisson { q: 0.25 }.rate(), 0.25);
        assert_eq!(Sampling::WithoutReplacement { gamma: 0.5 }.rate(), 0.5);
        assert_eq!(
            [Bound::Exact.id(), Bound::Upper.id(), Bound::Lower.id()],
            ["exact", "upper", "lower"]
        );
        let g = Mechanism::Gaussian { sigma: 2.0 };
        let s = Sampling::Poisson { q: 0.1 };
        // Whole orders from 2 up to 10,000 inclusive.
        assert_eq!(
            subsampled(&g, s, Bound::Lower, 3.0).unwrap(),
            wor_lower(&g, 0.1, 3).unwrap()
        );
        for bad in [2.5, 1.0, 10_001.0] {
            assert!(subsampled(&g, s, Bound::Lower, bad).is_err(), "{bad}");
        }
        assert!(subsampled(&g, s, Bound::Lower, 10_000.0).is_ok());
    }
}
