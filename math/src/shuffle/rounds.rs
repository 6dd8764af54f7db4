//! The shuffle model over many rounds: the clone pair's privacy loss distribution (PLD), to be
//! composed over R rounds by the PLD accountant, and the classic composition of the one-round
//! (ε, δ) guarantee that it is compared with.
//!
//! # Why composing the loss distribution wins
//!
//! Every one-round bound of this module certifies an (ε₁, δ₁) pair, and a reader who runs the
//! shuffle R times composes those pairs: R·ε₁ at R·δ₁ (basic composition), or the advanced
//! composition theorem (Dwork, Rothblum & Vadhan 2010). Both throw away what the clone reduction
//! knows: the whole distribution of the privacy loss of one round, almost all of it tiny and
//! symmetric around zero. Composing that distribution (adding R independent copies of the loss,
//! one FFT) keeps the cancellations between rounds, which (ε, δ) bookkeeping cannot see. Koskela,
//! Heikkilä & Honkela ("Tight accounting in the shuffle model of differential privacy", Machine
//! Learning 2023, arXiv 2106.00477) compose the clone pair numerically in this way; the pair itself
//! is FMT21's (arXiv 2012.12803) or FMT23's stronger one (arXiv 2208.04591).
//!
//! # The pair and its loss atoms
//!
//! Conditioned on C = c clones among the other n − 1 users, user 1's contribution is seen only
//! through the count of reports that look like x₁: P_c = A + Δ against Q_c = A + 1 − Δ,
//! A ∼ Bin(c, ½), Δ ∼ Bern(θ), θ = e^{ε₀}/(e^{ε₀} + 1). With m = c + 1 and u = j/m (Pascal's
//! rule), P_c(j) = 2·Bin(m, ½)(j)·p_u and Q_c(j) = 2·Bin(m, ½)(j)·q_u with
//! p_u = θu + (1 − θ)(1 − u), q_u = (1 − θ)u + θ(1 − u), so the loss at j is
//! ln(p_u/q_u) = ln(1 + (2θ − 1)(2u − 1)/q_u) (evaluated with `ln_1p`, no cancellation at u ≈ ½).
//! C is revealed by the pair, so the PLD of the mixture is the C-weighted mixture of these
//! conditional PLDs. Both directions are the same law (the reflection j ↦ m − j swaps P and Q).
//!
//! How the atoms are made finite, and which way each simplification goes (each keeps a pair that
//! dominates the true one for the pessimistic atoms, or is dominated by it for the optimistic):
//!
//! - Counts C are grouped into blocks of consecutive values of the window of [`CloneWindow`]
//!   (outside mass ≤ 1e-22 each side), of relative width [`BLOCK_WIDTH`]. P_{c+1}, Q_{c+1} are P_c, Q_c plus the
//!   same fair bit, so the pair at more clones is a post-processing of the pair at fewer:
//!   pessimistic, a block's mass goes to its fewest clones; optimistic, to its most.
//! - The mass outside the window (≤ 2e-22): pessimistic, revealed (its P-mass at loss +∞, its
//!   Q-mass at −∞), which dominates every pair; optimistic, the pair that reveals nothing (loss 0).
//! - Counts j: a window symmetric about m/2 whose two tails together hold at most a bound b of
//!   P-mass (a geometric series of the binomial's ratios); pessimistic, that P-mass at loss +∞;
//!   optimistic, the tails merged into one outcome, whose P- and Q-masses are equal by symmetry
//!   (loss 0). Inside, consecutive j are grouped so that a standard deviation of Bin(m, ½) holds
//!   about [`GROUPS_PER_SD`] groups: optimistic, a group merged into one atom (its P- and
//!   Q-masses); pessimistic, split between the losses of its two ends keeping both masses
//!   (Doroshenko et al.'s connect-the-dots argument: every pair with losses in [l₁, l₂] is a
//!   post-processing of that two-point pair).
//!
//! - Finally every atom goes on a uniform loss grid of step h₀, 1/2048 of the smallest standard
//!   deviation of the per-count losses (2·tanh(ε₀/2)/√m): pessimistic, split between its cell's
//!   ends keeping both masses; optimistic, a cell's atoms merged into one. This bounds the number
//!   of atoms by the loss's range over h₀ (about 2.5·10⁴ at n = 10⁶), whatever n.
//!
//! The optimistic atoms are the exact loss law of a dominated pair, so the accountant keeps its
//! Hoeffding-tightened lower bound; the pessimistic atoms are that of a dominating pair, placed on
//! the loss grid by connect-the-dots. The two bracket the true composition after any R.

