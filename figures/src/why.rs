//! Figures that show *why* subsampling amplifies: the output densities on two neighbouring
//! datasets and the privacy loss between them, with the sample hidden (`neighbour-densities`) and
//! disclosed (`known-inclusion`), and the privacy loss distribution of a training run. The setting,
//! the noise densities and the privacy loss between them are the model's ([`amp_model::why`]).

use amp_math::subsampling::amplified_epsilon;

use super::{Axis, Chart, ChartResult, LegendCorner, Marker, ModelError, Role, Series};
use amp_format::short_number;
use amp_model::param as p;
use amp_model::params::{Noise, ParamValues};
use amp_model::why::{mixed_loss, Density};

/// Points per curve.
const POINTS: usize = 401;

/// `neighbour-densities` (`disclosed` false) and `known-inclusion` (true).
fn densities(values: &ParamValues, disclosed: bool) -> ChartResult {
    let eps = values.real(p::EPS);
    let rate = values.real(p::P);
    let noise = values.choice(p::NOISE);
    let d = Density {
        noise,
        scale: 1.0 / eps,
    };
    let (lo, hi) = (-5.0 * d.scale, 1.0 + 5.0 * d.scale);
    let mut grid: Vec<f64> = (0..POINTS)
        .map(|i| lo + (hi - lo) * i as f64 / (POINTS - 1) as f64)
        .collect();
    // The Laplace loss has its corners at 0 and 1: on the grid, so the maximum is drawn.
    for corner in [0.0, 1.0] {
        grid.insert(grid.partition_point(|&g| g < corner), corner);
    }
    let curve =
        |f: &dyn Fn(f64) -> f64| -> Vec<(f64, f64)> { grid.iter().map(|&o| (o, f(o))).collect() };
    let n0 = curve(&|o| d.at(o, 0.0));
    let n1 = curve(&|o| d.at(o, 1.0));
    let mix = curve(&|o| (1.0 - rate) * d.at(o, 0.0) + rate * d.at(o, 1.0));
    let top = n0.iter().chain(&n1).map(|q| q.1).fold(0.0, f64::max) * 1.08;
    let rate_s = short_number(rate, 4);
    let x = Axis::numeric("output o (f(x) = 0, f(x′) = 1)", false, lo, hi);

    let mut upper = Chart::new(
        x.clone(),
        Axis::numeric("density", false, 0.0, top),
        LegendCorner::UpperRight,
        String::new(),
    );
    // M(x) last, thin over the thick mixture it hides at small p.
    upper.series = vec![Series {
        label: if disclosed {
            "M(x′), when the person is known to be sampled".into()
        } else {
            "M(x′): with the person, no sampling".into()
        },
        points: n1,
        role: Role::Bound(1),
    }];
    if !disclosed {
        upper.series.push(Series {
            label: format!("with the person, sampled at p = {rate_s}: (1 − p)·M(x) + p·M(x′)"),
            points: mix,
            role: Role::Highlight,
        });
    }
    upper.series.push(Series {
        label: "M(x): without the person".into(),
        points: n0,
        role: Role::Family(0),
    });

    let (lower, amplified) = loss_panel(&d, &grid, (x, lo, hi), rate, eps, disclosed)?;
    upper.summary = densities_summary(&d, eps, rate, amplified, disclosed);
    upper.lower = Some(Box::new(lower));
    Ok(upper)
}

/// The lower panel of `neighbour-densities` / `known-inclusion`: the privacy loss at each
/// output, without sampling (or disclosed) and with the sample hidden, with ε′ (and ε) marked
/// for the Laplace; and ε′ itself.
fn loss_panel(
    d: &Density,
    grid: &[f64],
    (x, lo, hi): (Axis, f64, f64),
    rate: f64,
    eps: f64,
    disclosed: bool,
) -> Result<(Chart, f64), ModelError> {
    let curve =
        |f: &dyn Fn(f64) -> f64| -> Vec<(f64, f64)> { grid.iter().map(|&o| (o, f(o))).collect() };
    let rate_s = short_number(rate, 4);
    let laplace = d.noise == Noise::Laplace;
    let plain = curve(&|o| d.loss(o));
    let hidden = curve(&|o| mixed_loss(rate, d.loss(o)));
    let (ylo, yhi) = plain
        .iter()
        .map(|q| q.1)
        .fold((0.0f64, 0.0f64), |(a, b), y| (a.min(y), b.max(y)));
    let pad = 0.08 * (yhi - ylo).max(1e-12);
    let mut lower = Chart::new(
        x,
        Axis::numeric("privacy loss log(P/Q)", false, ylo - pad, yhi + pad),
        LegendCorner::LowerRight,
        String::new(),
    );
    lower.series.push(Series {
        label: if disclosed {
            "sample disclosed, person sampled: the loss of M".into()
        } else {
            "no sampling".into()
        },
        points: plain,
        role: Role::Bound(1),
    });
    if disclosed {
        lower.series.push(Series {
            label: "sample disclosed, person not sampled: 0".into(),
            points: vec![(lo, 0.0), (hi, 0.0)],
            role: Role::Reference,
        });
    }
    lower.series.push(Series {
        label: format!("sample hidden, p = {rate_s}"),
        points: hidden,
        role: Role::Highlight,
    });
    let amplified = amplified_epsilon(eps, rate)?;
    if laplace {
        lower.markers.push(Marker {
            x: 1.0,
            y: amplified,
            label: format!("ε′ = {}", short_number(amplified, 4)),
        });
        if disclosed {
            lower.markers.push(Marker {
                x: 1.0 + 2.5 * d.scale,
                y: eps,
                label: format!("ε = {}", short_number(eps, 4)),
            });
        }
    }

    Ok((lower, amplified))
}

