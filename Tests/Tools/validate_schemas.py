"""Validates every schema file against the meta-schemas with jsonschema (Draft 2020-12).

Usage: validate_schemas.py SCHEMAS_DIR [CONFIG_FILE ...]
Each CONFIG_FILE (an sdkgen-config.json) is validated against SCHEMAS_DIR/config.schema.json.
Prints one line per failure and exits 1, or prints the count of conforming files and exits 0.
"""
import json
import pathlib
import sys

import jsonschema
from referencing import Registry, Resource


def main(root: pathlib.Path, configs: list[pathlib.Path]) -> int:
    method = json.loads((root / "method.schema.json").read_text())
    protocol = json.loads((root / "protocol.schema.json").read_text())
    for meta in (method, protocol):
        jsonschema.Draft202012Validator.check_schema(meta)
    registry = Registry().with_resources([
        (method["$id"], Resource.from_contents(method)),
        (protocol["$id"], Resource.from_contents(protocol)),
    ])
    validators = {
        "protocol.json": jsonschema.Draft202012Validator(protocol, registry=registry),
        "types.json": jsonschema.Draft202012Validator({"$ref": method["$id"] + "#/$defs/typesFile"}, registry=registry),
    }
    method_validator = jsonschema.Draft202012Validator(method, registry=registry)
    config = json.loads((root / "config.schema.json").read_text())
    jsonschema.Draft202012Validator.check_schema(config)
    config_validator = jsonschema.Draft202012Validator(config)
    failures = 0
    for path in configs:
        for error in config_validator.iter_errors(json.loads(path.read_text())):
            pointer = "/" + "/".join(str(part) for part in error.absolute_path)
            print(f"{path}: {error.message} [at {pointer}]")
            failures += 1
    files = sorted(path for path in root.glob("*/*.json"))
    for path in files:
        validator = validators.get(path.name, method_validator)
        for error in validator.iter_errors(json.loads(path.read_text())):
            pointer = "/" + "/".join(str(part) for part in error.absolute_path)
            print(f"{path.relative_to(root.parent)}: {error.message} [at {pointer}]")
            failures += 1
    if failures:
        return 1
    print(f"{len(files)} schema files and {len(configs)} configuration files conform to the meta-schemas")
    return 0


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1]), [pathlib.Path(path) for path in sys.argv[2:]]))
