#include "bench_amqp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <amqp_tcp_socket.h>

static const char *program_name = "bench";

void bench_die(const char *context, const char *reason) {
    fprintf(stderr, "%s: %s: %s\n", program_name, context, reason);
    exit(1);
}

void bench_check_status(int status, const char *context) {
    if (status < 0) bench_die(context, amqp_error_string2(status));
}

void bench_check_reply(amqp_rpc_reply_t reply, const char *context) {
    char reason[512];
    switch (reply.reply_type) {
    case AMQP_RESPONSE_NORMAL:
        return;
    case AMQP_RESPONSE_LIBRARY_EXCEPTION:
        bench_die(context, amqp_error_string2(reply.library_error));
        break;
    case AMQP_RESPONSE_SERVER_EXCEPTION:
        if (reply.reply.id == AMQP_CONNECTION_CLOSE_METHOD) {
            amqp_connection_close_t *close = reply.reply.decoded;
            snprintf(reason, sizeof reason, "connection closed by the broker: %u %.*s", close->reply_code,
                     (int)close->reply_text.len, (const char *)close->reply_text.bytes);
        } else if (reply.reply.id == AMQP_CHANNEL_CLOSE_METHOD) {
            amqp_channel_close_t *close = reply.reply.decoded;
            snprintf(reason, sizeof reason, "channel closed by the broker: %u %.*s", close->reply_code,
                     (int)close->reply_text.len, (const char *)close->reply_text.bytes);
        } else {
            snprintf(reason, sizeof reason, "unexpected broker method 0x%08x", reply.reply.id);
        }
        bench_die(context, reason);
        break;
    default:
        bench_die(context, "no reply");
    }
}

amqp_connection_state_t bench_connect(const char *program) {
    program_name = program;
    const char *url = getenv("AMQP_URL");
    if (url == NULL) bench_die("AMQP_URL", "not set");
    char *url_copy = strdup(url);
    struct amqp_connection_info info;
    amqp_default_connection_info(&info);
    bench_check_status(amqp_parse_url(url_copy, &info), "AMQP_URL");

    amqp_connection_state_t conn = amqp_new_connection();
    amqp_socket_t *socket = amqp_tcp_socket_new(conn);
    if (socket == NULL) bench_die("socket", "cannot create");
    bench_check_status(amqp_socket_open(socket, info.host, info.port), "connect");
    bench_check_reply(amqp_login(conn, info.vhost, 0, AMQP_DEFAULT_FRAME_SIZE, 0, AMQP_SASL_METHOD_PLAIN,
                                 info.user, info.password),
                      "login");
    free(url_copy);

    amqp_channel_open(conn, CONSUME_CHANNEL);
    bench_check_reply(amqp_get_rpc_reply(conn), "channel.open");
    amqp_channel_open(conn, PUBLISH_CHANNEL);
    bench_check_reply(amqp_get_rpc_reply(conn), "channel.open");
    amqp_confirm_select(conn, PUBLISH_CHANNEL);
    bench_check_reply(amqp_get_rpc_reply(conn), "confirm.select");
    return conn;
}

static void declare_exchange(amqp_connection_state_t conn, const char *name) {
    amqp_exchange_declare(conn, CONSUME_CHANNEL, amqp_cstring_bytes(name), amqp_cstring_bytes("topic"),
                          0 /* passive */, 1 /* durable */, 0 /* auto-delete */, 0 /* internal */, amqp_empty_table);
    bench_check_reply(amqp_get_rpc_reply(conn), name);
}

static void declare_bound_queue(amqp_connection_state_t conn, const char *queue, const char *exchange,
                                amqp_table_t arguments) {
    amqp_queue_declare(conn, CONSUME_CHANNEL, amqp_cstring_bytes(queue), 0 /* passive */, 1 /* durable */,
                       0 /* exclusive */, 0 /* auto-delete */, arguments);
    bench_check_reply(amqp_get_rpc_reply(conn), queue);
    amqp_queue_bind(conn, CONSUME_CHANNEL, amqp_cstring_bytes(queue), amqp_cstring_bytes(exchange),
                    amqp_cstring_bytes("#"), amqp_empty_table);
    bench_check_reply(amqp_get_rpc_reply(conn), queue);
}

