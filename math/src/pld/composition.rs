//! Composition: self-composition and composition of different PLDs by one FFT, in a window
//! sized from Chernoff bounds so that wrapped-around mass is accounted for.

#[allow(unused_imports)]
use super::*;

/// A power k to raise spectra to, and how small |z|² must be for z^k to be negligible: below
/// 1e-250 in modulus (beyond anything a mass or δ can register), so those are set to 0.
#[derive(Clone, Copy)]
pub(super) struct Power {
    pub(super) k: u64,
    pub(super) negligible: f64,
}

impl Power {
    pub(super) fn new(k: u64) -> Power {
        let negligible = if k == 0 {
            -1.0
        } else {
            // |z^k| = (|z|²)^{k/2} ≤ 1e-250.
            exp(2.0 * ln(1e-250) / k as f64)
        };
        Power { k, negligible }
    }

    /// z ↦ z^k on each lane of (re, im), by binary powering: the same operations in the same
    /// order as for one number at a time, on fixed-length arrays so that the loops vectorise.
    pub(super) fn apply(self, re: &mut [f64; LANES], im: &mut [f64; LANES]) {
        let largest = (0..LANES).fold(0.0f64, |m, j| m.max(re[j] * re[j] + im[j] * im[j]));
        if largest <= self.negligible {
            (*re, *im) = ([0.0; LANES], [0.0; LANES]);
            return;
        }
        let (mut rr, mut ri) = ([1.0; LANES], [0.0; LANES]);
        let mut k = self.k;
        while k > 0 {
            if k & 1 == 1 {
                for j in 0..LANES {
                    let (a, b) = (rr[j], ri[j]);
                    rr[j] = a * re[j] - b * im[j];
                    ri[j] = a * im[j] + b * re[j];
                }
            }
            k >>= 1;
            if k > 0 {
                for j in 0..LANES {
                    let (a, b) = (re[j], im[j]);
                    re[j] = a * a - b * b;
                    im[j] = a * b + b * a;
                }
            }
        }
        (*re, *im) = (rr, ri);
    }
}

/// Both half spectra of a [`Pair`] to their powers: X_a^{ka}, X_b^{kb}.
pub(super) fn pow_pair(x: &mut Pair, ka: Power, kb: Power) {
    ka.apply(&mut x.ar, &mut x.ai);
    kb.apply(&mut x.br, &mut x.bi);
}

/// Where a composition's finite mass lies: its full support [lo, hi] in grid indices and the
/// window [i_lo, i_hi] outside which at most [`TAIL`] lies on each side.
pub(super) struct Window {
    pub(super) lo: i128,
    pub(super) hi: i128,
    pub(super) i_lo: i64,
    pub(super) i_hi: i64,
}

impl Window {
    pub(super) fn span(&self) -> usize {
        (self.i_hi - self.i_lo + 1) as usize
    }
}

pub(super) fn check_parts<'a>(parts: &[(&'a Pld, u64)]) -> Result<Vec<(&'a Pld, u64)>, MathError> {
    let first = parts.first().ok_or(MathError::Inconsistent {
        reason: "nothing to compose".into(),
    })?;
    let (step, estimate) = (first.0.step, first.0.estimate);
    if parts
        .iter()
        .any(|(p, _)| p.step != step || p.estimate != estimate)
    {
        return Err(MathError::Inconsistent {
            reason: "PLDs composed together need the same grid step and rounding".into(),
        });
    }
    let kept: Vec<(&Pld, u64)> = parts.iter().copied().filter(|p| p.1 > 0).collect();
    if kept.is_empty() {
        return Err(MathError::Inconsistent {
            reason: "compose at least one step".into(),
        });
    }
    Ok(kept)
}

/// Chernoff: P(S ≥ a) ≤ e^{Σ kΛ(t) − t a} for t > 0 and P(S ≤ a) ≤ e^{Σ kΛ(−t) + t a}, minimised
/// over a geometric grid of t.
pub(super) fn window(parts: &[(&Pld, u64)]) -> Window {
    let step = parts[0].0.step;
    let (mut lo, mut hi) = (0i128, 0i128);
    for (p, k) in parts {
        // In i128: at 10¹² steps the full support can leave i64; the window never does.
        lo += p.offset as i128 * *k as i128;
        hi += (p.offset + p.masses.len() as i64 - 1) as i128 * *k as i128;
    }
    let ln_tail = ln(TAIL);
    let (mut w_lo, mut w_hi) = (lo as f64 * step, hi as f64 * step);
    let mut t = 1e-2;
    while t <= 2e3 {
        let up: f64 = parts.iter().map(|(p, k)| *k as f64 * p.ln_mgf(t)).sum();
        let down: f64 = parts.iter().map(|(p, k)| *k as f64 * p.ln_mgf(-t)).sum();
        if up.is_finite() {
            w_hi = w_hi.min((up - ln_tail) / t);
        }
        if down.is_finite() {
            w_lo = w_lo.max(-(down - ln_tail) / t);
        }
        t *= 1.3;
    }
    let i_lo = ((w_lo / step).floor() as i128).max(lo) as i64;
    let i_hi = ((w_hi / step).ceil() as i128).min(hi).max(i_lo as i128) as i64;
    Window { lo, hi, i_lo, i_hi }
}

