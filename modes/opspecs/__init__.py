"""Operations, one module each: every module here is imported by the OpSpec registry, so an operation
registered with `@operation` in a new module here needs no edit anywhere else."""

# the modules read first, in this order (the registry tries operations in the order they were registered): the core
# operations, the analysis operations, the English look-up questions; every other module follows in name order
FIRST = ("core", "analysis", "english")
