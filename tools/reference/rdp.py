#!/usr/bin/env python3
"""Reference values for Rényi differential privacy (math/src/rdp/),
from mpmath at 60 significant digits.

Pinned: Python 3.11, mpmath==1.3.0. Run from the repository root:  python3 tools/reference/rdp.py
Writes math/tests/data/rdp.csv, read by math/tests/rdp_reference.rs. Takes about 40 s, most of it
the numerical integrals of pg_frac.

The oracle evaluates the defining formulas directly in high precision and shares no code with the
Rust implementation: the Rust side works in log space with expm1/log1p and series, the oracle with
plain arithmetic on 60 digits (or numerical integration). Inputs are written as the shortest decimal
that round-trips the double (Python's repr) and the oracle starts from that exact double.

Columns: kind, mech, param, param2, rate, alpha, expected (empty where not applicable).
Mechanisms (sensitivity 1): gaussian (param = sigma), laplace (param = scale b), rr (binary
randomized response, param = eps), kary (k-ary randomized response, param = eps, param2 = k).
Every curve is eps(alpha) = log(A)/(alpha - 1) with A the moment E_Q[(P/Q)^alpha].

Kinds:
  base        eps(alpha) of the base mechanism. Gaussian alpha/(2 sigma^2) and Laplace
              log(alpha/(2alpha-1) e^{(alpha-1)/b} + (alpha-1)/(2alpha-1) e^{-alpha/b})/(alpha-1)
              (Mironov 2017, Table II; both cross-checked here against numerical integration of the
              divergence); binary and k-ary randomized response from the two output distributions
              (keep the true value with probability e^eps/(e^eps + k - 1), otherwise each other value
              with probability 1/(e^eps + k - 1); k = 2 for binary), the larger of the two orders
              of the input pair (0, 1) (every pair of distinct inputs gives the same by symmetry).
  pg_int      Poisson-subsampled Gaussian (add/remove), exact, integer alpha:
              A = sum_{j=0}^{alpha} C(alpha,j)(1-q)^{alpha-j} q^j exp((j^2-j)/(2 sigma^2))
              (Mironov, Talwar & Zhang 2019, arXiv 1908.10530, Sec. 3.3).
  pg_frac     the same at fractional alpha, by mp.quad of the defining divergence
              A = int mu0(x) ((1-q) + q mu1(x)/mu0(x))^alpha dx, mu0 = N(0, sigma^2), mu1 = N(1, sigma^2),
              i.e. D_alpha((1-q)mu0 + q mu1 || mu0), the direction MTZ 2019 show is the larger one for
              the Gaussian. The range is split at the stationary points of the integrand (roots of
              x = alpha s(x), s the posterior weight of mu1) and at a few local widths around them;
              each point is integrated twice (60 digits with one splitting, 30 digits with another)
              and kept only if the two agree within 1e-12 relative (dropped points are reported on
              stderr; none are at present). At whole orders the integral is checked against pg_int.
  zw_upper    Zhu & Wang (ICML 2019), Theorem 6, Poisson sampling, integer alpha >= 2:
              A <= (1-q)^{alpha-1}(alpha q - q + 1) + C(alpha,2) q^2 (1-q)^{alpha-2} e^{eps(2)}
                   + 3 sum_{l=3}^{alpha} C(alpha,l)(1-q)^{alpha-l} q^l e^{(l-1) eps(l)}.
              At fractional alpha: (alpha-1)eps(alpha) linearly interpolated between the whole
              orders floor(alpha) and ceil(alpha) (0 at alpha = 1), as rdp/bounds.rs documents
              (convexity of the log moment), not a formula from the paper.
  wbk_upper   Wang, Balle & Kasiviswanathan (AISTATS 2019, arXiv 1808.00087), Theorem 9, sampling
              without replacement of a fraction g (replace-one), integer alpha >= 2:
              A <= 1 + g^2 C(alpha,2) min{4(e^{eps(2)} - 1), e^{eps(2)} min{2, (e^{eps(inf)} - 1)^2}}
                     + sum_{j=3}^{alpha} g^j C(alpha,j) e^{(j-1) eps(j)} min{2, (e^{eps(inf)} - 1)^j},
              eps(inf) = inf (Gaussian), 1/b (Laplace), eps (randomized response). Fractional alpha
              interpolated as for zw_upper.
              Both upper bounds are then capped by the base curve eps(alpha): subsampling never
              increases Renyi DP (rdp/bounds.rs states the coupling argument), and the functions return the
              smaller of the two.
  wbk_gauss_upper  WBK 2019, Theorem 27 (appendix; the Gaussian's tight pair), sampling without
              replacement, Gaussian sigma, integer alpha >= 2: wbk_upper with each term j >= 3 the
              smaller of its own and 4 D_j, D_j = E_q[(p/q - 1)^j] = sum_i C(j,i)(-1)^{j-i}
              e^{i(i-1)/(2 sigma^2)} for even j (the exact alternating sum, at 160 digits) and
              sqrt(D_{j-1} D_{j+1}) for odd j, used up to j = 64 (rdp/bounds.rs keeps Theorem 9's
              term above). Fractional alpha interpolated, capped by the base curve, as wbk_upper.
  wbk_lower   WBK 2019, Proposition 11, integer alpha >= 2:
              eps'(alpha) >= alpha/(alpha-1) log(1-g)
                 + 1/(alpha-1) log(1 + alpha g/(1-g) + sum_{j=2}^{alpha} C(alpha,j)(g/(1-g))^j e^{(j-1)eps(j)}).
  eps_classic  eps = rho + log(1/delta)/(alpha-1) (Mironov 2017, Prop. 3), clamped at 0;
              param = rho, param2 = delta.
  eps_improved Canonne, Kamath & Steinke 2020 (arXiv 2004.00010), Prop. 12: delta =
              e^{(alpha-1)(rho-eps)}/(alpha-1) (1-1/alpha)^alpha solved for eps, clamped at 0.
  ln_delta_classic, ln_delta_improved  log delta of the same two statements for a given eps
              (param = rho, param2 = eps), capped at 0.
  gaussian_delta  delta(eps) = Phi(1/(2 sigma) - eps sigma) - e^eps Phi(-1/(2 sigma) - eps sigma)
              (Balle & Wang 2018, arXiv 1805.06530, Theorem 8); param = sigma, param2 = eps.
"""
import csv
import os
import sys