/// A PLD's masses (or nothing) as a signal, mass i at position i mod n (n, the length of `out`, a
/// transform length). Every entry is written before any is read, so fresh pages are only touched
/// once.
pub(super) fn load(p: Option<&Pld>, out: &mut [f64]) {
    let masses = p.map_or(&[][..], |p| &p.masses[..]);
    let head = masses.len().min(out.len());
    out[..head].copy_from_slice(&masses[..head]);
    out[head..].fill(0.0);
    let n = out.len();
    for (i, &m) in masses.iter().enumerate().skip(head) {
        out[i % n] += m;
    }
}

/// Move the cyclic window of `v` from index rot, span values long (indices mod n = v.len(),
/// span ≤ n), to the front, each value clamped at 0: the same as `rotate_left(rot)` then clamping
/// the first span values, in about one pass over the window. A window that wraps around is two
/// pieces, the head v[rot..] and the tail v[..tail]: if the tail's place (after the head) ends
/// before the head starts, the tail moves up and then the head down; otherwise the shorter piece,
/// if short (at most n/32), is set aside while the other moves; otherwise `rotate_left`.
pub(super) fn window_to_front(v: &mut [f64], rot: usize, span: usize) {
    let n = v.len();
    let head = (n - rot).min(span);
    let tail = span - head;
    if tail > 0 && span <= rot {
        // Backward: the tail's place may overlap where it is.
        for t in (0..tail).rev() {
            v[head + t] = v[t].max(0.0);
        }
        for t in 0..head {
            v[t] = v[rot + t].max(0.0);
        }
    } else if tail <= n / 32 {
        let saved: Vec<f64> = v[..tail].iter().map(|m| m.max(0.0)).collect();
        // Forward: each value is read before anything is written over it (t ≤ rot + t).
        for t in 0..head {
            v[t] = v[rot + t].max(0.0);
        }
        v[head..span].copy_from_slice(&saved);
    } else if head <= n / 32 {
        let saved: Vec<f64> = v[rot..].iter().map(|m| m.max(0.0)).collect();
        for t in (0..tail).rev() {
            v[head + t] = v[t].max(0.0);
        }
        v[..head].copy_from_slice(&saved);
    } else {
        v.rotate_left(rot);
        for m in &mut v[..span] {
            *m = m.max(0.0);
        }
    }
}

/// Read the composed PLD out of the inverse transform (its real or its imaginary parts), in place
/// if they are given as an owned vector.
pub(super) fn read_out(parts: &[(&Pld, u64)], w: &Window, values: Cow<[f64]>) -> Pld {
    let n = values.len();
    let (step, estimate) = (parts[0].0.step, parts[0].0.estimate);
    // Window index j − i_lo is at position (j − lo) mod n = (j − i_lo + rot) mod n.
    let rot = (w.i_lo as i128 - w.lo).rem_euclid(n as i128) as usize;
    let masses: Vec<f64> = match values {
        Cow::Owned(mut v) => {
            window_to_front(&mut v, rot, w.span());
            v.truncate(w.span());
            v.shrink_to_fit();
            v
        }
        Cow::Borrowed(v) => v[rot..]
            .iter()
            .chain(v[..rot].iter())
            .cycle()
            .take(w.span())
            .map(|m| m.max(0.0))
            .collect(),
    };
    let finite_keep: f64 = parts
        .iter()
        .map(|(p, k)| crate::special::pow(1.0 - p.infinity, *k as f64))
        .product();
    let truncated = if (w.i_lo as i128) > w.lo { TAIL } else { 0.0 }
        + if (w.i_hi as i128) < w.hi { TAIL } else { 0.0 };
    let slack = truncated + parts.iter().map(|(p, k)| p.slack * *k as f64).sum::<f64>();
    let total = |f: fn(&Pld) -> f64| parts.iter().map(|(p, k)| f(p) * *k as f64).sum::<f64>();
    Pld {
        step,
        offset: w.i_lo,
        masses,
        infinity: 1.0 - finite_keep,
        slack,
        estimate,
        drift: total(|p| p.drift),
        spread: total(|p| p.spread),
        fail: total(|p| p.fail),
    }
}

/// The transform length for a window of `span` buckets: see [`fft::size_for`].
pub(super) fn fft_size(span: usize) -> Result<usize, MathError> {
    let n = fft::size_for(span);
    if n > 1 << 26 {
        return Err(MathError::OutOfDomain {
            name: "h",
            value: n as f64,
            expected: "a grid step giving at most 2²⁶ buckets after composition",
        });
    }
    Ok(n)
}