use super::clones::{ln_half_binomial, CloneWindow, Clones};
use super::{check_eps0, check_users};
use crate::pld::{Estimate, Pld, PldPair};
use crate::special::{exp, ln, ln_1p};
use crate::MathError;

/// The relative width of a block of clone counts: a block starting at c holds
/// max(1, ⌊`BLOCK_WIDTH`·c⌋) counts. The loss scales like 1/√C, so a block's pessimistic and
/// optimistic ends differ by about `BLOCK_WIDTH`/2 of the loss: 1e-4. (Blocks of one count,
/// exact, while c < 5000.)
pub const BLOCK_WIDTH: f64 = 2e-4;

/// Groups of consecutive counts j per standard deviation of Bin(m, ½).
pub const GROUPS_PER_SD: f64 = 64.0;

/// The P-mass allowed in the j-tails of one block (summed over the blocks: ≤ 2.6e-22).
const J_TAIL: f64 = 1e-24;

/// The loss atoms of one round of the shuffle model's clone pair: (loss, P-mass), both directions
/// the same law; `estimate` says whether they dominate (pessimistic) or are dominated by
/// (optimistic) the true pair.
#[derive(Clone, Debug, PartialEq)]
pub struct CloneAtoms {
    /// (loss, P-mass); a loss of +∞ holds mass the pessimistic side cannot place.
    pub atoms: Vec<(f64, f64)>,
    /// Which side of the true pair.
    pub estimate: Estimate,
}

impl CloneAtoms {
    /// Both directions' PLDs on the loss grid of step `step` (> 0): pessimistic, connect the
    /// dots; optimistic, each loss rounded down (exact atoms: the Hoeffding tightening stays).
    pub fn pld(&self, step: f64) -> PldPair {
        let one = Pld::from_loss_atoms(&self.atoms, step, self.estimate, true);
        PldPair {
            remove: one.clone(),
            add: one,
        }
    }
}

/// The loss atoms of one round of shuffling n users' ε₀-LDP reports, through FMT21's clones
/// (`stronger` false: every ε₀-LDP randomizer) or FMT23's stronger clones (`stronger` true: only
/// the randomizers of [`super::stronger_clones_exclude`], i.e. k-ary randomized response; the
/// caller checks).
///
/// - Formula and source: the module's documentation (the clone pair of FMT21, arXiv 2012.12803;
///   FMT23, arXiv 2208.04591), as composed numerically by Koskela, Heikkilä & Honkela 2023.
/// - Relation: replace-one (n users fixed, one user's record changes).
/// - Kind: pessimistic atoms dominate the pair (upper bounds after any composition), optimistic
///   ones are dominated by it (lower bounds). Accuracy: the blocks change the clone count by a
///   relative [`BLOCK_WIDTH`] at most; the lost mass is below 1e-21.
/// - Domain: 1e-12 ≤ ε₀ ≤ 100, 1 ≤ n ≤ 1e9. Work: 20·sd(C)/max(1, [`BLOCK_WIDTH`]·E C) blocks of
///   at most 22·[`GROUPS_PER_SD`] groups each (at most about 10⁶ groups, at E C ≈ 10⁴), gathered
///   on at most a few 10⁴ cells.
pub fn clone_atoms(
    eps0: f64,
    n: u64,
    stronger: bool,
    estimate: Estimate,
) -> Result<CloneAtoms, MathError> {
    check_eps0(eps0)?;
    check_users(n)?;
    let window = CloneWindow::new(n, eps0, Clones::chosen(stronger), 1e-22);
    let round = Round::new(eps0);
    // h₀: 1/2048 of the loss's standard deviation, 2·tanh(ε₀/2)/√m, at the most clones.
    let m_max = (window.c_hi + 1) as f64;
    let mut cells = Cells::new(estimate, 2.0 * round.tanh / m_max.sqrt() / 2048.0);
    let mut i = 0;
    while i < window.w.len() {
        let first = window.c_lo + i as u64;
        let size = ((BLOCK_WIDTH * first as f64).floor() as usize).max(1);
        let end = (i + size).min(window.w.len());
        let last = window.c_lo + end as u64 - 1;
        let mass: f64 = window.w[i..end].iter().sum();
        i = end;
        if mass <= 0.0 {
            continue;
        }
        let c = match estimate {
            Estimate::Pessimistic => first,
            Estimate::Optimistic => last,
        };
        round.push(c, mass, &mut cells);
    }
    let outside = window.tail_lo + window.tail_hi;
    if outside > 0.0 {
        match estimate {
            Estimate::Pessimistic => cells.infinity += outside,
            Estimate::Optimistic => cells.add(0.0, outside),
        }
    }
    Ok(CloneAtoms {
        atoms: cells.atoms(),
        estimate,
    })
}

