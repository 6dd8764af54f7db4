//! Privacy amplification by shuffling, subsampled randomized response, and the error of a mean in
//! the central, local and shuffle models.
//!
//! # The shuffle model
//!
//! Each of n users applies the same ε₀-LDP local randomizer to their own record; a trusted shuffler
//! permutes the n reports uniformly at random, and only the permuted reports are released (Brown,
//! lecture notes, seed 004, §2.2). The central guarantee (ε, δ) below holds for the **replace-one**
//! relation: the population has a fixed size n and neighbouring datasets differ in one user's
//! record. Every bound is an **upper bound** on the true central ε of the worst ε₀-LDP randomizer
//! (or of the named randomizer), and every bound can be capped at ε₀: a replace-one change moves
//! one report by a factor at most e^{ε₀}, so the shuffled output is ε₀-DP whatever n is.
//!
//! | id | statement implemented | kind | validity | source |
//! |---|---|---|---|---|
//! | `efmrtt19` | ε = 12ε₀√(log(1/δ)/n) | closed form | ε₀ ≤ ½, n ≥ 1000, δ ≤ 0.01, result ≤ ε₀ | Erlingsson, Feldman, Mironov, Raghunathan, Talwar & Thakurta, SODA 2019 (arXiv 1811.12469) |
//! | `bbgn19-hoeffding` | δ(ε) ≤ b²/(4aγn)·(1 − γ(1 − e^{−2a²/b²}))ⁿ, smallest ε meeting δ | numeric | all (ε₀ when it does not amplify) | Balle, Bell, Gascón & Nissim, CRYPTO 2019 (arXiv 1903.02837), privacy blanket + Hoeffding |
//! | `bbgn19-bennett` | δ(ε) ≤ E_{M∼Bin(n,γ)}[e^{−Mvφ(ab₊/v)/b₊²}·1{M≥1}]·b₊/(γn·log(1+ab₊/v)), smallest ε meeting δ | numeric | all (ε₀ when it does not amplify) | the same, Bennett's inequality |
//! | `fmt21` | ε = log(1 + (e^{ε₀}−1)/(e^{ε₀}+1)·(8√(e^{ε₀}log(4/δ)/n) + 8e^{ε₀}/n)) | closed form | ε₀ ≤ log(n/(16 log(4/δ))) | Feldman, McMillan & Talwar, FOCS 2021 (arXiv 2012.12803), Theorem 3.1 |
//! | `fmt21-numerical` | δ(ε) = E_C[D_{e^ε}(P_C‖Q_C)], clones C ∼ Bin(n−1, e^{−ε₀}), solved for ε | numeric, exact evaluation | all ε₀, n, δ | the same paper, the clone reduction and its numerical method |
//!
//! `best` is the smallest valid ε of the five ([`best`]). All five apply to any ε₀-LDP
//! randomizer; the privacy blanket bounds are tighter when told the randomizer is k-ary randomized
//! response ([`Randomizer::KRr`]).
//!
//! ## Where the statements come from
//!
//! The paper texts could not be opened from this workplace (only their abstracts), so the
//! statements were taken from `shared/docs/math-reference.md` and from the code each group
//! published with its paper, and each was re-derived here before it was implemented:
//!
//! - EFMRTT19: the formula and its validity box are those of math-reference.md, which match the
//!   box encoded in Balle et al.'s published implementation (ε₀ ≤ 0.5, n ≥ 1000, δ ≤ 0.01, result
//!   ≤ ε₀).
//! - BBGN19: the blanket decomposition R(x) = (1 − γ)·μ_x + γ·ω with ω(y) ∝ inf_x R(x)(y), and the
//!   privacy amplification variable L = (R(x₁)(Y) − e^ε R(x₁′)(Y))/ω(Y), Y ∼ ω, so E(L) = 1 − e^ε =
//!   −a. The δ bound is (1/(γn))·E_{M∼Bin(n,γ)} E[(L₁ + … + L_M)₊]; Hoeffding (L in an interval of
//!   width b) and Bennett (L ≤ b₊, E(L²) ≤ v, in the form of Boucheron, Lugosi & Massart's Theorem
//!   2.9) each bound the inner expectation after integrating the tail, as in the authors'
//!   implementation (github.com/BorjaBalle/amplification-by-shuffling, which produced the paper's
//!   plots). The constants for a generic randomizer are theirs: γ ≥ e^{−ε₀},
//!   b = (e^{ε₀} − e^{−ε₀})(e^ε + 1), b₊ = e^{ε₀} − e^{ε−ε₀},
//!   v = e^{ε₀}(e^{2ε} + 1) − 2e^{ε−3ε₀}; each follows from R(x)/ω ∈ [e^{−ε₀}, e^{ε₀}] (the last
//!   is looser than needed but valid; we evaluate it as a sum of positive terms, since the
//!   difference loses every digit for small ε and ε₀).
//!   For k-ary randomized response the moments are exact: γ = k/(e^{ε₀} + k − 1),
//!   b = γ(e^{ε₀} − 1)(e^ε + 1), b₊ = γ(e^{ε₀} − e^ε),
//!   v = γ(2 − γ)(e^ε − 1)² + k(1 − γ)²(e^{2ε} + 1).
//!   Our Bennett expectation is the closed form (1 − γ + γe^{−κ})ⁿ − (1 − γ)ⁿ instead of their
//!   numerical sum. Their notebook's values (n = 5000, ε₀ = 0.4) are reproduced to 1e-9 in the
//!   tests. For ε we take the smallest ε with δ(ε) ≤ target: the bounds are U-shaped in ε when nγ
//!   is small (b²/a grows like e^ε), so the crossing nearest ε₀ is not the tightest, and a bound
//!   can meet the target in a dip although δ just below ε₀ does not (their code's bracketed root
//!   finder returns whichever crossing it meets). When no ε < ε₀ meets the target the result is
//!   ε₀, flagged `no_amplification`.
//! - FMT21: the theorem's closed form is that of math-reference.md (0.53463 at n = 1e5, ε₀ = 4,
//!   δ = 1e-6). Its validity condition is implemented as ε₀ ≤ log(n/(16 log(4/δ))), the form in
//!   math-reference.md and in the published code; if the paper's statement has log(2/δ) there, ours
//!   is the more cautious of the two. The code published with the paper computes a slightly
//!   different expression, log(1 + (1 − e^{−ε₀})/(1 + e^{−ε₀−ε′})·(a + b)) with ε′ = log(1 + a + b)
//!   (0.53780 at the same point); we show the theorem's form and use the code's only to reproduce
//!   the published numerical method, whose bisection starts from it.
//! - FMT21 numerical: conditioned on C = c clones the two distributions of the count of reports
//!   that look like x₁ are P_c = A + Δ and Q_c = A + 1 − Δ, A ∼ Bin(c, ½),
//!   Δ ∼ Bern(e^{ε₀}/(e^{ε₀} + 1)); see [`clone_divergence`].
//! - FMT 2023 ("Stronger privacy amplification by shuffling for Rényi and approximate differential
//!   privacy", arXiv 2208.04591) is left out: its improved reduction could not be read here, and
//!   we do not implement a bound we cannot state from its source with confidence. The specialised
//!   k-RR clone analysis of FMT21 (its Section on specific randomizers) is left out for the same
//!   reason.
//!
//! ## Numerical method of `fmt21-numerical`
//!
//! The hockey-stick divergence of P_c and Q_c is a sum over the counts j where the likelihood ratio
//! (e^{ε₀}j + c + 1 − j)/(j + e^{ε₀}(c + 1 − j)) exceeds e^ε. The ratio increases with j, so those
//! counts are j ≥ k_c = ⌈τ(c + 1)⌉ with τ = (e^{ε+ε₀} − 1)/((e^{ε₀} − 1)(e^ε + 1)), and
//! D_c = A·b_c(k_c − 1) − (e^ε − 1)·S_c(k_c), with b_c the Bin(c, ½) probabilities, S_c its upper
//! tail and A = (e^{ε₀} − e^ε)/(e^{ε₀} + 1). Swapping P and Q is the reflection j ↦ c + 1 − j, so
//! both orders give the same divergence (the published code computes both; we compute one and the
//! reference oracle checks the symmetry). Because P_{c+1}, Q_{c+1} are P_c, Q_c plus the same
//! independent fair bit, D_c does not increase with c (data processing).
//!
//! For one ε the sum over c runs over a window of the binomial of C (the weights are computed once
//! per (n, ε₀, δ), since they do not depend on ε), walking c downwards with O(1) recurrences for
//! b_c(k_c − 1) and the ratio S_c(k_c)/b_c(k_c − 1); k_c steps down by 0 or 1 each time. Walking
//! down, the tail probabilities grow, so rounding errors do not grow along the walk (measured: the
//! sum agrees with mpmath to 1.5e-14 relative). The mass of C outside the window is bounded by a
//! geometric series of the binomial's ratios (they decrease away from the mode) and multiplied by
//! the largest D_c it can meet (D_0 below the window, D at the window's top above it); the window
//! is chosen so that this is below 1e-13·δ. The upper δ adds those tails and a relative 1e-9 for
//! rounding; the lower δ drops them and subtracts 1e-9. ε is solved from each with [`brent`] to
//! 1e-12 relative, giving a certified upper ε and a lower ε apart by 2e-9/|d log δ/dε| (about
//! 1e-11 at the reference point). Work per δ evaluation: O(√(n e^{−ε₀}(1 − e^{−ε₀}) log(1/δ)));
//! solving for ε (both ends, ~50 evaluations) takes 0.3–1.5 ms natively at n = 1e6 and 1.3–4.7 ms
//! at n = 1e7 (`examples/shuffle_timing.rs`). The published block method is reproduced with the
//! same walk (every block end within reach of the window in one pass), so it costs the same.
//!
//! ## Measured accuracy
//!
//! Against `math/tests/data/shuffle.csv` (`tools/reference/shuffle.py`, mpmath at 50 digits): the
//! closed forms, the subsampled randomized response values and the error-of-mean formulas agree to
//! 3.4e-16 relative (tests assert 1e-12); their inverses to 2e-14 (asserted 1e-12, 1e-9 where
//! they go through a numerical bound); the privacy blanket δ(ε) to 2.6e-12 (asserted 1e-10);
//! single clone divergences D_c, c up to 3e7, to 5.5e-13 (asserted 1e-12); the clone reduction's
//! δ(ε) (oracle: a direct sum of max(0, P(j) − e^ε Q(j)) over every c within 12 standard
//! deviations of the mean of C and every j within 12 of c/2) to 1.5e-14 at the midpoint of the
//! certified pair, and the pair brackets the oracle's value in every row. A brute-force ε (50
//! halvings over definition-based sums) agrees with the exact ε to ~1e-11 at n = 3000, 1e4, 1e5.
//! The generic-randomizer blanket and clone bounds were checked to be monotone (ε falls with n and
//! δ, rises with ε₀) and their inverses to round-trip on 20,000 random points.

