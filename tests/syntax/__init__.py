"""Tests of the syntax layer."""
