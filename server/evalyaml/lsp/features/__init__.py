"""LSP features, one module each; all pure functions over the server state."""