use crate::root::{brent, Tolerance};
use crate::special::{exp, exp_m1, ln, ln_1p, ln_binomial_pmf, pow};
use crate::{check_epsilon, check_probability, MathError, Relation};

/// The neighbouring relation of every shuffle bound in this module: the population of n users is
/// fixed and one user's record is replaced.
pub const RELATION: Relation = Relation::ReplaceOne;

/// Smallest local ε₀ accepted: below it every bound is linear in ε₀ to double precision, and the
/// limit keeps subnormal numbers out of the formulas.
pub const MIN_EPS0: f64 = 1e-12;

/// Largest local ε₀ accepted. Beyond it no bound amplifies for any accepted n (the expected number
/// of clones, n·e^{−ε₀}, is below 1e-34 at n = 1e9), and e^{2ε₀} stays far from overflow.
pub const MAX_EPS0: f64 = 100.0;

/// Largest number of users accepted (a billion): the numerical bound's work grows like √n.
pub const MAX_USERS: u64 = 1_000_000_000;

/// Smallest δ accepted by the shuffle bounds. None of them gives pure DP (δ = 0 leaves ε = ε₀), and
/// below 1e-100 the numerical bound's tail windows would approach the limits of f64.
pub const MIN_DELTA: f64 = 1e-100;

/// The id of the "tightest valid bound" choice in URLs, CLI flags and JSON.
pub const BEST_ID: &str = "best";

/// A published bound on the central ε of the shuffle model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// Erlingsson, Feldman, Mironov, Raghunathan, Talwar & Thakurta 2019: 12ε₀√(log(1/δ)/n).
    Efmrtt19,
    /// Balle, Bell, Gascón & Nissim 2019, privacy blanket with Hoeffding's inequality.
    Bbgn19Hoeffding,
    /// Balle, Bell, Gascón & Nissim 2019, privacy blanket with Bennett's inequality.
    Bbgn19Bennett,
    /// Feldman, McMillan & Talwar 2021, the closed form of their Theorem 3.1.
    Fmt21,
    /// Feldman, McMillan & Talwar 2021, the clone reduction evaluated exactly.
    Fmt21Numerical,
}

impl Bound {
    /// All bounds, in display order (oldest first).
    pub const ALL: [Bound; 5] = [
        Bound::Efmrtt19,
        Bound::Bbgn19Hoeffding,
        Bound::Bbgn19Bennett,
        Bound::Fmt21,
        Bound::Fmt21Numerical,
    ];

    /// Machine name used in URLs, CLI flags and JSON.
    pub fn id(self) -> &'static str {
        match self {
            Bound::Efmrtt19 => "efmrtt19",
            Bound::Bbgn19Hoeffding => "bbgn19-hoeffding",
            Bound::Bbgn19Bennett => "bbgn19-bennett",
            Bound::Fmt21 => "fmt21",
            Bound::Fmt21Numerical => "fmt21-numerical",
        }
    }

    /// Parse a machine name (not `best`; see [`Choice::from_id`]).
    pub fn from_id(id: &str) -> Option<Bound> {
        Bound::ALL.into_iter().find(|b| b.id() == id)
    }

    /// Human name, as shown in legends.
    pub fn name(self) -> &'static str {
        match self {
            Bound::Efmrtt19 => "Erlingsson et al. 2019",
            Bound::Bbgn19Hoeffding => "Privacy blanket (Hoeffding)",
            Bound::Bbgn19Bennett => "Privacy blanket (Bennett)",
            Bound::Fmt21 => "Clones, closed form",
            Bound::Fmt21Numerical => "Clones, numerical",
        }
    }

    /// The paper, with its arXiv number.
    pub fn citation(self) -> &'static str {
        match self {
            Bound::Efmrtt19 => {
                "Erlingsson, Feldman, Mironov, Raghunathan, Talwar & Thakurta, \"Amplification by \
                 shuffling: from local to central differential privacy via anonymity\", SODA 2019 \
                 (arXiv 1811.12469)"
            }
            Bound::Bbgn19Hoeffding | Bound::Bbgn19Bennett => {
                "Balle, Bell, Gascón & Nissim, \"The privacy blanket of the shuffle model\", \
                 CRYPTO 2019 (arXiv 1903.02837)"
            }
            Bound::Fmt21 | Bound::Fmt21Numerical => {
                "Feldman, McMillan & Talwar, \"Hiding among the clones: a simple and nearly \
                 optimal analysis of privacy amplification by shuffling\", FOCS 2021 \
                 (arXiv 2012.12803)"
            }
        }
    }

    /// The neighbouring relation of the guarantee (replace-one for all).
    pub fn relation(self) -> Relation {
        RELATION
    }
}

/// A bound, or "the tightest valid one".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Choice {
    /// The smallest valid ε among [`Bound::ALL`].
    Best,
    /// One named bound.
    One(Bound),
}

impl Choice {
    /// Machine name: [`BEST_ID`] or the bound's id.
    pub fn id(self) -> &'static str {
        match self {
            Choice::Best => BEST_ID,
            Choice::One(b) => b.id(),
        }
    }

    /// Parse `best` or a bound's id.
    pub fn from_id(id: &str) -> Option<Choice> {
        if id == BEST_ID {
            Some(Choice::Best)
        } else {
            Bound::from_id(id).map(Choice::One)
        }
    }
}

/// The local randomizer, as far as the privacy blanket bounds can use it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Randomizer {
    /// Any ε₀-LDP randomizer (blanket probability only known to be at least e^{−ε₀}).
    Generic,
    /// k-ary randomized response: the true value with probability e^{ε₀}/(e^{ε₀} + k − 1), each
    /// other value with probability 1/(e^{ε₀} + k − 1). k ≥ 2; k = 2 is binary randomized response.
    KRr {
        /// Alphabet size.
        k: u64,
    },
}

/// What a shuffle bound says at (ε₀, n, δ).
#[derive(Clone, Debug, PartialEq)]
pub struct ShuffleEpsilon {
    /// Which bound.
    pub bound: Bound,
    /// The randomizer it was evaluated for (only the privacy blanket bounds use it).
    pub randomizer: Randomizer,
    /// Whether (ε₀, n, δ) lies in the bound's validity box.
    pub valid: bool,
    /// The central ε, an upper bound (None when not valid). For `fmt21-numerical` the certified
    /// upper end of the exact evaluation.
    pub epsilon: Option<f64>,
    /// For `fmt21-numerical`: the lower end of the range the published method returns (blocks of
    /// 100 clone counts, 10 halvings). None otherwise.
    pub lower: Option<f64>,
    /// For `fmt21-numerical`: the upper end of the published method's range. None otherwise.
    pub upper: Option<f64>,
    /// For `fmt21-numerical`: the lower end of the exact evaluation (it meets `epsilon` within
    /// about 1e-10). None otherwise.
    pub exact_lower: Option<f64>,
    /// True when the bound gives no amplification and ε = ε₀ is reported (the trivial bound).
    pub no_amplification: bool,
    /// Why the bound does not apply, when `valid` is false.
    pub reason_invalid: Option<&'static str>,
}

impl ShuffleEpsilon {
    fn valid(bound: Bound, randomizer: Randomizer, epsilon: f64) -> Self {
        ShuffleEpsilon {
            bound,
            randomizer,
            valid: true,
            epsilon: Some(epsilon),
            lower: None,
            upper: None,
            exact_lower: None,
            no_amplification: false,
            reason_invalid: None,
        }
    }

    fn invalid(bound: Bound, randomizer: Randomizer, reason: &'static str) -> Self {
        ShuffleEpsilon {
            bound,
            randomizer,
            valid: false,
            epsilon: None,
            lower: None,
            upper: None,
            exact_lower: None,
            no_amplification: false,
            reason_invalid: Some(reason),
        }
    }

    /// The neighbouring relation (replace-one).
    pub fn relation(&self) -> Relation {
        RELATION
    }
}

// ---------------------------------------------------------------------------------------------
// Input checks
// ---------------------------------------------------------------------------------------------

fn check_eps0(eps0: f64) -> Result<(), MathError> {
    if eps0.is_nan() {
        return Err(MathError::NotANumber { name: "ε₀" });
    }
    if !(MIN_EPS0..=MAX_EPS0).contains(&eps0) {
        return Err(MathError::OutOfDomain {
            name: "ε₀",
            value: eps0,
            expected: "between 1e-12 and 100",
        });
    }
    Ok(())
}

fn check_users(n: u64) -> Result<(), MathError> {
    if n == 0 || n > MAX_USERS {
        return Err(MathError::OutOfDomain {
            name: "n",
            value: n as f64,
            expected: "a whole number of users between 1 and 1e9",
        });
    }
    Ok(())
}

fn check_shuffle_delta(delta: f64) -> Result<(), MathError> {
    if delta.is_nan() {
        return Err(MathError::NotANumber { name: "δ" });
    }
    if !(MIN_DELTA..1.0).contains(&delta) {
        return Err(MathError::OutOfDomain {
            name: "δ",
            value: delta,
            expected: "at least 1e-100 and below 1 (shuffling gives no pure-DP amplification)",
        });
    }
    Ok(())
}

fn check_randomizer(r: Randomizer) -> Result<(), MathError> {
    if let Randomizer::KRr { k } = r {
        if !(2..=MAX_USERS).contains(&k) {
            return Err(MathError::OutOfDomain {
                name: "k",
                value: k as f64,
                expected: "a whole alphabet size between 2 and 1e9",
            });
        }
    }
    Ok(())
}

fn check_all(eps0: f64, n: u64, delta: f64) -> Result<(), MathError> {
    check_eps0(eps0)?;
    check_users(n)?;
    check_shuffle_delta(delta)
}

// ---------------------------------------------------------------------------------------------
// Closed forms
// ---------------------------------------------------------------------------------------------

