//! The median simulation of Hu, Drechsler & Kim, "Accuracy gains from privacy amplification through
//! sampling for differential privacy" (Sections 2.4, 4.3–4.4, Appendix B).
//!
//! A population of N records (odd) is generated from a seed. For each ε of a grid and each
//! sampling rate, T runs: draw a simple random sample of n records without replacement, take its
//! median, and privatize it with Laplace noise of scale 2S/ε_n, where S is the sample median's
//! smooth sensitivity ([`crate::median`]) at the amplified (ε_n, δ_n) of Theorem 1; the population
//! median is privatized the same way at (ε, δ), δ = 1/(2N). Outputs per cell: the ratio of the
//! sample's to the population's smooth sensitivity, the noise drawn, the sample median, and the
//! mean squared error of the private estimate around the population median.
//!
//! Sample sizes: n = 2⌊rate·N/2⌋ + 1 (the odd size nearest below, as the paper's 101 and 1001 for
//! N = 10001 at rates 0.01 and 0.1), at least 1.
//!
//! Reproducibility: every stream is seeded from (seed, what it is for, ε, sample size) by
//! [`crate::rng::derive_seed`], so a cell's numbers do not depend on which other cells run, in which
//! order, or in how many chunks; the app and the CLI print the same numbers for the same seed.
//!
//! The work is resumable ([`Simulation::step`] does a bounded number of runs), so the browser can
//! run it in short slices without freezing.

use crate::median::{smooth_sensitivity, smooth_sensitivity_with, smoothing_beta, SmoothWeights};
use crate::rng::{derive_seed, Rng};
use crate::subsampling::base_epsilon;
use crate::MathError;

/// The populations of Hu, Drechsler & Kim.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Population {
    /// Log-normal(μ = 5, σ = 0.5) (Section 4.3): skewed, dense around the median.
    LogNormal,
    /// Appendix B: (N+1)/2 draws of Beta(2, 10)/2 and (N−1)/2 draws of Beta(2, 10) + 1, rescaled
    /// to [0, 1]; the median is the largest value of the first component, in a sparse gap.
    Bimodal,
    /// Beta(2, 10) (Section 2.4).
    Beta,
}

impl Population {
    /// All populations in display order.
    pub const ALL: [Population; 3] = [Population::LogNormal, Population::Bimodal, Population::Beta];

    /// Machine name.
    pub fn id(self) -> &'static str {
        match self {
            Population::LogNormal => "lognormal",
            Population::Bimodal => "bimodal",
            Population::Beta => "beta",
        }
    }

    /// The distribution as the paper names it, for labels.
    pub fn name(self) -> &'static str {
        match self {
            Population::LogNormal => "Lognormal(5, 0.5)",
            Population::Bimodal => "bimodal",
            Population::Beta => "Beta(2, 10)",
        }
    }

    /// Parse a machine name.
    pub fn from_id(s: &str) -> Option<Population> {
        Population::ALL.into_iter().find(|p| p.id() == s)
    }

    /// The public range [lo, hi] assumed known before looking at the data (used for order
    /// statistics beyond the data). Log-normal: [0, e^{μ+8σ}] = [0, e^9], which a log-normal(5, 0.5)
    /// exceeds with probability 6e-16 per record; the other two are rescaled to [0, 1].
    pub fn range(self) -> (f64, f64) {
        match self {
            Population::LogNormal => (0.0, libm::exp(9.0)),
            Population::Bimodal | Population::Beta => (0.0, 1.0),
        }
    }
}

/// A generated population, sorted.
#[derive(Clone, Debug, PartialEq)]
pub struct PopulationData {
    /// Which distribution.
    pub kind: Population,
    /// The values, ascending.
    pub sorted: Vec<f64>,
    /// Public range [lo, hi].
    pub range: (f64, f64),
}

impl PopulationData {
    /// The population median (N odd).
    pub fn median(&self) -> f64 {
        self.sorted[self.sorted.len() / 2]
    }
}

