import AMQP
import Logging
import NotificationEvents
import Responder
import ResponderIntake
import ResponderWorker

/// Every setting of every command, declared once; the defaults come from the libraries' own configuration types.
enum Settings {
    private static let worker = WorkerConfiguration()
    private static let topology = Topology()
    private static let observability = ObservabilityAddress()
    /// The largest message RabbitMQ accepts at all (its `max_message_size` ceiling, 512 MiB).
    private static let largestBrokerMessage = 512 * 1024 * 1024
    /// A retry delay becomes the retry queue's `x-message-ttl` in milliseconds, which RabbitMQ holds in 32 bits.
    private static let longestRetryDelay = Int(UInt32.max / 1000)

    // MARK: Broker

    static let amqpURL = Setting<String>.text(
        "amqp-url", "RESPONDER_AMQP_URL", default: "amqp://guest:guest@127.0.0.1:5672/%2F",
        "Broker URL, amqp:// or amqps://; RESPONDER_AMQP_URL_FILE may name a file that holds it instead (a mounted secret).")
    /// The variable naming a file that holds the broker URL, read when neither the flag nor the URL variable is set.
    static let amqpURLFileVariable = "RESPONDER_AMQP_URL_FILE"
    static let caFile = Setting<String>.readableFile(
        "ca-file", "RESPONDER_AMQP_CA_FILE", defaultDescription: TLSConfiguration.systemCABundlePath,
        "TLS: CA certificate file for amqps://.")
    static let certFile = Setting<String>.readableFile(
        "cert-file", "RESPONDER_AMQP_CERT_FILE", defaultDescription: "none", "TLS: client certificate file (PEM).")
    static let keyFile = Setting<String>.readableFile(
        "key-file", "RESPONDER_AMQP_KEY_FILE", defaultDescription: "none", "TLS: client private key file (PEM).")
    static let heartbeat = Setting<Int>.wholeNumber(
        "heartbeat", "RESPONDER_HEARTBEAT", default: Int(AMQPConfiguration().heartbeat.components.seconds),
        in: 1...Int(UInt16.max), "Heartbeat interval in seconds.")

    // MARK: Topology

    static let inputExchange = Setting<String>.brokerName(
        "input-exchange", "RESPONDER_INPUT_EXCHANGE", default: topology.inputExchange, "Input exchange (topic).")
    static let inputQueue = Setting<String>.brokerName(
        "input-queue", "RESPONDER_INPUT_QUEUE", default: topology.inputQueue, "Input quorum queue.")
    static let outputExchange = Setting<String>.brokerName(
        "output-exchange", "RESPONDER_OUTPUT_EXCHANGE", default: topology.outputExchange, "Output exchange (topic).")
    static let outputQueue = Setting<String>.brokerName(
        "output-queue", "RESPONDER_OUTPUT_QUEUE", default: topology.outputQueue, "Output queue.")
    static let deadLetterExchange = Setting<String>.brokerName(
        "dead-letter-exchange", "RESPONDER_DEAD_LETTER_EXCHANGE", default: topology.deadLetterExchange,
        "Dead-letter exchange.")
    static let deadLetterQueue = Setting<String>.brokerName(
        "dead-letter-queue", "RESPONDER_DEAD_LETTER_QUEUE", default: topology.deadLetterQueue, "Dead-letter queue.")
    static let retryDelays = Setting<[Int]>.wholeNumbers(
        "retry-delays", "RESPONDER_RETRY_DELAYS", default: topology.retryDelays, in: 1...longestRetryDelay,
        "Retry delays in seconds, one retry queue each.")
    static let followUpDelays = Setting<[Int]>.wholeNumbers(
        "follow-up-delays", "RESPONDER_FOLLOW_UP_DELAYS", default: topology.followUpDelays,
        in: 1...Int(UInt32.max),
        "Delays in milliseconds of the queues handlers' follow-ups wait in, one exchange and queue each; a follow-up takes the longest not past its time left, again until it is due.")
    static let deliveryLimit = Setting<Int>.wholeNumber(
        "delivery-limit", "RESPONDER_DELIVERY_LIMIT", default: topology.deliveryLimit, in: 1...Int(Int32.max),
        "Deliveries of one input before the broker dead-letters it.")
    static let outputQueueType = Setting<QueueType>.oneOf(
        "output-queue-type", "RESPONDER_OUTPUT_QUEUE_TYPE", default: topology.outputQueueType,
        "Type of the output, dead-letter and retry queues: quorum replicates them on a cluster, so losing a node loses no update (a fleet's choice); an existing queue of the other type stops the worker with the way out.")
    static let shards = Setting<Int>.wholeNumber(
        "shards", "RESPONDER_SHARDS", default: topology.shards, in: 0...1024,
        "Ordered mode: spread the input over this many single-active-consumer shard queues by the request identifier, so each notification's events are handled in order across the fleet, retries included; 0 for the unordered input queue. Every worker of a fleet must use the same value.")

