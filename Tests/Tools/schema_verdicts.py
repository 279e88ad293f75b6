"""Random small schemas of the schema language, JSON instances for each, and Python `jsonschema`'s verdict on every one.

The property test in SchemaVerdictTests generates each schema with sdkgen, decodes each instance with the generated
code (then runs its validate()), and compares the verdicts with the ones written here:

    python Tests/Tools/schema_verdicts.py --seed 7 --count 40 --out cases.json

Each case is {"schema": <the property schema>, "defs": {...}, "instances": [<JSON text>...], "valid": [bool...]}.
The schema is judged as the response {"type": "object", "required": ["v"], "properties": {"v": <schema>}, "$defs":
defs}, and each instance is that whole response object (so `v` may be absent).

Where the reference differs from JSON Schema 2020-12 itself, the differences are avoided or fixed here rather than
in the test: Python's `re` is not ECMA-262, so patterns stay within the syntax both read alike (no \\d, \\w, \\s or
`.`, and no instance ends in a newline, which Python's `$` would accept before); numbers are read as `Decimal` so
`multipleOf` is exact; the formats are checked by their RFC grammars below, since `jsonschema` checks them only with
optional packages; integers stay within 64 bits and `int32` is left out, since a value beyond the Swift type is a
decoding error by design.
"""

import argparse
import calendar
import decimal
import json
import random
import re
from decimal import Decimal

import jsonschema
from jsonschema import Draft202012Validator, FormatChecker

# MARK: - Formats by their RFC grammars

DATE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
DATE_TIME = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?([Zz]|([+-])([0-9]{2}):([0-9]{2}))"
)
UUID = re.compile(r"[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}")


def real_day(year, month, day):
    return 1 <= month <= 12 and 1 <= day <= calendar.monthrange(year, month)[1]


def is_date(text):
    match = DATE.fullmatch(text)
    return bool(match) and real_day(*map(int, match.groups()))


def is_date_time(text):
    """RFC 3339 §5.6; a leap second only where the time in UTC is 23:59:60."""
    match = DATE_TIME.fullmatch(text)
    if not match:
        return False
    year, month, day, hour, minute, second = map(int, match.groups()[:6])
    if not real_day(year, month, day) or hour > 23 or minute > 59 or second > 60:
        return False
    offset = 0
    if match.group(9):
        offset_hour, offset_minute = int(match.group(10)), int(match.group(11))
        if offset_hour > 23 or offset_minute > 59:
            return False
        offset = (offset_hour * 60 + offset_minute) * (1 if match.group(9) == "+" else -1)
    if second == 60:
        return (hour * 60 + minute - offset) % (24 * 60) == 23 * 60 + 59
    return True


def is_uuid(text):
    return bool(UUID.fullmatch(text))


def uri_pattern():
    """RFC 3986 §3's URI (an absolute URI with an optional fragment), written out from its ABNF."""
    unreserved = r"[A-Za-z0-9\-._~]"
    pct = r"%[0-9A-Fa-f]{2}"
    sub = r"[!$&'()*+,;=]"
    pchar = f"(?:{unreserved}|{pct}|{sub}|[:@])"
    octet = r"(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9][0-9]|[0-9])"
    ipv4 = rf"{octet}\.{octet}\.{octet}\.{octet}"
    h16 = "[0-9A-Fa-f]{1,4}"
    ls32 = f"(?:{h16}:{h16}|{ipv4})"
    ipv6 = "|".join(
        [
            f"(?:{h16}:){{6}}{ls32}",
            f"::(?:{h16}:){{5}}{ls32}",
            f"(?:{h16})?::(?:{h16}:){{4}}{ls32}",
            f"(?:(?:{h16}:){{0,1}}{h16})?::(?:{h16}:){{3}}{ls32}",
            f"(?:(?:{h16}:){{0,2}}{h16})?::(?:{h16}:){{2}}{ls32}",
            f"(?:(?:{h16}:){{0,3}}{h16})?::{h16}:{ls32}",
            f"(?:(?:{h16}:){{0,4}}{h16})?::{ls32}",
            f"(?:(?:{h16}:){{0,5}}{h16})?::{h16}",
            f"(?:(?:{h16}:){{0,6}}{h16})?::",
        ]
    )
    future = rf"[vV][0-9A-Fa-f]+\.(?:{unreserved}|{sub}|:)+"
    host = rf"(?:\[(?:{ipv6}|{future})\]|{ipv4}|(?:{unreserved}|{pct}|{sub})*)"
    authority = rf"(?:(?:{unreserved}|{pct}|{sub}|:)*@)?{host}(?::[0-9]*)?"
    segment = f"{pchar}*"
    hier = rf"(?://{authority}(?:/{segment})*|/(?:{pchar}+(?:/{segment})*)?|{pchar}+(?:/{segment})*|)"
    tail = f"(?:{pchar}|[/?])*"
    return re.compile(rf"[A-Za-z][A-Za-z0-9+\-.]*:{hier}(?:\?{tail})?(?:#{tail})?")


