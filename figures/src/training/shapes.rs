//! The training page's figures of run shapes: capped Poisson batches (`capped-batches`) and
//! banded noise (`banded-noise`), each against the choice that shapes the run.

use super::*;

/// The caps `capped-batches` draws, and the largest M/B of its grid: 29 caps from B/4 to past
/// B + 8√B (at least 2B) with the reader's cap, those below |x| only, sorted, without repeats.
fn cap_grid(t: &Training) -> (Vec<u64>, f64) {
    let (b, n) = (t.batch as f64, t.dataset);
    let spread = (b * (1.0 - t.q)).sqrt();
    let top = ((b + 8.0 * spread) / b).max(2.0);
    let mut caps: Vec<u64> = (0..=28)
        .map(|i| {
            (b * (0.25 + (top - 0.25) * i as f64 / 28.0))
                .round()
                .max(1.0) as u64
        })
        .collect();
    if t.max_batch > 0 {
        caps.push(t.max_batch);
    }
    caps.retain(|&m| m < n);
    amp_math::heap_sort_by(&mut caps, |a, b| a < b);
    caps.dedup();
    (caps, top)
}

/// The capped batches' points: (M/B, lower, upper) for the band, (M/B, upper) for the certified
/// line, and the first reason a cap gave no ε.
type CappedPoints = (Vec<(f64, f64, f64)>, Vec<(f64, f64)>, Option<String>);

/// ε at δ of the first phase's steps of Poisson batches cut to each cap M, against M/B: the
/// band's points, the certified upper line's points, and the first reason a cap was left out.
fn capped_points(
    acc: &amp_math::accounting::PldAccountant,
    mech: amp_math::rdp::Mechanism,
    t: &Training,
    caps: &[u64],
) -> CappedPoints {
    use amp_math::accounting::Event;
    let (b, n, k) = (t.batch as f64, t.dataset, t.steps);
    let mut band = Vec::new();
    let mut upper = Vec::new();
    let mut why: Option<String> = None;
    for &m in caps {
        let run = Event::truncated_poisson(mech, t.q, m, n).repeated(k);
        match acc.band(&run).and_then(|b| b.epsilon(t.delta)) {
            Ok((eu, el)) => {
                let x = m as f64 / b;
                band.push((x, el.clamp(0.0, eu), eu));
                upper.push((x, eu));
            }
            Err(e) => {
                why.get_or_insert(e.to_string());
            }
        }
    }
    (band, upper, why)
}

/// The summary of `capped-batches`: the setting, uncapped ε (`plain`), and from which cap on (the
/// knee, as M/B) the cap costs less than 1% of it.
fn capped_summary(t: &Training, sigma: f64, plain: f64, knee: Option<f64>) -> String {
    let (b, n, k) = (t.batch as f64, t.dataset, t.steps);
    format!(
        "ε at δ = {} of {} steps of Poisson batches (B = {}, |x| = {}, σ = {}) cut to at most \
         M examples, against M/B. Without a cap ε ≤ {}; {}",
        short_number(t.delta, 3),
        group_digits(k),
        group_digits(t.batch),
        group_digits(n),
        short_number(sigma, 4),
        short_number(plain, 4),
        match knee {
            Some(x) => format!(
                "from M ≈ {} (M/B = {}) on the cap costs less than 1% of that.",
                group_digits((x * b).round() as u64),
                short_number(x, 3)
            ),
            None => "no cap drawn here comes within 1% of it.".into(),
        }
    )
}

