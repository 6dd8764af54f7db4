#!/usr/bin/env python3
"""Reference values for shuffled fixed-size batches (math/src/batching.rs), from mpmath at 30
significant digits.

Pinned: Python 3.11, mpmath==1.3.0. Run from the repository root:
    python3 tools/reference/batching.py
Writes math/tests/data/batching.csv, read by math/tests/batching.rs.

  det_delta   sigma, epochs, sensitivity, eps -> delta(eps) of mu-GDP with mu = sensitivity *
              sqrt(epochs) / sigma, from the likelihood-ratio test between N(0, 1) and N(mu, 1):
              P(L > eps) - e^eps Q(L > eps) with the loss L = mu x - mu^2/2 (x the output), i.e.
              1 - Phi(eps/mu - mu/2) - e^eps (1 - Phi(eps/mu + mu/2)).
  det_eps     sigma, epochs, sensitivity, delta -> the eps where det_delta = delta (mp.findroot).
  lower_delta sigma, steps per epoch T, epochs, eps -> max over the threshold C of
              P2(max > C) - e^eps P1(max > C), where under Pm the T coordinates are independent
              normals with standard deviation s = sigma / sqrt(epochs), one of them (uniformly
              chosen; by symmetry the first) with mean m, the rest 0: Pm(max > C) =
              1 - Phi((C - m)/s) Phi(C/s)^(T - 1). The maximum is bracketed on a grid of 2,000
              thresholds and refined by golden section in mpmath (60 steps).
  lower_eps   sigma, T, epochs, delta -> the eps where lower_delta = delta (bisection, 80 steps).
  bnb_remove  sigma, T, alpha, 0 -> log E_Q[(P/Q)^alpha] for one epoch of balls-in-bins batching
              (remove direction): P = (1/T) sum_t N(e_t, sigma^2 I), Q = N(0, sigma^2 I), so
              P/Q = (1/T) sum_i V_i with V_i = exp(x_i/sigma^2 - 1/(2 sigma^2)) independent under Q and
              E_Q[V^k] = exp(k(k - 1)/(2 sigma^2)). For a whole alpha the moment of the sum follows
              from the binomial theorem, adding one term at a time:
              E[(S + V)^a] = sum_j C(a, j) E[V^j] E[S^(a - j)] (exact, no quadrature).
Columns: kind, a, b, c, d, value.
"""
import csv
import os

import mpmath as mp

mp.mp.dps = 30
OUT = os.path.join(os.path.dirname(__file__), "..", "..", "math", "tests", "data", "batching.csv")


def fmt(x):
    return mp.nstr(x, 20, strip_zeros=False)


def det_delta(sigma, epochs, sens, eps):
    mu = mp.mpf(sens) * mp.sqrt(epochs) / mp.mpf(sigma)
    eps = mp.mpf(eps)
    # P(L > eps) under the positive N(mu, 1): x > eps/mu + mu/2; under N(0, 1) the same set.
    t = eps / mu + mu / 2
    return mp.ncdf(mu - t) - mp.exp(eps) * mp.ncdf(-t)


def det_eps(sigma, epochs, sens, delta):
    f = lambda e: det_delta(sigma, epochs, sens, e) - mp.mpf(delta)
    lo, hi = mp.mpf(0), mp.mpf(1)
    while f(hi) > 0:
        hi *= 2
    for _ in range(110):
        mid = (lo + hi) / 2
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def cube(c, s, T, eps):
    out_p = 1 - mp.ncdf((c - 2) / s) * mp.ncdf(c / s) ** (T - 1)
    out_q = 1 - mp.ncdf((c - 1) / s) * mp.ncdf(c / s) ** (T - 1)
    return out_p - mp.exp(eps) * out_q