URI = uri_pattern()


def is_uri(text):
    return bool(URI.fullmatch(text))


FORMATS = FormatChecker(formats=())
for name, check in {"date": is_date, "date-time": is_date_time, "uuid": is_uuid, "uri": is_uri}.items():
    # A format says nothing about values of other types.
    FORMATS.checks(name)(lambda value, check=check: not isinstance(value, str) or check(value))


def is_integer(_, value):
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, Decimal) and value.is_finite() and value == value.to_integral_value()


def is_number(_, value):
    return not isinstance(value, bool) and isinstance(value, (int, Decimal))


CHECKER = Draft202012Validator.TYPE_CHECKER.redefine_many({"integer": is_integer, "number": is_number})
Validator = jsonschema.validators.extend(Draft202012Validator, type_checker=CHECKER)


def verdict(document, instance_text):
    instance = json.loads(instance_text, parse_float=Decimal)
    return Validator(document, format_checker=FORMATS).is_valid(instance)


# MARK: - Random schemas

# Patterns whose meaning Python's `re` and ECMA-262 (u flag) share for instances without a trailing newline.
PATTERNS = ["^[a-z]+$", "a", "^[0-9]{2}", "[A-Z]", "^(ab)*$", "x|y", "^[^0-9]*$", "\u00e9", "c?d+$", "^[a-c]{1,2}$"]
STRINGS = [
    "", "a", "ab", "abc", "ABC", "x y", "0", "12", "123", "\u00e4", "a\u0308", "\u07c0", "\u00e9", "\ufeff",
    "\U0001f600", "cd", "dd", "ababab", "y", "A", "a\nb", "\u00e4\u00e4",
]
DATES = ["2024-01-15", " 2024-01-15", "2024-02-30", "2024-02-29", "2023-02-29", "2024-1-15", "20240115"]
DATE_TIMES = [
    "2024-01-15T10:20:30Z", "2024-01-15T10:20:30.123+01:00", "2024-01-15t10:20:30z", "1998-12-31T23:59:60Z",
    "1998-12-31T15:59:60.123-08:00", "1998-12-31T23:58:60Z", "1998-12-31T23:59:60+01:00", " 2024-01-15T10:20:30Z",
    "2024-01-15T10:20:30", "2024-01-15 10:20:30Z", "2024-01-15T24:00:00Z", "2024-01-15T10:20:30+24:00",
]
UUIDS = [
    "123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-426614174000",
    " 123e4567-e89b-12d3-a456-426614174000", "123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-42661417400g",
]
URIS = [
    "https://example.com/a?b=c#d", "urn:ietf:rfc:3986", "mailto:someone@example.com", "http://[::1]:8080/",
    "http://192.0.2.1/x", "file:///etc/hosts", "/abc", "foo bar.txt", "http://example.com/%", "http://exa mple.com",
    "1http://example.com", "x:", "http://example.com/%41", "http://[v7.abc]/", "http://[::1/",
]
NUMBERS = ["0", "1", "-1", "2", "3", "7", "10", "1.0", "1.5", "2.5", "0.1", "0.3", "-0.5", "1e2", "12.75", "100", "0.25"]
OTHERS = ["null", "true", "false", '""', '"1"', '"true"', "[]", "{}", "[1]", '{"a": 1}', '"abc"', "1", "1.5"]