/// Erlingsson et al. 2019: ε = 12ε₀√(log(1/δ)/n).
///
/// - Source: EFMRTT19 (arXiv 1811.12469), the amplification corollary for ε₀-LDP randomizers, as
///   stated in math-reference.md (the paper's text could not be opened here; the validity box is
///   also the one encoded in Balle et al.'s implementation).
/// - Relation: replace-one. Upper bound.
/// - Validity: ε₀ ≤ ½, n ≥ 1000, δ ≤ 0.01, and the result at most ε₀ (n ≥ 144 log(1/δ)); outside
///   it the result is marked not valid. Example: n = 1e5, ε₀ = ½, δ = 1e-6 gives 0.070524.
/// - Accuracy: a few ulp (1e-15 relative against mpmath).
pub fn efmrtt19(eps0: f64, n: u64, delta: f64) -> Result<ShuffleEpsilon, MathError> {
    check_all(eps0, n, delta)?;
    let b = Bound::Efmrtt19;
    let r = Randomizer::Generic;
    if eps0 > 0.5 {
        return Ok(ShuffleEpsilon::invalid(b, r, "needs ε₀ ≤ 1/2"));
    }
    if n < 1000 {
        return Ok(ShuffleEpsilon::invalid(b, r, "needs n ≥ 1000"));
    }
    if delta > 0.01 {
        return Ok(ShuffleEpsilon::invalid(b, r, "needs δ ≤ 0.01"));
    }
    let eps = efmrtt19_formula(eps0, n as f64, delta);
    if eps > eps0 {
        return Ok(ShuffleEpsilon::invalid(
            b,
            r,
            "the result exceeds ε₀ (needs n ≥ 144·log(1/δ))",
        ));
    }
    Ok(ShuffleEpsilon::valid(b, r, eps))
}

fn efmrtt19_formula(eps0: f64, n: f64, delta: f64) -> f64 {
    12.0 * eps0 * (-ln(delta) / n).sqrt()
}

/// The largest ε₀ allowed by FMT21's validity condition, log(n/(16 log(4/δ))) (may be ≤ 0).
fn fmt21_eps0_limit(n: u64, delta: f64) -> f64 {
    ln(n as f64 / (16.0 * (std::f64::consts::LN_2 * 2.0 - ln(delta))))
}

/// Feldman, McMillan & Talwar 2021, Theorem 3.1 (closed form):
/// ε = log(1 + (e^{ε₀} − 1)/(e^{ε₀} + 1)·(a + b)), a = 8√(e^{ε₀} log(4/δ)/n), b = 8e^{ε₀}/n.
///
/// - Source: FMT21 (arXiv 2012.12803), Theorem 3.1, the form given in math-reference.md (n = 1e5,
///   ε₀ = 4, δ = 1e-6 → 0.53463). The code published with the paper computes a slightly larger
///   variant (0.53780 there); this is the theorem's.
/// - Relation: replace-one. Upper bound, for any ε₀-LDP randomizer.
/// - Validity: ε₀ ≤ log(n/(16 log(4/δ))); outside it the result is marked not valid.
/// - Computed as `ln_1p(expm1(ε₀)/(e^{ε₀} + 1)·(a + b))`: no cancellation for small ε₀.
///   Relative error ~1e-15 against mpmath.
pub fn fmt21(eps0: f64, n: u64, delta: f64) -> Result<ShuffleEpsilon, MathError> {
    check_all(eps0, n, delta)?;
    if eps0 > fmt21_eps0_limit(n, delta) {
        return Ok(ShuffleEpsilon::invalid(
            Bound::Fmt21,
            Randomizer::Generic,
            "needs ε₀ ≤ log(n/(16·log(4/δ)))",
        ));
    }
    Ok(ShuffleEpsilon::valid(
        Bound::Fmt21,
        Randomizer::Generic,
        fmt21_formula(eps0, n as f64, delta),
    ))
}

fn fmt21_formula(eps0: f64, n: f64, delta: f64) -> f64 {
    let l4 = 2.0 * std::f64::consts::LN_2 - ln(delta);
    let a = 8.0 * exp(0.5 * eps0) * (l4 / n).sqrt();
    let b = 8.0 * exp(eps0) / n;
    ln_1p(exp_m1(eps0) / (exp(eps0) + 1.0) * (a + b))
}

/// The closed form as computed by the code published with FMT21 (not the theorem's form, see
/// [`fmt21`]): log(1 + (1 − e^{−ε₀})/(1 + e^{−ε₀−ε′})·(a + b)) with ε′ = log(1 + a + b) and a, b
/// as in [`fmt21`]; 0.53780 at n = 1e5, ε₀ = 4, δ = 1e-6 where the theorem gives 0.53463.
///
/// Shown for comparison only; the published numerical method starts its bisection from it. The
/// code uses it under the same condition ε₀ < log(n/(16 log(4/δ))); the value is returned whatever
/// the condition. Relation: replace-one. Domain as [`fmt21`].
pub fn fmt21_code_variant(eps0: f64, n: u64, delta: f64) -> Result<f64, MathError> {
    check_all(eps0, n, delta)?;
    Ok(fmt21_published_code_formula(eps0, n as f64, delta))
}

fn fmt21_published_code_formula(eps0: f64, n: f64, delta: f64) -> f64 {
    let l4 = 2.0 * std::f64::consts::LN_2 - ln(delta);
    let a = 8.0 * exp(0.5 * eps0) * (l4 / n).sqrt();
    let b = 8.0 * exp(eps0) / n;
    let e1 = ln_1p(a + b);
    ln_1p(-exp_m1(-eps0) / (1.0 + exp(-eps0 - e1)) * (a + b))
}

// ---------------------------------------------------------------------------------------------
// Privacy blanket (BBGN19)
// ---------------------------------------------------------------------------------------------

/// The quantities of the privacy amplification variable L that the blanket bounds use.
struct Blanket {
    /// Lower bound on the blanket probability γ.
    gamma: f64,
    /// a = e^ε − 1 = −E[L].
    a: f64,
    /// Width of an interval containing L (Hoeffding).
    range: f64,
    /// Upper bound b₊ > 0 on L (Bennett).
    max: f64,
    /// Upper bound v on E[L²] (Bennett).
    second_moment: f64,
}

fn blanket(r: Randomizer, eps: f64, eps0: f64) -> Blanket {
    let a = exp_m1(eps);
    match r {
        Randomizer::Generic => Blanket {
            gamma: exp(-eps0),
            a,
            // (e^{ε₀} − e^{−ε₀})(e^ε + 1)
            range: exp(-eps0) * exp_m1(2.0 * eps0) * (exp(eps) + 1.0),
            // e^{ε₀} − e^{ε−ε₀}
            max: exp(eps - eps0) * exp_m1(2.0 * eps0 - eps),
            // e^{ε₀}(e^{2ε} + 1) − 2e^{ε−3ε₀}, rewritten as a sum of positive terms,
            // e^{ε₀}(e^ε − 1)² + 2e^{ε−3ε₀}(e^{4ε₀} − 1): the difference loses every digit when
            // ε and ε₀ are small (both terms are ≈ 2).
            second_moment: exp(eps0) * a * a + 2.0 * exp(eps - 3.0 * eps0) * exp_m1(4.0 * eps0),
        },
        Randomizer::KRr { k } => {
            let k = k as f64;
            // γ = k/(e^{ε₀} + k − 1); 1 − γ = (e^{ε₀} − 1)/(e^{ε₀} + k − 1).
            let denom = exp_m1(eps0) + k;
            let gamma = k / denom;
            let one_minus = exp_m1(eps0) / denom;
            Blanket {
                gamma,
                a,
                range: gamma * exp_m1(eps0) * (exp(eps) + 1.0),
                // γ(e^{ε₀} − e^ε)
                max: gamma * exp(eps) * exp_m1(eps0 - eps),
                second_moment: gamma * (2.0 - gamma) * a * a
                    + k * one_minus * one_minus * (exp(2.0 * eps) + 1.0),
            }
        }
    }
}