/// The summary of `neighbour-densities` / `known-inclusion`: the setting, what the two panels
/// show, and what the loss says about ε (pure DP for the Laplace, none for the Gaussian).
fn densities_summary(d: &Density, eps: f64, rate: f64, amplified: f64, disclosed: bool) -> String {
    let laplace = d.noise == Noise::Laplace;
    let (noise_name, scale_name) = if laplace {
        ("Laplace", "b")
    } else {
        ("Gaussian", "σ")
    };
    let rate_s = short_number(rate, 4);
    let eps_s = short_number(eps, 4);
    let scale_s = short_number(d.scale, 4);
    let setting = format!(
        "{noise_name} noise of {scale_name} = 1/ε = {scale_s} on a query of sensitivity 1 \
         (f(x) = 0, f(x′) = 1, add/remove), Poisson sampling at p = {rate_s}"
    );
    let verdict = if laplace && disclosed {
        format!(
            "Disclosed, the loss still reaches ε = {eps_s} whenever the person was sampled, so no \
             pure-DP guarantee better than ε holds; hidden, it stays below ε′ = {}.",
            short_number(amplified, 4)
        )
    } else if laplace {
        format!(
            "Without sampling the loss runs between −ε and ε = {eps_s}; with the sample hidden it \
             stays below ε′ = log(1 + p(e^ε − 1)) = {}, reached for every output o ≥ 1.",
            short_number(amplified, 4)
        )
    } else {
        "The Gaussian's loss grows without bound in both cases, so no pure-DP ε holds; the hidden \
         sample lowers it by about log(1/p) for large outputs and bounds it below by log(1 − p), \
         which is what its (ε, δ) and Rényi guarantees register."
            .to_string()
    };
    format!(
        "Two panels against the output, for {setting}. Above: the output densities on the two \
         neighbouring datasets{}. Below: the privacy loss log(P/Q) at each output. {verdict}",
        if disclosed {
            " when the attacker knows the person was sampled (when not sampled, both are M(x))"
        } else {
            ", without sampling and with the person's data in the sample only with probability p"
        }
    )
}

/// `neighbour-densities`: the sample hidden.
pub fn neighbour_densities(values: &ParamValues) -> ChartResult {
    densities(values, false)
}

/// `known-inclusion`: the sample disclosed.
pub fn known_inclusion(values: &ParamValues) -> ChartResult {
    densities(values, true)
}

/// Bins of the drawn privacy loss distributions.
const BINS: usize = 140;

/// For a run of phases: one step of the first phase and the whole run scaled to a sixteenth, a
/// quarter and all of its length (every phase scaled together), Poisson sampling in every phase
/// as the tight readout, composed on the grid the whole run takes at the figure's budget: (the
/// run's steps, the steps of each curve, the grid step, the pessimistic PLDs).
#[allow(clippy::type_complexity)]
fn phased_plds(
    t: &amp_model::training::Training,
) -> Result<(u64, Vec<u64>, f64, Vec<amp_math::pld::PldPair>), amp_model::ModelError> {
    use amp_math::accounting::{EpochSettings, Event, PldAccountant};
    use amp_math::pld::Estimate;
    use amp_model::training::{accountant, band_of, FIGURE};
    let whole = t.poisson_event();
    let h = band_of(&whole, &accountant(FIGURE, EpochSettings::FINE))?.step;
    let at = PldAccountant::with_step(h);
    let mut runs: Vec<(u64, Event)> = vec![(1, t.step_event())];
    for f in [1.0 / 16.0, 0.25] {
        let part = t.scaled(f);
        if part.total_steps() > runs.last().map_or(0, |r| r.0)
            && part.total_steps() < t.total_steps()
        {
            runs.push((part.total_steps(), part.poisson_event()));
        }
    }
    runs.push((t.total_steps(), whole));
    let mut plds = Vec::with_capacity(runs.len());
    for (_, e) in &runs {
        plds.push(at.compose(e, Estimate::Pessimistic)?.1);
    }
    Ok((t.total_steps(), runs.iter().map(|r| r.0).collect(), h, plds))
}

