"""Doing: plans, the executor, step checks, reflection, the audit log."""
