//! RDP curves over a grid of orders: the default grid, the terms a curve is the sum of (so that it
//! can be evaluated between the grid's orders), and composition (Mironov 2017, Prop. 1).

use super::{guarantee, subsampled, Bound, Mechanism, Sampling};
use crate::MathError;

/// The default grid of orders for conversion: 25 orders with α − 1 log-spaced on [10⁻³, 1]
/// (many compositions of a rarely sampled mechanism have their optimum just above 1), then every
/// quarter to 12, every whole number to 64, every 8 to 256, and 320, 384, 512, 768, 1024. 154 orders.
pub fn default_orders() -> Vec<f64> {
    let mut v = Vec::with_capacity(160);
    for i in 0..25 {
        v.push(1.0 + libm::pow(10.0, -3.0 + 3.0 * i as f64 / 24.0));
    }
    // 1 + 10^0 = 2 is the last of those.
    for i in 1..=40 {
        v.push(2.0 + 0.25 * i as f64);
    }
    for a in 13..=64 {
        v.push(a as f64);
    }
    for a in (72..=256).step_by(8) {
        v.push(a as f64);
    }
    v.extend([320.0, 384.0, 512.0, 768.0, 1024.0]);
    v
}

/// One term of an RDP curve: `steps` compositions of `mech` under `sampling`, at its
/// [`guarantee`] (or, with `upper`, at the general upper bound), known at every order.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Term {
    /// The base mechanism.
    pub mech: Mechanism,
    /// How the records reach it.
    pub sampling: Sampling,
    /// The upper bound rather than the guarantee.
    pub upper: bool,
    /// How many compositions.
    pub steps: f64,
}

impl Term {
    /// steps·ε(α) of this term.
    pub fn at(&self, alpha: f64) -> Result<f64, MathError> {
        let r = if self.upper {
            subsampled(&self.mech, self.sampling, Bound::Upper, alpha)?
        } else {
            guarantee(&self.mech, self.sampling, alpha)?
        };
        Ok(r * self.steps)
    }
}

/// An RDP curve sampled on a grid of orders, and, when it is built from mechanisms, the terms it
/// is the sum of, so that a conversion can evaluate it between the grid's orders.
#[derive(Clone, Debug, PartialEq)]
pub struct Curve {
    /// Orders α > 1, increasing.
    pub orders: Vec<f64>,
    /// ε(α) at each order.
    pub rdp: Vec<f64>,
    /// What the curve is the sum of; empty when it is known on its grid only.
    pub terms: Vec<Term>,
}

impl Curve {
    /// The [`guarantee`] curve of `mech` under `sampling` on `orders`.
    pub fn of(mech: &Mechanism, sampling: Sampling, orders: &[f64]) -> Result<Curve, MathError> {
        Curve::from_term(
            Term {
                mech: *mech,
                sampling,
                upper: false,
                steps: 1.0,
            },
            orders,
        )
    }

    /// The general upper-bound curve of `mech` under `sampling` on `orders`
    /// ([`subsampled`] with [`Bound::Upper`]).
    pub fn upper(mech: &Mechanism, sampling: Sampling, orders: &[f64]) -> Result<Curve, MathError> {
        Curve::from_term(
            Term {
                mech: *mech,
                sampling,
                upper: true,
                steps: 1.0,
            },
            orders,
        )
    }

    fn from_term(term: Term, orders: &[f64]) -> Result<Curve, MathError> {
        let rdp = orders
            .iter()
            .map(|&a| term.at(a))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Curve {
            orders: orders.to_vec(),
            rdp,
            terms: vec![term],
        })
    }

    /// A curve known on its grid only (no terms to evaluate between the orders).
    pub fn sampled(orders: Vec<f64>, rdp: Vec<f64>) -> Curve {
        Curve {
            orders,
            rdp,
            terms: Vec::new(),
        }
    }

    /// The curve of `steps` adaptive compositions: k·ε(α) (Mironov 2017, Prop. 1). Exact for the
    /// composition of RDP guarantees.
    pub fn times(&self, steps: f64) -> Curve {
        Curve {
            orders: self.orders.clone(),
            rdp: self.rdp.iter().map(|r| r * steps).collect(),
            terms: self
                .terms
                .iter()
                .map(|t| Term {
                    steps: t.steps * steps,
                    ..*t
                })
                .collect(),
        }
    }

    /// The curve at any order α > 1, from its terms; `None` for a curve known on its grid only.
    pub fn at(&self, alpha: f64) -> Option<Result<f64, MathError>> {
        if self.terms.is_empty() {
            return None;
        }
        Some(self.terms.iter().map(|t| t.at(alpha)).sum())
    }
}

/// Compose different mechanisms: Σ_i k_i·ε_i(α) on a shared grid (Mironov 2017, Prop. 1).
/// Errors if the grids differ.
pub fn compose(parts: &[(&Curve, f64)]) -> Result<Curve, MathError> {
    let Some((first, _)) = parts.first() else {
        return Err(MathError::Inconsistent {
            reason: "nothing to compose".into(),
        });
    };
    let mut out = Curve {
        orders: first.orders.clone(),
        rdp: vec![0.0; first.orders.len()],
        terms: Vec::new(),
    };
    let all_known = parts.iter().all(|(c, _)| !c.terms.is_empty());
    for (c, k) in parts {
        if c.orders != out.orders {
            return Err(MathError::Inconsistent {
                reason: "curves on different order grids cannot be added".into(),
            });
        }
        if !(k.is_finite() && *k >= 0.0) {
            return Err(MathError::OutOfDomain {
                name: "steps",
                value: *k,
                expected: "a finite number at least 0",
            });
        }
        for (o, r) in out.rdp.iter_mut().zip(&c.rdp) {
            *o += k * r;
        }
        if all_known {
            out.terms.extend(c.times(*k).terms);
        }
    }
    Ok(out)
}