import mpmath as mp

mp.mp.dps = 60
OUT = os.path.join(os.path.dirname(__file__), "..", "..", "math", "tests", "data", "rdp.csv")

# ---------------------------------------------------------------------------------------------
# Base mechanisms: log of the moment, log A(alpha) = log E_Q[(P/Q)^alpha] for the worst pair.


def rr_distributions(eps, k, x):
    """Output distribution of k-ary randomized response on input x in {0, ..., k-1}."""
    e = mp.exp(mp.mpf(eps))
    keep = e / (e + k - 1)
    other = 1 / (e + k - 1)
    return [keep if y == x else other for y in range(k)]


def ln_moment_discrete(p, q, alpha):
    a = mp.mpf(alpha)
    return mp.log(mp.fsum(pi**a * qi ** (1 - a) for pi, qi in zip(p, q)))


def ln_moment(mech, param, param2, alpha):
    a = mp.mpf(alpha)
    if mech == "gaussian":
        s = mp.mpf(param)
        return a * (a - 1) / (2 * s * s)  # alpha(alpha-1)/(2 sigma^2): (alpha-1) times Table II
    if mech == "laplace":
        b = mp.mpf(param)
        return mp.log(a / (2 * a - 1) * mp.exp((a - 1) / b) + (a - 1) / (2 * a - 1) * mp.exp(-a / b))
    if mech in ("rr", "kary"):
        k = 2 if mech == "rr" else int(param2)
        # Every ordered pair of distinct inputs gives the same divergence (the outputs can be
        # relabelled); take the maximum over both orders of the pair (0, 1) anyway, as the
        # definition is a supremum over pairs.
        p, q = rr_distributions(param, k, 0), rr_distributions(param, k, 1)
        return max(ln_moment_discrete(p, q, alpha), ln_moment_discrete(q, p, alpha))
    raise ValueError(mech)


def rdp_base(mech, param, param2, alpha):
    return ln_moment(mech, param, param2, alpha) / (mp.mpf(alpha) - 1)


def eps_infinity(mech, param):
    if mech == "gaussian":
        return mp.inf
    if mech == "laplace":
        return 1 / mp.mpf(param)
    return mp.mpf(param)


