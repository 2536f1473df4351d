"""Values and expressions the generated programs are made of (generator.py): numbers on
the edges of the PC-1360's range, strings (some of them malformed numbers), functions,
operators, USING formats, and random expressions over them."""

NUMBERS = ["0", "1", "-1", "2", "-2", "3", "7", "10", "255", "256", "-0.5", "0.5", ".1",
           "2.5", "-2.5", "1E99", "-1E99", "9.999999999E99", "1E-99", "-1E-99", "1E-5",
           "123456789012", "-123456789", "1E10", "99999", "0.000123", "3.14159265359",
           "1.5E-10", "65535", "-32768", "1234.5678", "0.1234567891", "9999999999"]
SMALL = ["0", "1", "-1", "2", "3", "0.5", "-0.5", "1.5", "-3", "4", "10"]
STRINGS = ['""', '"A"', '"AB"', '"HELLO"', '"12"', '"-3.5"', '"1E5"', '"X1"', '"1X"',
           '" 7"', '"--2"', '"1.2.3"', '"E"', '"&H1F"', '"ABCDEFGHIJKLMNOP"', '"0"', '"."']
VAL_STRINGS = ['"12"', '"-3.5"', '"1E5"', '"X1"', '"1X"', '" 7"', '"--2"', '"1.2.3"', '"E5"',
               '"&H1F"', '"&HFF"', '"1E"', '"+4"', '"."', '""', '"1 2"', '"1E99"', '"1E100"',
               '"-.5"', '"5-"', '"1E-99"', '"0012"', '"9999999999999"']
NUM_FUNCS = ["ABS", "INT", "SGN", "SQR", "LOG", "LN", "EXP", "SIN", "COS", "TAN", "ASN",
             "ACS", "ATN", "DEG", "DMS"]
OPERATORS = ["+", "-", "*", "/", "^"]
RELATIONS = ["=", "<", ">", "<=", ">=", "<>"]
USING_FORMATS = ['"###"', '"###.##"', '"#.##^"', '"##.#^"', '"&&&"', '"&&&&&&"', '"####.#"',
                 '"#"', '"##,###"', '"###.###"', '"&&&&&"', '"#####"', '"-###.##"']


def num(rng):
    return rng.choice(NUMBERS)


def term(rng):
    value = num(rng) if rng.random() < 0.7 else rng.choice(SMALL)
    return f"({value})" if value.startswith("-") else value


def expr(rng, depth=0):
    roll = rng.random()
    if depth > 1 or roll < 0.35:
        return term(rng)
    if roll < 0.7:
        return f"{term(rng)}{rng.choice(OPERATORS)}{expr(rng, depth + 1)}"
    return f"{rng.choice(NUM_FUNCS)}({expr(rng, depth + 1)})"


def by_roll(roll, table):
    """The item of `table` ((upper limit, make) pairs, limits rising to 1) that `roll`
    (0 <= roll < 1) falls in, made."""
    for limit, make in table:
        if roll < limit:
            return make()
    return table[-1][1]()


def strexpr(rng):
    roll = rng.random()
    s = rng.choice(STRINGS)
    n = rng.choice(["0", "1", "2", "3", "-1", "20", "1.5"])
    return by_roll(roll, [
        (0.2, lambda: s),
        (0.4, lambda: f"LEFT$({s},{n})"),
        (0.55, lambda: f"RIGHT$({s},{n})"),
        (0.7, lambda: f"MID$({s},{rng.choice(['1', '2', '0', '5'])},{n})"),
        (0.85, lambda: f"STR$({num(rng)})"),
        (1.0, lambda: f"CHR$({rng.choice(['65', '48', '32', '0', '255', '127', '91', '300', '-1'])})"),
    ])
