/* limit: the physical limit of the responder's job on this machine, broker and librabbitmq.
 *
 *     AMQP_URL=amqp://... limit --events N --prefetch P
 *
 * It does everything the worker must do on the wire and nothing else: consume the input queue with prefetch P,
 * publish one persistent message per delivery to the output exchange with publisher confirms, and ack the inputs
 * (with `multiple`) once the publishes that answer them are confirmed. No decoding, no routing, no state: the
 * output is the input body, sent with the input's routing key (the category) and message id. What this reaches
 * is the best any worker on librabbitmq can do here, so the responder is measured as a fraction of it.
 *
 * Everything is pipelined: a delivery is answered as soon as it arrives, without waiting for earlier confirms,
 * so up to P publishes are in flight. Both sequences are in lockstep (one publish per delivery, in delivery
 * order), so the confirm of publish k means every input up to the k-th delivery can be acked with one
 * ack(multiple). Exits 0 after N inputs are acked. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_amqp.h"

static double seconds_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static void parse_arguments(int argc, char **argv, uint64_t *events, int *prefetch) {
    static const struct option options[] = {
        {"events", required_argument, NULL, 'n'},
        {"prefetch", required_argument, NULL, 'p'},
        {NULL, 0, NULL, 0},
    };
    int option;
    while ((option = getopt_long(argc, argv, "n:p:", options, NULL)) != -1) {
        switch (option) {
        case 'n': *events = strtoull(optarg, NULL, 10); break;
        case 'p': *prefetch = atoi(optarg); break;
        default: exit(2);
        }
    }
    if (*events == 0 || *prefetch < 1 || *prefetch > 65535) {
        fprintf(stderr, "usage: AMQP_URL=... limit --events N --prefetch P (1...65535)\n");
        exit(2);
    }
}

/* Answers one delivery: the same body, persistent, to the output exchange. */
static void publish_answer(amqp_connection_state_t conn, const amqp_envelope_t *delivery) {
    const amqp_basic_properties_t *input = &delivery->message.properties;
    amqp_basic_properties_t properties;
    properties._flags = AMQP_BASIC_DELIVERY_MODE_FLAG | AMQP_BASIC_CONTENT_TYPE_FLAG;
    properties.delivery_mode = 2; /* persistent */
    properties.content_type = amqp_cstring_bytes("application/cloudevents+json");
    if (input->_flags & AMQP_BASIC_MESSAGE_ID_FLAG) {
        properties._flags |= AMQP_BASIC_MESSAGE_ID_FLAG | AMQP_BASIC_CORRELATION_ID_FLAG;
        properties.message_id = input->message_id;
        properties.correlation_id = input->message_id;
    }
    bench_check_status(amqp_basic_publish(conn, PUBLISH_CHANNEL, amqp_cstring_bytes(OUTPUT_EXCHANGE),
                                          delivery->routing_key, 0 /* mandatory */, 0 /* immediate */,
                                          &properties, delivery->message.body),
                       "basic.publish");
}

int main(int argc, char **argv) {
    uint64_t events = 0;
    int prefetch = 200;
    parse_arguments(argc, argv, &events, &prefetch);

    amqp_connection_state_t conn = bench_connect("limit");
    bench_declare_topology(conn);
    amqp_basic_qos(conn, CONSUME_CHANNEL, 0, (uint16_t)prefetch, 0);
    bench_check_reply(amqp_get_rpc_reply(conn), "basic.qos");
    amqp_basic_consume(conn, CONSUME_CHANNEL, amqp_cstring_bytes(INPUT_QUEUE), amqp_empty_bytes, 0 /* no-local */,
                       0 /* no-ack */, 0 /* exclusive */, amqp_empty_table);
    bench_check_reply(amqp_get_rpc_reply(conn), "basic.consume");

    /* Each unacked delivery has at most one unconfirmed publish, so at most `prefetch` are in flight. Each slot
     * keeps the delivery tag of the input its publish answers. */
    struct confirms confirms;
    confirms_init(&confirms, (uint64_t)prefetch);
    uint64_t acked = 0;
    double started = seconds_now();

    while (acked < events) {
        /* Frees the previous pass's frames; nothing decoded earlier is used after this point. */
        amqp_maybe_release_buffers(conn);
        amqp_envelope_t delivery;
        amqp_rpc_reply_t reply = amqp_consume_message(conn, &delivery, NULL, 0);
        if (reply.reply_type == AMQP_RESPONSE_NORMAL) {
            publish_answer(conn, &delivery);
            confirms_sent(&confirms, delivery.delivery_tag);
            amqp_destroy_envelope(&delivery);
        } else if (reply.reply_type == AMQP_RESPONSE_LIBRARY_EXCEPTION &&
                   reply.library_error == AMQP_STATUS_UNEXPECTED_STATE) {
            /* Not a delivery: the frame waits for us, and on this connection it can only be a confirm. */
            confirms_wait_frame(conn, &confirms);
            if (confirms.confirmed > acked) {
                bench_check_status(amqp_basic_ack(conn, CONSUME_CHANNEL, confirms_last_value(&confirms),
                                                  1 /* multiple */),
                                   "basic.ack");
                acked = confirms.confirmed;
            }
        } else {
            bench_check_reply(reply, "consuming");
        }
    }

    double elapsed = seconds_now() - started;
    bench_close(conn);
    confirms_free(&confirms);
    fprintf(stderr, "limit: %llu events in %.2f s (%.0f/s)\n", (unsigned long long)acked, elapsed,
            (double)acked / elapsed);
    return 0;
}
