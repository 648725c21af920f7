/* confirm-latency: the broker's publisher-confirm latency alone. Publishes persistent messages of SIZE bytes to
 * the worker's output exchange (so into the output queue, as the worker's updates go) at RATE a second, COUNT of
 * them, and prints the quantiles of each publish's time to its confirm. AMQP_URL as for the other programs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/time.h>

#include "bench_amqp.h"

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    if (argc < 3) bench_die("usage", "confirm-latency RATE COUNT [SIZE]");
    double rate = atof(argv[1]);
    uint64_t count = strtoull(argv[2], NULL, 10);
    size_t size = argc > 3 ? strtoul(argv[3], NULL, 10) : 600;
    amqp_connection_state_t conn = bench_connect("confirm-latency");
    bench_declare_topology(conn);
    char *payload = malloc(size);
    memset(payload, 'x', size);
    amqp_bytes_t body = {.len = size, .bytes = payload};
    amqp_basic_properties_t properties = {._flags = AMQP_BASIC_DELIVERY_MODE_FLAG, .delivery_mode = 2};
    double *sent = calloc(count + 1, sizeof *sent), *latency = calloc(count + 1, sizeof *latency);
    uint64_t published = 0, confirmed = 0;
    double start = now_s();
    while (confirmed < count) {
        double due = start + published / rate;
        if (published < count && now_s() >= due) {
            sent[++published] = now_s();
            bench_check_status(amqp_basic_publish(conn, PUBLISH_CHANNEL, amqp_cstring_bytes(OUTPUT_EXCHANGE),
                                                  amqp_cstring_bytes("confirm-latency"), 0, 0, &properties, body),
                               "basic.publish");
            continue;
        }
        double wait = published < count ? due - now_s() : 1.0;
        if (wait < 0) wait = 0;
        struct timeval timeout = {.tv_sec = (time_t)wait, .tv_usec = (suseconds_t)((wait - (time_t)wait) * 1e6)};
        amqp_frame_t frame;
        int status = amqp_simple_wait_frame_noblock(conn, &frame, &timeout);
        if (status == AMQP_STATUS_TIMEOUT) continue;
        bench_check_status(status, "waiting for a confirm");
        if (frame.frame_type != AMQP_FRAME_METHOD || frame.payload.method.id != AMQP_BASIC_ACK_METHOD)
            bench_die("waiting for a confirm", "not a basic.ack");
        amqp_basic_ack_t *ack = frame.payload.method.decoded;
        double at = now_s();
        for (uint64_t s = ack->multiple ? confirmed + 1 : ack->delivery_tag; s <= ack->delivery_tag; s++)
            if (latency[s] == 0) latency[s] = at - sent[s];
        while (confirmed < published && latency[confirmed + 1] != 0) confirmed++;
    }
    qsort(latency + 1, count, sizeof *latency, by_value);
    printf("rate %.0f/s, %llu persistent publishes of %zu bytes: confirm p50 %.2f ms, p99 %.2f ms, p99.9 %.2f ms, "
           "max %.2f ms\n", rate, (unsigned long long)count, size, latency[1 + count / 2] * 1e3,
           latency[1 + count * 99 / 100] * 1e3, latency[1 + count * 999 / 1000] * 1e3, latency[count] * 1e3);
    bench_close(conn);
    return 0;
}
