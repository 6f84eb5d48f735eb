def get_assert(output, context):
    return 'escalat' in output.lower()
