//! Tests of [`super`], in a file of their own so that the module stays short.

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

/// Frequency held at position p after [`forward`] of length n (a power of two or 3·2^m).
fn frequency(p: usize, n: usize) -> usize {
    match third(n) {
        Some(m) => 3 * bit_reverse(p % m, m) + p / m,
        None => bit_reverse(p, n),
    }
}

/// [`forward`] of a length-n signal against the definition, each frequency where
/// [`frequency`] says it is, and the unscaled inverse bringing back n times the signal.
fn check_forward_and_round_trip(n: usize) {
    let (re, im) = signal(n);
    let (er, ei) = naive(&re, &im, -1.0);
    let (mut r, mut i) = (re.clone(), im.clone());
    forward(&mut r, &mut i);
    for p in 0..n {
        let f = frequency(p, n);
        let err = (r[p] - er[f]).hypot(i[p] - ei[f]);
        assert!(err < 1e-12 * n as f64, "n = {n}, f = {f}: {err:e}");
    }
    inverse_unscaled(&mut r, &mut i);
    for t in 0..n {
        let err = (r[t] / n as f64 - re[t]).hypot(i[t] / n as f64 - im[t]);
        assert!(err < 1e-14, "n = {n}, t = {t}: {err:e}");
    }
}

#[test]
fn matches_the_definition_in_bit_reversed_order() {
    for log in 0..=11 {
        let n = 1usize << log;
        check_forward_and_round_trip(n);
        let (re, im) = signal(n);
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
fn three_times_a_power_of_two_matches_the_definition() {
    for n in [3 * 1024, 3 * 2048] {
        check_forward_and_round_trip(n);
    }
}

#[test]
fn sizes_are_the_smallest_that_fit() {
    assert_eq!(size_for(0), 2);
    assert_eq!(size_for(5), 8);
    // Below 3·1024 only powers of two.
    assert_eq!(size_for(2000), 2048);
    assert_eq!(size_for(2049), 3 * 1024);
    assert_eq!(size_for(3 * 1024), 3 * 1024);
    assert_eq!(size_for(3 * 1024 + 1), 4096);
    assert_eq!(size_for(2_523_992), 3 << 20);
    assert_eq!(size_for(5_763_488), 3 << 21);
    for span in (1..200_000).step_by(997) {
        let n = size_for(span);
        assert!(n >= span && (n.is_power_of_two() || third(n).is_some()));
        assert!(n < 2 * span.max(2), "span {span}: {n}");
    }
}

#[test]
fn half_chunks_pair_every_frequency_with_its_negative_once() {
    for n in [2, 4, 8, 1024, 2048, 3 * 1024, 3 * 2048] {
        let mut seen = vec![0u32; n];
        let mut h_next = 0;
        for c in half_chunks(n) {
            assert_eq!(c.h, h_next, "n = {n}: half-spectrum entries in order");
            h_next += c.len;
            for r in 0..c.len {
                let (p, q) = (c.p + r, c.q - r);
                assert_eq!(
                    frequency(q, n),
                    (n - frequency(p, n)) % n,
                    "n = {n}, p = {p}"
                );
                seen[frequency(p, n)] += 1;
                if p != q {
                    seen[frequency(q, n)] += 1;
                }
            }
        }
        assert_eq!(h_next, n / 2 + 1, "n = {n}");
        assert!(seen.iter().all(|&s| s == 1), "n = {n}: {seen:?}");
    }
}
