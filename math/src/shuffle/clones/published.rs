//! The published numerical shuffle bound of Feldman, McMillan & Talwar 2021, reproduced as their
//! code computes it (its blocks, stopping rule and bisection), for comparison with the exact clone
//! bound.

use super::*;

/// The numerical method as published with FMT21 (github.com/apple/ml-shuffling-amplification),
/// reproduced: (lower, upper).
///
/// Clone counts are taken in blocks of 100 going outwards from n/2 (c = n/2 first when n is
/// even); each block contributes its binomial mass times the larger (upper run) or smaller (lower
/// run) of the divergences at its two ends, which bound it because D_c does not increase with c;
/// when the unexplored mass falls below both running sums, the upper run adds it (D ≤ 1) and
/// stops. ε is bisected 10 times on [0, ε̂], ε̂ the published code's closed form when
/// ε₀ < log(n/(16 log(4/δ))) and ε₀ otherwise; each run returns the right end of its final
/// interval. n = 1e5, ε₀ = 4, δ = 1e-6 gives [0.16754, 0.17279] as published.
///
/// Reproduced details: the published upper run's second order uses one block end twice (so that
/// sum is the lower run's), and both orders enter the stopping test; we keep both. Differences:
/// block masses are exact sums of binomial probabilities (the published code subtracts CDFs), and a
/// block reaching below c = 0 uses D_0 where the published code would evaluate a negative count.
/// Note that the lower run's right end is not a certified lower bound on ε (its left end, one
/// step ε̂/1024 lower, is); it is returned as published. Relation: replace-one.
pub fn fmt21_published(eps0: f64, n: u64, delta: f64) -> Result<(f64, f64), MathError> {
    check_all(eps0, n, delta)?;
    let window = CloneWindow::new(n, eps0, Clones::Fmt21, delta * 1e-13);
    let run = |upper_run: bool| {
        published_bisection(eps0, n, delta, |e| {
            published_delta(&window, n, e, delta, upper_run)
        })
    };
    Ok((run(false), run(true)))
}

