/* limit: the physical limit of the responder's job on this machine, broker and librabbitmq.
 *
 *     AMQP_URL=amqp://... limit --events N --prefetch P --answers FILE
 *
 * It does everything the worker must do on the wire and nothing else: consume the input queue with prefetch P,
 * publish a persistent message to the output exchange with publisher confirms, and ack the inputs (with
 * `multiple`) once the publishes that answer them are confirmed. No decoding, no routing, no state. What this
 * reaches is the best any worker on librabbitmq can do here, so the responder is measured as a fraction of it.
 *
 * The broker work is matched to the responder's on the same fixture: FILE has one line per input, in the order
 * the inputs were published, and line i is the body of the update the RedGreen logic publishes for input i, or
 * empty when that input changes no buttons. Input i is the delivery with tag i (one consumer on a freshly filled
 * queue, one channel), so the limit publishes an update for exactly the inputs `responder run` answers, with the
 * reference logic's body, and acks the rest as they come: the same confirmed persistent publishes and acks.
 *
 * Everything is pipelined: an input is answered as soon as it arrives, without waiting for earlier confirms, so
 * up to P publishes are in flight. Acks go out once per burst of frames read, with the worker's policy
 * (ResponderWorker's AckTracker): the settled prefix with one ack(multiple). The worker acks an input alone only
 * behind one still being handled, and here every unsettled input only waits for its confirm, so the same inputs
 * cost the broker about the same ack frames as they cost it from `responder run`; the count is printed.
 * Exits 0 after N inputs are acked. */
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench_amqp.h"

/* Inputs delivered and not yet acked, by delivery tag (1, 2, ... on a fresh channel). An input is settled once
 * it needs nothing more: its answer is confirmed, or it needs none. */
struct inputs {
    uint64_t delivered;   /* the last delivery tag received */
    uint64_t acked;       /* every input up to this tag is acked */
    uint64_t ack_frames;  /* basic.ack frames sent */
    unsigned char *settled; /* per tag, 1...N */
};

static double seconds_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

static void parse_arguments(int argc, char **argv, uint64_t *events, int *prefetch, const char **answers) {
    static const struct option options[] = {
        {"events", required_argument, NULL, 'n'},
        {"prefetch", required_argument, NULL, 'p'},
        {"answers", required_argument, NULL, 'a'},
        {NULL, 0, NULL, 0},
    };
    int option;
    while ((option = getopt_long(argc, argv, "n:p:a:", options, NULL)) != -1) {
        switch (option) {
        case 'n': *events = strtoull(optarg, NULL, 10); break;
        case 'p': *prefetch = atoi(optarg); break;
        case 'a': *answers = optarg; break;
        default: exit(2);
        }
    }
    if (*events == 0 || *prefetch < 1 || *prefetch > 65535 || *answers == NULL) {
        fprintf(stderr, "usage: AMQP_URL=... limit --events N --prefetch P (1...65535) --answers FILE\n");
        exit(2);
    }
}

/* The answers file, mapped, with where each input's line starts: answer i is bytes [start[i-1], start[i]-1). */
struct answers {
    const char *bytes;
    size_t size;
    size_t *start; /* events + 1 offsets */
};

static struct answers load_answers(const char *path, uint64_t events) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) bench_die(path, "cannot open the answers file");
    struct stat info;
    if (fstat(fd, &info) != 0 || info.st_size == 0) bench_die(path, "cannot read the answers file");
    struct answers answers = {.size = (size_t)info.st_size};
    answers.bytes = mmap(NULL, answers.size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (answers.bytes == MAP_FAILED) bench_die(path, "cannot map the answers file");
    answers.start = malloc((events + 1) * sizeof(size_t));
    if (answers.start == NULL) bench_die("answers", "out of memory");
    size_t offset = 0;
    for (uint64_t line = 0; line < events; line++) {
        answers.start[line] = offset;
        const char *end = memchr(answers.bytes + offset, '\n', answers.size - offset);
        if (end == NULL) bench_die(path, "has fewer lines than --events");
        offset = (size_t)(end - answers.bytes) + 1;
    }
    answers.start[events] = offset;
    return answers;
}

/* The body answering the input with this delivery tag; empty when it needs no answer. */
static amqp_bytes_t answer_for(const struct answers *answers, uint64_t tag) {
    size_t start = answers->start[tag - 1];
    return (amqp_bytes_t){.len = answers->start[tag] - 1 - start, .bytes = (void *)(answers->bytes + start)};
}

/* Answers one input: its update body, persistent, to the output exchange with the input's routing key. */
static void publish_answer(amqp_connection_state_t conn, const amqp_envelope_t *delivery, amqp_bytes_t body) {
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
                                          &properties, body),
                       "basic.publish");
}

static void settle(struct inputs *inputs, uint64_t tag) { inputs->settled[tag] = 1; }

/* The worker's acks for what settled since the last call: the settled prefix with one ack(multiple). */
static void ack_settled(amqp_connection_state_t conn, struct inputs *inputs) {
    uint64_t through = inputs->acked;
    while (through < inputs->delivered && inputs->settled[through + 1]) through++;
    if (through == inputs->acked) return;
    bench_check_status(amqp_basic_ack(conn, CONSUME_CHANNEL, through, 1 /* multiple */), "basic.ack");
    inputs->ack_frames++;
    inputs->acked = through;
}

int main(int argc, char **argv) {
    uint64_t events = 0;
    int prefetch = 200;
    const char *answers_path = NULL;
    parse_arguments(argc, argv, &events, &prefetch, &answers_path);
    struct answers answers = load_answers(answers_path, events);

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
    inputs.settled = calloc(events + 1, 1);
    if (inputs.settled == NULL) bench_die("inputs", "out of memory");
    double started = seconds_now();

    while (inputs.acked < events) {
        /* Frees the previous pass's frames; nothing decoded earlier is used after this point. */
        amqp_maybe_release_buffers(conn);
        amqp_envelope_t delivery;
        amqp_rpc_reply_t reply = amqp_consume_message(conn, &delivery, NULL, 0);
        if (reply.reply_type == AMQP_RESPONSE_NORMAL) {
            inputs.delivered = delivery.delivery_tag;
            if (delivery.delivery_tag > events) bench_die("limit", "more deliveries than --events");
            amqp_bytes_t answer = answer_for(&answers, delivery.delivery_tag);
            if (answer.len > 0) {
                publish_answer(conn, &delivery, answer);
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
    free(answers.start);
    munmap((void *)answers.bytes, answers.size);
    fprintf(stderr, "limit: %llu events in %.2f s (%.0f/s), %llu ack frames\n", (unsigned long long)inputs.acked,
            elapsed, (double)inputs.acked / elapsed, (unsigned long long)inputs.ack_frames);
    return 0;
}
