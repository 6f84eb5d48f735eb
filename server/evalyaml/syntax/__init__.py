"""The syntax layer, pure: text -> one position-carrying tree, whatever the syntax."""
