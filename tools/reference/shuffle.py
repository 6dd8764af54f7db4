#!/usr/bin/env python3
"""Reference values for amplification by shuffling, subsampled randomized response and the error of
a mean (math/src/shuffle.rs), from mpmath at 50 significant digits.

Pinned: Python 3.11, mpmath==1.3.0. Run from the repository root:  python3 tools/reference/shuffle.py
Writes math/tests/data/shuffle.csv, read by math/tests/shuffle_reference.rs. Takes about 90 s, most
of it the direct double sums of the clone reduction (the Renyi rows at n up to 10^4 the longest).

The oracle evaluates the defining formulas directly in high precision and shares no code with the
Rust implementation: where Rust uses expm1/log1p, closed-form expectations, a threshold on the
likelihood ratio and recurrences along the clone counts, the oracle uses plain arithmetic on 50
digits, sums over every term, and takes positive parts term by term. Inputs are written as the
shortest decimal that round-trips the double (Python's repr) and the oracle starts from that double.

Columns: kind, eps, eps0, n, delta, p, k, mu, expected (empty where not applicable).

Kinds (replace-one throughout):
  efmrtt19        12 eps0 sqrt(log(1/delta)/n)                     (Erlingsson et al. 2019)
  efmrtt19_eps0   largest eps0 with 12 eps0 sqrt(log(1/delta)/n) <= eps (inside eps0 <= 1/2)
  fmt21           log(1 + (e^eps0 - 1)/(e^eps0 + 1) (8 sqrt(e^eps0 log(4/delta)/n) + 8 e^eps0/n))
                  (Feldman, McMillan & Talwar 2021, Thm 3.1), only where eps0 <= log(n/(16 log(4/delta)))
  fmt21_eps0      largest eps0 with fmt21 <= eps, by mp.findroot (inside the validity limit)
  hoeffding       privacy blanket delta(eps) with Hoeffding (Balle et al. 2019), k = 0 for a generic
                  eps0-LDP randomizer, else k-ary randomized response:
                  b^2/(4 a gamma n) (1 - gamma (1 - e^{-2 a^2/b^2}))^n
  bennett         privacy blanket delta(eps) with Bennett: sum_{m=1}^n Bin(m; n, gamma) e^{-m kappa}
                  b+ / (gamma n log(1 + beta)), beta = a b+/v, kappa = v phi(beta)/b+^2, summed term by term
  clone_div       D_{e^eps}(P_c || Q_c) for c clones (c in column n): P_c = A + D, Q_c = A + 1 - D,
                  A ~ Bin(c, 1/2), D ~ Bern(e^eps0/(e^eps0 + 1)); the sum over every j of
                  max(0, P(j) - e^eps Q(j)); the other order is computed too and must agree (symmetry)
  clone_delta     E_C[D_C], C ~ Bin(n - 1, e^{-eps0}): the same double sum over c within 12 standard
                  deviations of the mean of C and j within 12 of the mean of A (the rest is below 1e-30)
  stronger_delta  the same with FMT23's stronger clones, C ~ Bin(n - 1, 2/(e^eps0 + 1)) (arXiv 2208.04591)
  fmt23           log(1 + (e^eps0 - 1)/(e^eps0 + 1) (8 sqrt(log(4/delta)/m) + 8/m)), m = 2(n - 1)/(e^eps0 + 1),
                  only where m >= 16 log(4/delta)
  clone_rdp       Renyi divergence of order lambda (column p) of the clone pair, 2021 clones (k = 0) or 2023
                  stronger clones (k = 1): (1/(lambda - 1)) log sum_c w_c sum_j P_c(j)^lambda Q_c(j)^(1 - lambda), over every
                  c and j (no window), P_c, Q_c as in clone_div; also checked equal in the other order
  clone_rdp_window  the same, summing the counts c from 0 to mean + 14 sd of C (the rest has mass below 1e-40
                  and smaller moments); n from 20 to 10^4, orders with (lambda - 1) eps0 up to 632
  krr_shuffled    the exact delta(eps) of shuffling n reports of k-ary randomized response (k in column k),
                  user 1 holding 0 or 1 and users 2..n the values listed in column mu (digits, e.g. "2222"),
                  by enumerating every multiset of reports: sum over multisets of max(P - e^eps Q, Q - e^eps P)
                  positive parts, the larger order; an instance the stronger clone bound must dominate
  rr_exact        log(P[out = x]/P[out = not x]) for: w.p. p binary RR_eps, else a fair coin
  rr_theorem      log(1 + p (e^eps - 1))
  rr_prime        log(1 + p eps) (the lecture notes' RR' version)
  mean_central    RMSE of the Laplace mean of n bits with mean mu: sqrt(mu(1-mu)/n + 2/(n eps)^2)
  mean_local      RMSE of the debiased randomized-response mean: sqrt(mu(1-mu)/n + q(1-q)/(n(1-2q)^2)),
                  q = 1/(e^eps + 1)
  mean_shuffled   the same with eps0 = fmt21_eps0(eps, n, delta) in place of eps (column delta used)
"""
import csv
import os
import sys