/// Largest population accepted (memory and time in the browser).
pub const MAX_POPULATION: usize = 1_000_001;

/// Generate N values (N odd, 3 ≤ N ≤ 1,000,001) of `kind` from `seed`, sorted.
pub fn generate_population(
    kind: Population,
    n: usize,
    seed: u64,
) -> Result<PopulationData, MathError> {
    if !(3..=MAX_POPULATION).contains(&n) || n.is_multiple_of(2) {
        return Err(MathError::OutOfDomain {
            name: "N",
            value: n as f64,
            expected: "an odd whole number from 3 to 1,000,001",
        });
    }
    let mut rng = Rng::new(derive_seed(seed, &[0x0050_4F50]));
    let mut v: Vec<f64> = match kind {
        Population::LogNormal => (0..n)
            .map(|_| libm::exp(5.0 + 0.5 * rng.normal()))
            .collect(),
        Population::Beta => (0..n).map(|_| rng.beta(2.0, 10.0)).collect(),
        Population::Bimodal => {
            let first = n.div_ceil(2);
            let mut v: Vec<f64> = (0..first).map(|_| rng.beta(2.0, 10.0) / 2.0).collect();
            v.extend((first..n).map(|_| rng.beta(2.0, 10.0) + 1.0));
            let (mn, mx) = v
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
                    (a.min(x), b.max(x))
                });
            v.iter().map(|x| (x - mn) / (mx - mn)).collect()
        }
    };
    let (lo, hi) = kind.range();
    for x in &mut v {
        *x = x.clamp(lo, hi);
    }
    crate::sort_floats(&mut v);
    Ok(PopulationData {
        kind,
        sorted: v,
        range: (lo, hi),
    })
}

/// The odd sample size used at a sampling rate: 2⌊rate·N/2⌋ + 1, at most N.
pub fn sample_size(rate: f64, population: usize) -> usize {
    ((2.0 * (rate * population as f64 / 2.0).floor()) as usize + 1).min(population)
}

/// A uniformly random subset of size n of 0..N, as a bitset, by Floyd's algorithm (Bentley &
/// Floyd 1987): O(min(n, N − n)) draws (the complement is drawn when n > N/2).
fn random_subset(rng: &mut Rng, n: usize, total: usize, words: &mut Vec<u64>) {
    words.clear();
    words.resize(total.div_ceil(64), 0);
    let (k, invert) = if 2 * n > total {
        (total - n, true)
    } else {
        (n, false)
    };
    let test = |w: &Vec<u64>, i: usize| w[i / 64] >> (i % 64) & 1 == 1;
    for j in (total - k)..total {
        let t = rng.below(j as u64 + 1) as usize;
        let pick = if test(words, t) { j } else { t };
        words[pick / 64] |= 1 << (pick % 64);
    }
    if invert {
        for w in words.iter_mut() {
            *w = !*w;
        }
        let extra = words.len() * 64 - total;
        if extra > 0 {
            let last = words.len() - 1;
            words[last] &= u64::MAX >> extra;
        }
    }
}

/// The population indices of the sample's order statistics with ranks lo..=hi (1-based).
fn ranks(words: &[u64], lo: usize, hi: usize, out: &mut Vec<usize>) {
    out.clear();
    let mut seen = 0usize;
    for (wi, &w) in words.iter().enumerate() {
        let c = w.count_ones() as usize;
        if seen + c < lo {
            seen += c;
            continue;
        }
        let mut bits = w;
        while bits != 0 {
            let b = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            seen += 1;
            if seen >= lo {
                out.push(wi * 64 + b);
                if seen == hi {
                    return;
                }
            }
        }
    }
}

