"""evalyaml: a language server and checker for LLM-evaluation YAML."""

__version__ = "0.1.0"