class Schemas:
    def __init__(self, rng):
        self.rng = rng
        self.defs = {}

    def pick(self, *options):
        return self.rng.choice(options)

    def maybe(self, probability=0.5):
        return self.rng.random() < probability

    def scalar(self, text=True):
        kinds = ["string", "string", "integer", "number", "boolean", "enum", "any"] + (["format"] if text else [])
        kind = self.pick(*kinds)
        if kind == "string":
            schema = {"type": "string"}
            if self.maybe(0.4):
                schema["minLength"] = self.pick(1, 2, 2.0)
            if self.maybe(0.4):
                schema["maxLength"] = self.pick(1, 2, 3)
            if self.maybe(0.4):
                schema["pattern"] = self.pick(*PATTERNS)
            return schema
        if kind in ("integer", "number"):
            schema = {"type": kind}
            if kind == "integer" and self.maybe(0.2):
                schema["format"] = "int64"
            if kind == "number" and self.maybe(0.2):
                schema["format"] = "double"
            bounds = {
                "minimum": ["0", "1", "0.5", "-1"],
                "maximum": ["3", "10", "2.5", "1e2"],
                "exclusiveMinimum": ["0", "1", "0.5"],
                "exclusiveMaximum": ["10", "3", "2.5"],
                "multipleOf": ["2", "0.5", "0.1", "0.25", "3"],
            }
            for keyword, values in bounds.items():
                if self.maybe(0.3):
                    schema[keyword] = Decimal(self.pick(*values))
            if kind == "integer" and "multipleOf" in schema and schema["multipleOf"] < 1:
                del schema["multipleOf"]
            return schema
        if kind == "boolean":
            return {"type": "boolean"}
        if kind == "format":
            return {"type": "string", "format": self.pick("date", "date-time", "uuid", "uri")}
        if kind == "enum":
            return {"type": "string", "enum": self.rng.sample(["a", "b", "ab", "\u00e4", "", "A", "x y"], 3)}
        return {}

    def value(self, depth, slot="property"):
        """A schema for a value in `slot`: a property, an array's items or a map's values (which the language
        allows to be neither null nor a constant, and a map's values not text such as dates)."""
        if depth >= 2:
            return self.scalar(text=slot != "map")
        kinds = ["scalar", "scalar", "array", "object", "map", "oneOf", "allOf", "ref"]
        kind = self.pick(*(kinds + (["nullable", "const"] if slot == "property" else [])))
        if kind == "scalar":
            return self.scalar(text=slot != "map")
        if kind == "nullable":
            schema = self.scalar()
            if "enum" in schema:
                return {"oneOf": [schema, {"type": "null"}]}
            if schema.get("type") in ("string", "integer", "number", "boolean"):
                schema["type"] = [schema["type"], "null"]
            return schema
        if kind == "array":
            schema = {"type": "array", "items": self.value(depth + 1, slot="items")}
            if self.maybe(0.3):
                schema["minItems"] = self.pick(1, 2)
            if self.maybe(0.3):
                schema["maxItems"] = self.pick(1, 2, 3)
            if self.maybe(0.3) and keeps_every_distinction(schema["items"]):
                schema["uniqueItems"] = True
            return schema
        if kind == "object":
            return self.object(depth)
        if kind == "map":
            return {"type": "object", "additionalProperties": self.value(depth + 1, slot="map")}
        if kind == "oneOf":
            if self.maybe(0.25):
                # Variants of one Swift type, told apart by their constraints or not at all: a value is valid
                # when exactly one of them accepts it.
                if self.maybe(0.3):
                    return {"oneOf": [{} for _ in range(self.rng.randint(2, 3))]}
                base = self.pick("integer", "number", "string")
                variants = [{"type": base}]
                for _ in range(self.rng.randint(1, 2)):
                    variant = {"type": base}
                    if base == "string":
                        variant[self.pick("minLength", "maxLength")] = self.pick(1, 2, 3)
                    else:
                        variant[self.pick("minimum", "maximum")] = Decimal(self.pick("0", "2", "3"))
                    variants.append(variant)
                return {"oneOf": variants}
            variants = []
            while len(variants) < 2:
                variant = self.scalar(text=slot != "map")
                if variant.get("type") and variant["type"] not in [v["type"] for v in variants]:
                    variants.append(variant)
            if slot == "property" and self.maybe(0.3):
                variants.append({"type": "null"})
            return {"oneOf": variants}
        if kind == "allOf":
            parts = [self.object(depth + 1, allow_closed=False) for _ in range(2)]
            names = set()
            for part in parts:
                for name in list(part.get("properties", {})):
                    if name in names:
                        del part["properties"][name]
                        if name in part.get("required", []):
                            part["required"].remove(name)
                    names.add(name)
            schema = {"allOf": parts}
            if self.maybe(0.5):
                schema["type"] = "object"
                schema["properties"] = {"own": self.scalar()}
                schema["additionalProperties"] = False
            elif self.maybe(0.4):
                # additionalProperties beside allOf sees only this schema's own properties: every member of the
                # parts is additional too, and must be valid against it.
                schema["additionalProperties"] = self.pick({"type": "boolean"}, {"type": "integer"}, {})
            return schema
        if kind == "ref":
            name = f"T{len(self.defs)}"
            scalar = self.scalar(text=slot != "map")
            self.defs[name] = self.object(depth + 1) if self.maybe() or scalar == {} else scalar
            return {"$ref": f"#/$defs/{name}"}
        return {"const": self.pick("a", "\u00e4", "x y")}

    def object(self, depth, allow_closed=True):
        names = self.rng.sample(["a", "b", "c", "d"], self.rng.randint(1, 3))
        properties = {name: self.value(depth + 1) for name in names}
        schema = {"type": "object", "properties": properties}
        required = [name for name in names if self.maybe(0.5)]
        if required:
            schema["required"] = required
        if allow_closed and self.maybe(0.3):
            schema["additionalProperties"] = False
        return schema


