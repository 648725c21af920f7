/* fill: publishes a fixture file to the broker at AMQP_URL with publisher confirms, fast.
 *
 *     AMQP_URL=amqp://... fill FIXTURE.jsonl [--window W]
 *
 * The benchmark does not measure it; it only fills the input queue before each run, so it must be quick (the
 * aio-pika equivalent managed about 3,000 messages/s here, most of it Python's own time). Each line is a fixture
 * line: {"exchange":..., "routingKey":..., "properties":{...}, "body":{...}}. The body is sent as the JSON text
 * found in the line, byte for byte; the properties carried are contentType, messageId, correlationId, type and
 * deliveryMode (persistent unless it says 1). Lines with headers or a bodyBase64 are refused rather than sent
 * without them. Up to W publishes (default 5,000) await their confirm at once; any nack or return is fatal.
 *
 * Not `responder publish --window`, which does the same job for people: the limit and peer rows run where no Swift
 * toolchain is, and filling must not depend on the build being measured (Benchmarks/README.md). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_amqp.h"

/* A span of the line being read. */
struct text {
    const char *start;
    size_t length;
};

static int text_is(struct text t, const char *literal) {
    return t.length == strlen(literal) && memcmp(t.start, literal, t.length) == 0;
}

static const char *skip_space(const char *p) {
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
    return p;
}

/* Returns the end of the JSON value at p, or NULL when it is malformed. */
static const char *skip_value(const char *p) {
    if (*p == '"') {
        for (p++; *p != '"'; p++) {
            if (*p == '\0') return NULL;
            if (*p == '\\' && *++p == '\0') return NULL;
        }
        return p + 1;
    }
    if (*p == '{' || *p == '[') {
        int depth = 0;
        do {
            if (*p == '"') {
                p = skip_value(p);
                if (p == NULL) return NULL;
                continue;
            }
            if (*p == '{' || *p == '[') depth++;
            if (*p == '}' || *p == ']') depth--;
            if (*p == '\0') return NULL;
            p++;
        } while (depth > 0);
        return p;
    }
    while (*p != '\0' && *p != ',' && *p != '}' && *p != ']' && *p != ' ' && *p != '\n') p++;
    return p;
}

/* Calls found(key, value) for each member of the object at p (keys without quotes, values as raw JSON text).
 * Returns 0 when the object is malformed. */
static int each_member(const char *p, void (*found)(struct text key, struct text value, void *context),
                       void *context) {
    p = skip_space(p);
    if (*p++ != '{') return 0;
    p = skip_space(p);
    if (*p == '}') return 1;
    for (;;) {
        if (*p != '"') return 0;
        const char *key_end = skip_value(p);
        if (key_end == NULL) return 0;
        struct text key = {p + 1, (size_t)(key_end - p - 2)};
        p = skip_space(key_end);
        if (*p++ != ':') return 0;
        p = skip_space(p);
        const char *value_end = skip_value(p);
        if (value_end == NULL) return 0;
        found(key, (struct text){p, (size_t)(value_end - p)}, context);
        p = skip_space(value_end);
        if (*p == '}') return 1;
        if (*p++ != ',') return 0;
        p = skip_space(p);
    }
}

/* A JSON string's contents, which must have no escapes (names and ids in fixtures have none). */
static amqp_bytes_t plain_string(struct text value, const char *what) {
    if (value.length < 2 || value.start[0] != '"' || memchr(value.start, '\\', value.length) != NULL)
        bench_die(what, "expected a string without escapes");
    return (amqp_bytes_t){value.length - 2, (void *)(value.start + 1)};
}

struct line {
    int has_exchange, has_routing_key, has_body;
    amqp_bytes_t exchange, routing_key, body;
    amqp_basic_properties_t properties;
};

