"""How much each kind of evidence lowers the confidence of a reading (written by benchmarks/calibrate_evidence.py)."""

WEIGHTS: dict[str, float] = {
    "column_translated": -0.48,
    "column_typo": -0.48,
    "file_description": -0.06,
    "file_fuzzy": -0.12,
    "file_inferred": -0.51,
    "file_only": -0.1,
    "file_preview_only": -0.45,
    "file_result": -0.05,
    "file_result_unsaid": -0.45,
    "file_type": -0.51,
    "gap_unsupported": -0.5,
    "value_typo": -0.4,
    "value_variants": -0.48,
    "words_unread": -0.44,
    "words_unread_more": -0.07,
    "words_unused": -0.5,
}
