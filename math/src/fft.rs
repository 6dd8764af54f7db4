//! Complex FFT of a power-of-two length on split arrays (real parts and imaginary parts apart),
//! for the PLD accountant's convolutions.
//!
//! Radix 4 (two radix-2 stages merged, plus one plain radix-2 stage when the length is an odd
//! power of two), depth first: each stage of span n is followed by the four quarters, so once a
//! quarter fits in cache all its later stages run there. The forward transform is decimation in
//! frequency and leaves the spectrum in bit-reversed order; the inverse is decimation in time and
//! takes the spectrum in that order back to natural order. So no bit-reversal permutation is ever
//! made: whatever is done to the spectrum in between must be pointwise or pair index f with
//! n − f through [`half_chunks`].
//!
//! Twiddles w^k_j = e^{−2πi·kj/L} (k = 1, 2, 3; j < L/4) of each span L come from one table of
//! e^{−2πij/L} over a quarter circle (libm's sin and cos on the first eighth, at multiples of 64
//! and at the remainders, multiplied; the rest by the circle's symmetries: no recurrence, so no
//! drift, and native and wasm32 builds agree bit for bit). They are kept per thread, laid out per
//! stage so that each stage reads them contiguously; above [`COMPACT_ABOVE`] only w¹ is stored and
//! w², w³ are formed from it as the stage runs. The split layout lets the butterflies vectorise
//! without shuffles where the target has SIMD.
//!
//! Lengths 3·2^m (m ≥ 10) are also taken, so a composition that needs a little more than a power
//! of two is not padded to twice that: one radix-3 stage splits the signal into three interleaved
//! thirds of length M = 2^m (decimation in frequency, twiddles e^{−2πij/n} for j < M from their
//! own table), each third is transformed as above, and third r holds the frequencies 3k + r, k in
//! bit-reversed order. [`half_chunks`] pairs f with n − f in that layout too.
//!
//! Accuracy: measured against a double-double DFT, the same as the radix-2 transform this
//! replaced (root-mean-square error 2.2e-14 at n = 2¹⁴ on uniform inputs in [0, 1)).

use std::cell::RefCell;
use std::rc::Rc;

/// Below this length a block is transformed stage by stage (breadth first) instead of recursing.
const LEAF: usize = 1 << 10;

/// Spans above this get compact stage tables (w¹ only; w², w³ computed from it as the stage runs):
/// those stages stream their data from beyond the caches anyway, and the tables stay small.
const COMPACT_ABOVE: usize = 1 << 14;

/// Twiddles of one radix-4 stage of span 4s: w^k_j = e^{−2πi·kj/(4s)} for j < s, as six arrays of
/// s (Re w¹, Im w¹, Re w², Im w², Re w³, Im w³) or, compact, the first two only.
type Table = Rc<Vec<f64>>;

thread_local! {
    /// Stage tables by log₂ of their span.
    static TABLES: RefCell<Vec<Option<Table>>> = const { RefCell::new(Vec::new()) };
    /// Radix-3 twiddles of lengths 3·2^m by m: e^{−2πij/(3·2^m)} for j < 2^m, real parts then
    /// imaginary parts.
    static THIRDS: RefCell<Vec<Option<Table>>> = const { RefCell::new(Vec::new()) };
}

/// Smallest length the transforms take (a power of two, or 3·2^m with 2^m ≥ [`LEAF`]) that is at
/// least `span` (and at least 2).
pub(crate) fn size_for(span: usize) -> usize {
    let two = span.max(2).next_power_of_two();
    let three = 3 * span.div_ceil(3).next_power_of_two();
    if three < two && three / 3 >= LEAF {
        three
    } else {
        two
    }
}

/// The length of each third when n = 3·2^m (m ≥ 10), or `None` for a power of two.
fn third(n: usize) -> Option<usize> {
    (n.is_multiple_of(3) && (n / 3).is_power_of_two() && n / 3 >= LEAF).then_some(n / 3)
}