def lower_delta(sigma, T, epochs, eps):
    s = mp.mpf(sigma) / mp.sqrt(epochs)
    eps = mp.mpf(eps)
    lo = 1 - 12 * s
    hi = 2 + s * (12 + mp.sqrt(2 * mp.log(T)))
    n = 2000
    w = (hi - lo) / n
    best_c, best = lo, mp.mpf(0)
    for i in range(n + 1):
        c = lo + w * i
        v = cube(c, s, T, eps)
        if v > best:
            best, best_c = v, c
    if best <= 0:
        return mp.mpf(0)
    a, b = best_c - w, best_c + w
    g = (mp.sqrt(5) - 1) / 2
    x1, x2 = b - g * (b - a), a + g * (b - a)
    f1, f2 = cube(x1, s, T, eps), cube(x2, s, T, eps)
    for _ in range(60):
        if f1 > f2:
            b, x2, f2 = x2, x1, f1
            x1 = b - g * (b - a)
            f1 = cube(x1, s, T, eps)
        else:
            a, x1, f1 = x1, x2, f2
            x2 = a + g * (b - a)
            f2 = cube(x2, s, T, eps)
    return max(best, f1, f2)


def lower_eps(sigma, T, epochs, delta):
    f = lambda e: lower_delta(sigma, T, epochs, e) - mp.mpf(delta)
    lo, hi = mp.mpf(0), det_eps(sigma, epochs, 1, delta)
    for _ in range(50):
        mid = (lo + hi) / 2
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def bnb_remove(sigma, T, alpha):
    s2 = mp.mpf(sigma) ** 2
    mom = [mp.e ** (mp.mpf(k * (k - 1)) / (2 * s2)) for k in range(alpha + 1)]
    m = [mp.mpf(1)] + [mp.mpf(0)] * alpha  # moments of the empty sum
    for _ in range(T):
        m = [sum(mp.binomial(a, j) * mom[j] * m[a - j] for j in range(a + 1)) for a in range(alpha + 1)]
    return mp.log(m[alpha]) - alpha * mp.log(T)


def main():
    rows = []
    for sigma, T in [(1.0, 1), (1.0, 10), (2.0, 100), (1.0, 1000), (0.8, 1000)]:
        for alpha in [2, 3]:
            rows.append(("bnb_remove", repr(sigma), str(T), str(alpha), "0", fmt(bnb_remove(sigma, T, alpha))))
    for sigma, epochs, sens in [(0.6, 1, 1), (1.0, 1, 1), (1.0, 10, 1), (1.0, 10, 2), (2.0, 50, 1), (5.0, 3, 2)]:
        for eps in [0.0, 0.5, 2.0, 8.0]:
            rows.append(("det_delta", repr(sigma), str(epochs), str(sens), repr(eps), fmt(det_delta(sigma, epochs, sens, eps))))
        for delta in [1e-5, 1e-9]:
            rows.append(("det_eps", repr(sigma), str(epochs), str(sens), repr(delta), fmt(det_eps(sigma, epochs, sens, delta))))
    for sigma, T, epochs in [(0.35, 1000, 1), (0.5, 1000, 1), (1.0, 100, 1), (0.8, 1000, 5), (2.0, 10, 1)]:
        for eps in [0.0, 1.0, 4.0]:
            rows.append(("lower_delta", repr(sigma), str(T), str(epochs), repr(eps), fmt(lower_delta(sigma, T, epochs, eps))))
    for sigma, T, epochs in [(0.6, 1000, 1), (1.0, 1000, 1)]:
        rows.append(("lower_eps", repr(sigma), str(T), str(epochs), repr(1e-6), fmt(lower_eps(sigma, T, epochs, 1e-6))))
    with open(OUT, "w") as f:
        f.write("# generated by tools/reference/batching.py (mpmath %s, 30 digits); do not edit\n" % mp.__version__)
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["kind", "a", "b", "c", "d", "value"])
        w.writerows(rows)
    print("wrote %d rows to %s" % (len(rows), os.path.normpath(OUT)))


if __name__ == "__main__":
    main()