import mpmath as mp

mp.mp.dps = 50

OUT = os.path.join(os.path.dirname(__file__), "..", "..", "math", "tests", "data", "shuffle.csv")
M = mp.mpf


def logspace(lo, hi, count):
    a, b = mp.log10(lo), mp.log10(hi)
    return [float(mp.power(10, a + (b - a) * i / (count - 1))) for i in range(count)]


# ---------------------------------------------------------------- closed forms

def efmrtt19(eps0, n, delta):
    return 12 * M(eps0) * mp.sqrt(mp.log(1 / M(delta)) / n)


def fmt21(eps0, n, delta):
    e = mp.exp(M(eps0))
    a = 8 * mp.sqrt(e * mp.log(4 / M(delta)) / n)
    b = 8 * e / n
    return mp.log(1 + (e - 1) / (e + 1) * (a + b))


def fmt21_limit(n, delta):
    return mp.log(M(n) / (16 * mp.log(4 / M(delta))))


def fmt21_eps0(eps, n, delta):
    lim = fmt21_limit(n, delta)
    f = lambda x: fmt21(x, n, delta) - M(eps)
    return mp.findroot(f, (M(1e-12), lim), solver="anderson")


# ---------------------------------------------------------------- privacy blanket

def blanket(eps, eps0, k):
    """(gamma, a, range, max, second moment) of the privacy amplification variable."""
    eps, eps0 = M(eps), M(eps0)
    a = mp.exp(eps) - 1
    if k == 0:
        g = mp.exp(-eps0)
        rng = (mp.exp(eps0) - mp.exp(-eps0)) * (mp.exp(eps) + 1)
        mx = mp.exp(eps0) - mp.exp(eps - eps0)
        v = mp.exp(eps0) * (mp.exp(2 * eps) + 1) - 2 * mp.exp(eps - 3 * eps0)
    else:
        g = M(k) / (mp.exp(eps0) + k - 1)
        rng = (1 - g) * k * (mp.exp(eps) + 1)
        mx = g * (1 - mp.exp(eps)) + (1 - g) * k
        v = g * (2 - g) * (mp.exp(eps) - 1) ** 2 + (1 - g) ** 2 * k * (mp.exp(2 * eps) + 1)
    return g, a, rng, mx, v


def hoeffding(eps, eps0, n, k):
    g, a, b, _, _ = blanket(eps, eps0, k)
    return b ** 2 / (4 * a * g * n) * (1 - g * (1 - mp.exp(-2 * a ** 2 / b ** 2))) ** n


def bennett(eps, eps0, n, k):
    g, a, _, bp, v = blanket(eps, eps0, k)
    beta = a * bp / v
    phi = (1 + beta) * mp.log(1 + beta) - beta
    kappa = v / bp ** 2 * phi
    total = M(0)
    pmf = (1 - g) ** n  # m = 0
    for m in range(1, n + 1):
        pmf = pmf * (n - m + 1) / m * g / (1 - g)
        total += pmf * mp.exp(-m * kappa)
    return total * bp / (g * n * mp.log(1 + beta))


# ---------------------------------------------------------------- clone reduction