/// e^{−2πij/n} for j < n/3 (n = 3M), as in [`quadrant`]: libm's cos and sin at multiples of 64
/// and at the remainders, multiplied (within a few ulp, no recurrence).
fn third_table(n: usize) -> Table {
    let m = n / 3;
    let log = m.trailing_zeros() as usize;
    THIRDS.with(|t| {
        let mut t = t.borrow_mut();
        if t.len() <= log {
            t.resize(log + 1, None);
        }
        t[log]
            .get_or_insert_with(|| {
                const B: usize = 64;
                let exact = |k: usize| {
                    let a = -2.0 * std::f64::consts::PI * k as f64 / n as f64;
                    (libm::cos(a), libm::sin(a))
                };
                let fine: Vec<(f64, f64)> = (0..B).map(exact).collect();
                let mut w = vec![0.0; 2 * m];
                let (re, im) = w.split_at_mut(m);
                for a in 0..m.div_ceil(B) {
                    let c = exact(a * B);
                    for (b, f) in fine.iter().enumerate().take(m - a * B) {
                        let k = a * B + b;
                        (re[k], im[k]) = if b == 0 {
                            c
                        } else {
                            (c.0 * f.0 - c.1 * f.1, c.0 * f.1 + c.1 * f.0)
                        };
                    }
                }
                Rc::new(w)
            })
            .clone()
    })
}

/// e^{−2πik/len} for 0 ≤ k < len/4 (len ≥ 4 a power of two), as len/4 real parts then len/4
/// imaginary parts. Up to k = len/8 from libm's cos and sin: directly for short lengths, else as
/// the product of those at a multiple of 64 and at the remainder (within a few ulp, and no
/// recurrence to drift); above, exactly by the symmetry w_{len/4 − k} = −i·conj(w_k).
fn quadrant(len: usize) -> Vec<f64> {
    const B: usize = 64;
    let (q, e) = (len / 4, len / 8);
    let exact = |k: usize| {
        if k == 0 {
            return (1.0, 0.0);
        }
        let a = -2.0 * std::f64::consts::PI * k as f64 / len as f64;
        (libm::cos(a), libm::sin(a))
    };
    let mut w = vec![0.0; 2 * q];
    let (re, im) = w.split_at_mut(q);
    if e <= 8 * B {
        for k in 0..=e.min(q - 1) {
            (re[k], im[k]) = exact(k);
        }
    } else {
        let fine: Vec<(f64, f64)> = (0..B).map(exact).collect();
        for a in 0..=e / B {
            let c = exact(a * B);
            for (b, f) in fine.iter().enumerate().take(e + 1 - a * B) {
                let k = a * B + b;
                (re[k], im[k]) = if b == 0 {
                    c
                } else {
                    (c.0 * f.0 - c.1 * f.1, c.0 * f.1 + c.1 * f.0)
                };
            }
        }
    }
    for k in e + 1..q {
        let (a, b) = (re[q - k], im[q - k]);
        re[k] = -b;
        im[k] = -a;
    }
    w
}

/// The table of the stage of span `span` (a power of two, 4 ≤ span ≤ len) from the
/// [`quadrant`] of `len`: w^k_j = e^{−2πi·kj/span} = (the root of index kj·len/span), using
/// w_{i + len/4} = −i·w_i and w_{i + len/2} = −w_i.
fn stage_table(quad: &[f64], len: usize, span: usize) -> Vec<f64> {
    let (q, s, stride) = (len / 4, span / 4, len / span);
    let (qr, qi) = quad.split_at(q);
    let powers = if span > COMPACT_ABOVE { 1 } else { 3 };
    let mut w = Vec::with_capacity(2 * powers * s);
    for k in 1..=powers {
        // Index i = k·j·stride: in the first quadrant for j < j1, the second for j1 ≤ j < j2, the
        // third after, where w_i = (qr, qi)[i], (qi, −qr)[i − q], (−qr, −qi)[i − 2q].
        let step = k * stride;
        let j1 = q.div_ceil(step).min(s);
        let j2 = (2 * q).div_ceil(step).min(s);
        for [a, b, c] in [
            [(qr, 1.0), (qi, 1.0), (qr, -1.0)],
            [(qi, 1.0), (qr, -1.0), (qi, -1.0)],
        ] {
            for (range, (src, sign), off) in [(0..j1, a, 0), (j1..j2, b, q), (j2..s, c, 2 * q)] {
                w.extend(range.map(|j| sign * src[j * step - off]));
            }
        }
    }
    w
}

