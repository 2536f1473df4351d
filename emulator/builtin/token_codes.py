"""Keyword token codes for the interpreter, by keyword name, from the project's one
keyword table (pc1360/keywords.py). Handlers are registered by name and looked up
through CODES, so the interpreter keeps no keyword table of its own.
"""

from pc1360.keywords import BY_NAME

PI_CHAR = 0xFB          # the π key's single byte acts as PI
ROOT_CHAR = 0xFC        # the √ key's single byte acts as SQR

CODES = {name: keyword.code for name, keyword in BY_NAME.items()}
