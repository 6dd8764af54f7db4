//! Tests of [`super`], in a file of their own so that the module stays short.

use super::*;

/// Median of |x| over a sample.
fn median_abs(xs: &[f64], centre: f64) -> f64 {
    let mut a: Vec<f64> = xs.iter().map(|x| (x - centre).abs()).collect();
    crate::sort_floats(&mut a);
    a[a.len() / 2]
}

#[test]
fn private_releases_have_the_stated_laplace_scales() {
    // Beta(2, 10) on [0, 1], N = 10001, 4000 runs: the median of |Laplace(b)| is b·ln 2, so the
    // empirical median distance estimates b to about 2.5% (one standard error).
    let pop = generate_population(Population::Beta, 10_001, 7).unwrap();
    let big_n = 10_001.0;
    // The population mean of Beta(2, 10) is 2/12.
    let r = private_releases(&pop, 0.5, 7, 4000).unwrap();
    assert!((r.mean - 2.0 / 12.0).abs() < 0.005, "{}", r.mean);
    assert_eq!(r.median, pop.median());
    for eps in [0.1, 0.5, 1.0] {
        let r = private_releases(&pop, eps, 7, 4000).unwrap();
        let ln2 = core::f64::consts::LN_2;
        let got = median_abs(&r.mean_global, r.mean) / ln2;
        let want = 1.0 / (big_n * eps);
        assert!(
            (got / want - 1.0).abs() < 0.1,
            "mean, ε {eps}: {got} vs {want}"
        );
        let got = median_abs(&r.median_global, r.median) / ln2;
        assert!((got * eps - 1.0).abs() < 0.1, "median GS, ε {eps}: {got}");
        // The smooth-sensitivity draws are the simulation's population cell, to the bit.
        let sim = Simulation::new(SimConfig {
            population: Population::Beta,
            population_size: 10_001,
            seed: 7,
            runs: 4000,
            epsilons: vec![eps],
            rates: vec![0.1],
        })
        .unwrap();
        let cell = &sim.population_cells()[0];
        let shifted: Vec<f64> = cell.noise.iter().map(|z| r.median + z).collect();
        assert_eq!(r.median_smooth, shifted);
        let got = median_abs(&r.median_smooth, r.median) / ln2;
        let want = 2.0 * cell.sensitivity / eps;
        assert!(
            (got / want - 1.0).abs() < 0.1,
            "median SS, ε {eps}: {got} vs {want}"
        );
        // Seed 002, Section 2.4: smooth sensitivity needs far less noise than global.
        assert!(want < 0.1 / eps, "{want}");
    }
    // Each estimator has its own stream: the mean's and the median's draws are not rescaled
    // copies of each other.
    let r = private_releases(&pop, 1.0, 7, 50).unwrap();
    let ratio = |i: usize| (r.mean_global[i] - r.mean) / (r.median_global[i] - r.median);
    assert!((ratio(0) - ratio(1)).abs() > 1e-9);
    assert!(private_releases(&pop, 0.0, 7, 10).is_err());
    assert!(private_releases(&pop, 1.0, 7, 0).is_err());
    assert!(private_releases(&pop, f64::NAN, 7, 10).is_err());
}

#[test]
fn the_mse_splits_into_noise_and_sampling_parts() {
    // Seed 002, §4.3: Var(A(m_n)) = E[Var(η_n | S)] + Var(m_n). On a finished simulation the
    // three parts add up to the cell's own MSE, the noise part is the Laplace variance
    // 2·(2·SS/ε_n)² averaged over the samples, and the cross term is small beside the rest.
    let mut sim = Simulation::new(SimConfig {
        population: Population::LogNormal,
        population_size: 2001,
        seed: 3,
        runs: 2000,
        epsilons: vec![0.5],
        rates: vec![0.1, 0.5],
    })
    .unwrap();
    sim.run_to_end();
    let truth = sim.population().median();
    let pop_ss = sim.population_cells()[0].sensitivity;
    for cell in sim.cells() {
        let (noise, sampling, cross) = cell.mse_parts(truth);
        let sum = noise + sampling + cross;
        assert!(
            (sum - cell.mse()).abs() <= 1e-9 * cell.mse(),
            "{sum} vs {}",
            cell.mse()
        );
        assert!(cross.abs() < 0.1 * (noise + sampling), "{cross}");
        // Laplace with scale b has variance 2b²; here b = 2·SS_n/ε_n with SS_n the sample's
        // smooth sensitivity, sensitivity_ratio·SS_N.
        let expected: f64 = cell
            .sensitivity_ratio
            .iter()
            .map(|r| 2.0 * (2.0 * r * pop_ss / cell.epsilon_n).powi(2))
            .sum::<f64>()
            / cell.sensitivity_ratio.len() as f64;
        assert!(
            (noise / expected - 1.0).abs() < 0.2,
            "{noise} vs {expected}"
        );
        // The sampling part is the sample medians' variance plus their squared bias (computed
        // the other way round: two passes, mean first).
        let k = cell.sample_median.len() as f64;
        let mean = cell.sample_median.iter().sum::<f64>() / k;
        let var = cell
            .sample_median
            .iter()
            .map(|m| (m - mean).powi(2))
            .sum::<f64>()
            / k;
        let want = var + (mean - truth).powi(2);
        assert!(
            (sampling - want).abs() <= 1e-9 * want,
            "{sampling} vs {want}"
        );
    }
}