/// The tables of the radix-4 stages of a transform of length n: spans n, n/4, … down to 4 or 8.
/// Each span's table is made from that span's own [`quadrant`], never from a larger one's, so its
/// values do not depend on which transforms ran before (a composition gives the same bits in a
/// fresh process and after others; the app's quick pass runs before its refined one).
fn tables(n: usize) -> Vec<Table> {
    let top = n.trailing_zeros() as usize;
    let logs: Vec<usize> = (2..=top).rev().step_by(2).collect();
    TABLES.with(|t| {
        let mut t = t.borrow_mut();
        if t.len() <= top {
            t.resize(top + 1, None);
        }
        for &l in &logs {
            if t[l].is_none() {
                let len = 1usize << l;
                let quad = quadrant(len);
                // The largest spans' tables are their quadrants (compact).
                t[l] = Some(Rc::new(if len > COMPACT_ABOVE {
                    quad
                } else {
                    stage_table(&quad, len, len)
                }));
            }
        }
        logs.iter().filter_map(|&l| t[l].clone()).collect()
    })
}

fn check(re: &[f64], im: &[f64]) {
    assert!(
        re.len() == im.len() && (re.len().is_power_of_two() || third(re.len()).is_some()),
        "FFT needs two arrays of the same length, a power of two or 3·2^m (2^m ≥ 1024)"
    );
}

/// Forward transform X[f] = Σ x[t] e^{−2πift/n} in place; the result is in bit-reversed order
/// (position p holds X[rev(p)]); for n = 3M, position rM + p holds X[3·rev(p) + r].
pub(crate) fn forward(re: &mut [f64], im: &mut [f64]) {
    check(re, im);
    if let Some(m) = third(re.len()) {
        dif3(re, im, &third_table(re.len()));
        let t = tables(m);
        for (r, i) in re.chunks_exact_mut(m).zip(im.chunks_exact_mut(m)) {
            dif(r, i, &t);
        }
    } else if re.len() > 1 {
        dif(re, im, &tables(re.len()));
    }
}

/// Inverse transform x[t] = Σ X[f] e^{+2πift/n} in place, from the order left by [`forward`] to
/// natural order, without the factor 1/n.
pub(crate) fn inverse_unscaled(re: &mut [f64], im: &mut [f64]) {
    check(re, im);
    if let Some(m) = third(re.len()) {
        let t = tables(m);
        for (r, i) in re.chunks_exact_mut(m).zip(im.chunks_exact_mut(m)) {
            dit(r, i, &t);
        }
        dit3(re, im, &third_table(re.len()));
    } else if re.len() > 1 {
        dit(re, im, &tables(re.len()));
    }
}

/// Splits a slice of 3s into its thirds.
#[inline(always)]
fn thirds(x: &mut [f64]) -> [&mut [f64]; 3] {
    let s = x.len() / 3;
    let (a, rest) = x.split_at_mut(s);
    let (b, c) = rest.split_at_mut(s);
    [a, b, &mut c[..s]]
}

/// √3/2.
const SIN_THIRD: f64 = 0.866_025_403_784_438_6;

/// The radix-3 DIF stage of length n = 3M: with ω = e^{−2πi/3}, s = x₁ + x₂, d = x₁ − x₂,
/// m = x₀ − s/2: x₀ ← x₀ + s, x₁ ← (m − i(√3/2)d)·wʲ, x₂ ← (m + i(√3/2)d)·w²ʲ, w = e^{−2πi/n}
/// (so third r is the signal whose length-M transform gives the frequencies 3k + r).
fn dif3(re: &mut [f64], im: &mut [f64], w: &[f64]) {
    let m = re.len() / 3;
    let (wr, wi) = w.split_at(m);
    let [r0, r1, r2] = thirds(re);
    let [i0, i1, i2] = thirds(im);
    for j in 0..m {
        let (sr, si) = (r1[j] + r2[j], i1[j] + i2[j]);
        let (dr, di) = (r1[j] - r2[j], i1[j] - i2[j]);
        let (mr, mi) = (r0[j] - 0.5 * sr, i0[j] - 0.5 * si);
        r0[j] += sr;
        i0[j] += si;
        // −i(√3/2)d
        let (er, ei) = (SIN_THIRD * di, -SIN_THIRD * dr);
        let (ar, ai) = (wr[j], wi[j]);
        let (ur, ui) = (mr + er, mi + ei);
        r1[j] = ur * ar - ui * ai;
        i1[j] = ur * ai + ui * ar;
        let (br, bi) = (ar * ar - ai * ai, 2.0 * (ar * ai));
        let (ur, ui) = (mr - er, mi - ei);
        r2[j] = ur * br - ui * bi;
        i2[j] = ur * bi + ui * br;
    }
}