/// `capped-batches`: ε at δ against the cap M on the batch size, over the expected batch size B
/// (x = M/B), for the first phase's rate and steps: the band of capped Poisson batches
/// ([`amp_math::pld::truncated_poisson_gaussian`]; add/remove one example, the dataset's size
/// counting it) with its certified upper line, and uncapped Poisson sampling's certified ε as a
/// reference. Caps from B/4 to past B + 8√B (where the others alone almost never fill the cap),
/// on one grid step for every point (the budget's step for noise σ/2, the displaced example's
/// sensitivity 2); the reader's cap is marked. Gaussian noise only.
pub fn capped_batches(values: &ParamValues) -> ChartResult {
    use amp_math::accounting::{Event, PldAccountant};
    let t = setting(values)?;
    let sigma = match t.noise {
        Noise::Gaussian(s) => s,
        Noise::Laplace(_) => {
            return Err(ModelError::NotApplicable(
                "capped batches are accounted here for Gaussian noise only".into(),
            ))
        }
    };
    if t.records > 1 {
        return Err(ModelError::NotApplicable(
            "capped batches are accounted here for one record per user only (R = 1)".into(),
        ));
    }
    let (b, n, k) = (t.batch as f64, t.dataset, t.steps);
    let (caps, top) = cap_grid(&t);
    if caps.len() < 2 {
        return Err(ModelError::NotApplicable(
            "the batch is nearly the whole dataset: no cap below |x| to draw".into(),
        ));
    }
    let mech = amp_model::training::mechanism(t.noise);
    let h = pld::step_for_budget(Noise::Gaussian(sigma / 2.0), t.q, k, FIGURE)?;
    let acc = PldAccountant::with_step(h);
    let (band, upper, why) = capped_points(&acc, mech, &t, &caps);
    if upper.len() < 2 {
        return Err(ModelError::NotApplicable(
            why.unwrap_or_else(|| "no cap gives a finite ε at this δ".into()),
        ));
    }
    let plain = acc
        .band(&Event::poisson(mech, t.q).repeated(k))
        .and_then(|b| b.epsilon(t.delta))
        .map_err(|e| e.to_string())?;
    // The knee: the smallest cap from which the certified ε stays within 1% of no cap's.
    let knee = upper
        .iter()
        .rev()
        .take_while(|p| p.1 <= plain.0 * 1.01)
        .last()
        .map(|p| p.0);
    let y_max = upper.iter().map(|p| p.1).fold(plain.0, f64::max).max(1e-6);
    let x_max = upper.last().map_or(top, |p| p.0).max(0.5);
    let mut c = Chart::new(
        Axis::numeric("cap over expected batch size, M/B", false, 0.0, x_max),
        Axis::numeric(
            format!("ε at δ = {}", short_number(t.delta, 3)),
            false,
            0.0,
            1.08 * y_max,
        ),
        LegendCorner::UpperRight,
        capped_summary(&t, sigma, plain.0, knee),
    );
    c.bands.push(Band {
        label: format!(
            "capped batches: band (PLD, grid step {})",
            short_number(h, 2)
        ),
        points: band,
    });
    c.series.push(Series {
        label: "capped batches, certified upper bound".into(),
        points: upper,
        role: Role::Highlight,
    });
    c.series.push(Series {
        label: "no cap (Poisson sampling), certified".into(),
        points: vec![(0.0, plain.0), (x_max, plain.0)],
        role: Role::Reference,
    });
    if t.max_batch > 0 && t.max_batch < n {
        let x = t.max_batch as f64 / b;
        if let Ok((eu, _)) = acc
            .band(&Event::truncated_poisson(mech, t.q, t.max_batch, n).repeated(k))
            .and_then(|b| b.epsilon(t.delta))
        {
            c.markers.push(Marker {
                x,
                y: eu,
                label: format!(
                    "your M = {}: ε ≤ {}",
                    group_digits(t.max_batch),
                    short_number(eu, 4)
                ),
            });
        }
    }
    if t.is_phased() {
        c.notes.push(FIRST_PHASE_ONLY.into());
    }
    Ok(c)
}

/// The numbers of bands `banded-noise` draws: a log grid from 1 to `b_max` with the powers of two
/// and the reader's b (`mine`) up to `b_max`, sorted, without repeats.
fn band_counts(b_max: u64, mine: u64) -> Vec<u64> {
    let mut bands: Vec<u64> = log_grid(1.0, b_max as f64, 14)
        .into_iter()
        .map(|b| b.round().max(1.0) as u64)
        .chain((0..40).map(|i| 1u64 << i).take_while(|&b| b <= b_max))
        .chain(std::iter::once(mine))
        .filter(|&b| b <= b_max)
        .collect();
    amp_math::heap_sort_by(&mut bands, |a, b| a < b);
    bands.dedup();
    bands
}