    // MARK: Handlers and state

    static let categories = Setting<String>.readableFile(
        "categories", "RESPONDER_CATEGORIES", defaultDescription: "the registered ones",
        "A categories file (Schemas/notification-categories.v1) registered instead of the built-in categories; the handlers stay.")
    static let state = Setting<String>.text(
        "state", stateVariable, default: "responder-state.sqlite",
        defaultDescription: "responder-state.sqlite in the working directory",
        "The SQLite state file, created if missing and shareable by several processes; or postgres://USER:PASSWORD@HOST:PORT/DATABASE (parameters sslmode, sslrootcert, pool_size, connect_timeout, schema) for a fleet; or :memory: for state that lasts one run. RESPONDER_STATE_FILE may name a file that holds it instead (a mounted secret).")
    /// The variable `run` reads the state location from when `--state` is absent.
    static let stateVariable = "RESPONDER_STATE"
    /// The variable naming a file that holds the state location, read when neither the flag nor the variable is set.
    static let stateFileVariable = "RESPONDER_STATE_FILE"
    static let inboxRetentionHours = Setting<Int>.wholeNumber(
        "inbox-retention-hours", "RESPONDER_INBOX_RETENTION_HOURS",
        default: Int(StateRetention.inbox.components.seconds / 3600), in: 1...876_000,
        "Hours a processed event id is remembered for deduplication.")
    static let notificationRetentionDays = Setting<Int>.wholeNumber(
        "notification-retention-days", "RESPONDER_NOTIFICATION_RETENTION_DAYS",
        default: Int(StateRetention.notifications.components.seconds / 86_400), in: 1...36_500,
        "Days a notification nothing changes is kept; a response after that starts it afresh from its category's actions, at version 1.")
    static let maxStateSize = Setting<Int>.wholeNumber(
        "max-state-size", "RESPONDER_MAX_STATE_SIZE", default: 0, in: 0...Int.max,
        "The most bytes the SQLite state file may grow to; at the limit the worker pauses, as on a full disk, until pruning frees room; 0 for no limit.")

    // MARK: The worker

    static let prefetch = Setting<Int>.wholeNumber(
        "prefetch", "RESPONDER_PREFETCH", default: Int(worker.prefetch), in: 1...Int(UInt16.max),
        "Unacknowledged inputs the broker may hand over at once; in ordered mode, across all the shards together (split among them, at least 1 each).")
    static let concurrency = Setting<Int>.wholeNumber(
        "concurrency", "RESPONDER_CONCURRENCY", default: worker.concurrency, in: 1...10_000,
        "Notifications handled at once.")
    static let handlerTimeout = Setting<Int>.wholeNumber(
        "handler-timeout", "RESPONDER_HANDLER_TIMEOUT",
        default: Int(PipelineConfiguration().handlerTimeout.components.seconds), in: 1...3600,
        "Seconds a handler may take on one response unless registered with a limit of its own; past it the handler is cancelled, nothing it did is kept, and the input is retried (dead-lettered as handler-timeout when retries run out).")
    static let dependencyFailures = Setting<Int>.wholeNumber(
        "dependency-failures", "RESPONDER_DEPENDENCY_FAILURES", default: PipelineConfiguration().dependencyFailures,
        in: 1...10_000,
        "Different events in a row one handler must fail with DependencyUnavailable before the worker pauses, as for an unavailable state store, and probes the dependency with backoff; the failures before that are retried.")
    static let maxAbandonedCalls = Setting<Int>.wholeNumber(
        "max-abandoned-calls", "RESPONDER_MAX_ABANDONED_CALLS", default: PipelineConfiguration().maxAbandonedCalls,
        in: 1...100_000,
        "Handler calls cut off by --handler-timeout that ignore the cancellation and still run (responder_handler_calls_abandoned) before the worker calls no more and pauses, as for an unavailable dependency, until some of them end.")
    static let maxBodySize = Setting<Int>.wholeNumber(
        "max-body-size", "RESPONDER_MAX_BODY_SIZE", default: PipelineConfiguration().maxBodySize,
        in: 1...largestBrokerMessage, "Largest input body accepted, in bytes; a larger one is never read and is dead-lettered by the broker (set the broker's max_message_size to match, as docker-compose.yml does).")
    static let outputMode = Setting<EventContentMode>.oneOf(
        "output-mode", "RESPONDER_OUTPUT_MODE", default: PipelineConfiguration().outputMode,
        "CloudEvents content mode of the updates: structured (the event is the body) or binary (attributes in cloudEvents_ headers, the action set as the body).")
    static let metricsPort = Setting<Int>.wholeNumber(
        "metrics-port", "RESPONDER_METRICS_PORT", default: observability.port, in: 1...Int(UInt16.max),
        "Port of /metrics, /health/live and /health/ready.")
    static let metricsHost = Setting<String>.text(
        "metrics-host", "RESPONDER_METRICS_HOST", default: observability.host,
        "Address the metrics port listens on.")
    static let gracePeriod = Setting<Int>.wholeNumber(
        "grace-period", "RESPONDER_GRACE_PERIOD", default: Int(worker.gracePeriod.components.seconds), in: 1...3600,
        "Seconds a graceful shutdown may take.")
    static let workerID = Setting<String>.text(
        "worker-id", "RESPONDER_WORKER_ID", default: nil, defaultDescription: "host-pid",
        "This worker's id in dead-letter headers, logs and its connection names.")
    static let logLevel = Setting<Logger.Level>.oneOf(
        "log-level", "RESPONDER_LOG_LEVEL", default: .info, "The least severe log level written to stderr.")

