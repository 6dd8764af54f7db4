//! "What each library reports": for the reader's DP-SGD run, the ε each widely used accountant
//! prints under its own defaults ([`amp_math::libraries`], each convention read from the
//! library's source and checked against the library on a committed table), beside the certified
//! band, with the cause of each gap named. All of them assume Poisson batches and add/remove
//! neighbours; the sentences say what that means for a loop that forms its batches otherwise.

use amp_format::short_number;
use amp_math::libraries::{dp_accounting, opacus, tf_privacy};
use amp_math::pld;

use crate::params::Batching;
use crate::training::{band_of, Training};
use crate::ModelError;

/// What each library prints for the run, ε at the run's δ.
#[derive(Clone, Debug, PartialEq)]
pub struct Reports {
    /// Opacus's default (`PrivacyEngine(accountant="prv")`): its PRV accountant's upper
    /// estimate, predicted from the certified band at Opacus's rate and steps (the ε of the
    /// upper bound at δ − δ/1000, plus eps_error = 0.01; within about 1e-4 of what it prints).
    pub opacus_prv: f64,
    /// Opacus's RDP accountant (exactly its number).
    pub opacus_rdp: f64,
    /// Opacus's Gaussian (central-limit) accountant, or why it raises.
    pub opacus_gdp: Result<f64, ModelError>,
    /// dp_accounting's RDP accountant at q = B/|x| and the run's steps (exactly its number).
    pub dp_accounting_rdp: f64,
    /// dp_accounting's PLD accountant (pessimistic, grid 1e-4): the certified upper bound, which
    /// it matches to 0.2%.
    pub dp_accounting_pld: f64,
    /// TensorFlow Privacy's `compute_dp_sgd_privacy` (exactly its number).
    pub tf_privacy: f64,
    /// Opacus's rate 1/⌈|x|/B⌉ and its steps.
    pub opacus_run: (f64, u64),
    /// The cause of each gap, one sentence per library, and what they all assume.
    pub causes: Vec<String>,
}

/// The run as the libraries see it, or why it has no such reading: one phase of Gaussian noise,
/// one record per person, no cap, no bands (each library's plain DP-SGD).
fn plain(t: &Training) -> Result<f64, ModelError> {
    let pld::Noise::Gaussian(sigma) = t.noise else {
        return Err(ModelError::NotApplicable(
            "the libraries' DP-SGD accountants are for Gaussian noise".into(),
        ));
    };
    if t.is_phased() || t.records > 1 || t.max_batch > 0 || t.bands > 1 {
        return Err(ModelError::NotApplicable(
            "the libraries' DP-SGD accountants take one phase of one record per person, with no \
             cap and no bands"
                .into(),
        ));
    }
    Ok(sigma)
}

/// Each library's number for the run; `epochs` the epochs the reader gave (a run given in
/// steps: steps·B/|x|), `band` the run's certified band (Poisson batches) and `buckets` the
/// budget at which to account Opacus's slightly different rate and steps.
/// `own` is the certified band of the reader's own sampler when it is not Poisson (zero-out
/// neighbours).
pub fn reports(
    t: &Training,
    epochs: f64,
    band: &pld::Band,
    buckets: usize,
    own: Option<&crate::batching::Band>,
) -> Result<Reports, ModelError> {
    let sigma = plain(t)?;
    let (oq, per_epoch) = opacus::loader(t.dataset, t.batch)?;
    let osteps = if t.by_epochs {
        ((epochs * per_epoch as f64).round() as u64).max(1)
    } else {
        t.steps
    };
    let o_band = band_of(
        &Training {
            q: oq,
            steps: osteps,
            ..*t
        }
        .poisson_event(),
        &crate::training::accountant(buckets, amp_math::accounting::EpochSettings::FINE),
    )?;
    let opacus_prv = o_band.upper.epsilon_for_delta(t.delta * (1.0 - 1e-3))? + 0.01;
    let (opacus_rdp, _) = opacus::rdp_epsilon(sigma, oq, osteps, t.delta)?;
    let opacus_gdp = opacus::gdp_epsilon(sigma, oq, osteps, t.delta).map_err(ModelError::from);
    let curve = dp_accounting::poisson_gaussian_curve(sigma, t.q, t.steps as f64)?;
    let (dp_accounting_rdp, _) = dp_accounting::epsilon(&curve, t.delta)?;
    let (upper, lower) = band.epsilon(t.delta)?;
    let (tf_privacy, _) =
        tf_privacy::compute_dp_sgd_privacy(t.dataset, t.batch, sigma, epochs, t.delta)?;
    let mut r = Reports {
        opacus_prv,
        opacus_rdp,
        opacus_gdp,
        dp_accounting_rdp,
        dp_accounting_pld: upper,
        tf_privacy,
        opacus_run: (oq, osteps),
        causes: Vec::new(),
    };
    r.causes = causes(t, epochs, &r, (upper, lower));
    r.causes.push(assumptions(t.batching, own, r.opacus_prv));
    Ok(r)
}

