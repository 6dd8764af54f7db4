//! `amplify median-sim`: one cell of the median simulation of Hu, Drechsler & Kim ("Accuracy gains
//! from privacy amplification through sampling for differential privacy"), the same numbers the
//! accuracy page draws for that ε and sample size (seeded; native and wasm agree bit for bit).

use amp_math::median_sim::{quantiles, Simulation};
use amp_model::accuracy::sim_config;
use amp_model::param as p;
use clap::{ArgMatches, Command};
use serde::Serialize;

use crate::args::{self, on};
use crate::output::{emit, finite};

pub fn command() -> Command {
    Command::new("median-sim")
        .about("One cell of the private-median simulation: sample size n of N at ε")
        .arg(args::param(p::POPULATION))
        .arg(args::required(p::EPS))
        .arg(args::required(p::N))
        .arg(args::param(p::POPULATION_SIZE))
        .arg(args::param(p::RUNS))
        .arg(args::param(p::SEED))
        .arg(args::json())
}

#[derive(Serialize)]
struct Record {
    epsilon_n: f64,
    delta_n: f64,
    sensitivity_ratio_q1: f64,
    sensitivity_ratio_median: f64,
    sensitivity_ratio_q3: f64,
    noise_magnitude_q1: f64,
    noise_magnitude_median: f64,
    noise_magnitude_q3: f64,
    mse_sample: f64,
    mse_population: f64,
    population_median: f64,
    relation: &'static str,
}

pub fn run(m: &ArgMatches) -> Result<String, String> {
    let v = args::values(m)?;
    let big_n = v.count(p::POPULATION_SIZE) as usize;
    let n = v.count(p::N) as usize;
    if n.is_multiple_of(2) || n > big_n {
        return Err(format!(
            "--n must be an odd sample size at most N = {big_n} (the median of an odd count)"
        ));
    }
    let mut config = sim_config(&v)?;
    config.epsilons = vec![v.real(p::EPS)];
    config.rates = vec![n as f64 / big_n as f64];
    let mut sim = Simulation::new(config).map_err(|e| e.to_string())?;
    sim.run_to_end();
    let cell = &sim.cells()[0];
    if cell.n != n {
        return Err(format!("internal: sample size {} instead of {n}", cell.n));
    }
    let pop = &sim.population_cells()[0];
    let q = |xs: &[f64]| quantiles(xs, &[0.25, 0.5, 0.75]);
    let ratio = q(&cell.sensitivity_ratio);
    let mags: Vec<f64> = cell.noise.iter().map(|x| x.abs()).collect();
    let noise = q(&mags);
    let record = Record {
        epsilon_n: finite("epsilon_n", cell.epsilon_n)?,
        delta_n: finite("delta_n", cell.delta_n)?,
        sensitivity_ratio_q1: finite("sensitivity_ratio_q1", ratio[0])?,
        sensitivity_ratio_median: finite("sensitivity_ratio_median", ratio[1])?,
        sensitivity_ratio_q3: finite("sensitivity_ratio_q3", ratio[2])?,
        noise_magnitude_q1: finite("noise_magnitude_q1", noise[0])?,
        noise_magnitude_median: finite("noise_magnitude_median", noise[1])?,
        noise_magnitude_q3: finite("noise_magnitude_q3", noise[2])?,
        mse_sample: finite("mse_sample", cell.mse())?,
        mse_population: finite("mse_population", pop.mse())?,
        population_median: finite("population_median", sim.population().median())?,
        relation: amp_math::accuracy::RELATION.id(),
    };
    emit(&record, on(m, "json"))
}
