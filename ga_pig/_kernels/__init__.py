"""Private numba kernels every rule family shares: the rules as one record, and Anderson extrapolation."""