#[test]
fn floyd_subsets_have_the_right_size_and_are_uniform() {
    let mut rng = Rng::new(5);
    let mut words = Vec::new();
    let mut counts = vec![0u32; 20];
    for _ in 0..20_000 {
        for (n, total) in [(5usize, 20usize), (15, 20)] {
            random_subset(&mut rng, n, total, &mut words);
            let size: u32 = words.iter().map(|w| w.count_ones()).sum();
            assert_eq!(size as usize, n);
            if n == 5 {
                for (i, c) in counts.iter_mut().enumerate() {
                    *c += (words[0] >> i & 1) as u32;
                }
            }
        }
    }
    // Each element is in a 5-of-20 subset with probability 1/4.
    for c in counts {
        assert!((4_700..5_300).contains(&c), "{c}");
    }
}

#[test]
fn windowed_sample_sensitivity_equals_full_sort() {
    let pop = generate_population(Population::LogNormal, 2001, 3).unwrap();
    let (lo, hi) = pop.range;
    let mut rng = Rng::new(11);
    let mut words = Vec::new();
    let mut idx = Vec::new();
    for &(n, beta) in &[(201usize, 0.05), (1001, 0.005), (1999, 0.2), (3, 1.0)] {
        random_subset(&mut rng, n, 2001, &mut words);
        ranks(&words, 1, n, &mut idx);
        let sample: Vec<f64> = idx.iter().map(|&i| pop.sorted[i]).collect();
        assert!(sample.windows(2).all(|w| w[0] <= w[1]));
        let full = crate::median::smooth_sensitivity_naive(&sample, beta, lo, hi);
        let fast = smooth_sensitivity(&sample, beta, lo, hi);
        assert!(
            (full - fast).abs() <= 1e-12 * full,
            "n = {n}: {full} vs {fast}"
        );
    }
}

#[test]
fn chunking_does_not_change_results() {
    let config = SimConfig {
        population: Population::Bimodal,
        population_size: 1001,
        seed: 77,
        runs: 50,
        epsilons: vec![0.5, 3.0],
        rates: vec![0.01, 0.5],
    };
    let mut a = Simulation::new(config.clone()).unwrap();
    a.run_to_end();
    let mut b = Simulation::new(config).unwrap();
    while !b.step(7).finished() {}
    assert_eq!(a.cells(), b.cells());
    assert_eq!(a.population_cells(), b.population_cells());
}

#[test]
fn bimodal_population_has_its_median_in_the_gap() {
    let p = generate_population(Population::Bimodal, 10_001, 1).unwrap();
    let med = p.median();
    // The median is the largest value of the first component (Section 4.4; the paper's is 0.21),
    // with a wide empty gap above it before the second component starts near 1/1.8.
    assert!(med > 0.1 && med < 0.3, "{med}");
    assert!(p.sorted[5001] - med > 0.25, "{med} {}", p.sorted[5001]);
    assert_eq!(p.sorted[0], 0.0);
    assert_eq!(p.sorted[10_000], 1.0);
}

#[test]
fn five_numbers_type7() {
    assert_eq!(
        five_numbers(&[1.0, 2.0, 3.0, 4.0]),
        [1.0, 1.75, 2.5, 3.25, 4.0]
    );
}

#[test]
fn bad_configurations_are_errors() {
    let ok = SimConfig {
        population: Population::Beta,
        population_size: 101,
        seed: 1,
        runs: 10,
        epsilons: vec![1.0],
        rates: vec![0.5],
    };
    assert!(Simulation::new(SimConfig {
        population_size: 100,
        ..ok.clone()
    })
    .is_err());
    assert!(Simulation::new(SimConfig {
        runs: 0,
        ..ok.clone()
    })
    .is_err());
    assert!(Simulation::new(SimConfig {
        rates: vec![0.0],
        ..ok.clone()
    })
    .is_err());
    assert!(Simulation::new(SimConfig {
        epsilons: vec![-1.0],
        ..ok
    })
    .is_err());
}