/// The points of `banded-noise`: (b, lower, upper) for the band, (b, upper) for the certified
/// line, (b, σ) for the noise the target needs, and the first reason a b gave no ε.
type BandedPoints = (
    Vec<(f64, f64, f64)>,
    Vec<(f64, f64)>,
    Vec<(f64, f64)>,
    Option<String>,
);

/// ε at δ at each number of bands b (band and certified upper line) and, for a target above 0,
/// the noise multiplier that meets it there; the first reason a b was left out of ε.
fn banded_points(
    acc: &amp_math::accounting::PldAccountant,
    base: &Training,
    bands: &[u64],
    target: f64,
) -> BandedPoints {
    use amp_model::training::calibrate;
    let (mut band, mut upper, mut noise) = (Vec::new(), Vec::new(), Vec::new());
    let mut why: Option<String> = None;
    for &b in bands {
        let Ok(tb) = base.banded(b) else { continue };
        match acc
            .band(&tb.poisson_event())
            .and_then(|x| x.epsilon(tb.delta))
        {
            Ok((eu, el)) => {
                band.push((b as f64, el.clamp(0.0, eu), eu));
                upper.push((b as f64, eu));
            }
            Err(e) => {
                why.get_or_insert(e.to_string());
            }
        }
        if target > 0.0 {
            if let Ok(s) = calibrate(&tb, target, CALIBRATION, 2e-3) {
                noise.push((b as f64, s));
            }
        }
    }
    (band, upper, noise, why)
}

/// The summary of `banded-noise`: the setting, DP-SGD's ε (`dpsgd`, at b = 1), ε at the largest
/// b drawn (`last`, as (b, ε)) and the target the lower panel calibrates for.
fn banded_summary(
    base: &Training,
    sigma: f64,
    dpsgd: Option<f64>,
    last: (f64, f64),
    target: f64,
) -> String {
    let (n, steps) = base.reader;
    format!(
        "ε at δ = {} of {} steps with σ = {} on {} examples in batches of {}, against the \
         number of bands b of a banded matrix factorisation amplified by cyclic Poisson \
         sampling (b groups used in turn, rate b·B/|x|, ⌈T/b⌉ participations; columns of norm \
         ≤ 1). b = 1 is DP-SGD: ε ≤ {}; at b = {}, ε ≤ {}. Below: the noise multiplier σ \
         that ε = {} needs at each b.",
        short_number(base.delta, 3),
        group_digits(steps),
        short_number(sigma, 4),
        group_digits(n),
        group_digits(base.batch),
        dpsgd.map_or("–".into(), |e| short_number(e, 4)),
        group_digits(last.0 as u64),
        short_number(last.1, 4),
        short_number(target, 4)
    )
}

/// The lower panel of `banded-noise`: the noise multiplier the target needs against b, on the
/// upper panel's x axis, the reader's b (`mine`) marked where it was calibrated.
fn banded_lower(x: Axis, noise: Vec<(f64, f64)>, target: f64, mine: u64) -> Chart {
    let (lo, hi) = log_range(noise.iter().map(|p| &p.1));
    let mut lower = Chart::new(
        x,
        Axis::numeric(
            format!("σ for ε = {}", short_number(target, 4)),
            true,
            lo,
            hi,
        ),
        LegendCorner::UpperLeft,
        String::new(),
    );
    if let Some(s) = noise.iter().find(|p| p.0 == mine as f64).map(|p| p.1) {
        lower.markers.push(Marker {
            x: mine as f64,
            y: s,
            label: format!("b = {}: σ = {}", group_digits(mine), short_number(s, 4)),
        });
    }
    lower.series.push(Series {
        label: "noise multiplier for the target (certified)".into(),
        points: noise,
        role: Role::Highlight,
    });
    lower
}