/// The constants of one round's pair at ε₀.
struct Round {
    theta: f64,
    one_minus: f64,
    /// 2θ − 1 = tanh(ε₀/2).
    tanh: f64,
}

impl Round {
    fn new(eps0: f64) -> Round {
        let t = exp(-eps0);
        Round {
            theta: 1.0 / (1.0 + t),
            one_minus: t / (1.0 + t),
            tanh: -crate::special::exp_m1(-eps0) / (1.0 + t),
        }
    }

    /// (p_u, q_u) at u = j/m.
    fn pq(&self, j: u64, m: u64) -> (f64, f64) {
        let u = j as f64 / m as f64;
        (
            self.theta * u + self.one_minus * (1.0 - u),
            self.one_minus * u + self.theta * (1.0 - u),
        )
    }

    /// The loss ln(p_u/q_u) at u = j/m.
    fn loss(&self, j: u64, m: u64) -> f64 {
        if 2 * j == m {
            return 0.0;
        }
        let u = j as f64 / m as f64;
        let q = self.one_minus * u + self.theta * (1.0 - u);
        ln_1p(self.tanh * (2.0 * u - 1.0) / q)
    }

    /// The atoms of the pair at c clones, weighted by `weight`, into `cells`.
    fn push(&self, c: u64, weight: f64, cells: &mut Cells) {
        let m = c + 1;
        // The symmetric window [lo, m − lo]: widen (in half standard deviations) until the two
        // tails' P-mass bound, 2·2·b(lo)·r/(1 − r) with r = lo/(m − lo + 1) the ratio below lo
        // (P ≤ 2·Bin·p, p ≤ 1; both tails), times the weight, is at most J_TAIL.
        let sd = (m as f64).sqrt() / 2.0;
        let half = m / 2;
        let mut k = 6.0;
        let (lo, tail) = loop {
            let lo = (half as f64 - k * sd).floor().max(0.0) as u64;
            if lo == 0 {
                break (0, 0.0);
            }
            let r = lo as f64 / (m - lo + 1) as f64;
            let bound = 4.0 * exp(ln_half_binomial(m, lo)) * r / (1.0 - r);
            if bound * weight <= J_TAIL {
                break (lo, bound * weight);
            }
            k += 0.5;
        };
        let hi = m - lo;
        if tail > 0.0 {
            // Pessimistic: revealed (loss +∞); optimistic: both tails merged, P = Q (loss 0).
            match cells.estimate {
                Estimate::Pessimistic => cells.infinity += tail,
                Estimate::Optimistic => cells.add(0.0, tail),
            }
        }
        // Groups of `stride` consecutive counts.
        let stride = ((sd / GROUPS_PER_SD).floor() as u64).max(1);
        let next = |b: f64, j: u64| {
            // Bin(m, ½)(j) from Bin(m, ½)(j − 1); re-anchored every 4096 steps.
            if (j - lo).is_multiple_of(4096) {
                exp(ln_half_binomial(m, j))
            } else {
                b * (m - j + 1) as f64 / j as f64
            }
        };
        let mut b = exp(ln_half_binomial(m, lo));
        let mut j = lo;
        loop {
            let end = (j + stride - 1).min(hi);
            let first = j;
            let (mut pm, mut qm) = (0.0, 0.0);
            loop {
                let (p, q) = self.pq(j, m);
                pm += 2.0 * b * p;
                qm += 2.0 * b * q;
                if j == end {
                    break;
                }
                j += 1;
                b = next(b, j);
            }
            let (pm, qm) = (pm * weight, qm * weight);
            if first == end {
                cells.add(self.loss(first, m), pm);
            } else {
                match cells.estimate {
                    Estimate::Optimistic => cells.add_pq(pm, qm),
                    Estimate::Pessimistic => {
                        // P-masses x at l₁ and pm − x at l₂ with x e^{−l₁} + (pm − x) e^{−l₂} = qm.
                        let (l1, l2) = (self.loss(first, m), self.loss(end, m));
                        let (e1, e2) = (exp(-l1), exp(-l2));
                        let x = ((qm - pm * e2) / (e1 - e2)).clamp(0.0, pm);
                        cells.add(l1, x);
                        cells.add(l2, pm - x);
                    }
                }
            }
            if end == hi {
                break;
            }
            j = end + 1;
            b = next(b, j);
        }
    }
}

