"""Nonlinear conjugate gradients as SciPy 1.10's ``minimize(method="CG")``
runs them, in numpy, so that Crowd-Kit's GLAD, whose M-step calls it, can
be followed step by step without SciPy.

The algorithm is Polak-Ribière+ (Nocedal and Wright, Numerical
Optimization, 2nd ed., section 5.2) with the descent safeguard of Gilbert
and Nocedal (1992): a step is accepted only if the next direction p
satisfies p·g ≤ −0.01 g·g. Each line search is the Moré-Thuente search
of MINPACK-2 (dcsrch and dcstep; J. J. Moré and D. J. Thuente, "Line
search algorithms with guaranteed sufficient decrease", ACM TOMS 20(3),
1994) for the strong Wolfe conditions with c1 = 1e-4, c2 = 0.4, steps in
[1e-100, 1e100]; where it fails or its step fails the safeguard, the
bracketing and zoom search of Nocedal and Wright (algorithms 3.5 and 3.6,
at most 10 steps each) is tried. The first trial step of a search is
min(1, 2.02 (f_k − f_{k−1}) / (g·p)), f_{−1} being f_0 + |g_0| / 2.
The iteration stops when the largest absolute component of the gradient
is at most gtol, after maxiter iterations, or when both searches fail.
"""

import math

import numpy as np

C1, C2 = 1e-4, 0.4
STEP_MIN, STEP_MAX = 1e-100, 1e100
XTOL = 1e-14


class _Search:
    """The Moré-Thuente search's state between trial steps (dcsrch)."""

    def __init__(self, step, f0, g0):
        self.bracketed = False
        self.stage = 1
        self.finit, self.ginit = f0, g0
        self.gtest = C1 * g0
        self.width = STEP_MAX - STEP_MIN
        self.width1 = self.width / 0.5
        self.stx, self.fx, self.gx = 0.0, f0, g0
        self.sty, self.fy, self.gy = 0.0, f0, g0
        self.stmin, self.stmax = 0.0, step + 4.0 * step

    def next(self, stp, f, g):
        """The next trial step after (stp, f, g), or (None, status) when
        the search ends: status "ok" (converged at stp) or "fail"."""
        ftest = self.finit + stp * self.gtest
        if self.stage == 1 and f <= ftest and g >= 0:
            self.stage = 2
        status = None
        if self.bracketed and (stp <= self.stmin or stp >= self.stmax):
            status = "fail"  # rounding errors prevent progress
        if self.bracketed and self.stmax - self.stmin <= XTOL * self.stmax:
            status = "fail"
        if stp == STEP_MAX and f <= ftest and g <= self.gtest:
            status = "fail"
        if stp == STEP_MIN and (f > ftest or g >= self.gtest):
            status = "fail"
        if f <= ftest and abs(g) <= C2 * -self.ginit:
            status = "ok"
        if status is not None:
            return None, status
        if self.stage == 1 and f <= self.fx and f > ftest:
            # the modified function psi(stp) = f(stp) - f(0) - c1 stp f'(0)
            gt = self.gtest
            out = _dcstep(self.stx, self.fx - self.stx * gt, self.gx - gt, self.sty, self.fy - self.sty * gt,
                          self.gy - gt, stp, f - stp * gt, g - gt, self.bracketed, self.stmin, self.stmax)
            self.stx, fxm, gxm, self.sty, fym, gym, stp, self.bracketed = out
            self.fx, self.fy = fxm + self.stx * gt, fym + self.sty * gt
            self.gx, self.gy = gxm + gt, gym + gt
        else:
            out = _dcstep(self.stx, self.fx, self.gx, self.sty, self.fy, self.gy, stp, f, g, self.bracketed,
                          self.stmin, self.stmax)
            self.stx, self.fx, self.gx, self.sty, self.fy, self.gy, stp, self.bracketed = out
        if self.bracketed:
            if abs(self.sty - self.stx) >= 0.66 * self.width1:
                stp = self.stx + 0.5 * (self.sty - self.stx)
            self.width1 = self.width
            self.width = abs(self.sty - self.stx)
            self.stmin, self.stmax = min(self.stx, self.sty), max(self.stx, self.sty)
        else:
            self.stmin = stp + 1.1 * (stp - self.stx)
            self.stmax = stp + 4.0 * (stp - self.stx)
        stp = min(max(stp, STEP_MIN), STEP_MAX)
        if self.bracketed and (stp <= self.stmin or stp >= self.stmax
                               or self.stmax - self.stmin <= XTOL * self.stmax):
            stp = self.stx
        return stp, None


def _sign(x):
    return (x > 0) - (x < 0)


def _gamma(theta, a, b, floor=False, negate=False):
    """The root of the cubic step's discriminant, scaled against overflow
    (floor: a negative discriminant counts as 0), negated if negate."""
    s = max(abs(theta), abs(a), abs(b))
    disc = (theta / s) ** 2 - (a / s) * (b / s)
    root = s * math.sqrt(max(0, disc) if floor else disc)
    return -root if negate else root