/// One simulated cell: an ε, a sampling rate, and what its runs gave.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// Target ε for the release.
    pub epsilon: f64,
    /// Sampling rate n/N as requested.
    pub rate: f64,
    /// Sample size.
    pub n: usize,
    /// Amplified ε_n.
    pub epsilon_n: f64,
    /// Amplified δ_n.
    pub delta_n: f64,
    /// Per run: sample smooth sensitivity / population smooth sensitivity.
    pub sensitivity_ratio: Vec<f64>,
    /// Per run: the Laplace noise added to the sample median.
    pub noise: Vec<f64>,
    /// Per run: the (non-private) sample median.
    pub sample_median: Vec<f64>,
    /// Sum of squared errors of the private sample median around the population median.
    pub sum_sq_error: f64,
}

impl Cell {
    /// Empirical mean squared error over the runs done so far.
    pub fn mse(&self) -> f64 {
        self.sum_sq_error / self.noise.len().max(1) as f64
    }

    /// The mean squared error split as in Hu, Drechsler & Kim, §4.3: the private sample median is
    /// m_n + η_n, so its squared error around the population median M averages to
    ///
    /// E[η_n²] + E[(m_n − M)²] + 2·E[η_n·(m_n − M)],
    ///
    /// the noise part (the paper's E[Var(η_n | S)]: the Laplace noise has mean 0 given the sample),
    /// the sampling part (Var(m_n), plus the sample median's squared bias) and a cross term that
    /// is 0 in expectation because the noise is drawn independently given the sample. Returns the
    /// three empirical averages over the runs done so far (their sum is [`Cell::mse`] up to
    /// rounding). Exact for the runs; an estimate of the expectations.
    pub fn mse_parts(&self, population_median: f64) -> (f64, f64, f64) {
        let runs = self.noise.len().max(1) as f64;
        let (mut noise, mut sampling, mut cross) = (0.0, 0.0, 0.0);
        for (&eta, &m) in self.noise.iter().zip(&self.sample_median) {
            let d = m - population_median;
            noise += eta * eta;
            sampling += d * d;
            cross += 2.0 * eta * d;
        }
        (noise / runs, sampling / runs, cross / runs)
    }
}

/// The privatized population median at one ε.
#[derive(Clone, Debug, PartialEq)]
pub struct PopulationCell {
    /// Target ε.
    pub epsilon: f64,
    /// Smooth sensitivity of the population median at (ε, δ).
    pub sensitivity: f64,
    /// Per run: the noise added.
    pub noise: Vec<f64>,
}

impl PopulationCell {
    /// Empirical mean squared error (the noise's mean square).
    pub fn mse(&self) -> f64 {
        self.noise.iter().map(|x| x * x).sum::<f64>() / self.noise.len().max(1) as f64
    }
}

/// Runs per cell: 1 to [`MAX_RUNS`].
fn check_runs(runs: usize) -> Result<(), MathError> {
    if runs == 0 || runs > MAX_RUNS {
        return Err(MathError::OutOfDomain {
            name: "runs",
            value: runs as f64,
            expected: "a whole number from 1 to 100,000",
        });
    }
    Ok(())
}

/// A release's ε: finite and above 0.
fn check_positive_epsilon(eps: f64) -> Result<(), MathError> {
    crate::check_epsilon("ε", eps)?;
    if eps == 0.0 {
        return Err(MathError::OutOfDomain {
            name: "ε",
            value: 0.0,
            expected: "above 0",
        });
    }
    Ok(())
}

/// The population median privatized `runs` times at (ε, δ = 1/(2N)) with Laplace noise of scale
/// 2S/ε, S its smooth sensitivity (Hu, Drechsler & Kim, eq. 4). Its stream is seeded by (seed, ε)
/// alone, so [`Simulation`] and [`private_releases`] draw the same noise. ε must be above 0
/// (checked by the callers).
fn population_cell(pop: &PopulationData, eps: f64, seed: u64, runs: usize) -> PopulationCell {
    let delta = 1.0 / (2.0 * pop.sorted.len() as f64);
    let (lo, hi) = pop.range;
    let s = smooth_sensitivity(&pop.sorted, smoothing_beta(eps, delta), lo, hi);
    let mut rng = Rng::new(derive_seed(seed, &[0x504F_5043, eps.to_bits()]));
    PopulationCell {
        epsilon: eps,
        sensitivity: s,
        noise: (0..runs).map(|_| rng.laplace(2.0 * s / eps)).collect(),
    }
}

