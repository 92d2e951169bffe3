"""The text each committed certificate must carry, pinned per check: a file whose text differs is refused.

A certificate's ``statement``, ``paper_ref``, ``finding``, ``lhs_label``, ``rhs_label`` and the ``expr`` of every
``formula`` side (by its path, ``"lhs"``, ``"rhs.lomr"``, ...) tell a reader what was refuted; the checker evaluates
none of them, so it pins them: :func:`sparseact.verify.recompute.verify_certificate` refuses a file of a check listed
here whose text differs, naming the field. A new FAIL check is pinned by adding its entry (the text its certificate
carries, read and approved against the paper; ``python -m sparseact.verify.pinned_text FILE`` prints the entry of a
certificate file to review and paste). A label that names the instance pins the instance's integer variable as
``<<name>>`` (``k=<<k>>``), filled from the certificate's formula sides. A finding pinned as a pair
``(<class>, "out-of-range")`` is the one the degenerate-corner rule gives the certificate's instance. A check not
listed has its numbers and relation pinned only.
"""

from __future__ import annotations

#: The text Theorem 17's two-point certificates share (scaling/covariance, scaling/theorem17-printed).
_THEOREM17_TWO_POINT = {
    "paper_ref": "Lemmas 6, 7, 9, 10, Claim 2.1, Theorems 8, 17, 19, eq. (15), Conjecture 20",
    "finding": "statement-error",
    "lhs_label": "samples needed to tell h from -h: log(1/(2 delta)) / (-log(1 - p))",
    "rhs_label": "Theorem 17's m(eps, delta) with hidden constant C = 1000",
    "expr": {
        "lhs": "log(1/(2*delta))/(-log(1-p)) if p*lam**2 > 2*eps else 0",
        "rhs": "C*((W*R+B)**2*k*s*n*log(k*(R+B)/eps) + log(1/delta))/eps**2",
    },
}

#: The finding of a check whose FAIL is classed by the degenerate-corner rule (``[<class>, out-of-range]`` in its
#: ``checks.yaml``): the checker expects ``out-of-range`` when the certificate's violation is in a log corner
#: (:func:`sparseact.verify.corners.certificate_in_log_corner`), the class otherwise.
_CORNER_RULE = ("statement-error", "out-of-range")