/// Atoms gathered on a fine uniform loss grid of step h₀ (far finer than any accountant's step):
/// pessimistic, each atom split between its cell's two ends keeping its P- and Q-mass
/// (dominating); optimistic, the atoms of a cell merged into one outcome (P- and Q-masses added:
/// a post-processing, so still the exact law of a dominated pair).
struct Cells {
    estimate: Estimate,
    step: f64,
    /// The cell index of `mass[0]`.
    offset: i64,
    /// (P, Q) per cell: optimistic, the merged masses; pessimistic, P at the cell's lower end.
    mass: Vec<(f64, f64)>,
    infinity: f64,
}

impl Cells {
    fn new(estimate: Estimate, step: f64) -> Cells {
        Cells {
            estimate,
            step,
            offset: 0,
            mass: Vec::new(),
            infinity: 0.0,
        }
    }

    fn slot(&mut self, k: i64) -> &mut (f64, f64) {
        if self.mass.is_empty() {
            self.offset = k;
        }
        if k < self.offset {
            let grow = (self.offset - k) as usize;
            let mut v = vec![(0.0, 0.0); grow];
            v.append(&mut self.mass);
            self.mass = v;
            self.offset = k;
        }
        let i = (k - self.offset) as usize;
        if i >= self.mass.len() {
            self.mass.resize(i + 1, (0.0, 0.0));
        }
        &mut self.mass[i]
    }

    /// An atom of P-mass `p` at loss `l` (finite).
    fn add(&mut self, l: f64, p: f64) {
        if p <= 0.0 {
            return;
        }
        let h = self.step;
        let x = l / h;
        let k = x.floor();
        match self.estimate {
            Estimate::Optimistic => {
                let s = self.slot(k as i64);
                s.0 += p;
                s.1 += p * exp(-l);
            }
            Estimate::Pessimistic => {
                // Connect the dots: x at k·h and p − x at (k + 1)·h keep P and Q = p e^{−l}.
                let d = l - k * h;
                let low = (p * (exp(-d) - exp(-h)) / -crate::special::exp_m1(-h)).clamp(0.0, p);
                self.slot(k as i64).0 += low;
                self.slot(k as i64 + 1).0 += p - low;
            }
        }
    }

    /// Optimistic only: an outcome of P-mass `p` and Q-mass `q` (merged into its loss's cell).
    fn add_pq(&mut self, p: f64, q: f64) {
        if p <= 0.0 && q <= 0.0 {
            return;
        }
        let l = if p == q { 0.0 } else { ln(p) - ln(q) };
        let s = self.slot((l / self.step).floor() as i64);
        s.0 += p;
        s.1 += q;
    }