/// The whole population's mean and median released `runs` times at one ε: Hu, Drechsler & Kim's
/// Figure 1 (right; the mean) and Figure 2 (the median, left with global and right with smooth
/// sensitivity).
#[derive(Clone, Debug, PartialEq)]
pub struct PrivateReleases {
    /// Target ε.
    pub epsilon: f64,
    /// The population mean ȳ_N (what the private means estimate).
    pub mean: f64,
    /// The population median.
    pub median: f64,
    /// Per run: ȳ_N + Laplace(R/(N·ε)), R = hi − lo the public range (global sensitivity R/N,
    /// eq. 6; pure ε-DP, replace one).
    pub mean_global: Vec<f64>,
    /// Per run: median + Laplace(R/ε) (the median's global sensitivity is the whole range R;
    /// pure ε-DP, replace one).
    pub median_global: Vec<f64>,
    /// Per run: median + Laplace(2S/ε), S the smooth sensitivity at δ = 1/(2N) ((ε, δ)-DP); the
    /// same draws as [`Simulation`]'s population cell at this ε and seed.
    pub median_smooth: Vec<f64>,
}

/// [`PrivateReleases`] at ε > 0 for `runs` (1 to [`MAX_RUNS`]) runs. Exact sampling of the stated
/// mechanisms (the draws are pseudo-random from `seed`); each estimator has its own stream.
pub fn private_releases(
    pop: &PopulationData,
    eps: f64,
    seed: u64,
    runs: usize,
) -> Result<PrivateReleases, MathError> {
    check_positive_epsilon(eps)?;
    check_runs(runs)?;
    let big_n = pop.sorted.len() as f64;
    let range = pop.range.1 - pop.range.0;
    let mean = pop.sorted.iter().sum::<f64>() / big_n;
    let median = pop.median();
    let draw = |tag: u64, centre: f64, scale: f64| -> Vec<f64> {
        let mut rng = Rng::new(derive_seed(seed, &[tag, eps.to_bits()]));
        (0..runs).map(|_| centre + rng.laplace(scale)).collect()
    };
    let smooth = population_cell(pop, eps, seed, runs);
    Ok(PrivateReleases {
        epsilon: eps,
        mean,
        median,
        mean_global: draw(0x4D45_414E, mean, range / (big_n * eps)),
        median_global: draw(0x4D45_4447, median, range / eps),
        median_smooth: smooth.noise.iter().map(|z| median + z).collect(),
    })
}

/// What to simulate.
#[derive(Clone, Debug, PartialEq)]
pub struct SimConfig {
    /// Population distribution.
    pub population: Population,
    /// Population size N (odd).
    pub population_size: usize,
    /// Base seed.
    pub seed: u64,
    /// Runs T per cell.
    pub runs: usize,
    /// Target ε values.
    pub epsilons: Vec<f64>,
    /// Sampling rates (each gives n = 2⌊rate·N/2⌋ + 1).
    pub rates: Vec<f64>,
}

/// The grid of Hu, Drechsler & Kim's Figures 8 and 13: ε ∈ {0.01, 0.1, 0.5, 1, 3, 5}.
pub const PAPER_EPSILONS: [f64; 6] = [0.01, 0.1, 0.5, 1.0, 3.0, 5.0];
/// Sampling rates of Figures 8 and 13: 0.01, 0.1, 0.2, …, 0.9.
pub const PAPER_RATES: [f64; 10] = [0.01, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];

/// Largest number of runs per cell accepted.
pub const MAX_RUNS: usize = 100_000;