def _dcstep(stx, fx, dx, sty, fy, dy, stp, fp, dp, brackt, stpmin, stpmax):
    """MINPACK-2's dcstep: a safeguarded cubic or quadratic step, and the
    interval (stx, sty) that brackets a step satisfying the conditions."""
    sgnd = _sign(dp) * _sign(dx)
    if fp > fx:
        theta = 3.0 * (fx - fp) / (stp - stx) + dx + dp
        gamma = _gamma(theta, dx, dp, negate=stp < stx)
        p = (gamma - dx) + theta
        q = ((gamma - dx) + gamma) + dp
        stpc = stx + p / q * (stp - stx)
        stpq = stx + ((dx / ((fx - fp) / (stp - stx) + dx)) / 2.0) * (stp - stx)
        stpf = stpc if abs(stpc - stx) <= abs(stpq - stx) else stpc + (stpq - stpc) / 2.0
        brackt = True
    elif sgnd < 0.0:
        theta = 3 * (fx - fp) / (stp - stx) + dx + dp
        gamma = _gamma(theta, dx, dp, negate=stp > stx)
        p = (gamma - dp) + theta
        q = ((gamma - dp) + gamma) + dx
        stpc = stp + p / q * (stx - stp)
        stpq = stp + (dp / (dp - dx)) * (stx - stp)
        stpf = stpc if abs(stpc - stp) > abs(stpq - stp) else stpq
        brackt = True
    elif abs(dp) < abs(dx):
        theta = 3 * (fx - fp) / (stp - stx) + dx + dp
        gamma = _gamma(theta, dx, dp, floor=True, negate=stp > stx)
        p = (gamma - dp) + theta
        q = (gamma + (dx - dp)) + gamma
        r = p / q
        if r < 0 and gamma != 0:
            stpc = stp + r * (stx - stp)
        elif stp > stx:
            stpc = stpmax
        else:
            stpc = stpmin
        stpq = stp + (dp / (dp - dx)) * (stx - stp)
        if brackt:
            stpf = stpc if abs(stpc - stp) < abs(stpq - stp) else stpq
            if stp > stx:
                stpf = min(stp + 0.66 * (sty - stp), stpf)
            else:
                stpf = max(stp + 0.66 * (sty - stp), stpf)
        else:
            stpf = stpc if abs(stpc - stp) > abs(stpq - stp) else stpq
            stpf = min(max(stpf, stpmin), stpmax)
    elif brackt:
        theta = 3.0 * (fp - fy) / (sty - stp) + dy + dp
        gamma = _gamma(theta, dy, dp, negate=stp > sty)
        p = (gamma - dp) + theta
        q = ((gamma - dp) + gamma) + dy
        stpf = stp + p / q * (sty - stp)
    elif stp > stx:
        stpf = stpmax
    else:
        stpf = stpmin
    if fp > fx:
        sty, fy, dy = stp, fp, dp
    else:
        if sgnd < 0:
            sty, fy, dy = stx, fx, dx
        stx, fx, dx = stp, fp, dp
    return stx, fx, dx, sty, fy, dy, stpf, brackt


class _Line:
    """f and its gradient along x + a p, remembering the last gradient."""

    def __init__(self, fun, grad, x, p):
        self.fun, self.grad, self.x, self.p = fun, grad, x, p
        self.g, self.g_at = None, None

    def f(self, a):
        return self.fun(self.x + a * self.p)

    def df(self, a):
        self.g, self.g_at = self.grad(self.x + a * self.p), a
        return float(np.dot(self.g, self.p))


def _first_step(f0, f_prev, d0):
    if f_prev is not None and d0 != 0:
        a = min(1.0, 1.01 * 2 * (f0 - f_prev) / d0)
        return 1.0 if a < 0 else a
    return 1.0


def _more_thuente(line, f0, f_prev, d0):
    """(step, f at it, gradient at it) or None."""
    stp = _first_step(f0, f_prev, d0)
    if stp < STEP_MIN or stp > STEP_MAX or d0 >= 0:
        return None
    search = _Search(stp, f0, d0)
    for i in range(100):
        f, d = line.f(stp), line.df(stp)
        if i == 99:
            return None  # SciPy's 100 calls of dcsrch, the first to start
        nxt, status = search.next(stp, f, d)
        if status == "ok":
            return stp, f, line.g
        if status == "fail" or not math.isfinite(nxt):
            return None
        stp = nxt
    return None


def _cubicmin(a, fa, fpa, b, fb, c, fc):
    with np.errstate(divide="raise", over="raise", invalid="raise"):
        try:
            db, dc = b - a, c - a
            denom = (db * dc) ** 2 * (db - dc)
            d1 = np.array([[dc ** 2, -db ** 2], [-dc ** 3, db ** 3]])
            big_a, big_b = np.dot(d1, np.asarray([fb - fa - fpa * db, fc - fa - fpa * dc]).flatten())
            big_a /= denom
            big_b /= denom
            radical = big_b * big_b - 3 * big_a * fpa
            xmin = a + (-big_b + np.sqrt(radical)) / (3 * big_a)
        except ArithmeticError:
            return None
    return xmin if np.isfinite(xmin) else None


