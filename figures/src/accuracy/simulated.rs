//! The accuracy page's figures of releases and of the simulation: the private estimates of
//! the whole population (Figures 1 right and 2), and the simulated sensitivity ratios, noise
//! sizes, sample medians and errors (Figures 3–8 and 10–13).

use super::*;

/// Box statistics (2.5%, 25%, 50%, 75%, 97.5%) of a set of values.
fn box_of(values: &[f64], x: f64, color: usize) -> BoxStat {
    let q = quantiles(values, &[0.025, 0.25, 0.5, 0.75, 0.975]);
    BoxStat {
        x,
        stats: [q[0], q[1], q[2], q[3], q[4]],
        color,
    }
}

/// The ε values and sample sizes of the paper's violin figures: ε ∈ {0.1, 0.5, 1} at the rates
/// 0.1 and 0.01 (n = 1001 and 101 for N = 10001).
const VIOLIN_EPS: [f64; 3] = [0.1, 0.5, 1.0];
const VIOLIN_RATES: [f64; 2] = [0.1, 0.01];

fn cell(sim: &Simulation, eps: f64, rate: f64) -> Result<&amp_math::median_sim::Cell, String> {
    sim.cells()
        .iter()
        .find(|c| c.epsilon == eps && c.rate == rate)
        .ok_or_else(|| format!("the simulation has no cell for ε = {eps}, rate {rate}"))
}

fn needs_full_runs(sim: &Simulation) -> Result<(), String> {
    if sim.progress().finished() {
        Ok(())
    } else {
        Err("the simulation has not finished".into())
    }
}

/// The x label of a group of boxes: its ε, under the group's middle.
fn group_label(c: &mut Chart, x: f64, eps: f64) {
    c.x.categories
        .push((x, format!("ε = {}", short_number(eps, 2))));
}

/// The box colours of the two sample sizes (colour index, legend label).
fn sample_colours(sim: &Simulation) -> Result<Vec<(usize, String)>, String> {
    VIOLIN_RATES
        .iter()
        .enumerate()
        .map(|(k, &rate)| {
            Ok((
                k,
                format!("sample, n = {}", cell(sim, VIOLIN_EPS[0], rate)?.n),
            ))
        })
        .collect()
}

/// Legend entries naming box colours (series without points of their own).
fn colour_legend(c: &mut Chart, entries: &[(usize, String)]) {
    for (k, label) in entries {
        c.series.push(Series {
            label: label.clone(),
            points: vec![],
            role: Role::Family(*k),
        });
    }
}

