"""Datasets the app ships: generated CSVs, their cards and the registry (data.registry)."""
