#!/usr/bin/env python3
"""Checks Schemas/asyncapi.yaml for AsyncAPIContractTests.

usage: asyncapi_check.py ASYNCAPI_FILE TOPOLOGY_JSON_FILE

Validates the document with the asyncapi3 package (Pydantic models of the whole AsyncAPI 3.0 specification and its
bindings, the AMQP 0-9-1 one included), resolves every $ref (pointers into the document and into the JSON Schemas
beside it), checks that every CloudEvents type those schemas define is the payload of a message of that name, and
compares its exchanges, queues (with their x-amqp-arguments) and bindings (x-amqp-bindings) with
what `responder topology --json` printed. Prints "ok" and exits 0, or prints each problem and exits 1.
"""

import json
import pathlib
import sys
import warnings

import yaml

warnings.simplefilter("ignore")  # asyncapi3's models warn about their own field names on import
from asyncapi3.models.asyncapi import AsyncAPI3  # noqa: E402


def pointer(document, fragment, where):
    value = document
    for token in filter(None, fragment.split("/")):
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(value, list):
            value = value[int(token)]
        elif isinstance(value, dict) and token in value:
            value = value[token]
        else:
            raise KeyError(f"{where}: #{fragment} does not resolve")
    return value


def references(value):
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if isinstance(item.get("$ref"), str):
                yield item["$ref"]
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def unresolved(document, folder):
    problems = []
    for ref in references(document):
        target, _, fragment = ref.partition("#")
        try:
            resolved = document if not target else json.loads((folder / target).read_text())
            pointer(resolved, fragment, ref)
        except (OSError, ValueError, KeyError, IndexError) as error:
            problems.append(f"$ref {ref}: {error}")
    return problems


def undescribed_events(document, folder):
    """The event types of the JSON Schemas beside the document (a schema whose `type` is a const) that no message of
    the document carries under its own name, so a new type cannot be left out of the AsyncAPI contract."""
    described = {
        (message.get("name"), message.get("payload", {}).get("$ref"))
        for message in document.get("components", {}).get("messages", {}).values()
    }
    problems = []
    for path in sorted(folder.glob("*.schema.json")):
        event_type = json.loads(path.read_text()).get("properties", {}).get("type", {}).get("const")
        if event_type and (event_type, f"./{path.name}") not in described:
            problems.append(f"{event_type} ({path.name}) has no message")
    return problems


def declarations(document):
    exchanges, queues, bindings = [], [], []
    for name, channel in document.get("channels", {}).items():
        amqp = channel.get("bindings", {}).get("amqp", {})
        if amqp.get("is") == "routingKey":
            exchange = amqp["exchange"]
            if not exchange.get("durable") or exchange.get("autoDelete"):
                raise ValueError(f"channel {name}: the worker declares every exchange durable, not auto-deleted")
            exchanges.append({"name": exchange["name"], "type": exchange["type"]})
        elif amqp.get("is") == "queue":
            queue = amqp["queue"]
            if not queue.get("durable") or queue.get("exclusive") or queue.get("autoDelete"):
                raise ValueError(f"channel {name}: the worker declares every queue durable, shared, not auto-deleted")
            if channel.get("address") != queue["name"]:
                raise ValueError(f"channel {name}: its address is not its queue's name")
            queues.append({"name": queue["name"], "arguments": channel.get("x-amqp-arguments", {})})
            bindings += [{"queue": queue["name"], **binding} for binding in channel.get("x-amqp-bindings", [])]
    key = lambda item: json.dumps(item, sort_keys=True)  # noqa: E731
    return {"exchanges": sorted(exchanges, key=key), "queues": sorted(queues, key=key), "bindings": sorted(bindings, key=key)}


def main(asyncapi_file, topology_file):
    path = pathlib.Path(asyncapi_file)
    document = yaml.safe_load(path.read_text())
    problems = []
    try:
        AsyncAPI3.model_validate(document)
    except Exception as error:  # noqa: BLE001 - any failure is a verdict to report
        problems.append(f"not a valid AsyncAPI 3.0 document: {error}")
    problems += unresolved(document, path.parent)
    problems += undescribed_events(document, path.parent)
    topology = json.loads(pathlib.Path(topology_file).read_text())
    try:
        described = declarations(document)
        key = lambda item: json.dumps(item, sort_keys=True)  # noqa: E731
        printed = {kind: sorted(topology[kind], key=key) for kind in ("exchanges", "queues", "bindings")}
        for kind in printed:
            if described[kind] != printed[kind]:
                problems.append(f"{kind} differ from responder topology --json:\n  asyncapi: {described[kind]}\n  topology: {printed[kind]}")
    except (KeyError, ValueError, TypeError) as error:
        problems.append(f"channels: {error}")
    print("\n".join(problems) if problems else "ok")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main(*sys.argv[1:3])
