#ifndef C_RABBITMQ_SHIM_H
#define C_RABBITMQ_SHIM_H

#include <amqp.h>
#include <amqp_framing.h>
#include <amqp_tcp_socket.h>
#include <amqp_ssl_socket.h>
// The AMQP module's I/O thread sleeps in poll() on the socket and an eventfd; Glibc's module map omits eventfd.
#include <sys/eventfd.h>

#endif
