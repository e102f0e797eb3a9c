#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Validate a JSON document against a JSON Schema (draft 2020-12). Usage: SCHEMA FILE."""
import json
import sys

import jsonschema

with open(sys.argv[1]) as f:
    schema = json.load(f)
with open(sys.argv[2]) as f:
    doc = json.load(f)
cls = jsonschema.validators.validator_for(schema)
errors = sorted(cls(schema).iter_errors(doc), key=lambda e: list(e.path))
for e in errors[:10]:
    print(f"{'/'.join(map(str, e.path)) or '<root>'}: {e.message}")
sys.exit(1 if errors else 0)
