"""smsweep: design-space sweeps of smsim on local cores or SLURM job arrays (docs/SWEEPS.md)."""
