//! Privacy amplification by shuffling, subsampled randomized response, and the error of a mean in
//! the central, local and shuffle models.
//!
//! # The shuffle model
//!
//! Each of n users applies the same ε₀-LDP local randomizer to their own record; a trusted shuffler
//! permutes the n reports uniformly at random, and only the permuted reports are released (Brown,
//! lecture notes "Privacy amplification", §2.2). The central guarantee (ε, δ) below holds for the
//! **replace-one** relation: the population has a fixed size n and neighbouring datasets differ in
//! one user's record. Every bound is an **upper bound** on the true central ε of the worst ε₀-LDP
//! randomizer (or of the named randomizer), and every bound can be capped at ε₀: a replace-one
//! change moves one report by a factor at most e^{ε₀}, so the shuffled output is ε₀-DP whatever n
//! is.
//!
//! | id | statement implemented | kind | validity | source |
//! |---|---|---|---|---|
//! | `efmrtt19` | ε = 12ε₀√(log(1/δ)/n) | closed form | ε₀ ≤ ½, n ≥ 1000, δ ≤ 0.01, result ≤ ε₀ | Erlingsson, Feldman, Mironov, Raghunathan, Talwar & Thakurta, SODA 2019 (arXiv 1811.12469) |
//! | `bbgn19-hoeffding` | δ(ε) ≤ b²/(4aγn)·(1 − γ(1 − e^{−2a²/b²}))ⁿ, smallest ε meeting δ | numeric | all (ε₀ when it does not amplify) | Balle, Bell, Gascón & Nissim, CRYPTO 2019 (arXiv 1903.02837), privacy blanket + Hoeffding |
//! | `bbgn19-bennett` | δ(ε) ≤ E_{M∼Bin(n,γ)}[e^{−Mvφ(ab₊/v)/b₊²}·1{M≥1}]·b₊/(γn·log(1+ab₊/v)), smallest ε meeting δ | numeric | all (ε₀ when it does not amplify) | the same, Bennett's inequality |
//! | `fmt21` | ε = log(1 + (e^{ε₀}−1)/(e^{ε₀}+1)·(8√(e^{ε₀}log(4/δ)/n) + 8e^{ε₀}/n)) | closed form | ε₀ ≤ log(n/(16 log(4/δ))) | Feldman, McMillan & Talwar, FOCS 2021 (arXiv 2012.12803), Theorem 3.1 |
//! | `fmt21-numerical` | δ(ε) = E_C[D_{e^ε}(P_C‖Q_C)], clones C ∼ Bin(n−1, e^{−ε₀}), solved for ε | numeric, exact evaluation | all ε₀, n, δ | the same paper, the clone reduction and its numerical method |
//! | `fmt23` | ε = log(1 + (e^{ε₀}−1)/(e^{ε₀}+1)·(8√(log(4/δ)/m) + 8/m)), m = 2(n−1)/(e^{ε₀}+1) | closed form | k-ary RR (see below); m ≥ 16 log(4/δ) | Feldman, McMillan & Talwar, SODA 2023 (arXiv 2208.04591), stronger clones |
//! | `fmt23-numerical` | the same δ(ε) with C ∼ Bin(n−1, 2/(e^{ε₀}+1)) | numeric, exact evaluation | k-ary RR (see below); all ε₀, n, δ | the same paper |
//!
//! `best` is the smallest valid ε of the seven ([`best`]). The first five apply to any ε₀-LDP
//! randomizer; the privacy blanket bounds are tighter when told the randomizer is k-ary randomized
//! response ([`Randomizer::KRr`]); the stronger clones apply only to it (FMT23's erratum, below),
//! so for a generic randomizer they are marked not valid and `best` is among the first five.
//!
//! ## Where the statements come from
//!
//! The paper texts could not be opened from this workplace (only their abstracts), so the
//! statements were taken from the project's math reference notes and from the code each group
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
//! - FMT23 ("Stronger privacy amplification by shuffling for Rényi and approximate differential
//!   privacy", arXiv 2208.04591): only its abstract and the first lines of its erratum could be
//!   read here. The reduction is FMT21's pair with clone probability 2/(e^{ε₀} + 1): user 1's two
//!   report distributions are written as mixtures θL₀ + (1 − θ)L₁ and (1 − θ)L₀ + θL₁ of two
//!   extremes, θ = e^{ε₀}/(e^{ε₀} + 1), and every other report as r·L₀ + r·L₁ + (1 − 2r)·L_x with
//!   r = 1/(e^{ε₀} + 1). We re-derived it: given which users are clones, the shuffled output is a
//!   post-processing of the number of L₀ draws among the clones and user 1, which is A + Δ or
//!   A + 1 − Δ as in FMT21. The split needs L_x ≥ 0, i.e. R(x)(y) ≥ (R(x₁)(y) + R(x₁′)(y))·r,
//!   which ε₀-LDP does not imply; the erratum says the general theorems hold only for a
//!   restricted class, and we apply the bound only to k-ary randomized response, which meets the
//!   condition ([`stronger_clones_exclude`]). The same pair is what Wang et al. 2023 ("Privacy
//!   amplification via shuffling: unified, simplified, and tightened", arXiv 2304.05007) evaluate
//!   for general ε₀-LDP parameters; their published code's brackets contain our values
//!   (`tests/shuffle_published.rs`), and exact small shuffles of k-RR (enumerated in the mpmath
//!   generator) stay below the bound. Their sharper mechanism-specific parameters are not
//!   implemented. FMT23's closed form is taken as FMT21's with the stronger clone probability and
//!   n − 1 clones' worth of users (as Wang et al.'s code computes it). FMT23's Rényi DP theorem
//!   (a closed-form bound) could not be read; instead the Rényi divergence of each clone pair is
//!   evaluated exactly ([`fmt21_rdp`], [`fmt23_rdp`]), which is at most any bound derived from it. The specialised k-RR clone analysis of
//!   FMT21 (its Section on specific randomizers) is left out for the same reason.
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
use crate::{check_epsilon, MathError, Relation};

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
    /// Feldman, McMillan & Talwar 2023, the closed form for stronger clones (k-ary randomized
    /// response and the other randomizers FMT23's erratum allows).
    Fmt23,
    /// Feldman, McMillan & Talwar 2023, the stronger clone reduction evaluated exactly (the same
    /// randomizers).
    Fmt23Numerical,
}