/// The published method's search for ε given its δ(ε) (`delta_at`): 10 bisection steps on
/// [0, ε̂], ε̂ the published code's closed form when ε₀ < log(n/(16 log(4/δ))) and ε₀ otherwise;
/// returns the right end of the final interval (see [`fmt21_published`]).
pub(super) fn published_bisection(
    eps0: f64,
    n: u64,
    delta: f64,
    delta_at: impl Fn(f64) -> f64,
) -> f64 {
    let mut lo = 0.0;
    let mut hi = if eps0 < fmt21_eps0_limit(n, delta) {
        fmt21_published_code_formula(eps0, n as f64, delta)
    } else {
        eps0
    };
    for _ in 0..10 {
        let mid = 0.5 * (lo + hi);
        if delta_at(mid) < delta {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

/// One evaluation of the published block method (see [`fmt21_published`]).
///
/// The published loop visits B = 1, 101, 201, … ≤ ⌊n/2⌋ + (n mod 2) and, for each, the block
/// above and the block below n/2, making its two stopping tests before every block. Blocks that
/// miss the window of C carry no mass and leave the state unchanged, and a stopping test on an
/// unchanged state repeats the previous one; so only the blocks that meet the window are visited,
/// plus one test after the last of them when the published loop would make one.
pub(super) fn published_delta(
    window: &CloneWindow,
    n: u64,
    eps: f64,
    target: f64,
    upper_run: bool,
) -> f64 {
    const STEP: i64 = 100;
    let eps0 = window.eps0;
    let ni = n as i64;
    let big_n = ni - 1;
    let (wlo, whi) = ((window.c_lo as i64).max(0), (window.c_hi as i64).min(big_n));
    // Every block end the loop can meet lies within 99 of the window: compute D there in one walk.
    let (dlo, dhi) = ((wlo - (STEP - 1)).max(0), whi + STEP - 1);
    let divs = published_divergences(eps, eps0, dlo, dhi);
    // A block reaching below c = 0 uses D_0 (the published code would evaluate a negative count).
    let d = |c: i64| divs[(c.max(0) - dlo) as usize];
    let mass = |lo: i64, hi: i64| -> f64 {
        (lo.max(wlo)..=hi.min(whi))
            .map(|c| window.weight(c as u64))
            .sum()
    };
    let (mut dp, mut dq, mut used) = (0.0f64, 0.0f64, 0.0f64);
    let half = ni / 2;
    let odd = ni % 2;
    if odd == 0 {
        let w = mass(half, half);
        if w > 0.0 {
            let v = d(half);
            dp += w * v;
            dq += w * v;
        }
        used = w;
    }
    // The block above n/2 is [h + B, h + B + 99]; the one below is [top − B − 99, top − B].
    let h = half;
    let top = if odd == 1 { h + 1 } else { h };
    let b_max = half + odd;
    if b_max < 1 {
        return dp.max(dq);
    }
    let t_max = (b_max - 1) / STEP;
    // Grid indices t (B = 1 + 100t) whose block meets [wlo, whi], for B in [lo, hi].
    let grid = |lo: i64, hi: i64| -> std::ops::RangeInclusive<i64> {
        let t_lo = (lo - 1 + STEP - 1).div_euclid(STEP).max(0);
        let t_hi = (hi - 1).div_euclid(STEP).min(t_max);
        t_lo..=t_hi
    };
    let mut active: Vec<i64> = grid(wlo - h - (STEP - 1), whi - h)
        .chain(grid(top - whi - (STEP - 1), top - wlo))
        .collect();
    crate::heap_sort_by(&mut active, |a, b| a < b);
    active.dedup();
    let stop = |dp: f64, dq: f64, used: f64| published_stop(dp, dq, used, target, upper_run);
    let mut changed_after_last_test = true;
    let mut last_t = -1;
    for &t in &active {
        let b = 1 + STEP * t;
        for s in 0..2 {
            if let Some(v) = stop(dp, dq, used) {
                return v;
            }
            changed_after_last_test = false;
            let (lo, hi) = if s == 0 {
                (h + b, h + b + STEP - 1)
            } else {
                (top - b - (STEP - 1), top - b)
            };
            if hi < wlo || lo > whi {
                continue;
            }
            let w = mass(lo, hi);
            if w > 0.0 {
                let (d_hi, d_lo) = (d(hi), d(lo));
                if upper_run {
                    dp += w * d_hi.max(d_lo);
                    dq += w * d_hi; // the published code's max(d_hi, d_hi)
                } else {
                    let v = d_hi.min(d_lo);
                    dp += w * v;
                    dq += w * v;
                }
                used += w;
                changed_after_last_test = true;
            }
        }
        last_t = t;
    }
    // The published loop tests again before any later block (or before the first block, when
    // none met the window).
    if (changed_after_last_test && last_t < t_max) || active.is_empty() {
        if let Some(v) = stop(dp, dq, used) {
            return v;
        }
    }
    dp.max(dq)
}

/// The divergences D_c at clone counts c = `dlo`..=`dhi`, index c − `dlo`, from one walk (all 0
/// when ε ≥ ε₀), for [`published_delta`].
fn published_divergences(eps: f64, eps0: f64, dlo: i64, dhi: i64) -> Vec<f64> {
    let mut divs = vec![0.0; (dhi - dlo + 1) as usize];
    if eps < eps0 {
        let k = CloneConsts::new(eps, eps0);
        walk_divergences(&k, dhi as u64, dlo as u64, |c, v| {
            divs[(c as i64 - dlo) as usize] = v;
        });
    }
    divs
}

/// The published loop's two stopping tests on its running sums (δ_P, δ_Q and the mass used), for
/// [`published_delta`]: `target` once max(δ_P, δ_Q) exceeds it; once the unused mass is below both
/// sums, max(δ_P, δ_Q), plus the unused mass in the upper run; `None` to go on.
fn published_stop(dp: f64, dq: f64, used: f64, target: f64, upper_run: bool) -> Option<f64> {
    if dp.max(dq) > target {
        return Some(target);
    }
    if 1.0 - used < dp && 1.0 - used < dq {
        return Some(if upper_run {
            dp.max(dq) + 1.0 - used
        } else {
            dp.max(dq)
        });
    }
    None
}

// ---------------------------------------------------------------------------------------------
// FMT23 stronger clones
// ---------------------------------------------------------------------------------------------
