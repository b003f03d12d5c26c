"""The program move's passes, one module per construct, on the state they share (state.py)."""