    /// What `responder run` reads, in the order of the configuration table (ResponderWorker.docc, Configuration).
    static let run: [SettingDescription] = [
        amqpURL.description, caFile.description, certFile.description, keyFile.description, heartbeat.description,
        inputExchange.description, inputQueue.description, outputExchange.description, outputQueue.description,
        deadLetterExchange.description, deadLetterQueue.description, retryDelays.description,
        followUpDelays.description, deliveryLimit.description, outputQueueType.description, shards.description, categories.description,
        state.description, inboxRetentionHours.description,
        notificationRetentionDays.description, maxStateSize.description, prefetch.description, concurrency.description,
        handlerTimeout.description, dependencyFailures.description, maxAbandonedCalls.description,
        maxBodySize.description, outputMode.description, metricsPort.description, metricsHost.description, gracePeriod.description, workerID.description, logLevel.description,
    ]

    // MARK: The tools

    /// `replay`'s and `migrate`'s state: from their command line alone, never from the variables `run` reads
    /// (``CommandLineState``).
    static let replayState = Setting<String>.text(
        "state", default: StateLocation.memory.description,
        "The store to replay into, as run's --state names one: a SQLite file or a postgres:// URL keeps the state and the inbox from one run to the next. Never taken from RESPONDER_STATE or RESPONDER_STATE_FILE.")
    static let namedState = Setting<String>.text(
        "state", default: nil, defaultDescription: "none: --state or --state-file is required",
        "The store, as run's --state names one. Never taken from RESPONDER_STATE or RESPONDER_STATE_FILE.")
    static let stateFile = Setting<String>.readableFile(
        "state-file", nil, defaultDescription: "none",
        "A file that holds the --state text (a mounted secret), so a PostgreSQL password stays off the command line.")
    static let replayLogLevel = Setting<Logger.Level>.oneOf(
        "log-level", nil, default: .error, "The least severe log level shown on stderr; debug shows each handled response.")
    static let expect = Setting<String>.readableFile(
        "expect", nil, defaultDescription: "none",
        "A golden file to compare the outputs with: exit status 1 and a diff on any difference.")
    static let rate = Setting<Double>.positiveNumber(
        "rate", default: nil, defaultDescription: "as fast as confirms allow", upTo: 1_000_000,
        "Messages per second at most.")
    static let repeatCount = Setting<Int>.wholeNumber(
        "repeat", default: 1, in: 1...1_000_000, "How many times to publish the fixture.")
    static let window = Setting<Int>.wholeNumber(
        "window", default: 1000, in: 1...100_000, "Publishes awaiting their confirm at once.")
    static let limit = Setting<Int>.wholeNumber(
        "limit", default: nil, defaultDescription: "until interrupted", in: 1...Int.max, "Stop after this many messages.")
    static let recordedExchange = inputExchange.summarized(
        "The exchange to tap: the input exchange, as run names it, unless another is given (the output or dead-letter exchange).")
    static let watchedExchange = outputExchange.summarized(
        "The exchange to watch: the output exchange, as run names it, unless another is given.")
    static let managementURL = Setting<String>.text(
        "management-url", "RESPONDER_MANAGEMENT_URL", default: "http://guest:guest@127.0.0.1:15672/%2F",
        "RabbitMQ's management API, its path the virtual host as in the broker URL; RESPONDER_MANAGEMENT_URL_FILE may name a file that holds it instead (a mounted secret).")
    /// The variable naming a file that holds the management URL, read when neither the flag nor the URL variable is set.
    static let managementURLFileVariable = "RESPONDER_MANAGEMENT_URL_FILE"
    static let healthPort = metricsPort.summarized("The worker's metrics port, as run's --metrics-port.")
    /// Not `RESPONDER_METRICS_HOST`: a worker listens on all addresses (`0.0.0.0`) where a client asks one.
    static let healthHost = Setting<String>.text(
        "metrics-host", default: "127.0.0.1",
        "The worker's metrics address (where run's --metrics-host listens); never taken from RESPONDER_METRICS_HOST.")
    static let healthTimeout = Setting<Double>.positiveNumber(
        "timeout", default: 3, upTo: 3600, "Seconds to wait for the answer.")
}
