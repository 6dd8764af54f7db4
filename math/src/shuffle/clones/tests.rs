//! Tests of [`super`], in a file of their own so that the module stays short.

use super::*;

#[test]
fn the_chosen_clone_pair_is_fmt21s_or_the_stronger_one() {
    for (eps0, n, delta, eps) in [(1.0, 1000, 1e-6, 0.5), (4.0, 100_000, 1e-6, 0.2)] {
        let weak = clone_numerical(eps0, n, false, delta).unwrap();
        let strong = clone_numerical(eps0, n, true, delta).unwrap();
        assert_eq!(weak, fmt21_numerical(eps0, n, delta).unwrap());
        assert_eq!(strong, fmt23_numerical(eps0, n, delta).unwrap());
        // More clones, a smaller ε: the two are not the same pair.
        assert!(strong.1 < weak.1, "{strong:?} {weak:?}");
        assert_eq!(
            clone_numerical_delta(eps, eps0, n, false).unwrap(),
            fmt21_numerical_delta(eps, eps0, n).unwrap()
        );
        assert_eq!(
            clone_numerical_delta(eps, eps0, n, true).unwrap(),
            fmt23_numerical_delta(eps, eps0, n).unwrap()
        );
    }
}

/// The exact δ(ε) = E_C[D_C] for C ∼ Bin(n − 1, p), summed over every c with the binomial
/// weights built by the ratio recurrence (an independent computation for small n).
fn exact_delta(n: u64, eps: f64, eps0: f64, clones: Clones) -> f64 {
    let (p, q, _, _) = clones.probability(eps0);
    let big_n = n - 1;
    let mut w = crate::special::powi(q, big_n as i32);
    let mut total = 0.0;
    for c in 0..=big_n {
        total += w * clone_divergence_unchecked(c, eps, eps0);
        w *= (big_n - c) as f64 / (c + 1) as f64 * p / q;
    }
    total
}

/// The published block loop written plainly: every block B = 1, 101, … ≤ ⌊n/2⌋ + (n mod 2),
/// above and below n/2, its two stopping tests before each, D from the direct sum.
fn plain_published_delta(win: &CloneWindow, n: u64, eps: f64, target: f64, upper: bool) -> f64 {
    let ni = n as i64;
    let d = |c: i64| clone_divergence_unchecked(c.max(0) as u64, eps, win.eps0);
    let mass = |lo: i64, hi: i64| -> f64 {
        (lo.max(win.c_lo as i64)..=hi.min(win.c_hi as i64))
            .map(|c| win.weight(c as u64))
            .sum()
    };
    let (mut dp, mut dq, mut used) = (0.0f64, 0.0f64, 0.0f64);
    let (half, odd) = (ni / 2, ni % 2);
    if odd == 0 {
        let w = mass(half, half);
        if w > 0.0 {
            dp += w * d(half);
            dq += w * d(half);
        }
        used = w;
    }
    let top = half + odd;
    let mut b = 1;
    while b <= half + odd {
        for below in [false, true] {
            if dp.max(dq) > target {
                return target;
            }
            if 1.0 - used < dp && 1.0 - used < dq {
                return if upper {
                    dp.max(dq) + 1.0 - used
                } else {
                    dp.max(dq)
                };
            }
            let (lo, hi) = if below {
                (top - b - 99, top - b)
            } else {
                (half + b, half + b + 99)
            };
            let w = mass(lo, hi);
            if w > 0.0 {
                if upper {
                    dp += w * d(hi).max(d(lo));
                    dq += w * d(hi);
                } else {
                    dp += w * d(hi).min(d(lo));
                    dq += w * d(hi).min(d(lo));
                }
                used += w;
            }
        }
        b += 100;
    }
    dp.max(dq)
}

#[test]
fn the_published_loop_skipping_empty_blocks_equals_the_plain_loop() {
    // n with 1.5·n not a multiple of 100, so the block grid depends on where n/2 is.
    for (n, eps0) in [
        (12_345u64, 3.0),
        (3_001, 1.0),
        (777, 0.5),
        (50_001, 4.0),
        (20_050, 2.0),
        // Even n with e^{−ε₀} near ½: the block at c = n/2 itself carries clone mass.
        (1_000, 0.7),
        (2_000, 0.69),
        // Windows that reach the last block (c near 0): the published loop makes no test
        // after it, so a value above the target is returned as it is, not as the target.
        (150, 2.0),
        (151, 1.5),
        (100_000, 10.0),
        (99_999, 9.0),
    ] {
        let win = CloneWindow::new(n, eps0, Clones::Fmt21, 1e-19);
        for eps in [0.05, 0.2, 0.6] {
            for target in [1e-3, 1e-6, 1e-9] {
                for upper in [false, true] {
                    let fast = published_delta(&win, n, eps, target, upper);
                    let plain = plain_published_delta(&win, n, eps, target, upper);
                    assert!(
                        (fast - plain).abs() <= 1e-9 * plain.abs() + 1e-300,
                        "n {n}, ε₀ {eps0}, ε {eps}, target {target}, upper {upper}: {fast} vs {plain}"
                    );
                }
            }
        }
    }
}

