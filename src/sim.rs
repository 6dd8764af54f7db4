//! Runs the median simulation of Hu, Drechsler & Kim ("Accuracy gains from privacy amplification
//! through sampling for differential privacy") in the browser without freezing it: the work is done
//! in slices of at most [`SLICE_MS`] milliseconds, each followed by a return to the event loop,
//! with progress, cancel, and a cache of finished runs (instant when the reader switches back, and
//! what the live Table 1 reads).

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

use amp_math::median_sim::{SimConfig, Simulation};
use leptos::leptos_dom::helpers::set_timeout;
use leptos::prelude::*;

/// Longest slice of simulation work between returns to the event loop, in milliseconds.
pub const SLICE_MS: f64 = 25.0;

/// Where the simulation stands.
#[derive(Clone, Debug, PartialEq)]
pub enum SimStatus {
    /// Nothing asked for yet.
    Idle,
    /// Working: runs done of runs in all.
    Running {
        /// Runs done.
        done: usize,
        /// Runs in all.
        total: usize,
    },
    /// Finished; the result is in [`SimRunner::result`].
    Done,
    /// Stopped by the reader.
    Cancelled,
    /// The configuration was refused.
    Failed(String),
}

/// The runner, shared through context.
#[derive(Clone, Copy)]
pub struct SimRunner {
    /// Current status.
    pub status: RwSignal<SimStatus>,
    /// The finished simulation for the current configuration.
    pub result: RwSignal<Option<Arc<Simulation>>>,
    /// Finished simulations by configuration (newest last, a few kept).
    pub cache: RwSignal<Vec<Arc<Simulation>>>,
    generation: StoredValue<u64>,
    current: StoredValue<Option<SimConfig>>,
}

/// Finished simulations kept for instant reuse.
const CACHE_SIZE: usize = 6;

fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or(0.0)
}

impl SimRunner {
    /// A runner with nothing started.
    pub fn new() -> SimRunner {
        SimRunner {
            status: RwSignal::new(SimStatus::Idle),
            result: RwSignal::new(None),
            cache: RwSignal::new(Vec::new()),
            generation: StoredValue::new(0),
            current: StoredValue::new(None),
        }
    }

    /// Make sure a simulation for `config` is finished or running. Reuses a cached result; does
    /// nothing when the same configuration is already running or shown.
    pub fn ensure(&self, config: SimConfig) {
        if self.current.get_value().as_ref() == Some(&config)
            && !matches!(
                self.status.get_untracked(),
                SimStatus::Cancelled | SimStatus::Failed(_)
            )
        {
            return;
        }
        self.current.set_value(Some(config.clone()));
        let cached = self
            .cache
            .with_untracked(|c| c.iter().find(|s| s.config() == &config).cloned());
        if let Some(sim) = cached {
            self.generation.update_value(|g| *g += 1);
            self.result.set(Some(sim));
            self.status.set(SimStatus::Done);
            return;
        }
        self.start(config);
    }

    /// Start (or restart) the simulation for `config`, abandoning any running one.
    pub fn start(&self, config: SimConfig) {
        self.generation.update_value(|g| *g += 1);
        let generation = self.generation.get_value();
        self.current.set_value(Some(config.clone()));
        self.result.set(None);
        self.status.set(SimStatus::Running {
            done: 0,
            total: config.runs * config.epsilons.len() * config.rates.len(),
        });
        // Generating the population is itself some work: do it in its own task, not in the one
        // that asked (which may be mounting the page).
        let this = *self;
        set_timeout(
            move || {
                // Superseded, or the app unmounted (its stored values disposed).
                if this.generation.try_get_value() != Some(generation) {
                    return;
                }
                match Simulation::new(config) {
                    Err(e) => this.status.set(SimStatus::Failed(e.to_string())),
                    Ok(sim) => this.schedule(Rc::new(RefCell::new(sim)), generation),
                }
            },
            Duration::from_millis(0),
        );
    }

    /// Stop the running simulation.
    pub fn cancel(&self) {
        if matches!(self.status.get_untracked(), SimStatus::Running { .. }) {
            self.generation.update_value(|g| *g += 1);
            self.status.set(SimStatus::Cancelled);
        }
    }

    /// Start the current configuration again (after a cancel).
    pub fn restart(&self) {
        if let Some(c) = self.current.get_value() {
            self.start(c);
        }
    }

    fn schedule(&self, sim: Rc<RefCell<Simulation>>, generation: u64) {
        let this = *self;
        set_timeout(
            move || this.slice(sim, generation),
            Duration::from_millis(0),
        );
    }

    /// One slice: runs until SLICE_MS have passed, then yields.
    fn slice(&self, sim: Rc<RefCell<Simulation>>, generation: u64) {
        if self.generation.try_get_value() != Some(generation) {
            return; // cancelled, superseded, or the app unmounted
        }
        let start = now();
        crate::browser::mark("sim-slice-start");
        let progress = loop {
            let p = sim.borrow_mut().step(8);
            if p.finished() || now() - start >= SLICE_MS {
                break p;
            }
        };
        // Each slice is measured, so benchmarks (and profilers) see how long the page was busy.
        crate::browser::measure("sim-slice", "sim-slice-start");
        if progress.finished() {
            let done = match Rc::try_unwrap(sim) {
                Ok(cell) => cell.into_inner(),
                Err(rc) => rc.borrow().clone(),
            };
            let done = Arc::new(done);
            self.cache.update(|c| {
                c.retain(|s| s.config() != done.config());
                c.push(done.clone());
                if c.len() > CACHE_SIZE {
                    c.remove(0);
                }
            });
            self.result.set(Some(done));
            self.status.set(SimStatus::Done);
        } else {
            self.status.set(SimStatus::Running {
                done: progress.done,
                total: progress.total,
            });
            self.schedule(sim, generation);
        }
    }
}

impl Default for SimRunner {
    fn default() -> Self {
        SimRunner::new()
    }
}
