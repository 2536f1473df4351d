"""Numbers typed by users as digits, of any length.

int() refuses strings of more than 4300 digits (Python's guard against slow conversions),
and a message that quoted 5,000 digits would bury its point; so the digits are counted
before they are converted, and a long run is named by its start and its length.
"""


def bounded_int(digits, high):
    """The value of the ASCII `digits` if it is at most `high`, else None."""
    significant = digits.lstrip("0") or "0"
    if len(significant) > len(str(high)):
        return None
    value = int(significant)
    return value if value <= high else None


def shown(digits, keep=12):
    """`digits` for a message: whole if short, else the first `keep` and the count."""
    return digits if len(digits) <= keep else f"{digits[:keep]}... ({len(digits)} digits)"