def check_closed_forms():
    """The Gaussian and Laplace closed forms against numerical integration of the divergence."""
    for sigma, alpha in [(0.7, 1.5), (2.0, 3.7), (1.0, 10.0)]:
        s, a = mp.mpf(sigma), mp.mpf(alpha)
        p = lambda x: mp.npdf(x, 0, s)
        q = lambda x: mp.npdf(x, 1, s)
        num = mp.quad(lambda x: p(x) ** a * q(x) ** (1 - a), [mp.ninf, -a, 0, 1, a, mp.inf])
        ref = ln_moment("gaussian", sigma, "", alpha)
        assert abs(mp.log(num) - ref) < mp.mpf(10) ** -40 * abs(ref), ("gaussian", sigma, alpha)
    for b, alpha in [(0.5, 1.5), (1.0, 2.0), (2.0, 3.7), (0.3, 10.0)]:
        bb, a = mp.mpf(b), mp.mpf(alpha)
        p = lambda x: mp.exp(-abs(x) / bb) / (2 * bb)
        q = lambda x: mp.exp(-abs(x - 1) / bb) / (2 * bb)
        num = mp.quad(lambda x: p(x) ** a * q(x) ** (1 - a), [mp.ninf, 0, 1, mp.inf])
        ref = ln_moment("laplace", b, "", alpha)
        assert abs(mp.log(num) - ref) < mp.mpf(10) ** -40 * abs(ref), ("laplace", b, alpha)


# ---------------------------------------------------------------------------------------------
# Poisson-subsampled Gaussian.


def pg_integer(sigma, q, alpha):
    s, qq = mp.mpf(sigma), mp.mpf(q)
    A = mp.fsum(
        mp.binomial(alpha, j) * (1 - qq) ** (alpha - j) * qq**j * mp.exp(mp.mpf(j * j - j) / (2 * s * s))
        for j in range(alpha + 1)
    )
    return mp.log(A) / (alpha - 1)


def stationary_points(sigma, q, alpha):
    """Roots of x = alpha s(x), s(x) = q L(x)/((1-q) + q L(x)), L = mu1/mu0: the stationary points
    of log of the integrand. All lie in (0, alpha); there are at most three (s is a logistic)."""
    s2 = sigma * sigma
    ratio = (1 - q) / q

    def g(x):
        return alpha / (1 + ratio * mp.exp(-(2 * x - 1) / (2 * s2))) - x

    n = 400
    grid = [mp.mpf(-1)] + [alpha * mp.mpf(i) / n for i in range(n + 1)] + [alpha + 1]
    roots = []
    for a, b in zip(grid, grid[1:]):
        ga, gb = g(a), g(b)
        if ga == 0:
            roots.append(a)
        elif ga * gb < 0:
            roots.append(mp.findroot(g, (a, b), solver="anderson"))
    return roots


def pg_fractional_moment(sigma, q, alpha, splitting, dps):
    with mp.workdps(dps):
        s, qq, a = mp.mpf(sigma), mp.mpf(q), mp.mpf(alpha)
        s2 = s * s
        c = 1 / (s * mp.sqrt(2 * mp.pi))

        def integrand(x):
            # mu0(x) ((1-q) + q mu1(x)/mu0(x))^alpha, mu1/mu0 = exp((2x - 1)/(2 sigma^2)).
            return c * mp.exp(-x * x / (2 * s2)) * ((1 - qq) + qq * mp.exp((2 * x - 1) / (2 * s2))) ** a

        points = set()
        widths = (0, 4) if splitting == 0 else (2, 7)
        for r in stationary_points(s, qq, a):
            w_post = 1 / (1 + (1 - qq) / qq * mp.exp(-(2 * r - 1) / (2 * s2)))
            curvature = -1 / s2 + a * w_post * (1 - w_post) / (s2 * s2)
            w = 1 / mp.sqrt(-curvature) if curvature < 0 else s
            for k in widths:
                points.add(r + k * w)
                points.add(r - k * w)
        if splitting == 1:
            points.add(s2 * mp.log(1 / qq - 1) + mp.mpf(1) / 2)  # where q L = 1 - q
        value = mp.quad(integrand, [mp.ninf] + sorted(points) + [mp.inf])
        return +value


def pg_fractional(sigma, q, alpha):
    """eps(alpha) from the 60-digit integral, or None when a second integral (another splitting, 30
    digits) disagrees with it by more than 1e-12 relative."""
    a1 = mp.mpf(alpha) - 1
    first = mp.log(pg_fractional_moment(sigma, q, alpha, 0, 60)) / a1
    second = mp.log(pg_fractional_moment(sigma, q, alpha, 1, 30)) / a1
    if abs(first - second) > mp.mpf(10) ** -12 * abs(first):
        print(f"dropped pg_frac sigma={sigma} q={q} alpha={alpha}: {first} vs {second}", file=sys.stderr)
        return None
    return first


