"""The pure core: text to tree to model to findings.

Nothing in this package imports pygls or lsprotocol or touches the network; a test enforces it.
"""
