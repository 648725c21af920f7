#ifndef C_RABBITMQ_SHIM_LOGIN_H
#define C_RABBITMQ_SHIM_LOGIN_H

#include <amqp.h>
#include <sys/types.h>

// amqp_login_with_properties is variadic, and Swift cannot call C variadic functions: this fixes its
// SASL arguments to PLAIN with a user name and password.
amqp_rpc_reply_t c_rabbitmq_login_plain(amqp_connection_state_t state, char const *vhost, int channel_max,
                                        int frame_max, int heartbeat, amqp_table_t const *client_properties,
                                        char const *user, char const *password);

// What c_rabbitmq_socket_send returns, besides a byte count or a negative amqp_status_enum, when the non-blocking
// socket cannot take bytes now: wait until it is writable (or, for TLS, readable), then retry with the same bytes.
// librabbitmq 0.11's private AMQP_PRIVATE_STATUS_SOCKET_NEEDREAD and _NEEDWRITE.
enum {
    C_RABBITMQ_SOCKET_NEEDS_READ = -0x1301,
    C_RABBITMQ_SOCKET_NEEDS_WRITE = -0x1302,
};

// Writes up to `count` bytes through the connection's socket (send() for TCP, SSL_write in partial-write mode for
// TLS); returns how many went out, or a status above. librabbitmq 0.11 does not export amqp_socket_send.
ssize_t c_rabbitmq_socket_send(amqp_socket_t *socket, void const *bytes, size_t count);

// Names the calling thread for the kernel (what ps, top and perf show), its first 15 bytes: pthread_setname_np is a
// GNU extension, which Swift's Glibc module does not export.
void c_name_current_thread(char const *name);

#endif
