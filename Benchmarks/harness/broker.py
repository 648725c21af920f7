"""The benchmark's broker: topology resets, queue depths over AMQP, and facts about the node."""
import subprocess

import aio_pika
from aio_pika import ExchangeType

INPUT_EXCHANGE = "notifications.responses"
INPUT_QUEUE = "responder.responses"
OUTPUT_EXCHANGE = "notifications.action-updates"
OUTPUT_QUEUE = "responder.action-updates"
# Exactly the worker's input queue (`responder topology`), so every variant drains the same kind of queue and the
# worker's own declaration is equivalent to the harness's.
INPUT_QUEUE_ARGUMENTS = {
    "x-queue-type": "quorum", "x-delivery-limit": 5,
    "x-dead-letter-exchange": "responder.dead-letter", "x-dead-letter-routing-key": "responder.responses",
}


class Broker:
    """One AMQP connection the harness keeps open to reset queues and watch their depth."""

    def __init__(self, url, ctl):
        self.url = url
        self.ctl_command = ctl
        self.connection = None
        self.channel = None

    async def open(self):
        self.connection = await aio_pika.connect(self.url)
        self.channel = await self.connection.channel()

    async def close(self):
        await self.connection.close()

    async def reset(self, input_queue_arguments):
        """Deletes and redeclares both queues, so each run starts on empty queues with no history on disk.

        Deleting rather than purging also resets the quorum queue's log, and keeps the output queue from growing
        across runs (each run leaves at most one output per event in it).
        """
        channel = self.channel
        await channel.queue_delete(INPUT_QUEUE)
        await channel.queue_delete(OUTPUT_QUEUE)
        responses = await channel.declare_exchange(INPUT_EXCHANGE, ExchangeType.TOPIC, durable=True)
        updates = await channel.declare_exchange(OUTPUT_EXCHANGE, ExchangeType.TOPIC, durable=True)
        queue = await channel.declare_queue(INPUT_QUEUE, durable=True, arguments=input_queue_arguments)
        await queue.bind(responses, "#")
        output = await channel.declare_queue(OUTPUT_QUEUE, durable=True)
        await output.bind(updates, "#")

    async def ready(self, queue):
        """Messages ready in `queue` (not counting those delivered and not yet acked)."""
        declared = await self.channel.declare_queue(queue, passive=True)
        return declared.declaration_result.message_count

    def ctl(self, *arguments):
        return subprocess.run([*self.ctl_command, *arguments], check=True, capture_output=True, text=True).stdout

    def erlang(self, expression):
        return self.ctl("eval", expression).strip().strip('"')

    def pid(self):
        """The node's operating-system process (beam.smp), whose CPU time is the broker's share of the work."""
        return int(self.erlang("os:getpid()."))

    def versions(self):
        return {"rabbitmq": self.ctl("version").strip(), "erlang_otp": self.erlang("erlang:system_info(otp_release).")}
