//! An independent check that the with-replacement δ′ is an upper bound: exact enumeration for a
//! concrete mechanism. M applies binary randomized response with parameter ε to each of the m drawn
//! records and outputs the m bits in draw order; it is ε-DP when one position of its input changes.
//! For neighbours x = (1, 0, …, 0) and x′ = (0, …, 0) (replace one record), we enumerate every draw
//! sequence and every output, compute the true hockey-stick divergence of the sampled mechanism at
//! e^{ε′} in both directions, and require it to be at most our δ′. A naive δ′ = η·δ (which is 0 here,
//! since δ = 0) fails this test.
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here

use amp_math::subsampling::{amplify, Sampling};
use amp_math::EpsDelta;

/// P(output | dataset) for m draws with replacement from `data`; each draw is revealed outright
/// with probability `reveal` (output symbol 2 + bit) and otherwise passed through RR_ε (symbol =
/// the reported bit). One drawn position changing moves at most `reveal` of probability onto
/// outputs the other input never produces, so the mechanism is (ε, δ)-DP with δ = `reveal`
/// (and pure ε-DP when it is 0).
fn output_distribution_with_reveal(data: &[u8], m: u32, eps: f64, reveal: f64) -> Vec<f64> {
    let n = data.len();
    let keep = eps.exp() / (eps.exp() + 1.0);
    let symbols = 4usize;
    let mut dist = vec![0.0; symbols.pow(m)];
    let draws = n.pow(m);
    for d in 0..draws {
        let mut idx = d;
        let mut drawn = Vec::with_capacity(m as usize);
        for _ in 0..m {
            drawn.push(data[idx % n]);
            idx /= n;
        }
        for (y, p) in dist.iter_mut().enumerate() {
            let mut prob = 1.0 / draws as f64;
            let mut code = y;
            for &bit in &drawn {
                let out = code % symbols;
                code /= symbols;
                prob *= match out {
                    0 | 1 => (1.0 - reveal) * if out as u8 == bit { keep } else { 1.0 - keep },
                    _ => {
                        if (out - 2) as u8 == bit {
                            reveal
                        } else {
                            0.0
                        }
                    }
                };
            }
            *p += prob;
        }
    }
    dist
}

/// P(output bits | dataset) for m draws with replacement from `data`, then RR_ε on each draw.
fn output_distribution(data: &[u8], m: u32, eps: f64) -> Vec<f64> {
    let n = data.len();
    let keep = eps.exp() / (eps.exp() + 1.0);
    let mut dist = vec![0.0; 1 << m];
    let draws = n.pow(m);
    for d in 0..draws {
        // Decode the draw sequence.
        let mut idx = d;
        let mut drawn = Vec::with_capacity(m as usize);
        for _ in 0..m {
            drawn.push(data[idx % n]);
            idx /= n;
        }
        for (y, p) in dist.iter_mut().enumerate() {
            let mut prob = 1.0 / draws as f64;
            for (j, &bit) in drawn.iter().enumerate() {
                let out = ((y >> j) & 1) as u8;
                prob *= if out == bit { keep } else { 1.0 - keep };
            }
            *p += prob;
        }
    }
    dist
}

fn hockey_stick(p: &[f64], q: &[f64], eps: f64) -> f64 {
    p.iter()
        .zip(q)
        .map(|(a, b)| (a - eps.exp() * b).max(0.0))
        .sum()
}

#[test]
fn with_replacement_delta_bounds_the_exact_divergence_of_randomized_response() {
    let mut checked = 0;
    let mut tight_cases = 0;
    for n in 2..=4u64 {
        for m in 1..=4u32 {
            for &eps in &[0.1, 0.5, 1.0, 2.0, 4.0] {
                let mut x = vec![0u8; n as usize];
                x[0] = 1;
                let x2 = vec![0u8; n as usize];
                let (p, q) = (
                    output_distribution(&x, m, eps),
                    output_distribution(&x2, m, eps),
                );
                let s = Sampling::WithReplacement { m: m as u64, n };
                let ours = amplify(
                    &s,
                    EpsDelta {
                        epsilon: eps,
                        delta: 0.0,
                    },
                )
                .unwrap()
                .guarantee;
                let exact =
                    hockey_stick(&p, &q, ours.epsilon).max(hockey_stick(&q, &p, ours.epsilon));
                assert!(
                    exact <= ours.delta * (1.0 + 1e-9) + 1e-15,
                    "n = {n}, m = {m}, ε = {eps}: exact δ = {exact:e} at ε′ = {} exceeds our δ′ = {:e}",
                    ours.epsilon,
                    ours.delta
                );
                if exact > 1e-12 {
                    tight_cases += 1; // cases where a δ′ of 0 would have been wrong
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 60);
    assert!(
        tight_cases > 10,
        "only {tight_cases} cases need δ′ > 0; the test would not catch δ′ = 0"
    );
}

#[test]
fn with_replacement_delta_bounds_an_approximate_dp_mechanism_too() {
    let mut checked = 0;
    for n in 2..=4u64 {
        for m in 1..=3u32 {
            for &eps in &[0.1, 1.0, 3.0] {
                for &delta in &[1e-3, 0.05, 0.3] {
                    let mut x = vec![0u8; n as usize];
                    x[0] = 1;
                    let x2 = vec![0u8; n as usize];
                    let p = output_distribution_with_reveal(&x, m, eps, delta);
                    let q = output_distribution_with_reveal(&x2, m, eps, delta);
                    let s = Sampling::WithReplacement { m: m as u64, n };
                    let ours = amplify(
                        &s,
                        EpsDelta {
                            epsilon: eps,
                            delta,
                        },
                    )
                    .unwrap()
                    .guarantee;
                    let exact =
                        hockey_stick(&p, &q, ours.epsilon).max(hockey_stick(&q, &p, ours.epsilon));
                    assert!(
                        exact <= ours.delta * (1.0 + 1e-9) + 1e-15,
                        "n = {n}, m = {m}, ε = {eps}, δ = {delta}: exact {exact:e} > ours {:e}",
                        ours.delta
                    );
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 81);
}
