"""The public corpora for benchmarks: a pinned catalogue and ``veristep data fetch``."""
