"""Quantities as RFPs and past-performance libraries write them: money amounts (``money``),
number words and counts (``numbers``) and calendar dates (``dates``).

The one grammar of each, imported by both ``library/`` and ``documents/`` (and the Section L/M
reader in ``scope/``); it imports nothing from the rest of the package, so no stage reaches
into a later one.
"""
