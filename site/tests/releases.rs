//! `private-estimates` (Hu, Drechsler & Kim, "Accuracy gains from privacy amplification through
//! sampling for differential privacy", Figure 1 right and Figure 2): the drawn boxes against the
//! Laplace distribution's own quantiles, computed here.
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here

use amp_model::params::ParamValues;
use amp_site::figures::{Chart, FigureId};

fn chart(pairs: &[(&str, &str)]) -> Chart {
    let mut v = ParamValues::default();
    for (k, x) in pairs {
        let spec = amp_model::param::by_name(k).unwrap();
        v.set(spec, spec.parse(x).unwrap()).unwrap();
    }
    FigureId::PrivateEstimates.spec().chart(&v).unwrap()
}

#[test]
fn boxes_follow_the_laplace_quantiles_of_each_release() {
    // The paper's setting: Beta(2, 10), N = 10001, 1000 runs, on [0, 1] (R = 1).
    let c = chart(&[
        ("estimates-population", "beta"),
        ("N", "10001"),
        ("runs", "1000"),
        ("seed", "1"),
    ]);
    assert_eq!(c.boxes.len(), 9);
    assert_eq!(c.x.categories.len(), 3);
    // |Laplace(b)| is exponential with mean b: its quantile at u is −b·ln(1 − u).
    let q = |b: f64, u: f64| -b * (1.0 - u).ln();
    for (i, eps) in [0.1, 0.5, 1.0].into_iter().enumerate() {
        let mean_box = &c.boxes[3 * i];
        let gs_box = &c.boxes[3 * i + 1];
        let ss_box = &c.boxes[3 * i + 2];
        for (b, scale, what) in [
            (mean_box, 1.0 / (10_001.0 * eps), "mean"),
            (gs_box, 1.0 / eps, "median GS"),
        ] {
            // Quartiles and median to 15%, the 97.5% whisker to 20% (1000 draws).
            for (k, u, tol) in [
                (1, 0.25, 0.15),
                (2, 0.5, 0.15),
                (3, 0.75, 0.15),
                (4, 0.975, 0.2),
            ] {
                let want = q(scale, u);
                assert!(
                    (b.stats[k] / want - 1.0).abs() < tol,
                    "{what}, ε {eps}, quantile {u}: {} vs {want}",
                    b.stats[k]
                );
            }
        }
        // Smooth sensitivity: far below global (Figure 2's point), and the mean's error far below
        // both (Figure 1: its sensitivity is R/N).
        assert!(ss_box.stats[2] < gs_box.stats[2] / 10.0, "ε {eps}");
        assert!(mean_box.stats[2] < ss_box.stats[2], "ε {eps}");
    }
    // The paper: at ε = 0.1 the global-sensitivity medians range "from about −50 to 100"; ours
    // spread over tens in both directions too.
    let span = c
        .summary
        .split("range from ")
        .nth(1)
        .and_then(|t| t.split(" at ε = 0.1").next())
        .unwrap();
    let (lo, hi) = span.split_once(" to ").unwrap();
    let (lo, hi): (f64, f64) = (lo.parse().unwrap(), hi.parse().unwrap());
    assert!(lo < -25.0 && hi > 25.0 && hi - lo < 250.0, "{span}");
    // The reference line is the data's whole range.
    let line = c
        .series
        .iter()
        .find(|s| s.label.contains("whole range"))
        .unwrap();
    assert_eq!(line.points[0].1, 1.0);
}

#[test]
fn figures_1_and_2_default_to_the_papers_beta_population_not_the_simulations() {
    // The paper draws Figures 1 and 2 from Beta(2, 10) (Section 2.4) and simulates the median on
    // the log-normal (Section 4.3): each default follows its own figure.
    let c = chart(&[]);
    assert!(c.summary.contains("whole beta population"), "{}", c.summary);
    assert!(c.summary.contains("inside [0, 1]"), "{}", c.summary);
    let sim = amp_model::param::by_name("population").unwrap();
    assert_eq!(
        sim.format(ParamValues::default().get(sim)),
        "lognormal",
        "the simulation's population stays the log-normal"
    );
    // And the figure follows its own control, not the simulation's.
    let ln = chart(&[("estimates-population", "lognormal")]);
    assert!(
        ln.summary.contains("whole lognormal population"),
        "{}",
        ln.summary
    );
}

