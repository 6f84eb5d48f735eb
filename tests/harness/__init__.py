"""Test harnesses shared by every format: multi-file workspace fixtures."""
