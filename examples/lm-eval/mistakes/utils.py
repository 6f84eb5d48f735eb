"""The module the mistakes files' `!function` tags name (never imported by evalyaml)."""


def process_docs(dataset):
    return dataset