def keeps_every_distinction(schema):
    if "enum" in schema:
        return True
    kind = schema.get("type")
    if kind == "string":
        return "format" not in schema
    if kind in ("integer", "number", "boolean") or schema == {}:
        return True
    return False


# MARK: - Instances


class Instances:
    def __init__(self, rng, defs):
        self.rng = rng
        self.defs = defs

    def of(self, schema, depth=0):
        """A value meant to be valid (often not quite: bounds and patterns are drawn at random)."""
        rng = self.rng
        if "$ref" in schema:
            return self.of(self.defs[schema["$ref"].split("/")[-1]], depth)
        if "const" in schema:
            return schema["const"] if rng.random() < 0.7 else rng.choice(["A", "a\u0308", "b"])
        if "enum" in schema:
            return rng.choice(schema["enum"]) if rng.random() < 0.7 else rng.choice(["A", "a\u0308", "zz"])
        if "oneOf" in schema:
            return self.of(rng.choice(schema["oneOf"]), depth)
        if "allOf" in schema:
            value = {}
            for part in schema["allOf"]:
                part_value = self.of(part, depth)
                if isinstance(part_value, dict):
                    value.update(part_value)
            for name, property in schema.get("properties", {}).items():
                value[name] = self.of(property, depth + 1)
            extra = schema.get("additionalProperties")
            if isinstance(extra, dict) and rng.random() < 0.5:
                value[rng.choice(["k", "l"])] = self.of(extra, depth + 1)
            return value
        kind = schema.get("type")
        if isinstance(kind, list):
            kind = kind[0] if rng.random() < 0.7 else "null"
        if kind == "null":
            return None
        if kind == "string":
            pools = {"date": DATES, "date-time": DATE_TIMES, "uuid": UUIDS, "uri": URIS}
            return rng.choice(pools.get(schema.get("format"), STRINGS))
        if kind in ("integer", "number"):
            return json.loads(rng.choice(NUMBERS), parse_float=Decimal)
        if kind == "boolean":
            return rng.random() < 0.5
        if kind == "array":
            count = rng.randint(0, 3)
            items = [self.of(schema["items"], depth + 1) for _ in range(count)]
            if items and rng.random() < 0.3:
                items.append(items[0])
            return items
        if kind == "object" and "properties" in schema:
            value = {}
            for name, property in schema["properties"].items():
                if name in schema.get("required", []) or rng.random() < 0.6:
                    value[name] = None if rng.random() < 0.1 else self.of(property, depth + 1)
            if rng.random() < 0.2:
                value["extra"] = self.other()
            return value
        if kind == "object":
            extra = schema.get("additionalProperties", {})
            return {key: self.of(extra, depth + 1) for key in rng.sample(["k", "l", "a/b"], rng.randint(0, 2))}
        return self.other()

    def other(self):
        return json.loads(self.rng.choice(OTHERS + NUMBERS[:6]), parse_float=Decimal)

    def mutated(self, value):
        """`value` with one part replaced by a value of another kind, or left out."""
        rng = self.rng
        if isinstance(value, dict) and value and rng.random() < 0.7:
            key = rng.choice(sorted(value))
            changed = dict(value)
            if rng.random() < 0.3:
                del changed[key]
            else:
                changed[key] = self.mutated(value[key])
            return changed
        if isinstance(value, list) and value and rng.random() < 0.7:
            index = rng.randrange(len(value))
            return value[:index] + [self.mutated(value[index])] + value[index + 1 :]
        return self.other()


def number_text(value):
    """JSON text with each Decimal written as it was read."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, (int, float, str)):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ",".join(number_text(item) for item in value) + "]"
    return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + number_text(v) for k, v in value.items()) + "}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--instances", type=int, default=12)
    parser.add_argument("--out", required=True)
    arguments = parser.parse_args()
    decimal.getcontext().prec = 60
    rng = random.Random(arguments.seed)
    cases = []
    for _ in range(arguments.count):
        schemas = Schemas(rng)
        schema = schemas.value(0)
        document = {"type": "object", "required": ["v"], "properties": {"v": schema}, "$defs": schemas.defs}
        instances = Instances(rng, schemas.defs)
        values = []
        for _ in range(arguments.instances):
            value = {"v": instances.of(schema)}
            values.append(instances.mutated(value) if rng.random() < 0.35 else value)
        texts = sorted(set(number_text(value) for value in values))
        cases.append(
            {
                "schema": number_text(schema),
                "defs": number_text(schemas.defs),
                "instances": texts,
                "valid": [verdict(document, instance) for instance in texts],
            }
        )
    with open(arguments.out, "w", encoding="utf-8") as out:
        json.dump(cases, out, ensure_ascii=False, indent=1)


if __name__ == "__main__":
    main()
