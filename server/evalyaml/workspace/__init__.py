"""The index of every eval file under the workspace roots."""
