"""RND and RANDOM: the firmware's random numbers, worked out on its seed in RAM."""

from decimal import ROUND_HALF_UP, Context, Decimal

from emulator.builtin import bcd
from pc1360.facts import RANDOM_SEED

_TEN_DIGITS = Context(prec=10, rounding=ROUND_HALF_UP)  # RND's fraction
RND_NEGATIVE_FACTOR = Decimal("0.434294481903")


def rnd(mem, limit):
    """RND limit: a fraction below 1, or a whole number from 1 to the limit."""
    if limit < 0:
        seed_from(mem, limit)               # RND -x starts a sequence from x
    fraction = random_fraction(mem)         # RND 0 and RND -1 give fractions too
    if limit < 1:
        return fraction
    return bcd.fit(Decimal(int(fraction * int(limit)) + 1))


def random_fraction(mem):
    """RND's fraction, as the firmware makes it (found by reading RANDOM_SEED on the
    firmware engine after each RND): the seed is a number whose nibbles 3-15 are a
    digit u and twelve digits f (bytes 99 9u ff ff ff ff ff ff after the first RND).
    The next seed is 23 x 0.f cut to 12 significant digits, its units digit as u,
    the fraction's digits (10 or 11 of them) padded with 0, the 12th digit 1. A
    product below 0.1 is stored normalized: its leading zeros go to the exponent
    (nibbles 0-2, 999 = -1), so 23 x .000000000001 becomes 989 0 200000000001
    (with a units digit the zeros stay: 4.0946... gives 999 4 094673624021).
    RND's fraction is the new 0.f rounded to 10 significant digits."""
    product = 23 * _seed_digits(mem)                # 23 * 0.f, in units of 1e-12
    cut = 10 ** max(0, len(str(product)) - 12)      # keep 12 significant digits
    product -= product % cut
    digits = product % 10 ** 12 // 10               # 11 digits of the fraction
    shift = 11 - len(str(digits)) if digits and product < 10 ** 12 else 0
    fraction = digits * 10 ** shift * 10 + 1        # the 12th digit is always 1
    seed = "%03d%d%012d" % (999 - shift, product // 10 ** 12 % 10, fraction)
    mem[RANDOM_SEED:RANDOM_SEED + 8] = bytes.fromhex(seed)
    return bcd.fit(_TEN_DIGITS.plus(Decimal(fraction).scaleb(-12)))


def seed_from(mem, value):
    """RND of a negative number: the seed becomes |x| * 0.434294481903 (log10 e), so
    RND -1 always gives 0.9887730838 and RND -.5 0.9943865419 (firmware engine)."""
    seed = int(abs(value) * RND_NEGATIVE_FACTOR * 10 ** 12) % 10 ** 12
    mem[RANDOM_SEED:RANDOM_SEED + 8] = bytes.fromhex("9990%012d" % seed)


def _seed_digits(mem):
    """The seed's twelve digits f (nibbles 4-15) as an integer; a nibble that a
    POKE made 10-15 counts with that value, so no byte value can fail."""
    value = 0
    for byte in mem[RANDOM_SEED + 2:RANDOM_SEED + 8]:
        value = value * 100 + (byte >> 4) * 10 + (byte & 0x0F)
    return value


def randomize(mem, count):
    """RANDOM, as the firmware engine does it (its 0xFDE0 read right after RANDOM's
    multiply and after the statement): f times `count`, the key-wait loop's
    count (engine.key_wait_count), cut to 12 significant digits, becomes f; then
    one RND step. So a seed of 0 gives the same sequence whatever the count."""
    product = _seed_digits(mem) * count
    digits = str(product)[:12].ljust(12, "0") if product else "0" * 12
    mem[RANDOM_SEED:RANDOM_SEED + 8] = bytes.fromhex("9990" + digits)
    random_fraction(mem)
