#!/usr/bin/env python3
"""The responder's job as a Python team would write it with aio-pika: the benchmark's peer.

    AMQP_URL=amqp://... peer.py --events N --prefetch P

Consumes notification-response events, runs the RedGreen logic, publishes each action-set update with publisher
confirms and acks the response once its update is confirmed. aio-pika runs each delivery's callback as its own task,
so up to `prefetch` responses are in flight at once, as in a typical service. Exits after N responses.
"""
import argparse
import asyncio
import json
import os
import sys
import time

import aio_pika
from aio_pika import DeliveryMode, ExchangeType, Message

from redgreen import RedGreen

CLOUDEVENTS_JSON = "application/cloudevents+json"


async def declare_topology(channel):
    """The worker's topology, declared idempotently; returns the input queue and the output exchange."""
    responses = await channel.declare_exchange("notifications.responses", ExchangeType.TOPIC, durable=True)
    action_updates = await channel.declare_exchange(
        "notifications.action-updates", ExchangeType.TOPIC, durable=True
    )
    queue = await channel.declare_queue(
        "responder.responses", durable=True,
        arguments={
            "x-queue-type": "quorum", "x-delivery-limit": 5,
            "x-dead-letter-exchange": "responder.dead-letter", "x-dead-letter-routing-key": "responder.responses",
        },
    )
    await queue.bind(responses, "#")
    updates_queue = await channel.declare_queue("responder.action-updates", durable=True)
    await updates_queue.bind(action_updates, "#")
    return queue, action_updates


async def main():
    parser = argparse.ArgumentParser(description="aio-pika RedGreen worker (benchmark peer)")
    parser.add_argument("--events", type=int, required=True, help="exit after this many responses")
    parser.add_argument("--prefetch", type=int, default=200)
    args = parser.parse_args()

    connection = await aio_pika.connect_robust(os.environ["AMQP_URL"])
    async with connection:
        channel = await connection.channel(publisher_confirms=True)
        await channel.set_qos(prefetch_count=args.prefetch)
        queue, action_updates = await declare_topology(channel)

        redgreen = RedGreen()
        processed = 0
        finished = asyncio.Event()
        started = time.monotonic()

        async def on_response(message: aio_pika.abc.AbstractIncomingMessage):
            nonlocal processed
            async with message.process(requeue=True):
                update = redgreen.respond(json.loads(message.body))
                if update is not None:
                    await action_updates.publish(
                        Message(
                            json.dumps(update).encode(),
                            content_type=CLOUDEVENTS_JSON,
                            delivery_mode=DeliveryMode.PERSISTENT,
                            message_id=update["id"],
                            correlation_id=update["data"]["causationId"],
                        ),
                        routing_key=update["data"]["categoryIdentifier"],
                    )
            processed += 1
            if processed == args.events:
                finished.set()

        consumer_tag = await queue.consume(on_response)
        await finished.wait()
        elapsed = time.monotonic() - started
        # Closing the channel waits for the broker's close-ok, which follows every ack sent before it; closing
        # only the connection could drop acks still queued in the client.
        await queue.cancel(consumer_tag)
        await channel.close()
        print(f"peer: {processed} responses in {elapsed:.2f} s ({processed / elapsed:.0f}/s)", file=sys.stderr)


if __name__ == "__main__":
    asyncio.run(main())
