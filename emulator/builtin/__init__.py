"""The built-in engine: a ROM-less PC-1360 BASIC that lives in the emulated RAM.

It runs the tokenized program held at the card's start pointer, keeps its variables
as the machine's bytes, draws into display RAM and reads the keyboard set, so the
machine facade cannot tell it from the firmware engine: `PC1360(engine="builtin")`.

Modules, bottom up:
    basic_errors  error numbers             bcd       numbers: bytes, maths, text
    font     our own 5x7 glyphs                 screen    text/dots in display RAM
    vars     variables in RAM                   stored_program  lines and pointers in RAM
    token_codes  keyword codes (pc1360 table)       timing, costs  measured cycles
    nodes, expr  expressions, parsed once into closures
    run_state    what a run keeps besides RAM       interp    the statement loop
    statements, output   the statement handlers     statement_table  keyword -> handler
    typed    keyboard text <-> tokens           typed_codes  key names -> codes
    states   the engine states (enums)          host      what the engine uses of its machine
    editor, listview, enter, input, terminal    the display between programs, typed lines
    keys     the key-wait loop, key handlers    runtime   running the program, stops, errors
    serial_io, tape_io, jobs                    SIO and cassette transfers
    state_codec, persist the kept state         engine    BuiltinEngine: wires the parts

What was checked by running the firmware engine on the same keys (the tests marked
`rom` compare the two engines screen by screen): number display and stored bytes,
guard digits, variable and DIM layouts in RAM, the RUN/PRO-mode terminal, PRINT
layout and scrolling, CURSOR, USING, INPUT, LIST wrapping, TRON, INKEY$ codes,
graphics dots, error numbers, MEM, and statement timings (to within ~10%). What is
still assumed is said where it is used (e.g. BEEP's tone length, RND's generator).
"""
