/* limit: the physical limit of the responder's job on this machine, broker and librabbitmq.
 *
 *     AMQP_URL=amqp://... limit --events N --prefetch P [--publish-every K]
 *
 * It does everything the worker must do on the wire and nothing else: consume the input queue with prefetch P,
 * publish a persistent message to the output exchange with publisher confirms, and ack the inputs (with
 * `multiple`) once the publishes that answer them are confirmed. No decoding, no routing, no state: the output
 * is the input body, sent with the input's routing key (the category) and message id. What this reaches is the
 * best any worker on librabbitmq can do here, so the responder is measured as a fraction of it.
 *
 * By default every input is answered. RedGreen answers about one event in four (the others change no buttons),
 * so `--publish-every 4` answers every fourth input only and acks the rest as they come: the same broker work per
 * event as the responder and the peer do.
 *
 * Everything is pipelined: an input is answered as soon as it arrives, without waiting for earlier confirms, so
 * up to P publishes are in flight. Acks go out once per burst of frames read, for the longest run of inputs
 * that need nothing more, so the broker gets few, large ack(multiple) frames. Exits 0 after N inputs are acked. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench_amqp.h"

/* Inputs delivered and not yet acked, by delivery tag (1, 2, ... on a fresh channel). An input is settled once
 * it needs nothing more: its answer is confirmed, or it needs none. */
struct inputs {
    uint64_t delivered; /* the last delivery tag received */
    uint64_t acked;     /* every input up to this tag is acked */
    uint64_t mask;      /* capacity - 1; capacity is a power of two above the prefetch */
    unsigned char *settled;
};

static double seconds_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static void parse_arguments(int argc, char **argv, uint64_t *events, int *prefetch, uint64_t *publish_every) {
    static const struct option options[] = {
        {"events", required_argument, NULL, 'n'},
        {"prefetch", required_argument, NULL, 'p'},
        {"publish-every", required_argument, NULL, 'k'},
        {NULL, 0, NULL, 0},
    };
    int option;
    while ((option = getopt_long(argc, argv, "n:p:k:", options, NULL)) != -1) {
        switch (option) {
        case 'n': *events = strtoull(optarg, NULL, 10); break;
        case 'p': *prefetch = atoi(optarg); break;
        case 'k': *publish_every = strtoull(optarg, NULL, 10); break;
        default: exit(2);
        }
    }
    if (*events == 0 || *prefetch < 1 || *prefetch > 65535 || *publish_every == 0) {
        fprintf(stderr, "usage: AMQP_URL=... limit --events N --prefetch P (1...65535) [--publish-every K]\n");
        exit(2);
    }
}

/* Answers one input: the same body, persistent, to the output exchange. */
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

static void settle(struct inputs *inputs, uint64_t tag) {
    inputs->settled[tag & inputs->mask] = 1;
}

/* Acks, with one ack(multiple), the longest run of settled inputs after the last acked one. */
static void ack_settled(amqp_connection_state_t conn, struct inputs *inputs) {
    uint64_t last = inputs->acked;
    while (last < inputs->delivered && inputs->settled[(last + 1) & inputs->mask]) {
        last++;
        inputs->settled[last & inputs->mask] = 0;
    }
    if (last == inputs->acked) return;
    bench_check_status(amqp_basic_ack(conn, CONSUME_CHANNEL, last, 1 /* multiple */), "basic.ack");
    inputs->acked = last;
}

int main(int argc, char **argv) {
    uint64_t events = 0, publish_every = 1;
    int prefetch = 200;
    parse_arguments(argc, argv, &events, &prefetch, &publish_every);

    amqp_connection_state_t conn = bench_connect("limit");
    bench_declare_topology(conn);
    amqp_basic_qos(conn, CONSUME_CHANNEL, 0, (uint16_t)prefetch, 0);
    bench_check_reply(amqp_get_rpc_reply(conn), "basic.qos");
    amqp_basic_consume(conn, CONSUME_CHANNEL, amqp_cstring_bytes(INPUT_QUEUE), amqp_empty_bytes, 0 /* no-local */,
                       0 /* no-ack */, 0 /* exclusive */, amqp_empty_table);
    bench_check_reply(amqp_get_rpc_reply(conn), "basic.consume");

    /* At most `prefetch` inputs are unacked, and each has at most one unconfirmed answer; each publish keeps the
     * delivery tag of the input it answers. */
    struct confirms confirms;
    confirms_init(&confirms, (uint64_t)prefetch);
    struct inputs inputs = {0};
    inputs.mask = confirms.mask;
    inputs.settled = calloc(inputs.mask + 1, 1);
    if (inputs.settled == NULL) bench_die("inputs", "out of memory");
    double started = seconds_now();

    while (inputs.acked < events) {
        /* Frees the previous pass's frames; nothing decoded earlier is used after this point. */
        amqp_maybe_release_buffers(conn);
        amqp_envelope_t delivery;
        amqp_rpc_reply_t reply = amqp_consume_message(conn, &delivery, NULL, 0);
        if (reply.reply_type == AMQP_RESPONSE_NORMAL) {
            inputs.delivered = delivery.delivery_tag;
            if (delivery.delivery_tag % publish_every == 0) {
                publish_answer(conn, &delivery);
                confirms_sent(&confirms, delivery.delivery_tag);
            } else {
                settle(&inputs, delivery.delivery_tag);
            }
            amqp_destroy_envelope(&delivery);
        } else if (reply.reply_type == AMQP_RESPONSE_LIBRARY_EXCEPTION &&
                   reply.library_error == AMQP_STATUS_UNEXPECTED_STATE) {
            /* Not a delivery: the frame waits for us, and on this connection it can only be a confirm. */
            uint64_t before = confirms.confirmed;
            confirms_wait_frame(conn, &confirms);
            for (uint64_t sequence = before + 1; sequence <= confirms.confirmed; sequence++)
                settle(&inputs, confirms_value(&confirms, sequence));
        } else {
            bench_check_reply(reply, "consuming");
        }
        /* The end of a burst: nothing more is buffered, so the next read would wait. */
        if (!amqp_frames_enqueued(conn) && !amqp_data_in_buffer(conn)) ack_settled(conn, &inputs);
    }

    double elapsed = seconds_now() - started;
    bench_close(conn);
    confirms_free(&confirms);
    free(inputs.settled);
    fprintf(stderr, "limit: %llu events in %.2f s (%.0f/s)\n", (unsigned long long)inputs.acked, elapsed,
            (double)inputs.acked / elapsed);
    return 0;
}