#: check id -> field -> the pinned text (``expr``: formula path -> expression).
PINNED_TEXT: dict[str, dict] = {
    "appendixA/computes-printed": {
        "statement": "F(x, y) = sigma(<w_x, y>) on all inputs (Gamma = sqrt(q), w_x arbitrary, as printed)",
        "paper_ref": "Appendix A",
        "finding": "statement-error",
        "lhs_label": "F(x, y)",
        "rhs_label": "sigma(<w_x, y>)",
        "expr": {
            "rhs": "relu(sum(w[i] * y[i] for i in range(q)))",
        },
    },
    "appendixA/sparse-sqrt-q-printed": {
        "statement": "with Gamma = sqrt(q), F is 1-sparsely activated for all inputs (w_alpha arbitrary)",
        "paper_ref": "Appendix A",
        "finding": "statement-error",
        "lhs_label": "#{alpha : <w_alpha, y> + Gamma(<x, alpha> - b) > 0}",
        "rhs_label": "1 (1-sparse for all inputs)",
        "expr": {
            "rhs": "1",
        },
    },
    "appendixA/whp-printed-split": {
        "statement": "with Gamma = Theta(sqrt(log s)) and w_alpha arbitrary (as printed), F is 1-sparse with probability 1 - 1/poly(s)",
        "paper_ref": "Appendix A (with Remark 11)",
        "finding": "statement-error",
        "lhs_label": "Pr_(x,y)[F is 1-sparse]",
        "rhs_label": "1 - 1/P(s) with P(s) = s",
        "expr": {
            "rhs": "1 - 1/s",
        },
    },
    "lemma10/bound-degenerate": {
        "statement": "NS_rho(h) = sqrt(1-rho) O(k^4 W^2 log^2(ns/(1-rho)) + k^3 B^2 sqrt(log s)) at ns = 1 - rho",
        "paper_ref": "Lemma 10",
        "finding": "out-of-range",
        "lhs_label": "NS_0(relu(x_1))",
        "rhs_label": "C sqrt(1-rho)(k^4 W^2 log^2(ns/(1-rho)) + k^3 B^2 sqrt(log s))",
        "expr": {
            "rhs": "C * sqrt(1 - rho) * (k**4 * W**2 * log(n * s / (1 - rho))**2 + k**3 * B**2 * sqrt(log(s)))",
        },
    },
    "lemma10/claim21-tail-negative-rho": {
        "statement": "sum_{|T|>d} fhat(T)^2 <= 2 NS_rho(f) / (1 - rho^d) for all f (no range of rho printed)",
        "paper_ref": "Claim 2.1",
        "finding": "out-of-range",
        "lhs_label": "sum_{|T|>d} fhat(T)^2",
        "rhs_label": "2 NS_rho(f) / (1 - rho^d)",
        "expr": {
            "rhs": "2 * ns / (1 - rho**d)",
        },
    },
    "lemma10/eq17-coupling": {
        "statement": "(x, y) of the bucket coupling are distributed exactly as (x, N_rho(x)), r = floor(2/(1-rho))",
        "paper_ref": "Appendix B, eq. (17)",
        "finding": "proof-slip",
        "lhs_label": "NS_rho(h) = Pr_{y ~ N_rho(x)}[y_1 != x_1]",
        "rhs_label": "the coupling's E[(1/4)(h(x) - h(y))^2] = 1/r",
        "expr": {
            "rhs": "1 / floor(2 / (1 - rho))",
        },
    },
    "lemma10/eq17-printed": {
        "statement": "NS_rho(h) = E[(h(x)-h(y))^2] = (1/r) E (sum_b E_v (H_z(v) - H_z(v^b))^2) = (1/r) E[AS(H_z)]",
        "paper_ref": "Appendix B, eq. (17)",
        "finding": "proof-slip",
        "lhs_label": "NS_rho(h)",
        "rhs_label": "E[(h(x) - h(y))^2], y ~ N_rho(x)",
        "expr": {
            "rhs": "4 * (1 - rho) / 2",
        },
    },
    "lemma6/identity-printed": {
        "statement": "AS(g) = (1/4) E_x[g(x) sum_i x_i] for w > 0",
        "paper_ref": "Lemma 6 (proof)",
        "finding": "proof-slip",
        "lhs_label": "AS(g)",
        "rhs_label": "(1/4) E_x[g(x) sum_i x_i]",
        "expr": {},
    },
    "lemma9/proof-V-printed": {
        "statement": "n[(k sqrt(log(s/k))/sqrt(n) - (ns)^-4)(c k^1.5 W sqrt(log(ns)) + kB)^2 + (ns)^-4 (kW sqrt(n) + kB)^2] <= O(k^4 W^2 sqrt(n) log(ns) + k^3 B^2 sqrt(log s))",
        "paper_ref": "Lemma 9 (Section 3)",
        "finding": "proof-slip",
        "lhs_label": "n[(k sqrt(log(s/k))/sqrt(n) - (ns)^-4)(c k^1.5 W sqrt(log ns) + kB)^2 + (ns)^-4 (kW sqrt(n) + kB)^2]",
        "rhs_label": "C (k^4 W^2 sqrt(n) log(ns) + k^3 B^2 sqrt(log s))",
        "expr": {
            "lhs": "n*((k*sqrt(log(s/k))/sqrt(n) - 1/(n*s)**4)*(c*k**1.5*W*sqrt(log(n*s)) + k*B)**2 + 1/(n*s)**4*(k*W*sqrt(n) + k*B)**2)",
            "rhs": "C*(k**4*W**2*sqrt(n)*log(n*s) + k**3*B**2*sqrt(log(s)))",
        },
    },
    "lemma9/proof-tail-hence-W0": {
        "statement": "Pr_x[|l_{R_x}(x)| >= c k^{1.5} W sqrt(log(ns)) + kB] <= 1/(ns)^4 (the printed 'hence', non-strict)",
        "paper_ref": "Lemma 9 (proof, term (V), Hoeffding step)",
        "finding": "proof-slip",
        "lhs_label": "Pr_x[|l_{R_x}(x)| >= c k^{1.5} W sqrt(log(ns)) + kB]",
        "rhs_label": "1/(ns)^4",
        "expr": {
            "lhs": "Pr_x[|relu(<0, x> + B)| >= c k**1.5 W sqrt(log(n s)) + k B]",
            "rhs": "1/(n*s)**4",
        },
    },
    "lemma9/term-U-printed": {
        "statement": "(U) <= E[(1/4)||w^{R_x}||^2] <= k^2 W^2 / 4",
        "paper_ref": "Lemma 9 (Section 3)",
        "finding": "proof-slip",
        "lhs_label": "(U)",
        "rhs_label": "k^2 W^2 / 4",
        "expr": {
            "rhs": "k**2 * W**2 / 4",
        },
    },
    "lemma9/transition-union-printed": {
        "statement": "Pr_{x,i}[R_x != R_{x xor i}] <= (1/n) sum_j AS(g_j), g_j = 1{<w_j,x> > b_j}",
        "paper_ref": "Lemma 9 (Section 3)",
        "finding": "proof-slip",
        "lhs_label": "Pr_{x,i}[R_x != R_{x xor i}]",
        "rhs_label": "(1/n) sum_j AS(g_j)",
        "expr": {},
    },
    "lemma9/transition": {
        "statement": "Pr_{x,i}[R_x != R_{x xor i}] <= k sqrt(log(s/k)) / sqrt(n)",
        "paper_ref": "Lemma 9 (Section 3)",
        "finding": "out-of-range",
        "lhs_label": "Pr_{x,i}[R_x != R_{x xor i}]",
        "rhs_label": "k sqrt(log(s/k)) / sqrt(n)",
        "expr": {
            "rhs": "k * sqrt(log(s / k)) / sqrt(n)",
        },
    },
    "scaling/covariance": {
        "statement": "every printed bound transforms like the quantity it bounds (a scale inside a logarithm counted as covariant)",
        **_THEOREM17_TWO_POINT,
    },
    "scaling/lemma18-printed": {
        "statement": "the smallest m with c (C_H E_S[R_H(S)] + sqrt(log(1/delta)/m)) <= eps samples suffice, for any class H and a large enough constant c",
        "paper_ref": "Lemma 18 (Section 5)",
        "finding": "statement-error",
        "lhs_label": "Lemma 18's c (C_H E_S[R_H(S)] + sqrt(log(1/delta)/m)) at m = <<m>>, c = 100",
        "rhs_label": "eps (when m is below the samples needed to tell h from -h; else 0)",
        "expr": {
            "lhs": "c*(lam*ER + sqrt(L/m))",
            "lhs.ER": "lam/m*sum(exp(lgamma(m+1)-lgamma(a+1)-lgamma(m-a+1)+a*log(p)+(m-a)*log(1-p)+log(a)+lgamma(a)-lgamma(floor((a-1)/2)+1)-lgamma(a-floor((a-1)/2))-(a-1)*log(2)) for a in range(1, m+1))",
            "rhs": "eps if (m < (L - log(2))/(-log(1-p)) and p*lam**2 > 2*eps) else 0",
        },
    },
    "scaling/theorem17-printed": {
        "statement": "m(eps, delta) = O(((WR+B)^2 ksn log(k(R+B)/eps) + log(1/delta)) / eps^2) samples suffice, at every scale of the class (squared loss)",
        **_THEOREM17_TWO_POINT,
    },
    "section4_lwr/def15-rounding": {
        "statement": "f_w(y) = (<w, y> mod q) mod p is the learning-with-rounding map of Banerjee et al. (2012)",
        "paper_ref": "Definition 15 (Section 4)",
        "finding": "statement-error",
        "lhs_label": "Definition 15: f_w(y) = (<w, y> mod q) mod p",
        "rhs_label": "LWR (Banerjee et al. 2012): round((p/q)(<w, y> mod q)) mod p",
        "expr": {
            "lhs": "(sum(w[i] * y[i] for i in range(m)) % q) % p",
            "rhs": "floor(p * (sum(w[i] * y[i] for i in range(m)) % q) / q + 0.5) % p",
        },
    },
    "section4_lwr/identity-printed": {
        "statement": "lambda(t) = sum_{a in [q^2 m]} 2 lambda(a) sigma(1/2 - (t - a))^2, one ReLU active",
        "paper_ref": "Section 4 (Cryptographic hardness)",
        "finding": "typo",
        "lhs_label": "sum_{a in [q^2 m]} 2 lambda(a) sigma(1/2 - (t - a))^2",
        "rhs_label": "lambda(t)",
        "expr": {
            "lhs": "sum(2 * ((a % q) % p) * relu(0.5 - (t - a)) ** 2 for a in range(q * q * m))",
            "rhs": "(t % q) % p",
        },
    },
    "section4_lwr/lifted-weights-pm1": {
        "statement": "the lifted weight vector W_{w,a} is in {1,-1}^n",
        "paper_ref": "Section 4 (Cryptographic hardness)",
        "finding": "typo",
        "lhs_label": "|W_{w,a}[k,k]| forced by 1/2 - (<w, y> - a)^2, k=<<k>>",
        "rhs_label": "1 (an entry of a vector in {1,-1}^n)",
        "expr": {
            "lhs": "abs(sum((0.5 - (sum(w[i] * sum(((j >> (i * L + l)) & 1) << l for l in range(L)) for i in range(m)) - a) ** 2) * (1 - 2 * ((j >> k) & 1)) for j in range(2 ** (m * L)))) / 2 ** (m * L)",
            "rhs": "1",
        },
    },
    "section4_lwr/linear-encoding": {
        "statement": "there is v(w) in R^r with <v(w), z(y)> = <w, y> for all y",
        "paper_ref": "Section 4 (Cryptographic hardness)",
        "finding": "proof-slip",
        "lhs_label": "<rho, (<w, y>)_y> with z(Y)^T rho = 0",
        "rhs_label": "0 (if <v, z(y)> = <w, y> for all y)",
        "expr": {
            "rhs": "0",
        },
    },
    "section4_parity/chi-printed": {
        "statement": "chi_S(y) = 1 iff sum_{i in S} y_i is even (the parity on S)",
        "paper_ref": "Section 4 (Hardness under arbitrary distributions)",
        "finding": "proof-slip",
        "lhs_label": "chi_S(y) (as printed)",
        "rhs_label": "parity (1 + prod_{i in S} y_i)/2",
        "expr": {
            "lhs": "1 if sum(y[i] for i in S) % 2 == 0 else 0",
            "rhs": "(1 + (-1) ** sum((1 - y[i]) // 2 for i in S)) / 2",
        },
    },
    "section4_parity/identity-printed": {
        "statement": "the network's printed shift set (a even) sums to the parity on S (what the reduction from Theorem 14 needs)",
        "paper_ref": "Section 4 (Hardness under arbitrary distributions)",
        "finding": "proof-slip",
        "lhs_label": "sum_{a in A} 2 sigma(1/2 - (sum_S y_i - a)^2), A = [-2, 0, 2]",
        "rhs_label": "parity (1 + prod_{i in S} y_i)/2",
        "expr": {
            "lhs": "sum(2 * relu(0.5 - (sum(y[i] for i in S) - a) ** 2) for a in A)",
            "rhs": "(1 + (-1) ** sum((1 - y[i]) // 2 for i in S)) / 2",
        },
    },
    "section4_parity/lift-printed": {
        "statement": "1/2 - (sum_{i in S} y_i - a)^2 = <w_{S,a}, x(y)> - b_{S,a}",
        "paper_ref": "Section 4 (Hardness under arbitrary distributions)",
        "finding": "typo",
        "lhs_label": "1/2 - (sum_{i in S} y_i - a)^2",
        "rhs_label": "<w_{S,a}, x(y)> - b_{S,a}",
        "expr": {
            "lhs": "0.5 - (sum(y[i] for i in S) - a) ** 2",
            "rhs": "sum(w[i * m + j] * (y[i] if i == j else y[i] * y[j]) for i in range(m) for j in range(m)) - b",
        },
    },
    "section4_parity/network-printed": {
        "statement": "the parity on S is h(x(y)) with h(x) = sum_a 2 sigma(<w_{S,a}, x> - b_{S,a})",
        "paper_ref": "Section 4 (Hardness under arbitrary distributions)",
        "finding": "proof-slip",
        "lhs_label": "h(x(y)), network as printed",
        "rhs_label": "parity on S",
        "expr": {
            "rhs": "(1 + (-1) ** sum((1 - y[i]) // 2 for i in S)) / 2",
        },
    },
    "section4_parity/sparsity-printed": {
        "statement": "at most one neuron active on every x(y) (the support), s <= 2m",
        "paper_ref": "Section 4 (Hardness under arbitrary distributions)",
        "finding": "typo",
        "lhs_label": "active neurons of h at x(y)",
        "rhs_label": "k = 1",
        "expr": {
            "rhs": "1",
        },
    },
    "theorem19/combine-printed": {
        "statement": "(8) + (14) give (1) (constant 1)",
        "paper_ref": "Section 5: Theorem 19 (eq. (1)), eq. (15), Conjecture 20 (eq. (16))",
        "finding": "constant-factor",
        "lhs_label": "(8) + (14): 4 (sqrt(c) B sqrt(log(mB)) + W R sqrt(log(mR))) sqrt(sn/m), c = 2",
        "rhs_label": "(1) with its printed constant 1",
        "expr": {
            "lhs": "4*(sqrt(c)*B*sqrt(log(m*B)) + W*R*sqrt(log(m*R)))*sqrt(s*n/m)",
            "rhs": "(W*R+B)*sqrt(s*n*log(m*(R+B)))/sqrt(m)",
        },
    },
    "theorem19/bound": {
        "statement": "R_{H_{n,s,1}^{W,B}}(S) <= (WR+B) sqrt(s n log(m(R+B))) / sqrt(m) (1), for samples with ||x|| <= R",
        "paper_ref": "Section 5: Theorem 19 (eq. (1)), eq. (15), Conjecture 20 (eq. (16))",
        "finding": _CORNER_RULE,
        "lhs_label": "R_H(S)",
        "rhs_label": "eq. (1)",
        "expr": {
            "rhs": "(W*R+B)*sqrt(s*n*log(m*(R+B)))/sqrt(m)",
        },
    },
    "theorem19/conj20-bound": {
        "statement": "R_{H_{n,s,k}^{W,B}}(S) <= (WR+B) sqrt(s k) / sqrt(m): no explicit dependence on n",
        "paper_ref": "Section 5: Theorem 19 (eq. (1)), eq. (15), Conjecture 20 (eq. (16))",
        "finding": "constant-factor",
        "lhs_label": "R_H(S)",
        "rhs_label": "(16)",
        "expr": {
            "rhs": "(W*R+B)*sqrt(s*k)/sqrt(m)",
        },
    },
    "theorem19/conj20-exact-lower": {
        "statement": "R_{H_{n,s,k}^{W,B}}(S) <= (WR+B) sqrt(s k) / sqrt(m): no explicit dependence on n",
        "paper_ref": "Section 5: Theorem 19 (eq. (1)), eq. (15), Conjecture 20 (eq. (16))",
        "finding": "constant-factor",
        "lhs_label": "lower bound on R_H(S)",
        "rhs_label": "(16)",
        "expr": {
            "rhs": "(W*R+B)*sqrt(s*k)/sqrt(m)",
        },
    },
    "theorem19/eq12-printed": {
        "statement": "E_zeta max_h (first term) <= max_h (1/m) sum_j |u_j| ||w_j|| E_zeta ||sum_{I_j} zeta_i x_i|| ((12) as printed)",
        "paper_ref": "Section 5: Theorem 19 (eq. (1)), eq. (15), Conjecture 20 (eq. (16))",
        "finding": "proof-slip",
        "lhs_label": "E_zeta max_h (1/m) sum_j sum_{i in I_j} zeta_i u_j <w_j, x_i> (first term of (4), explicit networks)",
        "rhs_label": "(1/m) max_h sum_j |u_j| ||w_j|| E_zeta ||sum_{i in I_j} zeta_i x_i|| (right side of (12), bounded above by W/m max over all subsets I)",
        "expr": {
            "rhs": "W/m*max(sum(abs(sum((1-2*((z>>i)&1))*x[i] for i in range(m) if (I>>i)&1)) for z in range(2**m))/2**m for I in range(2**m))",
        },
    },
    "theorem19/eq15-scale": {
        "statement": "R_H(S) <= (WR+B) sqrt(snk log(km(R+B)))/sqrt(m) for every sample with ||x|| <= R (eq. (15))",
        "paper_ref": "Section 5: Theorem 19 (eq. (1)), eq. (15), Conjecture 20 (eq. (16))",
        "finding": "out-of-range",
        "lhs_label": "R_H(S)",
        "rhs_label": "eq. (15), k = <<k>>",
        "expr": {
            "rhs": "(W*R+B)*sqrt(s*n*k*log(k*m*(R+B)))/sqrt(m)",
        },
    },
    "theorem19/eq15-bound": {
        "statement": "R_{H_{n,s,k}^{W,B}}(S) <= (WR+B) sqrt(s n k log(k m(R+B))) / sqrt(m)",
        "paper_ref": "Section 5: Theorem 19 (eq. (1)), eq. (15), Conjecture 20 (eq. (16))",
        "finding": _CORNER_RULE,
        "lhs_label": "R_H(S)",
        "rhs_label": "eq. (15), k = <<k>>",
        "expr": {
            "rhs": "(W*R+B)*sqrt(s*n*k*log(k*m*(R+B)))/sqrt(m)",
        },
    },
    "theorem19/eq7-printed": {
        "statement": "activations 1-sparse => sum_j |I_j| = m, I_j = {i : <w_j, x_i> - b_j >= 0} (as printed)",
        "paper_ref": "Section 5: Theorem 19 (eq. (1)), eq. (15), Conjecture 20 (eq. (16))",
        "finding": "proof-slip",
        "lhs_label": "sum_j |I_j| with I_j = {i : <w_j, x_i> - b_j >= 0} (printed)",
        "rhs_label": "m",
        "expr": {
            "rhs": "m",
        },
    },
    "theorem19/km-printed": {
        "statement": "activations k-sparse => sum_j |I_j| <= k m, I_j = {i : <w_j, x_i> - b_j >= 0} (as printed)",
        "paper_ref": "Section 5: Theorem 19 (eq. (1)), eq. (15), Conjecture 20 (eq. (16))",
        "finding": "proof-slip",
        "lhs_label": "sum_j |I_j| with I_j = {i : <w_j, x_i> - b_j >= 0} (printed)",
        "rhs_label": "k m (k = <<k>>)",
        "expr": {
            "rhs": "k*m",
        },
    },
    "theorem19/scale": {
        "statement": "R_H(S) <= (WR+B) sqrt(s n log(m(R+B)))/sqrt(m) for every sample with ||x|| <= R (eq. (1))",
        "paper_ref": "Section 5: Theorem 19 (eq. (1)), eq. (15), Conjecture 20 (eq. (16))",
        "finding": "out-of-range",
        "lhs_label": "R_H(S)",
        "rhs_label": "eq. (1)",
        "expr": {
            "rhs": "(W*R+B)*sqrt(s*n*log(m*(R+B)))/sqrt(m)",
        },
    },
    "theorem8/degree-degenerate": {
        "statement": "the proof's d makes the tail <= eps, at n = s = 1",
        "paper_ref": "Theorem 8 (proof)",
        "finding": "out-of-range",
        "lhs_label": "sum_{|T|>d} hhat(T)^2 at the printed d",
        "rhs_label": "eps",
        "expr": {
            "rhs": "eps",
        },
    },
    "theorem8/theorem4-n1": {
        "statement": "sample complexity n^{poly(k log(ns))/eps^2} log(1/delta)/eps (suppressing W, B), at n = 1",
        "paper_ref": "Theorem 4 (Section 1)",
        "finding": "out-of-range",
        "lhs_label": "samples any learner needs (targets h = k and h = -k: with no sample nothing tells them apart)",
        "rhs_label": "Theorem 4's count n^{P(k log(ns))/eps^2} log(1/delta)/eps, hidden constant C, P(z) = c z^8",
        "expr": {
            "lhs": "1 if k**2 > 2*eps and delta < 1/2 else 0",
            "rhs": "C*exp(c*(k*log(n*s))**8/eps**2*log(n))*log(1/delta)/eps",
        },
    },
    "theorem8/final-line-scale": {
        "statement": "run time and sample complexity O(n^d log(1/delta)/eps) with d as printed, at every scale of the class",
        "paper_ref": "Theorem 8 (proof, last line)",
        "finding": "proof-slip",
        "lhs_label": "samples any learner needs (targets h = lam and h = -lam: with no sample nothing tells them apart)",
        "rhs_label": "the last line's count C n^d log(1/delta)/eps at the printed degree d",
        "expr": {
            "lhs": "1 if lam**2 > 2*eps and delta < 1/2 else 0",
            "rhs": "C * n**ceil(c*(k**8*W**4*log(n*s)**4 + k**6*B**4*log(s))/eps**2) * log(1/delta) / eps",
        },
    },
    "theorem8/lemma7-CH-sign": {
        "statement": "(O(eps), delta)-PAC from O(n^d C_H^2 log(1/delta)/eps) samples with C_H = sup_{h,x} h(x)",
        "paper_ref": "Lemma 7",
        "finding": "typo",
        "lhs_label": "samples any learner needs for squared loss <= K eps with probability >= 1 - delta",
        "rhs_label": "Lemma 7's O(n^d C_H^2 log(1/delta)/eps) with C_H = sup_{h,x} h(x) as printed",
        "expr": {
            "lhs": "1 if M**2/4 > 2*K*eps and delta < 1/2 else 0",
            "rhs": "C * n**d * C_H**2 * log(1/delta) / eps",
        },
    },
    "theorem8/lemma7-projection-printed": {
        "statement": "||g - h||_2^2 = sum_{|T|>d} hhat(T)^2 <= eps/2 under Lemma 7's hypothesis (tail <= eps)",
        "paper_ref": "Section 2.1 (after Lemma 7)",
        "finding": "proof-slip",
        "lhs_label": "||g - h||_2^2 = sum_{|T|>d} hhat(T)^2",
        "rhs_label": "eps/2",
        "expr": {
            "rhs": "eps / 2",
        },
    },
    "theorem8/rho-choice": {
        "statement": "1 - rho = c eps^2 min{log(knsW^2/eps)/(k^8W^4 log^4(ns)), 1/(k^6B^4 log s)} makes Lemma 10's bound <= eps/3 for some constant c",
        "paper_ref": "Theorem 8 (proof)",
        "finding": "proof-slip",
        "lhs_label": "Lemma 10's bound C sqrt(1-rho)(k^4 W^2 log^2(ns/(1-rho)) + k^3 B^2 sqrt(log s)) / (eps/3) at the printed 1-rho, eps = exp(-ell)",
        "rhs_label": "1 (the step's NS_rho <= eps/3)",
        "expr": {
            "lhs": "3*C*exp(lomr/2 + ell)*(k**4*W**2*(log(n*s) - lomr)**2 + k**3*B**2*sqrt(log(s)))",
            "lhs.lomr": "log(c) - 2*ell + log(min((log(k*n*s*W**2) + ell)/(k**8*W**4*log(n*s)**4), 1/(k**6*B**4*log(s))))",
            "rhs": "1",
        },
    },
    "theorem8/tail-step": {
        "statement": "sum_{|T|>d} fhat(T)^2 <= eps/(3(1-rho^d)) <= eps/(d(1-rho)) <= eps for the proof's d and rho",
        "paper_ref": "Theorem 8 (proof)",
        "finding": "proof-slip",
        "lhs_label": "d(1-rho)",
        "rhs_label": "3(1-rho^d)",
        "expr": {
            "lhs": "d*omr",
            "rhs": "3*(1 - (1 - omr)**d)",
        },
    },
    "theorem19/eq8-printed-cells": {
        "statement": "second term of (4) <= 4 B sqrt(s n c log(mB))/sqrt(m) with I_j = {i : <w_j, x_i> - b_j >= 0} (as printed)",
        "paper_ref": "Section 5: Theorem 19 (eq. (1)), eq. (15), Conjecture 20 (eq. (16))",
        "finding": "proof-slip",
        "lhs_label": "E_zeta max_h (1/m) sum_j sum_{i in I_j} zeta_i u_j b_j (second term of (4), printed I_j)",
        "rhs_label": "4 B sqrt(s n c log(mB))/sqrt(m) (8), c = 2",
        "expr": {
            "rhs": "4*B*sqrt(s*n*c*log(m*B))/sqrt(m)",
        },
    },
    "theorem19/eq14-printed-cells": {
        "statement": "first term of (4) <= 4 W R sqrt(n s log(mR))/sqrt(m) with I_j = {i : <w_j, x_i> - b_j >= 0} (as printed)",
        "paper_ref": "Section 5: Theorem 19 (eq. (1)), eq. (15), Conjecture 20 (eq. (16))",
        "finding": "proof-slip",
        "lhs_label": "E_zeta max_h (1/m) sum_j sum_{i in I_j} zeta_i u_j <w_j, x_i> (first term of (4), printed I_j)",
        "rhs_label": "4 W R sqrt(n s log(mR))/sqrt(m) (14)",
        "expr": {
            "rhs": "4*W*R*sqrt(n*s*log(m*R))/sqrt(m)",
        },
    },
    "theorem13/junta-corner": {
        "statement": "J_{n,p} in H_{n,s,1}^{sqrt(p), p} for every p <= floor(log2 s), at p = 0",
        "paper_ref": "Theorem 13 (proof)",
        "finding": "out-of-range",
        "lhs_label": "f(x) for the 0-junta f = 1 (a constant)",
        "rhs_label": "k (W sqrt(n) + B) at k = 1, W = sqrt(p), B = p: the largest |h(x)| over H_{n,s,1}^{sqrt(p),p} (theorem8-proof-CH)",
        "expr": {
            "rhs": "sqrt(p)*sqrt(n) + p",
        },
    },
    "lemma9/bound-degenerate": {
        "statement": "AS(h) <= O(k^4 W^2 sqrt(n) log(ns) + k^3 B^2 sqrt(log s)) at n = s = 1",
        "paper_ref": "Lemma 9 (Section 3)",
        "finding": "out-of-range",
        "lhs_label": "AS(relu(x_1))",
        "rhs_label": "C (k^4 W^2 sqrt(n) log(ns) + k^3 B^2 sqrt(log s))",
        "expr": {
            "rhs": "C*(k**4*W**2*sqrt(n)*log(n*s) + k**3*B**2*sqrt(log(s)))",
        },
    },
    "lemma9/transition-printed": {
        "statement": "Pr_{x,i}[R_x != R_{x xor i}] <= (1/n) sum_j p_j sqrt(n log(1/p_j)) (the first inequality, constant 1 as printed)",
        "paper_ref": "Lemma 9 (Section 3)",
        "finding": "proof-slip",
        "lhs_label": "Pr_{x,i}[R_x != R_{x xor i}]",
        "rhs_label": "with p_j = Pr_x[neuron j active], the printed middle term (1/n) sum_j p_j sqrt(n log(1/p_j))",
        "expr": {},
    },
    "lemma9/transition-concavity-printed": {
        "statement": "(1/n) sum_j p_j sqrt(n log(1/p_j)) <= C k sqrt(log(s/k))/sqrt(n), p_j = Pr_x[neuron j active] (concavity step, read up to a constant)",
        "paper_ref": "Lemma 9 (Section 3)",
        "finding": "out-of-range",
        "lhs_label": "(1/n) sum_j p_j sqrt(n log(1/p_j))",
        "rhs_label": "C k sqrt(log(s/k))/sqrt(n)",
        "expr": {
            "rhs": "C*k*sqrt(log(s/k))/sqrt(n)",
        },
    },
}


def pinned_entry(document: dict) -> str:
    """The :data:`PINNED_TEXT` entry of a certificate document, as Python source to review and paste."""
    from sparseact.verify.recompute import _formula_exprs

    certificate = document["certificate"]
    exprs = _formula_exprs(certificate["rhs"], "rhs", _formula_exprs(certificate["lhs"], "lhs", {}))
    lines = [f"    {document['check_id']!r}: {{"]
    lines += [f"        {field!r}: {document[field]!r}," for field in ("statement", "paper_ref", "finding")]
    lines += [f"        {field!r}: {certificate[field]!r}," for field in ("lhs_label", "rhs_label")]
    lines += [
        '        "expr": {',
        *(f"            {path!r}: {expr!r}," for path, expr in exprs.items()),
        "        },",
        "    },",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    import sys

    from sparseact.verify.recompute import read_certificate

    for name in sys.argv[1:]:
        print(pinned_entry(read_certificate(name)))