def clone_div(c, eps, eps0, window=None):
    """Both orders of the hockey-stick divergence, summed over j (optionally a window of j)."""
    e0 = mp.exp(M(eps0))
    al = e0 / (e0 + 1)
    ee = mp.exp(M(eps))
    if window is None:
        jlo, jhi = 0, c + 1
    else:
        jlo, jhi = window
    # b[j - jlo + 1] = Bin(c, 1/2) at j, for j in [jlo - 1, jhi]
    start = max(jlo - 1, 0)
    b = {}
    val = mp.binomial(c, start) / M(2) ** c
    for j in range(start, min(jhi, c) + 1):
        b[j] = val
        val = val * (c - j) / (j + 1)
    bb = lambda j: b.get(j, M(0)) if 0 <= j <= c else M(0)
    pq = qp = M(0)
    for j in range(jlo, jhi + 1):
        pj = al * bb(j - 1) + (1 - al) * bb(j)
        qj = al * bb(j) + (1 - al) * bb(j - 1)
        pq += max(M(0), pj - ee * qj)
        qp += max(M(0), qj - ee * pj)
    return pq, qp


def clone_delta(eps, eps0, n, stronger=False):
    big_n = n - 1
    p = 2 / (mp.exp(M(eps0)) + 1) if stronger else mp.exp(-M(eps0))
    mean = big_n * p
    sd = mp.sqrt(big_n * p * (1 - p))
    clo = max(0, int(mp.floor(mean - 12 * sd)) - 2)
    chi = min(big_n, int(mp.ceil(mean + 12 * sd)) + 2)
    total = M(0)
    w = mp.binomial(big_n, clo) * p ** clo * (1 - p) ** (big_n - clo)
    for c in range(clo, chi + 1):
        sdj = mp.sqrt(c) / 2
        jlo = max(0, int((c + 1) / 2 - 12 * sdj) - 2)  # symmetric under j -> c + 1 - j
        pq, qp = clone_div(c, eps, eps0, (jlo, c + 1 - jlo))
        assert abs(pq - qp) <= mp.mpf(10) ** -40 * (1 + pq), (c, pq, qp)
        total += w * max(pq, qp)
        w = w * (big_n - c) / (c + 1) * p / (1 - p)
    return total


def clone_rdp(lam, eps0, n, stronger):
    lam = M(lam)
    e0 = mp.exp(M(eps0))
    al = e0 / (e0 + 1)
    p = 2 / (e0 + 1) if stronger else 1 / e0
    big_n = n - 1
    tot_pq = tot_qp = M(0)
    for c in range(0, big_n + 1):
        w = mp.binomial(big_n, c) * p ** c * (1 - p) ** (big_n - c)
        b = [mp.binomial(c, j) / M(2) ** c for j in range(c + 1)]
        bb = lambda j: b[j] if 0 <= j <= c else M(0)
        mpq = mqp = M(0)
        for j in range(c + 2):
            pj = al * bb(j - 1) + (1 - al) * bb(j)
            qj = al * bb(j) + (1 - al) * bb(j - 1)
            mpq += pj ** lam * qj ** (1 - lam)
            mqp += qj ** lam * pj ** (1 - lam)
        tot_pq += w * mpq
        tot_qp += w * mqp
    assert abs(tot_pq - tot_qp) <= mp.mpf(10) ** -40 * tot_pq
    return mp.log(tot_pq) / (lam - 1)


def clone_rdp_window(lam, eps0, n, stronger):
    """clone_rdp with the counts above mean + 14 sd of C left out (their binomial mass is below
    1e-40, and their moments are below the ones kept: M_c does not increase with c, which the
    assertion checks on the counts summed); every count below is kept (few clones carry the
    largest moments at a high order)."""
    lam = M(lam)
    e0 = mp.exp(M(eps0))
    al = e0 / (e0 + 1)
    p = 2 / (e0 + 1) if stronger else 1 / e0
    big_n = n - 1
    top = min(big_n, int(mp.ceil(big_n * p + 14 * mp.sqrt(big_n * p * (1 - p)))) + 1)
    tot = M(0)
    last = None
    for c in range(0, top + 1):
        w = mp.binomial(big_n, c) * p ** c * (1 - p) ** (big_n - c)
        b = [M(2) ** -c]
        for j in range(1, c + 1):
            b.append(b[-1] * (c - j + 1) / j)
        mom = M(0)
        for j in range(c + 2):
            bj = b[j] if j <= c else M(0)
            bj1 = b[j - 1] if j >= 1 else M(0)
            pj = al * bj1 + (1 - al) * bj
            qj = al * bj + (1 - al) * bj1
            mom += pj ** lam * qj ** (1 - lam)
        assert last is None or mom <= last * (1 + M(10) ** -40)
        last = mom
        tot += w * mom
    return mp.log(tot) / (lam - 1)