void bench_declare_topology(amqp_connection_state_t conn) {
    // The worker's input queue exactly (`responder topology`), so whoever declares it first, the others match.
    amqp_table_entry_t input_arguments[4];
    input_arguments[0].key = amqp_cstring_bytes("x-queue-type");
    input_arguments[0].value.kind = AMQP_FIELD_KIND_UTF8;
    input_arguments[0].value.value.bytes = amqp_cstring_bytes("quorum");
    input_arguments[1].key = amqp_cstring_bytes("x-delivery-limit");
    input_arguments[1].value.kind = AMQP_FIELD_KIND_I64;
    input_arguments[1].value.value.i64 = 5;
    input_arguments[2].key = amqp_cstring_bytes("x-dead-letter-exchange");
    input_arguments[2].value.kind = AMQP_FIELD_KIND_UTF8;
    input_arguments[2].value.value.bytes = amqp_cstring_bytes("responder.dead-letter");
    input_arguments[3].key = amqp_cstring_bytes("x-dead-letter-routing-key");
    input_arguments[3].value.kind = AMQP_FIELD_KIND_UTF8;
    input_arguments[3].value.value.bytes = amqp_cstring_bytes("responder.responses");
    amqp_table_t input_table = {.num_entries = 4, .entries = input_arguments};

    declare_exchange(conn, INPUT_EXCHANGE);
    declare_exchange(conn, OUTPUT_EXCHANGE);
    declare_bound_queue(conn, INPUT_QUEUE, INPUT_EXCHANGE, input_table);
    declare_bound_queue(conn, OUTPUT_QUEUE, OUTPUT_EXCHANGE, amqp_empty_table);
}

void bench_close(amqp_connection_state_t conn) {
    bench_check_reply(amqp_channel_close(conn, PUBLISH_CHANNEL, AMQP_REPLY_SUCCESS), "channel.close");
    bench_check_reply(amqp_channel_close(conn, CONSUME_CHANNEL, AMQP_REPLY_SUCCESS), "channel.close");
    bench_check_reply(amqp_connection_close(conn, AMQP_REPLY_SUCCESS), "connection.close");
    bench_check_status(amqp_destroy_connection(conn), "destroy");
}

void confirms_init(struct confirms *c, uint64_t most_in_flight) {
    uint64_t capacity = 1;
    while (capacity <= most_in_flight) capacity <<= 1;
    c->published = 0;
    c->confirmed = 0;
    c->mask = capacity - 1;
    c->value = calloc(capacity, sizeof *c->value);
    c->acked = calloc(capacity, 1);
    if (c->value == NULL || c->acked == NULL) bench_die("confirms", "out of memory");
}

void confirms_free(struct confirms *c) {
    free(c->value);
    free(c->acked);
}

uint64_t confirms_sent(struct confirms *c, uint64_t value) {
    uint64_t sequence = ++c->published;
    if (sequence - c->confirmed > c->mask) bench_die("confirms", "more publishes in flight than planned");
    c->value[sequence & c->mask] = value;
    c->acked[sequence & c->mask] = 0;
    return sequence;
}

uint64_t confirms_value(const struct confirms *c, uint64_t sequence) {
    return c->value[sequence & c->mask];
}

static void apply_ack(struct confirms *c, uint64_t tag, int multiple) {
    if (tag > c->published) bench_die("confirms", "broker confirmed a publish never sent");
    for (uint64_t s = multiple ? c->confirmed + 1 : tag; s <= tag; s++) c->acked[s & c->mask] = 1;
    /* The broker may confirm out of order; only an unbroken run moves the watermark. */
    while (c->confirmed < c->published && c->acked[(c->confirmed + 1) & c->mask]) c->confirmed++;
}

void confirms_wait_frame(amqp_connection_state_t conn, struct confirms *c) {
    amqp_frame_t frame;
    bench_check_status(amqp_simple_wait_frame(conn, &frame), "waiting for a confirm");
    if (frame.frame_type != AMQP_FRAME_METHOD) bench_die("waiting for a confirm", "unexpected content frame");
    switch (frame.payload.method.id) {
    case AMQP_BASIC_ACK_METHOD: {
        amqp_basic_ack_t *ack = frame.payload.method.decoded;
        apply_ack(c, ack->delivery_tag, ack->multiple);
        return;
    }
    case AMQP_BASIC_NACK_METHOD:
        bench_die("publish", "nacked by the broker");
        break;
    case AMQP_BASIC_RETURN_METHOD:
        bench_die("publish", "returned by the broker: no queue is bound for its routing key");
        break;
    case AMQP_CHANNEL_CLOSE_METHOD:
    case AMQP_CONNECTION_CLOSE_METHOD: {
        amqp_rpc_reply_t reply = {.reply_type = AMQP_RESPONSE_SERVER_EXCEPTION, .reply = frame.payload.method};
        bench_check_reply(reply, "while publishing");
        break;
    }
    default:
        bench_die("waiting for a confirm", "unexpected method");
    }
}