/// "x above the certified upper bound" / "x below the certified lower bound" / "inside the band".
fn gap(e: f64, (upper, lower): (f64, f64)) -> String {
    if e > upper {
        format!(
            "{} above the certified upper bound",
            short_number(e - upper, 3)
        )
    } else if e < lower {
        format!(
            "{} below the certified lower bound",
            short_number(lower - e, 3)
        )
    } else {
        "inside the certified band".into()
    }
}

/// One sentence per library: its number, its gap to the band, and the convention that makes it.
fn causes(t: &Training, epochs: f64, r: &Reports, band: (f64, f64)) -> Vec<String> {
    let n = |x: f64| short_number(x, 4);
    let (oq, osteps) = r.opacus_run;
    let rate = if (oq - t.q).abs() > 1e-12 * t.q || osteps != t.steps {
        format!(
            " Its Poisson loader samples at q = 1/⌈|x|/B⌉ = {} (one over the batches of the loader \
             it was handed, not B/|x| = {}), so its batches average {} examples, not B = {}, over \
             {} steps: its number is for that run.",
            short_number(oq, 4),
            short_number(t.q, 4),
            amp_format::group_digits((t.dataset as f64 * oq).round() as u64),
            amp_format::group_digits(t.batch),
            amp_format::group_digits(osteps)
        )
    } else {
        String::new()
    };
    vec![
        format!(
            "Opacus, its default PRV accountant: about {} ({}). It prints PRV's upper estimate, the \
             true ε plus up to eps_error = 0.01.{rate}",
            n(r.opacus_prv),
            gap(r.opacus_prv, band)
        ),
        format!(
            "Opacus, RDP accountant: {} ({}): Rényi DP on 151 fixed orders (1.1 to 10.9, then 12 \
             to 63), converted by Balle et al.'s bound; Rényi DP is loose for this.",
            n(r.opacus_rdp),
            gap(r.opacus_rdp, band)
        ),
        match &r.opacus_gdp {
            Ok(e) => format!(
                "Opacus, Gaussian accountant: {} ({}): the central-limit μ, an approximation and \
                 not a bound (Opacus itself warns that it can underestimate).",
                n(*e),
                gap(*e, band)
            ),
            Err(e) => format!("Opacus, Gaussian accountant: no number ({e})."),
        },
        format!(
            "dp_accounting, RDP accountant: {} ({}): 156 fixed orders, the fractional orders' \
             series summed with every term positive (an overestimate).",
            n(r.dp_accounting_rdp),
            gap(r.dp_accounting_rdp, band)
        ),
        format!(
            "dp_accounting, PLD accountant: about {} (pessimistic on a grid of 1e-4: the certified \
             upper bound to within 0.2%).",
            n(r.dp_accounting_pld)
        ),
        format!(
            "TensorFlow Privacy, compute_dp_sgd_privacy: {} ({}): dp_accounting's Rényi DP on 72 \
             orders, over ⌈epochs·|x|/B⌉ = {} steps.",
            n(r.tf_privacy),
            gap(r.tf_privacy, band),
            amp_format::group_digits(tf_privacy::steps(t.dataset, t.batch, epochs))
        ),
    ]
}

/// What every library assumes, against the reader's loop (`own`: its sampler's certified band,
/// when it is not Poisson; `prv`: what Opacus prints by default).
fn assumptions(batching: Batching, own: Option<&crate::batching::Band>, prv: f64) -> String {
    let all = "Every one of them assumes Poisson batches and add/remove neighbours (one example \
               added or removed); for replace-one neighbours ε is larger.";
    let loop_words = match batching {
        Batching::Poisson | Batching::TruncatedPoisson => return all.into(),
        Batching::Shuffle => "shuffles the data once per epoch",
        Batching::BallsInBins => "puts each example in one random batch per epoch",
        Batching::Allocation => "gives each example a fixed number of random steps",
    };
    let Some(b) = own else {
        return format!(
            "{all} Your loop {loop_words}: every number here is then for another run than yours."
        );
    };
    let n = |x: f64| short_number(x, 4);
    let verdict = if b.lower > prv {
        format!(
            "so Opacus's default {} understates it by at least {}",
            n(prv),
            n(b.lower - prv)
        )
    } else if b.upper < prv {
        format!(
            "so Opacus's default {} overstates it by at least {}",
            n(prv),
            n(prv - b.upper)
        )
    } else {
        format!("and Opacus's default {} lies inside that band", n(prv))
    };
    format!(
        "{all} Your loop {loop_words}: its certified ε is between {} and {} (zero-out \
         neighbours, for which Poisson batches have the add/remove ε), {verdict}.",
        n(b.lower),
        n(b.upper)
    )
}