def fmt23(eps0, n, delta):
    e = mp.exp(M(eps0))
    m = 2 * M(n - 1) / (e + 1)
    l4 = mp.log(4 / M(delta))
    return mp.log(1 + (e - 1) / (e + 1) * (8 * mp.sqrt(l4 / m) + 8 / m))


def fmt23_valid(eps0, n, delta):
    return 2 * M(n - 1) / (mp.exp(M(eps0)) + 1) >= 16 * mp.log(4 / M(delta))


def krr_shuffled(eps, eps0, k, others):
    """Exact hockey-stick divergence of the shuffled k-RR reports for user 1 = 0 against user 1 = 1."""
    e0 = mp.exp(M(eps0))
    hi, lo = e0 / (e0 + k - 1), 1 / (e0 + k - 1)

    def dist(inputs):
        # distribution of the multiset (as a sorted tuple of counts) by convolving one user at a time
        d = {tuple([0] * k): M(1)}
        for x in inputs:
            nd = {}
            for counts, pr in d.items():
                for y in range(k):
                    c = list(counts)
                    c[y] += 1
                    t = tuple(c)
                    nd[t] = nd.get(t, M(0)) + pr * (hi if y == x else lo)
            d = nd
        return d

    P = dist([0] + others)
    Q = dist([1] + others)
    ee = mp.exp(M(eps))
    pq = sum(max(M(0), P[t] - ee * Q.get(t, M(0))) for t in P)
    qp = sum(max(M(0), Q[t] - ee * P.get(t, M(0))) for t in Q)
    return max(pq, qp)


# ---------------------------------------------------------------- subsampled RR, error of a mean

def rr_exact(eps, p):
    e = mp.exp(M(eps))
    p = M(p)
    keep = p * e / (e + 1) + (1 - p) / 2
    flip = p / (e + 1) + (1 - p) / 2
    return mp.log(keep / flip)


def mean_central(n, eps, mu):
    mu = M(mu)
    return mp.sqrt(mu * (1 - mu) / n + 2 / (n * M(eps)) ** 2)


def mean_local(n, eps, mu):
    mu = M(mu)
    q = 1 / (mp.exp(M(eps)) + 1)
    return mp.sqrt(mu * (1 - mu) / n + q * (1 - q) / (n * (1 - 2 * q) ** 2))