/// `median-mse-vs-rate` splits each ε's best error as Hu, Drechsler & Kim do in §4.3: the noise's
/// variance plus the sample medians' spread. Recomputed here from the simulation's raw draws.
#[test]
fn the_error_split_in_the_caption_is_the_noise_and_the_sampling_parts() {
    use amp_math::median_sim::Population;
    use amp_math::median_sim::{SimConfig, Simulation, PAPER_EPSILONS, PAPER_RATES};
    let pairs = [("N", "1001"), ("runs", "60"), ("seed", "5")];
    let mut v = ParamValues::default();
    for (k, x) in pairs {
        let spec = amp_model::param::by_name(k).unwrap();
        v.set(spec, spec.parse(x).unwrap()).unwrap();
    }
    let c = FigureId::MedianMseVsRate.spec().chart(&v).unwrap();
    let mut sim = Simulation::new(SimConfig {
        population: Population::LogNormal,
        population_size: 1001,
        seed: 5,
        runs: 60,
        epsilons: PAPER_EPSILONS.to_vec(),
        rates: PAPER_RATES.to_vec(),
    })
    .unwrap();
    sim.run_to_end();
    let truth = sim.population().median();
    let after = c.summary.split("best rate: ").nth(1).expect(&c.summary);
    let items: Vec<&str> = after.trim_end_matches('.').split("; ").collect();
    assert_eq!(items.len(), PAPER_EPSILONS.len(), "{after}");
    for (item, &eps) in items.iter().zip(&PAPER_EPSILONS) {
        let cells: Vec<_> = sim.cells().iter().filter(|c| c.epsilon == eps).collect();
        let mse = |c: &&amp_math::median_sim::Cell| {
            c.noise
                .iter()
                .zip(&c.sample_median)
                .map(|(e, m)| (m + e - truth).powi(2))
                .sum::<f64>()
                / c.noise.len() as f64
        };
        let best = cells
            .iter()
            .min_by(|a, b| mse(a).total_cmp(&mse(b)))
            .unwrap();
        let noise = best.noise.iter().map(|e| e * e).sum::<f64>() / best.noise.len() as f64;
        let sampling = best
            .sample_median
            .iter()
            .map(|m| (m - truth).powi(2))
            .sum::<f64>()
            / best.noise.len() as f64;
        // "ε = e at rate r: noise + sampling", numbers to three significant digits.
        let (_, nums) = item.split_once(": ").expect(item);
        let (a, b) = nums.split_once(" + ").expect(item);
        let parse = |s: &str| amp_format::parse_f64(s.trim()).expect(s);
        for (shown, want) in [(parse(a), noise), (parse(b), sampling)] {
            assert!(
                (shown / want - 1.0).abs() < 6e-3,
                "{item}: {shown} vs {want}"
            );
        }
        assert!(
            item.contains(&format!("rate {}", best.rate)),
            "{item} vs {}",
            best.rate
        );
    }
}

/// `sample-medians` (Figure 11) shows what the paper shows for the bimodal population: the sample
/// medians fall in the two modes, and the bin holding the population median (in the gap between
/// them) is nearly empty. The bin at the median is recounted from the simulation's raw sample
/// medians and checked against the chart's histogram.
#[test]
fn sample_medians_avoid_the_bimodal_population_median() {
    use amp_math::median_sim::{Population, Simulation};
    let pairs = [
        ("N", "10001"),
        ("runs", "200"),
        ("seed", "3"),
        ("population", "bimodal"),
    ];
    let mut v = ParamValues::default();
    for (k, x) in pairs {
        let spec = amp_model::param::by_name(k).unwrap();
        v.set(spec, spec.parse(x).unwrap()).unwrap();
    }
    let mut sim = Simulation::new(amp_model::accuracy::sim_config(&v).unwrap()).unwrap();
    sim.run_to_end();
    assert_eq!(sim.population().kind, Population::Bimodal);
    let c = FigureId::SampleMedians
        .spec()
        .chart_with(&v, Some(&sim))
        .unwrap();
    let truth = sim.population().median();
    for rate in [0.1, 0.01] {
        // The figure draws the cells at ε = 0.1 (each cell draws its own samples).
        let cell = sim
            .cells()
            .iter()
            .find(|c| c.rate == rate && c.epsilon == 0.1)
            .unwrap();
        let m = &cell.sample_median;
        // Both sides of the gap are populated: the medians are bimodal, not centred on the truth.
        let below = m.iter().filter(|x| **x < truth).count() as f64 / m.len() as f64;
        assert!((0.2..=0.8).contains(&below), "rate {rate}: {below} below");
        let series = c
            .series
            .iter()
            .find(|s| s.label == format!("n = {}", cell.n))
            .unwrap_or_else(|| panic!("no series for n = {}", cell.n));
        let peak = series.points.iter().map(|p| p.1).fold(0.0, f64::max);
        let at_truth = series
            .points
            .chunks(2)
            .find(|b| b[0].0 <= truth && truth < b[1].0)
            .map(|b| b[0].1)
            .expect("a bin holding the population median");
        // The chart's bin at the truth, counted independently from the raw medians.
        let width = series.points[1].0 - series.points[0].0;
        let lo = series.points[0].0 + width * ((truth - series.points[0].0) / width).floor();
        let counted =
            m.iter().filter(|x| **x >= lo && **x < lo + width).count() as f64 / m.len() as f64;
        assert!(
            (counted - at_truth).abs() < 1e-12,
            "rate {rate}: {counted} vs {at_truth}"
        );
        assert!(
            at_truth <= 0.25 * peak,
            "rate {rate}: the bin at the population median holds {at_truth}, the fullest {peak}"
        );
    }
}
