"""What the tests share, imported as `tests.helpers.<module>` (tests/conftest.py has
pytest rewrite their asserts as in the test modules):

    bare_machine       a machine bus without a CPU, for the built-in engine's unit tests
    booting            booting a machine past the power-on question, on both engines
    cpu_harness        the SC61860 opcode harness (FakeBus, make_cpu, run_op)
    program_timing     a BASIC program's emulated run time (and its firmware reference)
    basic_source       reading the BASIC programs' source lines (basic_src/*.bas)
    kniffel_driver     playing basic_src/kniffel.bas on either engine, and what every game
                       driver uses (boot, stored lines, run_until, resumed_machine, ...)
    yahtzee_driver, mikazee_driver, mishimash_driver, mikazee_player
                       the other games' drivers and Mikazee's scripted player
    kniffel_model, yahtzee_model, mikazee_model, mishimash_model
                       independent Python models of the games' rules
"""