static void found_property(struct text key, struct text value, void *context) {
    amqp_basic_properties_t *p = context;
    if (text_is(key, "contentType")) {
        p->_flags |= AMQP_BASIC_CONTENT_TYPE_FLAG;
        p->content_type = plain_string(value, "contentType");
    } else if (text_is(key, "messageId")) {
        p->_flags |= AMQP_BASIC_MESSAGE_ID_FLAG;
        p->message_id = plain_string(value, "messageId");
    } else if (text_is(key, "correlationId")) {
        p->_flags |= AMQP_BASIC_CORRELATION_ID_FLAG;
        p->correlation_id = plain_string(value, "correlationId");
    } else if (text_is(key, "type")) {
        p->_flags |= AMQP_BASIC_TYPE_FLAG;
        p->type = plain_string(value, "type");
    } else if (text_is(key, "deliveryMode")) {
        p->delivery_mode = (uint8_t)atoi(value.start);
    } else {
        bench_die("fixture line", "a property fill does not carry (only contentType, messageId, correlationId, "
                                  "type, deliveryMode)");
    }
}

static void found_member(struct text key, struct text value, void *context) {
    struct line *line = context;
    if (text_is(key, "exchange")) {
        line->exchange = plain_string(value, "exchange");
        line->has_exchange = 1;
    } else if (text_is(key, "routingKey")) {
        line->routing_key = plain_string(value, "routingKey");
        line->has_routing_key = 1;
    } else if (text_is(key, "body")) {
        line->body = (amqp_bytes_t){value.length, (void *)value.start};
        line->has_body = 1;
    } else if (text_is(key, "properties")) {
        if (!each_member(value.start, found_property, &line->properties))
            bench_die("fixture line", "malformed properties");
    } else if (text_is(key, "bodyBase64")) {
        bench_die("fixture line", "bodyBase64 is not supported: fill sends JSON bodies");
    }
}

int main(int argc, char **argv) {
    static const struct option options[] = {{"window", required_argument, NULL, 'w'}, {NULL, 0, NULL, 0}};
    uint64_t window = 5000;
    int option;
    while ((option = getopt_long(argc, argv, "w:", options, NULL)) != -1) {
        if (option != 'w') return 2;
        window = strtoull(optarg, NULL, 10);
    }
    if (optind != argc - 1 || window == 0) {
        fprintf(stderr, "usage: AMQP_URL=... fill FIXTURE.jsonl [--window W]\n");
        return 2;
    }
    FILE *fixture = fopen(argv[optind], "r");
    if (fixture == NULL) bench_die(argv[optind], "cannot open");

    amqp_connection_state_t conn = bench_connect("fill");
    struct confirms confirms;
    confirms_init(&confirms, window);
    char *text = NULL;
    size_t capacity = 0;
    unsigned long number = 0;
    while (getline(&text, &capacity, fixture) != -1) {
        number++;
        if (*skip_space(text) == '\0') continue;
        struct line line = {0};
        line.properties.delivery_mode = 2;
        if (!each_member(text, found_member, &line) || !line.has_exchange || !line.has_routing_key || !line.has_body) {
            fprintf(stderr, "fill: line %lu: not a fixture line with exchange, routingKey and body\n", number);
            return 1;
        }
        line.properties._flags |= AMQP_BASIC_DELIVERY_MODE_FLAG;
        while (confirms.published - confirms.confirmed >= window) confirms_wait_frame(conn, &confirms);
        bench_check_status(amqp_basic_publish(conn, PUBLISH_CHANNEL, line.exchange, line.routing_key,
                                              1 /* mandatory: an unroutable line is an error */, 0,
                                              &line.properties, line.body),
                           "basic.publish");
        confirms_sent(&confirms, number);
    }
    while (confirms.confirmed < confirms.published) confirms_wait_frame(conn, &confirms);
    fprintf(stderr, "fill: %llu messages confirmed\n", (unsigned long long)confirms.published);
    free(text);
    fclose(fixture);
    confirms_free(&confirms);
    bench_close(conn);
    return 0;
}
