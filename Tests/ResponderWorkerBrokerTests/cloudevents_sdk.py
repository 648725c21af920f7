#!/usr/bin/env python3
"""The official CloudEvents Python SDK (cloudevents 2.2.0) on both sides of `responder`, for CloudEventsSDKTests.

usage: cloudevents_sdk.py produce FIXTURE   events of a recorded session, as the SDK writes them for AMQP
       cloudevents_sdk.py parse             outputs of responder (stdin), as the SDK reads them

`produce` rebuilds each input event of the fixture (JSON lines, Schemas/fixture.v1) as an SDK CloudEvent and writes
it in turn in structured mode (the AMQP binding), binary mode with the AMQP binding's cloudEvents_ headers (time as
an integer of milliseconds, as the SDK writes it), binary mode with the first AMQP binding's cloudEvents: prefix,
and binary mode with the RabbitMQ binding's ce- headers: one JSON line each, {"mode", "routingKey", "contentType",
"headers", "body" (base64)}.

`parse` reads one JSON line per output message {"contentType", "headers", "body" (base64)}, hands it to the SDK's
AMQP binding (from_amqp, which tells the modes apart itself) and writes {"attributes", "data"} per message, time in
RFC 3339.
"""

import base64
import json
import sys

from dateutil.parser import isoparse

from cloudevents.core.bindings import amqp, rabbitmq
from cloudevents.core.formats.json import JSONFormat
from cloudevents.core.v1.event import CloudEvent

FORMAT = JSONFormat()


def encoded(mode, event):
    if mode == "structured":
        message = amqp.to_structured(event, FORMAT)
        return message.properties.get("content-type"), message.application_properties, message.application_data
    if mode in ("binary", "binary-colon"):
        message = amqp.to_binary(event, FORMAT)
        headers = message.application_properties
        if mode == "binary-colon":
            headers = {"cloudEvents:" + name[len("cloudEvents_"):]: value for name, value in headers.items()}
        return message.properties.get("content-type"), headers, message.application_data
    message = rabbitmq.to_binary(event, FORMAT)
    return message.content_type, message.headers, message.body


def produce(fixture):
    modes = ["structured", "binary", "binary-colon", "binary-rabbitmq"]
    with open(fixture, encoding="utf-8") as lines:
        for index, line in enumerate(lines):
            recorded = json.loads(line)
            body = recorded["body"]
            attributes = {name: value for name, value in body.items() if name != "data"}
            if "time" in attributes:
                attributes["time"] = isoparse(attributes["time"])
            mode = modes[index % len(modes)]
            content_type, headers, data = encoded(mode, CloudEvent(attributes, body["data"]))
            print(json.dumps({
                "mode": mode, "routingKey": recorded["routingKey"], "contentType": content_type, "headers": headers,
                "body": base64.b64encode(data).decode("ascii"),
            }))


def parse():
    for line in sys.stdin:
        output = json.loads(line)
        properties = {} if output["contentType"] is None else {"content-type": output["contentType"]}
        message = amqp.AMQPMessage(properties, output["headers"], base64.b64decode(output["body"]))
        event = amqp.from_amqp(message, FORMAT)
        attributes = {
            name: value.isoformat().replace("+00:00", "Z") if name == "time" else value
            for name, value in event.get_attributes().items()
        }
        print(json.dumps({"attributes": attributes, "data": event.get_data()}, sort_keys=True))


if __name__ == "__main__":
    if sys.argv[1] == "produce":
        produce(sys.argv[2])
    else:
        parse()
