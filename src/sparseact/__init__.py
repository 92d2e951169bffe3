"""sparseact: numerical verification of Awasthi, Dikkala, Kamath, Meka (COLT 2024).

Modules
-------
cube
    The hypercube {-1, 1}^n in a fixed enumeration order.
networks
    ``SparseReLUNetwork``: depth-1 ReLU networks, activation counts, scales (Definitions 1-2).
constructions
    The paper's explicit networks (Theorem 13, Index_b, Section 4 parity and LWR lifts, Appendix A).
ledger
    Claim records, computed verdicts and the claims ledger.
"""

__version__ = "0.1.0"
