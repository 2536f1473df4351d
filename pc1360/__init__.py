"""The PC-1360 program format: pure data and codecs, no file or console I/O.

keywords (the token table), charset (codes <-> Unicode), tokenizer (text -> lines),
listing (lines -> text), program (line records, the image), ramcard, tape (the cassette
record), tapesound (record <-> audio samples, WAV bytes), detect (which container),
errors (FormatError).
"""
