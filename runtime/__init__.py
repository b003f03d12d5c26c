"""The NumPy engine that runs TF1 and TF2 programs, and the verifier built on it."""

import os

# Engine kernels are small; OpenBLAS's spinning worker threads make them up to 100x slower when
# the machine is busy, so BLAS runs single-threaded unless the caller chose a thread count.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")
