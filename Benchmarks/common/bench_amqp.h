/* What the benchmark's C programs (limit, fill) share: connecting, failing loudly, the worker's topology, and
 * tracking publisher confirms. rabbitmq-c 0.11 has no confirm helper (it arrived in 0.15), so confirms are read
 * here as the basic.ack / basic.nack method frames they are. */
#ifndef BENCH_AMQP_H
#define BENCH_AMQP_H

#include <stdint.h>

#include <amqp.h>

/* The channel deliveries arrive on and the one publishes go out on: a publishing error closes only its channel. */
enum { CONSUME_CHANNEL = 1, PUBLISH_CHANNEL = 2 };

#define INPUT_EXCHANGE "notifications.responses"
#define INPUT_QUEUE "responder.responses"
#define OUTPUT_EXCHANGE "notifications.action-updates"
#define OUTPUT_QUEUE "responder.action-updates"

/* Prints "<program>: <context>: <reason>" and exits 1. Every error is fatal in a benchmark. */
void bench_die(const char *context, const char *reason);
void bench_check_reply(amqp_rpc_reply_t reply, const char *context);
void bench_check_status(int status, const char *context);

/* Connects to the URL in AMQP_URL (heartbeats off: runs are short and never idle), opens both channels and puts
 * the publishing one in confirm mode. `program` prefixes every message. */
amqp_connection_state_t bench_connect(const char *program);

/* Declares the worker's topology, idempotently, as the worker does at start. */
void bench_declare_topology(amqp_connection_state_t conn);

/* Closes both channels and the connection, then frees the connection state. */
void bench_close(amqp_connection_state_t conn);

/* Publishes in flight, by confirm sequence number (1, 2, ... per channel after confirm.select). Each slot keeps a
 * caller's value (the limit keeps the delivery tag of the input the publish answers). `confirmed` only moves over
 * an unbroken run of confirmed publishes, so "everything up to `confirmed`" is always true. */
struct confirms {
    uint64_t published;
    uint64_t confirmed;
    uint64_t mask;      /* capacity - 1; capacity is a power of two above the most publishes in flight */
    uint64_t *value;    /* caller's value per slot */
    unsigned char *acked;
};

void confirms_init(struct confirms *c, uint64_t most_in_flight);
void confirms_free(struct confirms *c);
/* Records a publish just sent with `value`; returns its sequence number. */
uint64_t confirms_sent(struct confirms *c, uint64_t value);
/* The caller's value of publish `sequence`, while that publish is among the last `capacity` sent. */
uint64_t confirms_value(const struct confirms *c, uint64_t sequence);
/* Waits for the next frame, which must be a confirm, and applies it. A nack, a returned (unroutable) publish or a
 * closed channel ends the program: the benchmark must never count work the broker did not take. */
void confirms_wait_frame(amqp_connection_state_t conn, struct confirms *c);

#endif
