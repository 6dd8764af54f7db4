//! The accuracy page's model (Hu, Drechsler & Kim, "Accuracy gains from privacy
//! amplification through sampling for differential privacy"): the median simulation the reader's
//! values describe, the live Table 1 read from a finished simulation, and ε_n at the reader's
//! setting. Sampling without replacement, replace-one neighbours.

use crate::ModelError;
use amp_math::accuracy::epsilon_n;
use amp_math::median_sim::{SimConfig, Simulation, PAPER_EPSILONS, PAPER_RATES};

use crate::param as p;
use crate::params::ParamValues;

/// The simulation the figures of this page read: the reader's population, N, runs and seed, over
/// the paper's grid of ε and sampling rates.
pub fn sim_config(values: &ParamValues) -> Result<SimConfig, ModelError> {
    let population = values.choice(p::POPULATION);
    Ok(SimConfig {
        population,
        population_size: values.count(p::POPULATION_SIZE) as usize,
        seed: values.count(p::SEED),
        runs: values.count(p::RUNS) as usize,
        epsilons: PAPER_EPSILONS.to_vec(),
        rates: PAPER_RATES.to_vec(),
    })
}

/// One row of the live Table 1: for one ε, the population's MSE, the best sample MSE and its rate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GainRow {
    /// Target ε.
    pub epsilon: f64,
    /// MSE of the private population median.
    pub population_mse: f64,
    /// Smallest MSE of a private sample median over the rates.
    pub best_mse: f64,
    /// The rate that gave it.
    pub best_rate: f64,
}

impl GainRow {
    /// Whether sampling first was more accurate.
    pub fn gain(&self) -> bool {
        self.best_mse < self.population_mse
    }
}

/// Table 1 of Hu, Drechsler & Kim, live: one row per ε of the grid.
pub fn gain_table(sim: &Simulation) -> Vec<GainRow> {
    sim.population_cells()
        .iter()
        .map(|p| {
            let (best_mse, best_rate) = sim
                .cells()
                .iter()
                .filter(|c| c.epsilon == p.epsilon)
                .map(|c| (c.mse(), c.rate))
                .fold(
                    (f64::INFINITY, f64::NAN),
                    |a, b| if b.0 < a.0 { b } else { a },
                );
            GainRow {
                epsilon: p.epsilon,
                population_mse: p.mse(),
                best_mse,
                best_rate,
            }
        })
        .collect()
}

/// ε_n of the reader's setting, exposed for readouts and the CLI.
pub fn reader_epsilon_n(values: &ParamValues) -> Result<f64, ModelError> {
    epsilon_n(values.real(p::EPS), values.real(p::RATE)).map_err(ModelError::from)
}
