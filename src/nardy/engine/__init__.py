"""The engine: bots and analysis. Builds on the rules core and notation."""
