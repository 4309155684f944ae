"""The R package's adapters, one module a domain (R reaches each through `engine_module(NAME)`
in R/python.R): flat arrays and scalars in from R, results handed back into memory R allocated
or as plain lists. They convert only; the analyses live in the engine's own modules. The older
adapters still sit in `curnet.bridge`, with the hand-off helpers these modules use."""