#[test]
fn the_published_loop_equals_the_plain_loop_on_hand_made_windows() {
    // The skipping loop's equality with the plain one holds for any weights, not only for
    // binomial ones; weights chosen by hand reach stopping tests that a binomial window
    // reaches only at fine-tuned ε: here most of the mass sits at c = n/2 (even n), so the
    // test before the first block already stops (1 − used < dp and < dq).
    for n in [4u64, 6, 5, 250, 251] {
        let big_n = n - 1;
        let shapes: [&dyn Fn(u64) -> f64; 3] = [
            &|c| if c == n / 2 { 0.9 } else { 0.1 / big_n as f64 },
            &|_| 1.0 / n as f64,
            &|c| 0.5 * pow(0.5, c as f64),
        ];
        for shape in shapes {
            let win = CloneWindow {
                eps0: 3.0,
                c_lo: 0,
                c_hi: big_n,
                w: (0..=big_n).map(shape).collect(),
                tail_lo: 0.0,
                tail_hi: 0.0,
            };
            for eps in [0.01, 0.3, 1.0] {
                for target in [1.0, 1e-2] {
                    for upper in [false, true] {
                        let fast = published_delta(&win, n, eps, target, upper);
                        let plain = plain_published_delta(&win, n, eps, target, upper);
                        assert!(
                            (fast - plain).abs() <= 1e-12 * plain.abs(),
                            "n {n}, ε {eps}, target {target}, upper {upper}: {fast} vs {plain}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn the_published_bisection_on_its_window_equals_the_plain_loop_on_a_wide_window() {
    // fmt21_published keeps clone counts down to a tail mass of δ·1e-13 on each side; the
    // plain loop here sees every count down to 1e-30. The same ten bisection steps over
    // either give the same interval ends (large δ included, where a window cut at δ itself would lose
    // mass that the stopping tests see).
    for (eps0, n, delta) in [
        (2.0, 5_000u64, 1e-2),
        (1.0, 3_001, 5e-2),
        (3.0, 20_000, 1e-4),
        (1.5, 8_000, 1e-6),
    ] {
        let win = CloneWindow::new(n, eps0, Clones::Fmt21, 1e-30);
        let bisect = |upper: bool| {
            published_bisection(eps0, n, delta, |e| {
                plain_published_delta(&win, n, e, delta, upper)
            })
        };
        let expected = (bisect(false), bisect(true));
        let got = fmt21_published(eps0, n, delta).unwrap();
        assert_eq!(got, expected, "ε₀ {eps0}, n {n}, δ {delta}");
    }
}

#[test]
fn tiny_deltas_get_bounds_that_meet() {
    // δ from 1e-9 down to 1e-186: the window widens until its tails are 1e-13 below δ, so the
    // certified pair stays 2e-9 apart (with one widening only, the upper bound stopped at the
    // tails' 1e-44 whenever δ was below them).
    for (eps, eps0, n) in [
        (0.5, 2.0, 2_000u64),
        (0.5, 2.0, 5_000),
        (1.0, 3.0, 20_000),
        (1.0, 2.0, 6_000),
        (0.3, 1.0, 20_000),
        (0.5, 1.0, 8_000),
    ] {
        let (lo, hi) = fmt21_numerical_delta(eps, eps0, n).unwrap();
        assert!(
            lo > 0.0 && hi >= lo,
            "ε {eps}, ε₀ {eps0}, n {n}: [{lo:e}, {hi:e}]"
        );
        assert!(
            (hi - lo) <= 3e-9 * hi,
            "ε {eps}, ε₀ {eps0}, n {n}: [{lo:e}, {hi:e}]"
        );
    }
}

#[test]
fn a_long_walk_renormalises_and_still_meets_the_direct_sum() {
    // τ ≈ 0.66 here, so b_c(k_c − 1) grows by about e^{0.053} per step down: from c = 30,000
    // (β ≈ e^{−1580}, far below the smallest double) the walk must carry β's logarithm
    // through several renormalisations before any divergence is representable.
    let k = CloneConsts::new(0.5, 2.0);
    let mut seen = 0;
    walk_divergences(&k, 30_000, 5_000, |c, d| {
        if c % 1_000 == 0 && c <= 12_000 {
            let direct = direct_divergence(c, &k);
            assert!(direct > 0.0 && direct < 1e-100, "c {c}: {direct}");
            assert!(
                (d - direct).abs() <= 1e-9 * direct,
                "c {c}: walk {d}, direct {direct}"
            );
            seen += 1;
        }
    });
    assert_eq!(seen, 8);
}

#[test]
fn a_window_weighs_nothing_outside_it_and_its_bounds_hold_the_exact_delta() {
    for (n, eps0, clones) in [
        (40, 1.0, Clones::Fmt21),
        (60, 2.0, Clones::Stronger),
        (25, 0.5, Clones::Fmt21),
        // Few clones (p = e^{−3}): the window starts at c = 0, so only its upper tail is
        // bounded, and at a small ε the divergence there is not small.
        (40, 3.0, Clones::Fmt21),
    ] {
        // A loose truncation, so that the tails carry visible mass.
        let win = CloneWindow::new(n, eps0, clones, 0.05);
        assert_eq!(win.weight(win.c_hi + 1), 0.0);
        if win.c_lo > 0 {
            assert_eq!(win.weight(win.c_lo - 1), 0.0);
        }
        assert_eq!(win.weight(win.c_lo), win.w[0]);
        for eps in [0.05, 0.2, 0.5] {
            let exact = exact_delta(n, eps, eps0, clones);
            let (lo, hi) = win.delta(eps);
            assert!(
                lo <= exact && exact <= hi,
                "n {n}, ε₀ {eps0}, ε {eps}: {lo} ≤ {exact} ≤ {hi}"
            );
        }
    }
}
