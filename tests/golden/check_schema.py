#!/usr/bin/env python3
"""Checks benchguard JSON documents against their schemas in docs/schema/.

    check_schema.py FILE...

Each file is one JSON document: it must name its schema ("schema": "benchguard.NAME") and its
version, and conform to docs/schema/NAME.schema.json. Prints one line per problem; exit 1 when
there is one.
"""
import json
import pathlib
import sys

import jsonschema

SCHEMAS = pathlib.Path(__file__).resolve().parents[2] / "docs" / "schema"


def problem(path):
    try:
        doc = json.loads(pathlib.Path(path).read_text())
    except ValueError as e:
        return f"{path}: not JSON: {e}"
    if not isinstance(doc, dict):
        return f"{path}: not a JSON object"
    name = doc.get("schema", "")
    if not isinstance(name, str) or not name.startswith("benchguard."):
        return f"{path}: no \"schema\": \"benchguard.NAME\""
    if not isinstance(doc.get("version"), int):
        return f"{path}: no integer \"version\""
    schema_file = SCHEMAS / (name[len("benchguard."):] + ".schema.json")
    if not schema_file.exists():
        return f"{path}: {name} has no schema file {schema_file}"
    schema = json.loads(schema_file.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    errors = sorted(jsonschema.Draft202012Validator(schema).iter_errors(doc),
                    key=lambda e: list(e.absolute_path))
    if errors:
        e = errors[0]
        return (f"{path}: does not conform to {schema_file.name}: {e.message} "
                f"at {'/'.join(map(str, e.absolute_path)) or 'the top'}")
    return None


def main(paths):
    problems = [p for p in map(problem, paths) if p]
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