/// Compose PLDs (each `count` times) by one FFT: the PLD of the composition, on the same grid.
/// All parts must share the grid step and the rounding. The window is where the composed finite
/// mass lies except for at most [`TAIL`] on each side (Chernoff bounds from each part's moment
/// generating function); that bound goes into `slack`.
pub fn compose(parts: &[(&Pld, u64)]) -> Result<Pld, MathError> {
    let parts = check_parts(parts)?;
    let w = window(&parts);
    let n = fft_size(w.span())?;
    let (re, _) = convolve(&parts, &[], n);
    Ok(read_out(&parts, &w, Cow::Owned(re)))
}

/// Two compositions at once, one as the real and one as the imaginary part of the same
/// transforms (both inputs and both outputs are real): half the FFT work of two [`compose`] calls.
pub fn compose_two(a: &[(&Pld, u64)], b: &[(&Pld, u64)]) -> Result<(Pld, Pld), MathError> {
    let (a, b) = (check_parts(a)?, check_parts(b)?);
    let (wa, wb) = (window(&a), window(&b));
    let n = fft_size(wa.span().max(wb.span()))?;
    let (re, im) = convolve(&a, &b, n);
    Ok((
        read_out(&a, &wa, Cow::Owned(re)),
        read_out(&b, &wb, Cow::Owned(im)),
    ))
}

/// The cyclic convolutions (length n) of the parts of `a` (real parts of the result) and of `b`
/// (imaginary parts; may be empty), each part `count` times, from one transform per part: the
/// signals of part r of both go in as a + ib, and since both are real their spectra are
/// conjugate-symmetric, so only f ≤ n/2 is raised to the powers. With one part each (the usual
/// case) this is done in place, chunk by chunk.
pub(super) fn convolve(a: &[(&Pld, u64)], b: &[(&Pld, u64)], n: usize) -> (Vec<f64>, Vec<f64>) {
    let (mut re, mut im) = (vec![0.0; n], vec![0.0; n]);
    let scale = 1.0 / n as f64;
    let rounds = a.len().max(b.len());
    let mut acc = Half::zero(if rounds > 1 { n / 2 + 1 } else { 0 });
    for r in 0..rounds {
        load(a.get(r).map(|p| p.0), &mut re);
        load(b.get(r).map(|p| p.0), &mut im);
        fft::forward(&mut re, &mut im);
        let (ka, kb) = (a.get(r).map_or(0, |p| p.1), b.get(r).map_or(0, |p| p.1));
        let (ka, kb) = (Power::new(ka), Power::new(kb));
        for c in fft::half_chunks(n) {
            let mut x = Pair::split(&re, &im, &c);
            pow_pair(&mut x, ka, kb);
            if rounds == 1 {
                x.join(&mut re, &mut im, &c, scale);
            } else if r == 0 {
                acc.store(&x, &c);
            } else {
                let mut y = acc.get(&c);
                for (xr, xi, yr, yi) in [
                    (&x.ar, &x.ai, &mut y.ar, &mut y.ai),
                    (&x.br, &x.bi, &mut y.br, &mut y.bi),
                ] {
                    for j in 0..LANES {
                        let (u, v) = (yr[j], yi[j]);
                        yr[j] = u * xr[j] - v * xi[j];
                        yi[j] = u * xi[j] + v * xr[j];
                    }
                }
                acc.store(&y, &c);
            }
        }
    }
    if rounds > 1 {
        for c in fft::half_chunks(n) {
            acc.get(&c).join(&mut re, &mut im, &c, scale);
        }
    }
    fft::inverse_unscaled(&mut re, &mut im);
    (re, im)
}

/// The half spectra X_a, X_b (one frequency of each pair {f, n − f}, n/2 + 1 in all) of two real
/// signals, as split arrays in the order of [`fft::half_chunks`]. Which of f and n − f is kept
/// does not matter: the other is its exact conjugate, and stays so through products and powers.
pub(super) struct Half {
    pub(super) ar: Vec<f64>,
    pub(super) ai: Vec<f64>,
    pub(super) br: Vec<f64>,
    pub(super) bi: Vec<f64>,
}

impl Half {
    pub(super) fn zero(m: usize) -> Half {
        Half {
            ar: vec![0.0; m],
            ai: vec![0.0; m],
            br: vec![0.0; m],
            bi: vec![0.0; m],
        }
    }

    pub(super) fn store(&mut self, x: &Pair, c: &Chunk) {
        let (h, len) = (c.h, c.len);
        self.ar[h..h + len].copy_from_slice(&x.ar[..len]);
        self.ai[h..h + len].copy_from_slice(&x.ai[..len]);
        self.br[h..h + len].copy_from_slice(&x.br[..len]);
        self.bi[h..h + len].copy_from_slice(&x.bi[..len]);
    }

    pub(super) fn get(&self, c: &Chunk) -> Pair {
        let (h, len) = (c.h, c.len);
        let mut x = Pair::zero();
        x.ar[..len].copy_from_slice(&self.ar[h..h + len]);
        x.ai[..len].copy_from_slice(&self.ai[h..h + len]);
        x.br[..len].copy_from_slice(&self.br[h..h + len]);
        x.bi[..len].copy_from_slice(&self.bi[h..h + len]);
        x
    }
}
