"""Tools of single operations, one module each: every module here is imported by the tool registry, so a
tool registered with `@tool` in a new module here needs no edit anywhere else."""