/// `privacy-loss-distribution` (training page): the PLD of one DP-SGD step and of 1/16, 1/4 and
/// all of the reader's k steps, as densities of the privacy loss on a log axis, with the mass
/// beyond the run's ε shaded.
///
/// The PLDs are the certified (pessimistic) grids of [`amp_math::pld`] (Poisson sampling,
/// add/remove; the direction drawn is the one whose δ at the run's ε is larger), composed by FFT,
/// and rebinned into [`BINS`] bins over the k-step loss's range (mass per unit loss). The shaded
/// area is P(L > ε) at k steps; δ(ε) = E[(1 − e^{ε−L})₊] counts that mass at less than its full
/// weight, so δ is at most the shaded mass (Sommer, Meiser & Mohammadi 2019; Koskela, Jälkö &
/// Honkela 2020).
pub fn privacy_loss_distribution(values: &ParamValues) -> ChartResult {
    use super::{group_digits, Band};
    use amp_model::training::setting;

    let t = setting(values)?;
    t.check_records(Some(amp_model::params::Batching::Poisson))?;
    let (k, ks, h, plds) = drawn_plds(&t)?;
    let last = plds.last().ok_or("no steps to compose")?;
    let eps = last.epsilon_for_delta(t.delta)?;
    let remove = last.remove.delta_for_epsilon(eps) >= last.add.delta_for_epsilon(eps);
    let top = direction(last, remove);
    let bins = Bins::over(top, h, eps);
    let curves: Vec<Vec<(f64, f64)>> = plds
        .iter()
        .map(|p| bins.density(direction(p, remove)))
        .collect();
    let peak = curves
        .iter()
        .flat_map(|c| c.iter().map(|q| q.1))
        .fold(0.0, f64::max);
    let floor = peak * 1e-7;
    let mut c = Chart::new(
        Axis::numeric("privacy loss L", false, bins.lo, bins.hi),
        Axis::numeric("density of L", true, floor, peak * 3.0),
        LegendCorner::UpperRight,
        String::new(),
    );
    let k_curve = curves.last().cloned().unwrap_or_default();
    let tail: f64 = top
        .masses
        .iter()
        .enumerate()
        .filter(|(i, _)| loss(top, *i) > eps)
        .map(|(_, m)| m)
        .sum::<f64>()
        + top.infinity;
    c.bands.push(Band {
        label: format!(
            "P(L > ε) = {} at {} steps",
            short_number(tail, 3),
            group_digits(k)
        ),
        points: beyond(&k_curve, eps, floor),
    });
    let n = curves.len();
    for (j, (pts, &kj)) in curves.into_iter().zip(&ks).enumerate() {
        let steps = if kj == 1 {
            "one step".to_string()
        } else {
            format!("{} steps", group_digits(kj))
        };
        c.series.push(Series {
            label: steps,
            points: pts,
            role: if j + 1 == n {
                Role::Highlight
            } else {
                Role::Family(j)
            },
        });
    }
    c.markers.push(Marker {
        x: eps,
        y: k_curve
            .iter()
            .min_by(|a, b| (a.0 - eps).abs().total_cmp(&(b.0 - eps).abs()))
            .map_or(floor, |q| q.1.max(floor)),
        label: format!("ε = {}", short_number(eps, 4)),
    });
    c.summary = loss_summary(&t, k, remove, top, eps, tail);
    Ok(c)
}

/// The step counts drawn (one, 1/16, 1/4 and all of the run's k, without repeats), the grid
/// step and the pessimistic PLD after each; a run of phases or a user's several records through
/// the accountant's events.
fn drawn_plds(
    t: &amp_model::training::Training,
) -> Result<(u64, Vec<u64>, f64, Vec<amp_math::pld::PldPair>), amp_model::ModelError> {
    use amp_math::pld::{self, Estimate};
    if t.needs_events() {
        return phased_plds(t);
    }
    let k = t.steps;
    let mut ks: Vec<u64> = vec![1];
    for part in [k / 16, k / 4, k] {
        if part > *ks.last().unwrap_or(&0) {
            ks.push(part);
        }
    }
    let h = pld::step_for_budget(t.noise, t.q, k, amp_model::training::FIGURE)?;
    let plds = t
        .noise
        .poisson(t.q, h, Estimate::Pessimistic)?
        .self_compose_many(&ks)?;
    Ok((k, ks, h, plds))
}

/// The direction drawn of a pair.
fn direction(p: &amp_math::pld::PldPair, remove: bool) -> &amp_math::pld::Pld {
    if remove {
        &p.remove
    } else {
        &p.add
    }
}