/// `banded-noise`: ε at δ, and below it the noise multiplier a target ε needs, against the number
/// of bands b of a banded matrix factorisation amplified by cyclic Poisson sampling
/// ([`Training::banded`]: rate b·B/|x| for ⌈T/b⌉ steps; add/remove one example), at the reader's
/// |x|, B, T and σ; b = 1 is DP-SGD. Bands from 1 to min(|x|/B, T) on a log grid with the powers
/// of two and the reader's b; ε on one grid step for every point (the budget's step at b = 1),
/// each σ calibrated to 0.2% (certified). Gaussian noise, one phase, Poisson batches without a cap.
pub fn banded_noise(values: &ParamValues) -> ChartResult {
    use amp_model::params::Value;
    let mine = setting(values)?;
    let mut v = values.clone();
    v.set(p::BANDS.spec, Value::Count(1))
        .map_err(|e| ModelError::from(e.to_string()))?;
    let base = setting(&v)?;
    let (n, steps) = base.reader;
    let b_max = (n / base.batch).min(steps).max(1);
    if b_max < 2 {
        return Err(ModelError::NotApplicable(format!(
            "one band only: |x|/B = {} and T = {} leave no room for b ≥ 2",
            group_digits(n / base.batch),
            group_digits(steps)
        )));
    }
    // The reasons banded noise is refused (phases, samplers, R, caps, Laplace), before any sweep.
    base.banded(2)
        .map_err(|e| ModelError::NotApplicable(e.to_string().replace(" (b = 2)", "")))?;
    let Noise::Gaussian(sigma) = base.noise else {
        return Err(ModelError::NotApplicable("Gaussian noise only".into()));
    };
    let bands = band_counts(b_max, mine.bands);
    let target = values.real(p::TARGET_EPS);
    let h = pld::step_for_budget(base.noise, base.q, base.steps, FIGURE)?;
    let acc = amp_math::accounting::PldAccountant::with_step(h);
    let (band, upper, noise, why) = banded_points(&acc, &base, &bands, target);
    if upper.len() < 2 {
        return Err(ModelError::NotApplicable(why.unwrap_or_else(|| {
            "no number of bands gives a finite ε at this δ".into()
        })));
    }
    let x = Axis::numeric("bands b", true, 1.0, b_max as f64);
    let y_max = upper.iter().map(|p| p.1).fold(1e-6, f64::max);
    let at = |pts: &[(f64, f64)], b: u64| pts.iter().find(|p| p.0 == b as f64).map(|p| p.1);
    let dpsgd = at(&upper, 1);
    let last = upper[upper.len() - 1];
    let mut c = Chart::new(
        x.clone(),
        Axis::numeric(
            format!("ε at δ = {}", short_number(base.delta, 3)),
            false,
            0.0,
            1.08 * y_max,
        ),
        LegendCorner::UpperRight,
        banded_summary(&base, sigma, dpsgd, last, target),
    );
    c.bands.push(Band {
        label: format!("band (PLD, grid step {})", short_number(h, 2)),
        points: band,
    });
    c.series.push(Series {
        label: format!("certified ε at σ = {}", short_number(sigma, 4)),
        points: upper.clone(),
        role: Role::Highlight,
    });
    if let Some(e) = at(&upper, mine.bands) {
        c.markers.push(Marker {
            x: mine.bands as f64,
            y: e,
            label: format!(
                "your b = {}: ε ≤ {}",
                group_digits(mine.bands),
                short_number(e, 4)
            ),
        });
    }
    // The app sizes this figure for two panels: without two calibrated points there is no figure.
    if noise.len() < 2 {
        return Err(ModelError::NotApplicable(format!(
            "no noise multiplier in [0.2, 10⁴] meets ε = {} at two numbers of bands or more",
            short_number(target, 4)
        )));
    }
    c.lower = Some(Box::new(banded_lower(x, noise, target, mine.bands)));
    Ok(c)
}