/// The inverse of [`dif3`] (times 3): c₁ = x₁·conj wʲ, c₂ = x₂·conj w²ʲ, s = c₁ + c₂,
/// d = c₁ − c₂, m = x₀ − s/2: x₀ ← x₀ + s, x₁ ← m + i(√3/2)d, x₂ ← m − i(√3/2)d.
fn dit3(re: &mut [f64], im: &mut [f64], w: &[f64]) {
    let m = re.len() / 3;
    let (wr, wi) = w.split_at(m);
    let [r0, r1, r2] = thirds(re);
    let [i0, i1, i2] = thirds(im);
    for j in 0..m {
        let (ar, ai) = (wr[j], wi[j]);
        let (br, bi) = (ar * ar - ai * ai, 2.0 * (ar * ai));
        let (xr, xi) = (r1[j], i1[j]);
        let (c1r, c1i) = (xr * ar + xi * ai, xi * ar - xr * ai);
        let (xr, xi) = (r2[j], i2[j]);
        let (c2r, c2i) = (xr * br + xi * bi, xi * br - xr * bi);
        let (sr, si) = (c1r + c2r, c1i + c2i);
        let (dr, di) = (c1r - c2r, c1i - c2i);
        let (mr, mi) = (r0[j] - 0.5 * sr, i0[j] - 0.5 * si);
        r0[j] += sr;
        i0[j] += si;
        // i(√3/2)d
        let (er, ei) = (-SIN_THIRD * di, SIN_THIRD * dr);
        r1[j] = mr + er;
        i1[j] = mi + ei;
        r2[j] = mr - er;
        i2[j] = mi - ei;
    }
}

/// Lanes of a [`Pair`]: frequencies handled together.
pub(crate) const LANES: usize = 64;

/// Up to [`LANES`] frequencies f of the half spectra X_a, X_b of two real signals a and b, as split
/// arrays (unused lanes are zero).
pub(crate) struct Pair {
    pub ar: [f64; LANES],
    pub ai: [f64; LANES],
    pub br: [f64; LANES],
    pub bi: [f64; LANES],
}

/// Where a [`Pair`] lives in a spectrum of length n in bit-reversed order: its lanes are the
/// positions p, p + 1, …, p + len − 1, whose partners (frequency n − f) are q,
/// q − 1, …, q − len + 1; and entries h … h + len − 1 of a half spectrum stored in that order.
pub(crate) struct Chunk {
    pub h: usize,
    pub p: usize,
    pub q: usize,
    pub len: usize,
}

/// The chunks covering one frequency of each pair {f, n − f} (n/2 + 1 in all) of a spectrum of
/// length n ≥ 2 in the order [`forward`] leaves it. A power of two: positions 0 and 1 (f = 0 and
/// n/2, their own partners), then for 1 ≤ k < log₂ n the first half of the positions
/// [2^k, 2^{k+1}), whose partners are the second half in reverse. n = 3M: the first third as a
/// spectrum of length M (frequency 3k pairs with 3(M − k)), then the second third, whose position
/// M + p (f = 3·rev(p) + 1) pairs with position 3M − 1 − p (f = 3(M − 1 − rev(p)) + 2 = n − f).
pub(crate) fn half_chunks(n: usize) -> impl Iterator<Item = Chunk> {
    let m = third(n);
    let base = m.unwrap_or(n);
    debug_assert!(base >= 2 && base.is_power_of_two());
    let lanes = |(h, p, q, len): (usize, usize, usize, usize)| {
        (0..len).step_by(LANES).map(move |c| Chunk {
            h: h + c,
            p: p + c,
            q: q - c,
            len: (len - c).min(LANES),
        })
    };
    [(0, 0, 0, 1), (1, 1, 1, 1)]
        .into_iter()
        .chain((1..base.trailing_zeros()).map(|k| {
            let b = 1usize << k;
            (b / 2 + 1, b, 2 * b - 1, b / 2)
        }))
        .chain(m.map(|m| (m / 2 + 1, m, 3 * m - 1, m)))
        .flat_map(lanes)
}

