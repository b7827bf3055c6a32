"""placeholder"""

def register(sub):
    return None
