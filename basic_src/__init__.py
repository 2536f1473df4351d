"""BASIC programs for the PC-1360, shipped with the emulator (kniffel.bas first)."""
