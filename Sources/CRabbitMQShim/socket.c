#include "CRabbitMQShim.h"

// librabbitmq 0.11's socket base class, from its uninstalled amqp_socket.h: every socket, TCP or TLS, starts with
// a pointer to its table of operations, whose first entry is send. Only that entry is declared here.
typedef ssize_t (*c_rabbitmq_socket_send_fn)(void *, void const *, size_t, int);

struct c_rabbitmq_socket_class {
    c_rabbitmq_socket_send_fn send;
};

struct c_rabbitmq_socket {
    struct c_rabbitmq_socket_class const *klass;
};

ssize_t c_rabbitmq_socket_send(amqp_socket_t *socket, void const *bytes, size_t count) {
    struct c_rabbitmq_socket *base = (struct c_rabbitmq_socket *)socket;
    return base->klass->send(socket, bytes, count, 0);
}