/// The privacy loss at grid point `i` of `d`.
fn loss(d: &amp_math::pld::Pld, i: usize) -> f64 {
    (d.offset + i as i64) as f64 * d.step
}

/// The bins the densities are drawn in: `n` of width `width` from `lo` to `hi`.
struct Bins {
    lo: f64,
    hi: f64,
    width: f64,
    n: usize,
}

impl Bins {
    /// The range where the k-step loss `top` has all but 1e-7 of its mass on the left and 1e-9 on
    /// the right, widened to show 0 and a little beyond ε; each bin holds the same whole number of
    /// grid points (else the curves ripple), and the bins' edges fall halfway between grid points.
    fn over(top: &amp_math::pld::Pld, h: f64, eps: f64) -> Bins {
        let total: f64 = top.masses.iter().sum();
        let (mut lo, mut hi, mut run) = (f64::NAN, f64::NAN, 0.0);
        for (i, m) in top.masses.iter().enumerate() {
            run += m;
            if lo.is_nan() && run > 1e-7 * total {
                lo = loss(top, i);
            }
            if hi.is_nan() && run >= (1.0 - 1e-9) * total {
                hi = loss(top, i);
            }
        }
        let hi = hi.max(1.25 * eps);
        let lo = (lo.min(0.0) / h).floor() * h - 0.5 * h;
        let width = (((hi - lo) / BINS as f64) / h).round().max(1.0) * h;
        let n = ((hi - lo) / width).ceil().max(1.0) as usize;
        Bins {
            lo,
            hi: lo + n as f64 * width,
            width,
            n,
        }
    }

    /// `d` as mass per unit loss at the bins' centres (empty bins left out).
    fn density(&self, d: &amp_math::pld::Pld) -> Vec<(f64, f64)> {
        let mut bins = vec![0.0; self.n];
        for (i, m) in d.masses.iter().enumerate() {
            let b = ((loss(d, i) - self.lo) / self.width).floor();
            if (0.0..self.n as f64).contains(&b) {
                bins[b as usize] += m;
            }
        }
        bins.iter()
            .enumerate()
            .filter(|(_, m)| **m > 0.0)
            .map(|(b, m)| (self.lo + (b as f64 + 0.5) * self.width, m / self.width))
            .collect()
    }
}

/// The shaded region under `curve` beyond ε, from ε itself (the density interpolated there).
fn beyond(curve: &[(f64, f64)], eps: f64, floor: f64) -> Vec<(f64, f64, f64)> {
    let mut out = Vec::new();
    for w in curve.windows(2) {
        let ((x0, y0), (x1, y1)) = (w[0], w[1]);
        if x0 < eps && eps <= x1 {
            out.push((eps, floor, y0 + (y1 - y0) * (eps - x0) / (x1 - x0)));
        }
        if x1 >= eps && x1 > x0 {
            out.push((x1, floor, y1));
        }
    }
    out
}

/// The figure's text: what is drawn (one step and the run of one phase, or one step of the first
/// phase and the whole run of several), the k-step loss's mean and spread, ε and the mass beyond.
fn loss_summary(
    t: &amp_model::training::Training,
    k: u64,
    remove: bool,
    top: &amp_math::pld::Pld,
    eps: f64,
    tail: f64,
) -> String {
    use super::group_digits;
    let total: f64 = top.masses.iter().sum();
    let mean: f64 = top
        .masses
        .iter()
        .enumerate()
        .map(|(i, m)| m * loss(top, i))
        .sum::<f64>()
        / total;
    let var: f64 = top
        .masses
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let d = loss(top, i) - mean;
            m * d * d
        })
        .sum::<f64>()
        / total;
    let step = format!(
        "Poisson sampling at q = {}, {} direction",
        short_number(t.q, 4),
        if remove { "remove" } else { "add" }
    );
    let what = if t.is_phased() {
        format!(
            "one step of the first phase ({}, {step}) and of the whole run of {} phases, {} steps",
            t.noise_label(),
            t.phases().len(),
            group_digits(k),
        )
    } else {
        format!(
            "{} ({step}) for one step and for {} steps",
            t.noise_label(),
            group_digits(k),
        )
    };
    format!(
        "The privacy loss distribution of {what}, as densities on a log axis. Composing adds \
         losses, so the distribution drifts right and widens: at {} steps its mean is {} and its \
         standard deviation {}. The run's ε = {} at δ = {} is marked; the shaded mass beyond it, \
         {}, bounds δ from above (δ(ε) = E[(1 − e^(ε − L))₊] counts each loss beyond ε only in \
         part).",
        group_digits(k),
        short_number(mean, 4),
        short_number(var.sqrt(), 4),
        short_number(eps, 4),
        short_number(t.delta, 3),
        short_number(tail, 3),
    )
}