/// A resumable simulation.
#[derive(Clone, Debug)]
pub struct Simulation {
    config: SimConfig,
    population: PopulationData,
    delta: f64,
    pop_cells: Vec<PopulationCell>,
    cells: Vec<Cell>,
    rngs: Vec<Rng>,
    weights: Vec<SmoothWeights>,
    next_cell: usize,
    words: Vec<u64>,
    idx: Vec<usize>,
    window: Vec<f64>,
    scratch: Vec<f64>,
}

/// How far a simulation has got.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// Runs done.
    pub done: usize,
    /// Runs in all.
    pub total: usize,
}

impl Progress {
    /// Whether everything has run.
    pub fn finished(&self) -> bool {
        self.done >= self.total
    }
}

impl Simulation {
    /// Generate the population and the population-level results (cheap), ready to step.
    pub fn new(config: SimConfig) -> Result<Simulation, MathError> {
        check_runs(config.runs)?;
        let population =
            generate_population(config.population, config.population_size, config.seed)?;
        let big_n = population.sorted.len();
        let delta = 1.0 / (2.0 * big_n as f64);
        let mut pop_cells = Vec::new();
        for &eps in &config.epsilons {
            check_positive_epsilon(eps)?;
            pop_cells.push(population_cell(&population, eps, config.seed, config.runs));
        }
        let mut cells = Vec::new();
        let mut rngs = Vec::new();
        let mut weights = Vec::new();
        for &eps in &config.epsilons {
            for &rate in &config.rates {
                if !(rate > 0.0 && rate <= 1.0) {
                    return Err(MathError::OutOfDomain {
                        name: "rate",
                        value: rate,
                        expected: "above 0 and at most 1",
                    });
                }
                let n = sample_size(rate, big_n);
                let p = n as f64 / big_n as f64;
                let epsilon_n = base_epsilon(eps, p)?;
                let delta_n = (delta / p).min(0.5);
                weights.push(SmoothWeights::new(smoothing_beta(epsilon_n, delta_n), 0));
                cells.push(Cell {
                    epsilon: eps,
                    rate,
                    n,
                    epsilon_n,
                    delta_n,
                    sensitivity_ratio: Vec::with_capacity(config.runs),
                    noise: Vec::with_capacity(config.runs),
                    sample_median: Vec::with_capacity(config.runs),
                    sum_sq_error: 0.0,
                });
                // Seeded by (ε, n), not by the rate: a cell asked for by its sample size (the
                // CLI's --n) draws exactly the samples the app's grid draws for that size.
                rngs.push(Rng::new(derive_seed(
                    config.seed,
                    &[0x4345_4C4C, eps.to_bits(), n as u64],
                )));
            }
        }
        Ok(Simulation {
            config,
            population,
            delta,
            pop_cells,
            cells,
            rngs,
            weights,
            next_cell: 0,
            words: Vec::new(),
            idx: Vec::new(),
            window: Vec::new(),
            scratch: Vec::new(),
        })
    }

    /// The configuration.
    pub fn config(&self) -> &SimConfig {
        &self.config
    }

    /// The generated population.
    pub fn population(&self) -> &PopulationData {
        &self.population
    }

    /// δ = 1/(2N).
    pub fn delta(&self) -> f64 {
        self.delta
    }

    /// Results per ε for the population.
    pub fn population_cells(&self) -> &[PopulationCell] {
        &self.pop_cells
    }

    /// Results per (ε, rate) so far.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// Runs done and in all.
    pub fn progress(&self) -> Progress {
        Progress {
            done: self.cells.iter().map(|c| c.noise.len()).sum(),
            total: self.cells.len() * self.config.runs,
        }
    }

    /// Do up to `budget` runs (cells in order, each cell's runs in order), then return.
    pub fn step(&mut self, budget: usize) -> Progress {
        let mut left = budget;
        while left > 0 && self.next_cell < self.cells.len() {
            let ci = self.next_cell;
            let todo = self.config.runs - self.cells[ci].noise.len();
            let now = todo.min(left);
            for _ in 0..now {
                self.run_once(ci);
            }
            left -= now;
            if self.cells[ci].noise.len() == self.config.runs {
                self.next_cell += 1;
            }
        }
        self.progress()
    }

