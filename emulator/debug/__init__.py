"""The debugger: breakpoints, watchpoints, stepping and tracing on both engines, the BASIC
statement running and the variables read from RAM (debugger.py; the command language of
`pc1360 debug` is commands.py)."""