# ---------------------------------------------------------------------------------------------
# Upper and lower bounds at integer orders, as stated in the papers.


class Moments:
    """e^{(j-1) eps(j)} of a base mechanism, cached by order."""

    def __init__(self, mech, param, param2):
        self.mech, self.param, self.param2 = mech, param, param2
        self.cache = {}

    def __call__(self, j):
        if j not in self.cache:
            self.cache[j] = mp.exp(ln_moment(self.mech, self.param, self.param2, j))
        return self.cache[j]


def zw_upper_moment(m, q, alpha):
    g = mp.mpf(q)
    A = (1 - g) ** (alpha - 1) * (alpha * g - g + 1)
    A += mp.binomial(alpha, 2) * g**2 * (1 - g) ** (alpha - 2) * m(2)
    A += 3 * mp.fsum(mp.binomial(alpha, l) * (1 - g) ** (alpha - l) * g**l * m(l) for l in range(3, alpha + 1))
    return A


def wbk_upper_moment(m, eps_inf, gamma, alpha):
    g = mp.mpf(gamma)
    cap = lambda j: mp.mpf(2) if eps_inf == mp.inf else min(mp.mpf(2), mp.expm1(eps_inf) ** j)
    A = 1 + g**2 * mp.binomial(alpha, 2) * min(4 * (m(2) - 1), m(2) * cap(2))
    A += mp.fsum(g**j * mp.binomial(alpha, j) * m(j) * cap(j) for j in range(3, alpha + 1))
    return A


def gauss_pearson_vajda(sigma, l):
    """E_q[(p/q - 1)^l] for N(1, sigma^2) against N(0, sigma^2), even l: the alternating sum."""
    with mp.workdps(160):
        c = 1 / (2 * mp.mpf(sigma) ** 2)
        return +mp.fsum(mp.binomial(l, i) * (-1) ** (l - i) * mp.exp(c * i * (i - 1)) for i in range(l + 1))


