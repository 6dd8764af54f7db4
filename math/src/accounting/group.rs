//! What the group-privacy lemma says of a user with several records, to set beside the tight
//! user-level number.

use super::{Event, PldAccountant, RdpAccountant};
use crate::rdp::{epsilon_at_order, Conversion};
use crate::special::{exp_m1, ln, ln_1p};
use crate::MathError;

/// The smallest δ₁ the search tries: 10⁻³⁰⁰ (the Rényi DP conversion reaches it; the PLD
/// accountant is read only down to 10⁻¹⁰, far above its resolution).
const SMALLEST: f64 = 1e-300;

/// ε for a group of R records from the record-level guarantee by the group-privacy lemma, at δ.
///
/// Lemma (Dwork & Roth 2014, Thm 2.2 for ε; the chain argument of Vadhan 2017, Lemma 2.2, for δ):
/// an (ε₁, δ₁)-DP mechanism is (Rε₁, δ₁·Σ_{i<R} e^{iε₁})-DP for datasets that differ in R
/// records; Σ_{i<R} e^{iε₁} = expm1(Rε₁)/expm1(ε₁). The record-level ε₁(δ₁) is the event's own
/// certified upper bound ([`Event::record_level`]): the PLD accountant's for δ₁ ≥ 10⁻¹⁰, the Rényi
/// DP accountant's (improved conversion, at the best of its grid of orders) at any δ₁, the smaller where both apply. Returns the
/// smallest Rε₁ over δ₁ = δ·10^{−j/8} (j = 0, 1, … down to 10⁻³⁰⁰) with δ₁·Σ e^{iε₁} ≤ δ, an upper
/// bound for add/remove one user; `None` when no δ₁ qualifies (the lemma gives no finite ε).
pub fn group_lemma_epsilon(
    event: &Event,
    records: u64,
    delta: f64,
    pld: &PldAccountant,
) -> Result<Option<f64>, MathError> {
    crate::check_probability("δ", delta)?;
    let base = event.record_level();
    let band = pld.band(&base)?;
    let rdp = RdpAccountant::default().curve(&base).ok();
    if records <= 1 {
        return Ok(Some(band.epsilon(delta)?.0));
    }
    let r = records as f64;
    // ln of δ₁·Σ_{i<R} e^{iε₁}, with the sum as expm1(Rε₁)/expm1(ε₁) (R at ε₁ = 0).
    let ln_spent = |d1: f64, e1: f64| {
        let ln_sum = if e1 <= 0.0 {
            ln(r)
        } else if r * e1 > 700.0 {
            r * e1 - ln(exp_m1(e1))
        } else {
            ln(exp_m1(r * e1)) - ln(exp_m1(e1))
        };
        ln(d1) + ln_sum
    };
    let mut best: Option<f64> = None;
    let ln_delta = ln(delta);
    let mut j = 0u32;
    loop {
        let d1 = delta * crate::special::pow(10.0, -(j as f64) / 8.0);
        if d1 < SMALLEST {
            break;
        }
        j += 1;
        let from_pld = (d1 >= 1e-10)
            .then(|| band.epsilon(d1).ok().map(|(up, _)| up))
            .flatten();
        // The best of the curve's own orders (each order's conversion is a valid bound).
        let from_rdp = rdp.as_ref().map(|c| {
            c.orders
                .iter()
                .zip(&c.rdp)
                .map(|(&a, &v)| epsilon_at_order(v, a, d1, Conversion::Improved))
                .fold(f64::INFINITY, f64::min)
        });
        let e1 = match (from_pld, from_rdp) {
            (Some(a), Some(b)) => a.min(b),
            (Some(a), None) | (None, Some(a)) => a,
            (None, None) => continue,
        };
        if !e1.is_finite() {
            continue;
        }
        if ln_spent(d1, e1) <= ln_delta + ln_1p(1e-12) {
            let eps = r * e1;
            best = Some(best.map_or(eps, |b: f64| b.min(eps)));
        }
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rdp::Mechanism;

    #[test]
    fn one_record_is_the_record_level_epsilon_and_more_records_cost_more() {
        let pld = PldAccountant::with_step(1e-3);
        let run = Event::poisson(Mechanism::Gaussian { sigma: 1.0 }, 0.01).repeated(100);
        let one = group_lemma_epsilon(&run, 1, 1e-5, &pld).unwrap().unwrap();
        assert_eq!(one, pld.band(&run).unwrap().epsilon(1e-5).unwrap().0);
        let two = group_lemma_epsilon(&run, 2, 1e-5, &pld).unwrap().unwrap();
        let four = group_lemma_epsilon(&run, 4, 1e-5, &pld).unwrap().unwrap();
        assert!(two > 2.0 * one && four > two, "{one} {two} {four}");
    }
}
