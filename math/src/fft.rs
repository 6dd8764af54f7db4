//! Complex FFT of a power-of-two length on split arrays (real parts and imaginary parts apart),
//! for the PLD accountant's convolutions.
//!
//! Radix 4 (two radix-2 stages merged, plus one plain radix-2 stage when the length is an odd
//! power of two), depth first: each stage of span n is followed by the four quarters, so once a
//! quarter fits in cache all its later stages run there. The forward transform is decimation in
//! frequency and leaves the spectrum in bit-reversed order; the inverse is decimation in time and
//! takes the spectrum in that order back to natural order. So no bit-reversal permutation is ever
//! made: whatever is done to the spectrum in between must be pointwise or use [`partner`] for
//! index n − f.
//!
//! Twiddles e^{−2πij/L}, e^{−2πi2j/L}, e^{−2πi3j/L} for j < L/4 are computed once per span L
//! (libm's sin and cos for the first eighth of the circle, the rest by its symmetries, so native
//! and wasm32 builds agree bit for bit), kept per thread and read contiguously by each stage. The
//! split layout lets the butterflies vectorise without shuffles where the target has SIMD.

use std::cell::RefCell;
use std::rc::Rc;

/// Below this length a block is transformed stage by stage (breadth first) instead of recursing.
const LEAF: usize = 1 << 10;

/// Twiddles of one radix-4 stage of span 4s, as six arrays of s: Re w¹, Im w¹, Re w², Im w²,
/// Re w³, Im w³ with w^k = e^{−2πi·kj/(4s)}.
type Table = Rc<Vec<f64>>;

thread_local! {
    /// Stage tables by log₂ of their span.
    static TABLES: RefCell<Vec<Option<Table>>> = const { RefCell::new(Vec::new()) };
}

/// e^{−2πik/len} for k < count (count ≤ len, len ≥ 4 a power of two): sin and cos for k ≤ len/8,
/// the rest exactly by the symmetries w_{len/4 − k} = −i·conj(w_k) and w_{k + len/4} = −i·w_k.
fn roots(len: usize, count: usize) -> (Vec<f64>, Vec<f64>) {
    let mut re = vec![1.0; count];
    let mut im = vec![0.0; count];
    let angle = |k: usize| -2.0 * std::f64::consts::PI * k as f64 / len as f64;
    let (q, e) = (len / 4, len / 8);
    for k in 1..count.min(e + 1) {
        re[k] = libm::cos(angle(k));
        im[k] = libm::sin(angle(k));
    }
    for k in e + 1..count.min(q + 1) {
        let (a, b) = (re[q - k], im[q - k]);
        re[k] = -b;
        im[k] = -a;
    }
    for k in q + 1..count {
        let (a, b) = (re[k - q], im[k - q]);
        re[k] = b;
        im[k] = -a;
    }
    (re, im)
}

/// The stage table of span 2^log (≥ 4), computed on first use.
fn table(log: usize) -> Table {
    TABLES.with(|t| {
        let mut t = t.borrow_mut();
        if t.len() <= log {
            t.resize(log + 1, None);
        }
        t[log]
            .get_or_insert_with(|| {
                let len = 1usize << log;
                let s = len / 4;
                let (re, im) = roots(len, 3 * s - 2);
                let mut w = Vec::with_capacity(6 * s);
                for k in 1..=3 {
                    w.extend((0..s).map(|j| re[k * j]));
                    w.extend((0..s).map(|j| im[k * j]));
                }
                Rc::new(w)
            })
            .clone()
    })
}

/// The tables of the radix-4 stages of a transform of length n: spans n, n/4, … down to 4 or 8.
fn tables(n: usize) -> Vec<Table> {
    let mut log = n.trailing_zeros() as usize;
    let mut out = Vec::new();
    while log >= 2 {
        out.push(table(log));
        log -= 2;
    }
    out
}

fn check(re: &[f64], im: &[f64]) {
    assert!(
        re.len() == im.len() && re.len().is_power_of_two(),
        "FFT needs two arrays of the same power-of-two length"
    );
}

/// Forward transform X[f] = Σ x[t] e^{−2πift/n} in place; the result is in bit-reversed order
/// (position p holds X[rev(p)]).
pub(crate) fn forward(re: &mut [f64], im: &mut [f64]) {
    check(re, im);
    if re.len() > 1 {
        dif(re, im, &tables(re.len()));
    }
}

/// Inverse transform x[t] = Σ X[f] e^{+2πift/n} in place, from bit-reversed order (as left by
/// [`forward`]) to natural order, without the factor 1/n.
pub(crate) fn inverse_unscaled(re: &mut [f64], im: &mut [f64]) {
    check(re, im);
    if re.len() > 1 {
        dit(re, im, &tables(re.len()));
    }
}

