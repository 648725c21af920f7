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
# Ordered mode's consistent-hash exchange and shard queues (`responder topology --shards N`).
SHARD_EXCHANGE = "responder.responses.shards"
MOST_SHARDS = 16  # the most shards a variant uses: reset deletes that many


def shard_queue(index):
    return f"responder.responses.shard.{index}"


def shard_queue_arguments(index):
    return {**INPUT_QUEUE_ARGUMENTS, "x-single-active-consumer": True, "x-dead-letter-routing-key": shard_queue(index)}


def input_queues(shards):
    """The queues a worker with `shards` consumes: the input queue, or the shard queues."""
    return [shard_queue(index) for index in range(shards)] if shards else [INPUT_QUEUE]


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

    async def reset(self, input_queue_arguments, shards=0):
        """Deletes and redeclares the input and output queues, so each run starts on empty queues with no history
        on disk; with `shards`, ordered mode's topology instead of the input queue (the worker refuses a broker that
        holds the other layout, so the other one is deleted).

        Deleting rather than purging also resets the quorum queue's log, and keeps the output queue from growing
        across runs (each run leaves at most one output per event in it).
        """
        channel = self.channel
        await channel.queue_delete(INPUT_QUEUE)
        for index in range(MOST_SHARDS):
            await channel.queue_delete(shard_queue(index))
        await channel.exchange_delete(SHARD_EXCHANGE)
        await channel.queue_delete(OUTPUT_QUEUE)
        responses = await channel.declare_exchange(INPUT_EXCHANGE, ExchangeType.TOPIC, durable=True)
        updates = await channel.declare_exchange(OUTPUT_EXCHANGE, ExchangeType.TOPIC, durable=True)
        if shards:
            hashing = await channel.declare_exchange(SHARD_EXCHANGE, "x-consistent-hash", durable=True)
            await hashing.bind(responses, "#")
            for index in reversed(range(shards)):
                queue = await channel.declare_queue(
                    shard_queue(index), durable=True, arguments=shard_queue_arguments(index))
                await queue.bind(hashing, "1")
        else:
            queue = await channel.declare_queue(INPUT_QUEUE, durable=True, arguments=input_queue_arguments)
            await queue.bind(responses, "#")
        output = await channel.declare_queue(OUTPUT_QUEUE, durable=True)
        await output.bind(updates, "#")

    async def ready_inputs(self, shards):
        """Messages ready in the input queue, or in all shard queues."""
        return sum([await self.ready(queue) for queue in input_queues(shards)])

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
