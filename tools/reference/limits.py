#!/usr/bin/env python3
"""Reference values for the limits of amplification by subsampling (Steinke, "Limits of privacy
amplification by subsampling"), from mpmath at 60 significant digits.

Pinned: Python 3.11, mpmath==1.3.0. Run from the repository root:  python3 tools/reference/limits.py
Writes math/tests/data/limits.csv, read by math/tests/limits_reference.rs.

Kinds (columns: kind, epsilon, p, c, expected):
  noise_ratio    R = (p/eps) log(1 + (e^eps - 1)/p)          Steinke, eq. 7
  ratio_floor    log(1 + c)/c                                 Steinke, eq. 8
  factor_bound   c/log(1 + c)                                 Steinke, eq. 8
  taylor1..3     the Taylor terms of eps_p in eps, eq. 5 (to check the closed forms of the terms)
  mse_noise      2/(eps_p p n)^2 with n in column c            eq. 2, privacy-noise term
  break_even     smallest p with p eps_p^2 = 2/n (n in column c), by mpmath's own root solver
  ratio_lower    p/(p + eps), the lower bound of eq. 6 on R
  mse_standard   2/(eps n)^2 with n in column c                eq. 1
  noise_ratio at eps in {1e-250, 1e-210} too (the first-order branch of the Rust code)
"""
import csv
import os
import sys

import mpmath as mp

mp.mp.dps = 60
OUT = os.path.join(os.path.dirname(__file__), "..", "..", "math", "tests", "data", "limits.csv")


def logspace(lo, hi, count):
    a, b = mp.log10(lo), mp.log10(hi)
    return [float(mp.power(10, a + (b - a) * i / (count - 1))) for i in range(count)]


def eps_p(eps, p):
    return mp.log(1 + (mp.exp(mp.mpf(eps)) - 1) / mp.mpf(p))


def main():
    rows = []
    for eps in logspace(1e-9, 10.0, 21) + [0.113147142960707, 2.0]:
        for p in logspace(1e-9, 1.0, 19) + [256 / 60000]:
            e, q = mp.mpf(eps), mp.mpf(p)
            # expm1 and log1p: e^eps - 1 at 60 digits would be 0 here.
            rows.append(("noise_ratio", eps, p, "", q * mp.log1p(mp.expm1(e) / q) / e))
            # Taylor terms by differentiating eps_p symbolically-free: mpmath's taylor() at 0.
            if eps <= 1e-3:
                coeffs = mp.taylor(lambda t: eps_p(t, p), 0, 3)
                for k in range(1, 4):
                    rows.append((f"taylor{k}", eps, p, "", coeffs[k] * e**k))
            if p >= 1e-6:
                rows.append(("mse_noise", eps, p, 1e4, 2 / (eps_p(eps, p) * q * 10**4) ** 2))
    for c in logspace(1e-6, 1e4, 41) + [0.2, 0.5, 2.0, 5.0, 26.518861631415734]:
        cc = mp.mpf(c)
        rows.append(("ratio_floor", "", "", c, mp.log(1 + cc) / cc))
        rows.append(("factor_bound", "", "", c, cc / mp.log(1 + cc)))
    zpeak = mp.findroot(lambda z: 2 * z / (1 + z) - mp.log(1 + z), 4)
    # The last two: 2/n between p eps_p^2 at z = 1 and at its peak, so the curve crosses 2/n
    # again past the peak (the bracket must stop at the peak to find the smaller root).
    for eps, ns in [(e, [100.0, 1e4, 1e6, 1e9]) for e in [0.01, 0.1, 0.5, 1.0, 3.0, 10.0]] + [(0.1, [31.7]), (1.0, [1.94])]:
        for n in ns:
            e = mp.mpf(eps)
            peak = min(mp.mpf(1), mp.expm1(e) / zpeak)
            h = lambda t: t + 2 * mp.log(eps_p(eps, mp.exp(t))) + mp.log(n) - mp.log(2)
            if h(mp.log(peak)) < 0:
                continue
            t = mp.findroot(h, (mp.mpf(-690), mp.log(peak)), solver="anderson")
            rows.append(("break_even", eps, "", n, mp.exp(t)))
    for eps in [1e-250, 1e-210]:
        for p in [1e-6, 0.01, 0.5]:
            e, q = mp.mpf(eps), mp.mpf(p)
            # expm1 and log1p: e^eps - 1 at 60 digits would be 0 here.
            rows.append(("noise_ratio", eps, p, "", q * mp.log1p(mp.expm1(e) / q) / e))
    for eps in [1e-6, 0.1, 1.0, 10.0]:
        for p in [1e-9, 0.01, 1.0]:
            rows.append(("ratio_lower", eps, p, "", mp.mpf(p) / (mp.mpf(p) + mp.mpf(eps))))
        for n in [1.0, 100.0, 60000.0]:
            rows.append(("mse_standard", eps, "", n, 2 / (mp.mpf(eps) * mp.mpf(n)) ** 2))
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["kind", "epsilon", "p", "c", "expected"])
        for kind, eps, p, c, expected in rows:
            w.writerow([kind, repr(eps) if eps != "" else "", repr(p) if p != "" else "",
                        repr(c) if c != "" else "", mp.nstr(expected, 25, min_fixed=0, max_fixed=0)])
    print(f"wrote {len(rows)} rows to {os.path.normpath(OUT)} (mpmath {mp.__version__})", file=sys.stderr)


if __name__ == "__main__":
    main()
