"""The only package that speaks LSP."""
