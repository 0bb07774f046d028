#!/usr/bin/env python3
"""Holds each binding's README to the programs make test runs: a code block right after a line
`<!-- example: PATH -->` must be exactly the file PATH (relative to the README), so the first program a reader
copies is the one that ran. Also checks that every binding has a README with the sections an integrator looks
for.   scripts/check-readme-examples.py"""
import os
import re
import sys

top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SECTIONS = ["Install", "First program", "Threads", "Errors", "Shutdown"]
errors = []
for binding in ("csharp", "java", "python", "rust"):
    readme = os.path.join(top, "bindings", binding, "README.md")
    if not os.path.exists(readme):
        errors.append(f"bindings/{binding} has no README.md")
        continue
    text = open(readme, encoding="utf-8").read()
    for section in SECTIONS:
        if not re.search(r"^## " + re.escape(section), text, re.M):
            errors.append(f"bindings/{binding}/README.md has no '## {section}' section")
    examples = re.findall(r"<!-- example: (\S+) -->\n```[a-z]*\n(.*?)```", text, re.S)
    if not examples:
        errors.append(f"bindings/{binding}/README.md shows no tested example")
    for path, block in examples:
        source = os.path.join(os.path.dirname(readme), path)
        if not os.path.exists(source):
            errors.append(f"bindings/{binding}/README.md names {path}, which does not exist")
        elif open(source, encoding="utf-8").read() != block:
            errors.append(f"bindings/{binding}/README.md's copy of {path} differs from the file")
if errors:
    sys.exit("readme examples: " + "; ".join(errors))
print("readme examples: every binding's README shows the programs make test runs")
