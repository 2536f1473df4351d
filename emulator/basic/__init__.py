"""The built-in engine: a ROM-less PC-1360 BASIC that lives in the emulated RAM.

It runs the tokenized program held at the card's start pointer, keeps its variables
as the machine's bytes, draws into display RAM and reads the keyboard set, so the
machine facade cannot tell it from the firmware engine.
"""
