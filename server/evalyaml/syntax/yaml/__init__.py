"""The YAML syntax: parser (ruamel, with a fast path for plain block YAML), resolver,
and the splitter that cuts a dataset into cases."""