def wbk_gauss_upper_moment(m, sigma, gamma, alpha):
    g = mp.mpf(gamma)
    d = {l: gauss_pearson_vajda(sigma, l) for l in range(2, min(alpha + 1, 64) + 1, 2)}

    def factor(j):
        general = m(j) * 2
        lo, hi = 2 * (j // 2), 2 * ((j + 1) // 2)
        if hi > 64:
            return general
        return min(general, 4 * mp.sqrt(d[lo] * d[hi]))

    A = 1 + g**2 * mp.binomial(alpha, 2) * min(4 * (m(2) - 1), m(2) * 2)
    A += mp.fsum(g**j * mp.binomial(alpha, j) * factor(j) for j in range(3, alpha + 1))
    return A


def wbk_lower(m, gamma, alpha):
    g = mp.mpf(gamma)
    r = g / (1 - g)
    inner = 1 + alpha * r + mp.fsum(mp.binomial(alpha, j) * r**j * m(j) for j in range(2, alpha + 1))
    return alpha * mp.log(1 - g) / (alpha - 1) + mp.log(inner) / (alpha - 1)


def interpolate(alpha, ln_moment_at):
    """(alpha-1) eps(alpha) linear between whole orders; 0 at alpha = 1."""
    a = mp.mpf(alpha)
    if a == int(a):
        return ln_moment_at(int(a)) / (a - 1)
    lo = int(mp.floor(a))
    t = a - lo
    k_lo = 0 if lo < 2 else ln_moment_at(lo)
    k_hi = ln_moment_at(lo + 1)
    return ((1 - t) * k_lo + t * k_hi) / (a - 1)


# ---------------------------------------------------------------------------------------------
# Conversions to (eps, delta).


def eps_classic(rho, alpha, delta):
    r, a, d = mp.mpf(rho), mp.mpf(alpha), mp.mpf(delta)
    return max(mp.mpf(0), r + mp.log(1 / d) / (a - 1))


def eps_improved(rho, alpha, delta):
    # Solve delta = e^{(a-1)(rho-eps)}/(a-1) (1-1/a)^a for eps.
    r, a, d = mp.mpf(rho), mp.mpf(alpha), mp.mpf(delta)
    return max(mp.mpf(0), r + (a * mp.log(1 - 1 / a) - mp.log(a - 1) - mp.log(d)) / (a - 1))


def ln_delta_classic(rho, alpha, eps):
    r, a, e = mp.mpf(rho), mp.mpf(alpha), mp.mpf(eps)
    return min(mp.mpf(0), mp.log(mp.exp((a - 1) * (r - e))))


def ln_delta_improved(rho, alpha, eps):
    r, a, e = mp.mpf(rho), mp.mpf(alpha), mp.mpf(eps)
    return min(mp.mpf(0), mp.log(mp.exp((a - 1) * (r - e)) / (a - 1) * (1 - 1 / a) ** a))


def gaussian_delta(sigma, eps):
    s, e = mp.mpf(sigma), mp.mpf(eps)
    return mp.ncdf(1 / (2 * s) - e * s) - mp.exp(e) * mp.ncdf(-1 / (2 * s) - e * s)


# ---------------------------------------------------------------------------------------------


def main():
    check_closed_forms()
    rows = []  # (kind, mech, param, param2, rate, alpha, expected)

    base_mechs = (
        [("gaussian", s, "") for s in (0.1, 0.5, 1.0, 3.0, 100.0)]
        + [("laplace", b, "") for b in (0.05, 0.5, 1.0, 2.0, 100.0)]
        + [("rr", e, "") for e in (0.001, 0.1, 1.0, 5.0, 20.0)]
        + [("kary", e, k) for e in (0.1, 1.0, 5.0) for k in (2, 3, 10, 1000)]
    )
    for mech, param, param2 in base_mechs:
        for alpha in (1.001, 1.01, 1.5, 2.0, 3.7, 10.0, 64.0, 256.0, 1000.0, 10000.0):
            rows.append(("base", mech, param, param2, "", alpha, rdp_base(mech, param, param2, alpha)))

    sigmas = (0.5, 0.8, 1.0, 2.0, 5.0, 20.0)
    rates = (1e-4, 1e-3, 0.01, 0.1, 0.5)
    for sigma in sigmas + (100.0, 1e4):
        for q in rates + (0.9, 0.999):
            for alpha in (2, 3, 4, 5, 8, 11, 16, 32, 64, 100, 128, 256):
                rows.append(("pg_int", "gaussian", sigma, "", q, float(alpha), pg_integer(sigma, q, alpha)))

    # The integration is slow (about half a second a point): two orders per (sigma, q), rotating
    # through the list so that every order meets a spread of sigma and q, plus the public point
    # q = 0.1, sigma = 5, alpha = 1.5 (exact 3.05e-4).
    frac_orders = (1.05, 1.5, 2.5, 3.7, 7.25, 12.5, 30.5)
    frac_points = []
    for i, sigma in enumerate(sigmas):
        for j, q in enumerate(rates):
            for step in (0, 3):
                frac_points.append((sigma, q, frac_orders[(i + 3 * j + step) % len(frac_orders)]))
    if (5.0, 0.1, 1.5) not in frac_points:
        frac_points.append((5.0, 0.1, 1.5))
    # Large noise at rates just below and above 1/2 and close to 1, where the series the Rust code
    # sums changes form (q < 1/2: A - 1; q >= 1/2: A itself).
    for i, sigma in enumerate((10.0, 100.0, 1e4)):
        for j, q in enumerate((0.49, 0.499, 0.5, 0.6, 0.9, 0.99)):
            frac_points.append((sigma, q, ((1.001, 1.01) + frac_orders[:3])[(2 * i + j) % 5]))
    frac_points += [(30.0, 0.4999, 1.5), (1e3, 0.9, 2.5)]
    # The integral at whole orders must agree with the finite sum (checks the quadrature set-up).
    for sigma, q, alpha in [(0.5, 0.1, 8), (1.0, 0.01, 3), (5.0, 0.5, 2)]:
        a = mp.log(pg_fractional_moment(sigma, q, float(alpha), 0, 60)) / (alpha - 1)
        b = pg_integer(sigma, q, alpha)
        assert abs(a - b) < mp.mpf(10) ** -40 * b, (sigma, q, alpha, a, b)
    for sigma, q, alpha in frac_points:
        v = pg_fractional(sigma, q, alpha)
        if v is not None:
            rows.append(("pg_frac", "gaussian", sigma, "", q, alpha, v))

    bound_mechs = (
        [("laplace", b, "") for b in (0.5, 1.0, 2.0, 20.0, 100.0)]
        + [("rr", e, "") for e in (0.001, 0.05, 0.5, 2.0)]
        + [("kary", 1.0, 5)]
        + [("gaussian", s, "") for s in (1.0, 5.0)]
    )
    bound_orders = (2, 3, 4, 5, 8, 16, 32, 64, 128, 256)
    for mech, param, param2 in bound_mechs:
        m = Moments(mech, param, param2)
        einf = eps_infinity(mech, param)
        for q in (0.001, 0.01, 0.1, 0.5):
            zw = lambda a: mp.log(zw_upper_moment(m, q, a))
            wbk = lambda a: mp.log(wbk_upper_moment(m, einf, q, a))
            # Both upper bounds are capped by the base curve (subsampling never increases RDP).
            base = lambda a: ln_moment(mech, param, param2, a) / (a - 1)
            for alpha in bound_orders:
                rows.append(("zw_upper", mech, param, param2, q, float(alpha), min(zw(alpha) / (alpha - 1), base(alpha))))
                rows.append(("wbk_upper", mech, param, param2, q, float(alpha), min(wbk(alpha) / (alpha - 1), base(alpha))))
                rows.append(("wbk_lower", mech, param, param2, q, float(alpha), wbk_lower(m, q, alpha)))
            for alpha in (1.5, 2.5, 7.25):
                rows.append(("zw_upper", mech, param, param2, q, alpha, min(interpolate(alpha, zw), base(mp.mpf(alpha)))))
                rows.append(("wbk_upper", mech, param, param2, q, alpha, min(interpolate(alpha, wbk), base(mp.mpf(alpha)))))

    for sigma in (0.5, 1.0, 2.0, 5.0, 20.0):
        m = Moments("gaussian", sigma, "")
        base = lambda a: ln_moment("gaussian", sigma, "", a) / (a - 1)
        for q in (0.001, 0.01, 0.1, 0.5):
            wg = lambda a: mp.log(wbk_gauss_upper_moment(m, sigma, q, a))
            for alpha in (2, 3, 4, 5, 8, 16, 32, 63, 64, 65, 128):
                rows.append(("wbk_gauss_upper", "gaussian", sigma, "", q, float(alpha), min(wg(alpha) / (alpha - 1), base(alpha))))
            for alpha in (1.5, 2.5, 7.25):
                rows.append(("wbk_gauss_upper", "gaussian", sigma, "", q, alpha, min(interpolate(alpha, wg), base(mp.mpf(alpha)))))

    conv_orders = (1.01, 1.5, 2.0, 3.7, 10.0, 64.0, 256.0, 10000.0)
    for rho in (0.0, 1e-6, 0.01, 0.5, 3.0, 50.0):
        for alpha in conv_orders:
            for delta in (1e-12, 1e-5, 0.1, 0.9):
                rows.append(("eps_classic", "", rho, delta, "", alpha, eps_classic(rho, alpha, delta)))
                rows.append(("eps_improved", "", rho, delta, "", alpha, eps_improved(rho, alpha, delta)))
            for eps in (0.0, 0.5, 2.0, 10.0):
                rows.append(("ln_delta_classic", "", rho, eps, "", alpha, ln_delta_classic(rho, alpha, eps)))
                rows.append(("ln_delta_improved", "", rho, eps, "", alpha, ln_delta_improved(rho, alpha, eps)))

    for sigma in (0.1, 0.3, 0.5, 1.0, 2.0, 5.0, 20.0, 100.0):
        for eps in (0.0, 0.01, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 100.0):
            d = gaussian_delta(sigma, eps)
            if d > mp.mpf(10) ** -280:  # the Rust value is a double; keep clear of underflow
                rows.append(("gaussian_delta", "", sigma, eps, "", "", d))

    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    cell = lambda v: repr(v) if isinstance(v, float) else str(v)
    with open(OUT, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["kind", "mech", "param", "param2", "rate", "alpha", "expected"])
        for kind, mech, param, param2, rate, alpha, expected in rows:
            w.writerow([kind, mech, cell(param), cell(param2), cell(rate), cell(alpha),
                        mp.nstr(expected, 25, min_fixed=0, max_fixed=0)])
    print(f"wrote {len(rows)} rows to {os.path.normpath(OUT)} (mpmath {mp.__version__})", file=sys.stderr)


if __name__ == "__main__":
    main()