    fn atoms(self) -> Vec<(f64, f64)> {
        let mut out: Vec<(f64, f64)> = Vec::with_capacity(self.mass.len() + 1);
        for (i, &(p, q)) in self.mass.iter().enumerate() {
            if p <= 0.0 {
                continue;
            }
            let l = match self.estimate {
                Estimate::Pessimistic => (self.offset + i as i64) as f64 * self.step,
                Estimate::Optimistic => {
                    if p == q {
                        0.0
                    } else {
                        ln(p) - ln(q)
                    }
                }
            };
            out.push((l, p));
        }
        if self.infinity > 0.0 {
            out.push((f64::INFINITY, self.infinity));
        }
        out
    }
}

/// R rounds of the shuffle model at a total δ: the certified band and what composing the one-round
/// guarantee gives.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RoundsEpsilon {
    /// Lower bound on the exact ε after R rounds: the PLD's optimistic composition (at R = 1 also
    /// the exact one-round clone value's lower end, whichever is larger).
    pub lower: f64,
    /// Certified upper bound: the smaller of the PLD's pessimistic composition and `naive` (each
    /// is certified; at R = 1 this is the exact one-round clone value).
    pub upper: f64,
    /// The PLD's own band.
    pub pld_lower: f64,
    /// The PLD's own certified upper value.
    pub pld_upper: f64,
    /// [`composed_guarantee_epsilon`] of the exact one-round value.
    pub naive: f64,
    /// Which classic theorem gave `naive`: "basic" or "advanced".
    pub naive_method: &'static str,
}

/// The ε after R rounds of shuffling n users' ε₀-LDP reports at a total δ, FMT21's clones (or
/// FMT23's stronger ones, `stronger`, k-ary randomized response only: the caller checks).
///
/// - Formula: the clone pair's PLD ([`clone_atoms`]) composed R times by `acc` (Koskela, Heikkilä
///   & Honkela 2023 compose this pair numerically), and R-fold classic composition of the exact
///   one-round ε ([`super::fmt21_numerical`], [`super::fmt23_numerical`]) by
///   [`composed_guarantee_epsilon`].
/// - Relation: replace-one. Kind: `upper` certified, `lower` a lower bound on the exact ε of the
///   clone pair composed R times (the pair dominates every ε₀-LDP randomizer, so `lower` is not a
///   lower bound for a particular randomizer).
/// - Domain: as [`clone_atoms`], R ≥ 1, δ of the accountant (1e-100 < δ < 1).
pub fn rounds_epsilon(
    acc: &crate::accounting::PldAccountant,
    eps0: f64,
    users: u64,
    stronger: bool,
    rounds: u64,
    delta: f64,
) -> Result<RoundsEpsilon, MathError> {
    use crate::accounting::Event;
    super::check_shuffle_delta(delta)?;
    let event = Event::Shuffle {
        eps0,
        users,
        stronger,
    }
    .repeated(rounds);
    rounds_epsilon_of(&acc.band(&event)?, eps0, users, stronger, rounds, delta)
}

/// [`rounds_epsilon`] from the composed band of the R rounds (as the accountant gives it for
/// `Event::Shuffle { .. }.repeated(R)`), for callers that keep the band for other uses.
pub fn rounds_epsilon_of(
    band: &crate::pld::Band,
    eps0: f64,
    users: u64,
    stronger: bool,
    rounds: u64,
    delta: f64,
) -> Result<RoundsEpsilon, MathError> {
    super::check_shuffle_delta(delta)?;
    let (pld_upper, pld_lower) = band.epsilon(delta)?;
    let one_round = |d: f64| super::clone_numerical(eps0, users, stronger, d);
    let one_round_delta =
        |e: f64| super::clone_numerical_delta(e, eps0, users, stronger).map(|x| x.1);
    let (naive, naive_method) = composed_guarantee_epsilon(
        &|d| one_round(d).map(|x| x.1),
        &one_round_delta,
        eps0,
        rounds,
        delta,
    )?;
    let mut lower = pld_lower;
    if rounds == 1 {
        lower = lower.max(one_round(delta)?.0);
    }
    let upper = pld_upper.min(naive);
    Ok(RoundsEpsilon {
        lower: lower.min(upper),
        upper,
        pld_lower,
        pld_upper,
        naive,
        naive_method,
    })
}