/// Position, in bit-reversed order of length n, of frequency n − f when position p holds f:
/// blocks [2^k, 2^{k+1}) map to themselves reversed; positions 0 and 1 (f = 0 and n/2) are their
/// own partners.
#[inline]
pub(crate) fn partner(p: usize) -> usize {
    if p < 2 {
        p
    } else {
        let top = 1usize << (usize::BITS - 1 - p.leading_zeros());
        3 * top - 1 - p
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
    let [r0, r1, r2, r3] = quarters(re);
    let [i0, i1, i2, i3] = quarters(im);
    let w = &w[..6 * s];
    let (w1r, w1i) = (&w[..s], &w[s..2 * s]);
    let (w2r, w2i) = (&w[2 * s..3 * s], &w[3 * s..4 * s]);
    let (w3r, w3i) = (&w[4 * s..5 * s], &w[5 * s..6 * s]);
    for j in 0..s {
        let (a0r, a0i, a1r, a1i) = (r0[j], i0[j], r1[j], i1[j]);
        let (a2r, a2i, a3r, a3i) = (r2[j], i2[j], r3[j], i3[j]);
        let (t0r, t0i) = (a0r + a2r, a0i + a2i);
        let (t1r, t1i) = (a0r - a2r, a0i - a2i);
        let (t2r, t2i) = (a1r + a3r, a1i + a3i);
        let (t3r, t3i) = (a1i - a3i, a3r - a1r);
        r0[j] = t0r + t2r;
        i0[j] = t0i + t2i;
        let (ur, ui) = (t0r - t2r, t0i - t2i);
        r1[j] = ur * w2r[j] - ui * w2i[j];
        i1[j] = ur * w2i[j] + ui * w2r[j];
        let (ur, ui) = (t1r + t3r, t1i + t3i);
        r2[j] = ur * w1r[j] - ui * w1i[j];
        i2[j] = ur * w1i[j] + ui * w1r[j];
        let (ur, ui) = (t1r - t3r, t1i - t3i);
        r3[j] = ur * w3r[j] - ui * w3i[j];
        i3[j] = ur * w3i[j] + ui * w3r[j];
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
    let [r0, r1, r2, r3] = quarters(re);
    let [i0, i1, i2, i3] = quarters(im);
    let w = &w[..6 * s];
    let (w1r, w1i) = (&w[..s], &w[s..2 * s]);
    let (w2r, w2i) = (&w[2 * s..3 * s], &w[3 * s..4 * s]);
    let (w3r, w3i) = (&w[4 * s..5 * s], &w[5 * s..6 * s]);
    for j in 0..s {
        let (c0r, c0i) = (r0[j], i0[j]);
        let (xr, xi) = (r1[j], i1[j]);
        let (c1r, c1i) = (xr * w2r[j] + xi * w2i[j], xi * w2r[j] - xr * w2i[j]);
        let (xr, xi) = (r2[j], i2[j]);
        let (c2r, c2i) = (xr * w1r[j] + xi * w1i[j], xi * w1r[j] - xr * w1i[j]);
        let (xr, xi) = (r3[j], i3[j]);
        let (c3r, c3i) = (xr * w3r[j] + xi * w3i[j], xi * w3r[j] - xr * w3i[j]);
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
mod tests {
    use super::*;

    fn bit_reverse(p: usize, n: usize) -> usize {
        if n == 1 {
            0
        } else {
            p.reverse_bits() >> (usize::BITS - n.trailing_zeros())
        }
    }

    fn naive(re: &[f64], im: &[f64], sign: f64) -> (Vec<f64>, Vec<f64>) {
        let n = re.len();
        (0..n)
            .map(|f| {
                let (mut a, mut b) = (0.0, 0.0);
                for t in 0..n {
                    let ang = sign * 2.0 * std::f64::consts::PI * ((f * t) % n) as f64 / n as f64;
                    let (c, s) = (ang.cos(), ang.sin());
                    a += re[t] * c - im[t] * s;
                    b += re[t] * s + im[t] * c;
                }
                (a, b)
            })
            .unzip()
    }

    fn signal(n: usize) -> (Vec<f64>, Vec<f64>) {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        };
        (0..n).map(|_| (next(), next())).unzip()
    }

    #[test]
    fn matches_the_definition_in_bit_reversed_order() {
        for log in 0..=11 {
            let n = 1usize << log;
            let (re, im) = signal(n);
            let (er, ei) = naive(&re, &im, -1.0);
            let (mut r, mut i) = (re.clone(), im.clone());
            forward(&mut r, &mut i);
            for p in 0..n {
                let f = bit_reverse(p, n);
                let err = (r[p] - er[f]).hypot(i[p] - ei[f]);
                assert!(err < 1e-12 * n as f64, "n = {n}, f = {f}: {err:e}");
            }
            inverse_unscaled(&mut r, &mut i);
            for t in 0..n {
                let err = (r[t] / n as f64 - re[t]).hypot(i[t] / n as f64 - im[t]);
                assert!(err < 1e-14, "n = {n}, t = {t}: {err:e}");
            }
            // The inverse alone against the definition (input in bit-reversed order).
            let (mut r, mut i): (Vec<f64>, Vec<f64>) = (0..n)
                .map(|p| (re[bit_reverse(p, n)], im[bit_reverse(p, n)]))
                .unzip();
            inverse_unscaled(&mut r, &mut i);
            let (er, ei) = naive(&re, &im, 1.0);
            for t in 0..n {
                let err = (r[t] - er[t]).hypot(i[t] - ei[t]);
                assert!(err < 1e-12 * n as f64, "n = {n}, t = {t}: {err:e}");
            }
        }
    }

    #[test]
    fn partner_is_the_negated_frequency() {
        for log in 0..=12 {
            let n = 1usize << log;
            for p in 0..n {
                let f = bit_reverse(p, n);
                assert_eq!(bit_reverse(partner(p), n), (n - f) % n, "n = {n}, p = {p}");
            }
        }
    }
}

#[cfg(test)]
mod zz_bench {
    use super::*;
    use std::time::Instant;
    type C = (f64, f64);
    fn cmul(a: C, b: C) -> C {
        (a.0 * b.0 - a.1 * b.1, a.0 * b.1 + a.1 * b.0)
    }

    /// In-place iterative radix-2 FFT of a power-of-two length; `inverse` uses e^{+2πi/n} and scales
    /// by 1/n. Twiddles come from sin/cos of each index (no recurrence drift), laid out per stage so
    /// the inner loop reads them contiguously.
    fn fft(x: &mut [C], inverse: bool) {
        let n = x.len();
        let mut j = 0;
        for i in 1..n {
            let mut bit = n >> 1;
            while j & bit != 0 {
                j ^= bit;
                bit >>= 1;
            }
            j |= bit;
            if i < j {
                x.swap(i, j);
            }
        }
        let root = roots(n);
        let conj = inverse;
        let mut stage: Vec<C> = Vec::with_capacity(n / 2);
        let mut len = 2;
        while len <= n {
            let half = len / 2;
            let stride = n / len;
            stage.clear();
            stage.extend((0..half).map(|k| {
                let w = root[k * stride];
                if conj {
                    (w.0, -w.1)
                } else {
                    w
                }
            }));
            for block in x.chunks_exact_mut(len) {
                let (a, b) = block.split_at_mut(half);
                for ((u, v), w) in a.iter_mut().zip(b.iter_mut()).zip(&stage) {
                    let t = cmul(*v, *w);
                    *v = (u.0 - t.0, u.1 - t.1);
                    *u = (u.0 + t.0, u.1 + t.1);
                }
            }
            len <<= 1;
        }
        if inverse {
            let s = 1.0 / n as f64;
            for v in x.iter_mut() {
                *v = (v.0 * s, v.1 * s);
            }
        }
    }

    thread_local! {
        static ROOTS: std::cell::RefCell<(usize, std::rc::Rc<Vec<C>>)> =
            std::cell::RefCell::new((0, std::rc::Rc::new(Vec::new())));
    }

    /// e^{−2πik/n} for k < n/2, cached for the last size used (sin/cos of each k, no recurrence).
    fn roots(n: usize) -> std::rc::Rc<Vec<C>> {
        ROOTS.with(|r| {
            let mut r = r.borrow_mut();
            if r.0 != n {
                // sin/cos for k ≤ n/8 only; the rest by the symmetries of the circle:
                // w_{n/4−k} = −i·conj(w_k), w_{k+n/4} = −i·w_k.
                let half = n / 2;
                let mut v: Vec<C> = vec![(1.0, 0.0); half.max(1)];
                let angle = |k: usize| -2.0 * std::f64::consts::PI * k as f64 / n as f64;
                if n >= 8 {
                    let (q, e) = (n / 4, n / 8);
                    for (k, w) in v.iter_mut().enumerate().take(e + 1) {
                        let a = angle(k);
                        *w = (a.cos(), a.sin());
                    }
                    for k in e + 1..=q.min(half - 1) {
                        let (a, b) = v[q - k];
                        v[k] = (-b, -a);
                    }
                    for k in q + 1..half {
                        let (a, b) = v[k - q];
                        v[k] = (b, -a);
                    }
                } else {
                    for (k, w) in v.iter_mut().enumerate() {
                        let a = angle(k);
                        *w = (a.cos(), a.sin());
                    }
                }
                *r = (n, std::rc::Rc::new(v));
            }
            r.1.clone()
        })
    }

    fn two_sum(a: f64, b: f64) -> (f64, f64) {
        let s = a + b;
        let bb = s - a;
        (s, (a - (s - bb)) + (b - bb))
    }
    fn two_prod(a: f64, b: f64) -> (f64, f64) {
        let p = a * b;
        (p, a.mul_add(b, -p))
    }
    // double-double accumulate
    fn dd_add(x: (f64, f64), y: f64) -> (f64, f64) {
        let (s, e) = two_sum(x.0, y);
        let e = e + x.1;
        two_sum(s, e)
    }

    #[test]
    #[ignore]
    fn zz_accuracy() {
        let n = 1usize << 12;
        let mut st = 12345u64;
        let mut rnd = || {
            st ^= st << 13;
            st ^= st >> 7;
            st ^= st << 17;
            (st >> 11) as f64 / (1u64 << 53) as f64
        };
        let re: Vec<f64> = (0..n).map(|_| rnd()).collect();
        let im: Vec<f64> = (0..n).map(|_| rnd()).collect();
        // reference: twiddles in double-double via libm of reduced angle is not exact; use long double-ish trick:
        // cos/sin of 2πk/n for k<n accurate to 0.5ulp; products in double-double.
        let (wr, wi) = super::roots(n, n);
        let mut er = vec![0.0; n];
        let mut ei = vec![0.0; n];
        for f in 0..n {
            let (mut a, mut b) = ((0.0, 0.0), (0.0, 0.0));
            for t in 0..n {
                let k = (f * t) % n;
                let (c, s) = (wr[k], wi[k]);
                let p1 = two_prod(re[t], c);
                let p2 = two_prod(im[t], s);
                a = dd_add(a, p1.0);
                a = dd_add(a, p1.1);
                a = dd_add(a, -p2.0);
                a = dd_add(a, -p2.1);
                let p3 = two_prod(re[t], s);
                let p4 = two_prod(im[t], c);
                b = dd_add(b, p3.0);
                b = dd_add(b, p3.1);
                b = dd_add(b, p4.0);
                b = dd_add(b, p4.1);
            }
            er[f] = a.0 + a.1;
            ei[f] = b.0 + b.1;
        }
        let (mut r, mut i) = (re.clone(), im.clone());
        forward(&mut r, &mut i);
        let bits = n.trailing_zeros();
        let mut e_new = 0.0f64;
        let mut e_new_max = 0.0f64;
        for p in 0..n {
            let f = p.reverse_bits() >> (usize::BITS - bits);
            let d = (r[p] - er[f]).hypot(i[p] - ei[f]);
            e_new += d * d;
            e_new_max = e_new_max.max(d);
        }
        let mut x: Vec<C> = re.iter().zip(&im).map(|(&a, &b)| (a, b)).collect();
        fft(&mut x, false);
        let mut e_old = 0.0f64;
        let mut e_old_max = 0.0f64;
        for f in 0..n {
            let d = (x[f].0 - er[f]).hypot(x[f].1 - ei[f]);
            e_old += d * d;
            e_old_max = e_old_max.max(d);
        }
        println!(
            "n={n}: rms err new {:.3e} old {:.3e}; max new {:.3e} old {:.3e}",
            (e_new / n as f64).sqrt(),
            (e_old / n as f64).sqrt(),
            e_new_max,
            e_old_max
        );
    }

    #[test]
    #[ignore]
    fn zz_bench_fft() {
        for log in [16usize, 17, 18, 22] {
            let n = 1usize << log;
            let mut re: Vec<f64> = (0..n).map(|i| (i % 7) as f64).collect();
            let mut im: Vec<f64> = (0..n).map(|i| (i % 5) as f64).collect();
            let mut x: Vec<(f64, f64)> = re.iter().zip(&im).map(|(&a, &b)| (a, b)).collect();
            let reps = if log > 20 { 3 } else { 20 };
            let (mut tf, mut ti, mut to) = (f64::MAX, f64::MAX, f64::MAX);
            for _ in 0..reps {
                let t = Instant::now();
                forward(&mut re, &mut im);
                tf = tf.min(t.elapsed().as_secs_f64());
                let t = Instant::now();
                inverse_unscaled(&mut re, &mut im);
                ti = ti.min(t.elapsed().as_secs_f64());
                let s = 1.0 / n as f64;
                re.iter_mut().chain(im.iter_mut()).for_each(|v| *v *= s);
                let t = Instant::now();
                fft(&mut x, false);
                to = to.min(t.elapsed().as_secs_f64());
                fft(&mut x, true);
            }
            println!(
                "n=2^{log}: forward {:.3} ms inverse {:.3} ms; old {:.3} ms",
                tf * 1e3,
                ti * 1e3,
                to * 1e3
            );
        }
    }
}