/// `private-estimates` (Figure 1, right, and Figure 2): the whole population's mean and median
/// released with Laplace noise, `runs` times at each ε ∈ {0.1, 0.5, 1}: the mean with its global
/// sensitivity R/N, the median with its global sensitivity R and with its smooth sensitivity. The
/// paper draws the private values as violins on three panels of different scales; here their
/// distance from the true value, as box plots on one log axis, so the four orders of magnitude
/// between the three are in one picture. The signed spread of the global-sensitivity medians (the
/// paper's "about −50 to 100" at ε = 0.1) is in the summary.
pub fn private_estimates(values: &ParamValues) -> ChartResult {
    let cfg = sim_config(values)?;
    // The paper draws these from Beta(2, 10), its simulation from the log-normal: this figure has
    // its own population control.
    let population = values.choice(p::ESTIMATES_POPULATION).population();
    let pop = generate_population(population, cfg.population_size, cfg.seed).map_err(err)?;
    let range = pop.range.1 - pop.range.0;
    let mut c = chart(
        Axis::numeric("the ε of each release", false, 0.3, 9.7),
        Axis::numeric("|private value − true value|", true, 1e-6, 1.0),
        LegendCorner::UpperLeft,
    );
    let mut all = vec![range];
    let mut x = 1.0;
    let mut spans = Vec::new();
    let mut medians = Vec::new();
    for &eps in &VIOLIN_EPS {
        let r = private_releases(&pop, eps, cfg.seed, cfg.runs).map_err(err)?;
        let kinds = [
            (&r.mean_global, r.mean),
            (&r.median_global, r.median),
            (&r.median_smooth, r.median),
        ];
        // One label per ε, under the middle box; the colours name the three releases.
        group_label(&mut c, x + 1.0, eps);
        for (k, (released, truth)) in kinds.into_iter().enumerate() {
            let errors: Vec<f64> = released.iter().map(|v| (v - truth).abs()).collect();
            let b = box_of(&errors, x, k);
            all.extend_from_slice(&[b.stats[0].max(1e-300), b.stats[4]]);
            medians.push(short_number(b.stats[2], 2));
            c.boxes.push(b);
            x += 1.0;
        }
        let (lo, hi) = r
            .median_global
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| {
                (a.min(v), b.max(v))
            });
        spans.push(format!(
            "{} to {} at ε = {}",
            short_number(lo, 3),
            short_number(hi, 3),
            eps
        ));
    }
    let (lo, hi) = log_range(all.iter());
    c.y.min = lo;
    c.y.max = hi;
    colour_legend(
        &mut c,
        &[
            (0, "mean, global sensitivity R/N".into()),
            (1, "median, global sensitivity R (GS)".into()),
            (2, "median, smooth sensitivity (SS)".into()),
        ],
    );
    c.series.push(Series {
        label: format!(
            "the {} population's whole range R = {}",
            population.name(),
            short_number(range, 4)
        ),
        points: vec![(0.3, range), (9.7, range)],
        role: Role::Reference,
    });
    c.summary = format!(
        "Box plots (2.5%, quartiles, 97.5%) of how far the private value lands from the true one, \
         over {} releases of the whole {} population (N = {}, seed {}) at each ε: its mean with \
         global sensitivity R/N, its median with global sensitivity R (GS) and with smooth \
         sensitivity at δ = 1/(2N) (SS). Median distances, in that order per ε: {}. The medians \
         released with global sensitivity range from {}, for a population inside [{}, {}].",
        cfg.runs,
        population.id(),
        pop.sorted.len(),
        cfg.seed,
        medians.join(", "),
        spans.join("; "),
        short_number(pop.range.0, 4),
        short_number(pop.range.1, 4),
    );
    Ok(c)
}

/// `sensitivity-ratio` (Figures 6 and 10): the sample median's smooth sensitivity over the
/// population median's, per ε and sample size, as box plots.
pub fn sensitivity_ratio(values: &ParamValues, sim: &Simulation) -> ChartResult {
    needs_full_runs(sim)?;
    let mut c = chart(
        Axis::numeric("the ε of the release", false, 0.3, 6.7),
        Axis::numeric("sample S / population S", true, 0.1, 10.0),
        LegendCorner::UpperLeft,
    );
    let mut all = Vec::new();
    let mut medians = Vec::new();
    let mut x = 1.0;
    for &eps in &VIOLIN_EPS {
        group_label(&mut c, x + 0.5, eps);
        for (k, &rate) in VIOLIN_RATES.iter().enumerate() {
            let cl = cell(sim, eps, rate)?;
            let b = box_of(&cl.sensitivity_ratio, x, k);
            all.extend_from_slice(&[b.stats[0], b.stats[4]]);
            medians.push(format!(
                "{} (ε = {}, n = {})",
                short_number(b.stats[2], 3),
                eps,
                cl.n
            ));
            c.boxes.push(b);
            x += 1.0;
        }
    }
    colour_legend(&mut c, &sample_colours(sim)?);
    let (lo, hi) = log_range(all.iter().chain(std::iter::once(&1.0)));
    c.y.min = lo;
    c.y.max = hi;
    c.series.push(Series {
        label: "same sensitivity as the population".into(),
        points: vec![(0.3, 1.0), (6.7, 1.0)],
        role: Role::Reference,
    });
    c.summary = format!(
        "Box plots (2.5%, quartiles, 97.5%) of the sample median's smooth sensitivity divided by the \
         population median's, over {} runs ({} population, N = {}, seed {}). Medians: {}. Above 1 \
         the sample needs more noise than the amplification saves.",
        sim.config().runs,
        values.choice(p::POPULATION).id(),
        sim.population().sorted.len(),
        sim.config().seed,
        medians.join("; ")
    );
    Ok(c)
}