/// The largest local ε₀ each of n users may spend per round so that R rounds meet a central
/// target ε at δ, by the clone pair's composed PLD (pessimistic: certified).
///
/// - Method: Brent's method on ln ε₀ over [1e-3, 30] to a relative `rel` (1e-7 for the CLI and
///   the refined page), then stepped down until
///   the certified ε is at most the target (checked at the returned ε₀). The central ε of the
///   pair rises with ε₀ (the clone probability falls and each report says more).
/// - Relation: replace-one. Kind: the ε₀ returned is certified to meet the target; a slightly
///   larger one may also (within the bisection's width or the grid's rounding).
/// - Errors: [`MathError::NoSolution`] when even ε₀ = 1e-3 misses the target; ε₀ = 30 is
///   returned when it meets it (the slider's end).
pub fn largest_eps0_rounds(
    acc: &crate::accounting::PldAccountant,
    users: u64,
    stronger: bool,
    rounds: u64,
    delta: f64,
    target: f64,
    rel: f64,
) -> Result<f64, MathError> {
    use crate::accounting::{Accountant, Event, Target};
    super::check_shuffle_delta(delta)?;
    crate::check_epsilon("target ε", target)?;
    let certified = |eps0: f64| -> Result<f64, MathError> {
        let event = Event::Shuffle {
            eps0,
            users,
            stronger,
        }
        .repeated(rounds);
        acc.measure(
            &event,
            Target::Epsilon {
                epsilon: target,
                delta,
            },
        )
    };
    let (lo, hi) = (ln(1e-3), ln(30.0));
    if certified(exp(hi))? <= target {
        return Ok(30.0);
    }
    if certified(exp(lo))? > target {
        return Err(MathError::NoSolution {
            reason: format!(
                "even ε₀ = 0.001 per round gives more than ε = {} after {rounds} rounds of {users} users",
                crate::error::short(target)
            ),
        });
    }
    // Brent on ln ε₀ ↦ ln ε − ln target (smooth but for the grid's small steps; an evaluation
    // that fails counts as above the target), then down in small steps until certified.
    let f = |x: f64| match certified(exp(x)) {
        Ok(e) if e > 0.0 => ln(e) - ln(target),
        Ok(_) => -1.0,
        Err(_) => 1.0,
    };
    let tol = crate::root::Tolerance {
        abs: 1e-9,
        rel,
        max_iterations: 200,
    };
    let mut x = crate::root::brent(f, lo, hi, tol)?;
    let mut down = rel;
    for _ in 0..40 {
        if certified(exp(x))? <= target {
            return Ok(exp(x));
        }
        x = (x - down).max(lo);
        down *= 2.0;
    }
    Err(MathError::NoSolution {
        reason: "internal: no certified ε₀ was found below the root".into(),
    })
}

/// Orders for the Rényi DP of a shuffle round (each costs a clone-pair moment sum, milliseconds
/// to a few tenths of a second at n = 10⁶, so fewer than the accountant's default grid): 25
/// orders from 1.25 to 1024. Large orders matter: over many rounds of many users the per-round
/// curve is tiny and the best order large (about 350 at n = 10⁶, ε₀ = 1, R = 100, δ = 1e-6).
pub fn rdp_orders() -> Vec<f64> {
    vec![
        1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.0, 16.0, 20.0, 24.0, 32.0,
        48.0, 64.0, 96.0, 128.0, 192.0, 256.0, 384.0, 512.0, 1024.0,
    ]
}