impl Pair {
    /// Lanes all zero.
    pub fn zero() -> Pair {
        Pair {
            ar: [0.0; LANES],
            ai: [0.0; LANES],
            br: [0.0; LANES],
            bi: [0.0; LANES],
        }
    }

    /// From the spectrum Z of a + ib (bit-reversed order): X_a = (Z[f] + conj Z[n − f])/2,
    /// X_b = (Z[f] − conj Z[n − f])/(2i).
    pub fn split(re: &[f64], im: &[f64], c: &Chunk) -> Pair {
        let len = c.len;
        let mut x = Pair::zero();
        let (zr, zi) = (&re[c.p..c.p + len], &im[c.p..c.p + len]);
        let (wr, wi) = (&re[c.q + 1 - len..=c.q], &im[c.q + 1 - len..=c.q]);
        for r in 0..len {
            let (cr, ci) = (wr[len - 1 - r], -wi[len - 1 - r]);
            x.ar[r] = 0.5 * (zr[r] + cr);
            x.ai[r] = 0.5 * (zi[r] + ci);
            x.br[r] = 0.5 * (zi[r] - ci);
            x.bi[r] = -(0.5 * (zr[r] - cr));
        }
        x
    }

    /// Writes the spectrum of A + iB, times `scale`, at the chunk's positions and their partners
    /// (A[n − f] = conj A[f], likewise B).
    pub fn join(&self, re: &mut [f64], im: &mut [f64], c: &Chunk, scale: f64) {
        let len = c.len;
        // Partners first: where p = q (f = 0 or n/2) the value at f is the one kept.
        let (wr, wi) = (&mut re[c.q + 1 - len..=c.q], &mut im[c.q + 1 - len..=c.q]);
        for r in 0..len {
            // conj A + i conj B.
            wr[len - 1 - r] = (self.ar[r] + self.bi[r]) * scale;
            wi[len - 1 - r] = (self.br[r] - self.ai[r]) * scale;
        }
        let (zr, zi) = (&mut re[c.p..c.p + len], &mut im[c.p..c.p + len]);
        for r in 0..len {
            zr[r] = (self.ar[r] - self.bi[r]) * scale;
            zi[r] = (self.ai[r] + self.br[r]) * scale;
        }
    }
}

/// Decimation in frequency, natural order to bit-reversed.
fn dif(re: &mut [f64], im: &mut [f64], tables: &[Table]) {
    let n = re.len();
    if n <= LEAF {
        let mut span = n;
        let mut t = 0;
        while span >= 4 {
            if span == 4 {
                for (r, i) in re.chunks_exact_mut(4).zip(im.chunks_exact_mut(4)) {
                    dif4_unit(r, i);
                }
            } else {
                for (r, i) in re.chunks_exact_mut(span).zip(im.chunks_exact_mut(span)) {
                    dif4(r, i, &tables[t]);
                }
            }
            span /= 4;
            t += 1;
        }
        if span == 2 {
            radix2(re, im);
        }
        return;
    }
    dif4(re, im, &tables[0]);
    let q = n / 4;
    for (r, i) in re.chunks_exact_mut(q).zip(im.chunks_exact_mut(q)) {
        dif(r, i, &tables[1..]);
    }
}

/// Decimation in time, bit-reversed order to natural, unscaled.
fn dit(re: &mut [f64], im: &mut [f64], tables: &[Table]) {
    let n = re.len();
    if n <= LEAF {
        let mut span = if n.trailing_zeros() % 2 == 1 {
            radix2(re, im);
            8
        } else {
            4
        };
        let mut t = tables.len();
        while span <= n {
            t -= 1;
            if span == 4 {
                for (r, i) in re.chunks_exact_mut(4).zip(im.chunks_exact_mut(4)) {
                    dit4_unit(r, i);
                }
            } else {
                for (r, i) in re.chunks_exact_mut(span).zip(im.chunks_exact_mut(span)) {
                    dit4(r, i, &tables[t]);
                }
            }
            span *= 4;
        }
        return;
    }
    let q = n / 4;
    for (r, i) in re.chunks_exact_mut(q).zip(im.chunks_exact_mut(q)) {
        dit(r, i, &tables[1..]);
    }
    dit4(re, im, &tables[0]);
}

