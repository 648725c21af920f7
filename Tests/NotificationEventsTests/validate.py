#!/usr/bin/env python3
"""Judges the agreement corpus with a real JSON Schema validator, for CorpusAgreementTests.

usage: validate.py SCHEMAS_DIR CORPUS_DIR

Prints one JSON object: "schemas" maps each schema file to null when it is a valid draft 2020-12 schema, else the
reason; "documents" maps each corpus file ("valid/x.json", "invalid/y.json") to {"valid": bool, "reason": str}.
A document is judged by the schema its name starts with: "notification-response.badge-negative.json" by
notification-response.v1.schema.json. A "binary-<kind>" document (binary-notification-response,
binary-notification-lifecycle) is a message in CloudEvents' binary content mode, {"contentType", "headers", "body"
(its text)}: it is turned into the structured event it stands for, as the CloudEvents AMQP binding says (and as
BinaryModeHeaders does), and judged by <kind>.v1.schema.json.

Before the schema, a document must pass the contract's JSON rules, which JSON Schema cannot state and which the Swift
decoder (StrictJSONParser) applies in the same way: UTF-8 without a byte order mark, no duplicate keys (keys equal
after NFC normalisation count, as Swift compares strings by canonical equivalence), no NaN or Infinity, numbers
finite as 64-bit floats, no unpaired UTF-16 surrogates, at most MAXIMUM_DEPTH nested arrays and objects.
`date-time` formats are checked here by the same grammar as the Swift decoder's, not by an optional package.
"""

import json
import math
import pathlib
import re
import sys
import unicodedata
from datetime import datetime, timedelta, timezone

from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import best_match
from referencing import Registry, Resource

MAXIMUM_DEPTH = 64  # EventCodec.maximumNestingDepth

DATE_TIME = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?([Zz]|([+-])([0-9]{2}):([0-9]{2}))"
)


class ContractJSONError(ValueError):
    pass


def is_date_time(text):
    if not isinstance(text, str):
        return True
    match = DATE_TIME.fullmatch(text)
    if not match:
        return False
    year, month, day, hour, minute, second = (int(match.group(i)) for i in range(1, 7))
    try:
        if match.group(9):
            offset_hours, offset_minutes = int(match.group(10)), int(match.group(11))
            if offset_hours > 23 or offset_minutes > 59:
                return False
            timezone(timedelta(hours=offset_hours, minutes=offset_minutes))
        datetime(year, month, day, hour, minute, second)
    except ValueError:
        return False
    return True


FORMATS = FormatChecker(formats=())
FORMATS.checks("date-time")(is_date_time)


def reject_duplicates(pairs):
    seen = set()
    for key, _ in pairs:
        normalised = unicodedata.normalize("NFC", key)
        if normalised in seen:
            raise ContractJSONError(f"duplicate key {key!r}")
        seen.add(normalised)
    return dict(pairs)


def reject_constant(name):
    raise ContractJSONError(f"{name} is not a JSON number")


def finite_float(text):
    number = float(text)
    if not math.isfinite(number):
        raise ContractJSONError("number out of range")
    return number


def finite_int(text):
    number = int(text)
    float(number)  # raises OverflowError beyond the 64-bit float range, as the Swift parser refuses
    return number


def check_strings_and_depth(value, maximum_depth=MAXIMUM_DEPTH):
    """Walks without recursion, so a deep document cannot exhaust Python's stack."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            depth += 1
            if depth > maximum_depth:
                raise ContractJSONError(f"nested deeper than {maximum_depth} levels")
            children = item.items() if isinstance(item, dict) else ((None, child) for child in item)
            for key, child in children:
                if key is not None:
                    key.encode("utf-8")  # raises on an unpaired surrogate
                stack.append((child, depth))
        elif isinstance(item, str):
            item.encode("utf-8")


def load(data, maximum_depth=MAXIMUM_DEPTH):
    text = data.decode("utf-8")  # strict: invalid UTF-8 raises; a BOM stays and json refuses it
    value = json.loads(
        text,
        object_pairs_hook=reject_duplicates,
        parse_constant=reject_constant,
        parse_float=finite_float,
        parse_int=finite_int,
    )
    check_strings_and_depth(value, maximum_depth)
    return value


BINARY_PREFIXES = ("cloudEvents:", "cloudEvents_", "ce-")
# RFC 3339's years 0001 to 9999, in milliseconds since 1970.
FIRST_MILLISECOND, LAST_MILLISECOND = -62_135_596_800_000, 253_402_300_799_999


def structured_from_binary(message):
    """The event a binary-mode message stands for: attribute headers (any of the binding's prefixes; `time` may be
    milliseconds), datacontenttype from the content type, the body (one level shallower) as data."""
    pairs = []
    for name in sorted(message["headers"]):
        prefix = next((prefix for prefix in BINARY_PREFIXES if name.startswith(prefix)), None)
        if prefix is None:
            continue
        attribute, value = name[len(prefix):], message["headers"][name]
        if attribute == "time" and type(value) is int and FIRST_MILLISECOND <= value <= LAST_MILLISECOND:
            moment = datetime(1970, 1, 1, tzinfo=timezone.utc) + timedelta(milliseconds=value)
            value = moment.strftime("%Y-%m-%dT%H:%M:%S") + (f".{value % 1000:03d}" if value % 1000 else "") + "Z"
        pairs.append((attribute, value))
    if message.get("contentType") is not None:
        pairs.append(("datacontenttype", message["contentType"]))
    pairs.append(("data", load(message["body"].encode("utf-8"), MAXIMUM_DEPTH - 1)))
    return reject_duplicates(pairs)


def main(schemas_dir, corpus_dir):
    schemas = {path.name: json.loads(path.read_text()) for path in sorted(pathlib.Path(schemas_dir).glob("*.schema.json"))}
    report = {"schemas": {}, "documents": {}}
    for name, schema in schemas.items():
        try:
            Draft202012Validator.check_schema(schema)
            report["schemas"][name] = None
        except Exception as error:  # noqa: BLE001 - any failure is a verdict to report
            report["schemas"][name] = str(error)
    registry = Registry().with_resources(
        (schema["$id"], Resource.from_contents(schema)) for schema in schemas.values()
    )
    corpus = pathlib.Path(corpus_dir)
    for path in sorted(corpus.glob("*/*.json")):
        kind = path.name.split(".", 1)[0]
        binary = kind.startswith("binary-")
        schema = schemas.get(f"{kind.removeprefix('binary-')}.v1.schema.json")
        key = f"{path.parent.name}/{path.name}"
        if schema is None:
            report["documents"][key] = {"valid": False, "reason": f"no schema for {kind}"}
            continue
        try:
            document = structured_from_binary(json.loads(path.read_text())) if binary else load(path.read_bytes())
        except (ValueError, OverflowError, RecursionError, UnicodeError) as error:
            report["documents"][key] = {"valid": False, "reason": f"not contract JSON: {type(error).__name__}: {error}"}
            continue
        validator = Draft202012Validator(schema, registry=registry, format_checker=FORMATS)
        error = best_match(validator.iter_errors(document))
        report["documents"][key] = {
            "valid": error is None,
            "reason": "" if error is None else f"{'/'.join(map(str, error.absolute_path))}: {error.message}",
        }
    json.dump(report, sys.stdout, indent=1, sort_keys=True)


if __name__ == "__main__":
    main(*sys.argv[1:3])
