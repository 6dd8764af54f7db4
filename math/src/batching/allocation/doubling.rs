//! The doubling that composes the allocation's T-step sum law: the summers of one side on a grid
//! and its refinements, their accumulated sums, and the loss atoms of both directions.

use super::*;

/// Relative standard deviations of S per grid step below which the doubling refines its grid:
/// the split and merge errors add variance of order g² to log S, so the grid keeps pace with the
/// narrowing law (the last doublings, where the law is narrowest, weigh most in the final sum).
const STEPS_PER_SD: f64 = 24.0;

/// Finest grid the doubling refines to.
const FINEST_STEP: f64 = 1e-6;

/// The summers of one side on the base grid g and its refinements g/2, g/4, …
pub(super) struct Doubler {
    pub(super) g: f64,
    pub(super) side: Side,
    summers: Vec<Summer>,
}

impl Doubler {
    pub(super) fn new(g: f64, side: Side) -> Doubler {
        Doubler {
            g,
            side,
            summers: vec![Summer::new(g, side)],
        }
    }

    pub(super) fn step(&self, level: u32) -> f64 {
        self.g / (1u64 << level) as f64
    }

    pub(super) fn summer(&mut self, level: u32) -> &Summer {
        while self.summers.len() <= level as usize {
            let l = self.summers.len() as u32;
            self.summers.push(Summer::new(self.step(l), self.side));
        }
        &self.summers[level as usize]
    }

    /// The level at which a sum of two laws should be taken: at least both operands' levels, and
    /// fine enough for STEPS_PER_SD steps per relative standard deviation of the operands.
    fn level_for(&self, a: &Law, b: &Law) -> u32 {
        let mut level = a.level.max(b.level);
        let sd = a
            .relative_sd(self.step(a.level), self.side)
            .min(b.relative_sd(self.step(b.level), self.side));
        while sd > 0.0
            && self.step(level) * STEPS_PER_SD > sd
            && self.step(level + 1) >= FINEST_STEP
        {
            level += 1;
        }
        level
    }

    pub(super) fn add(&mut self, a: &Law, b: &Law) -> Law {
        let level = self.level_for(a, b);
        let (a, b) = (a.refined(level - a.level), b.refined(level - b.level));
        self.summer(level).add(&a, &b)
    }

    /// The pair of `n` ≥ 1 steps, by doubling.
    pub(super) fn sum_of(&mut self, x: &Law, n: u64) -> Law {
        let mut acc: Option<Law> = None;
        let mut base = x.clone();
        let mut k = n;
        loop {
            if k & 1 == 1 {
                acc = Some(match acc {
                    None => base.clone(),
                    Some(a) => self.add(&a, &base),
                });
            }
            k >>= 1;
            if k == 0 {
                break;
            }
            base = self.add(&base, &base);
        }
        acc.unwrap_or(base)
    }
}

/// A running sum carried in two parts (value and rounding error, Knuth's TwoSum), so that the
/// difference of two of them is accurate to the last bit of the difference itself.
#[derive(Clone, Copy, Default)]
struct Acc {
    pub(super) hi: f64,
    pub(super) lo: f64,
}

impl Acc {
    pub(super) fn add(self, x: f64) -> Acc {
        let s = self.hi + x;
        let bb = s - self.hi;
        let err = (self.hi - (s - bb)) + (x - bb);
        Acc {
            hi: s,
            lo: self.lo + err,
        }
    }

    /// self − other.
    #[inline]
    fn minus(self, other: Acc) -> f64 {
        (self.hi - other.hi) + (self.lo - other.lo)
    }
}

/// Running sums of `m` on the indices `first..=last` (indices outside m's range hold no mass):
/// pre[i] = Σ_{j < i} m[j] and suf[i] = Σ_{j ≥ i} m[j], each accumulated from its own end
/// (compensated) so that both are accurate where they are small. A range sum is the difference
/// of whichever of the two is small there (both give the same value in exact arithmetic).
pub(super) struct Sums {
    pre: Vec<Acc>,
    suf: Vec<Acc>,
    total: Acc,
}

impl Sums {
    pub(super) fn new(m: &[f64], first: i64, last: i64) -> Sums {
        let len = (last - first + 1).max(0) as usize;
        let mut pre = vec![Acc::default(); len];
        let mut suf = vec![Acc::default(); len];
        let get = |i: i64| -> f64 {
            if i >= 0 && (i as usize) < m.len() {
                m[i as usize]
            } else {
                0.0
            }
        };
        let mut acc = Acc::default();
        for (p, i) in pre.iter_mut().zip(first..) {
            *p = acc;
            acc = acc.add(get(i));
        }
        let mut acc = Acc::default();
        for (s, i) in suf.iter_mut().rev().zip((first..=last).rev()) {
            acc = acc.add(get(i));
            *s = acc;
        }
        let total = suf.first().copied().unwrap_or_default();
        Sums { pre, suf, total }
    }

    /// Σ m[j] for positions j ∈ [bot, top) (bot = None: from the start), never negative.
    #[inline]
    pub(super) fn range(&self, top: usize, bot: Option<usize>) -> f64 {
        let (p1, s1) = (self.pre[top], self.suf[top]);
        let v = match bot {
            None => {
                if p1.hi <= 0.5 * self.total.hi {
                    p1.hi + p1.lo
                } else {
                    self.total.minus(s1)
                }
            }
            Some(b) => {
                if p1.hi <= 0.5 * self.total.hi {
                    p1.minus(self.pre[b])
                } else {
                    self.suf[b].minus(s1)
                }
            }
        };
        v.max(0.0)
    }
}

/// Loss atoms (loss, mass) of both directions of the T-step pair with sum law `law`: remove
/// (P against Q) has loss log(S/T) with P-mass w/T; add (Q against P) has loss −log(S/T) with
/// Q-mass q. S = 0 and S = ∞ give infinite losses.
pub(super) fn atoms(law: &Law, g: f64, side: Side) -> (Atoms, Atoms) {
    let g = g / (1u64 << law.level) as f64;
    let t = law.terms as f64;
    let ln_t = ln(t);
    let mut remove = Vec::with_capacity(law.q.len() + 1);
    let mut add = Vec::with_capacity(law.q.len() + 1);
    for (i, (&q, &w)) in law.q.iter().zip(&law.w).enumerate() {
        match (q > 0.0, w > 0.0) {
            (true, true) => {
                let ls = match side {
                    Side::Upper => (law.offset + i as i64) as f64 * g,
                    Side::Lower => ln(w / q),
                };
                remove.push((ls - ln_t, w / t));
                add.push((ln_t - ls, q));
            }
            (true, false) => add.push((f64::INFINITY, q)),
            (false, true) => remove.push((f64::INFINITY, w / t)),
            (false, false) => {}
        }
    }
    remove.push((f64::INFINITY, law.inf / t));
    add.push((f64::INFINITY, law.zero));
    (remove, add)
}