/// Radix-2 butterflies (x₀ + x₁, x₀ − x₁) on consecutive pairs: the span-2 stage, in either
/// direction.
fn radix2(re: &mut [f64], im: &mut [f64]) {
    for v in re.chunks_exact_mut(2).chain(im.chunks_exact_mut(2)) {
        let (a, b) = (v[0], v[1]);
        v[0] = a + b;
        v[1] = a - b;
    }
}

/// Splits a slice of 4s into its quarters.
#[inline(always)]
fn quarters(x: &mut [f64]) -> [&mut [f64]; 4] {
    let s = x.len() / 4;
    let (a, rest) = x.split_at_mut(s);
    let (b, rest) = rest.split_at_mut(s);
    let (c, d) = rest.split_at_mut(s);
    [a, b, c, &mut d[..s]]
}

/// One radix-4 DIF stage of span 4s (two radix-2 stages): with t₀ = x₀ + x₂, t₁ = x₀ − x₂,
/// t₂ = x₁ + x₃, t₃ = −i(x₁ − x₃): x₀ ← t₀ + t₂, x₁ ← (t₀ − t₂)w², x₂ ← (t₁ + t₃)w¹,
/// x₃ ← (t₁ − t₃)w³.
fn dif4(re: &mut [f64], im: &mut [f64], w: &[f64]) {
    let s = re.len() / 4;
    if w.len() == 2 * s {
        let (w1r, w1i) = w.split_at(s);
        dif4_by(re, im, |j| compact_twiddles(w1r[j], w1i[j]));
    } else {
        let w = &w[..6 * s];
        let (w1r, w1i) = (&w[..s], &w[s..2 * s]);
        let (w2r, w2i) = (&w[2 * s..3 * s], &w[3 * s..4 * s]);
        let (w3r, w3i) = (&w[4 * s..5 * s], &w[5 * s..6 * s]);
        dif4_by(re, im, |j| [w1r[j], w1i[j], w2r[j], w2i[j], w3r[j], w3i[j]]);
    }
}

/// w¹, w² = (w¹)², w³ = w¹·w² from w¹ (re, im), as (Re w¹, Im w¹, Re w², …).
#[inline(always)]
fn compact_twiddles(ar: f64, ai: f64) -> [f64; 6] {
    let (br, bi) = (ar * ar - ai * ai, 2.0 * (ar * ai));
    [ar, ai, br, bi, ar * br - ai * bi, ar * bi + ai * br]
}

#[inline(always)]
fn dif4_by(re: &mut [f64], im: &mut [f64], tw: impl Fn(usize) -> [f64; 6]) {
    let s = re.len() / 4;
    let [r0, r1, r2, r3] = quarters(re);
    let [i0, i1, i2, i3] = quarters(im);
    for j in 0..s {
        let [w1r, w1i, w2r, w2i, w3r, w3i] = tw(j);
        let (a0r, a0i, a1r, a1i) = (r0[j], i0[j], r1[j], i1[j]);
        let (a2r, a2i, a3r, a3i) = (r2[j], i2[j], r3[j], i3[j]);
        let (t0r, t0i) = (a0r + a2r, a0i + a2i);
        let (t1r, t1i) = (a0r - a2r, a0i - a2i);
        let (t2r, t2i) = (a1r + a3r, a1i + a3i);
        let (t3r, t3i) = (a1i - a3i, a3r - a1r);
        r0[j] = t0r + t2r;
        i0[j] = t0i + t2i;
        let (ur, ui) = (t0r - t2r, t0i - t2i);
        r1[j] = ur * w2r - ui * w2i;
        i1[j] = ur * w2i + ui * w2r;
        let (ur, ui) = (t1r + t3r, t1i + t3i);
        r2[j] = ur * w1r - ui * w1i;
        i2[j] = ur * w1i + ui * w1r;
        let (ur, ui) = (t1r - t3r, t1i - t3i);
        r3[j] = ur * w3r - ui * w3i;
        i3[j] = ur * w3i + ui * w3r;
    }
}