/// `noise-magnitude` (Figures 7 and 12): the size of the Laplace noise added, for the population
/// and the two sample sizes, per ε.
pub fn noise_magnitude(values: &ParamValues, sim: &Simulation) -> ChartResult {
    needs_full_runs(sim)?;
    let mut c = chart(
        Axis::numeric("the ε of the release", false, 0.3, 9.7),
        Axis::numeric("|noise added|", true, 1e-3, 1.0),
        LegendCorner::UpperRight,
    );
    let mut all = Vec::new();
    let mut x = 1.0;
    let mut text = Vec::new();
    for &eps in &VIOLIN_EPS {
        let pop = sim
            .population_cells()
            .iter()
            .find(|p| p.epsilon == eps)
            .ok_or("no population cell")?;
        let mags: Vec<f64> = pop.noise.iter().map(|v| v.abs()).collect();
        let b = box_of(&mags, x, 2);
        text.push(format!(
            "ε = {eps}: population {}",
            short_number(b.stats[2], 3)
        ));
        all.extend_from_slice(&[b.stats[0].max(1e-300), b.stats[4]]);
        group_label(&mut c, x + 1.0, eps);
        c.boxes.push(b);
        x += 1.0;
        for (k, &rate) in VIOLIN_RATES.iter().enumerate() {
            let cl = cell(sim, eps, rate)?;
            let mags: Vec<f64> = cl.noise.iter().map(|v| v.abs()).collect();
            let b = box_of(&mags, x, k);
            text.push(format!("n = {} {}", cl.n, short_number(b.stats[2], 3)));
            all.extend_from_slice(&[b.stats[0].max(1e-300), b.stats[4]]);
            c.boxes.push(b);
            x += 1.0;
        }
    }
    let mut colours = vec![(
        2,
        format!("whole population, N = {}", sim.population().sorted.len()),
    )];
    colours.extend(sample_colours(sim)?);
    colour_legend(&mut c, &colours);
    let (lo, hi) = log_range(all.iter());
    c.y.min = lo;
    c.y.max = hi;
    c.summary = format!(
        "Box plots of the absolute Laplace noise added to the population median (N) and to the \
         sample medians, per ε, over {} runs ({}). Median sizes — {}.",
        sim.config().runs,
        values.choice(p::POPULATION).id(),
        text.join(", ")
    );
    Ok(c)
}

/// `sample-medians` (Figure 11): where the non-private sample medians fall, for the two sample
/// sizes: a histogram of each (the share of runs per bin, as step outlines on one axis), the
/// population median as a dashed line. The paper draws violins; a box plot would span the empty
/// gap between the two modes of the bimodal population and hide the point of the figure, that the
/// sample medians avoid the population median.
pub fn sample_medians(_values: &ParamValues, sim: &Simulation) -> ChartResult {
    needs_full_runs(sim)?;
    let truth = sim.population().median();
    let mut cells = Vec::new();
    for &rate in &VIOLIN_RATES {
        let cl = cell(sim, VIOLIN_EPS[0], rate)?;
        cells.push((cl.n, &cl.sample_median));
    }
    let (mut mn, mut mx) = (truth, truth);
    for v in cells.iter().flat_map(|(_, m)| m.iter()) {
        (mn, mx) = (mn.min(*v), mx.max(*v));
    }
    let pad = (mx - mn).max(1e-9) * 0.05;
    let (lo, hi) = (mn - pad, mx + pad);
    const BINS: usize = 40;
    let width = (hi - lo) / BINS as f64;
    let mut c = chart(
        Axis::numeric("sample median", false, lo, hi),
        Axis::numeric("share of runs", false, 0.0, 1.0),
        LegendCorner::UpperRight,
    );
    let mut top: f64 = 0.0;
    let mut parts = Vec::new();
    for (k, (n, medians)) in cells.iter().enumerate() {
        let mut counts = [0usize; BINS];
        for &v in medians.iter() {
            counts[(((v - lo) / width) as usize).min(BINS - 1)] += 1;
        }
        let total = medians.len().max(1) as f64;
        let mut steps = Vec::with_capacity(2 * BINS);
        for (b, &count) in counts.iter().enumerate() {
            let share = count as f64 / total;
            top = top.max(share);
            steps.push((lo + b as f64 * width, share));
            steps.push((lo + (b + 1) as f64 * width, share));
        }
        c.series.push(Series {
            label: format!("n = {n}"),
            points: steps,
            role: Role::Family(k),
        });
        let near = medians
            .iter()
            .filter(|v| (*v - truth).abs() <= width)
            .count() as f64;
        let below = medians.iter().filter(|v| **v < truth).count() as f64;
        parts.push(format!(
            "n = {n}: {} below it, {} within one bin ({}) of it",
            percent(below / total),
            percent(near / total),
            short_number(width, 2)
        ));
    }
    c.y.max = (top * 1.15).max(1e-3);
    c.series.push(Series {
        label: format!("population median {}", short_number(truth, 4)),
        points: vec![(truth, 0.0), (truth, c.y.max)],
        role: Role::HighlightBound,
    });
    c.summary = format!(
        "Histograms of the sample medians over {} runs ({} population), the share of runs in each \
         of {BINS} bins, for the two sample sizes, with the population median {} as a dashed \
         line. {}.",
        sim.config().runs,
        sim.population().kind.name(),
        short_number(truth, 4),
        parts.join("; ")
    );
    Ok(c)
}