def _quadmin(a, fa, fpa, b, fb):
    with np.errstate(divide="raise", over="raise", invalid="raise"):
        try:
            db = b - a * 1.0
            big_b = (fb - fa - fpa * db) / (db * db)
            xmin = a - fpa / (2.0 * big_b)
        except ArithmeticError:
            return None
    return xmin if np.isfinite(xmin) else None


def _zoom(lo, hi, f_lo, f_hi, d_lo, line, f0, d0, accept):
    f_rec, a_rec, a_j = f0, 0, None
    for i in range(11):
        span = hi - lo
        a, b = (hi, lo) if span < 0 else (lo, hi)
        if i > 0:
            check = 0.2 * span
            a_j = _cubicmin(lo, f_lo, d_lo, hi, f_hi, a_rec, f_rec)
        if i == 0 or a_j is None or a_j > b - check or a_j < a + check:
            check = 0.1 * span
            a_j = _quadmin(lo, f_lo, d_lo, hi, f_hi)
            if a_j is None or a_j > b - check or a_j < a + check:
                a_j = lo + 0.5 * span
        f_j = line.f(a_j)
        if f_j > f0 + C1 * a_j * d0 or f_j >= f_lo:
            f_rec, a_rec, hi, f_hi = f_hi, hi, a_j, f_j
        else:
            d_j = line.df(a_j)
            if abs(d_j) <= -C2 * d0 and accept(a_j):
                return a_j, f_j
            if d_j * (hi - lo) >= 0:
                f_rec, a_rec, hi, f_hi = f_hi, hi, lo, f_lo
            else:
                f_rec, a_rec = f_lo, lo
            lo, f_lo, d_lo = a_j, f_j, d_j
    return None


def _bracket_zoom(line, f0, f_prev, d0, accept):
    """(step, f at it, gradient at it) or None."""
    a0, a1 = 0, _first_step(f0, f_prev, d0)
    a1 = min(a1, STEP_MAX)
    f_a1, f_a0, d_a0 = line.f(a1), f0, d0
    found = None
    for i in range(10):
        if a1 == 0 or a0 == STEP_MAX:
            return None
        if f_a1 > f0 + C1 * a1 * d0 or (f_a1 >= f_a0 and i > 0):
            found = _zoom(a0, a1, f_a0, f_a1, d_a0, line, f0, d0, accept)
            break
        d_a1 = line.df(a1)
        if abs(d_a1) <= -C2 * d0 and accept(a1):
            found = a1, f_a1
            break
        if d_a1 >= 0:
            found = _zoom(a1, a0, f_a1, f_a0, d_a1, line, f0, d0, accept)
            break
        a0, a1 = a1, min(2 * a1, STEP_MAX)
        f_a0, f_a1, d_a0 = f_a1, line.f(a1), d_a1
    else:
        return a1, f_a1, None  # SciPy takes the last step tried, unchecked
    if found is None:
        return None
    return found[0], found[1], line.g


def minimize(fun, grad, x0, gtol, maxiter):
    """The point where conjugate gradients from x0 stop (see the module's
    doc), for fun and its gradient grad, functions of a float array."""
    x = np.asarray(x0, dtype=float).flatten().copy()
    f = fun(x)
    g = grad(x)
    f_prev = f + np.linalg.norm(g) / 2
    p = -g
    gnorm = np.max(np.abs(g)) if len(g) else 0.0
    k = 0
    while gnorm > gtol and k < maxiter:
        gg = np.dot(g, g)
        cached = [None]

        def step(a, g1, x=x, g=g, p=p, gg=gg):
            """(a, iterate, direction, gradient, its norm) after step a."""
            x1 = x + a * p
            if g1 is None:
                g1 = grad(x1)
            beta = max(0, np.dot(g1 - g, g1) / gg)
            return a, x1, -g1 + beta * p, g1, np.max(np.abs(g1))

        def accept(a, g1):
            """The descent safeguard, remembering the step it computes."""
            cached[0] = step(a, g1)
            _, _, p1, g1, n1 = cached[0]
            return n1 <= gtol or np.dot(p1, g1) <= -0.01 * np.dot(g1, g1)

        d0 = float(np.dot(g, p))
        found = _more_thuente(_Line(fun, grad, x, p), f, f_prev, d0)
        if found is not None and not accept(found[0], found[2]):
            found = None
        if found is None:
            line = _Line(fun, grad, x, p)

            def accept2(a, line=line):
                if line.g_at != a:
                    line.df(a)
                return accept(a, line.g)
            found = _bracket_zoom(line, f, f_prev, d0, accept2)
            if found is None:
                break
        a, f_new, g_new = found
        if cached[0] is not None and cached[0][0] == a:
            _, x, p, g, gnorm = cached[0]
        else:
            _, x, p, g, gnorm = step(a, g_new)
        f_prev, f = f, f_new
        k += 1
    return x