/// [`dif4`] of span 4 (all twiddles 1).
#[inline(always)]
fn dif4_unit(r: &mut [f64], i: &mut [f64]) {
    let (t0r, t0i) = (r[0] + r[2], i[0] + i[2]);
    let (t1r, t1i) = (r[0] - r[2], i[0] - i[2]);
    let (t2r, t2i) = (r[1] + r[3], i[1] + i[3]);
    let (t3r, t3i) = (i[1] - i[3], r[3] - r[1]);
    r[0] = t0r + t2r;
    i[0] = t0i + t2i;
    r[1] = t0r - t2r;
    i[1] = t0i - t2i;
    r[2] = t1r + t3r;
    i[2] = t1i + t3i;
    r[3] = t1r - t3r;
    i[3] = t1i - t3i;
}

/// The inverse of [`dif4`] (times 4): with c₀ = x₀, c₁ = x₁·conj w², c₂ = x₂·conj w¹,
/// c₃ = x₃·conj w³: x₀ ← (c₀ + c₁) + (c₂ + c₃), x₂ ← (c₀ + c₁) − (c₂ + c₃),
/// x₁ ← (c₀ − c₁) + i(c₂ − c₃), x₃ ← (c₀ − c₁) − i(c₂ − c₃).
fn dit4(re: &mut [f64], im: &mut [f64], w: &[f64]) {
    let s = re.len() / 4;
    if w.len() == 2 * s {
        let (w1r, w1i) = w.split_at(s);
        dit4_by(re, im, |j| compact_twiddles(w1r[j], w1i[j]));
    } else {
        let w = &w[..6 * s];
        let (w1r, w1i) = (&w[..s], &w[s..2 * s]);
        let (w2r, w2i) = (&w[2 * s..3 * s], &w[3 * s..4 * s]);
        let (w3r, w3i) = (&w[4 * s..5 * s], &w[5 * s..6 * s]);
        dit4_by(re, im, |j| [w1r[j], w1i[j], w2r[j], w2i[j], w3r[j], w3i[j]]);
    }
}

#[inline(always)]
fn dit4_by(re: &mut [f64], im: &mut [f64], tw: impl Fn(usize) -> [f64; 6]) {
    let s = re.len() / 4;
    let [r0, r1, r2, r3] = quarters(re);
    let [i0, i1, i2, i3] = quarters(im);
    for j in 0..s {
        let [w1r, w1i, w2r, w2i, w3r, w3i] = tw(j);
        let (c0r, c0i) = (r0[j], i0[j]);
        let (xr, xi) = (r1[j], i1[j]);
        let (c1r, c1i) = (xr * w2r + xi * w2i, xi * w2r - xr * w2i);
        let (xr, xi) = (r2[j], i2[j]);
        let (c2r, c2i) = (xr * w1r + xi * w1i, xi * w1r - xr * w1i);
        let (xr, xi) = (r3[j], i3[j]);
        let (c3r, c3i) = (xr * w3r + xi * w3i, xi * w3r - xr * w3i);
        let (u0r, u0i) = (c0r + c1r, c0i + c1i);
        let (u1r, u1i) = (c0r - c1r, c0i - c1i);
        let (v0r, v0i) = (c2r + c3r, c2i + c3i);
        // i(c₂ − c₃)
        let (v1r, v1i) = (c3i - c2i, c2r - c3r);
        r0[j] = u0r + v0r;
        i0[j] = u0i + v0i;
        r2[j] = u0r - v0r;
        i2[j] = u0i - v0i;
        r1[j] = u1r + v1r;
        i1[j] = u1i + v1i;
        r3[j] = u1r - v1r;
        i3[j] = u1i - v1i;
    }
}

/// [`dit4`] of span 4 (all twiddles 1).
#[inline(always)]
fn dit4_unit(r: &mut [f64], i: &mut [f64]) {
    let (u0r, u0i) = (r[0] + r[1], i[0] + i[1]);
    let (u1r, u1i) = (r[0] - r[1], i[0] - i[1]);
    let (v0r, v0i) = (r[2] + r[3], i[2] + i[3]);
    let (v1r, v1i) = (i[3] - i[2], r[2] - r[3]);
    r[0] = u0r + v0r;
    i[0] = u0i + v0i;
    r[2] = u0r - v0r;
    i[2] = u0i - v0i;
    r[1] = u1r + v1r;
    i[1] = u1i + v1i;
    r[3] = u1r - v1r;
    i[3] = u1i - v1i;
}

#[cfg(test)]
// Tests compare against std's functions on purpose (an independent computation).
#[allow(clippy::disallowed_methods)]
mod tests;
