#ifndef C_RABBITMQ_SHIM_H
#define C_RABBITMQ_SHIM_H

#include <amqp.h>
#include <amqp_framing.h>
#include <amqp_tcp_socket.h>
#include <amqp_ssl_socket.h>

#endif
