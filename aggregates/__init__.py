"""Arbiter's rules: pure domain code, one package per game plus the shared kernel."""
