"""Ettin: alliances of two draft, recruit and go to War over three Ages."""