def main():
    rows = []

    def row(kind, eps="", eps0="", n="", delta="", p="", k="", mu="", expected=None):
        rows.append((kind, eps, eps0, n, delta, p, k, mu, expected))

    ns = [1000, 5000, 10**4, 10**5, 10**6, 10**7, 10**9]
    deltas = [1e-2, 1e-6, 1e-10, 1e-30, 1e-100]
    for n in ns:
        for delta in deltas:
            for eps0 in [1e-9, 1e-3, 0.05, 0.25, 0.5]:
                v = efmrtt19(eps0, n, delta)
                if delta <= 0.01 and v <= eps0:
                    row("efmrtt19", eps0=eps0, n=n, delta=delta, expected=v)
            for eps in [1e-6, 0.01, 0.1]:
                x = M(eps) / (12 * mp.sqrt(mp.log(1 / M(delta)) / n))
                if x <= 0.5 and efmrtt19(1, n, delta) <= 1:
                    row("efmrtt19_eps0", eps=eps, n=n, delta=delta, expected=x)
    for n in [100, 1000, 10**4, 10**5, 10**6, 10**7, 10**9]:
        for delta in [1e-3, 1e-6, 1e-12, 1e-50]:
            lim = fmt21_limit(n, delta)
            for eps0 in [1e-9, 1e-4, 0.1, 0.5, 1.0, 2.0, 4.0, 6.0, 10.0]:
                if eps0 <= lim:
                    row("fmt21", eps0=eps0, n=n, delta=delta, expected=fmt21(eps0, n, delta))
            for eps in [1e-4, 0.01, 0.1, 0.5, 1.0]:
                if lim > 0 and fmt21(lim, n, delta) > eps:
                    row("fmt21_eps0", eps=eps, n=n, delta=delta, expected=fmt21_eps0(eps, n, delta))

    for k in [0, 2, 3, 100]:
        for n in [100, 1000, 5000]:
            for eps0 in [0.1, 0.4, 1.0, 3.0]:
                for frac in [1e-4, 0.01, 0.1, 0.5, 0.9]:
                    eps = float(M(eps0) * frac)
                    row("hoeffding", eps=eps, eps0=eps0, n=n, k=k, expected=hoeffding(eps, eps0, n, k))
                    row("bennett", eps=eps, eps0=eps0, n=n, k=k, expected=bennett(eps, eps0, n, k))
    # Small eps and eps0, where the generic second moment is a difference of two numbers near 2.
    for k in [0, 2]:
        for eps0, eps in [(1e-6, 1e-7), (1e-3, 2e-4), (1e-9, 1e-11)]:
            row("hoeffding", eps=eps, eps0=eps0, n=1000, k=k, expected=hoeffding(eps, eps0, 1000, k))
            row("bennett", eps=eps, eps0=eps0, n=1000, k=k, expected=bennett(eps, eps0, 1000, k))
    for k in [0, 2, 10]:
        for n in [10**6, 10**9]:
            for eps0 in [0.5, 2.0]:
                eps = float(M(eps0) / 20)
                row("hoeffding", eps=eps, eps0=eps0, n=n, k=k, expected=hoeffding(eps, eps0, n, k))

    for c in [0, 1, 2, 7, 50, 1000]:
        for eps0, eps in [(1.0, 0.0), (1.0, 0.1), (4.0, 0.17), (0.2, 0.01), (3.0, 2.9)]:
            pq, qp = clone_div(c, eps, eps0)
            assert abs(pq - qp) <= mp.mpf(10) ** -40 * (1 + pq)
            row("clone_div", eps=eps, eps0=eps0, n=c, expected=pq)
    # Large c: eps chosen so that the threshold lies 2 to 6 standard deviations above c/2.
    for c in [10**5, 10**6, 3 * 10**7]:
        r = 1 / mp.sqrt(c)
        for eps0, eps in [(1.0, 0.0), (1.0, float(3 * r)), (1.0, float(5 * r)), (4.0, float(8 * r)),
                          (0.2, float(0.8 * r))]:
            sdj = mp.sqrt(c) / 2
            jlo = int((c + 1) / 2 - 20 * sdj)
            pq, qp = clone_div(c, eps, eps0, (jlo, c + 1 - jlo))
            assert abs(pq - qp) <= mp.mpf(10) ** -40 * (1 + pq)
            row("clone_div", eps=eps, eps0=eps0, n=c, expected=pq)
    for n, eps0, eps in [(1, 1.0, 0.5), (2, 1.0, 0.3), (10, 2.0, 1.0), (100, 1.0, 0.3), (100, 3.0, 1.5),
                         (1000, 0.5, 0.05), (1000, 2.0, 0.3), (1000, 4.0, 1.0), (3000, 1.0, 0.1),
                         (10**4, 4.0, 0.35), (10**4, 6.0, 2.0), (2 * 10**4, 5.0, 0.5)]:
        row("clone_delta", eps=eps, eps0=eps0, n=n, expected=clone_delta(eps, eps0, n))
    for n, eps0, eps in [(1, 1.0, 0.5), (2, 1.0, 0.3), (4, 2.0, 0.0), (4, 2.0, 1.0), (10, 2.0, 1.0),
                         (100, 1.0, 0.3), (100, 3.0, 1.5), (1000, 0.5, 0.05), (1000, 4.0, 1.0),
                         (3000, 1.0, 0.1), (10**4, 4.0, 0.35), (10**4, 6.0, 1.0), (2 * 10**4, 5.0, 0.5)]:
        row("stronger_delta", eps=eps, eps0=eps0, n=n, expected=clone_delta(eps, eps0, n, stronger=True))
    for n in [100, 1000, 10**4, 10**5, 10**6, 10**9]:
        for delta in [1e-3, 1e-6, 1e-12, 1e-50]:
            for eps0 in [1e-9, 1e-4, 0.1, 1.0, 4.0, 8.0]:
                if fmt23_valid(eps0, n, delta):
                    row("fmt23", eps0=eps0, n=n, delta=delta, expected=fmt23(eps0, n, delta))
    for n, eps0, lams in [(1, 1.0, [1.5, 2.0, 8.0]), (2, 0.5, [2.0, 5.5]), (10, 2.0, [2.0, 16.0]),
                          (100, 1.0, [1.01, 2.0, 8.0, 32.0]), (300, 4.0, [2.0, 8.0]), (300, 0.1, [2.0, 100.0]),
                          (400, 1.0, [4.0, 32.0]), (400, 6.0, [3.0])]:
        for lam in lams:
            for stronger in (0, 1):
                row("clone_rdp", eps0=eps0, n=n, p=lam, k=stronger,
                    expected=clone_rdp(lam, eps0, n, stronger == 1))
    # Larger n, where the counts are summed in blocks, and high orders (λ − 1)ε₀ up to 632, where
    # the moments' tails and the few-clone counts below the window decide the value.
    for n, eps0, lam, kinds in [(600, 1.0, 2.0, (0, 1)), (600, 1.0, 8.0, (0, 1)), (10**4, 4.0, 100.0, (0,)),
                                (4000, 4.0, 100.0, (1,)), (60, 8.0, 80.0, (0, 1)), (20, 12.0, 50.0, (0, 1))]:
        for stronger in kinds:
            row("clone_rdp_window", eps0=eps0, n=n, p=lam, k=stronger,
                expected=clone_rdp_window(lam, eps0, n, stronger == 1))
    # Small shuffles of k-ary randomized response, exactly: the other users hold user 1's two
    # values, or a third value, or a mix.
    for k, eps0, others in [(2, 1.0, [0, 0, 0]), (2, 2.0, [1, 0, 1, 0]), (3, 1.0, [2, 2, 2]),
                            (3, 2.0, [2, 2, 2, 2]), (4, 1.0, [2, 2, 2, 2]), (4, 1.0, [2, 3, 0, 1]),
                            (5, 3.0, [4, 4, 4, 4, 4])]:
        for eps in [0.0, 0.1, 0.5]:
            row("krr_shuffled", eps=eps, eps0=eps0, n=len(others) + 1, k=k,
                mu="".join(str(x) for x in others), expected=krr_shuffled(eps, eps0, k, others))

    eps_grid = logspace(1e-9, 50.0, 14) + [0.1, 0.5, 1.0, 2.0, 5.0, 300.0]
    p_grid = logspace(1e-9, 1.0, 10) + [0.01, 0.5, 0.999]
    for eps in eps_grid:
        for p in p_grid:
            row("rr_exact", eps=eps, p=p, expected=rr_exact(eps, p))
            row("rr_theorem", eps=eps, p=p, expected=mp.log(1 + M(p) * (mp.exp(M(eps)) - 1)))
            row("rr_prime", eps=eps, p=p, expected=mp.log(1 + M(p) * M(eps)))

    for n in [1, 10, 1000, 10**6, 10**9]:
        for eps in [1e-9, 1e-3, 0.1, 1.0, 10.0, 400.0]:
            for mu in [0.0, 0.1, 0.5]:
                row("mean_central", eps=eps, n=n, mu=mu, expected=mean_central(n, eps, mu))
                row("mean_local", eps=eps, n=n, mu=mu, expected=mean_local(n, eps, mu))
    for n in [10**4, 10**6, 10**9]:
        for delta in [1e-6, 1e-9]:
            for eps in [0.01, 0.1, 1.0]:
                lim = fmt21_limit(n, delta)
                if lim > 0 and fmt21(lim, n, delta) > eps:
                    e0 = fmt21_eps0(eps, n, delta)
                    row("mean_shuffled", eps=eps, n=n, delta=delta, mu=0.5, expected=mean_local(n, e0, 0.5))

    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", newline="") as fh:
        w = csv.writer(fh, lineterminator="\n")
        w.writerow(["kind", "eps", "eps0", "n", "delta", "p", "k", "mu", "expected"])
        for kind, eps, eps0, n, delta, p, k, mu, expected in rows:
            f = lambda x: repr(x) if isinstance(x, float) else str(x)
            w.writerow([kind, f(eps), f(eps0), n, f(delta), f(p), k, f(mu),
                        mp.nstr(expected, 25, min_fixed=0, max_fixed=0)])
    print(f"wrote {len(rows)} rows to {os.path.normpath(OUT)} (mpmath {mp.__version__})", file=sys.stderr)


if __name__ == "__main__":
    main()