/// The largest ε over R-fold composition of a one-round guarantee by the classic theorems, at a
/// total δ: the smaller of basic composition (R·ε₁(δ/R) at δ₁ = δ/R) and the advanced composition
/// theorem (Dwork, Rothblum & Vadhan 2010; the form of Dwork & Roth 2014, Thm. 3.20:
/// ε = ε₁√(2R ln(1/δ′)) + R·ε₁(e^{ε₁} − 1) at total δ = R·δ₁ + δ′), and pure ε₀-DP composed
/// (each round is ε₀-DP: R·ε₀, or the advanced theorem with δ₁ = 0).
///
/// The advanced theorem's split of δ is searched over 33 one-round pairs (ε₁, δ₁(ε₁)) with ε₁
/// spread geometrically from ε₁(0.99·δ/R) to ε₁(δ·2⁻³⁰/R), each δ₁ read at its ε₁ (one δ
/// evaluation, no root finding): three solves for ε₁ in all, so the whole search costs about
/// four solves. (The best split can give most of δ to the rounds: at n = 10⁵, ε₀ = 4, δ = 1e-6,
/// R = 100 it is δ₁ ≈ 0.7·δ/R.) `one_round(δ₁)` is a certified one-round ε at δ₁ and `one_round_delta(ε₁)` a
/// certified δ at ε₁ (errors where there is none).
///
/// - Relation: that of the one-round guarantee. Kind: an upper bound (each candidate is one).
/// - Returns (ε, which: "basic" or "advanced").
pub fn composed_guarantee_epsilon(
    one_round: &dyn Fn(f64) -> Result<f64, MathError>,
    one_round_delta: &dyn Fn(f64) -> Result<f64, MathError>,
    eps0: f64,
    rounds: u64,
    delta: f64,
) -> Result<(f64, &'static str), MathError> {
    let r = rounds as f64;
    let advanced = |e1: f64, d_prime: f64| {
        e1 * (2.0 * r * ln(1.0 / d_prime)).sqrt() + r * e1 * crate::special::exp_m1(e1)
    };
    let mut best = (r * eps0, "basic");
    let mut consider = |e: f64, which: &'static str| {
        if e.is_finite() && e < best.0 {
            best = (e, which);
        }
    };
    consider(advanced(eps0, delta), "advanced");
    if let Ok(e1) = one_round(delta / r) {
        consider(r * e1, "basic");
    }
    if rounds > 1 {
        let d_top = 0.99 * delta / r;
        let d_bottom = (delta / r * crate::special::pow(2.0, -30.0)).max(super::MIN_DELTA);
        if let (Ok(e_lo), Ok(e_hi)) = (one_round(d_top), one_round(d_bottom)) {
            consider(advanced(e_lo, delta - r * d_top), "advanced");
            consider(advanced(e_hi, delta - r * d_bottom), "advanced");
            if e_lo > 0.0 && e_hi > e_lo {
                let ratio = e_hi / e_lo;
                for i in 1..32 {
                    let e1 = e_lo * crate::special::pow(ratio, i as f64 / 32.0);
                    if let Ok(d1) = one_round_delta(e1) {
                        let d_prime = delta - r * d1;
                        if d_prime > 0.0 {
                            consider(advanced(e1, d_prime), "advanced");
                        }
                    }
                }
            }
        }
    }
    Ok(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn masses(a: &CloneAtoms) -> (f64, f64) {
        a.atoms.iter().fold((0.0, 0.0), |(p, q), &(l, m)| {
            (p + m, if l.is_finite() { q + m * exp(-l) } else { q })
        })
    }

    #[test]
    fn atoms_hold_all_the_mass_on_both_sides() {
        for (eps0, n) in [(1.0, 1000u64), (4.0, 100_000), (0.5, 2), (2.0, 1_000_000)] {
            for est in [Estimate::Pessimistic, Estimate::Optimistic] {
                let a = clone_atoms(eps0, n, false, est).unwrap();
                let (p, q) = masses(&a);
                assert!((p - 1.0).abs() < 1e-12, "{eps0} {n} {est:?}: P {p}");
                assert!((q - 1.0).abs() < 1e-12, "{eps0} {n} {est:?}: Q {q}");
            }
        }
    }

    #[test]
    fn one_user_is_randomized_response() {
        // Alone, user 1's report is randomized response at ε₀: losses ±ε₀ (merged cells keep
        // single atoms exactly).
        let a = clone_atoms(1.5, 1, false, Estimate::Optimistic).unwrap();
        let theta = 1.0 / (1.0 + exp(-1.5));
        assert_eq!(a.atoms.len(), 2);
        assert!((a.atoms[0].0 + 1.5).abs() < 1e-12 && (a.atoms[0].1 - (1.0 - theta)).abs() < 1e-15);
        assert!((a.atoms[1].0 - 1.5).abs() < 1e-12 && (a.atoms[1].1 - theta).abs() < 1e-15);
    }
}
