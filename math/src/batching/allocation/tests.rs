//! Tests of [`super`], in a file of their own so that the module stays short.

use super::*;

/// E_Q[S] and E_Q[S²] of a law (finite part).
fn moments(l: &Law) -> (f64, f64) {
    let m1: f64 = l.w.iter().sum();
    let m2: f64 =
        l.q.iter()
            .zip(&l.w)
            .filter(|(&q, _)| q > 0.0)
            .map(|(&q, &w)| w * w / q)
            .sum();
    (m1, m2)
}

/// One step and sums of n steps: the Q-mass is 1 and the P-mass (weight/n) is 1, both kept
/// exactly; E_Q[S²] (which is n²·(1 + χ²(P‖Q))) is above the exact value n·e^{sd²} + n(n − 1)
/// for the split (more informative) pair and below it for the merged one, and close to it.
#[test]
fn sums_keep_both_masses_and_bracket_the_chi_square() {
    let sd = 1.0;
    for n in [1u64, 2, 3, 10, 37] {
        let mut second = [0.0; 2];
        for (j, side) in [Side::Upper, Side::Lower].into_iter().enumerate() {
            let mut s = Doubler::new(4e-3, side);
            let one = s.summer(0).lognormal(sd);
            let l = s.sum_of(&one, n);
            assert_eq!(l.terms, n);
            let (m1, m2) = moments(&l);
            assert!((l.total_q() - 1.0).abs() < 1e-12, "{side:?} n {n}");
            let p = (m1 + l.inf) / n as f64;
            assert!((p - 1.0).abs() < 1e-12, "{side:?} n {n}: P-mass {p}");
            second[j] = m2;
        }
        let nf = n as f64;
        let exact = nf * exp(sd * sd) + nf * (nf - 1.0);
        assert!(
            second[0] >= exact && second[1] <= exact,
            "n {n}: {second:?} vs {exact}"
        );
        assert!(second[0] - second[1] < 1e-4 * exact, "n {n}: {second:?}");
    }
}

/// Many steps: the grid is refined as the sum narrows (exactly: a refined law has the same
/// moments), and the χ² of the pair, E_Q[(S/n)²] − 1 = (e^{sd²} − 1)/n, stays bracketed and
/// close (within 1% here; without refinement the split pair's χ² is 1.9% high, the merged 0.9% low).
#[test]
fn refinement_is_exact_and_keeps_the_bracket_tight() {
    let sd = 1.0;
    let n = 5000u64;
    let exact = exp_m1(sd * sd) / n as f64;
    let mut chi = [0.0; 2];
    for (j, side) in [Side::Upper, Side::Lower].into_iter().enumerate() {
        let mut s = Doubler::new(4e-3, side);
        let one = s.summer(0).lognormal(sd);
        let r = one.refined(2);
        assert_eq!(r.level, 2);
        let (m1, m2) = moments(&one);
        let (r1, r2) = moments(&r);
        assert!((m1 - r1).abs() < 1e-15 && (m2 - r2).abs() < 1e-13 * m2);
        assert!(
            (one.relative_sd(4e-3, side) - r.relative_sd(1e-3, side)).abs() < 1e-12,
            "{side:?}"
        );
        let l = s.sum_of(&one, n);
        assert!(l.level >= 3, "{side:?}: level {}", l.level);
        let (m1, m2) = moments(&l);
        assert!((m1 + l.inf - n as f64).abs() < 1e-9 * n as f64);
        chi[j] = m2 / (n as f64 * n as f64) - 1.0;
    }
    assert!(chi[0] >= exact && chi[1] <= exact, "{chi:?} vs {exact}");
    assert!(chi[0] - chi[1] < 0.01 * exact, "{chi:?} vs {exact}");
}

#[test]
fn groups_cover_every_distance_once() {
    for side in [Side::Upper, Side::Lower] {
        let s = Summer::new(1e-2, side);
        let mut next = 0;
        for &(r, lo, hi) in &s.groups {
            assert_eq!(lo, next);
            assert!(r >= 0 && hi >= lo);
            next = hi.saturating_add(1);
        }
        assert_eq!(s.groups.last().unwrap().2, i64::MAX);
    }
}

/// The grouped sum equals the plain pairwise one: every pair (i, j) of atoms is split between
/// the grid points around e^{ig} + e^{jg} keeping its Q-mass and weight (upper), or merged into
/// the cell max(i, j) + round(x(|i − j|)/g) (lower).
#[test]
fn grouped_sum_is_the_pairwise_sum() {
    let g = 0.02;
    for side in [Side::Upper, Side::Lower] {
        let s = Summer::new(g, side);
        let a = s.lognormal(0.8);
        let one = s.lognormal(0.8);
        let b = s.add(&one, &s.add(&one, &one));
        let fast = s.add(&a, &b);
        let mut slow = std::collections::BTreeMap::<i64, (f64, f64)>::new();
        for i in 0..a.q.len() {
            for j in 0..b.q.len() {
                let (ki, kj) = (a.offset + i as i64, b.offset + j as i64);
                let q = a.q[i] * b.q[j];
                let w = a.w[i] * b.q[j] + a.q[i] * b.w[j];
                match side {
                    Side::Upper => {
                        let x = ln(exp(ki as f64 * g) + exp(kj as f64 * g)) / g;
                        let k = x.floor() as i64;
                        let (s0, s1) = (exp(k as f64 * g), exp((k + 1) as f64 * g));
                        let up = q * ((w / q - s0) / (s1 - s0)).clamp(0.0, 1.0);
                        slow.entry(k).or_default().0 += q - up;
                        slow.entry(k + 1).or_default().0 += up;
                    }
                    Side::Lower => {
                        let d = (ki - kj).abs();
                        let r = (ln_1p(exp(-(d as f64) * g)) / g).round() as i64;
                        let e = slow.entry(ki.max(kj) + r).or_default();
                        e.0 += q;
                        e.1 += w;
                    }
                }
            }
        }
        let mut moved = 0.0;
        for (&k, &(q, w)) in &slow {
            let i = k - fast.offset;
            if i > 0 && (i as usize) < fast.q.len() - 1 {
                let got = fast.q[i as usize];
                assert!(
                    (got - q).abs() <= 1e-18 + 1e-11 * q,
                    "{side:?} k {k}: {got} vs {q}"
                );
                if side == Side::Lower {
                    let got = fast.w[i as usize];
                    assert!((got - w).abs() <= 1e-18 + 1e-11 * w, "k {k}: {got} vs {w}");
                }
            } else if i < 0 || i as usize >= fast.q.len() {
                moved += q;
            }
        }
        assert!(moved <= 2.0 * TRIM, "{moved}");
    }
}
