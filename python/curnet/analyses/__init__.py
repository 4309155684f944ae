"""The analyses above the drivers, a module or package each (docs/design.md, "The layers"):
each uses the drivers' entry points and sinks, none reaches into a backend. The public ones
are exported at `curnet.<name>` (`curnet.EXPORTS`); this package exports nothing."""