/// `median-mse-vs-rate` (Figures 8 and 13): the empirical MSE of the private sample median against
/// the rate for each ε of the grid, the population as the point at rate 1.
pub fn median_mse_vs_rate(values: &ParamValues, sim: &Simulation) -> ChartResult {
    needs_full_runs(sim)?;
    let mut c = chart(
        Axis::numeric("sampling rate n/N", false, 0.0, 1.03),
        Axis::numeric("mean squared error", true, 1e-3, 1.0),
        LegendCorner::LowerLeft,
    );
    let mut ys = Vec::new();
    let mut gains = Vec::new();
    let mut parts = Vec::new();
    let truth = sim.population().median();
    for (i, &eps) in PAPER_EPSILONS.iter().enumerate() {
        let pts: Vec<(f64, f64)> = sim
            .cells()
            .iter()
            .filter(|cl| cl.epsilon == eps)
            .map(|cl| (cl.rate, cl.mse()))
            .collect();
        // The paper's split of the error (§4.3) at this ε's best rate: the noise's part and the
        // sample medians' own spread.
        if let Some(best) = sim
            .cells()
            .iter()
            .filter(|cl| cl.epsilon == eps)
            .min_by(|a, b| a.mse().total_cmp(&b.mse()))
        {
            let (noise, sampling, _) = best.mse_parts(truth);
            parts.push(format!(
                "ε = {} at rate {}: {} + {}",
                short_number(eps, 2),
                short_number(best.rate, 2),
                short_number(noise, 3),
                short_number(sampling, 3)
            ));
        }
        let pop = sim
            .population_cells()
            .iter()
            .find(|p| p.epsilon == eps)
            .ok_or("no population cell")?;
        ys.extend(pts.iter().map(|p| p.1));
        ys.push(pop.mse());
        if pts.iter().any(|p| p.1 < pop.mse()) {
            gains.push(short_number(eps, 2));
        }
        c.series.push(Series {
            label: format!("ε = {}", short_number(eps, 2)),
            points: pts,
            role: Role::Family(i),
        });
        c.series.push(Series {
            label: String::new(),
            points: vec![(1.0, pop.mse())],
            role: Role::Scatter(i),
        });
    }
    c.series.push(Series {
        label: "dots at rate 1: the population".into(),
        points: vec![],
        role: Role::Scatter(5),
    });
    let (lo, hi) = log_range(ys.iter());
    c.y.min = lo;
    c.y.max = hi;
    c.summary = format!(
        "Empirical mean squared error of the private sample median around the population median, \
         against the sampling rate, for ε from 0.01 to 5 ({} runs, {} population, δ = 1/(2N)); the \
         dots at rate 1 are the private population median. Some rate beats the population for ε \
         in {{{}}}. Each error splits as the paper's §4.3 does, the noise's variance E[Var(η | S)] \
         plus the sample medians' own spread around the population median (their cross term \
         averages to 0); at each ε's best rate: {}.",
        sim.config().runs,
        values.choice(p::POPULATION).id(),
        gains.join(", "),
        parts.join("; ")
    );
    Ok(c)
}
