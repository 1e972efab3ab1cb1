"""Operations, one module each: every module here is imported by the OpSpec registry, so an operation
registered with `@operation` in a new module here needs no edit anywhere else."""