    /// Run everything to the end.
    pub fn run_to_end(&mut self) {
        while !self.step(1 << 20).finished() {}
    }

    fn run_once(&mut self, ci: usize) {
        let big_n = self.population.sorted.len();
        let (lo, hi) = self.population.range;
        let (n, eps_n, eps) = {
            let c = &self.cells[ci];
            (c.n, c.epsilon_n, c.epsilon)
        };
        let beta = self.weights[ci].beta();
        let rng = &mut self.rngs[ci];
        random_subset(rng, n, big_n, &mut self.words);
        let m = n.div_ceil(2);
        // First the three order statistics around the median, for the reach of the search.
        ranks(
            &self.words,
            m.saturating_sub(1).max(1),
            (m + 1).min(n),
            &mut self.idx,
        );
        let pop = &self.population.sorted;
        let y = |r: usize, base: usize, idx: &[usize]| pop[idx[r - base]];
        let base = m.saturating_sub(1).max(1);
        let at = |r: usize| -> f64 {
            if r < 1 {
                lo
            } else if r > n {
                hi
            } else {
                y(r, base, &self.idx)
            }
        };
        let median = at(m);
        let s0 = (at(m + 1) - median).max(median - at(m - 1));
        let reach = if s0 > 0.0 && hi - lo > s0 {
            (crate::special::ln((hi - lo) / s0) / beta)
                .ceil()
                .min(n as f64) as usize
        } else {
            n
        };
        let r_lo = m.saturating_sub(reach + 1).max(1);
        let r_hi = (m + reach + 1).min(n);
        ranks(&self.words, r_lo, r_hi, &mut self.idx);
        self.window.clear();
        self.window.extend(self.idx.iter().map(|&i| pop[i]));
        let window = &self.window;
        let s = smooth_sensitivity_with(
            n,
            |r| window[r - r_lo],
            &mut self.weights[ci],
            lo,
            hi,
            &mut self.scratch,
        );
        let noise = rng.laplace(2.0 * s / eps_n);
        let pop_s = self
            .pop_cells
            .iter()
            .find(|p| p.epsilon == eps)
            .map(|p| p.sensitivity)
            .unwrap_or(f64::NAN);
        let truth = self.population.median();
        let c = &mut self.cells[ci];
        c.sensitivity_ratio.push(s / pop_s);
        c.noise.push(noise);
        c.sample_median.push(median);
        let err = median + noise - truth;
        c.sum_sq_error += err * err;
    }
}

/// Quantiles of a sample at probabilities `ps` (linear interpolation between order statistics, the
/// "type 7" rule of R and NumPy). Non-finite values are ignored; an empty sample gives NaNs.
pub fn quantiles(values: &[f64], ps: &[f64]) -> Vec<f64> {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return vec![f64::NAN; ps.len()];
    }
    crate::sort_floats(&mut v);
    ps.iter()
        .map(|&p| {
            let h = (v.len() - 1) as f64 * p.clamp(0.0, 1.0);
            let (i, f) = (h.floor() as usize, h - h.floor());
            if i + 1 < v.len() {
                v[i] + f * (v[i + 1] - v[i])
            } else {
                v[i]
            }
        })
        .collect()
}

/// Minimum, quartiles and maximum (see [`quantiles`]).
pub fn five_numbers(values: &[f64]) -> [f64; 5] {
    let q = quantiles(values, &[0.0, 0.25, 0.5, 0.75, 1.0]);
    [q[0], q[1], q[2], q[3], q[4]]
}

#[cfg(test)]
// Tests compare against std's functions on purpose (an independent computation).
#[allow(clippy::disallowed_methods)]
mod tests;