impl Bound {
    /// All bounds, in display order (oldest first).
    pub const ALL: [Bound; 7] = [
        Bound::Efmrtt19,
        Bound::Bbgn19Hoeffding,
        Bound::Bbgn19Bennett,
        Bound::Fmt21,
        Bound::Fmt21Numerical,
        Bound::Fmt23,
        Bound::Fmt23Numerical,
    ];

    /// Machine name used in URLs, CLI flags and JSON.
    pub fn id(self) -> &'static str {
        match self {
            Bound::Efmrtt19 => "efmrtt19",
            Bound::Bbgn19Hoeffding => "bbgn19-hoeffding",
            Bound::Bbgn19Bennett => "bbgn19-bennett",
            Bound::Fmt21 => "fmt21",
            Bound::Fmt21Numerical => "fmt21-numerical",
            Bound::Fmt23 => "fmt23",
            Bound::Fmt23Numerical => "fmt23-numerical",
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
            Bound::Fmt23 => "Stronger clones, closed form",
            Bound::Fmt23Numerical => "Stronger clones, numerical",
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
            Bound::Fmt23 | Bound::Fmt23Numerical => {
                "Feldman, McMillan & Talwar, \"Stronger privacy amplification by shuffling for \
                 Rényi and approximate differential privacy\", SODA 2023 (arXiv 2208.04591, with \
                 its erratum)"
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

mod blanket;
mod clone_rdp;
mod clones;
mod closed;
mod inverse;
mod rounds;

pub use blanket::{bbgn19_bennett_delta, bbgn19_hoeffding_delta};
use blanket::{bbgn19_epsilon, Inequality};
pub(crate) use clone_rdp::clone_rdp_upper;
pub use clone_rdp::{fmt21_rdp, fmt23_rdp};
pub use clones::{
    clone_divergence, clone_numerical, clone_numerical_delta, fmt21_numerical,
    fmt21_numerical_delta, fmt21_published, fmt23_numerical, fmt23_numerical_delta,
    stronger_clones_exclude,
};
pub use closed::{efmrtt19, fmt21, fmt21_code_variant, fmt23};
pub use inverse::{largest_eps0, largest_eps0_over, largest_eps0_with, LargestEps0};
pub use rounds::{
    clone_atoms, composed_guarantee_epsilon, largest_eps0_rounds, rdp_orders, rounds_epsilon,
    rounds_epsilon_of, CloneAtoms, RoundsEpsilon, BLOCK_WIDTH, GROUPS_PER_SD,
};
// Moved to where they belong; kept reachable under their old paths.
pub use crate::subsampling::{
    subsampled_rr, subsampled_rr_exact, subsampled_rr_prime_exact, SubsampledRr,
};

// ---------------------------------------------------------------------------------------------
// Input checks
// ---------------------------------------------------------------------------------------------

pub(crate) fn check_eps0(eps0: f64) -> Result<(), MathError> {
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

pub(crate) fn check_users(n: u64) -> Result<(), MathError> {
    if n == 0 || n > MAX_USERS {
        return Err(MathError::OutOfDomain {
            name: "n",
            value: n as f64,
            expected: "a whole number of users between 1 and 1e9",
        });
    }
    Ok(())
}

pub(crate) fn check_shuffle_delta(delta: f64) -> Result<(), MathError> {
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

pub(crate) fn check_randomizer(r: Randomizer) -> Result<(), MathError> {
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

pub(crate) fn check_all(eps0: f64, n: u64, delta: f64) -> Result<(), MathError> {
    check_eps0(eps0)?;
    check_users(n)?;
    check_shuffle_delta(delta)
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
        Bound::Fmt23 => fmt23(randomizer, eps0, n, delta)?,
        Bound::Fmt23Numerical => match stronger_clones_exclude(randomizer) {
            Some(why) => ShuffleEpsilon::invalid(bound, randomizer, why),
            None => {
                let (lo, hi) = fmt23_numerical(eps0, n, delta)?;
                let mut r = ShuffleEpsilon::valid(bound, randomizer, hi);
                r.exact_lower = Some(lo);
                r.no_amplification = hi >= eps0;
                r
            }
        },
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
        Bound::Fmt23Numerical if stronger_clones_exclude(randomizer).is_none() => {
            fmt23_numerical(eps0, n, delta).ok().map(|r| r.1)
        }
        _ => shuffle_epsilon_with(bound, randomizer, eps0, n, delta)
            .ok()
            .and_then(|r| r.epsilon),
    }
}

#[cfg(test)]
// Tests compare against std's functions on purpose (an independent computation).
#[allow(clippy::disallowed_methods)]
mod tests {
    use super::clones::{ln_half_binomial, CloneWindow, Clones};
    use super::*;

    /// The names, citations and relation of every bound, and each input check at both edges of
    /// its domain (mutation testing: tools/mutants.sh).
    #[test]
    fn names_and_domain_edges() {
        let names: Vec<&str> = Bound::ALL.iter().map(|b| b.name()).collect();
        assert_eq!(
            names,
            [
                "Erlingsson et al. 2019",
                "Privacy blanket (Hoeffding)",
                "Privacy blanket (Bennett)",
                "Clones, closed form",
                "Clones, numerical",
                "Stronger clones, closed form",
                "Stronger clones, numerical",
            ]
        );
        for b in Bound::ALL {
            assert!(b.citation().contains("arXiv"), "{b:?}");
            assert_eq!(b.relation(), Relation::ReplaceOne);
        }
        assert!(Bound::Fmt23.citation().contains("2208.04591"));
        assert!(Bound::Fmt21.citation().contains("2012.12803"));
        assert!(Bound::Efmrtt19.citation().contains("1811.12469"));
        assert!(Bound::Bbgn19Bennett.citation().contains("1903.02837"));
        assert_eq!(Choice::Best.id(), "best");
        assert_eq!(Choice::One(Bound::Fmt23).id(), "fmt23");
        // ε₀ in [1e-12, 100], n in [1, 1e9], δ in [1e-100, 1), k in [2, 1e9]: both ends.
        assert!(check_eps0(MIN_EPS0).is_ok() && check_eps0(MAX_EPS0).is_ok());
        assert!(check_eps0(MIN_EPS0 * 0.5).is_err() && check_eps0(MAX_EPS0 * 1.01).is_err());
        assert!(check_eps0(f64::NAN).is_err());
        assert!(check_users(1).is_ok() && check_users(MAX_USERS).is_ok());
        assert!(check_users(0).is_err() && check_users(MAX_USERS + 1).is_err());
        assert!(check_shuffle_delta(MIN_DELTA).is_ok() && check_shuffle_delta(0.999).is_ok());
        assert!(check_shuffle_delta(MIN_DELTA * 0.5).is_err() && check_shuffle_delta(1.0).is_err());
        assert!(check_shuffle_delta(f64::NAN).is_err());
        assert!(check_randomizer(Randomizer::KRr { k: 2 }).is_ok());
        assert!(check_randomizer(Randomizer::KRr { k: MAX_USERS }).is_ok());
        assert!(check_randomizer(Randomizer::KRr { k: 1 }).is_err());
        assert!(check_randomizer(Randomizer::KRr { k: MAX_USERS + 1 }).is_err());
        assert!(check_randomizer(Randomizer::Generic).is_ok());
        // The result records its randomizer and relation; `tightest` skips invalid rows and keeps
        // the earlier of two equal ones.
        let r = shuffle_epsilon_with(Bound::Fmt21, Randomizer::KRr { k: 3 }, 4.0, 100_000, 1e-6)
            .unwrap();
        assert_eq!(r.randomizer, Randomizer::KRr { k: 3 });
        assert_eq!(r.relation(), Relation::ReplaceOne);
        let a = ShuffleEpsilon::valid(Bound::Fmt21, Randomizer::Generic, 0.5);
        let b = ShuffleEpsilon::valid(Bound::Fmt23, Randomizer::Generic, 0.5);
        let c = ShuffleEpsilon::invalid(Bound::Efmrtt19, Randomizer::Generic, "no");
        assert_eq!(
            tightest(&[c.clone(), a.clone(), b.clone()]).unwrap().bound,
            Bound::Fmt21
        );
        assert!(tightest(&[c]).is_none());
        let lower = ShuffleEpsilon::valid(Bound::Fmt23, Randomizer::Generic, 0.4);
        assert_eq!(tightest(&[a, lower]).unwrap().bound, Bound::Fmt23);
        // The clone bounds flag no amplification exactly when they return ε₀: one user alone
        // has no clones (at δ = 1e-100 the local guarantee's ε rounds to ε₀), 10⁵ users do.
        let krr = Randomizer::KRr { k: 2 };
        for b in [Bound::Fmt21Numerical, Bound::Fmt23Numerical] {
            let alone = shuffle_epsilon_with(b, krr, 1.0, 1, MIN_DELTA).unwrap();
            assert!(
                alone.no_amplification && alone.epsilon == Some(1.0),
                "{b:?}: {alone:?}"
            );
            let many = shuffle_epsilon_with(b, krr, 1.0, 100_000, 1e-6).unwrap();
            assert!(
                !many.no_amplification && many.epsilon.unwrap() < 0.1,
                "{b:?}"
            );
        }
    }

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
            let w = CloneWindow::new(n, eps0, Clones::Fmt21, 1e-40);
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
