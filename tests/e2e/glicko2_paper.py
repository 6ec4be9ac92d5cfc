"""Glicko-2 rating update of one player after one rating period, written
from Glickman's paper ("Example of the Glicko-2 system"), not from our C++,
so a test can compare the server's numbers with an independent computation.
"""

import math

# Glicko-2 (Glickman, "Example of the Glicko-2 system"), as docs/ratings.md
# states it: tau 0.5, Illinois tolerance 1e-6, t = 0 rating periods for a
# player's first match. Written from the paper, not from our C++.
SCALE = 173.7178


def glicko2(r, rd, vol, opponents, tau=0.5, eps=1e-6):
    mu, phi = (r - 1500) / SCALE, rd / SCALE
    g = lambda p: 1 / math.sqrt(1 + 3 * p * p / math.pi ** 2)  # noqa: E731
    v_inv, d_sum = 0.0, 0.0
    for (r_j, rd_j, s_j) in opponents:
        mu_j, phi_j = (r_j - 1500) / SCALE, rd_j / SCALE
        e = 1 / (1 + math.exp(-g(phi_j) * (mu - mu_j)))
        v_inv += g(phi_j) ** 2 * e * (1 - e)
        d_sum += g(phi_j) * (s_j - e)
    v = 1 / v_inv
    delta = v * d_sum
    a = math.log(vol * vol)

    def f(x):
        ex = math.exp(x)
        return (ex * (delta ** 2 - phi ** 2 - v - ex) /
                (2 * (phi ** 2 + v + ex) ** 2) - (x - a) / tau ** 2)

    big_a = a
    if delta ** 2 > phi ** 2 + v:
        big_b = math.log(delta ** 2 - phi ** 2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > eps:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    vol_new = math.exp(big_a / 2)
    phi_star = phi  # t = 0: a first match.
    phi_new = 1 / math.sqrt(1 / phi_star ** 2 + 1 / v)
    mu_new = mu + phi_new ** 2 * d_sum
    return 1500 + SCALE * mu_new, SCALE * phi_new, vol_new