/// φ(u) = (1 + u)log(1 + u) − u for u ≥ 0, by its series below 1e-2 (no cancellation).
fn bennett_phi(u: f64) -> f64 {
    if u < 1e-2 {
        // Σ_{k≥2} (−1)^k u^k/(k(k−1)); 8 terms leave < u⁹/72 < 1e-19·u².
        let mut s = 0.0;
        let mut pow = u * u;
        for k in 2..10 {
            let kf = k as f64;
            let t = pow / (kf * (kf - 1.0));
            s += if k % 2 == 0 { t } else { -t };
            pow *= u;
        }
        s
    } else {
        (1.0 + u) * ln_1p(u) - u
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Inequality {
    Hoeffding,
    Bennett,
}

/// log of the blanket δ bound at ε (0 < ε < ε₀); −∞ for ε ≥ ε₀.
fn bbgn19_ln_delta(ineq: Inequality, r: Randomizer, eps: f64, eps0: f64, n: f64) -> f64 {
    if eps >= eps0 {
        return f64::NEG_INFINITY;
    }
    let bl = blanket(r, eps, eps0);
    match ineq {
        Inequality::Hoeffding => {
            // δ ≤ b²/(4aγn)·(1 − γ(1 − e^{−2a²/b²}))ⁿ
            let ratio = bl.a / bl.range;
            let inner = ln_1p(bl.gamma * exp_m1(-2.0 * ratio * ratio));
            2.0 * ln(bl.range) - ln(4.0 * bl.a) - ln(bl.gamma * n) + n * inner
        }
        Inequality::Bennett => {
            // δ ≤ b₊/(γn log(1 + β))·[(1 − γ(1 − e^{−κ}))ⁿ − (1 − γ)ⁿ],
            // β = a b₊/v, κ = (v/b₊²)φ(β).
            let beta = bl.a * bl.max / bl.second_moment;
            let kappa = bl.second_moment / (bl.max * bl.max) * bennett_phi(beta);
            let ln_x = n * ln_1p(bl.gamma * exp_m1(-kappa));
            // (1 − γ)ⁿ relative to Xⁿ: n·[log(1 − γ) − log X] = −n log(1 + γe^{−κ}/(1 − γ)).
            let ln_y_minus_x = -n * ln_1p(bl.gamma * exp(-kappa) / (1.0 - bl.gamma));
            let expectation_ln = ln_x + ln(-exp_m1(ln_y_minus_x));
            expectation_ln + ln(bl.max) - ln(bl.gamma * n) - ln(ln_1p(beta))
        }
    }
}

/// The privacy blanket δ(ε) bound with Hoeffding's inequality (BBGN19), for `randomizer`.
///
/// δ ≤ b²/(4aγn)·(1 − γ(1 − e^{−2a²/b²}))ⁿ with a = e^ε − 1, b the width of the range of the
/// privacy amplification variable and γ the blanket probability (constants in the module doc).
/// Relation: replace-one. Upper bound; 0 for ε ≥ ε₀ (the trivial ε₀-DP). Values above 1 are
/// returned as they are (vacuous). Domain: 0 < ε ≤ 500, 1e-12 ≤ ε₀ ≤ 100, 1 ≤ n ≤ 1e9.
/// Accuracy: 2.4e-13 relative against mpmath (reference table).
pub fn bbgn19_hoeffding_delta(
    randomizer: Randomizer,
    eps: f64,
    eps0: f64,
    n: u64,
) -> Result<f64, MathError> {
    bbgn19_delta(Inequality::Hoeffding, randomizer, eps, eps0, n)
}

/// The privacy blanket δ(ε) bound with Bennett's inequality (BBGN19), for `randomizer`.
///
/// δ ≤ E_{M∼Bin(n,γ)}[e^{−Mκ}·1{M ≥ 1}]·b₊/(γn·log(1 + β)), β = ab₊/v, κ = (v/b₊²)φ(β),
/// φ(u) = (1 + u)log(1 + u) − u; the expectation is (1 − γ + γe^{−κ})ⁿ − (1 − γ)ⁿ. Relation:
/// replace-one. Upper bound; 0 for ε ≥ ε₀. Domain as [`bbgn19_hoeffding_delta`]. Accuracy: 2.6e-12
/// relative against mpmath's direct sum over M (reference table).
pub fn bbgn19_bennett_delta(
    randomizer: Randomizer,
    eps: f64,
    eps0: f64,
    n: u64,
) -> Result<f64, MathError> {
    bbgn19_delta(Inequality::Bennett, randomizer, eps, eps0, n)
}

fn bbgn19_delta(
    ineq: Inequality,
    randomizer: Randomizer,
    eps: f64,
    eps0: f64,
    n: u64,
) -> Result<f64, MathError> {
    check_epsilon("ε", eps)?;
    if eps == 0.0 {
        return Err(MathError::OutOfDomain {
            name: "ε",
            value: eps,
            expected: "above 0 (the blanket bounds diverge at ε = 0)",
        });
    }
    check_eps0(eps0)?;
    check_users(n)?;
    check_randomizer(randomizer)?;
    Ok(exp(bbgn19_ln_delta(ineq, randomizer, eps, eps0, n as f64)))
}

fn bbgn19_epsilon(
    ineq: Inequality,
    randomizer: Randomizer,
    eps0: f64,
    n: u64,
    delta: f64,
) -> Result<ShuffleEpsilon, MathError> {
    let bound = match ineq {
        Inequality::Hoeffding => Bound::Bbgn19Hoeffding,
        Inequality::Bennett => Bound::Bbgn19Bennett,
    };
    let nf = n as f64;
    let target = ln(delta);
    let f = |e: f64| bbgn19_ln_delta(ineq, randomizer, e, eps0, nf) - target;
    // The smallest ε with δ(ε) ≤ target. δ(ε) need not decrease all the way to ε₀: when nγ is
    // small the factor b²/a grows like e^ε and the bound is U-shaped, so the crossing nearest ε₀
    // is not the tightest one, and δ just below ε₀ may exceed the target while a dip meets it.
    // Scan a grid (log-spaced up to ε₀/2, linear above), take the first point that meets the
    // target and solve between it and the previous point; if none does, look for the dip's
    // minimum by golden-section search around the grid's lowest point.
    let mut grid: Vec<f64> = (0..64)
        .map(|i| eps0 * 0.5 * pow(1e-9, 1.0 - i as f64 / 63.0))
        .chain((1..=64).map(|i| eps0 * (0.5 + 0.5 * i as f64 / 64.0)))
        .collect();
    let last = grid.len() - 1;
    grid[last] = eps0 * (1.0 - 4.0 * f64::EPSILON);
    let values: Vec<f64> = grid.iter().map(|&e| f(e)).collect();
    let tol = Tolerance {
        abs: 1e-15,
        rel: 1e-13,
        max_iterations: 300,
    };
    let (a, b) = match values.iter().position(|&v| v <= 0.0) {
        Some(0) => {
            let lo = eps0 * 1e-12;
            if f(lo) <= 0.0 {
                return Ok(ShuffleEpsilon::valid(bound, randomizer, lo));
            }
            (lo, grid[0])
        }
        Some(i) => (grid[i - 1], grid[i]),
        None => {
            let j = (0..grid.len())
                .min_by(|&x, &y| values[x].total_cmp(&values[y]))
                .unwrap_or(0);
            let (lo, hi) = (grid[j.saturating_sub(1)], grid[(j + 1).min(last)]);
            let x_min = crate::root::golden_section_min(&f, lo, hi, 100);
            if f(x_min) > 0.0 {
                let mut out = ShuffleEpsilon::valid(bound, randomizer, eps0);
                out.no_amplification = true;
                return Ok(out);
            }
            (lo, x_min)
        }
    };
    let root = brent(f, a, b, tol)?;
    // Step to the side where δ(ε) ≤ target (the bracket is narrower than the tolerance).
    let eps = (root * (1.0 + 2e-13) + 2e-15).min(eps0);
    Ok(ShuffleEpsilon::valid(bound, randomizer, eps))
}

// ---------------------------------------------------------------------------------------------
// FMT21 clone reduction
// ---------------------------------------------------------------------------------------------

/// Constants of the clone divergence at (ε, ε₀), 0 ≤ ε < ε₀.
#[derive(Clone, Copy)]
struct CloneConsts {
    /// A = (e^{ε₀} − e^ε)/(e^{ε₀} + 1), the weight of b_c(k − 1); also D_0.
    a: f64,
    /// e^ε − 1.
    b: f64,
    /// τ: the counts j ≥ τ(c + 1) are where P_c(j) > e^ε Q_c(j).
    tau: f64,
}

impl CloneConsts {
    fn new(eps: f64, eps0: f64) -> Self {
        CloneConsts {
            a: -exp_m1(eps - eps0) / (1.0 + exp(-eps0)),
            b: exp_m1(eps),
            tau: exp_m1(eps + eps0) / (exp_m1(eps0) * (exp(eps) + 1.0)),
        }
    }

    /// k_c = ⌈τ(c + 1)⌉, within [1, c + 1].
    fn threshold(&self, c: u64) -> u64 {
        let k = (self.tau * (c as f64 + 1.0)).ceil();
        (k.max(1.0) as u64).min(c + 1)
    }
}

/// log b_c(m) = log P(Bin(c, ½) = m).
fn ln_half_binomial(c: u64, m: u64) -> f64 {
    if m == 0 || m == c {
        -(c as f64) * std::f64::consts::LN_2
    } else {
        ln_binomial_pmf(m as f64, c as f64, 0.5)
    }
}

/// For Bin(c, ½) and m ≥ (c − 1)/2: (log b_c(m), S_c(m + 1)/b_c(m)), the tail by direct summation
/// of the ratio terms (each at most 1, decreasing), with the geometric bound on the rest added.
fn direct_state(c: u64, m: u64) -> (f64, f64) {
    let ln_beta = ln_half_binomial(c, m);
    let mut sum = 0.0;
    let mut t = 1.0;
    let mut j = m;
    while j < c {
        // b(j + 1)/b(j) = (c − j)/(j + 1)
        let r = (c - j) as f64 / (j + 1) as f64;
        t *= r;
        j += 1;
        sum += t;
        if t < 1e-18 * sum {
            let next = (c - j) as f64 / (j + 1) as f64;
            if next < 1.0 {
                sum += t * next / (1.0 - next);
                break;
            }
        }
    }
    (ln_beta, sum)
}

/// The hockey-stick divergence D_{e^ε}(P_c ‖ Q_c) of the clone reduction, conditioned on c clones.
///
/// P_c = A + Δ and Q_c = A + 1 − Δ with A ∼ Bin(c, ½), Δ ∼ Bern(e^{ε₀}/(e^{ε₀} + 1)): the number
/// of reports that look like user 1's first input, when c of the n − 1 others are clones (FMT21,
/// arXiv 2012.12803, the reduction behind Theorem 3.1 and its numerical method). Equal in both
/// orders (reflection j ↦ c + 1 − j); 0 for ε ≥ ε₀; non-increasing in c.
///
/// Computed as b_c(k − 1)·Σ_{j ≥ k} [b_c(j − 1)/b_c(k − 1)]·[A − (A + e^ε − 1)(c − j + 1)/j],
/// a sum of non-negative terms, k = ⌈τ(c + 1)⌉, b_c(k − 1) in log space (Loader's form). Work
/// O(√c). Exact up to rounding: 5.5e-13 relative against mpmath for c up to 3e7 (the ratio
/// products accumulate rounding over the ~√c terms).
pub fn clone_divergence(c: u64, eps: f64, eps0: f64) -> Result<f64, MathError> {
    check_epsilon("ε", eps)?;
    check_eps0(eps0)?;
    if c > MAX_USERS {
        return Err(MathError::OutOfDomain {
            name: "c",
            value: c as f64,
            expected: "a clone count at most 1e9",
        });
    }
    Ok(clone_divergence_unchecked(c, eps, eps0))
}

fn clone_divergence_unchecked(c: u64, eps: f64, eps0: f64) -> f64 {
    if eps >= eps0 {
        return 0.0;
    }
    let k = CloneConsts::new(eps, eps0);
    direct_divergence(c, &k)
}

fn direct_divergence(c: u64, k: &CloneConsts) -> f64 {
    let kc = k.threshold(c);
    let m = kc - 1;
    let ln_beta = ln_half_binomial(c, m);
    let c1 = k.a + k.b;
    // j runs from kc to c + 1; r = b(j − 1)/b(m).
    let mut r = 1.0;
    let mut sum = 0.0;
    let mut j = kc;
    loop {
        let term = r * (k.a - c1 * (c + 1 - j) as f64 / j as f64);
        if term > 0.0 {
            sum += term;
        }
        if j > c {
            break;
        }
        // b(j)/b(j − 1) = (c − j + 1)/j
        let ratio = (c + 1 - j) as f64 / j as f64;
        r *= ratio;
        j += 1;
        if r < 1e-18 * sum && ratio < 1.0 {
            // Remaining terms are below r·A·(1 + ratio + ratio² + …).
            sum += r * k.a / (1.0 - ratio);
            break;
        }
    }
    (exp(ln_beta) * sum).max(0.0)
}

/// The binomial distribution of the clone count C ∼ Bin(n − 1, e^{−ε₀}) over a window that holds
/// all but a rigorously bounded mass.
struct CloneWindow {
    eps0: f64,
    c_lo: u64,
    c_hi: u64,
    /// w[i] = P(C = c_lo + i).
    w: Vec<f64>,
    /// ≥ P(C < c_lo).
    tail_lo: f64,
    /// ≥ P(C > c_hi).
    tail_hi: f64,
}

impl CloneWindow {
    /// Window whose outside mass is at most `eta` on each side.
    fn new(n: u64, eps0: f64, eta: f64) -> Self {
        let big_n = n - 1;
        if big_n == 0 {
            return CloneWindow {
                eps0,
                c_lo: 0,
                c_hi: 0,
                w: vec![1.0],
                tail_lo: 0.0,
                tail_hi: 0.0,
            };
        }
        let nf = big_n as f64;
        let p = exp(-eps0);
        let q = -exp_m1(-eps0);
        let ln_pmf = |c: u64| -> f64 {
            if c == 0 {
                nf * ln(q)
            } else if c == big_n {
                -nf * eps0
            } else if p <= 0.5 {
                ln_binomial_pmf(c as f64, nf, p)
            } else {
                ln_binomial_pmf((big_n - c) as f64, nf, q)
            }
        };
        let mode = (((nf + 1.0) * p).floor() as u64).min(big_n);
        const ANCHOR: u64 = 256;
        // Downwards: w(c − 1)/w(c) = c q/((N − c + 1) p), decreasing as c falls.
        let mut down = Vec::new();
        let mut c = mode;
        let mut wc = exp(ln_pmf(c));
        let mut tail_lo = 0.0;
        while c > 0 {
            let r = c as f64 * q / ((big_n - c + 1) as f64 * p);
            if r < 1.0 {
                let tail = wc * r / (1.0 - r);
                if tail <= eta {
                    tail_lo = tail;
                    break;
                }
            }
            c -= 1;
            wc = if (mode - c).is_multiple_of(ANCHOR) {
                exp(ln_pmf(c))
            } else {
                wc * r
            };
            down.push(wc);
        }
        let c_lo = c;
        // Upwards: w(c + 1)/w(c) = (N − c) p/((c + 1) q).
        let mut up = Vec::new();
        let mut c = mode;
        let mut wc = exp(ln_pmf(c));
        let mut tail_hi = 0.0;
        while c < big_n {
            let r = (big_n - c) as f64 * p / ((c + 1) as f64 * q);
            if r < 1.0 {
                let tail = wc * r / (1.0 - r);
                if tail <= eta {
                    tail_hi = tail;
                    break;
                }
            }
            c += 1;
            wc = if (c - mode).is_multiple_of(ANCHOR) {
                exp(ln_pmf(c))
            } else {
                wc * r
            };
            up.push(wc);
        }
        let c_hi = c;
        let mut w = Vec::with_capacity(down.len() + 1 + up.len());
        w.extend(down.iter().rev());
        w.push(exp(ln_pmf(mode)));
        w.extend(up);
        CloneWindow {
            eps0,
            c_lo,
            c_hi,
            w,
            tail_lo,
            tail_hi,
        }
    }

    fn weight(&self, c: u64) -> f64 {
        if c < self.c_lo || c > self.c_hi {
            0.0
        } else {
            self.w[(c - self.c_lo) as usize]
        }
    }

    /// (lower, upper) bounds on δ(ε) = E_C[D_C], by the O(1) recurrences walking c downwards.
    fn delta(&self, eps: f64) -> (f64, f64) {
        if eps >= self.eps0 {
            return (0.0, 0.0);
        }
        let k = CloneConsts::new(eps, self.eps0);
        let mut sum = 0.0;
        let mut d_top = 0.0;
        walk_divergences(&k, self.c_hi, self.c_lo, |c, d| {
            if c == self.c_hi {
                d_top = d;
            }
            sum += self.w[(c - self.c_lo) as usize] * d;
        });
        let upper = (sum + self.tail_lo * k.a + self.tail_hi * d_top) * (1.0 + 1e-9);
        let lower = sum * (1.0 - 1e-9);
        (lower, upper.min(1.0))
    }
}

/// Calls `f(c, D_c)` for c = top, top − 1, …, bottom, with D_c the clone divergence at the
/// constants `k`, in O(1) per step after an O(√top) start.
///
/// State: m = k_c − 1, β = b_c(m) kept as beta_m·e^{offset} (beta_m within [1e-200, 1e200], so
/// nothing underflows however small β is at the top), and R = S_c(m + 1)/b_c(m). From c to c − 1
/// the threshold k_{c−1} is k_c or k_c − 1 (τ < 1), and Pascal's rule for Bin(c, ½),
/// b_c(j) = ½(b_{c−1}(j) + b_{c−1}(j − 1)), gives both updates below. D_c = β·(A − (e^ε − 1)R).
fn walk_divergences(k: &CloneConsts, top: u64, bottom: u64, mut f: impl FnMut(u64, f64)) {
    let mut c = top;
    let mut kc = k.threshold(c);
    let mut m = kc - 1;
    let (ln_beta, mut ratio) = direct_state(c, m);
    let mut offset = ln_beta;
    let mut scale = exp(offset);
    let mut beta_m = 1.0;
    loop {
        f(c, (k.a - k.b * ratio).max(0.0) * beta_m * scale);
        if c <= bottom {
            break;
        }
        let cf = c as f64;
        // Mathematically k_{c−1} ∈ {k_c − 1, k_c}; the clamp keeps the state consistent if
        // rounding of τ·c says otherwise (then a boundary term with P(j) ≈ e^ε Q(j) moves, which
        // changes nothing measurable), and never lets m go below 0.
        let next = k.threshold(c - 1).clamp((kc - 1).max(1), kc);
        if next == kc {
            // Same threshold: b_{c−1}(m) = b_c(m)·2(c − m)/c,
            // S_{c−1}(m + 1) = S_c(m + 1) − b_c(m)(c − m)/c.
            let cm = (c - m) as f64;
            beta_m *= 2.0 * cm / cf;
            ratio = ratio * cf / (2.0 * cm) - 0.5;
        } else {
            // Threshold down by one: b_{c−1}(m − 1) = b_c(m)·2m/c,
            // S_{c−1}(m) = S_c(m + 1) + b_c(m)(c − m)/c.
            let mf = m as f64;
            beta_m *= 2.0 * mf / cf;
            ratio = (cf * ratio + (c - m) as f64) / (2.0 * mf);
            m -= 1;
        }
        kc = next;
        c -= 1;
        if !(1e-200..=1e200).contains(&beta_m) {
            offset += ln(beta_m);
            beta_m = 1.0;
            scale = exp(offset);
        }
    }
}

/// The clone reduction's δ(ε) at (ε₀, n), as certified lower and upper bounds that differ by about
/// 1e-9 relative (FMT21, arXiv 2012.12803; replace-one).
///
/// δ(ε) = E_C[D_{e^ε}(P_C ‖ Q_C)], C ∼ Bin(n − 1, e^{−ε₀}), evaluated for every clone count in a
/// window outside which the binomial mass is at most 1e-13·δ (see the module doc). Both orders of
/// the pair give the same divergence. Domain: 0 ≤ ε ≤ 500, 1e-12 ≤ ε₀ ≤ 100, 1 ≤ n ≤ 1e9.
/// Accuracy: the pair brackets mpmath's direct double sum (n ≤ 2e4) in every reference row; their
/// midpoint is within 1.5e-14 of it. Work O(√(n e^{−ε₀}) + √c) for one ε.
pub fn fmt21_numerical_delta(eps: f64, eps0: f64, n: u64) -> Result<(f64, f64), MathError> {
    check_epsilon("ε", eps)?;
    check_eps0(eps0)?;
    check_users(n)?;
    let first = CloneWindow::new(n, eps0, 1e-30).delta(eps);
    if first.0 >= 1e-15 || first.1 == 0.0 {
        return Ok(first);
    }
    // A small δ: widen the window so its tails stay 1e-13 below it.
    let eta = (first.1 * 1e-13).max(1e-300);
    Ok(CloneWindow::new(n, eps0, eta).delta(eps))
}

/// The exact clone-reduction ε at (ε₀, n, δ): (lower, upper), both from [`brent`] on the certified
/// δ bounds (see [`fmt21_numerical_delta`]), upper ≥ lower, apart by 2e-9/|d log δ/dε| (2.3e-11
/// at the reference point), each moved outwards by the solver's tolerance (1e-12 relative).
///
/// - Source: FMT21 (arXiv 2012.12803), the numerical method (δ(ε) of the clone reduction).
///   n = 1e5, ε₀ = 4, δ = 1e-6 gives [0.1697697472, 0.1697697473] (math-reference.md: 0.16977);
///   an independent brute force (50 halvings) gives 0.16976974726.
/// - Relation: replace-one. The upper value is an upper bound on ε for every ε₀-LDP randomizer;
///   it is an ε for which the certified δ bound is at most δ, so it holds up to the 1e-9 margin
///   of rounding that the bound carries. ε = 0 when even δ(0) (the total variation) meets δ.
/// - Work: O(√(n e^{−ε₀}(1 − e^{−ε₀}) log(1/δ))) per δ evaluation, about 25 evaluations per end;
///   0.3–1.5 ms natively at n = 1e6.
pub fn fmt21_numerical(eps0: f64, n: u64, delta: f64) -> Result<(f64, f64), MathError> {
    check_all(eps0, n, delta)?;
    let window = CloneWindow::new(n, eps0, delta * 1e-13);
    let ln_target = ln(delta);
    let solve = |pick_upper: bool| -> Result<f64, MathError> {
        let f = |e: f64| {
            let (lo, hi) = window.delta(e);
            let d = if pick_upper { hi } else { lo };
            ln(d.max(f64::MIN_POSITIVE)) - ln_target
        };
        if f(0.0) <= 0.0 {
            return Ok(0.0);
        }
        let tol = Tolerance {
            abs: 1e-13,
            rel: 1e-12,
            max_iterations: 300,
        };
        brent(f, 0.0, eps0, tol)
    };
    let upper = solve(true)?;
    let lower = solve(false)?;
    // Move each end outwards by the root finder's tolerance so that it stays on its side (a root
    // at 0 is exact: δ(0) already meets the target).
    let pad = |x: f64| if x > 0.0 { 2e-13 + 2e-12 * x } else { 0.0 };
    let upper = (upper + pad(upper)).min(eps0);
    let lower = (lower - pad(lower)).max(0.0);
    Ok((lower, upper.max(lower)))
}

/// The numerical method as published with FMT21 (github.com/apple/ml-shuffling-amplification),
/// reproduced: (lower, upper).
///
/// Clone counts are taken in blocks of 100 going outwards from n/2 (c = n/2 first when n is
/// even); each block contributes its binomial mass times the larger (upper run) or smaller (lower
/// run) of the divergences at its two ends, which bound it because D_c does not increase with c;
/// when the unexplored mass falls below both running sums, the upper run adds it (D ≤ 1) and
/// stops. ε is bisected 10 times on [0, ε̂], ε̂ the published code's closed form when
/// ε₀ < log(n/(16 log(4/δ))) and ε₀ otherwise; each run returns the right end of its final
/// interval. n = 1e5, ε₀ = 4, δ = 1e-6 gives [0.16754, 0.17279] as published.
///
/// Reproduced details: the published upper run's second order uses one block end twice (so that
/// sum is the lower run's), and both orders enter the stopping test; we keep both. Differences:
/// block masses are exact sums of binomial probabilities (the published code subtracts CDFs), and a
/// block reaching below c = 0 uses D_0 where the published code would evaluate a negative count.
/// Note that the lower run's right end is not a certified lower bound on ε (its left end, one
/// step ε̂/1024 lower, is); it is returned as published. Relation: replace-one.
pub fn fmt21_published(eps0: f64, n: u64, delta: f64) -> Result<(f64, f64), MathError> {
    check_all(eps0, n, delta)?;
    let window = CloneWindow::new(n, eps0, delta * 1e-13);
    let start = if eps0 < fmt21_eps0_limit(n, delta) {
        fmt21_published_code_formula(eps0, n as f64, delta)
    } else {
        eps0
    };
    let bisect = |upper_run: bool| {
        let (mut lo, mut hi) = (0.0, start);
        for _ in 0..10 {
            let mid = 0.5 * (lo + hi);
            if published_delta(&window, n, mid, delta, upper_run) < delta {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        hi
    };
    Ok((bisect(false), bisect(true)))
}

/// One evaluation of the published block method (see [`fmt21_published`]).
///
/// The published loop visits B = 1, 101, 201, … ≤ ⌊n/2⌋ + (n mod 2) and, for each, the block
/// above and the block below n/2, making its two stopping tests before every block. Blocks that
/// miss the window of C carry no mass and leave the state unchanged, and a stopping test on an
/// unchanged state repeats the previous one; so only the blocks that meet the window are visited,
/// plus one test after the last of them when the published loop would make one.
fn published_delta(window: &CloneWindow, n: u64, eps: f64, target: f64, upper_run: bool) -> f64 {
    const STEP: i64 = 100;
    let eps0 = window.eps0;
    let ni = n as i64;
    let big_n = ni - 1;
    let (wlo, whi) = ((window.c_lo as i64).max(0), (window.c_hi as i64).min(big_n));
    // Every block end the loop can meet lies within 99 of the window: compute D there in one walk.
    let (dlo, dhi) = ((wlo - (STEP - 1)).max(0), whi + STEP - 1);
    let mut divs = vec![0.0; (dhi - dlo + 1) as usize];
    if eps < eps0 {
        let k = CloneConsts::new(eps, eps0);
        walk_divergences(&k, dhi as u64, dlo as u64, |c, v| {
            divs[(c as i64 - dlo) as usize] = v;
        });
    }
    // A block reaching below c = 0 uses D_0 (the published code would evaluate a negative count).
    let d = |c: i64| divs[(c.max(0) - dlo) as usize];
    let mass = |lo: i64, hi: i64| -> f64 {
        (lo.max(wlo)..=hi.min(whi))
            .map(|c| window.weight(c as u64))
            .sum()
    };
    let (mut dp, mut dq, mut used) = (0.0f64, 0.0f64, 0.0f64);
    let half = ni / 2;
    let odd = ni % 2;
    if odd == 0 {
        let w = mass(half, half);
        if w > 0.0 {
            let v = d(half);
            dp += w * v;
            dq += w * v;
        }
        used = w;
    }
    // The block above n/2 is [h + B, h + B + 99]; the one below is [top − B − 99, top − B].
    let h = half;
    let top = if odd == 1 { h + 1 } else { h };
    let b_max = half + odd;
    if b_max < 1 {
        return dp.max(dq);
    }
    let t_max = (b_max - 1) / STEP;
    // Grid indices t (B = 1 + 100t) whose block meets [wlo, whi], for B in [lo, hi].
    let grid = |lo: i64, hi: i64| -> std::ops::RangeInclusive<i64> {
        let t_lo = (lo - 1 + STEP - 1).div_euclid(STEP).max(0);
        let t_hi = (hi - 1).div_euclid(STEP).min(t_max);
        t_lo..=t_hi
    };
    let mut active: Vec<i64> = grid(wlo - h - (STEP - 1), whi - h)
        .chain(grid(top - whi - (STEP - 1), top - wlo))
        .collect();
    active.sort_unstable();
    active.dedup();
    let stop = |dp: f64, dq: f64, used: f64| -> Option<f64> {
        if dp.max(dq) > target {
            return Some(target);
        }
        if 1.0 - used < dp && 1.0 - used < dq {
            return Some(if upper_run {
                dp.max(dq) + 1.0 - used
            } else {
                dp.max(dq)
            });
        }
        None
    };
    let mut changed_after_last_test = true;
    let mut last_t = -1;
    for &t in &active {
        let b = 1 + STEP * t;
        for s in 0..2 {
            if let Some(v) = stop(dp, dq, used) {
                return v;
            }
            changed_after_last_test = false;
            let (lo, hi) = if s == 0 {
                (h + b, h + b + STEP - 1)
            } else {
                (top - b - (STEP - 1), top - b)
            };
            if hi < wlo || lo > whi {
                continue;
            }
            let w = mass(lo, hi);
            if w > 0.0 {
                let (d_hi, d_lo) = (d(hi), d(lo));
                if upper_run {
                    dp += w * d_hi.max(d_lo);
                    dq += w * d_hi; // the published code's max(d_hi, d_hi)
                } else {
                    let v = d_hi.min(d_lo);
                    dp += w * v;
                    dq += w * v;
                }
                used += w;
                changed_after_last_test = true;
            }
        }
        last_t = t;
    }
    // The published loop tests again before any later block (or before the first block, when
    // none met the window).
    if (changed_after_last_test && last_t < t_max) || active.is_empty() {
        if let Some(v) = stop(dp, dq, used) {
            return v;
        }
    }
    dp.max(dq)
}

// ---------------------------------------------------------------------------------------------
// The common interface
// ---------------------------------------------------------------------------------------------

/// The central ε of `bound` at (ε₀, n, δ) for a generic ε₀-LDP randomizer. See
/// [`shuffle_epsilon_with`].
pub fn shuffle_epsilon(
    bound: Bound,
    eps0: f64,
    n: u64,
    delta: f64,
) -> Result<ShuffleEpsilon, MathError> {
    shuffle_epsilon_with(bound, Randomizer::Generic, eps0, n, delta)
}

/// The central ε of `bound` at (ε₀, n, δ), replace-one, for `randomizer` (used by the privacy
/// blanket bounds only; the others hold for every ε₀-LDP randomizer).
///
/// Errors for inputs outside the domain (ε₀ ∈ [1e-12, 100], n ∈ [1, 1e9], δ ∈ [1e-100, 1), k ∈ [2,
/// 1e9]); a bound whose validity box excludes the inputs gives `valid: false` with the reason. For
/// `fmt21-numerical` the result holds the exact ε (certified upper end, and its lower end in
/// `exact_lower`) and the published method's range in `lower`/`upper`.
pub fn shuffle_epsilon_with(
    bound: Bound,
    randomizer: Randomizer,
    eps0: f64,
    n: u64,
    delta: f64,
) -> Result<ShuffleEpsilon, MathError> {
    check_all(eps0, n, delta)?;
    check_randomizer(randomizer)?;
    let mut out = match bound {
        Bound::Efmrtt19 => efmrtt19(eps0, n, delta)?,
        Bound::Fmt21 => fmt21(eps0, n, delta)?,
        Bound::Bbgn19Hoeffding => {
            bbgn19_epsilon(Inequality::Hoeffding, randomizer, eps0, n, delta)?
        }
        Bound::Bbgn19Bennett => bbgn19_epsilon(Inequality::Bennett, randomizer, eps0, n, delta)?,
        Bound::Fmt21Numerical => {
            let (lo, hi) = fmt21_numerical(eps0, n, delta)?;
            let (plo, phi) = fmt21_published(eps0, n, delta)?;
            let mut r = ShuffleEpsilon::valid(bound, Randomizer::Generic, hi);
            r.exact_lower = Some(lo);
            r.lower = Some(plo);
            r.upper = Some(phi);
            r.no_amplification = hi >= eps0;
            r
        }
    };
    out.randomizer = randomizer;
    Ok(out)
}

/// The tightest valid bound at (ε₀, n, δ) for a generic randomizer: the smallest `epsilon` among
/// the valid results of [`Bound::ALL`] (ties go to the earlier bound). See [`best_with`].
pub fn best(eps0: f64, n: u64, delta: f64) -> Result<ShuffleEpsilon, MathError> {
    best_with(Randomizer::Generic, eps0, n, delta)
}

/// The tightest valid bound for `randomizer`; the result names the bound that won.
pub fn best_with(
    randomizer: Randomizer,
    eps0: f64,
    n: u64,
    delta: f64,
) -> Result<ShuffleEpsilon, MathError> {
    let all = Bound::ALL
        .iter()
        .map(|&b| shuffle_epsilon_with(b, randomizer, eps0, n, delta))
        .collect::<Result<Vec<_>, _>>()?;
    // fmt21-numerical is valid everywhere, so there is always a winner.
    tightest(&all).cloned().ok_or(MathError::NoSolution {
        reason: "no shuffle bound applies".to_string(),
    })
}

/// The tightest of already computed results: the smallest `epsilon` among the valid ones (ties go
/// to the earlier one). For callers that need every bound anyway (the page's table).
pub fn tightest(results: &[ShuffleEpsilon]) -> Option<&ShuffleEpsilon> {
    let mut winner: Option<&ShuffleEpsilon> = None;
    for r in results {
        if let Some(e) = r.epsilon {
            if r.valid && winner.is_none_or(|w| e < w.epsilon.unwrap_or(f64::MAX)) {
                winner = Some(r);
            }
        }
    }
    winner
}

/// The central ε of `bound` as a plain number (certified upper end), or why not.
fn epsilon_of(bound: Bound, randomizer: Randomizer, eps0: f64, n: u64, delta: f64) -> Option<f64> {
    match bound {
        Bound::Fmt21Numerical => fmt21_numerical(eps0, n, delta).ok().map(|r| r.1),
        _ => shuffle_epsilon_with(bound, randomizer, eps0, n, delta)
            .ok()
            .and_then(|r| r.epsilon),
    }
}

/// The answer of [`largest_eps0`].
#[derive(Clone, Debug, PartialEq)]
pub struct LargestEps0 {
    /// The largest local ε₀ the bound certifies for the target central ε.
    pub eps0: f64,
    /// Set, with the reason, when something other than meeting the target exactly set `eps0`:
    /// the bound's validity box (it would allow a larger ε₀ but does not apply there), or, for
    /// the privacy blanket bounds, the ε₀ above which the bound stops amplifying altogether (its
    /// ε jumps to ε₀ there, so the bound's ε at `eps0` is below the target).
    pub limited_by_validity: Option<&'static str>,
}

/// The largest ε₀ for which `bound` (generic randomizer) gives central ε ≤ `target_eps` at (n, δ).
/// See [`largest_eps0_with`].
pub fn largest_eps0(
    bound: Bound,
    target_eps: f64,
    n: u64,
    delta: f64,
) -> Result<LargestEps0, MathError> {
    largest_eps0_with(bound, Randomizer::Generic, target_eps, n, delta)
}

/// The largest ε₀ for which `bound` gives central ε ≤ `target_eps` at (n, δ), replace-one.
///
/// Solved with [`brent`] on ε(ε₀) − target (every bound here is non-decreasing in ε₀; checked on
/// 20,000 random points), to 1e-14 relative for the closed forms, 1e-12 for the privacy blanket
/// and 1e-10 for the clones; the result is then moved down, if needed, until the bound meets the
/// target. Errors: [`MathError::NoSolution`] when the validity box is empty at (n, δ) (EFMRTT19
/// with n < max(1000, 144 log(1/δ)) or δ > 0.01; FMT21 with n ≤ 16 log(4/δ)), or when even the
/// smallest ε₀ in the box misses the target; the reason says which. When the target is still met
/// at the box's edge (EFMRTT19's ε₀ = ½, FMT21's log(n/(16 log(4/δ)))), that edge is returned
/// with `limited_by_validity` set; likewise where a privacy blanket bound stops amplifying. The
/// bound's ε can be very steep in ε₀ (the clones with large δ and few expected clones: a slope of
/// 2000 was seen), so ε(`eps0`) meets the target to the ε₀ tolerance, not always to 1e-6 in ε.
/// Domain: 1e-12 ≤ target ≤ 100.
pub fn largest_eps0_with(
    bound: Bound,
    randomizer: Randomizer,
    target_eps: f64,
    n: u64,
    delta: f64,
) -> Result<LargestEps0, MathError> {
    check_epsilon("ε", target_eps)?;
    if !(MIN_EPS0..=MAX_EPS0).contains(&target_eps) {
        return Err(MathError::OutOfDomain {
            name: "ε",
            value: target_eps,
            expected: "between 1e-12 and 100",
        });
    }
    check_users(n)?;
    check_shuffle_delta(delta)?;
    check_randomizer(randomizer)?;
    let (cap, cap_reason): (f64, Option<&'static str>) = match bound {
        Bound::Efmrtt19 => {
            if n < 1000 || delta > 0.01 || efmrtt19_formula(1.0, n as f64, delta) > 1.0 {
                return Err(MathError::NoSolution {
                    reason: format!(
                        "EFMRTT19 does not apply at n = {n}, δ = {delta:e} for any ε₀ (it needs \
                         n ≥ 1000, δ ≤ 0.01 and n ≥ 144·log(1/δ))"
                    ),
                });
            }
            (0.5, Some("EFMRTT19 needs ε₀ ≤ 1/2"))
        }
        Bound::Fmt21 => {
            let lim = fmt21_eps0_limit(n, delta);
            if lim <= 0.0 {
                return Err(MathError::NoSolution {
                    reason: format!(
                        "FMT21's closed form needs ε₀ ≤ log(n/(16·log(4/δ))), which is not \
                         positive at n = {n}, δ = {delta:e}"
                    ),
                });
            }
            (
                lim.min(MAX_EPS0),
                Some("FMT21 needs ε₀ ≤ log(n/(16·log(4/δ)))"),
            )
        }
        _ => (MAX_EPS0, None),
    };
    let eval = |e0: f64| epsilon_of(bound, randomizer, e0, n, delta);
    // Every bound is at most ε₀, so ε₀ = min(target, cap) meets the target when it is valid.
    let lo = target_eps.min(cap) * (1.0 - 1e-12);
    let Some(at_lo) = eval(lo) else {
        return Err(MathError::NoSolution {
            reason: format!("{} gives no value at ε₀ = {lo:e}", bound.id()),
        });
    };
    if at_lo > target_eps {
        return Err(MathError::NoSolution {
            reason: format!(
                "{} misses ε = {target_eps:e} even at ε₀ = {lo:e} (it gives {at_lo:e})",
                bound.id()
            ),
        });
    }
    match eval(cap) {
        Some(v) if v <= target_eps => {
            return Ok(LargestEps0 {
                eps0: cap,
                limited_by_validity: cap_reason,
            });
        }
        _ => {}
    }
    // Above the root: f > 0. For the clone bound f compares δ at the target ε with the target δ
    // instead of solving for ε at every step (its δ at a fixed ε increases with ε₀, so the sign is
    // the same: one δ evaluation per step instead of about twelve); the others compare ε.
    let f = |e0: f64| match bound {
        Bound::Fmt21Numerical => match fmt21_numerical_delta(target_eps, e0, n) {
            Ok((_, hi)) => hi - delta,
            Err(_) => 1.0,
        },
        _ => match eval(e0) {
            Some(v) => v - target_eps,
            None => 1.0,
        },
    };
    // Bracket: from lo upwards by doubling to where the bound exceeds the target (or is invalid,
    // which only happens at the cap, handled above).
    let mut a = lo;
    let mut b = (2.0 * lo).min(cap);
    while b < cap && f(b) <= 0.0 {
        a = b;
        b = (2.0 * b).min(cap);
    }
    // The inner ε of the numerical bounds carries a solver error (1e-12 for the clones, 1e-13
    // for the blanket), so the outer tolerance stays above it; the closed forms go to ~1e-14.
    let rel = match bound {
        Bound::Fmt21Numerical => 1e-10,
        Bound::Bbgn19Hoeffding | Bound::Bbgn19Bennett => 1e-12,
        Bound::Efmrtt19 | Bound::Fmt21 => 1e-14,
    };
    let tol = Tolerance {
        abs: 1e-300,
        rel,
        max_iterations: 300,
    };
    let root = brent(f, a, b, tol)?;
    // Stay on the side that meets the target: step down by the bracket width until it does.
    let mut e0 = root;
    let mut step = 2.0 * rel * root;
    for _ in 0..40 {
        match eval(e0) {
            Some(v) if v <= target_eps => break,
            _ => {
                e0 = (root - step).max(a);
                step *= 2.0;
            }
        }
    }
    // Never return an ε₀ that was not checked to meet the target: the bracket's lower end was.
    if !eval(e0).is_some_and(|v| v <= target_eps) {
        e0 = a;
    }
    let limited_by_validity = match bound {
        Bound::Bbgn19Hoeffding | Bound::Bbgn19Bennett => {
            let above = shuffle_epsilon_with(bound, randomizer, e0 * (1.0 + 1e-9), n, delta)?;
            above
                .no_amplification
                .then_some("the privacy blanket bound stops amplifying above this ε₀")
        }
        _ => None,
    };
    Ok(LargestEps0 {
        eps0: e0,
        limited_by_validity,
    })
}

/// The largest ε₀ any of `bounds` certifies for central ε ≤ `target_eps` at (n, δ), with the bound
/// that gives it (each bound certifies its own answer, so the largest is a valid answer). Errors
/// with the last bound's reason when none of them has a solution.
pub fn largest_eps0_over(
    bounds: &[Bound],
    randomizer: Randomizer,
    target_eps: f64,
    n: u64,
    delta: f64,
) -> Result<(Bound, LargestEps0), MathError> {
    let mut best: Option<(Bound, LargestEps0)> = None;
    let mut last = MathError::NoSolution {
        reason: "no bound was given".to_string(),
    };
    for &b in bounds {
        match largest_eps0_with(b, randomizer, target_eps, n, delta) {
            Ok(l) if best.as_ref().is_none_or(|(_, w)| l.eps0 > w.eps0) => best = Some((b, l)),
            Ok(_) => {}
            Err(e) => last = e,
        }
    }
    best.ok_or(last)
}

// ---------------------------------------------------------------------------------------------
// Subsampled randomized response (lecture §1.3)
// ---------------------------------------------------------------------------------------------

/// The three values of the subsampled randomized response example.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SubsampledRr {
    /// Exact ε of the composite mechanism ([`subsampled_rr_exact`]).
    pub exact: f64,
    /// The linear heuristic p·ε.
    pub linear: f64,
    /// The subsampling theorem log(1 + p(e^ε − 1)).
    pub theorem: f64,
}

/// Exact ε of subsampled binary randomized response: with probability p the record goes through
/// RR_ε (kept with probability e^ε/(e^ε + 1)), otherwise the output is a uniformly random bit.
///
/// - Source: Brown, lecture notes (seed 004), §1.3: A_p(x) = RR_ε(x) w.p. p, Unif({0,1}) w.p.
///   1 − p. The notes work with the approximation RR′ (keep w.p. (1+ε)/(2+ε)); here RR_ε is the
///   exact mechanism of their §1.3 definition.
/// - Derivation: P(output = x) = p·e^ε/(e^ε + 1) + (1 − p)/2, P(output = x̄) = p/(e^ε + 1) +
///   (1 − p)/2; the worst log-ratio over the two outputs is
///   ε′ = log(((1 + p)e^ε + 1 − p)/((1 − p)e^ε + 1 + p)) = 2·artanh(p·tanh(ε/2)),
///   computed as log1p(2p(e^ε − 1)/(2 + (1 − p)(e^ε − 1))).
/// - Relation: replace-one (the record's bit is replaced by the other bit). Exact (pure DP).
/// - Since artanh is convex on [0, 1), ε′ ≤ p·ε ≤ log(1 + p(e^ε − 1)) ≤ ε (equal at p = 1).
/// - Domain: ε ∈ [0, 500], p ∈ [0, 1]. Relative error ~1e-16 down to ε = p = 1e-9.
pub fn subsampled_rr_exact(eps: f64, p: f64) -> Result<f64, MathError> {
    check_epsilon("ε", eps)?;
    check_probability("p", p)?;
    let u = exp_m1(eps);
    Ok(ln_1p(2.0 * p * u / (2.0 + (1.0 - p) * u)))
}

/// The exact ε of the notes' own version, RR′_ε (keep w.p. (1 + ε)/(2 + ε), itself
/// log(1 + ε)-DP) subsampled at rate p: the notes show it is RR′_{pε}, so its ε is log(1 + pε).
///
/// Source: Brown (seed 004), §1.3. For this mechanism the subsampling theorem applied to its base
/// ε = log(1 + ε) gives log(1 + p·ε) as well, so the theorem is tight here. Replace-one; exact.
/// Domain: ε ∈ [0, 500], p ∈ [0, 1].
pub fn subsampled_rr_prime_exact(eps: f64, p: f64) -> Result<f64, MathError> {
    check_epsilon("ε", eps)?;
    check_probability("p", p)?;
    Ok(ln_1p(p * eps))
}

/// Subsampled randomized response: exact ε, the linear heuristic p·ε, and the subsampling
/// theorem log(1 + p(e^ε − 1)) (seed 004, Theorem 1.1, via
/// [`crate::subsampling::amplified_epsilon`]). Replace-one. exact ≤ linear ≤ theorem ≤ ε.
pub fn subsampled_rr(eps: f64, p: f64) -> Result<SubsampledRr, MathError> {
    Ok(SubsampledRr {
        exact: subsampled_rr_exact(eps, p)?,
        linear: p * eps,
        theorem: crate::subsampling::amplified_epsilon(eps, p)?,
    })
}

// ---------------------------------------------------------------------------------------------
// Error of a mean (lecture §2.1–2.2)
// ---------------------------------------------------------------------------------------------

/// The error of a private estimate of the mean of n bits, as standard deviations.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeanError {
    /// Sampling error √(μ(1 − μ)/n): the non-private estimate's standard deviation around μ.
    pub sampling_sd: f64,
    /// Standard deviation added by privacy.
    pub privacy_sd: f64,
    /// Root-mean-square error around μ: √(sampling_sd² + privacy_sd²) (the estimates are unbiased
    /// and the two errors independent). The notes' bound |μ̃ − μ| ≲ sampling + privacy adds the
    /// two instead; RMSE is at most that sum.
    pub rmse: f64,
    /// For the shuffle model: the local ε₀ each user runs randomized response with.
    pub local_eps0: Option<f64>,
}

fn check_mean_inputs(n: u64, eps: f64, mean: f64) -> Result<(), MathError> {
    check_users(n)?;
    check_epsilon("ε", eps)?;
    if eps < 1e-300 {
        return Err(MathError::OutOfDomain {
            name: "ε",
            value: eps,
            expected:
                "at least 1e-300 (ε = 0 allows no estimate; below 1e-300 the error overflows)",
        });
    }
    check_probability("μ", mean)
}

fn mean_error(n: u64, mean: f64, privacy_sd: f64, local_eps0: Option<f64>) -> MeanError {
    let sampling_sd = (mean * (1.0 - mean) / n as f64).sqrt();
    MeanError {
        sampling_sd,
        privacy_sd,
        rmse: crate::special::hypot(sampling_sd, privacy_sd),
        local_eps0,
    }
}

/// Standard deviation of the debiased binary randomized response mean at local ε:
/// √(e^ε/n)/(e^ε − 1) = 1/(2√n·sinh(ε/2)).
fn rr_privacy_sd(n: u64, eps: f64) -> f64 {
    // sinh(x) = (expm1(x) − expm1(−x))/2, accurate for small x.
    let x = 0.5 * eps;
    let sinh = 0.5 * (exp_m1(x) - exp_m1(-x));
    0.5 / ((n as f64).sqrt() * sinh)
}

/// Central model: the mean of n bits x_i ∈ {0, 1} (i.i.d. with mean μ) released with Laplace noise
/// of scale 1/(nε) (sensitivity 1/n, replace-one; pure ε-DP).
///
/// Source: Brown (seed 004), §2.1: error ≲ 1/√n + 1/(nε). Here exactly: sampling sd √(μ(1 − μ)/n),
/// privacy sd √2/(nε) (a Laplace variable of scale b has sd √2·b). Domain: 1 ≤ n ≤ 1e9,
/// 1e-300 ≤ ε ≤ 500, μ ∈ [0, 1]. Exact.
pub fn mean_error_central_laplace(n: u64, eps: f64, mean: f64) -> Result<MeanError, MathError> {
    check_mean_inputs(n, eps, mean)?;
    let privacy = std::f64::consts::SQRT_2 / (n as f64 * eps);
    Ok(mean_error(n, mean, privacy, None))
}

/// Local model: each user reports RR_ε(x_i) (keep w.p. e^ε/(e^ε + 1)); the analyst debiases,
/// μ̃ = (ȳ − 1/(e^ε + 1))·(e^ε + 1)/(e^ε − 1).
///
/// Source: Brown (seed 004), §2.1: error ≲ 1/√n + 1/(√n·ε). Exact variance: given the data, each
/// report is a Bernoulli of variance q(1 − q) with q = 1/(e^ε + 1) whatever x_i is, so the
/// privacy variance is q(1 − q)/(n(1 − 2q)²) = e^ε/(n(e^ε − 1)²), i.e. sd 1/(2√n·sinh(ε/2))
/// (≈ 1/(√n·ε) for small ε); the sampling term is as in the central model. The estimate is not
/// clipped to [0, 1]. Relation: replace-one (ε-LDP). Domain as
/// [`mean_error_central_laplace`]. Exact.
pub fn mean_error_local_rr(n: u64, eps: f64, mean: f64) -> Result<MeanError, MathError> {
    check_mean_inputs(n, eps, mean)?;
    Ok(mean_error(n, mean, rr_privacy_sd(n, eps), None))
}

/// Shuffle model: each user runs RR_{ε₀} with the largest ε₀ for which `bound` certifies central
/// (ε, δ) after shuffling ([`largest_eps0`]), and the analyst debiases as in the local model.
///
/// Source: Brown (seed 004), §2.2 (shuffling recovers about 1/√n + √log(1/δ)/(nε)). The privacy
/// sd is the local one at ε₀; `local_eps0` reports ε₀. Relation: replace-one. Errors as
/// [`largest_eps0`] (e.g. a bound with an empty validity box).
pub fn mean_error_shuffled_rr(
    n: u64,
    eps: f64,
    delta: f64,
    bound: Bound,
    mean: f64,
) -> Result<MeanError, MathError> {
    check_mean_inputs(n, eps, mean)?;
    let eps0 = largest_eps0(bound, eps.min(MAX_EPS0), n, delta)?.eps0;
    Ok(mean_error(n, mean, rr_privacy_sd(n, eps0), Some(eps0)))
}

#[cfg(test)]
// Tests compare against std's functions on purpose (an independent computation).
#[allow(clippy::disallowed_methods)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip() {
        for b in Bound::ALL {
            assert_eq!(Bound::from_id(b.id()), Some(b));
            assert_eq!(Choice::from_id(b.id()), Some(Choice::One(b)));
        }
        assert_eq!(Choice::from_id("best"), Some(Choice::Best));
        assert_eq!(Bound::from_id("best"), None);
    }

    #[test]
    fn clone_divergence_is_symmetric_and_monotone() {
        // Brute force for small c: both orders from the definition.
        let (eps, eps0) = (0.3f64, 1.5f64);
        let e0 = eps0.exp();
        let alpha = e0 / (e0 + 1.0);
        let mut last = f64::INFINITY;
        for c in 0..60u64 {
            let b = |j: i64| -> f64 {
                if j < 0 || j > c as i64 {
                    0.0
                } else {
                    ln_half_binomial(c, j as u64).exp()
                }
            };
            let (mut pq, mut qp) = (0.0, 0.0);
            for j in 0..=(c as i64 + 1) {
                let p = alpha * b(j - 1) + (1.0 - alpha) * b(j);
                let q = alpha * b(j) + (1.0 - alpha) * b(j - 1);
                pq += (p - eps.exp() * q).max(0.0);
                qp += (q - eps.exp() * p).max(0.0);
            }
            let d = clone_divergence(c, eps, eps0).unwrap();
            assert!((d - pq).abs() <= 1e-14 + 1e-12 * pq, "c={c}: {d} vs {pq}");
            assert!((pq - qp).abs() <= 1e-14, "c={c}");
            assert!(d <= last * (1.0 + 1e-12));
            last = d;
        }
    }

    #[test]
    fn recurrence_matches_direct_divergence() {
        for &(n, eps0, eps) in &[
            (2000u64, 1.0, 0.1),
            (50_000, 4.0, 0.17),
            (10_000, 0.2, 0.01),
            (300, 3.0, 2.9),
        ] {
            let w = CloneWindow::new(n, eps0, 1e-40);
            let (lo, hi) = w.delta(eps);
            let direct: f64 = (w.c_lo..=w.c_hi)
                .map(|c| w.weight(c) * clone_divergence(c, eps, eps0).unwrap())
                .sum();
            assert!(
                lo <= direct && direct <= hi,
                "{n} {eps0} {eps}: {lo} {direct} {hi}"
            );
            assert!((hi / lo - 1.0) < 3e-9);
        }
    }
}
